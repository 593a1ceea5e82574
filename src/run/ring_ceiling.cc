#include "run/ring_ceiling.h"

#include <map>
#include <utility>

#include "net/control_plane.h"
#include "topo/topology.h"

namespace rocelab {

RingCeiling ComputeRingCeiling(const Fabric& f, const AllreduceDriver& ring) {
  RingCeiling out;
  const Topology& topo = f.topology();
  const int n = ring.ranks();
  if (n < 2) return out;
  const uint64_t block = (ring.bytes() + n - 1) / n;
  const uint64_t per_rank = block * 2 * static_cast<uint64_t>(n - 1);
  // Egress (node, port) -> bytes on the wire per iteration.
  std::map<std::pair<int, int>, double> load;
  for (const std::vector<uint32_t>& qps : ring.ring_qps()) {
    for (uint32_t id : qps) {
      const QueuePair& qp = f.qps()[id];
      const uint64_t payload = per_rank / qps.size();
      const uint64_t packets = (payload + qp.mtu - 1) / qp.mtu;
      const double wire = static_cast<double>(payload) +
                          static_cast<double>(packets) * (kRoceHeaders + f.scenario().wire_overhead);
      int node = topo.hosts()[qp.src];
      int port = 0;
      Packet probe{};
      probe.src = qp.src;
      probe.dst = qp.dst;
      probe.udp_sport = qp.udp_sport;
      probe.udp_dport = qp.udp_dport;
      for (int hop = 0; hop < 64; ++hop) {
        load[{node, port}] += wire;
        const TopoPort& tp = topo.nodes()[node].ports[port];
        node = tp.peer_node;
        if (!topo.nodes()[node].is_switch) break;
        port = static_cast<const Switch&>(f.device(node)).Route(&probe);
        if (port < 0) return out;  // no way there: no ceiling to speak of
      }
      if (node != topo.hosts()[qp.dst]) return out;
    }
  }
  double worst = 0;
  for (const auto& [np, bytes] : load) {
    const uint64_t rate = f.device(np.first).port(np.second).rate_bps;
    const double t = bytes * 8 / static_cast<double>(rate) * kSecond;
    if (t <= worst) continue;
    worst = t;
    const int peer = topo.nodes()[np.first].ports[np.second].peer_node;
    out.bottleneck = topo.nodes()[np.first].name + ":" + TimelinePortName(topo, np.first, np.second) + " -> " +
                     topo.nodes()[peer].name;
    out.bottleneck_bytes = static_cast<uint64_t>(bytes);
    out.bottleneck_rate_bps = rate;
  }
  out.iteration = static_cast<Time>(worst);
  return out;
}

}  // namespace rocelab
