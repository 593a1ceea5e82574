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
  const double busy = static_cast<double>(down.busy) / static_cast<double>(down.last_tx_end - down.first_tx);
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
