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

DeadlockChecker::DeadlockChecker(const Topology& topo)
    : topo_(topo),
      nodes_(static_cast<int>(topo.nodes().size())),
      hosts_(static_cast<int>(topo.hosts().size())) {
  const auto& nodes = topo.nodes();
  const size_t switches = topo.switches().size();
  if (switches + 2 >= kUnreachable) throw std::invalid_argument("more than 65,000 switches");  // distances are 16-bit
  count_base_.resize(switches);
  edge_base_.resize(switches);
  size_t cb = 0, eb = 0, most_ports = 1;
  for (size_t s = 0; s < switches; ++s) {
    const size_t ports = nodes[topo.switches()[s]].ports.size();
    if (ports > static_cast<size_t>(kMaxPorts))
      throw std::invalid_argument("switch " + nodes[topo.switches()[s]].name + " has more than 256 ports");
    count_base_[s] = cb;
    edge_base_[s] = eb;
    cb += ports * ports;
    eb += ports;
    most_ports = std::max(most_ports, ports);
  }
  words_ = static_cast<int>((most_ports + 63) / 64);
  count_.assign(cb, 0);
  edges_.assign(eb, Mask{});
  owner_.resize(eb);
  port_.resize(eb);
  peer_buffer_.resize(eb);
  for (size_t s = 0; s < switches; ++s) {
    const TopoNode& n = nodes[topo.switches()[s]];
    for (size_t i = 0; i < n.ports.size(); ++i) {
      const size_t idx = edge_base_[s] + i;
      owner_[idx] = static_cast<int>(s);
      port_[idx] = static_cast<int>(i);
      const TopoPort& tp = n.ports[i];
      // Only switch peers carry dependencies (a host drains).
      peer_buffer_[idx] = nodes[tp.peer_node].is_switch ? edge_base_[nodes[tp.peer_node].kind_index] + tp.peer_port : 0;
    }
  }
  dist_.assign(static_cast<size_t>(hosts_) * nodes_, kUnreachable);
  host_changed_.assign(hosts_, 0);
  in_.assign(switches * hosts_ * words_, 0);
  affected_.assign(nodes_, 0);
  index_.assign(nodes_, -1);
  std::vector<Mask> next(switches);
  for (int h = 0; h < hosts_; ++h) {
    Bfs(h);
    for (size_t s = 0; s < switches; ++s) next[s] = TopologyNext(topo.switches()[s], h);
    for (size_t s = 0; s < switches; ++s) {
      const TopoNode& n = nodes[topo.switches()[s]];
      Mask in;
      for (size_t i = 0; i < n.ports.size(); ++i) {
        const TopoNode& peer = nodes[n.ports[i].peer_node];
        bool active = peer.is_switch ? next[peer.kind_index].Test(n.ports[i].peer_port) : peer.kind_index != h;
        if (active) {
          in.Set(static_cast<int>(i));
          SetIn(static_cast<int>(s), h, static_cast<int>(i), true);
        }
      }
      ForEachBit(in.w, words_, [&](int i) {
        ForEachBit(next[s].w, words_, [&](int o) { Count(static_cast<int>(s), i, o, +1); });
      });
    }
  }
}

void DeadlockChecker::Bfs(int host) {
  const auto& nodes = topo_.nodes();
  const int dst = topo_.hosts()[host];
  SetDist(dst, host, 0);
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
        SetDist(v, host, Dist(u, host) + 1);
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
  if (const std::vector<uint16_t>* ex = topo_.Exception(node, host)) {
    for (uint16_t p : *ex)
      if (usable(p)) m.Set(p);
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

DeadlockChecker::Mask DeadlockChecker::TopologyNext(int node, int host) const {
  const Topology::Span hops = topo_.NextHops(node, host);
  Mask m;
  for (uint32_t i = 0; i < hops.size; ++i) m.Set(hops.begin[i]);
  return m;
}

const DeadlockChecker::Mask* DeadlockChecker::FindChange(int node, int host) const {
  if (!host_changed_[host]) return nullptr;
  auto it = change_index_.find(DistIndex(node, host));
  return it == change_index_.end() ? nullptr : &changes_[it->second];
}

bool DeadlockChecker::Uses(int node, int host, int port) const {
  if (const Mask* c = FindChange(node, host)) return c->Test(port);
  const Topology::Span hops = topo_.NextHops(node, host);
  for (uint32_t i = 0; i < hops.size; ++i)
    if (hops.begin[i] == port) return true;
  return false;
}

DeadlockChecker::Mask DeadlockChecker::Next(int node, int host) const {
  if (const Mask* c = FindChange(node, host)) return *c;
  return TopologyNext(node, host);
}

DeadlockChecker::Mask DeadlockChecker::In(int sw, int host) const {
  Mask m;
  const uint64_t* w = &in_[(static_cast<size_t>(sw) * hosts_ + host) * words_];
  for (int i = 0; i < words_; ++i) m.w[i] = w[i];
  return m;
}

void DeadlockChecker::SetIn(int sw, int host, int port, bool on) {
  uint64_t& w = in_[(static_cast<size_t>(sw) * hosts_ + host) * words_ + (port >> 6)];
  if (on) w |= 1ull << (port & 63);
  else w &= ~(1ull << (port & 63));
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
  const Mask cur = Next(node, host);
  if (cur == next) return;
  Mask removed, added;
  for (int i = 0; i < kMaxPorts / 64; ++i) {
    removed.w[i] = cur.w[i] & ~next.w[i];
    added.w[i] = next.w[i] & ~cur.w[i];
  }
  const Mask in = In(s, host);
  ForEachBit(in.w, words_, [&](int i) {
    ForEachBit(removed.w, words_, [&](int o) { Count(s, i, o, -1); });
    ForEachBit(added.w, words_, [&](int o) { Count(s, i, o, +1); });
  });
  auto [entry, is_new] = change_index_.try_emplace(DistIndex(node, host), static_cast<int>(changes_.size()));
  if (is_new) {
    changes_.push_back(next);
    if (!host_changed_[host]) changed_hosts_.push_back(host);
    host_changed_[host] = 1;
  } else {
    changes_[entry->second] = next;
  }
  // The switches at the other end see traffic for `host` arrive (or stop arriving) on one port.
  auto update_peer = [&](int p, int delta) {
    const TopoPort& tp = nodes[node].ports[p];
    const TopoNode& peer = nodes[tp.peer_node];
    if (!peer.is_switch) return;
    SetIn(peer.kind_index, host, tp.peer_port, delta > 0);
    const Mask peer_next = Next(tp.peer_node, host);
    ForEachBit(peer_next.w, words_, [&](int o) { Count(peer.kind_index, tp.peer_port, o, delta); });
  };
  ForEachBit(removed.w, words_, [&](int p) { update_peer(p, -1); });
  ForEachBit(added.w, words_, [&](int p) { update_peer(p, +1); });
}

void DeadlockChecker::RepairDistances(int host, std::vector<std::pair<int, int>>* changes) {
  const auto& nodes = topo_.nodes();
  const int dst = topo_.hosts()[host];
  changes->clear();
  const int da = Dist(failed_node_, host), db = Dist(failed_peer_, host);
  if (da < 0 || db < 0 || std::abs(da - db) != 1) return;
  auto usable = [&](int node, int p) {
    return !((node == failed_node_ && p == failed_port_) || (node == failed_peer_ && p == failed_peer_port_));
  };
  std::vector<char>& affected = affected_;  // all zero between calls
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
  std::vector<int>& index = index_;  // all -1 between calls
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
  for (size_t i = 0; i < set.size(); ++i) {
    changes->push_back({set[i], best[i]});
    affected[set[i]] = 0;
    index[set[i]] = -1;
  }
}

std::vector<BufferRef> DeadlockChecker::FindCycle() const {
  const size_t total = edges_.size();
  std::vector<char> color(total, 0);  // 0 white, 1 on stack, 2 done
  struct Frame {
    size_t idx;
    Mask rest;  // out ports not yet followed, lowest first
  };
  std::vector<Frame> stack;
  for (size_t start = 0; start < total; ++start) {
    if (color[start]) continue;
    auto push = [&](size_t idx) {
      color[idx] = 1;
      stack.push_back({idx, edges_[idx]});
    };
    push(start);
    while (!stack.empty()) {
      Frame& f = stack.back();
      int o = -1;
      for (int i = 0; i < words_ && o < 0; ++i) {
        if (!f.rest.w[i]) continue;
        o = i * 64 + __builtin_ctzll(f.rest.w[i]);
        f.rest.w[i] &= f.rest.w[i] - 1;
      }
      if (o < 0) {
        color[f.idx] = 2;
        stack.pop_back();
        continue;
      }
      const size_t nxt = peer_buffer_[f.idx - port_[f.idx] + o];
      if (color[nxt] == 1) {
        std::vector<BufferRef> cycle;
        size_t k = 0;
        while (stack[k].idx != nxt) ++k;
        for (; k < stack.size(); ++k)
          cycle.push_back({topo_.switches()[owner_[stack[k].idx]], port_[stack[k].idx]});
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
    const bool used = Uses(a, h, pa) || Uses(b, h, tp.peer_port);
    if (!used) continue;
    RepairDistances(h, &changes);
    // Next hops depend on a node's distance and its neighbours': recompute only around changes.
    std::vector<int> candidates{a, b};
    for (auto [x, d] : changes) {
      j->dist.push_back({DistIndex(x, h), dist_[DistIndex(x, h)]});
      SetDist(x, h, d);
      candidates.push_back(x);
      for (const TopoPort& p : nodes[x].ports)
        if (nodes[p.peer_node].is_switch) candidates.push_back(p.peer_node);
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (int x : candidates) {
      Mask m = ComputeNextHops(x, h);
      const Mask cur = Next(x, h);
      if (m == cur) continue;
      j->next.emplace_back(x, h, cur);
      SetNextHops(x, h, m);
    }
  }
}

void DeadlockChecker::Restore(const Journal& j) {
  for (auto it = j.next.rbegin(); it != j.next.rend(); ++it) SetNextHops(std::get<0>(*it), std::get<1>(*it), std::get<2>(*it));
  for (auto it = j.dist.rbegin(); it != j.dist.rend(); ++it) dist_[it->first] = it->second;
  // Every changed set is back to the topology's.
  for (int h : changed_hosts_) host_changed_[h] = 0;
  changed_hosts_.clear();
  changes_.clear();
  change_index_.clear();
  failed_node_ = failed_port_ = failed_peer_ = failed_peer_port_ = -1;
}

std::vector<FailureCycle> DeadlockChecker::CheckSingleLinkFailures(size_t max_reported) {
  const auto& nodes = topo_.nodes();
  std::vector<FailureCycle> found;
  Journal j;  // one, reused: its buffers stay allocated
  for (int a : topo_.switches()) {
    for (size_t pa = 0; pa < nodes[a].ports.size(); ++pa) {
      const TopoPort& tp = nodes[a].ports[pa];
      if (!nodes[tp.peer_node].is_switch || tp.peer_node < a) continue;
      ++links_checked_;
      j.dist.clear();
      j.next.clear();
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
      ForEachBit(edges_[edge_base_[s] + i].w, words_, [&](int o) {
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
