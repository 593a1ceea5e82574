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

DeadlockChecker::DeadlockChecker(const Topology& topo, Destinations destinations)
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
  to_switch_.resize(eb);
  ports_.resize(switches);
  switch_ports_.assign(switches, Mask{});
  for (size_t s = 0; s < switches; ++s) {
    const TopoNode& n = nodes[topo.switches()[s]];
    ports_[s] = static_cast<uint32_t>(n.ports.size());
    for (size_t i = 0; i < n.ports.size(); ++i) {
      const size_t idx = edge_base_[s] + i;
      owner_[idx] = static_cast<int>(s);
      port_[idx] = static_cast<int>(i);
      const TopoPort& tp = n.ports[i];
      // Only switch peers carry dependencies (a host drains).
      to_switch_[idx] = nodes[tp.peer_node].is_switch;
      if (to_switch_[idx]) switch_ports_[s].Set(static_cast<int>(i));
      peer_buffer_[idx] = to_switch_[idx] ? edge_base_[nodes[tp.peer_node].kind_index] + tp.peer_port : 0;
    }
  }
  GroupHosts(destinations);
  dist_.assign(static_cast<size_t>(dests_) * nodes_, kUnreachable);
  dest_changed_.assign(dests_, 0);
  in_.assign(switches * dests_ * words_, 0);
  affected_.assign(nodes_, 0);
  index_.assign(nodes_, -1);
  color_.assign(eb, 0);
  done_.assign(switches, Mask{});
  std::vector<Mask> next(switches);
  for (int g = 0; g < dests_; ++g) {
    Bfs(g);
    for (size_t s = 0; s < switches; ++s) next[s] = TopologyNext(topo.switches()[s], g);
    for (size_t s = 0; s < switches; ++s) {
      const TopoNode& n = nodes[topo.switches()[s]];
      Mask in;
      for (size_t i = 0; i < n.ports.size(); ++i) {
        const TopoNode& peer = nodes[n.ports[i].peer_node];
        // A host sends to every destination but its own.
        bool active = peer.is_switch ? next[peer.kind_index].Test(n.ports[i].peer_port) : group_of_[peer.kind_index] != g;
        if (active) {
          in.Set(static_cast<int>(i));
          SetIn(static_cast<int>(s), g, static_cast<int>(i), true);
        }
      }
      ForEachBit(in.w, words_, [&](int i) {
        ForEachBit(next[s].w, words_, [&](int o) { Count(static_cast<int>(s), i, o, +1); });
      });
    }
  }
}

void DeadlockChecker::GroupHosts(Destinations destinations) {
  const auto& nodes = topo_.nodes();
  const std::vector<int>& switches = topo_.switches();
  group_of_.assign(hosts_, -1);
  dest_host_.clear();
  std::vector<char> alone(hosts_, destinations == Destinations::kPerHost);
  if (destinations == Destinations::kGrouped) {
    // An exception stays as set when a failure moves the shortest paths, so a host that one
    // names routes its own way, even where the exception repeats the computed route.
    for (int s : switches)
      for (int h = 0; h < hosts_; ++h)
        if (topo_.Exception(s, h)) alone[h] = 1;
  }
  std::vector<int> first(nodes_, -1);  // per switch node: the host standing for its group
  auto same_hops = [](Topology::Span a, Topology::Span b) {
    return a.size == b.size && std::equal(a.begin, a.begin + a.size, b.begin);
  };
  for (int h = 0; h < hosts_; ++h) {
    const TopoNode& n = nodes[topo_.hosts()[h]];
    int e = -1;
    if (!alone[h] && n.ports.size() == 1 && nodes[n.ports[0].peer_node].is_switch) {
      e = n.ports[0].peer_node;
      // Its switch must deliver it to a host, where the dependencies end.
      const Topology::Span own = topo_.NextHops(e, h);
      for (uint32_t i = 0; i < own.size && e >= 0; ++i)
        if (nodes[nodes[e].ports[own.begin[i]].peer_node].is_switch) e = -1;
    }
    if (e >= 0 && first[e] >= 0) {
      const int r = first[e];
      bool same = true;
      for (size_t s = 0; s < switches.size() && same; ++s)
        same = switches[s] == e || same_hops(topo_.NextHops(switches[s], h), topo_.NextHops(switches[s], r));
      if (same) {
        group_of_[h] = group_of_[r];
        continue;
      }
    } else if (e >= 0) {
      first[e] = h;
    }
    group_of_[h] = static_cast<int>(dest_host_.size());
    dest_host_.push_back(h);
  }
  dests_ = static_cast<int>(dest_host_.size());
}

void DeadlockChecker::Bfs(int dest) {
  const auto& nodes = topo_.nodes();
  const int dst = topo_.hosts()[dest_host_[dest]];
  SetDist(dst, dest, 0);
  std::deque<int> q{dst};
  while (!q.empty()) {
    int u = q.front();
    q.pop_front();
    if (!nodes[u].is_switch && u != dst) continue;  // hosts do not forward
    for (size_t p = 0; p < nodes[u].ports.size(); ++p) {
      if ((u == failed_node_ && static_cast<int>(p) == failed_port_) || (u == failed_peer_ && static_cast<int>(p) == failed_peer_port_))
        continue;
      int v = nodes[u].ports[p].peer_node;
      if (Dist(v, dest) < 0) {
        SetDist(v, dest, Dist(u, dest) + 1);
        q.push_back(v);
      }
    }
  }
}

DeadlockChecker::Mask DeadlockChecker::ComputeNextHops(int node, int dest) const {
  const auto& nodes = topo_.nodes();
  const TopoNode& n = nodes[node];
  const int host = dest_host_[dest];
  Mask m;
  auto usable = [&](int p) {
    return !((node == failed_node_ && p == failed_port_) || (node == failed_peer_ && p == failed_peer_port_));
  };
  if (const std::vector<uint16_t>* ex = topo_.Exception(node, host)) {
    for (uint16_t p : *ex)
      if (usable(p)) m.Set(p);
    return m;
  }
  const int d = Dist(node, dest);
  if (d <= 0) return m;
  const int dst = topo_.hosts()[host];
  for (size_t p = 0; p < n.ports.size(); ++p) {
    if (!usable(static_cast<int>(p))) continue;
    int peer = n.ports[p].peer_node;
    if (peer == dst || (nodes[peer].is_switch && Dist(peer, dest) == d - 1)) m.Set(static_cast<int>(p));
  }
  return m;
}

DeadlockChecker::Mask DeadlockChecker::TopologyNext(int node, int dest) const {
  const Topology::Span hops = topo_.NextHops(node, dest_host_[dest]);
  Mask m;
  for (uint32_t i = 0; i < hops.size; ++i) m.Set(hops.begin[i]);
  return m;
}

const DeadlockChecker::Mask* DeadlockChecker::FindChange(int node, int dest) const {
  if (!dest_changed_[dest]) return nullptr;
  auto it = change_index_.find(DistIndex(node, dest));
  return it == change_index_.end() ? nullptr : &changes_[it->second];
}

bool DeadlockChecker::Uses(int node, int dest, int port) const {
  if (const Mask* c = FindChange(node, dest)) return c->Test(port);
  const Topology::Span hops = topo_.NextHops(node, dest_host_[dest]);
  for (uint32_t i = 0; i < hops.size; ++i)
    if (hops.begin[i] == port) return true;
  return false;
}

DeadlockChecker::Mask DeadlockChecker::Next(int node, int dest) const {
  if (const Mask* c = FindChange(node, dest)) return *c;
  return TopologyNext(node, dest);
}

DeadlockChecker::Mask DeadlockChecker::In(int sw, int dest) const {
  Mask m;
  const uint64_t* w = &in_[(static_cast<size_t>(sw) * dests_ + dest) * words_];
  for (int i = 0; i < words_; ++i) m.w[i] = w[i];
  return m;
}

void DeadlockChecker::SetIn(int sw, int dest, int port, bool on) {
  uint64_t& w = in_[(static_cast<size_t>(sw) * dests_ + dest) * words_ + (port >> 6)];
  if (on) w |= 1ull << (port & 63);
  else w &= ~(1ull << (port & 63));
}

void DeadlockChecker::Count(int s, int in, int out, int delta) {
  const size_t buffer = edge_base_[s] + in;
  if (!to_switch_[edge_base_[s] + out]) return;  // a host drains: no dependency
  int32_t& c = count_[count_base_[s] + static_cast<size_t>(in) * ports_[s] + out];
  c += delta;
  Mask& e = edges_[buffer];
  if (c > 0) {
    if (recording_ && c == 1 && delta > 0) added_.push_back({buffer, out});
    e.Set(out);
  } else {
    e.w[out >> 6] &= ~(1ull << (out & 63));
  }
}

void DeadlockChecker::SetNextHops(int node, int dest, const Mask& next) {
  const auto& nodes = topo_.nodes();
  const int s = nodes[node].kind_index;
  const Mask cur = Next(node, dest);
  if (cur == next) return;
  Mask removed, added, removed_dep, added_dep;  // _dep: toward switches, the ones that count
  const Mask& to_switch = switch_ports_[s];
  for (int i = 0; i < kMaxPorts / 64; ++i) {
    removed.w[i] = cur.w[i] & ~next.w[i];
    added.w[i] = next.w[i] & ~cur.w[i];
    removed_dep.w[i] = removed.w[i] & to_switch.w[i];
    added_dep.w[i] = added.w[i] & to_switch.w[i];
  }
  if (!removed_dep.Empty() || !added_dep.Empty()) {
    const Mask in = In(s, dest);
    ForEachBit(in.w, words_, [&](int i) {
      ForEachBit(removed_dep.w, words_, [&](int o) { Count(s, i, o, -1); });
      ForEachBit(added_dep.w, words_, [&](int o) { Count(s, i, o, +1); });
    });
  }
  auto [entry, is_new] = change_index_.try_emplace(DistIndex(node, dest), static_cast<int>(changes_.size()));
  if (is_new) {
    changes_.push_back(next);
    if (!dest_changed_[dest]) changed_dests_.push_back(dest);
    dest_changed_[dest] = 1;
  } else {
    changes_[entry->second] = next;
  }
  // The switches at the other end see traffic for `dest` arrive (or stop arriving) on one port.
  auto update_peer = [&](int p, int delta) {
    const TopoPort& tp = nodes[node].ports[p];
    const TopoNode& peer = nodes[tp.peer_node];
    if (!peer.is_switch) return;
    SetIn(peer.kind_index, dest, tp.peer_port, delta > 0);
    const Mask peer_next = Next(tp.peer_node, dest);
    ForEachBit(peer_next.w, words_, [&](int o) { Count(peer.kind_index, tp.peer_port, o, delta); });
  };
  ForEachBit(removed.w, words_, [&](int p) { update_peer(p, -1); });
  ForEachBit(added.w, words_, [&](int p) { update_peer(p, +1); });
}

void DeadlockChecker::RepairDistances(int dest, std::vector<std::pair<int, int>>* changes) {
  const auto& nodes = topo_.nodes();
  const int dst = topo_.hosts()[dest_host_[dest]];
  changes->clear();
  const int da = Dist(failed_node_, dest), db = Dist(failed_peer_, dest);
  if (da < 0 || db < 0 || std::abs(da - db) != 1) return;
  auto usable = [&](int node, int p) {
    return !((node == failed_node_ && p == failed_port_) || (node == failed_peer_ && p == failed_peer_port_));
  };
  std::vector<char>& affected = affected_;  // all zero between calls
  // A switch keeps its distance while one usable next hop outside the affected set remains.
  auto has_next_hop = [&](int x) {
    const int d = Dist(x, dest);
    for (size_t p = 0; p < nodes[x].ports.size(); ++p) {
      int z = nodes[x].ports[p].peer_node;
      if (!usable(x, static_cast<int>(p)) || affected[z]) continue;
      if ((z == dst || nodes[z].is_switch) && Dist(z, dest) == d - 1) return true;
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
      if (affected[y] || !nodes[y].is_switch || Dist(y, dest) != Dist(x, dest) + 1) continue;
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
      if (!usable(x, static_cast<int>(p)) || affected[z] || Dist(z, dest) < 0) continue;
      if (z != dst && !nodes[z].is_switch) continue;
      if (t < 0 || Dist(z, dest) + 1 < t) t = Dist(z, dest) + 1;
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
  std::vector<Frame> stack;  // out ports followed lowest first
  for (size_t start = 0; start < total; ++start) {
    if (color[start]) continue;
    auto push = [&](size_t idx) {
      color[idx] = 1;
      stack.push_back({idx, edges_[idx]});
    };
    push(start);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const int o = TakeNextPort(&f.rest);
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
  std::vector<int>& candidates = candidates_;
  for (int g = 0; g < dests_; ++g) {
    const bool used = Uses(a, g, pa) || Uses(b, g, tp.peer_port);
    if (!used) continue;
    RepairDistances(g, &changes);
    // Next hops depend on a node's distance and its neighbours': recompute only around changes.
    candidates.assign({a, b});
    for (auto [x, d] : changes) {
      j->dist.push_back({DistIndex(x, g), dist_[DistIndex(x, g)]});
      SetDist(x, g, d);
      candidates.push_back(x);
      for (const TopoPort& p : nodes[x].ports)
        if (nodes[p.peer_node].is_switch) candidates.push_back(p.peer_node);
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (int x : candidates) {
      Mask m = ComputeNextHops(x, g);
      const Mask cur = Next(x, g);
      if (m == cur) continue;
      j->next.emplace_back(x, g, cur);
      SetNextHops(x, g, m);
    }
  }
}

void DeadlockChecker::Restore(const Journal& j) {
  for (auto it = j.next.rbegin(); it != j.next.rend(); ++it) SetNextHops(std::get<0>(*it), std::get<1>(*it), std::get<2>(*it));
  for (auto it = j.dist.rbegin(); it != j.dist.rend(); ++it) dist_[it->first] = it->second;
  // Every changed set is back to the topology's.
  for (int g : changed_dests_) dest_changed_[g] = 0;
  changed_dests_.clear();
  changes_.clear();
  change_index_.clear();
  failed_node_ = failed_port_ = failed_peer_ = failed_peer_port_ = -1;
}

bool DeadlockChecker::RankBuffers() {
  const size_t total = edges_.size();
  rank_.assign(total, 0);
  std::vector<char> color(total, 0);  // 0 white, 1 on stack, 2 done
  std::vector<Frame> stack;
  // Reverse postorder: a buffer finishes after every buffer it depends on, so it ranks before them.
  uint32_t next = static_cast<uint32_t>(total);
  for (size_t start = 0; start < total; ++start) {
    if (color[start]) continue;
    color[start] = 1;
    stack.push_back({start, edges_[start]});
    while (!stack.empty()) {
      Frame& f = stack.back();
      const int o = TakeNextPort(&f.rest);
      if (o < 0) {
        color[f.idx] = 2;
        rank_[f.idx] = --next;
        stack.pop_back();
        continue;
      }
      const size_t nxt = peer_buffer_[f.idx - port_[f.idx] + o];
      if (color[nxt] == 1) return false;
      if (color[nxt] == 0) {
        color[nxt] = 1;
        stack.push_back({nxt, edges_[nxt]});
      }
    }
  }
  return true;
}

bool DeadlockChecker::CycleThroughAdded() {
  // The latest buffer of a cycle in the configured graph's order depends on an earlier one:
  // by an edge against the order, which only a failure can have added. So the cycle runs
  // through the head of such an edge and stays at or before its tail.
  std::vector<size_t> starts;
  uint32_t bound = 0;
  for (auto [u, o] : added_) {
    if (!edges_[u].Test(o)) continue;  // added, then removed again
    const size_t v = peer_buffer_[u - port_[u] + o];
    if (rank_[u] < rank_[v]) continue;
    bound = std::max(bound, rank_[u]);
    starts.push_back(v);
  }
  // Every in-buffer of a switch picks its out ports from the same few: done_ holds, per switch,
  // the out ports whose buffer is finished, so that each buffer is looked at about once.
  std::vector<size_t> touched;
  auto finish = [&](size_t y) {
    color_[y] = 2;
    const size_t from = peer_buffer_[y];
    done_[owner_[from]].Set(port_[from]);
  };
  auto enter = [&](size_t y) {
    touched.push_back(y);
    if (rank_[y] > bound || edges_[y].Empty()) {
      finish(y);
      return false;
    }
    color_[y] = 1;
    return true;
  };
  std::vector<Frame>& stack = stack_;
  bool cyclic = false;
  for (size_t i = 0; i < starts.size() && !cyclic; ++i) {
    if (color_[starts[i]] || !enter(starts[i])) continue;
    stack.push_back({starts[i], edges_[starts[i]]});
    while (!stack.empty()) {
      Frame& f = stack.back();
      const Mask& done = done_[owner_[f.idx]];
      int o = -1;
      for (int w = 0; w < words_ && o < 0; ++w) {
        f.rest.w[w] &= ~done.w[w];
        if (!f.rest.w[w]) continue;
        o = w * 64 + __builtin_ctzll(f.rest.w[w]);
        f.rest.w[w] &= f.rest.w[w] - 1;
      }
      if (o < 0) {
        finish(f.idx);
        stack.pop_back();
        continue;
      }
      const size_t nxt = peer_buffer_[f.idx - port_[f.idx] + o];
      if (color_[nxt] == 1) {
        cyclic = true;
        break;
      }
      if (color_[nxt] == 0 && enter(nxt)) stack.push_back({nxt, edges_[nxt]});
    }
    stack.clear();
  }
  for (size_t y : touched) {
    color_[y] = 0;
    const size_t from = peer_buffer_[y];
    done_[owner_[from]].w[port_[from] >> 6] &= ~(1ull << (port_[from] & 63));
  }
  return cyclic;
}

std::vector<FailureCycle> DeadlockChecker::CheckSingleLinkFailures(size_t max_reported) {
  const auto& nodes = topo_.nodes();
  std::vector<FailureCycle> found;
  // Configured with a cycle, every failure gets the full search.
  const bool ranked = RankBuffers();
  Journal j;  // one, reused: its buffers stay allocated
  for (int a : topo_.switches()) {
    for (size_t pa = 0; pa < nodes[a].ports.size(); ++pa) {
      const TopoPort& tp = nodes[a].ports[pa];
      if (!nodes[tp.peer_node].is_switch || tp.peer_node < a) continue;
      ++links_checked_;
      j.dist.clear();
      j.next.clear();
      added_.clear();
      recording_ = ranked;
      FailLink(a, static_cast<int>(pa), &j);
      recording_ = false;
      if (found.size() < max_reported && (!ranked || CycleThroughAdded())) {
        // The full search again, for the cycle it names.
        std::vector<BufferRef> cycle = FindCycle();
        if (!cycle.empty()) found.push_back({a, static_cast<int>(pa), tp.peer_node, tp.peer_port, cycle});
      }
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

std::vector<BufferRef> DeadlockChecker::FindCycleWithFailedLink(int node, int port) {
  Journal j;
  FailLink(node, port, &j);
  std::vector<BufferRef> cycle = FindCycle();
  Restore(j);
  return cycle;
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
