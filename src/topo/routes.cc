// Next hops: the address rule of generated fabrics, the shortest-path tables of
// explicit ones, the exceptions over both and the port state that prunes them.
#include "topo/topology.h"

#include <algorithm>
#include <deque>

namespace rocelab {

namespace {

uint64_t ExceptionKey(int s, int host) { return static_cast<uint64_t>(s) << 32 | static_cast<uint32_t>(host); }

}  // namespace

void Topology::InitRoutes(const TopologySpec& spec, Routing routing) {
  sw_.assign(switches_.size(), {});
  uint32_t base = 0;
  for (size_t s = 0; s < switches_.size(); ++s) {
    sw_[s].port_base = base;
    base += static_cast<uint32_t>(nodes_[switches_[s]].ports.size()) + 1;
  }
  // Every port starts up.
  live_ports_.assign(base, 0);
  live_rank_.assign(base, 0);
  for (size_t s = 0; s < switches_.size(); ++s) {
    const uint16_t n = static_cast<uint16_t>(nodes_[switches_[s]].ports.size());
    for (uint16_t p = 0; p <= n; ++p) {
      live_ports_[sw_[s].port_base + p] = p;
      live_rank_[sw_[s].port_base + p] = p;
    }
  }
  tiered_ = spec.type != TopologySpec::Type::kExplicit;
  by_address_ = tiered_ && routing == Routing::kAuto;
  if (!by_address_) {
    if (spec.next_hop_order == TopologySpec::NextHopOrder::kNs3) ComputeTablesInNs3Order();
    else ComputeTables();
    return;
  }
  // The port layout is Build's: a leaf or edge switch has its hosts first, then its uplinks; an
  // aggregation switch its pod's edges, then its cores; a spine one port per leaf, a core one
  // per pod, in order. Shortest paths go straight down when the host is beneath, else up
  // over every uplink (each reaches the host in the same number of hops).
  const uint32_t hosts = static_cast<uint32_t>(hosts_.size());
  auto set = [&](size_t s, uint32_t below_first, uint32_t below_count, uint32_t hosts_per_port, int up_first,
                 int up_count) {
    SwitchRoutes& r = sw_[s];
    r.below_first = below_first;
    r.below_count = below_count;
    r.hosts_per_port = hosts_per_port;
    r.up_first = static_cast<uint16_t>(up_first);
    r.up_count = static_cast<uint16_t>(up_count);
  };
  if (spec.type == TopologySpec::Type::kSpineLeaf) {
    const uint32_t hpl = static_cast<uint32_t>(spec.hosts_per_leaf);
    for (int l = 0; l < spec.leaves; ++l) set(l, l * hpl, hpl, 1, hpl, spec.spines);
    for (int s = 0; s < spec.spines; ++s) set(spec.leaves + s, 0, hosts, hpl, 0, 0);
  } else {
    const uint32_t k = static_cast<uint32_t>(spec.k), half = k / 2, pod_hosts = half * half;
    for (uint32_t e = 0; e < k * half; ++e) set(e, e * half, half, 1, half, half);
    for (uint32_t a = 0; a < k * half; ++a) set(k * half + a, a / half * pod_hosts, pod_hosts, half, half, half);
    for (uint32_t c = 0; c < pod_hosts; ++c) set(2 * k * half + c, 0, hosts, pod_hosts, 0, 0);
  }
}

void Topology::ComputeTables() {
  const int n = static_cast<int>(nodes_.size());
  table_.assign(switches_.size(), {});
  for (Table& t : table_) t.offset.reserve(hosts_.size() + 1);
  std::vector<int> dist(n);
  std::deque<int> q;
  for (size_t h = 0; h < hosts_.size(); ++h) {
    // BFS from the destination over switches (hosts do not forward).
    std::fill(dist.begin(), dist.end(), -1);
    dist[hosts_[h]] = 0;
    q.assign(1, hosts_[h]);
    while (!q.empty()) {
      int u = q.front();
      q.pop_front();
      if (nodes_[u].is_switch || u == hosts_[h]) {
        for (const TopoPort& p : nodes_[u].ports) {
          if (dist[p.peer_node] < 0) {
            dist[p.peer_node] = dist[u] + 1;
            q.push_back(p.peer_node);
          }
        }
      }
    }
    for (size_t s = 0; s < switches_.size(); ++s) {
      const TopoNode& sw = nodes_[switches_[s]];
      Table& t = table_[s];
      t.offset.push_back(static_cast<uint32_t>(t.ports.size()));
      int d = dist[switches_[s]];
      if (d < 0) continue;
      for (size_t p = 0; p < sw.ports.size(); ++p) {
        int peer = sw.ports[p].peer_node;
        if (dist[peer] == d - 1 && (nodes_[peer].is_switch || peer == hosts_[h]))
          t.ports.push_back(static_cast<uint16_t>(p));
      }
    }
  }
  for (Table& t : table_) t.offset.push_back(static_cast<uint32_t>(t.ports.size()));
}

void Topology::ComputeTablesInNs3Order() {
  const int n = static_cast<int>(nodes_.size());
  // Each node's neighbours in the order that simulator's map of them holds (keyed by the node
  // object's address): hosts in node order, then switches in reverse node order. A switch
  // object there is over 2 MB (its per-port byte counters), so the allocator maps each one
  // below the one before; hosts come from the heap below them all. Each neighbour with the port
  // that reaches it (the last of parallel links: that code keeps one interface per neighbour).
  auto before = [&](int a, int b) {
    const bool sa = nodes_[a].is_switch, sb = nodes_[b].is_switch;
    return sa != sb ? sb : (sa ? a > b : a < b);
  };
  std::vector<std::vector<std::pair<int, uint16_t>>> neighbours(n);
  for (int u = 0; u < n; ++u) {
    std::vector<std::pair<int, uint16_t>>& v = neighbours[u];
    for (size_t p = 0; p < nodes_[u].ports.size(); ++p) v.push_back({nodes_[u].ports[p].peer_node, static_cast<uint16_t>(p)});
    std::stable_sort(v.begin(), v.end(), [&](const auto& a, const auto& b) { return before(a.first, b.first); });
    for (size_t i = 0; i + 1 < v.size();)
      if (v[i].first == v[i + 1].first) v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
      else ++i;
  }
  table_.assign(switches_.size(), {});
  for (Table& t : table_) t.offset.reserve(hosts_.size() + 1);
  std::vector<int> dist(n);
  std::vector<int> queue;
  std::vector<std::vector<uint16_t>> hops(switches_.size());
  for (size_t h = 0; h < hosts_.size(); ++h) {
    std::fill(dist.begin(), dist.end(), -1);
    for (auto& v : hops) v.clear();
    dist[hosts_[h]] = 0;
    queue.assign(1, hosts_[h]);
    // Breadth first from the destination (only switches are expanded: hosts do not forward);
    // a switch one hop farther lists `now` as a next hop when `now` is taken off the queue.
    for (size_t i = 0; i < queue.size(); ++i) {
      const int now = queue[i];
      for (const auto& [next, unused] : neighbours[now]) {
        if (dist[next] < 0) {
          dist[next] = dist[now] + 1;
          if (nodes_[next].is_switch) queue.push_back(next);
        }
        if (dist[next] == dist[now] + 1 && nodes_[next].is_switch) {
          const auto& back = neighbours[next];
          const auto it = std::find_if(back.begin(), back.end(), [&](const auto& e) { return e.first == now; });
          hops[nodes_[next].kind_index].push_back(it->second);
        }
      }
    }
    for (size_t s = 0; s < switches_.size(); ++s) {
      Table& t = table_[s];
      t.offset.push_back(static_cast<uint32_t>(t.ports.size()));
      t.ports.insert(t.ports.end(), hops[s].begin(), hops[s].end());
    }
  }
  for (Table& t : table_) t.offset.push_back(static_cast<uint32_t>(t.ports.size()));
}

Topology::Span Topology::LiveRange(int s, int first, int count) const {
  const uint32_t base = sw_[s].port_base;
  const uint16_t a = live_rank_[base + first], b = live_rank_[base + first + count];
  return Span{live_ports_.data() + base + a, static_cast<uint32_t>(b - a)};
}

Topology::Span Topology::NextHops(int node, int host) const {
  const int s = nodes_[node].kind_index;
  const SwitchRoutes& r = sw_[s];
  if (r.exceptions != 0) {
    auto it = exceptions_.find(ExceptionKey(s, host));
    if (it != exceptions_.end()) return Span{it->second.live.data(), static_cast<uint32_t>(it->second.live.size())};
  }
  if (by_address_) {
    // Unsigned: a host before below_first wraps past below_count and goes up.
    const uint32_t below = static_cast<uint32_t>(host) - r.below_first;
    if (below < r.below_count) return LiveRange(s, static_cast<int>(below / r.hosts_per_port), 1);
    return LiveRange(s, r.up_first, r.up_count);
  }
  const Table& t = r.ports_down == 0 ? table_[s] : table_live_.find(s)->second;
  const uint32_t a = t.offset[host], b = t.offset[host + 1];
  return Span{t.ports.data() + a, b - a};
}

std::vector<const TopoPort*> Topology::PathPorts(int src, int dst) const {
  std::vector<const TopoPort*> path;
  int node = hosts_[src];
  const int target = hosts_[dst];
  path.push_back(&nodes_[node].ports[0]);
  node = nodes_[node].ports[0].peer_node;
  while (node != target && path.size() < 64) {
    Span hops = NextHops(node, dst);
    if (hops.size == 0) return {};
    const TopoPort& p = nodes_[node].ports[hops.begin[0]];
    path.push_back(&p);
    node = p.peer_node;
  }
  if (node != target) return {};
  return path;
}

std::vector<const LinkSpec*> Topology::PathLinks(int src, int dst) const {
  std::vector<const LinkSpec*> links;
  for (const TopoPort* p : PathPorts(src, dst)) links.push_back(&p->link);
  return links;
}

std::vector<int> Topology::PathSwitches(int src, int dst) const {
  const std::vector<const TopoPort*> path = PathPorts(src, dst);
  std::vector<int> switches;
  for (size_t i = 0; i + 1 < path.size(); ++i) switches.push_back(path[i]->peer_node);  // the last reaches `dst`
  return switches;
}

void Topology::SetRoute(int node, int host, std::vector<uint16_t> ports) {
  const int s = nodes_[node].kind_index;
  auto [it, added] = exceptions_.try_emplace(ExceptionKey(s, host));
  if (added) ++sw_[s].exceptions;
  ++routing_epoch_;
  it->second.ports = std::move(ports);
  it->second.live.clear();
  for (uint16_t p : it->second.ports)
    if (PortUp(node, p)) it->second.live.push_back(p);
  if (route_observer_) route_observer_(node, host, it->second.ports);
}

void Topology::ClearRoute(int node, int host) {
  const int s = nodes_[node].kind_index;
  if (exceptions_.erase(ExceptionKey(s, host)) == 0) return;
  --sw_[s].exceptions;
  ++routing_epoch_;
}

const std::vector<uint16_t>* Topology::Exception(int node, int host) const {
  const int s = nodes_[node].kind_index;
  if (sw_[s].exceptions == 0) return nullptr;
  auto it = exceptions_.find(ExceptionKey(s, host));
  return it == exceptions_.end() ? nullptr : &it->second.ports;
}

bool Topology::PortUp(int node, int port) const {
  if (!nodes_[node].is_switch) return true;
  const uint32_t base = sw_[nodes_[node].kind_index].port_base;
  return live_rank_[base + port + 1] != live_rank_[base + port];
}

void Topology::SetPortUp(int node, int port, bool up) {
  if (!nodes_[node].is_switch || PortUp(node, port) == up) return;
  const int s = nodes_[node].kind_index;
  SwitchRoutes& r = sw_[s];
  ++routing_epoch_;
  r.ports_down = static_cast<uint16_t>(up ? r.ports_down - 1 : r.ports_down + 1);
  const int n = static_cast<int>(nodes_[node].ports.size());
  std::vector<char> is_up(n);
  for (int p = 0; p < n; ++p) is_up[p] = p == port ? up : PortUp(node, p);
  uint16_t* live = live_ports_.data() + r.port_base;
  uint16_t* rank = live_rank_.data() + r.port_base;
  uint16_t count = 0;
  for (int p = 0; p < n; ++p) {
    rank[p] = count;
    if (is_up[p]) live[count++] = static_cast<uint16_t>(p);
  }
  rank[n] = count;
  FilterExceptions(s);
  if (!by_address_) FilterTable(s);
}

void Topology::FilterExceptions(int s) {
  if (sw_[s].exceptions == 0) return;
  const int node = switches_[s];
  for (auto& [key, o] : exceptions_) {
    if (static_cast<int>(key >> 32) != s) continue;
    o.live.clear();
    for (uint16_t p : o.ports)
      if (PortUp(node, p)) o.live.push_back(p);
  }
}

void Topology::FilterTable(int s) {
  if (sw_[s].ports_down == 0) {
    table_live_.erase(s);
    return;
  }
  const int node = switches_[s];
  const Table& all = table_[s];
  Table& t = table_live_[s];
  t.offset.clear();
  t.ports.clear();
  for (size_t h = 0; h + 1 < all.offset.size(); ++h) {
    t.offset.push_back(static_cast<uint32_t>(t.ports.size()));
    for (uint32_t i = all.offset[h]; i < all.offset[h + 1]; ++i)
      if (PortUp(node, all.ports[i])) t.ports.push_back(all.ports[i]);
  }
  t.offset.push_back(static_cast<uint32_t>(t.ports.size()));
}

size_t Topology::RouteBytes() const {
  size_t bytes = sw_.capacity() * sizeof(SwitchRoutes) + (live_ports_.capacity() + live_rank_.capacity()) * 2;
  auto table_bytes = [](const Table& t) { return t.offset.capacity() * 4 + t.ports.capacity() * 2; };
  for (const Table& t : table_) bytes += table_bytes(t);
  for (const auto& [s, t] : table_live_) bytes += table_bytes(t);
  for (const auto& [key, o] : exceptions_) bytes += 64 + (o.ports.capacity() + o.live.capacity()) * 2;
  return bytes;
}

}  // namespace rocelab
