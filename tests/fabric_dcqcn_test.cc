// DCQCN: fairness between two long flows, fewer pauses under incast without starving the
// receiver, and the switch's RED marking against its formula.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace rocelab {

namespace {

// Bytes waiting in egress queue `prio` of `out`, when only the ingress ports `in` feed it
// on that priority: what arrived there minus what the queue has sent.
uint64_t QueuedBytes(const Switch& sw, int out, int prio, std::initializer_list<int> in) {
  uint64_t arrived = 0;
  for (int p : in) arrived += sw.received(p, prio).bytes;
  return arrived - sw.queue_counters(out, prio).bytes;
}

// RED as docs/dcqcn.md gives it: 0 up to Kmin, Pmax (q - Kmin) / (Kmax - Kmin) between, 1 from Kmax.
double RedProbability(double q, double kmin, double kmax, double pmax) {
  if (q <= kmin) return 0;
  if (q >= kmax) return 1;
  return pmax * (q - kmin) / (kmax - kmin);
}

// h1 and h2 send a long flow each to h0, all three on leaf0 of the example fabric (ports
// 1, 2 and 0), the second from `second_start`; leaf0 has PFC and the given RED profile.
TestRun StartTwoSendersToH0(const std::string& duration, const std::string& red, const std::string& nic,
                            const std::string& buffer, const std::string& second_start) {
  return StartYaml("duration: " + duration + "\n" +
                   ExampleFabric("  pfc: {enabled: true}\n  ecn: {enabled: true, " + red + "}\n", nic, buffer) +
                   "workload:\n"
                   "  - {type: flow, src: h1, dst: h0, size: 4GB, priority: 3}\n"
                   "  - {type: flow, src: h2, dst: h0, size: 4GB, start: " + second_start + ", priority: 3}\n");
}

// Goodput of a 100G port carrying 4096 B payloads in 4178 B on the wire (62 B of RoCE headers,
// 20 B preamble and gap), in Gb/s.
constexpr double kGoodput100G = 100.0 * 4096 / 4178;

}  // namespace

// Two long flows into one 100G port, DCQCN with the mlx5 defaults. What only DCQCN gives:
// no PFC at all (without it the queue fills to the PFC threshold, megabytes deep), a queue
// that rises into the RED band [Kmin, Kmax) and stays below Kmax, and each sender's rate
// limiter near half the line.
TEST(FabricDcqcn, TwoFlowsConvergeToFairShares) {
  const uint64_t kmin = 100 * 1024, kmax = 400 * 1024;
  auto run = StartTwoSendersToH0("60ms", "kmin: 100KB, kmax: 400KB, pmax: 0.2", "{mtu: 4096, cc: dcqcn}", "32MB", "5ms");
  Fabric& f = *run;
  const Switch& leaf = f.sw("leaf0");
  ASSERT_EQ(leaf.port(0).peer, &f.nic("h0"));
  f.RunUntil(30 * kMillisecond);
  const uint64_t a0 = f.qps()[0].delivered, b0 = f.qps()[1].delivered;
  // The second half of the run, sampled every 10 us: the queue toward h0 (fed from h1 and
  // h2 on ports 1 and 2) and each QP's current DCQCN rate.
  uint64_t samples = 0, above_kmin = 0, queue_max = 0;
  double rate_a = 0, rate_b = 0;
  for (Time t = 30 * kMillisecond + 10 * kMicrosecond; t <= 60 * kMillisecond; t += 10 * kMicrosecond) {
    f.RunUntil(t);
    const uint64_t q = QueuedBytes(leaf, 0, 3, {1, 2});
    ++samples;
    above_kmin += q > kmin;
    queue_max = std::max(queue_max, q);
    rate_a += f.qps()[0].rp.rate_bps();
    rate_b += f.qps()[1].rp.rate_bps();
  }
  f.Run();
  rate_a /= static_cast<double>(samples) * 1e9;
  rate_b /= static_cast<double>(samples) * 1e9;
  const double a = static_cast<double>(f.qps()[0].delivered - a0);
  const double b = static_cast<double>(f.qps()[1].delivered - b0);
  ASSERT_GT(a + b, 0);
  EXPECT_NEAR(a / (a + b), 0.5, 0.05) << "shares " << a << " / " << b;
  // Each near half the line: the rate limiter within 10 % of 50 Gb/s, the goodput within
  // 10 % of half the port's goodput; together they keep the port 95 % full.
  EXPECT_NEAR(rate_a, 50.0, 5.0);
  EXPECT_NEAR(rate_b, 50.0, 5.0);
  const double gbps_a = a * 8 / 30e6, gbps_b = b * 8 / 30e6;
  EXPECT_NEAR(gbps_a, kGoodput100G / 2, 0.1 * kGoodput100G / 2);
  EXPECT_NEAR(gbps_b, kGoodput100G / 2, 0.1 * kGoodput100G / 2);
  EXPECT_GT(gbps_a + gbps_b, 0.95 * kGoodput100G);
  // The queue: marked where DCQCN holds it, never as deep as Kmax (where every packet is marked).
  EXPECT_LT(queue_max, kmax);
  EXPECT_GT(above_kmin, samples / 20) << "the queue reached the marking band in " << above_kmin << " of " << samples << " samples";
  Totals t = ComputeTotals(f);
  EXPECT_EQ(t.pause_frames_tx, 0u);
  EXPECT_GT(t.ecn_marked, 0u);
  EXPECT_GT(t.cnp_sent, 0u);
  EXPECT_EQ(t.cnp_sent, t.cnp_handled);
  EXPECT_EQ(t.drops_lossless, 0u);
}

// 15 x 4 MiB into one 100G port, with PFC alone and with DCQCN (mlx5 defaults). DCQCN must
// take pauses away without taking the receiver's link away: the ideal time is
// 15 x 4 MiB x 8 / 98.04 Gb/s (the port's goodput) = 5.134 ms; PFC alone reaches it, and so
// does DCQCN as the mlx5 profile settles it (5.140 ms; with CNPs spaced per QP instead the
// senders all fall to their 1 Mb/s floor and the same incast takes 1.48 x: docs/dcqcn.md).
TEST(FabricDcqcn, IncastSendsFewerPausesWithDcqcnThanWithout) {
  std::string w = "workload:\n";
  for (int h = 1; h <= 15; ++h) w += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 4MB, priority: 3}\n";
  const std::string sw = "  pfc: {enabled: true}\n  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n";
  auto none = RunYaml("duration: 100ms\n" + ExampleFabric(sw, "{mtu: 4096, cc: none}") + w);
  auto dcqcn = RunYaml("duration: 100ms\n" + ExampleFabric(sw, "{mtu: 4096, cc: dcqcn}") + w);
  Totals tn = ComputeTotals(*none), td = ComputeTotals(*dcqcn);
  EXPECT_GT(tn.pause_frames_tx, 0u);
  // Measured 702 against 1229: with CNPs spaced per port (the mlx5 profile) each of the 15 QPs
  // is cut a fifteenth as often as with per-QP spacing (40 pauses then), and PFC still paces the
  // incast's first round trips; docs/dcqcn.md.
  EXPECT_LT(td.pause_frames_tx, tn.pause_frames_tx * 7 / 10);
  EXPECT_GT(td.cnp_handled, 0u);
  EXPECT_EQ(tn.cnp_sent, 0u);
  EXPECT_EQ(td.drops_lossless, 0u);
  EXPECT_EQ(td.bytes_delivered, 15u * (4u << 20));
  const double ideal_us = 15.0 * (4 << 20) * 8 / (kGoodput100G * 1e3);
  for (Fabric* f : {&*none, &*dcqcn}) {
    const bool cc = f == &*dcqcn;
    const char* name = cc ? "dcqcn" : "none";
    Time last = 0;
    for (const QueuePair& qp : f->qps()) {
      ASSERT_TRUE(qp.done) << name;
      last = std::max(last, qp.finish - qp.start);
    }
    const double slowdown = ToMicroseconds(last) / ideal_us;
    EXPECT_GE(slowdown, 1.0) << name;
    EXPECT_LE(slowdown, cc ? 1.05 : 1.01) << name << ": last flow done at " << ToMicroseconds(last) << " us";
    const PortCounters& down = f->sw("leaf0").port(0).counters;
    const double busy = static_cast<double>(down.Sent().busy) / static_cast<double>(down.Sent().last_end - down.first_tx);
    EXPECT_GE(busy, cc ? 0.95 : 0.99) << name << ": receiver link busy " << busy;
  }
}

// RED against its formula over ~30,000 packets. Two senders at 100G into one 100G port, PFC
// alone (no congestion control, so marks change nothing): the queue rides at the PFC
// threshold (5 MB of buffer), here between about 740 and 875 KB, inside Kmin = 600 KB ..
// Kmax = 1000 KB, where p(q) = 0.4 (q - Kmin) / (Kmax - Kmin) runs from 0.12 to 0.25. The port sends back
// to back, so its dequeues (where the mark is decided) are evenly spaced in time and the
// mean of p over the queue sampled every microsecond is the expected share of marked
// packets. Allow 4 standard deviations of the binomial count plus 2 % for the sampling
// (a sample misses what arrives before the next dequeue, about one frame: 0.5 % of p).
TEST(FabricDcqcn, RedMarksWithTheProbabilityOfItsFormula) {
  const double kmin = 600 * 1024, kmax = 1000 * 1024, pmax = 0.4;
  auto run = StartTwoSendersToH0("20ms", "kmin: 600KB, kmax: 1000KB, pmax: 0.4", "{mtu: 4096, cc: none}", "5MB", "0us");
  Fabric& f = *run;
  const Switch& leaf = f.sw("leaf0");
  ASSERT_EQ(leaf.port(0).peer, &f.nic("h0"));
  f.RunUntil(2 * kMillisecond);
  const QueueCounters before = leaf.queue_counters(0, 3);
  double p_sum = 0, q_min = kmax, q_max = 0;
  int samples = 0;
  for (Time t = 2 * kMillisecond + kMicrosecond; t <= 12 * kMillisecond; t += kMicrosecond) {
    f.RunUntil(t);
    const double q = static_cast<double>(QueuedBytes(leaf, 0, 3, {1, 2}));
    q_min = std::min(q_min, q);
    q_max = std::max(q_max, q);
    p_sum += RedProbability(q, kmin, kmax, pmax);
    ++samples;
  }
  const QueueCounters after = leaf.queue_counters(0, 3);
  // The queue stayed inside the linear part, so both Pmax and the slope matter.
  ASSERT_GT(q_min, kmin);
  ASSERT_LT(q_max, kmax);
  const double packets = static_cast<double>(after.packets - before.packets);
  const double marks = static_cast<double>(after.ecn_marked - before.ecn_marked);
  const double p = p_sum / samples;
  ASSERT_GT(packets, 25000);
  const double expected = packets * p;
  const double sd = std::sqrt(packets * p * (1 - p));
  EXPECT_NEAR(marks, expected, 4 * sd + 0.02 * expected)
      << "marked " << marks / packets << " of packets, formula " << p << " (queue " << q_min << ".." << q_max << " B)";
  EXPECT_EQ(leaf.lossless_drops(), 0u);
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

namespace rocelab {

// READ responses are RoCEv2 data like any other: ECN-capable, marked where they queue, and
// paced by a reaction point at the responder, which the requester's CNPs reach. h0 reads
// 32 MB from each of h1 and h2 at once: the two response streams meet at h0's 100G port.
TEST(FabricDcqcn, ReadResponsesAreMarkedAndTheRespondersSlowDown) {
  Scenario sc = ParseScenarioText("duration: 100ms\n"
                                  "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 3,\n"
                                  "           host_link: {rate: 100G, delay: 1us}}\n"
                                  "switch: {ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}}\n"
                                  "nic: {mtu: 4096, cc: dcqcn}\n",
                                  "read.yaml");
  Fabric f(sc);
  CountCompletions reads;
  for (int responder : {1, 2}) {
    const uint32_t qp = f.OpenQueuePair(0, responder, 26, &reads);
    f.AddWork();
    f.PostMessage(qp, Verb::kRead, 32 << 20, 0);
  }
  f.RunUntil(100 * kMillisecond);
  ASSERT_EQ(reads.done, 2);
  for (const QueuePair& qp : f.qps()) EXPECT_EQ(qp.delivered, 32u << 20);
  EXPECT_GT(f.sw("leaf0").queue_counters(0, 3).ecn_marked, 0u);  // toward h0, the RoCE queue
  EXPECT_GT(f.nic("h0").rdma().np_cnp_sent, 0u);
  for (const char* responder : {"h1", "h2"}) {
    EXPECT_GT(f.nic(responder).rdma().rp_cnp_handled, 0u) << responder;
    EXPECT_EQ(f.nic(responder).rdma().rp_cnp_ignored, 0u) << responder;
  }
  // DCQCN, not PFC, shares h0's port: the responders are cut, so the switch rarely pauses them.
  EXPECT_LT(ComputeTotals(f).pause_frames_tx, 50u);
}

// A queue's WRED/ECN profile is set apart from its PFC (SONiC's wred_profile and pfc_enable):
// lossy RoCE, no PFC on any priority and ECN on queue 3, marks there, so DCQCN slows the
// incast and the switch drops a fraction of what it drops with no queue marking.
TEST(FabricDcqcn, EcnMarksItsQueuesWhetherPfcProtectsThemOrNot) {
  auto run = [](const std::string& ecn_priorities) {
    std::string y =
        "duration: 100ms\n"
        "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 8,\n"
        "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}\n"
        "switch:\n  buffer: 32MB\n  lossless_priorities: []\n"
        "  ecn: {enabled: true, priorities: " + ecn_priorities + ", kmin: 100KB, kmax: 400KB, pmax: 0.2}\n"
        "nic: {mtu: 4096, cc: dcqcn}\nworkload:\n";
    for (int h = 1; h <= 15; ++h)
      y += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 4MB, priority: 3}\n";
    return RunYaml(y);
  };
  auto marked = run("[3]"), unmarked = run("[]");
  Totals tm = ComputeTotals(*marked), tu = ComputeTotals(*unmarked);
  EXPECT_EQ(tm.pause_frames_tx + tu.pause_frames_tx, 0u);
  EXPECT_GT(tm.ecn_marked, 0u);
  EXPECT_GT(tm.cnp_handled, 0u);
  EXPECT_EQ(tu.ecn_marked, 0u);
  EXPECT_GT(tu.drops_lossy, 0u);
  EXPECT_LT(tm.drops_lossy * 2, tu.drops_lossy) << tm.drops_lossy << " drops with ECN, " << tu.drops_lossy << " without";
  EXPECT_EQ(tm.bytes_delivered, 15u * (4u << 20));
}

// The readings the sources dispute are written beside the results, each with the key that takes
// the other: all four with the mlx5 profile as shipped, none once each is set the other way, and
// none without congestion control. The generic switch is disclosed too, its marking thresholds
// where the senders react to marks, and the cables its links were given none.
TEST(FabricDcqcn, TheDisputedReadingsARunRestsOnAreInItsSummary) {
  auto assumptions = [](const std::string& nic) {
    TestRun r = StartYaml("duration: 1us\ntopology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2}\nnic: " +
                          nic + "\n");
    r.run->Run();
    std::vector<std::string> keys;
    const nlohmann::json summary = nlohmann::json::parse(SummaryJson(*r.run));
    for (const auto& a : summary["assumptions"]) {
      EXPECT_FALSE(a["assumed"].get<std::string>().empty());
      EXPECT_FALSE(a["alternative"].get<std::string>().empty());
      keys.push_back(a["key"].get<std::string>());
    }
    return keys;
  };
  EXPECT_EQ(assumptions("{cc: dcqcn}"),
            (std::vector<std::string>{"switch.asic", "switch.ecn", "switch.pfc.small_packet_percentage", "topology.<link>.delay",
                                      "nic.adaptive_retransmission",
                                      "nic.coalesce_acks", "nic.dcqcn.cnp_moderation", "nic.dcqcn.byte_counter",
                                      "nic.dcqcn.g", "nic.dcqcn.min_time_between_cnps"}));
  EXPECT_EQ(assumptions("{cc: dcqcn, dcqcn: {cnp_moderation: qp, byte_counter: 32KB, g: 0.995, "
                        "min_time_between_cnps: 4us}, adaptive_retransmission: {enabled: false}, coalesce_acks: true}"),
            (std::vector<std::string>{"switch.asic", "switch.ecn", "switch.pfc.small_packet_percentage",
                                      "topology.<link>.delay"}));
  EXPECT_EQ(assumptions("{cc: none}"),
            (std::vector<std::string>{"switch.asic", "switch.pfc.small_packet_percentage", "topology.<link>.delay",
                                      "nic.adaptive_retransmission", "nic.coalesce_acks"}));
  EXPECT_EQ(assumptions("{cc: none, adaptive_retransmission: {initial_low: 8}, coalesce_acks: true}"),
            (std::vector<std::string>{"switch.asic", "switch.pfc.small_packet_percentage", "topology.<link>.delay"}))
      << "a profile set is no assumption";
}

}  // namespace rocelab
