// DCQCN reaction point: the per-QP rate controller of Zhu et al. (SIGCOMM
// 2015). CNPs cut the current rate by alpha/2 (at most once per
// rate_reduce_period); alpha is an EWMA of "a CNP arrived in this period";
// a timer and a byte counter drive fast recovery, additive and hyper increase.
// Alpha is kept lazily (caught up when read) so no per-microsecond event runs.
#ifndef ROCELAB_CC_DCQCN_H_
#define ROCELAB_CC_DCQCN_H_

#include <cstdint>

#include "cc/dcqcn_params.h"
#include "sim/time.h"

namespace rocelab {

class DcqcnRp {
 public:
  void Init(const DcqcnParams* params, uint64_t line_rate_bps) {
    p_ = params;
    line_rate_ = static_cast<double>(line_rate_bps);
    rc_ = rt_ = line_rate_;
  }

  double rate_bps() const { return rc_; }
  double target_bps() const { return rt_; }
  double alpha(Time now) { CatchUpAlpha(now); return alpha_; }
  bool limited() const { return active_; }
  // When the rate-increase timer is next due (kTimeNever when idle).
  Time timer_due() const { return active_ ? timer_due_ : kTimeNever; }

  // A CNP for this QP. Returns true if it cut the rate (false: coalesced).
  bool OnCnp(Time now);
  // Bytes put on the wire; may complete a byte-counter stage.
  void OnBytesSent(uint64_t bytes);
  // The rate-increase timer fired at `now` (== timer_due()).
  void OnTimer(Time now);

 private:
  void CatchUpAlpha(Time now);
  void Increase();

  const DcqcnParams* p_ = nullptr;
  double line_rate_ = 0;
  double rc_ = 0, rt_ = 0;
  double alpha_ = 1.0;
  bool active_ = false;   // rate-limited since a CNP
  bool seen_cnp_ = false;
  bool cnp_in_period_ = false;
  Time alpha_period_start_ = 0;
  Time last_cut_ = 0;
  bool any_cut_ = false;
  Time timer_due_ = kTimeNever;
  int timer_stage_ = 0, byte_stage_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_CC_DCQCN_H_
