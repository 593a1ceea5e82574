// The fabric as a graph: named hosts and switches, full-duplex links between
// numbered ports, and shortest-path ECMP next hops per (switch, destination
// host). Builders for spine-leaf, k-ary fat-tree and explicit node/link lists.
#ifndef ROCELAB_TOPO_TOPOLOGY_H_
#define ROCELAB_TOPO_TOPOLOGY_H_

#include <cstdint>
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
  static Topology Build(const TopologySpec& spec);

  const std::vector<TopoNode>& nodes() const { return nodes_; }
  const std::vector<int>& hosts() const { return hosts_; }        // node ids in host order
  const std::vector<int>& switches() const { return switches_; }  // node ids in switch order
  int FindNode(const std::string& name) const;                    // -1 if absent

  // Next-hop ports of switch node `node` toward host `host` (shortest paths).
  struct Span {
    const uint16_t* begin;
    uint32_t size;
  };
  Span NextHops(int node, int host) const;
  void ComputeRoutes();
  // The links from host `src` to host `dst` along the first next hop at every switch
  // (all ECMP choices have the same length); empty when there is no route.
  std::vector<const LinkSpec*> PathLinks(int src_host, int dst_host) const;
  // Replaces the next hops of (node, host) with one port.
  void OverrideRoute(int node, int host, int port);

 private:
  void AddLink(int a, int b, const LinkSpec& link);
  int AddNode(const std::string& name, bool is_switch);

  std::vector<TopoNode> nodes_;
  std::vector<int> hosts_, switches_;
  std::unordered_map<std::string, int> by_name_;
  // Per switch (kind_index): offsets per host into hop_ports_.
  std::vector<std::vector<uint32_t>> hop_offset_;
  std::vector<std::vector<uint16_t>> hop_ports_;
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

}  // namespace rocelab

#endif  // ROCELAB_TOPO_TOPOLOGY_H_
