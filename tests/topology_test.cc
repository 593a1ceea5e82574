#include "topo/topology.h"

#include <gtest/gtest.h>

#include <set>

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
