// The fabric as a graph: named hosts and switches, full-duplex links between
// numbered ports, and shortest-path ECMP next hops per (switch, destination
// host). Builders for spine-leaf, k-ary fat-tree and explicit node/link lists.
//
// Routing state is O(switches x ports) for the generated fabrics: their next hops
// follow from addresses (down toward the host's leaf, edge or pod, else up over
// every uplink), so a k=64 fat-tree (65,536 hosts) needs no per-host table.
// Explicit fabrics keep one shortest-path table per switch. Over both lie the
// exceptions (static routes, reroutes) and the port state (a port that is down
// leaves its switch's ECMP groups).
#ifndef ROCELAB_TOPO_TOPOLOGY_H_
#define ROCELAB_TOPO_TOPOLOGY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "scenario/scenario.h"

namespace rocelab {

struct TopoPort {
  int peer_node = -1;
  int peer_port = -1;
  LinkSpec link;
};

struct TopoNode {
  std::string name;
  bool is_switch = false;
  int kind_index = 0;  // host index or switch index
  std::vector<TopoPort> ports;
};

class Topology {
 public:
  // How next hops are found. Generated fabrics (spine-leaf, fat-tree) derive them from the
  // switch's place and the host's address; explicit ones keep a shortest-path table per
  // destination host. kTables builds the tables for a generated fabric too: the reference
  // the address rule is tested against.
  enum class Routing { kAuto, kTables };
  static Topology Build(const TopologySpec& spec, Routing routing = Routing::kAuto);

  const std::vector<TopoNode>& nodes() const { return nodes_; }
  const std::vector<int>& hosts() const { return hosts_; }        // node ids in host order
  const std::vector<int>& switches() const { return switches_; }  // node ids in switch order
  int FindNode(const std::string& name) const;                    // -1 if absent

  // Next-hop ports of switch node `node` toward host `host`: the (node, host) exception if one
  // is set, else the shortest paths (ECMP, in port order); either way without the ports that
  // are down. Empty: the switch has no way there and drops. On the per-packet path: O(1),
  // nothing allocated. The span stays valid until the routing changes (the calls below).
  struct Span {
    const uint16_t* begin;
    uint32_t size;
  };
  Span NextHops(int node, int host) const;
  // The links from host `src` to host `dst` along the first next hop at every switch
  // (all ECMP choices have the same length); empty when there is no route.
  std::vector<const LinkSpec*> PathLinks(int src_host, int dst_host) const;
  // The switch nodes on that path, in order; empty when there is no route.
  std::vector<int> PathSwitches(int src_host, int dst_host) const;

  // Exceptions to the computed routes, one per (switch node, destination host): static routes
  // (the scenario's `routes`) and reroutes. Each is O(1); `ports` in the order given.
  void SetRoute(int node, int host, std::vector<uint16_t> ports);
  void ClearRoute(int node, int host);
  void OverrideRoute(int node, int host, int port) { SetRoute(node, host, {static_cast<uint16_t>(port)}); }
  // Told of every exception set from now on, as a monitor subscribed to the routing tables'
  // changes hears of them (nullptr: no one).
  using RouteObserver = std::function<void(int node, int host, const std::vector<uint16_t>& ports)>;
  void SetRouteObserver(RouteObserver observer) { route_observer_ = std::move(observer); }
  // The exception of (node, host) as set, ports down included; nullptr when there is none.
  const std::vector<uint16_t>* Exception(int node, int host) const;

  // Link state of a switch port: a port that is down leaves every ECMP group and exception
  // of its switch (the others keep their order) until it is up again. O(ports) on a generated
  // fabric; an explicit one also refilters that switch's table. Hosts do not forward: a
  // host's port is ignored here.
  void SetPortUp(int node, int port, bool up);
  bool PortUp(int node, int port) const;

  // Whether the fabric is a Clos of tiers (spine-leaf, fat-tree): its routes go up, then down,
  // never down and up again (what eBGP's AS-path rule gives a Clos, RFC 7938).
  bool tiered() const { return tiered_; }

  // Bytes held by the routing state (next hops, exceptions, port state).
  size_t RouteBytes() const;

  // Counts the changes to the routes (exceptions set or cleared, ports down or up): what was
  // worked out from the routes at one count holds while it stays.
  uint64_t routing_epoch() const { return routing_epoch_; }

 private:
  // The ports a frame from host `src` leaves by on its way to host `dst`, the first next hop at
  // every switch; empty when there is no route. PathLinks and PathSwitches read it.
  std::vector<const TopoPort*> PathPorts(int src_host, int dst_host) const;
  void AddLink(int a, int b, const LinkSpec& link);
  int AddNode(const std::string& name, bool is_switch);
  // Routing state, in routes.cc.
  void InitRoutes(const TopologySpec& spec, Routing routing);
  void ComputeTables();                  // shortest paths by BFS from every host, in port order
  void ComputeTablesInNs3Order();  // the same paths in the HPCC ns-3 code's order
  void FilterTable(int s);               // table_live_ of switch s from its table and port state
  void FilterExceptions(int s);
  Span LiveRange(int s, int first, int count) const;

  std::vector<TopoNode> nodes_;
  std::vector<int> hosts_, switches_;
  std::unordered_map<std::string, int> by_name_;
  RouteObserver route_observer_;
  uint64_t routing_epoch_ = 0;

  // A switch of a generated fabric forwards down by address, else up over all its uplinks:
  // the hosts [below_first, below_first + below_count) are beneath it, hosts_per_port of them
  // behind each of its first ports in turn; every other host goes out ports
  // [up_first, up_first + up_count). Leaf/edge: one host per port; aggregation: one edge per
  // port; spine/core: every host below, one leaf or pod per port.
  struct SwitchRoutes {
    uint32_t below_first = 0, below_count = 0, hosts_per_port = 1;
    uint16_t up_first = 0, up_count = 0;
    uint32_t port_base = 0;   // this switch's entries in live_ports_ and live_rank_
    uint32_t exceptions = 0;  // how many (this switch, host) exceptions are set
    uint16_t ports_down = 0;
  };
  bool by_address_ = false;
  bool tiered_ = false;
  std::vector<SwitchRoutes> sw_;  // per switch (kind_index)
  // Per switch from port_base: its up ports in order, and for each port p (0 .. ports) how many
  // up ports precede p. A port range [a, b) less its down ports is the contiguous run
  // live_ports_[rank a .. rank b).
  std::vector<uint16_t> live_ports_, live_rank_;
  // Explicit fabrics: per switch, offsets per host into the port lists; table_live_ is the
  // table less the down ports, for a switch with ports down.
  struct Table {
    std::vector<uint32_t> offset;
    std::vector<uint16_t> ports;
  };
  std::vector<Table> table_;
  std::unordered_map<int, Table> table_live_;
  struct Override {
    std::vector<uint16_t> ports;  // as set
    std::vector<uint16_t> live;   // less the ports that are down
  };
  std::unordered_map<uint64_t, Override> exceptions_;  // key: switch index << 32 | host
};

// Whether the topology `spec` describes has a node `name`, and which kind, without building
// it: hosts h0.., switches leaf0.. spine0.. (spine-leaf), edge0.. agg0.. core0.. (fat-tree),
// or the names an explicit topology lists.
bool SpecHasNode(const TopologySpec& spec, const std::string& name, bool* is_switch);

// SONiC names a switch port EthernetN with N = 4 x port index.
std::string SwitchPortAlias(int port);
// A port of node `node` by its SONiC name ("Ethernet8"), its peer ("h5") or both ("leaf0:h5",
// "leaf0:Ethernet8"); -1 if none (a bare number is none: topo/naming.h).
int ResolvePort(const Topology& topo, int node, const std::string& port_name);

// A route override resolved on the topology.
struct StaticRoute {
  int node;  // switch node id
  int host;  // destination host index
  int port;
};
// The scenario's `routes`, resolved; throws ConfigError naming the file, line and key.
std::vector<StaticRoute> ResolveRoutes(const Topology& topo, const Scenario& sc);
// A list of them (a route_change fault's); errors name `file`.
std::vector<StaticRoute> ResolveRoutes(const Topology& topo, const std::string& file,
                                       const std::vector<RouteOverride>& overrides);

}  // namespace rocelab

#endif  // ROCELAB_TOPO_TOPOLOGY_H_
