#include "cc/timely.h"

namespace rocelab {

void TimelyRp::OnAck(uint32_t una, uint32_t snd_nxt, Time rtt) {
  if (last_rtt_ >= 0 && una <= window_end_) return;  // not a new window yet
  window_end_ = snd_nxt;
  if (last_rtt_ < 0) {  // the first sample: nothing to take a difference from
    last_rtt_ = rtt;
    return;
  }
  const double new_diff = static_cast<double>(rtt - last_rtt_);
  last_rtt_ = rtt;
  rtt_diff_ = (1 - p_->alpha) * rtt_diff_ + p_->alpha * new_diff;
  const double gradient = rtt_diff_ / static_cast<double>(p_->min_rtt);
  if (rtt < p_->t_low) {
    if (p_->low_rtt_counts) ++increases_;
    rate_.Add(p_->low_rtt_counts && increases_ >= p_->hai_after ? hai_ : ai_);
    return;
  }
  if (rtt > p_->t_high) {
    increases_ = 0;
    rate_.Cut(1 - p_->beta * (1 - static_cast<double>(p_->t_high) / static_cast<double>(rtt)), p_->min_rate_bps);
    return;
  }
  if (gradient <= 0) {
    ++increases_;
    rate_.Add(increases_ >= p_->hai_after ? hai_ : ai_);
    return;
  }
  increases_ = 0;
  rate_.Cut(1 - p_->beta * gradient, p_->min_rate_bps);
}

}  // namespace rocelab
