#include "topo/ideal_fct.h"

#include <algorithm>

#include "sim/packet.h"

namespace rocelab {

Time IdealFct(const Topology& topo, int src, int dst, uint64_t size, uint32_t mtu) {
  const std::vector<const LinkSpec*> path = topo.PathLinks(src, dst);
  if (path.empty()) return 0;
  const uint64_t packets = (size + mtu - 1) / mtu;
  const uint64_t last_payload = size - (packets - 1) * mtu;
  uint64_t min_rate = UINT64_MAX;
  Time total = 0;
  for (const LinkSpec* l : path) min_rate = std::min(min_rate, l->rate_bps);
  // Every packet but the last at the bottleneck (the first carries the RETH).
  uint64_t bytes_before_last = 0;
  for (uint64_t p = 0; p + 1 < packets; ++p) bytes_before_last += DataFrameBytes(mtu, p == 0) + kWireOverhead;
  total += SerializationTime(bytes_before_last, min_rate);
  const uint64_t last = DataFrameBytes(static_cast<uint32_t>(last_payload), packets == 1) + kWireOverhead;
  for (const LinkSpec* l : path) {
    total += SerializationTime(last, l->rate_bps) + l->delay;                   // the last packet, hop by hop
    total += SerializationTime(kAckFrameBytes + kWireOverhead, l->rate_bps) + l->delay;  // its ACK, back
  }
  return total;
}

}  // namespace rocelab
