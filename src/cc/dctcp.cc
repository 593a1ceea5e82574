#include "cc/dctcp.h"

#include <algorithm>

namespace rocelab {

void DctcpRp::OnAck(uint32_t una, uint32_t snd_nxt, uint32_t acked, uint32_t ce) {
  window_acked_ += acked;
  window_ce_ += ce;
  // A window of data has been acknowledged: alpha learns its share of marks.
  const bool window_ended = una > window_end_;
  if (window_ended) {
    const double share =
        window_acked_ > 0 ? std::min(1.0, static_cast<double>(window_ce_) / window_acked_) : (window_ce_ > 0 ? 1.0 : 0.0);
    alpha_ = (1 - p_->g) * alpha_ + p_->g * share;
    window_end_ = snd_nxt;
    window_acked_ = window_ce_ = 0;
  }
  if (cwr_ && una > cwr_end_) cwr_ = false;
  if (ce > 0 && !cwr_) {
    rate_.Cut(1 - alpha_ / 2, p_->min_rate_bps);
    cwr_ = true;
    cwr_end_ = snd_nxt;
    return;
  }
  if (window_ended && !cwr_) rate_.Add(static_cast<double>(p_->rate_ai_bps));
}

}  // namespace rocelab
