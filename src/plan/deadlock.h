// Deadlock freedom of lossless routing. A PFC deadlock needs a cycle in the
// buffer dependency graph: the lossless ingress buffer (switch, port) that a
// packet occupies depends on the ingress buffer of the next switch it is
// forwarded to (Dally and Seitz; Hu et al., HotNets 2016; Tagger, CoNEXT
// 2017). The graph is built from the per-destination next-hop sets (ECMP and
// static overrides), never by enumerating paths, and it is re-checked under
// every single failure of a switch-to-switch link by repairing only the
// distances and next-hop sets that the failure changes.
//
// The next-hop sets are the topology's own (Topology::NextHops: the address
// rule of generated fabrics, exceptions included); the checker keeps only
// those a failure changed, until it is undone.
//
// Destinations are hosts grouped by routing behaviour: hosts on their only
// link to the same switch, with the same next hops at every other switch and
// no exception naming them, add the same dependencies before and after any
// switch-to-switch failure (their own switch forwards to a host, which
// drains, and their distances are its distances plus one). So one member
// stands for the group: a fat-tree has one destination per edge switch, and
// a host that a static route names is a destination of its own. What the
// checker holds per destination is one bit per (switch, port), the ports that
// carry traffic there, and a 16-bit distance per node: a k=32 fat-tree takes
// about 30 MB.
//
// After a failure only the dependencies it added can close a cycle (the
// configured graph has none), and only those that run against a topological
// order of the configured graph: the search starts from their heads and stays
// at or before the latest of their tails in that order. When it finds a
// cycle, the full search runs again so that the cycle reported is the one a
// full search names.
#ifndef ROCELAB_PLAN_DEADLOCK_H_
#define ROCELAB_PLAN_DEADLOCK_H_

#include <cstdint>
#include <string>
#include <tuple>
#include <unordered_map>
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

  // kGrouped: one destination per group of hosts that route alike (above). kPerHost: one per
  // host, the reference the grouping is tested against.
  enum class Destinations { kGrouped, kPerHost };

  // The routing of `topo` as it stands: its shortest paths and its exceptions (apply the
  // scenario's static routes with Topology::OverrideRoute first). Throws std::invalid_argument
  // for switches with more than kMaxPorts ports or for more than 65,000 switches.
  explicit DeadlockChecker(const Topology& topo, Destinations destinations = Destinations::kGrouped);

  // A cycle of the routing as configured, or empty.
  std::vector<BufferRef> FindCycle() const;
  // The single switch-to-switch link failures after which the repaired routing has a cycle.
  std::vector<FailureCycle> CheckSingleLinkFailures(size_t max_reported);

  std::string Describe(const std::vector<BufferRef>& cycle) const;

  // The dependency edges, as "switch<-peer => switch<-peer" strings (sorted): as configured,
  // or with the link at (node, port) failed and the routing repaired. For tests.
  std::vector<std::string> Edges() const;
  std::vector<std::string> EdgesWithFailedLink(int node, int port);
  // FindCycle with the link at (node, port) failed: the full search. For tests.
  std::vector<BufferRef> FindCycleWithFailedLink(int node, int port);
  int links_checked() const { return links_checked_; }
  int destinations() const { return dests_; }

 private:
  struct Mask {
    uint64_t w[kMaxPorts / 64] = {};
    void Set(int p) { w[p >> 6] |= 1ull << (p & 63); }
    bool Test(int p) const { return (w[p >> 6] >> (p & 63)) & 1; }
    bool operator==(const Mask& o) const;
    bool Empty() const;
  };
  // Distances fit 16 bits: a shortest path visits each switch at most once.
  static constexpr uint16_t kUnreachable = 0xFFFF;
  void GroupHosts(Destinations destinations);
  size_t DistIndex(int node, int dest) const { return static_cast<size_t>(dest) * nodes_ + node; }
  int Dist(int node, int dest) const {
    const uint16_t d = dist_[DistIndex(node, dest)];
    return d == kUnreachable ? -1 : d;
  }
  void SetDist(int node, int dest, int d) { dist_[DistIndex(node, dest)] = d < 0 ? kUnreachable : static_cast<uint16_t>(d); }
  void Bfs(int dest);
  // Switch `node`'s next hops toward `dest`: the topology's, or as the current failure left them.
  Mask Next(int node, int dest) const;
  Mask TopologyNext(int node, int dest) const;
  bool Uses(int node, int dest, int port) const;  // whether Next(node, dest) has `port`
  const Mask* FindChange(int node, int dest) const;  // nullptr: as the topology routes
  // The next hops a failure repair gives switch `node` (exceptions as set, less the failed link).
  Mask ComputeNextHops(int node, int dest) const;
  // Replaces the next-hop set of switch `node` toward `dest`, updating the graph.
  void SetNextHops(int node, int dest, const Mask& next);
  Mask In(int sw, int dest) const;
  void SetIn(int sw, int dest, int port, bool on);
  void Count(int sw_index, int in, int out, int delta);
  // New distances toward `dest` with the current failed link (only the nodes that change).
  void RepairDistances(int dest, std::vector<std::pair<int, int>>* changes);
  // Fails one link and repairs the routing; the journal undoes it.
  struct Journal {
    std::vector<std::pair<size_t, uint16_t>> dist;
    std::vector<std::tuple<int, int, Mask>> next;
  };
  void FailLink(int a, int pa, Journal* j);
  void Restore(const Journal& j);
  // rank_ := a topological order of the buffers as configured; false if there is a cycle.
  bool RankBuffers();
  // Whether the graph has a cycle, given that the configured one (ranked) had none and that
  // added_ lists every edge added since.
  bool CycleThroughAdded();

  const Topology& topo_;
  int nodes_, hosts_;
  int dests_ = 0;
  std::vector<int> group_of_;   // per host: its destination
  std::vector<int> dest_host_;  // per destination: the host that stands for it
  int words_;                   // 64-bit words of a port set: the most ports any switch has
  std::vector<uint16_t> dist_;  // per (destination, node)
  // The next-hop sets the current failure changed, by (destination, node).
  std::vector<Mask> changes_;
  std::unordered_map<uint64_t, int> change_index_;  // dest * nodes + node -> entry in changes_
  std::vector<char> dest_changed_;                  // per destination: has an entry
  std::vector<int> changed_dests_;
  std::vector<uint64_t> in_;    // per (switch index, destination), words_ each: ingress ports carrying traffic there
  std::vector<int32_t> count_;  // per switch: ports x ports, destinations using in -> out
  std::vector<size_t> count_base_;
  std::vector<Mask> edges_;     // per (switch, in port): out ports with count > 0
  std::vector<size_t> edge_base_;
  std::vector<int> owner_, port_;     // per buffer: its switch index and port
  std::vector<size_t> peer_buffer_;   // per buffer: the buffer at the other end of its port
  std::vector<char> to_switch_;       // per buffer: its port leads to a switch (a host drains)
  std::vector<uint32_t> ports_;       // per switch
  std::vector<Mask> switch_ports_;    // per switch: the ports that lead to switches
  int failed_node_ = -1, failed_port_ = -1, failed_peer_ = -1, failed_peer_port_ = -1;
  int links_checked_ = 0;
  // While a failure is applied: the edges it added, as (buffer, out port).
  bool recording_ = false;
  std::vector<std::pair<size_t, int>> added_;
  std::vector<uint32_t> rank_;  // per buffer
  // Scratch, reset after each use: RepairDistances' per node (all 0 and all -1), the cycle
  // search's per buffer and per switch (all 0).
  std::vector<char> affected_;
  std::vector<int> index_;
  std::vector<char> color_;
  std::vector<Mask> done_;
  struct Frame {
    size_t idx;
    Mask rest;  // out ports not yet followed
  };
  std::vector<Frame> stack_;
  // The lowest port left in `rest`, taken out of it; -1 when none is left.
  int TakeNextPort(Mask* rest) const {
    for (int i = 0; i < words_; ++i) {
      if (!rest->w[i]) continue;
      const int o = i * 64 + __builtin_ctzll(rest->w[i]);
      rest->w[i] &= rest->w[i] - 1;
      return o;
    }
    return -1;
  }
  std::vector<int> candidates_;
};

}  // namespace rocelab

#endif  // ROCELAB_PLAN_DEADLOCK_H_
