// What the switches' control plane does when a link changes state. The
// switch at each end of the link prunes the port from its ECMP groups (or
// restores it) `link_down_detection` after the change: loss of signal, the
// port's oper state, the next-hop group update. Every switch's routes follow
// `route_convergence` after the change, as the routing protocol spreads it
// (topo/convergence.h). Until then a switch that has not heard keeps sending
// into the dead end, where the packets are dropped. Each step is a timeline
// event.
#ifndef ROCELAB_NET_CONTROL_PLANE_H_
#define ROCELAB_NET_CONTROL_PLANE_H_

#include <string>
#include <vector>

#include "net/node.h"
#include "topo/convergence.h"
#include "topo/topology.h"

namespace rocelab {

class ControlPlane final : public EventSource {
 public:
  // `detection` and `convergence`: per node id, the delays of the switch there (hosts: unused).
  ControlPlane(SimContext* ctx, Topology* topo, std::vector<Time> detection, std::vector<Time> convergence);

  // The link at `node`:`port` went down or came up now.
  void LinkChanged(int node, int port, bool up);
  RouteConvergence& convergence() { return convergence_; }

  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  enum : uint32_t { kDetect, kConverge };
  struct Detection {
    int node, port;
    bool up;
  };

  SimContext* ctx_;
  Topology* topo_;
  std::vector<Time> detection_;
  RouteConvergence convergence_;
  // Switches grouped by their convergence delay: one recomputation per group and change; changes
  // at one instant (a link's own failure and the shut that isolates it) share one.
  std::vector<Time> group_delay_;
  std::vector<std::vector<int>> group_switches_;
  std::vector<Time> group_due_;  // when the group's pending recomputation runs (-1: none)
  std::vector<Detection> detections_;  // an event's arg indexes its entry
};

// A port's name on the timeline: the SONiC name on a switch, the netdev on a host.
std::string TimelinePortName(const Topology& topo, int node, int port);

}  // namespace rocelab

#endif  // ROCELAB_NET_CONTROL_PLANE_H_
