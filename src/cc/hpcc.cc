#include "cc/hpcc.h"

#include <algorithm>

namespace rocelab {

void HpccRp::OnAck(uint32_t una, uint32_t snd_nxt, const uint64_t* hops, int count, const IntFormat& f) {
  if (count > kMaxIntHops) return;  // a path longer than the header holds: its records are lost
  if (!started_) {
    // The first records are only a reference: a rate needs two records of each hop.
    started_ = true;
    update_end_ = snd_nxt;
    std::copy(hops, hops + count, last_);
    return;
  }
  const bool round_trip = una > update_end_;
  if (round_trip || p_->fast_react) Update(hops, count, f, !round_trip);
  if (round_trip && snd_nxt > update_end_) update_end_ = snd_nxt;
}

void HpccRp::Update(const uint64_t* hops, int count, const IntFormat& f, bool fast) {
  const double t_ns = static_cast<double>(base_rtt_) / kNanosecond;
  double most = 0;   // the largest u of the path...
  uint64_t tau = 0;  // ...and the time its two records are apart (ns)
  bool sampled = false;
  for (int i = 0; i < count; ++i) {
    const IntHop now(hops[i], f), before(last_[i], f);
    if (p_->sample_feedback && fast && now.qlen() == 0) continue;
    const uint64_t ns = now.NsSince(before);
    if (ns == 0) continue;  // the same record again: no rate in it
    sampled = true;
    const double hop_rate = static_cast<double>(now.rate_bps());
    const double tx_rate = static_cast<double>(now.BytesSince(before)) * 8 / (static_cast<double>(ns) * 1e-9);
    // The queue both records saw, in the base RTT's bytes at that hop's rate.
    const double queue = static_cast<double>(std::min(now.qlen(), before.qlen())) * line_rate_ / hop_rate /
                         static_cast<double>(bdp_);
    const double u = tx_rate / hop_rate + queue;
    if (u > most) {
      most = u;
      tau = ns;
    }
    last_[i] = hops[i];
  }
  if (!sampled) return;
  const double dt = std::min(static_cast<double>(tau), t_ns);
  u_ = (u_ * (t_ns - dt) + most * dt) / t_ns;
  const double over = u_ / p_->eta;
  double next;
  int next_stage;
  if (over >= 1 || stage_ >= p_->max_stage) {
    next = over > 0 ? rc_ / over + ai_ : line_rate_;
    next_stage = 0;
  } else {
    next = rc_ + ai_;
    next_stage = stage_ + 1;
  }
  next = std::min(line_rate_, std::max(static_cast<double>(p_->min_rate_bps), next));
  rate_.Set(next);
  if (!fast) {
    rc_ = next;
    stage_ = next_stage;
  }
}

}  // namespace rocelab
