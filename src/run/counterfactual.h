// The counterfactual: the same scenario and seed, run again without its
// faults (`lifecycle: {counterfactual: true}`, the default when a scenario has
// faults). The queue pairs are opened in the same order, so a queue pair id
// names the same flow in both runs; every random stream is seeded the same, so
// the two runs are the same run up to the first injection. What the faults'
// lifecycle figures compare with (run/lifecycle.h) is kept; the fabric is not.
#ifndef ROCELAB_RUN_COUNTERFACTUAL_H_
#define ROCELAB_RUN_COUNTERFACTUAL_H_

#include <cstdint>
#include <vector>

#include "run/lifecycle_probe.h"
#include "sim/event_queue.h"

namespace rocelab {

struct Counterfactual {
  Time end = 0;       // when the run ended
  double wall_s = 0;  // its wall-clock time (summary.json: under engine only)
  struct Qp {
    bool done = false, failed = false, open = false;
    Time start = 0, finish = -1;
    uint64_t delivered = 0;
  };
  std::vector<Qp> qps;  // by id
  std::vector<std::vector<Time>> allreduce_times;  // per AllReduce, each iteration's time
  std::vector<std::vector<Time>> allreduce_ends;   // ... and when each ended
  std::vector<LifecycleProbe::Sample> samples;     // the probe's, window by window
  std::vector<LifecycleProbe::Sample> marks;       // ... and at each fault's injection time
  uint64_t bytes_delivered = 0;
  uint64_t drops_lossless = 0;
  uint64_t pause_frames_tx = 0;
  double slowdown_p50 = 0, slowdown_p99 = 0;  // of the finished flows
  size_t detections = 0;  // what its monitor detected (a healthy fabric: none, or congestion)
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_COUNTERFACTUAL_H_
