// What the fabric can do for a ring AllReduce over the routes in force: the
// shortest time one iteration can take when every link carries its share of
// the ring's bytes at line rate. Each rank sends 2(N-1) blocks of S/N bytes
// to its right neighbour per iteration, split evenly over its queue pairs;
// each queue pair's path is walked hop by hop with the switches' own ECMP
// choice (its 5-tuple), so two ring edges hashed onto one link share it. The
// busiest link (bytes on the wire, headers and preamble included, over its
// rate) bounds the iteration.
//
// A shut link lowers the ceiling when the flows it carried land on a link that
// was already busy: before and after a fault, the two ceilings say by how much
// the fabric itself got slower, apart from what the fault still does to it.
#ifndef ROCELAB_RUN_RING_CEILING_H_
#define ROCELAB_RUN_RING_CEILING_H_

#include <cstdint>
#include <string>

#include "net/fabric.h"
#include "workload/allreduce.h"

namespace rocelab {

struct RingCeiling {
  Time iteration = -1;     // the bound on one iteration's time; -1: a queue pair has no path
  std::string bottleneck;  // the busiest link, "leaf0:Ethernet16 -> spine1"
  uint64_t bottleneck_bytes = 0;  // what it carries per iteration, on the wire
  uint64_t bottleneck_rate_bps = 0;
  // algbw at the bound: S / iteration, bytes per second.
  double AlgBw(uint64_t size) const {
    return iteration > 0 ? static_cast<double>(size) / (static_cast<double>(iteration) / kSecond) : 0;
  }
};

RingCeiling ComputeRingCeiling(const Fabric& fabric, const AllreduceDriver& ring);

}  // namespace rocelab

#endif  // ROCELAB_RUN_RING_CEILING_H_
