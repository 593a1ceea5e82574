// Deadlock freedom of lossless routing. A PFC deadlock needs a cycle in the
// buffer dependency graph: the lossless ingress buffer (switch, port) that a
// packet occupies depends on the ingress buffer of the next switch it is
// forwarded to (Dally and Seitz; Hu et al., HotNets 2016; Tagger, CoNEXT
// 2017). The graph is built from the per-destination next-hop sets (ECMP and
// static overrides), never by enumerating paths, and it is re-checked under
// every single failure of a switch-to-switch link by repairing only the
// distances and next-hop sets that the failure changes.
#ifndef ROCELAB_PLAN_DEADLOCK_H_
#define ROCELAB_PLAN_DEADLOCK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "topo/topology.h"

namespace rocelab {

// The ingress buffer of `port` on switch `node`.
struct BufferRef {
  int node;
  int port;
};

struct FailureCycle {
  int node_a, port_a, node_b, port_b;  // the failed link
  std::vector<BufferRef> cycle;
};

class DeadlockChecker {
 public:
  static constexpr int kMaxPorts = 256;

  // Throws std::invalid_argument for switches with more than kMaxPorts ports.
  DeadlockChecker(const Topology& topo, const std::vector<StaticRoute>& routes);

  // A cycle of the routing as configured, or empty.
  std::vector<BufferRef> FindCycle() const;
  // The single switch-to-switch link failures after which the repaired routing has a cycle.
  std::vector<FailureCycle> CheckSingleLinkFailures(size_t max_reported);

  std::string Describe(const std::vector<BufferRef>& cycle) const;

  // The dependency edges, as "switch<-peer => switch<-peer" strings (sorted): as configured,
  // or with the link at (node, port) failed and the routing repaired. For tests.
  std::vector<std::string> Edges() const;
  std::vector<std::string> EdgesWithFailedLink(int node, int port);
  int links_checked() const { return links_checked_; }

 private:
  struct Mask {
    uint64_t w[kMaxPorts / 64] = {};
    void Set(int p) { w[p >> 6] |= 1ull << (p & 63); }
    bool Test(int p) const { return (w[p >> 6] >> (p & 63)) & 1; }
    bool operator==(const Mask& o) const;
    bool Empty() const;
  };
  size_t Slot(int sw, int host) const { return static_cast<size_t>(sw) * hosts_ + host; }
  int& Dist(int node, int host) { return dist_[static_cast<size_t>(host) * nodes_ + node]; }
  int Dist(int node, int host) const { return dist_[static_cast<size_t>(host) * nodes_ + node]; }
  void Bfs(int host);
  Mask ComputeNextHops(int node, int host) const;
  // Replaces the next-hop set of switch `node` toward `host`, updating the graph.
  void SetNextHops(int node, int host, const Mask& next);
  void Count(int sw_index, int in, int out, int delta);
  // New distances toward `host` with the current failed link (only the nodes that change).
  void RepairDistances(int host, std::vector<std::pair<int, int>>* changes) const;
  // Fails one link and repairs the routing; the journal undoes it.
  struct Journal {
    std::vector<std::pair<size_t, int>> dist;
    std::vector<std::tuple<int, int, Mask>> next;
  };
  void FailLink(int a, int pa, Journal* j);
  void Restore(const Journal& j);

  const Topology& topo_;
  int nodes_, hosts_;
  std::vector<int> override_;   // per (switch index, host): port or -1
  std::vector<int> dist_;       // per (host, node); -1 unreachable
  std::vector<Mask> next_;      // per (switch index, host)
  std::vector<Mask> in_;        // per (switch index, host): ingress ports carrying traffic to host
  std::vector<int32_t> count_;  // per switch: ports x ports, destinations using in -> out
  std::vector<size_t> count_base_;
  std::vector<Mask> edges_;     // per (switch, in port): out ports with count > 0
  std::vector<size_t> edge_base_;
  int failed_node_ = -1, failed_port_ = -1, failed_peer_ = -1, failed_peer_port_ = -1;
  int links_checked_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_PLAN_DEADLOCK_H_
