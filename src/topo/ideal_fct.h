// The flow completion time a message would have alone on an idle path: the
// yardstick of FCT slowdown. It walks the same path the topology routes.
#ifndef ROCELAB_TOPO_IDEAL_FCT_H_
#define ROCELAB_TOPO_IDEAL_FCT_H_

#include <cstdint>

#include "sim/time.h"
#include "topo/topology.h"

namespace rocelab {

// The FCT of `size` bytes alone on an idle path from host `src` to host `dst`:
// every packet but the last at the bottleneck, the last store-and-forwarded over
// every hop, propagation both ways and the last ACK's way back. Frames are
// counted as the sender's NIC counts them (`nic`: MTU, header, RETH and ACK
// bytes), each with `wire_overhead` bytes of preamble and gap on the wire, and
// each frame's time rounded down to `grain` (0: exact; Scenario::serialization_grain).
Time IdealFct(const Topology& topo, int src, int dst, uint64_t size, const NicSpec& nic, uint32_t wire_overhead,
              Time grain);

// HPCC's base RTT T of a path and the window it sizes (the HPCC code base's third.cc): the
// propagation both ways plus one packet's payload serialized on each link one way (each rounded
// down to `grain`), and T's bytes at the path's slowest rate.
struct BaseRtt {
  Time rtt = 0;
  uint64_t bdp_bytes = 0;
};
BaseRtt PathBaseRtt(const Topology& topo, int src, int dst, uint32_t payload, Time grain);
// The longest over every pair of hosts, each with its own BDP's largest (that code's GLOBAL_T 1).
BaseRtt LongestBaseRtt(const Topology& topo, uint32_t payload, Time grain);

}  // namespace rocelab

#endif  // ROCELAB_TOPO_IDEAL_FCT_H_
