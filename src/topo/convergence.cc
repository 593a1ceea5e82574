#include "topo/convergence.h"

#include <algorithm>
#include <deque>

namespace rocelab {

RouteConvergence::RouteConvergence(Topology* topo) : topo_(topo) {
  const auto& nodes = topo_->nodes();
  tier_.assign(nodes.size(), -1);
  std::deque<int> frontier;
  for (int h : topo_->hosts()) {
    tier_[h] = 0;
    frontier.push_back(h);
  }
  while (!frontier.empty()) {
    const int x = frontier.front();
    frontier.pop_front();
    for (const TopoPort& p : nodes[x].ports)
      if (tier_[p.peer_node] < 0) {
        tier_[p.peer_node] = tier_[x] + 1;
        frontier.push_back(p.peer_node);
      }
  }
  down_.assign(nodes.size(), -1);
  any_.assign(nodes.size(), -1);
}

bool RouteConvergence::Usable(int node, int port) const {
  const TopoPort& p = topo_->nodes()[node].ports[port];
  return topo_->PortUp(node, port) && topo_->PortUp(p.peer_node, p.peer_port);
}

void RouteConvergence::Distances(int host) {
  const auto& nodes = topo_->nodes();
  const int target = topo_->hosts()[host];
  std::fill(down_.begin(), down_.end(), -1);
  std::fill(any_.begin(), any_.end(), -1);
  if (!topo_->tiered()) {
    // Any shortest path; hosts other than the target do not forward.
    std::deque<int> frontier{target};
    any_[target] = 0;
    while (!frontier.empty()) {
      const int x = frontier.front();
      frontier.pop_front();
      if (x != target && !nodes[x].is_switch) continue;
      for (size_t i = 0; i < nodes[x].ports.size(); ++i) {
        const TopoPort& p = nodes[x].ports[i];
        if (any_[p.peer_node] >= 0 || !Usable(x, static_cast<int>(i))) continue;
        any_[p.peer_node] = any_[x] + 1;
        frontier.push_back(p.peer_node);
      }
    }
    return;
  }
  // A Clos: down distances tier by tier upward, then the best of down and up tier by tier
  // downward. A path that has gone down never goes up again.
  int top = 0;
  for (int t : tier_) top = std::max(top, t);
  down_[target] = 0;
  for (int t = 1; t <= top; ++t)
    for (int x : topo_->switches()) {
      if (tier_[x] != t) continue;
      for (size_t i = 0; i < nodes[x].ports.size(); ++i) {
        const int y = nodes[x].ports[i].peer_node;
        if (tier_[y] == t - 1 && down_[y] >= 0 && Usable(x, static_cast<int>(i)) &&
            (down_[x] < 0 || down_[y] + 1 < down_[x]))
          down_[x] = down_[y] + 1;
      }
    }
  for (int t = top; t >= 1; --t)
    for (int x : topo_->switches()) {
      if (tier_[x] != t) continue;
      any_[x] = down_[x];
      for (size_t i = 0; i < nodes[x].ports.size(); ++i) {
        const int y = nodes[x].ports[i].peer_node;
        if (tier_[y] == t + 1 && any_[y] >= 0 && Usable(x, static_cast<int>(i)) &&
            (any_[x] < 0 || any_[y] + 1 < any_[x]))
          any_[x] = any_[y] + 1;
      }
    }
}

int RouteConvergence::Converge(const std::vector<int>& switch_nodes) {
  const auto& nodes = topo_->nodes();
  const int num_hosts = static_cast<int>(topo_->hosts().size());
  std::vector<char> changed(nodes.size(), 0);
  std::vector<uint16_t> before, want;
  for (int h = 0; h < num_hosts; ++h) {
    Distances(h);
    for (int s : switch_nodes) {
      const uint64_t key = Key(s, h);
      const bool ours = installed_.count(key) > 0;
      if (static_.count(key) || (!ours && topo_->Exception(s, h))) continue;  // someone else's route
      const Topology::Span old = topo_->NextHops(s, h);
      before.assign(old.begin, old.begin + old.size);
      want.clear();
      if (any_[s] > 0) {
        for (size_t i = 0; i < nodes[s].ports.size(); ++i) {
          const int y = nodes[s].ports[i].peer_node;
          if (!Usable(s, static_cast<int>(i))) continue;
          const bool on_path = topo_->tiered()
                                   ? (tier_[y] < tier_[s] && down_[y] >= 0 && down_[y] + 1 == any_[s]) ||
                                         (tier_[y] > tier_[s] && any_[y] >= 0 && any_[y] + 1 == any_[s])
                                   : any_[y] >= 0 && any_[y] + 1 == any_[s] && (nodes[y].is_switch || any_[y] == 0);
          if (on_path) want.push_back(static_cast<uint16_t>(i));
        }
      }
      if (ours) {
        topo_->ClearRoute(s, h);
        installed_.erase(key);
      }
      const Topology::Span rule = topo_->NextHops(s, h);
      if (!std::equal(want.begin(), want.end(), rule.begin, rule.begin + rule.size)) {
        topo_->SetRoute(s, h, want);
        installed_.insert(key);
      }
      const Topology::Span now = topo_->NextHops(s, h);
      if (!std::equal(before.begin(), before.end(), now.begin, now.begin + now.size)) changed[s] = 1;
    }
  }
  int n = 0;
  for (int s : switch_nodes) n += changed[s];
  return n;
}

}  // namespace rocelab
