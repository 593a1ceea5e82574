#include "plan/deadlock.h"

#include <algorithm>
#include <deque>
#include <queue>
#include <stdexcept>

namespace rocelab {

bool DeadlockChecker::Mask::operator==(const Mask& o) const {
  for (int i = 0; i < kMaxPorts / 64; ++i)
    if (w[i] != o.w[i]) return false;
  return true;
}

bool DeadlockChecker::Mask::Empty() const {
  for (uint64_t x : w)
    if (x) return false;
  return true;
}

namespace {
template <typename F>
void ForEachBit(const uint64_t* w, int words, F f) {
  for (int i = 0; i < words; ++i) {
    uint64_t x = w[i];
    while (x) {
      int b = __builtin_ctzll(x);
      f(i * 64 + b);
      x &= x - 1;
    }
  }
}
}  // namespace

DeadlockChecker::DeadlockChecker(const Topology& topo, const std::vector<StaticRoute>& routes)
    : topo_(topo),
      nodes_(static_cast<int>(topo.nodes().size())),
      hosts_(static_cast<int>(topo.hosts().size())) {
  const auto& nodes = topo.nodes();
  const size_t switches = topo.switches().size();
  count_base_.resize(switches);
  edge_base_.resize(switches);
  size_t cb = 0, eb = 0;
  for (size_t s = 0; s < switches; ++s) {
    const size_t ports = nodes[topo.switches()[s]].ports.size();
    if (ports > static_cast<size_t>(kMaxPorts))
      throw std::invalid_argument("switch " + nodes[topo.switches()[s]].name + " has more than 256 ports");
    count_base_[s] = cb;
    edge_base_[s] = eb;
    cb += ports * ports;
    eb += ports;
  }
  count_.assign(cb, 0);
  edges_.assign(eb, Mask{});
  override_.assign(switches * hosts_, -1);
  for (const StaticRoute& r : routes) override_[Slot(nodes[r.node].kind_index, r.host)] = r.port;
  dist_.assign(static_cast<size_t>(hosts_) * nodes_, -1);
  next_.assign(switches * hosts_, Mask{});
  in_.assign(switches * hosts_, Mask{});
  for (int h = 0; h < hosts_; ++h) {
    Bfs(h);
    for (size_t s = 0; s < switches; ++s) next_[Slot(static_cast<int>(s), h)] = ComputeNextHops(topo.switches()[s], h);
  }
  for (size_t s = 0; s < switches; ++s) {
    const TopoNode& n = nodes[topo.switches()[s]];
    for (int h = 0; h < hosts_; ++h) {
      Mask& in = in_[Slot(static_cast<int>(s), h)];
      for (size_t i = 0; i < n.ports.size(); ++i) {
        const TopoNode& peer = nodes[n.ports[i].peer_node];
        bool active = peer.is_switch ? next_[Slot(peer.kind_index, h)].Test(n.ports[i].peer_port) : peer.kind_index != h;
        if (active) in.Set(static_cast<int>(i));
      }
      const Mask& out = next_[Slot(static_cast<int>(s), h)];
      ForEachBit(in.w, kMaxPorts / 64, [&](int i) {
        ForEachBit(out.w, kMaxPorts / 64, [&](int o) { Count(static_cast<int>(s), i, o, +1); });
      });
    }
  }
}

void DeadlockChecker::Bfs(int host) {
  const auto& nodes = topo_.nodes();
  const int dst = topo_.hosts()[host];
  for (int n = 0; n < nodes_; ++n) Dist(n, host) = -1;
  Dist(dst, host) = 0;
  std::deque<int> q{dst};
  while (!q.empty()) {
    int u = q.front();
    q.pop_front();
    if (!nodes[u].is_switch && u != dst) continue;  // hosts do not forward
    for (size_t p = 0; p < nodes[u].ports.size(); ++p) {
      if ((u == failed_node_ && static_cast<int>(p) == failed_port_) || (u == failed_peer_ && static_cast<int>(p) == failed_peer_port_))
        continue;
      int v = nodes[u].ports[p].peer_node;
      if (Dist(v, host) < 0) {
        Dist(v, host) = Dist(u, host) + 1;
        q.push_back(v);
      }
    }
  }
}

DeadlockChecker::Mask DeadlockChecker::ComputeNextHops(int node, int host) const {
  const auto& nodes = topo_.nodes();
  const TopoNode& n = nodes[node];
  Mask m;
  auto usable = [&](int p) {
    return !((node == failed_node_ && p == failed_port_) || (node == failed_peer_ && p == failed_peer_port_));
  };
  const int ov = override_[Slot(n.kind_index, host)];
  if (ov >= 0) {
    if (usable(ov)) m.Set(ov);
    return m;
  }
  const int d = Dist(node, host);
  if (d <= 0) return m;
  const int dst = topo_.hosts()[host];
  for (size_t p = 0; p < n.ports.size(); ++p) {
    if (!usable(static_cast<int>(p))) continue;
    int peer = n.ports[p].peer_node;
    if (peer == dst || (nodes[peer].is_switch && Dist(peer, host) == d - 1)) m.Set(static_cast<int>(p));
  }
  return m;
}

void DeadlockChecker::Count(int s, int in, int out, int delta) {
  const TopoNode& n = topo_.nodes()[topo_.switches()[s]];
  if (!topo_.nodes()[n.ports[out].peer_node].is_switch) return;  // a host drains: no dependency
  const size_t ports = n.ports.size();
  int32_t& c = count_[count_base_[s] + static_cast<size_t>(in) * ports + out];
  c += delta;
  Mask& e = edges_[edge_base_[s] + in];
  if (c > 0) e.Set(out);
  else e.w[out >> 6] &= ~(1ull << (out & 63));
}

void DeadlockChecker::SetNextHops(int node, int host, const Mask& next) {
  const auto& nodes = topo_.nodes();
  const int s = nodes[node].kind_index;
  Mask& cur = next_[Slot(s, host)];
  if (cur == next) return;
  Mask removed, added;
  for (int i = 0; i < kMaxPorts / 64; ++i) {
    removed.w[i] = cur.w[i] & ~next.w[i];
    added.w[i] = next.w[i] & ~cur.w[i];
  }
  const Mask& in = in_[Slot(s, host)];
  ForEachBit(in.w, kMaxPorts / 64, [&](int i) {
    ForEachBit(removed.w, kMaxPorts / 64, [&](int o) { Count(s, i, o, -1); });
    ForEachBit(added.w, kMaxPorts / 64, [&](int o) { Count(s, i, o, +1); });
  });
  cur = next;
  // The switches at the other end see traffic for `host` arrive (or stop arriving) on one port.
  auto update_peer = [&](int p, int delta) {
    const TopoPort& tp = nodes[node].ports[p];
    const TopoNode& peer = nodes[tp.peer_node];
    if (!peer.is_switch) return;
    const size_t slot = Slot(peer.kind_index, host);
    if (delta > 0) in_[slot].Set(tp.peer_port);
    else in_[slot].w[tp.peer_port >> 6] &= ~(1ull << (tp.peer_port & 63));
    ForEachBit(next_[slot].w, kMaxPorts / 64, [&](int o) { Count(peer.kind_index, tp.peer_port, o, delta); });
  };
  ForEachBit(removed.w, kMaxPorts / 64, [&](int p) { update_peer(p, -1); });
  ForEachBit(added.w, kMaxPorts / 64, [&](int p) { update_peer(p, +1); });
}

void DeadlockChecker::RepairDistances(int host, std::vector<std::pair<int, int>>* changes) const {
  const auto& nodes = topo_.nodes();
  const int dst = topo_.hosts()[host];
  changes->clear();
  const int da = Dist(failed_node_, host), db = Dist(failed_peer_, host);
  if (da < 0 || db < 0 || std::abs(da - db) != 1) return;
  auto usable = [&](int node, int p) {
    return !((node == failed_node_ && p == failed_port_) || (node == failed_peer_ && p == failed_peer_port_));
  };
  std::vector<char> affected(nodes_, 0);
  // A switch keeps its distance while one usable next hop outside the affected set remains.
  auto has_next_hop = [&](int x) {
    const int d = Dist(x, host);
    for (size_t p = 0; p < nodes[x].ports.size(); ++p) {
      int z = nodes[x].ports[p].peer_node;
      if (!usable(x, static_cast<int>(p)) || affected[z]) continue;
      if ((z == dst || nodes[z].is_switch) && Dist(z, host) == d - 1) return true;
    }
    return false;
  };
  const int far = da > db ? failed_node_ : failed_peer_;
  if (has_next_hop(far)) return;
  std::vector<int> set{far}, work{far};
  affected[far] = 1;
  while (!work.empty()) {
    int x = work.back();
    work.pop_back();
    for (const TopoPort& tp : nodes[x].ports) {
      int y = tp.peer_node;
      if (affected[y] || !nodes[y].is_switch || Dist(y, host) != Dist(x, host) + 1) continue;
      if (!has_next_hop(y)) {
        affected[y] = 1;
        set.push_back(y);
        work.push_back(y);
      }
    }
  }
  // Unit-weight shortest paths into the affected set from its unaffected boundary.
  using Item = std::pair<int, int>;  // (distance, node)
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  std::vector<int> best(set.size(), -1);
  std::vector<int> index(nodes_, -1);
  for (size_t i = 0; i < set.size(); ++i) index[set[i]] = static_cast<int>(i);
  for (size_t i = 0; i < set.size(); ++i) {
    int x = set[i], t = -1;
    for (size_t p = 0; p < nodes[x].ports.size(); ++p) {
      int z = nodes[x].ports[p].peer_node;
      if (!usable(x, static_cast<int>(p)) || affected[z] || Dist(z, host) < 0) continue;
      if (z != dst && !nodes[z].is_switch) continue;
      if (t < 0 || Dist(z, host) + 1 < t) t = Dist(z, host) + 1;
    }
    if (t >= 0) pq.push({t, x});
  }
  while (!pq.empty()) {
    auto [d, x] = pq.top();
    pq.pop();
    int i = index[x];
    if (best[i] >= 0) continue;
    best[i] = d;
    for (size_t p = 0; p < nodes[x].ports.size(); ++p) {
      int y = nodes[x].ports[p].peer_node;
      if (!usable(x, static_cast<int>(p)) || !affected[y] || best[index[y]] >= 0) continue;
      pq.push({d + 1, y});
    }
  }
  for (size_t i = 0; i < set.size(); ++i) changes->push_back({set[i], best[i]});
}

std::vector<BufferRef> DeadlockChecker::FindCycle() const {
  const auto& nodes = topo_.nodes();
  const size_t total = edges_.size();
  std::vector<char> color(total, 0);  // 0 white, 1 on stack, 2 done
  std::vector<int> owner(total), port(total);
  for (size_t s = 0; s < edge_base_.size(); ++s) {
    const size_t ports = nodes[topo_.switches()[s]].ports.size();
    for (size_t i = 0; i < ports; ++i) {
      owner[edge_base_[s] + i] = static_cast<int>(s);
      port[edge_base_[s] + i] = static_cast<int>(i);
    }
  }
  struct Frame {
    size_t idx;
    std::vector<size_t> next;
    size_t pos;
  };
  for (size_t start = 0; start < total; ++start) {
    if (color[start]) continue;
    std::vector<Frame> stack;
    auto push = [&](size_t idx) {
      Frame f{idx, {}, 0};
      const int s = owner[idx];
      const TopoNode& n = nodes[topo_.switches()[s]];
      ForEachBit(edges_[idx].w, kMaxPorts / 64, [&](int o) {
        const TopoPort& tp = n.ports[o];
        f.next.push_back(edge_base_[nodes[tp.peer_node].kind_index] + tp.peer_port);
      });
      color[idx] = 1;
      stack.push_back(std::move(f));
    };
    push(start);
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.pos == f.next.size()) {
        color[f.idx] = 2;
        stack.pop_back();
        continue;
      }
      size_t nxt = f.next[f.pos++];
      if (color[nxt] == 1) {
        std::vector<BufferRef> cycle;
        size_t k = 0;
        while (stack[k].idx != nxt) ++k;
        for (; k < stack.size(); ++k)
          cycle.push_back({topo_.switches()[owner[stack[k].idx]], port[stack[k].idx]});
        return cycle;
      }
      if (color[nxt] == 0) push(nxt);
    }
  }
  return {};
}

void DeadlockChecker::FailLink(int a, int pa, Journal* j) {
  const auto& nodes = topo_.nodes();
  const TopoPort& tp = nodes[a].ports[pa];
  const int b = tp.peer_node;
  failed_node_ = a;
  failed_port_ = pa;
  failed_peer_ = b;
  failed_peer_port_ = tp.peer_port;
  std::vector<std::pair<int, int>> changes;
  for (int h = 0; h < hosts_; ++h) {
    const bool used = next_[Slot(nodes[a].kind_index, h)].Test(pa) || next_[Slot(nodes[b].kind_index, h)].Test(tp.peer_port);
    if (!used) continue;
    RepairDistances(h, &changes);
    // Next hops depend on a node's distance and its neighbours': recompute only around changes.
    std::vector<int> candidates{a, b};
    for (auto [x, d] : changes) {
      j->dist.push_back({static_cast<size_t>(h) * nodes_ + x, Dist(x, h)});
      Dist(x, h) = d;
      candidates.push_back(x);
      for (const TopoPort& p : nodes[x].ports)
        if (nodes[p.peer_node].is_switch) candidates.push_back(p.peer_node);
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (int x : candidates) {
      Mask m = ComputeNextHops(x, h);
      const Mask& cur = next_[Slot(nodes[x].kind_index, h)];
      if (m == cur) continue;
      j->next.emplace_back(x, h, cur);
      SetNextHops(x, h, m);
    }
  }
}

void DeadlockChecker::Restore(const Journal& j) {
  for (auto it = j.next.rbegin(); it != j.next.rend(); ++it) SetNextHops(std::get<0>(*it), std::get<1>(*it), std::get<2>(*it));
  for (auto it = j.dist.rbegin(); it != j.dist.rend(); ++it) dist_[it->first] = it->second;
  failed_node_ = failed_port_ = failed_peer_ = failed_peer_port_ = -1;
}

std::vector<FailureCycle> DeadlockChecker::CheckSingleLinkFailures(size_t max_reported) {
  const auto& nodes = topo_.nodes();
  std::vector<FailureCycle> found;
  for (int a : topo_.switches()) {
    for (size_t pa = 0; pa < nodes[a].ports.size(); ++pa) {
      const TopoPort& tp = nodes[a].ports[pa];
      if (!nodes[tp.peer_node].is_switch || tp.peer_node < a) continue;
      ++links_checked_;
      Journal j;
      FailLink(a, static_cast<int>(pa), &j);
      std::vector<BufferRef> cycle = FindCycle();
      if (!cycle.empty() && found.size() < max_reported)
        found.push_back({a, static_cast<int>(pa), tp.peer_node, tp.peer_port, cycle});
      Restore(j);
    }
  }
  return found;
}

std::vector<std::string> DeadlockChecker::Edges() const {
  const auto& nodes = topo_.nodes();
  std::vector<std::string> out;
  for (size_t s = 0; s < edge_base_.size(); ++s) {
    const TopoNode& n = nodes[topo_.switches()[s]];
    for (size_t i = 0; i < n.ports.size(); ++i) {
      ForEachBit(edges_[edge_base_[s] + i].w, kMaxPorts / 64, [&](int o) {
        out.push_back(n.name + "<-" + nodes[n.ports[i].peer_node].name + " => " + nodes[n.ports[o].peer_node].name +
                      "<-" + n.name);
      });
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> DeadlockChecker::EdgesWithFailedLink(int node, int port) {
  Journal j;
  FailLink(node, port, &j);
  std::vector<std::string> e = Edges();
  Restore(j);
  return e;
}

std::string DeadlockChecker::Describe(const std::vector<BufferRef>& cycle) const {
  const auto& nodes = topo_.nodes();
  std::string s;
  for (size_t i = 0; i <= cycle.size() && !cycle.empty(); ++i) {
    const BufferRef& r = cycle[i % cycle.size()];
    if (i) s += " -> ";
    s += nodes[r.node].name + ":" + SwitchPortAlias(r.port) + " (from " +
         nodes[nodes[r.node].ports[r.port].peer_node].name + ")";
  }
  return s;
}

}  // namespace rocelab
