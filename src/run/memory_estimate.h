// How much memory a run will need, estimated from the scenario alone, before
// anything is built: a fabric too large for the machine is refused up front,
// naming the estimate, instead of swapping for minutes and being killed.
// The terms follow the engine's data structures; their constants were measured
// with peak RSS on fat-trees of k = 8 to 40 (README, "Speed", shows them).
#ifndef ROCELAB_RUN_MEMORY_ESTIMATE_H_
#define ROCELAB_RUN_MEMORY_ESTIMATE_H_

#include <cstdint>
#include <string>

#include "scenario/scenario.h"

namespace rocelab {

struct MemoryEstimate {
  uint64_t routes = 0;   // next-hop state: per switch port, plus per (switch, host) for explicit fabrics
  uint64_t devices = 0;  // switch ports, NICs, queues and counters
  uint64_t flows = 0;    // queue pairs of the static workload
  uint64_t summary = 0;  // summary.json as it is built
  // A scenario with faults runs again without them (run/counterfactual.h) while the run with them
  // is still held: a second fabric, its routes and flows.
  uint64_t counterfactual = 0;
  uint64_t total = 0;
  std::string Describe() const;  // "routes 1.2 GB, devices 80 MB, ..."
};

// `device_counters`: summary.json will carry every device's counters (run --counters all).
MemoryEstimate EstimateMemory(const Scenario& sc, bool device_counters = true);

// MemAvailable of /proc/meminfo, in bytes; 0 where unknown.
uint64_t AvailableMemoryBytes();

// "1.5 GB", "320 MB", "12 KB" (powers of 1024, as scenario sizes are).
std::string FormatBytes(uint64_t bytes);

}  // namespace rocelab

#endif  // ROCELAB_RUN_MEMORY_ESTIMATE_H_
