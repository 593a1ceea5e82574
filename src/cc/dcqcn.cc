#include "cc/dcqcn.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace rocelab {

void DcqcnRp::CatchUpAlpha(Time now) {
  if (!seen_cnp_) return;
  const Time period = p_->alpha_update_period;
  if (now < alpha_period_start_ + period) return;
  const int64_t k = (now - alpha_period_start_) / period;
  // First elapsed period: alpha moves toward 1 if a CNP arrived in it, else decays.
  alpha_ = (1.0 - p_->g) * alpha_ + (cnp_in_period_ ? p_->g : 0.0);
  if (k > 1) alpha_ *= std::pow(1.0 - p_->g, static_cast<double>(k - 1));
  cnp_in_period_ = false;
  alpha_period_start_ += k * period;
}

bool DcqcnRp::OnCnp(Time now) {
  if (!seen_cnp_) {
    seen_cnp_ = true;
    alpha_ = p_->initial_alpha;
    alpha_period_start_ = now;
    cut_anchor_ = now;
    if (p_->rate_on_first_cnp_bps > 0) rc_ = rt_ = std::min(line_rate_, static_cast<double>(p_->rate_on_first_cnp_bps));
  } else {
    CatchUpAlpha(now);
  }
  cnp_in_period_ = true;
  const Time period = p_->rate_reduce_period;
  if (period == 0) {
    Cut(now);
    return true;
  }
  // NVIDIA: a CNP is latched and the rate cut at the start of the next
  // rate_reduce_monitor_period; the HPCC code's CheckRateDecreaseMlx runs every period from
  // the first CNP and cuts when one arrived since the last check.
  if (cut_due_ == kTimeNever) cut_due_ = cut_anchor_ + ((now - cut_anchor_) / period + 1) * period;
  return false;
}

void DcqcnRp::Cut(Time now) {
  // Target rate: remembered before the cut, so fast recovery climbs back to it. It follows
  // the current rate on the first cut, on every cut with clamp_target_rate, and when an
  // increase since the last cut came from the byte counter, or (clamp_tgt_rate_after_time_inc)
  // from the timer.
  const bool increased = byte_stage_ > 0 || (p_->clamp_target_after_time_inc && timer_stage_ > 0);
  if (p_->clamp_target_rate || !active_ || increased) rt_ = rc_;
  double cut = rc_ * (1.0 - alpha_ / std::pow(2.0, p_->alpha_to_rate_shift));
  cut = std::max(cut, rc_ * p_->min_dec_factor);
  rc_ = std::max(cut, static_cast<double>(p_->min_rate_bps));
  active_ = true;
  timer_stage_ = byte_stage_ = 0;
  bytes_ = 0;
  timer_due_ = now + p_->rate_increase_period;
}

void DcqcnRp::OnBytesSent(uint64_t bytes) {
  static_assert(offsetof(DcqcnRp, rc_) < kPerPacketBytes && offsetof(DcqcnRp, active_) < kPerPacketBytes &&
                    offsetof(DcqcnRp, bytes_) < kPerPacketBytes &&
                    offsetof(DcqcnRp, byte_stage_) + sizeof(byte_stage_) <= kPerPacketBytes,
                "what a packet sent reads is the head of the reaction point");
  if (!active_ || p_->byte_counter == 0) return;
  bytes_ += bytes;
  if (bytes_ >= p_->byte_counter) {
    bytes_ -= p_->byte_counter;
    ++byte_stage_;
    Increase();
  }
}

void DcqcnRp::OnTimer(Time now) {
  if (now == cut_due_) {  // the end of a period that saw a CNP
    cut_due_ = kTimeNever;
    CatchUpAlpha(now);
    Cut(now);  // restarts the increase timer: no increase at the same instant
  }
  if (!active_ || now != timer_due_) return;
  ++timer_stage_;
  timer_due_ = now + p_->rate_increase_period;
  Increase();
}

void DcqcnRp::Increase() {
  const int f = p_->fast_recovery_stages;
  const int hi = std::max(timer_stage_, byte_stage_), lo = std::min(timer_stage_, byte_stage_);
  if (p_->byte_counter == 0) {
    // Timer stages alone (the HPCC code's RateIncEventMlx): F fast-recovery stages, one
    // additive step, then hyper increase by R_HAI per stage.
    if (timer_stage_ == f + 1) rt_ += static_cast<double>(p_->ai_rate_bps);
    else if (timer_stage_ > f + 1) rt_ += static_cast<double>(p_->hai_rate_bps);
  } else if (hi <= f) {
    // fast recovery (the first F stages): halve the distance to the target
  } else if (lo > f) {
    rt_ += static_cast<double>(lo - f) * static_cast<double>(p_->hai_rate_bps);  // hyper increase
  } else {
    rt_ += static_cast<double>(p_->ai_rate_bps);  // additive increase
  }
  rt_ = std::min(rt_, line_rate_);
  rc_ = std::min((rt_ + rc_) / 2.0, line_rate_);
  if (rc_ >= line_rate_ * (1.0 - 1e-9)) {
    rc_ = rt_ = line_rate_;
    active_ = false;
    timer_due_ = kTimeNever;
  }
}

}  // namespace rocelab
