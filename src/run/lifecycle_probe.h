// What the faults' lifecycle figures (run/lifecycle.h) need from a run while it
// goes on, read at instants that are the same in the run with its faults and
// in the counterfactual without them: every window, the bytes delivered so far
// by every queue pair and by each trace's flows; at each fault's injection
// (just after it), the same, and what the device agents have dropped so far.
// It only reads; it changes nothing in the run.
#ifndef ROCELAB_RUN_LIFECYCLE_PROBE_H_
#define ROCELAB_RUN_LIFECYCLE_PROBE_H_

#include <cstdint>
#include <vector>

#include "net/fabric.h"

namespace rocelab {

class LifecycleProbe final : public EventSource {
 public:
  // `trace_of_qp`: the trace entry each queue pair belongs to (-1: none). Samples every
  // `window` from now, and at every time of `marks` (the faults' injections).
  LifecycleProbe(Fabric* fabric, std::vector<int> trace_of_qp, size_t traces, Time window, const std::vector<Time>& marks);

  struct Sample {
    Time t = 0;
    uint64_t delivered = 0;              // by every queue pair
    std::vector<uint64_t> trace;         // by each trace's flows
    uint64_t watchdog_drop_bytes = 0;    // every switch's PFC watchdog, drop action (both ways)
    uint64_t guard_discard_bytes = 0;    // every NIC's pause-storm guard
    uint64_t no_route_drop_bytes = 0;    // every switch's drops for want of a route
  };
  // The window samples, in time order, then (once Finish() ran) one at the end of the run.
  const std::vector<Sample>& samples() const { return samples_; }
  // At each mark, in the order given.
  const std::vector<Sample>& marks() const { return marks_; }
  Time window() const { return window_; }
  // Takes the sample at the end of the run.
  void Finish();
  // A sample of the fabric now.
  static Sample Take(const Fabric& fabric, const std::vector<int>& trace_of_qp, size_t traces);

  // The bytes a series delivered by `t` (linear between samples; flat after the last).
  static double At(const std::vector<Sample>& s, Time t, int trace = -1);
  // The first time the series had delivered `bytes` (linear between samples); the last
  // sample's time if it never did.
  static Time When(const std::vector<Sample>& s, double bytes);

  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  Fabric* fabric_;
  std::vector<int> trace_of_qp_;
  size_t traces_;
  Time window_;
  std::vector<Sample> samples_, marks_;
  bool finished_ = false;
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_LIFECYCLE_PROBE_H_
