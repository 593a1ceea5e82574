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
// every hop, propagation both ways and the last ACK's way back.
Time IdealFct(const Topology& topo, int src, int dst, uint64_t size, uint32_t mtu);

}  // namespace rocelab

#endif  // ROCELAB_TOPO_IDEAL_FCT_H_
