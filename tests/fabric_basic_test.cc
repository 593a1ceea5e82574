// Single flows against analytic values, the NIC receive path, bit errors and
// determinism.
#include <gtest/gtest.h>

#include "test_util.h"

namespace rocelab {

TEST(FabricBasic, LongFlowGoodputMatchesWireEfficiency) {
  auto f = RunYaml("duration: 100ms\n" + ExampleFabric() +
                   "workload:\n  - {type: flow, src: h0, dst: h1, size: 64MB, priority: 3}\n");
  const QueuePair& qp = f->qps()[0];
  ASSERT_TRUE(qp.done);
  // payload / (payload + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + Ethernet 14 + FCS 4 + preamble 8 + IFG 12)
  const double bound = 100.0 * 4096.0 / (4096.0 + 82.0);
  const double goodput = static_cast<double>(qp.size) * 8.0 / static_cast<double>(qp.finish - qp.start) * 1000.0;
  EXPECT_LE(goodput, bound);
  EXPECT_GE(goodput, 0.99 * bound) << "goodput " << goodput << " Gb/s, bound " << bound;
  EXPECT_EQ(ComputeTotals(*f).bytes_delivered, 64u << 20);
}

TEST(FabricBasic, OneMegabyteFctMatchesTheAnalyticValue) {
  auto f = RunYaml("duration: 10ms\n" + ExampleFabric() +
                   "workload:\n  - {type: flow, src: h0, dst: h8, size: 1MB, priority: 3}\n");
  const QueuePair& qp = f->qps()[0];
  ASSERT_TRUE(qp.done);
  // h0 -100G- leaf0 -400G- spine -400G- leaf1 -100G- h8, 1 us per link; NIC latencies 0.
  const Time d = kMicrosecond;
  const Time first = 4096 + 62 + 16 + 20, other = 4096 + 62 + 20, ack = 66 + 20;
  const Time serialization_at_bottleneck = (first + 255 * other) * 80;      // all 256 packets at 100G
  const Time last_packet_path = 4 * d + other * 20 * 2 + other * 80;        // store-and-forward of the last one
  const Time ack_path = 4 * d + ack * (80 + 20 + 20 + 80);                  // the last ACK's way back
  const Time analytic = serialization_at_bottleneck + last_packet_path + ack_path;
  const Time fct = qp.finish - qp.start;
  EXPECT_NEAR(static_cast<double>(fct), static_cast<double>(analytic), 0.01 * analytic)
      << "fct " << fct << " ps, analytic " << analytic << " ps";
  // The model is exact up to the larger first packet's queueing (a few ns).
  EXPECT_NEAR(static_cast<double>(fct), static_cast<double>(analytic), 5000.0);
}

// A switch's forwarding pipeline (switch.pipeline_latency) delays every frame once per switch:
// the last data frame crosses three switches on its way and its ACK three on the way back.
TEST(FabricBasic, PipelineLatencyAddsOncePerSwitchToTheFrameAndItsAck) {
  // The FCT, and what it has beyond its ideal (alone on an idle path, the pipelines included).
  auto fct = [](const std::string& latency) {
    auto f = RunYaml("duration: 10ms\n" + ExampleFabric("  pipeline_latency: " + latency + "\n") +
                     "workload:\n  - {type: flow, src: h0, dst: h8, size: 1MB, priority: 3}\n");
    const QueuePair& qp = f->qps()[0];
    EXPECT_TRUE(qp.done);
    EXPECT_EQ(ComputeTotals(*f).bytes_delivered, 1u << 20);
    return std::pair{qp.finish - qp.start, qp.finish - qp.start - qp.ideal_fct};
  };
  const auto none = fct("0ns"), asic = fct("300ns"), slow = fct("2us");
  EXPECT_EQ(asic.first - none.first, 6 * 300 * kNanosecond);
  EXPECT_EQ(slow.first - none.first, 6 * 2 * kMicrosecond);
  // The ideal FCT counts the pipelines too: they are no slowdown.
  EXPECT_EQ(asic.second, none.second);
  EXPECT_EQ(slow.second, none.second);
}

// Frames in the pipeline are in the buffer: a lossless incast with a long pipeline still loses
// nothing, and delivers everything.
TEST(FabricBasic, APipelineLosesNothingInALosslessIncast) {
  std::string flows;
  for (int h = 1; h <= 7; ++h) flows += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 2MB, priority: 3}\n";
  auto f = RunYaml("duration: 50ms\n" + ExampleFabric("  pipeline_latency: 1us\n", "{mtu: 4096, cc: none}", "2MB") +
                   "workload:\n" + flows);
  const Totals t = ComputeTotals(*f);
  EXPECT_EQ(t.drops_lossless, 0u);
  EXPECT_GT(t.pause_frames_tx, 0u);
  EXPECT_EQ(t.bytes_delivered, 7u * (2u << 20));
}

TEST(FabricBasic, SlowReceiverPausesUpstreamAndLosesNothing) {
  auto f = RunYaml("duration: 50ms\n" + ExampleFabric("  pfc: {enabled: true}\n") +
                   "devices:\n  h1: {rx_drain_rate: 50G, rx_buffer: 256KB}\n"
                   "workload:\n  - {type: flow, src: h0, dst: h1, size: 20MB, priority: 3}\n");
  const QueuePair& qp = f->qps()[0];
  ASSERT_TRUE(qp.done);
  Totals t = ComputeTotals(*f);
  EXPECT_EQ(t.drops_lossless, 0u);
  EXPECT_EQ(t.bytes_delivered, 20u << 20);
  const PortCounters& h1 = f->nic("h1").port(0).counters;
  EXPECT_GT(h1.tx_pause[3], 0u) << "the NIC must send PFC when its receive buffer fills";
  EXPECT_EQ(h1.rx_discards, 0u);
  EXPECT_GT(f->sw("leaf0").port(1).counters.rx_pause[3], 0u);
  EXPECT_GT(f->sw("leaf0").port(1).counters.rx_pause_duration[3], 0);
  // Goodput is set by the drain rate: 50 Gb/s of frames carrying 4096 B of every 4158.
  const double goodput = static_cast<double>(qp.size) * 8.0 / static_cast<double>(qp.finish - qp.start) * 1000.0;
  EXPECT_NEAR(goodput, 50.0 * 4096 / 4158, 1.0);
}

TEST(FabricBasic, BitErrorsAreCountedAndGoBackNRecovers) {
  // A lost NAK is recovered by the local ACK timeout, so keep it short (4.096 us x 2^8 = 1 ms).
  auto f = RunYaml("duration: 1s\n"
                   "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 2,\n"
                   "           host_link: {rate: 100G, delay: 1us, ber: 1e-6}, fabric_link: {rate: 400G, delay: 1us}}\n"
                   "nic: {cc: none, timeout: 8}\n"
                   "workload:\n  - {type: flow, src: h0, dst: h2, size: 10MB, priority: 3}\n");
  const QueuePair& qp = f->qps()[0];
  ASSERT_TRUE(qp.done);
  Totals t = ComputeTotals(*f);
  // About 3.3 % of 4178-byte frames are hit at BER 1e-6 on each of two host links.
  EXPECT_GT(t.crc_errors, 50u);
  EXPECT_GT(t.retransmitted_packets, 0u);
  EXPECT_EQ(qp.delivered, 10u << 20);
  EXPECT_EQ(t.bytes_delivered, 10u << 20);
  EXPECT_GT(f->nic("h0").rdma().packet_seq_err, 0u);
  EXPECT_GT(f->nic("h2").rdma().out_of_sequence, 0u);
}

TEST(FabricBasic, SameSeedSameSummary) {
  const std::string yaml = "seed: 11\nduration: 5ms\n" +
                           ExampleFabric("  ecn: {enabled: true, kmin: 50KB, kmax: 200KB, pmax: 0.2}\n",
                                         "{mtu: 4096, cc: dcqcn}") +
                           "workload:\n  - {type: permutation, size: 1MB, priority: 3}\n";
  auto a = RunYaml(yaml);
  auto b = RunYaml(yaml);
  EXPECT_EQ(WithoutEngine(SummaryJson(*a.run)), WithoutEngine(SummaryJson(*b.run)));
  EXPECT_GT(ComputeTotals(*a).bytes_delivered, 0u);
  auto c = RunYaml("seed: 12\n" + yaml.substr(yaml.find('\n') + 1));
  EXPECT_NE(WithoutEngine(SummaryJson(*a.run)), WithoutEngine(SummaryJson(*c.run)));
}

}  // namespace rocelab

namespace rocelab {

TEST(FabricBasic, LostReadResponsesAreAskedForAgain) {
  Scenario sc = ParseScenarioText("duration: 1s\n"
                                  "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2,\n"
                                  "           host_link: {rate: 100G, delay: 1us, ber: 1e-6}}\n"
                                  "nic: {cc: none, timeout: 8}\n",
                                  "read.yaml");
  Fabric f(sc);
  CountCompletions listener;
  const uint32_t qp = f.OpenQueuePair(0, 1, 26, &listener);
  f.AddWork();
  for (int i = 0; i < 8; ++i) f.PostMessage(qp, Verb::kRead, 1 << 20, i);
  f.RunUntil(200 * kMillisecond);
  EXPECT_EQ(listener.done, 8);
  EXPECT_EQ(f.qps()[qp].delivered, 8u << 20);  // every byte once, in order
  EXPECT_GT(f.nic("h0").rdma().implied_nak_seq_err + f.nic("h0").rdma().local_ack_timeout_err, 0u);
  EXPECT_GT(f.nic("h1").rdma().rx_read_requests, 7u);
  EXPECT_GT(ComputeTotals(f).crc_errors, 0u);
}

}  // namespace rocelab

namespace rocelab {

TEST(FabricBasic, GoBackToChunkAlsoRecoversAndCountsEachByteOnce) {
  const std::string base =
      "duration: 1s\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2,\n"
      "           host_link: {rate: 100G, delay: 1us, ber: 2e-6}}\n";
  auto n = RunYaml(base + "nic: {cc: none, timeout: 8}\nworkload:\n  - {type: flow, src: h0, dst: h1, size: 8MB}\n");
  auto c = RunYaml(base + "nic: {cc: none, timeout: 8, back_to_chunk: 16}\nworkload:\n  - {type: flow, src: h0, dst: h1, size: 8MB}\n");
  for (Fabric* f : {&*n, &*c}) {
    ASSERT_TRUE(f->qps()[0].done);
    EXPECT_EQ(f->qps()[0].delivered, 8u << 20);
    EXPECT_EQ(ComputeTotals(*f).bytes_delivered, 8u << 20);
  }
  // Going back to the chunk's start resends packets the receiver already had.
  EXPECT_GT(ComputeTotals(*c).retransmitted_packets, ComputeTotals(*n).retransmitted_packets);
}

}  // namespace rocelab

namespace rocelab {

// A path that loses every data packet (the switch takes frames up to 1500 B; RoCE MTU 4096
// makes 4158..4174 B frames, discarded at ingress): the requester times out 4.096 us x
// 2^timeout after the oldest unacknowledged packet was sent, goes back to it, and after
// retry_count retries the QP fails with "retry count exceeded". All 16 packets of the
// 64 KB message go out at t = 0 (5.3 us at 100G, within the timeout), so the k-th timeout
// fires at exactly k x 4.096 us x 2^timeout and the QP fails at (retry_count + 1) times that.
// The IBTA timer alone (adaptive retransmission off).
TEST(FabricBasic, AckTimeoutFollowsTheExponentAndRetriesRunOut) {
  struct Case {
    int timeout, retries;
  };
  for (const Case c : {Case{3, 7}, Case{5, 2}, Case{12, 0}}) {
    const std::string where = "timeout " + std::to_string(c.timeout) + ", retry_count " + std::to_string(c.retries);
    auto f = RunYaml("duration: 1s\n"
                     "topology: {type: explicit, hosts: [h0, h1], switches: [leaf0],\n"
                     "           links: [{a: leaf0, b: h0, rate: 100G, delay: 1us}, {a: leaf0, b: h1, rate: 100G, delay: 1us}]}\n"
                     "switch: {mtu: 1500}\n"
                     "nic: {mtu: 4096, cc: none, adaptive_retransmission: {enabled: false}, timeout: " +
                     std::to_string(c.timeout) + ", retry_count: " + std::to_string(c.retries) + "}\n"
                     "workload:\n  - {type: flow, src: h0, dst: h1, size: 64KB}\n");
    const Time rto = (4096 * kNanosecond) << c.timeout;  // 32.768 us, 131.072 us, 16.777216 ms
    const QueuePair& qp = f->qps()[0];
    const uint64_t tries = static_cast<uint64_t>(c.retries) + 1;
    ASSERT_TRUE(qp.failed) << where;
    EXPECT_FALSE(qp.done) << where;
    EXPECT_EQ(qp.finish, static_cast<Time>(tries) * rto) << where;
    const RdmaCounters& rdma = f->nic("h0").rdma();
    EXPECT_EQ(rdma.local_ack_timeout_err, static_cast<uint64_t>(c.retries)) << where << ": the last is the error";
    EXPECT_EQ(rdma.req_transport_retries_exceeded, 1u) << where;
    EXPECT_EQ(rdma.req_cqe_error, 1u) << where;
    EXPECT_EQ(rdma.req_cqe_flush_error, 0u) << where << ": one work request";
    EXPECT_EQ(rdma.retransmitted_packets, 16u * c.retries) << where;
    const Port& from_h0 = f->sw("leaf0").port(0);
    ASSERT_EQ(from_h0.peer, &f->nic("h0"));
    EXPECT_EQ(from_h0.counters.rx_discards, 16u * tries) << where;
    EXPECT_EQ(ComputeTotals(*f).bytes_delivered, 0u) << where;
  }
}

}  // namespace rocelab
