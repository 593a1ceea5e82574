#include "topo/topology.h"

#include <cctype>
#include <stdexcept>
#include <string>

#include "util/config_error.h"
#include "util/units.h"

#include "topo/cables.h"
#include "topo/naming.h"

namespace rocelab {

namespace {

// A link given no delay or length has the cable for its place (topo/cables.h).
LinkSpec Cabled(LinkSpec link, double meters) {
  if (link.delay < 0) link.delay = CableDelay(meters);
  return link;
}

}  // namespace

int Topology::AddNode(const std::string& name, bool is_switch) {
  TopoNode n;
  n.name = name;
  n.is_switch = is_switch;
  int id = static_cast<int>(nodes_.size());
  if (is_switch) {
    n.kind_index = static_cast<int>(switches_.size());
    switches_.push_back(id);
  } else {
    n.kind_index = static_cast<int>(hosts_.size());
    hosts_.push_back(id);
  }
  nodes_.push_back(std::move(n));
  by_name_[name] = id;
  return id;
}

void Topology::AddLink(int a, int b, const LinkSpec& link) {
  TopoPort pa, pb;
  pa.peer_node = b;
  pa.peer_port = static_cast<int>(nodes_[b].ports.size());
  pa.link = link;
  pb.peer_node = a;
  pb.peer_port = static_cast<int>(nodes_[a].ports.size());
  pb.link = link;
  nodes_[a].ports.push_back(pa);
  nodes_[b].ports.push_back(pb);
}

int Topology::FindNode(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? -1 : it->second;
}

namespace {

// A generated topology names its hosts h0.. and its switches tier by tier, prefix and index.
constexpr const char* kHostPrefix = "h";
struct Tier {
  const char* prefix;
  int count;
};

int HostCount(const TopologySpec& spec) {
  if (spec.type == TopologySpec::Type::kSpineLeaf) return spec.leaves * spec.hosts_per_leaf;
  return spec.k * spec.k * spec.k / 4;
}

// Lowest tier first: spine-leaf leaf, spine; fat-tree edge, agg, core.
std::vector<Tier> SwitchTiers(const TopologySpec& spec) {
  if (spec.type == TopologySpec::Type::kSpineLeaf) return {{"leaf", spec.leaves}, {"spine", spec.spines}};
  const int half = spec.k / 2;
  return {{"edge", spec.k * half}, {"agg", spec.k * half}, {"core", half * half}};
}

// Whether `name` is `prefix` followed by an index below `count`, written without leading zeros.
bool IsIndexedName(const std::string& name, const char* prefix, int count) {
  size_t n = std::char_traits<char>::length(prefix);
  if (name.compare(0, n, prefix) != 0 || name.size() == n || name.size() > n + 7) return false;
  for (size_t i = n; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  if (name.size() > n + 1 && name[n] == '0') return false;
  return std::stol(name.substr(n)) < count;
}

}  // namespace

bool SpecHasNode(const TopologySpec& spec, const std::string& name, bool* is_switch) {
  if (spec.type == TopologySpec::Type::kExplicit) {
    for (const auto& node : spec.nodes)
      if (node.name == name) {
        *is_switch = node.is_switch;
        return true;
      }
    return false;
  }
  if (IsIndexedName(name, kHostPrefix, HostCount(spec))) {
    *is_switch = false;
    return true;
  }
  for (const Tier& tier : SwitchTiers(spec))
    if (IsIndexedName(name, tier.prefix, tier.count)) {
      *is_switch = true;
      return true;
    }
  return false;
}

Topology Topology::Build(const TopologySpec& spec, Routing routing) {
  Topology t;
  using Type = TopologySpec::Type;
  std::vector<std::vector<int>> tiers;  // a generated topology's switch node ids, tier by tier
  if (spec.type != Type::kExplicit) {
    for (int h = 0; h < HostCount(spec); ++h) t.AddNode(kHostPrefix + std::to_string(h), false);
    for (const Tier& tier : SwitchTiers(spec)) {
      tiers.emplace_back();
      for (int i = 0; i < tier.count; ++i) tiers.back().push_back(t.AddNode(tier.prefix + std::to_string(i), true));
    }
  }
  if (spec.type == Type::kSpineLeaf) {
    const int hpl = spec.hosts_per_leaf;
    const std::vector<int>&leaf = tiers[0], &spine = tiers[1];
    const LinkSpec to_host = Cabled(spec.host_link, kServerCableMeters);
    const LinkSpec to_spine = Cabled(spec.fabric_link, kTorCableMeters);
    // Leaf ports: hosts first (Ethernet0 faces the leaf's first host), then spines.
    for (int l = 0; l < spec.leaves; ++l)
      for (int i = 0; i < hpl; ++i) t.AddLink(leaf[l], t.hosts_[l * hpl + i], to_host);
    for (int l = 0; l < spec.leaves; ++l)
      for (int s = 0; s < spec.spines; ++s) t.AddLink(leaf[l], spine[s], to_spine);
  } else if (spec.type == Type::kFatTree) {
    const int k = spec.k, half = k / 2;
    const std::vector<int>&edge = tiers[0], &agg = tiers[1], &core = tiers[2];
    const LinkSpec to_host = Cabled(spec.host_link, kServerCableMeters);
    const LinkSpec to_agg = Cabled(spec.fabric_link, kTorCableMeters);
    const LinkSpec to_core = Cabled(spec.fabric_link, kSpineCableMeters);
    for (int e = 0; e < k * half; ++e)
      for (int i = 0; i < half; ++i) t.AddLink(edge[e], t.hosts_[e * half + i], to_host);
    for (int pod = 0; pod < k; ++pod)
      for (int e = 0; e < half; ++e)
        for (int a = 0; a < half; ++a) t.AddLink(edge[pod * half + e], agg[pod * half + a], to_agg);
    // Aggregation switch a of each pod connects to cores a*half .. a*half+half-1.
    for (int pod = 0; pod < k; ++pod)
      for (int a = 0; a < half; ++a)
        for (int c = 0; c < half; ++c) t.AddLink(agg[pod * half + a], core[a * half + c], to_core);
  } else {
    for (const auto& n : spec.nodes) {
      const std::string problem = DeviceNameProblem(n.name);
      if (!problem.empty()) throw ConfigError("", n.line, n.column, "topology", "'" + n.name + "': " + problem);
    }
    for (const auto& n : spec.nodes)
      if (!n.is_switch) t.AddNode(n.name, false);
    for (const auto& n : spec.nodes)
      if (n.is_switch) t.AddNode(n.name, true);
    for (const auto& l : spec.links) {
      int a = t.FindNode(l.a.name), b = t.FindNode(l.b.name);
      for (const TopoPort& p : t.nodes_[a].ports)
        if (p.peer_node == b)
          throw ConfigError("", l.line, l.column, "topology.links",
                            "a second link " + LinkName(l.a.name, l.b.name) +
                                ": parallel links are not supported (a link and its ports are named by their two devices)");
      if (!t.nodes_[a].is_switch && !t.nodes_[a].ports.empty())
        throw ConfigError("", l.line, l.column, "topology.links", "host '" + l.a.name + "' already has a link (hosts have one NIC port)");
      if (!t.nodes_[b].is_switch && !t.nodes_[b].ports.empty())
        throw ConfigError("", l.line, l.column, "topology.links", "host '" + l.b.name + "' already has a link (hosts have one NIC port)");
      const bool to_host = !t.nodes_[a].is_switch || !t.nodes_[b].is_switch;
      t.AddLink(a, b, Cabled(l.spec, to_host ? kServerCableMeters : kTorCableMeters));
    }
  }
  for (const TopoNode& n : t.nodes_)
    if (n.ports.size() > 4096) throw ConfigError("", 0, "topology", "node " + n.name + " has more than 4096 ports");
  t.InitRoutes(spec, routing);
  return t;
}

std::string SwitchPortAlias(int port) { return "Ethernet" + std::to_string(port * 4); }

std::vector<StaticRoute> ResolveRoutes(const Topology& topo, const Scenario& sc) {
  return ResolveRoutes(topo, sc.file, sc.routes);
}

std::vector<StaticRoute> ResolveRoutes(const Topology& topo, const std::string& file,
                                       const std::vector<RouteOverride>& overrides) {
  std::vector<StaticRoute> routes;
  for (const RouteOverride& r : overrides) {
    const int node = topo.FindNode(r.sw.name);
    const int port = ResolvePort(topo, node, r.port.name);
    if (port < 0) {
      std::string msg = "switch '" + r.sw.name + "' has no port '" + r.port.name + "'";
      const std::string& p = r.port.name;
      if (!p.empty() && p.size() <= 6 && p.find_first_not_of("0123456789") == std::string::npos) {
        const int index = std::stoi(p);
        const TopoNode& sw = topo.nodes()[node];
        msg = "a bare port number is ambiguous: name the port by its peer or its SONiC name";
        if (index < static_cast<int>(sw.ports.size())) {
          const std::string& peer = topo.nodes()[sw.ports[index].peer_node].name;
          msg += " (port index " + p + " is '" + SwitchPortAlias(index) + "', toward '" + peer + "': '" +
                 PortName(r.sw.name, peer) + "')";
        }
      }
      throw ConfigError(file, r.port.line, r.port.column, r.port.key, msg);
    }
    routes.push_back({node, topo.nodes()[topo.FindNode(r.dst.name)].kind_index, port});
  }
  return routes;
}

int ResolvePort(const Topology& topo, int node, const std::string& name) {
  const TopoNode& n = topo.nodes()[node];
  const int count = static_cast<int>(n.ports.size());
  std::string port = name;
  const size_t colon = name.find(':');
  if (colon != std::string::npos) {
    if (name.compare(0, colon, n.name) != 0) return -1;  // another device's port
    port = name.substr(colon + 1);
  }
  if (port.compare(0, 8, "Ethernet") == 0) {
    const std::string digits = port.substr(8);
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
    const int v = std::stoi(digits);
    return v % 4 == 0 && v / 4 < count ? v / 4 : -1;
  }
  // By the device at the other end (a bare number is no name: topo/naming.h).
  const int peer_node = topo.FindNode(port);
  for (int p = 0; p < count; ++p)
    if (peer_node >= 0 && n.ports[p].peer_node == peer_node) return p;
  return -1;
}

}  // namespace rocelab
