#include "topo/topology.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "run/memory_estimate.h"

namespace rocelab {

TEST(Topology, SpineLeafNamesPortsAndRoutes) {
  TopologySpec s;
  s.spines = 2;
  s.leaves = 2;
  s.hosts_per_leaf = 8;
  Topology t = Topology::Build(s);
  EXPECT_EQ(t.hosts().size(), 16u);
  EXPECT_EQ(t.switches().size(), 4u);
  int leaf0 = t.FindNode("leaf0");
  ASSERT_GE(leaf0, 0);
  EXPECT_EQ(t.nodes()[leaf0].ports.size(), 10u);
  EXPECT_EQ(ResolvePort(t, leaf0, "Ethernet0"), 0);
  EXPECT_EQ(ResolvePort(t, leaf0, "Ethernet36"), 9);
  EXPECT_EQ(ResolvePort(t, leaf0, "leaf0:h5"), 5);
  EXPECT_EQ(ResolvePort(t, leaf0, "Ethernet40"), -1);
  // Local host: one hop; remote host: both spines.
  EXPECT_EQ(t.NextHops(leaf0, 3).size, 1u);
  EXPECT_EQ(t.NextHops(leaf0, 3).begin[0], 3);
  EXPECT_EQ(t.NextHops(leaf0, 12).size, 2u);
  int spine1 = t.FindNode("spine1");
  EXPECT_EQ(t.NextHops(spine1, 12).size, 1u);
}

TEST(Topology, FatTreeHasKCubedOverFourHostsAndFullEcmp) {
  TopologySpec s;
  s.type = TopologySpec::Type::kFatTree;
  s.k = 8;
  Topology t = Topology::Build(s);
  EXPECT_EQ(t.hosts().size(), 128u);
  EXPECT_EQ(t.switches().size(), 80u);  // 32 edge + 32 agg + 16 core
  for (int sw : t.switches()) EXPECT_EQ(t.nodes()[sw].ports.size(), 8u) << t.nodes()[sw].name;
  int edge0 = t.FindNode("edge0");
  EXPECT_EQ(t.NextHops(edge0, 100).size, 4u);  // k/2 uplinks toward another pod
  EXPECT_EQ(t.NextHops(edge0, 5).size, 4u);    // same pod, other edge: via any agg
  EXPECT_EQ(t.NextHops(edge0, 1).size, 1u);    // own host
  int agg0 = t.FindNode("agg0");
  EXPECT_EQ(t.NextHops(agg0, 100).size, 4u);   // k/2 cores
  int core0 = t.FindNode("core0");
  EXPECT_EQ(t.NextHops(core0, 100).size, 1u);
}

namespace {

// The address rule must give the BFS's lists, in the same order: the ECMP hash indexes them.
void ExpectAddressRuleMatchesTables(const TopologySpec& s, const std::string& what) {
  const Topology by_address = Topology::Build(s);
  const Topology tables = Topology::Build(s, Topology::Routing::kTables);
  ASSERT_EQ(by_address.nodes().size(), tables.nodes().size());
  for (int sw : by_address.switches()) {
    for (int h = 0; h < static_cast<int>(by_address.hosts().size()); ++h) {
      const Topology::Span a = by_address.NextHops(sw, h), b = tables.NextHops(sw, h);
      ASSERT_EQ(std::vector<uint16_t>(a.begin, a.begin + a.size), std::vector<uint16_t>(b.begin, b.begin + b.size))
          << what << ": " << by_address.nodes()[sw].name << " toward h" << h;
    }
  }
}

std::vector<uint16_t> Hops(const Topology& t, int node, int host) {
  const Topology::Span s = t.NextHops(node, host);
  return std::vector<uint16_t>(s.begin, s.begin + s.size);
}

}  // namespace

TEST(Topology, SpineLeafAddressRuleIsTheShortestPaths) {
  const int shapes[][3] = {{2, 2, 8}, {1, 4, 3}, {4, 3, 1}, {1, 1, 1}, {3, 1, 2}, {1, 5, 1}, {8, 16, 4}};
  for (const auto& shape : shapes) {
    TopologySpec s;
    s.spines = shape[0];
    s.leaves = shape[1];
    s.hosts_per_leaf = shape[2];
    ExpectAddressRuleMatchesTables(s, "spines " + std::to_string(shape[0]) + " leaves " + std::to_string(shape[1]) +
                                          " hosts_per_leaf " + std::to_string(shape[2]));
  }
}

TEST(Topology, FatTreeAddressRuleIsTheShortestPaths) {
  for (int k : {2, 4, 6, 8}) {
    TopologySpec s;
    s.type = TopologySpec::Type::kFatTree;
    s.k = k;
    ExpectAddressRuleMatchesTables(s, "k " + std::to_string(k));
  }
}

TEST(Topology, GeneratedRoutingStateIsPerPortNotPerHost) {
  TopologySpec s;
  s.type = TopologySpec::Type::kFatTree;
  s.k = 16;  // 1024 hosts, 320 switches of 16 ports
  const Topology t = Topology::Build(s);
  EXPECT_LT(t.RouteBytes(), 320u * 17 * 4 + 320u * 64);
  EXPECT_GT(Topology::Build(s, Topology::Routing::kTables).RouteBytes(), 320u * 1024 * 4);
}

TEST(Topology, MemoryEstimateFollowsTheRoutingState) {
  // 65,536 hosts: per-port routing state only, so the run fits the 4 GB a k=64 fabric may take.
  const MemoryEstimate k64 =
      EstimateMemory(ParseScenarioText("topology: {type: fat-tree, k: 64, link: {rate: 100G, delay: 1us}}\n", "k64.yaml"));
  EXPECT_LT(k64.routes, 2u << 20);
  EXPECT_LT(k64.total, 4ull << 30);
}

TEST(Topology, DownPortsLeaveTheEcmpGroupsInOrder) {
  for (auto routing : {Topology::Routing::kAuto, Topology::Routing::kTables}) {
    TopologySpec s;
    s.type = TopologySpec::Type::kFatTree;
    s.k = 8;
    Topology t = Topology::Build(s, routing);
    const int edge0 = t.FindNode("edge0");
    // edge0: hosts on ports 0-3, aggregation switches on 4-7.
    EXPECT_EQ(Hops(t, edge0, 100), (std::vector<uint16_t>{4, 5, 6, 7}));
    t.SetPortUp(edge0, 5, false);
    EXPECT_FALSE(t.PortUp(edge0, 5));
    EXPECT_EQ(Hops(t, edge0, 100), (std::vector<uint16_t>{4, 6, 7}));
    EXPECT_EQ(Hops(t, edge0, 1), (std::vector<uint16_t>{1}));
    t.SetPortUp(edge0, 1, false);
    EXPECT_TRUE(Hops(t, edge0, 1).empty());  // its only next hop is down: dropped
    t.SetPortUp(edge0, 4, false);
    t.SetPortUp(edge0, 7, false);
    EXPECT_EQ(Hops(t, edge0, 100), (std::vector<uint16_t>{6}));
    t.SetPortUp(edge0, 6, false);
    EXPECT_TRUE(Hops(t, edge0, 100).empty());
    // Another switch is untouched; every port back up restores the groups.
    EXPECT_EQ(Hops(t, t.FindNode("edge1"), 100), (std::vector<uint16_t>{4, 5, 6, 7}));
    for (int p : {1, 4, 5, 6, 7}) t.SetPortUp(edge0, p, true);
    EXPECT_EQ(Hops(t, edge0, 100), (std::vector<uint16_t>{4, 5, 6, 7}));
    EXPECT_EQ(Hops(t, edge0, 1), (std::vector<uint16_t>{1}));
    t.SetPortUp(t.hosts()[0], 0, false);  // hosts do not forward: ignored
    EXPECT_TRUE(t.PortUp(t.hosts()[0], 0));
  }
}

TEST(Topology, ExceptionsComeFirstAndArePrunedToo) {
  TopologySpec s;
  s.type = TopologySpec::Type::kFatTree;
  s.k = 4;
  Topology t = Topology::Build(s);
  const int agg0 = t.FindNode("agg0");  // edges on ports 0-1, cores on 2-3
  EXPECT_EQ(t.Exception(agg0, 9), nullptr);
  t.SetRoute(agg0, 9, {3, 2});
  EXPECT_EQ(Hops(t, agg0, 9), (std::vector<uint16_t>{3, 2}));
  EXPECT_EQ(Hops(t, agg0, 10), (std::vector<uint16_t>{2, 3}));
  t.SetPortUp(agg0, 3, false);
  EXPECT_EQ(Hops(t, agg0, 9), (std::vector<uint16_t>{2}));
  EXPECT_EQ(Hops(t, agg0, 10), (std::vector<uint16_t>{2}));
  ASSERT_NE(t.Exception(agg0, 9), nullptr);
  EXPECT_EQ(*t.Exception(agg0, 9), (std::vector<uint16_t>{3, 2}));  // as set
  t.SetRoute(agg0, 9, {3});
  EXPECT_TRUE(Hops(t, agg0, 9).empty());
  t.SetPortUp(agg0, 3, true);
  EXPECT_EQ(Hops(t, agg0, 9), (std::vector<uint16_t>{3}));
  t.ClearRoute(agg0, 9);
  EXPECT_EQ(t.Exception(agg0, 9), nullptr);
  EXPECT_EQ(Hops(t, agg0, 9), (std::vector<uint16_t>{2, 3}));
  t.ClearRoute(agg0, 9);  // none left: no effect
  EXPECT_EQ(Hops(t, agg0, 9), (std::vector<uint16_t>{2, 3}));
}

TEST(Topology, OverrideReplacesOneEntry) {
  TopologySpec s;
  Topology t = Topology::Build(s);
  int leaf0 = t.FindNode("leaf0");
  t.OverrideRoute(leaf0, 12, 9);
  EXPECT_EQ(t.NextHops(leaf0, 12).size, 1u);
  EXPECT_EQ(t.NextHops(leaf0, 12).begin[0], 9);
  EXPECT_EQ(t.NextHops(leaf0, 13).size, 2u);
}

}  // namespace rocelab
