// The flows of the static workloads (incast, permutation, all-to-all, trace),
// drawn from seeded streams so a scenario and seed always give the same list.
#ifndef ROCELAB_WORKLOAD_GENERATORS_H_
#define ROCELAB_WORKLOAD_GENERATORS_H_

#include <cstdint>
#include <vector>

#include "scenario/scenario.h"
#include "sim/packet.h"
#include "topo/topology.h"

namespace rocelab {

struct FlowRequest {
  int src = 0, dst = 0;  // host indices
  uint64_t size = 0;
  Time start = 0;
  uint8_t dscp = kRoceDscp;
  bool background = false;
  Time rto = 0;
  int trace = -1;  // the trace entry (index into Scenario::traces) it came from, else -1
  uint16_t udp_sport = 0, udp_dport = 0;  // 0: the fabric's own (FlowSpec)
};

// All flows of the scenario's workload entries, in a stable order. Throws
// ConfigError for entries that cannot be generated (e.g. an unreadable CDF).
std::vector<FlowRequest> GenerateFlows(const Scenario& sc, const Topology& topo);

}  // namespace rocelab

#endif  // ROCELAB_WORKLOAD_GENERATORS_H_
