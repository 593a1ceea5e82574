// The incremental failure repair must give exactly the graph a fresh build gives.
#include "plan/deadlock.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// The edges only one of two graphs has.
std::string EdgeDiff(const std::vector<std::string>& grouped, const std::vector<std::string>& per_host) {
  std::string s;
  for (const std::string& e : grouped)
    if (!std::binary_search(per_host.begin(), per_host.end(), e)) s += "  grouped only: " + e + "\n";
  for (const std::string& e : per_host)
    if (!std::binary_search(grouped.begin(), grouped.end(), e)) s += "  per host only: " + e + "\n";
  return s;
}

std::string Failures(const DeadlockChecker& dc, const Topology& t, const std::vector<FailureCycle>& found) {
  std::string s;
  for (const FailureCycle& f : found)
    s += t.nodes()[f.node_a].name + ":" + std::to_string(f.port_a) + " - " + t.nodes()[f.node_b].name + ":" +
         std::to_string(f.port_b) + ": " + dc.Describe(f.cycle) + "\n";
  return s;
}

// Destinations grouped by routing behaviour must give exactly what one destination per host
// gives: the same graph as configured and under every single link failure, the same cycles, the
// same failures reported. Returns the failures reported, for the caller to check there are some.
std::vector<FailureCycle> ExpectGroupedMatchesPerHost(const Topology& t, int expected_destinations) {
  DeadlockChecker grouped(t);
  DeadlockChecker per_host(t, DeadlockChecker::Destinations::kPerHost);
  EXPECT_EQ(per_host.destinations(), static_cast<int>(t.hosts().size()));
  EXPECT_EQ(grouped.destinations(), expected_destinations);
  EXPECT_EQ(EdgeDiff(grouped.Edges(), per_host.Edges()), "");
  const std::vector<BufferRef> configured = per_host.FindCycle();
  EXPECT_EQ(grouped.Describe(grouped.FindCycle()), per_host.Describe(configured));
  std::string cyclic_links;  // by the full search, per host
  for (int a : t.switches()) {
    for (size_t p = 0; p < t.nodes()[a].ports.size(); ++p) {
      const TopoPort& tp = t.nodes()[a].ports[p];
      if (!t.nodes()[tp.peer_node].is_switch || tp.peer_node < a) continue;
      const int port = static_cast<int>(p);
      const std::string link = t.nodes()[a].name + " - " + t.nodes()[tp.peer_node].name;
      EXPECT_EQ(EdgeDiff(grouped.EdgesWithFailedLink(a, port), per_host.EdgesWithFailedLink(a, port)), "")
          << "failed link " << link;
      const std::vector<BufferRef> cycle = per_host.FindCycleWithFailedLink(a, port);
      EXPECT_EQ(grouped.Describe(grouped.FindCycleWithFailedLink(a, port)), per_host.Describe(cycle)) << "failed link " << link;
      if (!cycle.empty()) cyclic_links += link + "\n";
    }
  }
  // The failure loop checks only what each failure added: it must report every failure the
  // full search finds a cycle after, with that cycle.
  const std::vector<FailureCycle> found = grouped.CheckSingleLinkFailures(1 << 20);
  EXPECT_EQ(Failures(grouped, t, found), Failures(per_host, t, per_host.CheckSingleLinkFailures(1 << 20)));
  std::string reported;
  for (const FailureCycle& f : found) reported += t.nodes()[f.node_a].name + " - " + t.nodes()[f.node_b].name + "\n";
  EXPECT_EQ(reported, cyclic_links);
  EXPECT_EQ(grouped.links_checked(), per_host.links_checked());
  EXPECT_EQ(grouped.Edges(), per_host.Edges());  // every failure was undone
  return found;
}

Topology Build(const TopologySpec& spec, const std::vector<Route>& routes,
               Topology::Routing routing = Topology::Routing::kAuto) {
  Topology t = Topology::Build(spec, routing);
  ApplyRoutes(&t, routes);
  return t;
}

TopologySpec FatTree(int k) {
  TopologySpec s;
  s.type = TopologySpec::Type::kFatTree;
  s.k = k;
  return s;
}

TopologySpec SpineLeaf(int spines, int leaves, int hosts_per_leaf) {
  TopologySpec s;
  s.spines = spines;
  s.leaves = leaves;
  s.hosts_per_leaf = hosts_per_leaf;
  return s;
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

// One destination per edge switch; no cycle as configured or under any failure.
TEST(DeadlockGrouped, FatTreeMatchesPerHost) {
  EXPECT_TRUE(ExpectGroupedMatchesPerHost(Build(FatTree(4), {}), 8).empty());
  EXPECT_TRUE(ExpectGroupedMatchesPerHost(Build(FatTree(8), {}), 32).empty());
}

// A host a static route names is a destination of its own, and so is one whose route repeats the
// computed one: agg6 reaches h12 only through edge6, but pinned there, h12 is dropped when that
// link fails while h13, behind the same edge switch, is rerouted down to edge7 and up again. The
// first two routes close a cycle each when one link fails.
const std::vector<Route> kFatTreeRoutes = {{"agg0", 9, "core1"}, {"edge2", 0, "agg3"}, {"agg6", 12, "edge6"}};

std::string Links(const Topology& t, const std::vector<FailureCycle>& found) {
  std::string s;
  for (const FailureCycle& f : found) s += t.nodes()[f.node_a].name + " - " + t.nodes()[f.node_b].name + "; ";
  return s;
}

TEST(DeadlockGrouped, StaticRoutesSplitTheirHosts) {
  Topology t = Build(FatTree(4), kFatTreeRoutes);
  EXPECT_EQ(Links(t, ExpectGroupedMatchesPerHost(t, 11)), "edge0 - agg1; agg4 - core1; ");
}

// The shortest-path tables of explicit fabrics group the same way.
TEST(DeadlockGrouped, TableRoutingMatchesPerHost) {
  Topology t = Build(FatTree(4), kFatTreeRoutes, Topology::Routing::kTables);
  EXPECT_EQ(Links(t, ExpectGroupedMatchesPerHost(t, 11)), "edge0 - agg1; agg4 - core1; ");
  EXPECT_TRUE(ExpectGroupedMatchesPerHost(Build(SpineLeaf(3, 3, 2), {}, Topology::Routing::kTables), 3).empty());
}

// lint's routing cycle (Lint.RoutingCycleFromOverrides): spine0 and leaf0 send h5 to each other.
TEST(DeadlockGrouped, OverrideCycleAsConfigured) {
  Topology t = Build(SpineLeaf(2, 2, 4), {{"spine0", 5, "leaf0"}, {"leaf0", 5, "spine0"}});
  ASSERT_FALSE(DeadlockChecker(t).FindCycle().empty());
  EXPECT_FALSE(ExpectGroupedMatchesPerHost(t, 3).empty());
}

// leaf1 pins h0 to spine0. Safe until spine0 - leaf0 fails: spine0 then reroutes h0 through
// leaf1, which sends it back to spine0.
TEST(DeadlockGrouped, OverrideCycleAfterAFailure) {
  Topology t = Build(SpineLeaf(2, 3, 2), {{"leaf1", 0, "spine0"}});
  ASSERT_TRUE(DeadlockChecker(t).FindCycle().empty());
  EXPECT_EQ(Links(t, ExpectGroupedMatchesPerHost(t, 4)), "leaf0 - spine0; ");
}

}  // namespace rocelab
