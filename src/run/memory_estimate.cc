#include "run/memory_estimate.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "net/flow_paths.h"
#include "transport/queue_pair.h"

namespace rocelab {
namespace {

// Per-item costs fitted to peak RSS of fat-trees k = 8 to 64 with one flow and no report.html
// (README, "Speed"): the estimate lands 15-20 % above what was measured.
constexpr double kBaseBytes = 10 << 20;          // the program itself
// A port with its link, timers and wire (hosts' ports folded in); 448 bytes of a switch port are
// its priority groups and egress queues taking whole cache lines (net/switch.h).
constexpr double kBytesPerSwitchPort = 5400;
constexpr double kSummaryBytesPerPort = 2470;    // a device port in summary.json as it is built
// The queue pair, its slot, its messages and its paths (net/flow_paths.h).
constexpr double kBytesPerFlow = sizeof(QueuePair) * 2 + 1024 + FlowPaths::kBytesPerQueuePair;
constexpr double kBytesPerSwitchRoutes = 32;     // its routing rule (Topology::SwitchRoutes)
// An explicit fabric's next-hop tables grow one switch at a time, interleaved: freed buffers
// stay resident.
constexpr double kNextHopSlack = 1.5;

struct Counts {
  double hosts = 0, switches = 0, switch_ports = 0;
  double next_hops = 0;  // table entries over every (switch, host) pair: explicit fabrics only
};

Counts CountFabric(const TopologySpec& t) {
  Counts c;
  switch (t.type) {
    case TopologySpec::Type::kSpineLeaf: {
      const double leaves = t.leaves, spines = t.spines, hpl = t.hosts_per_leaf;
      c.hosts = leaves * hpl;
      c.switches = leaves + spines;
      c.switch_ports = leaves * (hpl + spines) + spines * leaves;
      break;
    }
    case TopologySpec::Type::kFatTree: {
      const double k = t.k;
      c.hosts = k * k * k / 4;
      c.switches = 5 * k * k / 4;
      c.switch_ports = c.switches * k;
      break;
    }
    case TopologySpec::Type::kExplicit: {
      for (const auto& n : t.nodes) (n.is_switch ? c.switches : c.hosts) += 1;
      c.switch_ports = 2.0 * static_cast<double>(t.links.size()) - c.hosts;
      // Unknown without the routing itself: every switch reaches every host over half its ports.
      c.next_hops = c.switches > 0 ? c.hosts * c.switch_ports / 2 : 0;
      break;
    }
  }
  return c;
}

double StaticFlows(const Scenario& sc, double hosts) {
  double flows = static_cast<double>(sc.flows.size());
  flows += static_cast<double>(sc.permutations.size()) * hosts;
  return flows;
}

}  // namespace

MemoryEstimate EstimateMemory(const Scenario& sc, bool device_counters) {
  const Counts c = CountFabric(sc.topology);
  MemoryEstimate m;
  // Per switch its routing rule and, per port, its live list and rank (topo/topology.h); an
  // explicit fabric adds its shortest-path tables.
  m.routes = static_cast<uint64_t>(c.switches * kBytesPerSwitchRoutes + (c.switch_ports + c.switches) * 2 * sizeof(uint16_t));
  if (sc.topology.type == TopologySpec::Type::kExplicit)
    m.routes += static_cast<uint64_t>(c.switches * (c.hosts + 1) * sizeof(uint32_t) +
                                      c.next_hops * sizeof(uint16_t) * kNextHopSlack);
  m.devices = static_cast<uint64_t>(kBaseBytes + c.switch_ports * kBytesPerSwitchPort);
  m.flows = static_cast<uint64_t>(StaticFlows(sc, c.hosts) * kBytesPerFlow);
  if (device_counters)
    m.summary = static_cast<uint64_t>((c.switch_ports + c.hosts) * kSummaryBytesPerPort);
  if (!sc.faults.empty() && sc.lifecycle.counterfactual) m.counterfactual = m.routes + m.devices + m.flows;
  m.total = m.routes + m.devices + m.flows + m.summary + m.counterfactual;
  return m;
}

std::string MemoryEstimate::Describe() const {
  return "routes " + FormatBytes(routes) + ", devices " + FormatBytes(devices) + ", flows " + FormatBytes(flows) +
         ", summary " + FormatBytes(summary) +
         (counterfactual ? ", the run without its faults " + FormatBytes(counterfactual) : "");
}

uint64_t AvailableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key;
    uint64_t kb = 0;
    if (s >> key >> kb && key == "MemAvailable:") return kb * 1024;
  }
  return 0;
}

std::string FormatBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, kUnits[u]);
  return buf;
}

}  // namespace rocelab
