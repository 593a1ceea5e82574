#include "topo/ideal_fct.h"

#include <algorithm>

#include "sim/packet.h"

namespace rocelab {

Time IdealFct(const Topology& topo, int src, int dst, uint64_t size, const NicSpec& nic, uint32_t wire_overhead,
              Time grain) {
  const std::vector<const LinkSpec*> path = topo.PathLinks(src, dst);
  if (path.empty()) return 0;
  const uint32_t mtu = nic.mtu;
  const uint64_t packets = std::max<uint64_t>(1, (size + mtu - 1) / mtu);
  const uint32_t last_payload = static_cast<uint32_t>(size - (packets - 1) * mtu);
  const int hops = static_cast<int>(path.size());
  // Each frame's time on each link, rounded down to the profile's clock grain as its simulator
  // does: the first frame (it carries the RETH), the full ones after it, and the last.
  auto on_wire = [&](uint32_t payload, bool first, int hop) {
    const uint64_t bytes = FrameBytes(nic.data_header_bytes, payload, first ? nic.reth_bytes : 0) + wire_overhead;
    return RoundDown(SerializationTime(bytes, path[hop]->rate_bps), grain);
  };
  std::vector<Time> first(hops), middle(hops), last(hops);
  for (int j = 0; j < hops; ++j) {
    first[j] = on_wire(packets == 1 ? last_payload : mtu, true, j);
    middle[j] = on_wire(mtu, false, j);
    last[j] = on_wire(last_payload, false, j);
  }
  // Store-and-forward over the hops with every frame ready at the start: the last frame leaves the
  // last link when the longest chain of serializations along the (frame, hop) grid is done, the
  // chain moving to the next frame or the next link at each step (a tandem of queues). The full
  // frames are alike, so the longest chain takes the first frame over links 1..p, the full ones
  // over p..q (all but one of them on the slowest of those links) and the last over q..H.
  Time serialization = 0;
  if (packets == 1) {
    for (int j = 0; j < hops; ++j) serialization += first[j];
  } else {
    const uint64_t full = packets - 2;  // frames between the first and the last
    for (int p = 0; p < hops; ++p) {
      Time head = 0;
      for (int j = 0; j <= p; ++j) head += first[j];
      for (int q = p; q < hops; ++q) {
        Time chain = head, slowest = 0, tail = 0;
        if (full > 0) {
          for (int j = p; j <= q; ++j) chain += middle[j], slowest = std::max(slowest, middle[j]);
          chain += static_cast<Time>(full - 1) * slowest;
        } else if (q > p) {
          continue;  // no full frame to carry the chain from link p to link q
        }
        for (int j = q; j < hops; ++j) tail += last[j];
        serialization = std::max(serialization, chain + tail);
      }
    }
  }
  Time total = serialization;
  for (const LinkSpec* l : path) {
    total += l->delay;                                                                // the data, one way
    total += RoundDown(SerializationTime(nic.ack_bytes + wire_overhead, l->rate_bps), grain) + l->delay;  // its ACK, back
  }
  return total;
}

BaseRtt PathBaseRtt(const Topology& topo, int src, int dst, uint32_t payload, Time grain) {
  BaseRtt b;
  uint64_t slowest = 0;
  for (const LinkSpec* l : topo.PathLinks(src, dst)) {
    b.rtt += 2 * l->delay + RoundDown(SerializationTime(payload, l->rate_bps), grain);
    slowest = slowest == 0 ? l->rate_bps : std::min(slowest, l->rate_bps);
  }
  b.bdp_bytes = static_cast<uint64_t>(static_cast<double>(b.rtt) / kSecond * static_cast<double>(slowest) / 8);
  return b;
}

BaseRtt LongestBaseRtt(const Topology& topo, uint32_t payload, Time grain) {
  BaseRtt most;
  const int hosts = static_cast<int>(topo.hosts().size());
  for (int s = 0; s < hosts; ++s)
    for (int d = 0; d < hosts; ++d) {
      if (s == d) continue;
      const BaseRtt b = PathBaseRtt(topo, s, d, payload, grain);
      most.rtt = std::max(most.rtt, b.rtt);
      most.bdp_bytes = std::max(most.bdp_bytes, b.bdp_bytes);
    }
  return most;
}

}  // namespace rocelab
