// N->1 incast with and without PFC.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace rocelab {

namespace {
std::string Incast(const std::string& size) {
  std::string w = "workload:\n";
  for (int h = 1; h <= 15; ++h)
    w += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: " + size + ", priority: 3}\n";
  return w;
}
}  // namespace

TEST(FabricPfc, IncastWithPfcIsLosslessAndKeepsTheReceiverBusy) {
  auto f = RunYaml("duration: 50ms\n" + ExampleFabric("  pfc: {enabled: true, headroom: auto}\n") + Incast("4MB"));
  Totals t = ComputeTotals(*f);
  EXPECT_EQ(t.drops_lossless, 0u);
  EXPECT_EQ(t.drops_lossy, 0u);
  EXPECT_GT(t.pause_frames_tx, 0u);
  EXPECT_EQ(t.retransmitted_packets, 0u);
  EXPECT_EQ(t.bytes_delivered, 15u * (4u << 20));
  for (const QueuePair& qp : f->qps()) {
    EXPECT_TRUE(qp.done);
    EXPECT_EQ(qp.delivered, qp.size);  // every byte exactly once
  }
  EXPECT_EQ(f->nic("h0").rdma().duplicate_request, 0u);
  EXPECT_EQ(f->nic("h0").rdma().out_of_sequence, 0u);
  // The port toward the receiver is busy (wire time) while it is backlogged.
  const PortCounters& down = f->sw("leaf0").port(0).counters;
  const double busy = static_cast<double>(down.Sent().busy) / static_cast<double>(down.Sent().last_end - down.first_tx);
  EXPECT_GE(busy, 0.95) << "receiver link busy " << busy;
  // PFC reached the senders: some were paused.
  uint64_t paused_senders = 0;
  for (int h = 1; h <= 15; ++h) paused_senders += f->nic("h" + std::to_string(h)).port(0).counters.rx_pause[3] > 0;
  EXPECT_GT(paused_senders, 0u);
}

TEST(FabricPfc, IncastWithoutPfcDropsAndRecovers) {
  auto f = RunYaml("duration: 2s\n" + ExampleFabric("  pfc: {enabled: false}\n", "{mtu: 4096, cc: none, timeout: 10}", "2MB") +
                   Incast("1MB"));
  Totals t = ComputeTotals(*f);
  EXPECT_GT(t.drops_lossy, 0u);
  EXPECT_EQ(t.drops_lossless, 0u);
  EXPECT_EQ(t.pause_frames_tx, 0u);
  EXPECT_GT(t.retransmitted_packets, 0u);
  uint64_t naks = 0;
  for (int h = 1; h <= 15; ++h) naks += f->nic("h" + std::to_string(h)).rdma().packet_seq_err;
  EXPECT_GT(naks, 0u);
  EXPECT_GT(f->nic("h0").rdma().out_of_sequence, 0u);
  for (const QueuePair& qp : f->qps()) {
    EXPECT_TRUE(qp.done) << "flow " << qp.id;
    EXPECT_EQ(qp.delivered, qp.size);
  }
  EXPECT_EQ(t.bytes_delivered, 15u << 20);
}

}  // namespace rocelab

namespace rocelab {

// A 400G sender into a 100G receiver, PFC alone (no congestion control): the switch
// must keep the slow port busy. XON goes out once the priority group has drained
// xon_offset below its XOFF point, so the queue toward the 100G port never empties
// as long as threshold - xon_offset exceeds what that port sends during one pause
// round trip (XON out, data back: about 2 x 1 us of cable plus two 400G frames,
// ~30 KB at 100G). Every buffer below gives a threshold of hundreds of KB.
TEST(FabricPfc, FastIntoSlowUnderPfcKeepsTheSlowPortBusy) {
  for (const char* mtu : {"1024", "4096"}) {
    for (const char* buffer : {"4MB", "32MB"}) {
      auto f = RunYaml(std::string("duration: 20ms\n") +
                       "topology: {type: explicit, hosts: [h0, h1], switches: [leaf0],\n"
                       "           links: [{a: h0, b: leaf0, rate: 400G, delay: 1us},\n"
                       "                   {a: leaf0, b: h1, rate: 100G, delay: 1us}]}\n"
                       "switch: {buffer: " + buffer + ", lossless_priorities: [3], pfc: {enabled: true}}\n"
                       "nic: {mtu: " + mtu + ", cc: none}\n"
                       "workload:\n  - {type: flow, src: h0, dst: h1, size: 64MB}\n");
      const std::string where = std::string("mtu ") + mtu + ", buffer " + buffer;
      Totals t = ComputeTotals(*f);
      ASSERT_TRUE(f->qps()[0].done) << where;
      EXPECT_EQ(t.drops_lossless, 0u) << where;
      EXPECT_GT(t.pause_frames_tx, 10u) << where;  // PFC did the work
      const PortCounters& slow = f->sw("leaf0").port(1).counters;
      const double busy = static_cast<double>(slow.Sent().busy) / static_cast<double>(slow.Sent().last_end - slow.first_tx);
      EXPECT_GE(busy, 0.99) << where << ": 100G port busy " << busy;
      RecordProperty(where, std::to_string(busy));
    }
  }
}

}  // namespace rocelab

namespace rocelab {

// The switch charges whole 256 B cells per frame, so a stream of small frames fills more
// buffer than its bytes: `headroom: auto` must be sized in cells for the fabric's RoCE
// frames (an MTU-256 frame of 318 B takes two cells, 512 B). Sixteen senders on three
// leaves into one host, PFC alone: nothing lost at any MTU.
TEST(FabricPfc, IncastAtSmallMtusLosesNothing) {
  for (const char* mtu : {"256", "512", "1024", "4096"}) {
    std::string w = "workload:\n";
    for (int h = 1; h <= 16; ++h)
      w += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 512KB, priority: 3}\n";
    auto f = RunYaml(std::string("duration: 50ms\n") +
                     "topology: {type: spine-leaf, spines: 2, leaves: 3, hosts_per_leaf: 8,\n"
                     "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}\n"
                     "switch: {buffer: 2MB, lossless_priorities: [3], pfc: {enabled: true, headroom: auto}}\n"
                     "nic: {mtu: " + mtu + ", cc: none}\n" + w);
    Totals t = ComputeTotals(*f);
    EXPECT_EQ(t.drops_lossless, 0u) << "mtu " << mtu;
    EXPECT_GT(t.pause_frames_tx, 0u) << "mtu " << mtu;
    EXPECT_EQ(t.bytes_delivered, 16u * (512u << 10)) << "mtu " << mtu;
  }
}

}  // namespace rocelab

namespace rocelab {

// Pause quanta of 1 (legal in 802.1Qbb) last 1.28 ns at 400G; refreshing at half that would
// fill the link with PFC frames. A refresh never comes sooner than one maximum frame time,
// so PFC frames stay a small share of the wire.
TEST(FabricPfc, TinyPauseQuantaCannotFloodTheLink) {
  std::string w = "workload:\n";
  for (int h = 1; h <= 4; ++h)
    w += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 1MB, priority: 3}\n";
  auto f = RunYaml(std::string("duration: 400us\n") +
                   "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 5,\n"
                   "           host_link: {rate: 400G, delay: 1us}}\n"
                   "switch: {buffer: 4MB, lossless_priorities: [3], pfc: {enabled: true, quanta: 1}}\n"
                   "nic: {mtu: 4096, cc: none}\n" + w);
  // One maximum frame (9216 B + headers) at 400G is about 185 ns: at most one PFC frame per
  // port and priority in that time.
  const Time run = f->now();
  const uint64_t bound = static_cast<uint64_t>(run / (180 * kNanosecond)) + 1;
  for (int p = 0; p < f->sw("leaf0").num_ports(); ++p)
    EXPECT_LE(f->sw("leaf0").port(p).counters.tx_pause[3], bound) << "port " << p;
}

}  // namespace rocelab

namespace rocelab {

// Lossy traffic fills an egress queue, not one ingress PG: a queue may hold at most
// egress_lossy_alpha x the free shared pool (SONiC's q_lossy_profile dynamic threshold), so
// with that one queue filling, q <= a / (1 + a) x pool. Eight senders on priority 0 (lossy)
// into one host: the drops are counted at that egress queue and its depth stays in bound.
TEST(FabricPfc, LossyIncastDropsAtTheEgressQueueItsThresholdAllows) {
  for (double alpha : {0.25, 1.0}) {
    std::string w = "workload:\n";
    for (int h = 1; h <= 8; ++h)
      w += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 2MB, priority: 0}\n";
    auto f = RunYaml("duration: 20ms\n" +
                     ExampleFabric("  egress_lossy_alpha: " + std::to_string(alpha) + "\n", "{mtu: 4096, cc: none, timeout: 6}",
                                   "2MB") +
                     w);
    const Switch& leaf = f->sw("leaf0");
    const QueueCounters& q = leaf.queue_counters(0, 0);  // leaf0 toward h0, queue 0
    const double bound = alpha / (1 + alpha) * static_cast<double>(leaf.shared_pool()) + 4352;  // + one frame's cells
    EXPECT_GT(q.dropped_packets, 0u) << "alpha " << alpha;
    EXPECT_LE(static_cast<double>(q.watermark_bytes), bound) << "alpha " << alpha;
    EXPECT_GT(static_cast<double>(q.watermark_bytes), 0.8 * (bound - 4352)) << "alpha " << alpha;  // it did fill
    EXPECT_EQ(ComputeTotals(*f).drops_lossless, 0u);
  }
}

// A receiver that drains at 10G behind a 100G link holds the switch paused longer than one
// pause frame lasts: its NIC sends XOFF with 65535 quanta (335.5392 us at 100G) once 512 KB
// wait in its receive buffer and XON at 64 KB, which takes about 420 us of draining. The NIC
// refreshes the XOFF every half pause time (167.7696 us), so the switch stays stopped and
// nothing overflows; the switch stops `response_time` (3 us) after each PFC frame arrives.
TEST(FabricPfc, SlowReceiverRefreshesItsPauseAndTheSwitchHonoursItsResponseTime) {
  auto run = StartYaml(
      "duration: 50ms\n"
      "topology: {type: explicit, hosts: [h0, h1], switches: [leaf0],\n"
      "           links: [{a: leaf0, b: h0, rate: 100G, delay: 1us}, {a: leaf0, b: h1, rate: 100G, delay: 1us}]}\n"
      "switch: {buffer: 4MB, lossless_priorities: [3], pfc: {enabled: true, response_time: 3us}}\n"
      "nic: {mtu: 4096, cc: none}\n"
      "devices:\n  h1: {rx_drain_rate: 10G, rx_buffer: 1MB, rx_xoff: 512KB, rx_xon: 64KB}\n"
      "workload:\n  - {type: flow, src: h0, dst: h1, size: 8MB}\n");
  Fabric& f = *run;
  const Port& nic = f.nic("h1").port(0);
  const Port& sw = f.sw("leaf0").port(1);
  ASSERT_EQ(sw.peer, &f.nic("h1"));
  Time t = 0;
  while (!nic.xoff_sent[3] && t < kMillisecond) f.RunUntil(t += 100 * kNanosecond);
  ASSERT_TRUE(nic.xoff_sent[3]);
  const Time xoff = nic.xoff_began[3];
  const Time quanta = 65535ll * 5120;  // 65535 x 512 bit / 100 Gb/s
  const Time pfc_frame = 6720;         // (64 + 20) B at 100 Gb/s
  const Time ack_frame = 6880;         // (66 + 20) B: the NIC may be mid-ACK when it asserts
  const Time response = 3 * kMicrosecond;
  // Just after the first XOFF alone would have run out at the switch.
  f.RunUntil(xoff + pfc_frame + kMicrosecond + response + quanta + kNanosecond);
  EXPECT_TRUE(sw.paused[3]) << "the pause expired although the receiver is still congested";
  EXPECT_TRUE(nic.xoff_sent[3]);
  EXPECT_EQ(nic.counters.tx_pause[3], 3u);  // XOFF, refreshes at +167.7696 us and +335.5392 us
  EXPECT_EQ(sw.counters.rx_pause[3], 3u);
  const Time stop = xoff + pfc_frame + kMicrosecond + response;
  EXPECT_GE(sw.pause_began[3], stop);
  EXPECT_LE(sw.pause_began[3], stop + ack_frame);
  // The second refresh, sent at xoff + 335.5392 us, set the new end of the pause.
  const Time second_refresh_applied = stop + 2 * (quanta / 2);
  EXPECT_GE(sw.paused_until[3], second_refresh_applied + quanta);
  EXPECT_LE(sw.paused_until[3], second_refresh_applied + quanta + ack_frame);
  f.Run();
  ASSERT_TRUE(f.qps()[0].done);
  EXPECT_EQ(nic.counters.rx_discards, 0u);
  EXPECT_EQ(ComputeTotals(f).bytes_delivered, 8u << 20);
  // Every episode: XOFF, two refreshes (it lasts between 2 and 3 refresh periods), XON; the
  // switch is paused exactly as long as the NIC held XOFF (both ends shifted by the same
  // wire and response time).
  const uint64_t episodes = sw.counters.rx_pause_transitions[3];
  EXPECT_GT(episodes, 5u);
  EXPECT_EQ(nic.counters.tx_pause[3], 4 * episodes);
  EXPECT_EQ(sw.counters.rx_pause_duration[3], nic.counters.tx_pause_duration[3]);
  EXPECT_GT(sw.counters.rx_pause_duration[3], static_cast<Time>(episodes) * quanta);
}

}  // namespace rocelab

namespace rocelab {

// A static XON (SONiC `xon`, SAI XON_TH) is a floor under the resume point: XON goes out at
// occupancy <= max(xon, XOFF point - xon_offset). Below the dynamic resume point it changes
// nothing; above it the PG resumes as soon as its headroom has drained, so the pause cycles
// are shorter and there are more of them, and the slow port stays busy. (A 4 MB buffer at
// alpha 1/8 puts the XOFF point near 450 KB; the 256 KB offset resumes near 200 KB.)
TEST(FabricPfc, StaticXonIsAFloorUnderTheResumePoint) {
  auto run = [](const std::string& xon) {
    return RunYaml(std::string("duration: 10ms\n") +
                   "topology: {type: explicit, hosts: [h0, h1], switches: [leaf0],\n"
                   "           links: [{a: h0, b: leaf0, rate: 400G, delay: 1us},\n"
                   "                   {a: leaf0, b: h1, rate: 100G, delay: 1us}]}\n"
                   "switch: {buffer: 4MB, lossless_priorities: [3], pfc: {enabled: true, xon_offset: 256KB, xon: " + xon + "}}\n"
                   "nic: {mtu: 4096, cc: none}\n"
                   "workload:\n  - {type: flow, src: h0, dst: h1, size: 32MB}\n");
  };
  auto none = run("0B"), low = run("1KB"), high = run("64MB");
  const Totals tn = ComputeTotals(*none), tl = ComputeTotals(*low), th = ComputeTotals(*high);
  EXPECT_EQ(tl.pause_frames_tx, tn.pause_frames_tx);
  EXPECT_EQ(low->qps()[0].finish, none->qps()[0].finish);
  EXPECT_GE(th.pause_frames_tx, 2 * tn.pause_frames_tx) << tn.pause_frames_tx << " -> " << th.pause_frames_tx;
  EXPECT_EQ(th.drops_lossless, 0u);
  ASSERT_TRUE(high->qps()[0].done);
  const PortCounters& slow = high->sw("leaf0").port(1).counters;
  EXPECT_GE(static_cast<double>(slow.Sent().busy) / static_cast<double>(slow.Sent().last_end - slow.first_tx), 0.99);
}

}  // namespace rocelab
