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
      Packet headers{};
      headers.src = qp.src;
      headers.dst = qp.dst;
      headers.udp_sport = qp.udp_sport;
      headers.udp_dport = qp.udp_dport;
      const std::vector<std::pair<int, int>> path = f.PathOf(headers);
      if (path.empty()) return out;  // no way there: no ceiling to speak of
      for (const auto& np : path) load[np] += wire;
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
