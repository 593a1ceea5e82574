// The routes a fabric's routing protocol settles on once it knows which links
// are down. A switch that detected a failure prunes its own port at once
// (Topology::SetPortUp); the others learn of it later, when their routes
// converge. Converge() is that moment for a set of switches: each gets the
// shortest paths over the links whose both ends are up (a Clos: up then down,
// valley-free, as eBGP with one AS per tier routes it, RFC 7938 section 5.2),
// installed as exceptions where they differ from the healthy fabric's routes.
// Exceptions that someone else set (static routes, route changes) are left
// alone; those it set itself are replaced or removed, so a repaired fabric
// converges back to no exceptions at all.
#ifndef ROCELAB_TOPO_CONVERGENCE_H_
#define ROCELAB_TOPO_CONVERGENCE_H_

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "topo/topology.h"

namespace rocelab {

class RouteConvergence {
 public:
  explicit RouteConvergence(Topology* topo);

  // Recomputes the routes of the switch nodes `switch_nodes` toward every host. Returns how
  // many of them changed a next hop.
  int Converge(const std::vector<int>& switch_nodes);
  // A static route for (switch node, host) set by a fault: convergence keeps off it.
  void MarkStatic(int node, int host) { static_.insert(Key(node, host)); }
  void UnmarkStatic(int node, int host) { static_.erase(Key(node, host)); }
  bool IsStatic(int node, int host) const { return static_.count(Key(node, host)) > 0; }

 private:
  static uint64_t Key(int node, int host) { return static_cast<uint64_t>(node) << 32 | static_cast<uint32_t>(host); }
  // Shortest distances to host `host` over the usable links (-1: unreachable): `down` going
  // only down a tier at each step, `any` as routing allows (valley-free on a Clos).
  void Distances(int host);
  bool Usable(int node, int port) const;

  Topology* topo_;
  std::vector<int> tier_;             // per node: hops to the nearest host (hosts 0)
  std::vector<int> down_, any_;       // per node, for the host being computed
  std::unordered_set<uint64_t> installed_;  // (node, host) exceptions Converge set
  std::unordered_set<uint64_t> static_;     // (node, host) exceptions others set
};

}  // namespace rocelab

#endif  // ROCELAB_TOPO_CONVERGENCE_H_
