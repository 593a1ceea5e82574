// Defaults with a production source: a link given neither delay nor length has the cable SONiC
// sizes headroom for at its place, and the run says so.
#include <gtest/gtest.h>

#include <string>

#include "run/assumptions.h"
#include "test_util.h"
#include "topo/topology.h"

namespace rocelab {
namespace {

bool Assumes(const Scenario& sc, const std::string& key) {
  for (const Assumption& a : OutcomeAssumptions(sc))
    if (a.key == key) return true;
  return false;
}

Time PortDelay(const Topology& t, const std::string& node, int port) {
  return t.nodes()[t.FindNode(node)].ports[port].link.delay;
}

// sonic-buildimage buffers_config.j2 (ports2cable): 5 m to servers, 40 m ToR to leaf, 300 m leaf
// to spine, at 5 ns/m.
TEST(SourcedDefaults, ALinkWithoutDelayHasTheCableSonicSizesForItsPlace) {
  const Scenario leaf_spine = ParseScenarioText(
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 2}\n", "test.yaml");
  const Topology sl = Topology::Build(leaf_spine.topology);
  EXPECT_EQ(PortDelay(sl, "leaf0", 0), 25 * kNanosecond);   // to h0
  EXPECT_EQ(PortDelay(sl, "leaf0", 2), 200 * kNanosecond);  // to spine0
  EXPECT_EQ(PortDelay(sl, "h0", 0), 25 * kNanosecond);

  const Scenario fat = ParseScenarioText("topology: {type: fat-tree, k: 4}\n", "test.yaml");
  const Topology ft = Topology::Build(fat.topology);
  EXPECT_EQ(PortDelay(ft, "edge0", 0), 25 * kNanosecond);    // to a host
  EXPECT_EQ(PortDelay(ft, "edge0", 2), 200 * kNanosecond);   // to agg0
  EXPECT_EQ(PortDelay(ft, "core0", 0), 1500 * kNanosecond);  // to an aggregation switch

  const Scenario expl = ParseScenarioText(
      "topology: {type: explicit, hosts: [a, b], switches: [s0, s1],\n"
      "           links: [{a: a, b: s0}, {a: s0, b: s1}, {a: s1, b: b, length: 100m}]}\n",
      "test.yaml");
  const Topology ex = Topology::Build(expl.topology);
  EXPECT_EQ(PortDelay(ex, "s0", 0), 25 * kNanosecond);
  EXPECT_EQ(PortDelay(ex, "s0", 1), 200 * kNanosecond);
  EXPECT_EQ(PortDelay(ex, "s1", 1), 500 * kNanosecond);

  // A delay given to the host links is still the fabric's too, as before; `auto` asks for the cable.
  const Scenario given = ParseScenarioText(
      "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 1, host_link: {delay: 1us}}\n", "test.yaml");
  const Topology gv = Topology::Build(given.topology);
  EXPECT_EQ(PortDelay(gv, "leaf0", 0), kMicrosecond);
  EXPECT_EQ(PortDelay(gv, "leaf0", 1), kMicrosecond);
  const Scenario word = ParseScenarioText(
      "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 1, host_link: {delay: auto}}\n",
      "test.yaml");
  EXPECT_EQ(PortDelay(Topology::Build(word.topology), "leaf0", 1), 200 * kNanosecond);

  // The run says so where it took one, and not where every link's is given.
  EXPECT_TRUE(Assumes(leaf_spine, "topology.<link>.delay"));
  EXPECT_TRUE(Assumes(expl, "topology.<link>.delay"));
  EXPECT_FALSE(Assumes(given, "topology.<link>.delay"));
}

// A delay that is neither a time nor `auto` is refused with the file, the line and the key.
TEST(SourcedDefaults, ADelayThatIsNoTimeIsRefusedWithItsKey) {
  const std::string what = Refusal(
      "duration: 1ms\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 1, host_link: {delay: later}}\n",
      "cables.yaml");
  ASSERT_FALSE(what.empty()) << "accepted";
  EXPECT_NE(what.find("cables.yaml:2"), std::string::npos) << what;
  EXPECT_NE(what.find("delay"), std::string::npos) << what;
  EXPECT_NE(what.find("auto"), std::string::npos) << what;
}

// The frames take the cables' time: a flow across the leaves, each way two host links and two
// fabric links, finishes 2 x (2 x 975 + 2 x 800) ns sooner on the default cables than on 1 us links.
TEST(SourcedDefaults, TheFramesTakeTheCablesTime) {
  auto fct = [](const std::string& links) {
    auto f = RunYaml("duration: 10ms\n"
                     "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 8" + links + "}\n"
                     "switch: {buffer: 32MB, lossless_priorities: [3]}\nnic: {mtu: 4096, cc: none}\n"
                     "workload:\n  - {type: flow, src: h0, dst: h8, size: 1MB, priority: 3}\n");
    const QueuePair& qp = f->qps()[0];
    EXPECT_TRUE(qp.done);
    return std::pair{qp.finish - qp.start, qp.finish - qp.start - qp.ideal_fct};
  };
  const auto cables = fct(""), fibre = fct(", host_link: {delay: 1us}");
  EXPECT_EQ(fibre.first - cables.first, 2 * (2 * 975 + 2 * 800) * kNanosecond);
  EXPECT_EQ(fibre.second, cables.second);  // the ideal FCT counts the cables too
}

}  // namespace
}  // namespace rocelab
