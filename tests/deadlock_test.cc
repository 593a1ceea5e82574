// The incremental failure repair must give exactly the graph a fresh build gives.
#include "plan/deadlock.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rocelab {

namespace {

// The same fabric as an explicit node/link list, without the link at (node, port).
TopologySpec WithoutLink(const Topology& t, int node, int port) {
  TopologySpec s;
  s.type = TopologySpec::Type::kExplicit;
  for (int h : t.hosts()) s.nodes.push_back({t.nodes()[h].name, false, 0});
  for (int w : t.switches()) s.nodes.push_back({t.nodes()[w].name, true, 0});
  const TopoPort& failed = t.nodes()[node].ports[port];
  for (size_t a = 0; a < t.nodes().size(); ++a) {
    for (size_t p = 0; p < t.nodes()[a].ports.size(); ++p) {
      const TopoPort& tp = t.nodes()[a].ports[p];
      if (static_cast<size_t>(tp.peer_node) < a) continue;
      if ((static_cast<int>(a) == node && static_cast<int>(p) == port) ||
          (tp.peer_node == node && tp.peer_port == port && failed.peer_node == static_cast<int>(a)))
        continue;
      TopologySpec::Link l;
      l.a.name = t.nodes()[a].name;
      l.b.name = t.nodes()[tp.peer_node].name;
      l.spec = tp.link;
      s.links.push_back(l);
    }
  }
  return s;
}

// A static route: switch `sw` sends traffic for host `host` toward the device `peer`.
struct Route {
  std::string sw;
  int host;
  std::string peer;
};

// Applies `routes` to `t` by names (a rebuilt fabric numbers its ports differently); a route
// whose link is gone leaves that destination with no next hop.
void ApplyRoutes(Topology* t, const std::vector<Route>& routes) {
  for (const Route& r : routes) {
    const int node = t->FindNode(r.sw);
    const int port = ResolvePort(*t, node, r.peer);
    if (port >= 0) t->OverrideRoute(node, r.host, port);
    else t->SetRoute(node, r.host, {});
  }
}

void ExpectRepairMatchesRebuild(const TopologySpec& spec, const std::vector<Route>& routes = {}) {
  Topology t = Topology::Build(spec);
  ApplyRoutes(&t, routes);
  DeadlockChecker dc(t);
  const std::vector<std::string> base = dc.Edges();
  ASSERT_FALSE(base.empty());
  int checked = 0;
  for (int a : t.switches()) {
    for (size_t p = 0; p < t.nodes()[a].ports.size(); ++p) {
      const TopoPort& tp = t.nodes()[a].ports[p];
      if (!t.nodes()[tp.peer_node].is_switch || tp.peer_node < a) continue;
      Topology rebuilt = Topology::Build(WithoutLink(t, a, static_cast<int>(p)));
      ApplyRoutes(&rebuilt, routes);
      DeadlockChecker fresh(rebuilt);
      EXPECT_EQ(dc.EdgesWithFailedLink(a, static_cast<int>(p)), fresh.Edges())
          << "failed link " << t.nodes()[a].name << " - " << t.nodes()[tp.peer_node].name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
  EXPECT_EQ(dc.Edges(), base);  // every failure was undone
}

}  // namespace

TEST(Deadlock, FatTreeRepairMatchesRebuild) {
  TopologySpec s;
  s.type = TopologySpec::Type::kFatTree;
  s.k = 4;
  ExpectRepairMatchesRebuild(s);
}

TEST(Deadlock, RepairWithStaticRoutesMatchesRebuild) {
  TopologySpec s;
  s.type = TopologySpec::Type::kFatTree;
  s.k = 4;
  // agg0 sends h9 (pod 2) through core1 only; edge2 (pod 1) sends h0 through agg3 only.
  ExpectRepairMatchesRebuild(s, {{"agg0", 9, "core1"}, {"edge2", 0, "agg3"}});
}

TEST(Deadlock, SpineLeafRepairMatchesRebuild) {
  TopologySpec s;
  s.spines = 3;
  s.leaves = 3;
  s.hosts_per_leaf = 2;
  ExpectRepairMatchesRebuild(s);
}

TEST(Deadlock, RingIsCyclicAndUpDownIsNot) {
  // Five switches in a ring, one host each: two-hop shortest paths chain around the ring.
  TopologySpec ring;
  ring.type = TopologySpec::Type::kExplicit;
  for (int i = 0; i < 5; ++i) ring.nodes.push_back({"h" + std::to_string(i), false, 0});
  for (int i = 0; i < 5; ++i) ring.nodes.push_back({"s" + std::to_string(i), true, 0});
  auto link = [](const std::string& a, const std::string& b) {
    TopologySpec::Link l;
    l.a.name = a;
    l.b.name = b;
    return l;
  };
  for (int i = 0; i < 5; ++i) {
    ring.links.push_back(link("h" + std::to_string(i), "s" + std::to_string(i)));
    ring.links.push_back(link("s" + std::to_string(i), "s" + std::to_string((i + 1) % 5)));
  }
  Topology t = Topology::Build(ring);
  DeadlockChecker dc(t);
  std::vector<BufferRef> cycle = dc.FindCycle();
  ASSERT_FALSE(cycle.empty());
  EXPECT_EQ(cycle.size(), 5u) << dc.Describe(cycle);
  TopologySpec ft;
  ft.type = TopologySpec::Type::kFatTree;
  ft.k = 4;
  Topology f = Topology::Build(ft);
  EXPECT_TRUE(DeadlockChecker(f).FindCycle().empty());
}

}  // namespace rocelab
