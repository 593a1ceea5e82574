// The path each flow's packets take, stamped into them as they leave their NIC, so that a
// switch forwards a stamped packet by reading its output port from the packet.
//
// Why: looking a route up (the switch's next hops toward the destination, then the ECMP hash
// of the 5-tuple) reads tables that a large fabric cannot keep in cache, on every hop of every
// packet; the stamp is in the cache line the switch reads anyway. A stamp changes nothing
// the fabric does: ECMP hashes fields that stay the same for every packet of a queue pair
// going one way (addresses, UDP ports, and for the ns-3 hash whether it is a request), so the
// path is worked out once per queue pair and direction, by asking each switch on the way
// (Switch::Route, through Fabric::PathOf), and reused while the routes stay as they were.
// When they change (an exception set or cleared, a port down or up), every stamp is cleared
// before the next packet is forwarded: the table's, and those of the packets in flight, which
// then take the routes in force at each switch as they would have without stamps.
#ifndef ROCELAB_NET_FLOW_PATHS_H_
#define ROCELAB_NET_FLOW_PATHS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/packet.h"
#include "topo/topology.h"

namespace rocelab {

class Fabric;

class FlowPaths {
 public:
  FlowPaths(const Fabric* fabric, const Topology* topo, PacketPool* pool)
      : fabric_(fabric), topo_(topo), pool_(pool), epoch_(topo->routing_epoch()) {}

  // Stamps a queue pair's packet leaving its NIC with the output ports of the switches on its
  // way. Leaves it unstamped (path_hops 0) when it belongs to no queue pair, when stamps are
  // off, when its TTL is not kSendTtl (which tells a switch how far along the path it is), or
  // when its path does not fit a stamp (more switches than Packet::path holds, a port number
  // past 255) or there is none.
  void Stamp(Packet* pkt);

  // Whether the stamps were made under the routes in force. When the routes have changed
  // since, clears every stamp first (in the table and on every packet) and says false.
  bool Current() { return topo_->routing_epoch() == epoch_ || Clear(); }

  // Off: nothing is stamped and every switch looks each route up, the reference the stamps
  // are tested against.
  void set_enabled(bool on) { enabled_ = on; }

 private:
  // A queue pair's path one way, with the headers it was worked out for.
  struct Path {
    uint32_t src = 0, dst = 0;
    uint16_t sport = 0, dport = 0;
    uint8_t hops = kUnknown;
    uint8_t port[sizeof(Packet::path)] = {};
  };
  static constexpr uint8_t kUnknown = 0xFF;  // not worked out yet

 public:
  static constexpr size_t kBytesPerQueuePair = 2 * sizeof(Path);  // the table's share of a queue pair

 private:
  static bool Fits(const Path& path, const Packet& pkt) {
    return path.src == pkt.src && path.dst == pkt.dst && path.sport == pkt.udp_sport && path.dport == pkt.udp_dport;
  }
  void WorkOut(const Packet& pkt, Path* path) const;
  bool Clear();  // false, after clearing every stamp

  const Fabric* fabric_;
  const Topology* topo_;
  PacketPool* pool_;
  uint64_t epoch_;  // the routing epoch the stamps were made under
  bool enabled_ = true;
  std::vector<Path> paths_;  // by queue pair, two each: [2 qp] replies and the like, [2 qp + 1] requests
};

}  // namespace rocelab

#endif  // ROCELAB_NET_FLOW_PATHS_H_
