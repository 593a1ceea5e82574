// DCQCN reaction point: the per-QP rate controller of Zhu et al. (SIGCOMM
// 2015). A CNP is latched and the rate cut by alpha/2 at the end of the
// rate_reduce_period in which it arrived (one cut per period, however many
// CNPs; a period of 0 cuts on every CNP); alpha is an EWMA of "a CNP arrived in
// this period"; a timer and a byte counter drive fast recovery, additive and
// hyper increase. Alpha is kept lazily (caught up when read) so no
// per-microsecond event runs.
#ifndef ROCELAB_CC_DCQCN_H_
#define ROCELAB_CC_DCQCN_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cc/dcqcn_params.h"
#include "sim/time.h"

namespace rocelab {

class DcqcnRp {
 public:
  // What a packet sent reads (OnBytesSent, and rate_bps for the pacing gap) is in the first
  // this many bytes: a QueuePair keeps them on one cache line with the requester's other
  // per-packet fields.
  static constexpr size_t kPerPacketBytes = 32;

  void Init(const DcqcnParams* params, uint64_t line_rate_bps) {
    p_ = params;
    line_rate_ = static_cast<double>(line_rate_bps);
    rc_ = rt_ = line_rate_;
  }

  double rate_bps() const { return rc_; }
  double target_bps() const { return rt_; }
  double alpha(Time now) { CatchUpAlpha(now); return alpha_; }
  bool limited() const { return active_; }
  // When the QP's next timed step is due: a latched cut or a rate increase (kTimeNever: none).
  Time timer_due() const { return std::min(cut_due_, active_ ? timer_due_ : kTimeNever); }

  // A CNP for this QP. Returns true if it cut the rate now (rate_reduce_period 0); otherwise
  // the CNP is latched and the cut comes at the end of its period, through OnTimer.
  bool OnCnp(Time now);
  // Bytes put on the wire; may complete a byte-counter stage.
  void OnBytesSent(uint64_t bytes);
  // The timer fired at `now` (== timer_due()): the latched cut, or a rate-increase stage.
  void OnTimer(Time now);

 private:
  void CatchUpAlpha(Time now);
  void Cut(Time now);
  void Increase();

  // What each packet sent reads comes first, in kPerPacketBytes.
  const DcqcnParams* p_ = nullptr;
  double rc_ = 0;
  uint64_t bytes_ = 0;
  bool active_ = false;   // rate-limited since a CNP
  bool seen_cnp_ = false;
  bool cnp_in_period_ = false;
  int byte_stage_ = 0, timer_stage_ = 0;
  double rt_ = 0;
  double line_rate_ = 0;
  double alpha_ = 1.0;
  Time alpha_period_start_ = 0;
  Time cut_anchor_ = 0;          // the first CNP: cut periods are counted from it
  Time cut_due_ = kTimeNever;    // the end of the period holding a latched CNP (none: kTimeNever)
  Time timer_due_ = kTimeNever;
};

}  // namespace rocelab

#endif  // ROCELAB_CC_DCQCN_H_
