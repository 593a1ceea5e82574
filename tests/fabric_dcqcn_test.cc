// DCQCN: fairness between two long flows, and fewer pauses under incast.
#include <gtest/gtest.h>

#include "test_util.h"

namespace rocelab {

TEST(FabricDcqcn, TwoFlowsConvergeToFairShares) {
  Scenario sc = ParseScenarioText(
      "duration: 60ms\n" +
          ExampleFabric("  pfc: {enabled: true}\n  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n",
                        "{mtu: 4096, cc: dcqcn}") +
          "workload:\n"
          "  - {type: flow, src: h1, dst: h0, size: 4GB, priority: 3}\n"
          "  - {type: flow, src: h2, dst: h0, size: 4GB, start: 5ms, priority: 3}\n",
      "fair.yaml");
  Experiment x(sc);
  Fabric& f = x.fabric();
  f.RunUntil(30 * kMillisecond);
  const uint64_t a0 = f.qps()[0].delivered, b0 = f.qps()[1].delivered;
  f.Run();
  const double a = static_cast<double>(f.qps()[0].delivered - a0);
  const double b = static_cast<double>(f.qps()[1].delivered - b0);
  ASSERT_GT(a + b, 0);
  EXPECT_NEAR(a / (a + b), 0.5, 0.05) << "shares " << a << " / " << b;
  // And together they keep the bottleneck full.
  const double gbps = (a + b) * 8 / 30e6;
  EXPECT_GT(gbps, 85.0);
  Totals t = ComputeTotals(f);
  EXPECT_GT(t.ecn_marked, 0u);
  EXPECT_GT(t.cnp_sent, 0u);
  EXPECT_EQ(t.cnp_sent, t.cnp_handled);
  EXPECT_EQ(t.drops_lossless, 0u);
}

TEST(FabricDcqcn, IncastSendsFewerPausesWithDcqcnThanWithout) {
  std::string w = "workload:\n";
  for (int h = 1; h <= 15; ++h) w += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 4MB, priority: 3}\n";
  const std::string sw = "  pfc: {enabled: true}\n  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n";
  auto none = RunYaml("duration: 100ms\n" + ExampleFabric(sw, "{mtu: 4096, cc: none}") + w);
  auto dcqcn = RunYaml("duration: 100ms\n" + ExampleFabric(sw, "{mtu: 4096, cc: dcqcn}") + w);
  Totals tn = ComputeTotals(*none), td = ComputeTotals(*dcqcn);
  EXPECT_GT(tn.pause_frames_tx, 0u);
  EXPECT_LT(td.pause_frames_tx, tn.pause_frames_tx);
  EXPECT_GT(td.cnp_handled, 0u);
  EXPECT_EQ(tn.cnp_sent, 0u);
  EXPECT_EQ(td.drops_lossless, 0u);
  EXPECT_EQ(td.bytes_delivered, 15u * (4u << 20));
}

}  // namespace rocelab

namespace rocelab {

// The settled mlx5 profile keeps a receiver busy under a 16 x 8 MB incast: 128 MB take at
// least 128 MB x 4178/4096 wire bytes / 100 Gb/s = 10.95 ms; the last flow finishes within 5 %
// of that. (With CNPs spaced per QP instead of per port the same incast takes 18.6 ms:
// every QP is cut to the floor and waits out the 300 us timer; docs/dcqcn.md.)
TEST(FabricDcqcn, Mlx5IncastKeepsTheReceiverBusy) {
  auto f = RunYaml("duration: 100ms\n"
                   "topology: {type: spine-leaf, spines: 2, leaves: 3, hosts_per_leaf: 8,\n"
                   "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}\n"
                   "switch: {buffer: 32MB, lossless_priorities: [3]}\n"
                   "nic: {mtu: 4096, cc: dcqcn, dcqcn: {profile: mlx5}}\n"
                   "workload:\n  - {type: incast, dst: h0, senders: 16, size: 8MB}\n");
  Time last = 0;
  for (const QueuePair& qp : f->qps()) {
    ASSERT_TRUE(qp.done);
    last = std::max(last, qp.finish);
  }
  const double line_s = 16.0 * (8 << 20) * 4178 / 4096 * 8 / 100e9;
  const double busy = line_s / (static_cast<double>(last) / kSecond);
  EXPECT_GE(busy, 0.95) << "the last of 16 x 8 MB finished at " << static_cast<double>(last) / kMillisecond << " ms";
  Totals t = ComputeTotals(*f);
  EXPECT_GT(t.cnp_handled, 100u);  // DCQCN acted
  EXPECT_EQ(t.drops_lossless, 0u);
}

}  // namespace rocelab
