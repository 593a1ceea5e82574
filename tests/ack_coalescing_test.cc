// ACK coalescing at a paused responder (nic.coalesce_acks): an RC ACK is cumulative, so while a
// NIC's priority is paused the ACK waiting for the wire gives way to its queue pair's newer one.
// Queued one per packet instead, the ACKs of a long pause leave as a line-rate burst of 66 B
// frames when it ends, each taking a whole buffer cell at the ToR, and overflow its headroom.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "run/assumptions.h"
#include "test_util.h"

namespace rocelab {
namespace {

// h0 sends into an incast on h1, a receiver draining 10 Gb/s, so leaf0 holds h0 paused for long
// stretches; meanwhile h1 writes 20 MB to h0, which h0 receives at line rate and must ACK. Its
// ACKs go to h1 too, through the same congested port, so when a pause ends they sit in h0's PG.
nlohmann::json PausedResponder(bool coalesce) {
  std::string flows;
  for (int h : {0, 2, 3, 4, 5, 6, 7}) flows += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h1, size: 20MB}\n";
  flows += "  - {type: flow, src: h1, dst: h0, size: 20MB}\n";
  const std::string nic = std::string("{mtu: 4096, cc: none, coalesce_acks: ") + (coalesce ? "true" : "false") + "}";
  // The switch's headroom sized for data frames (small_packet_percentage 0): one sized for small
  // frames would hold the burst too.
  TestRun r = RunYaml("duration: 3ms\n" + ExampleFabric("  pfc: {small_packet_percentage: 0}\n", nic) +
                      "workload:\n" + flows + "faults:\n  - {kind: slow_receiver, target: h1, at: 0us, drain_rate: 10G}\n");
  return nlohmann::json::parse(SummaryJson(*r.run));
}

uint64_t Dropped(const nlohmann::json& s) {  // leaf0's lossless PG for the frames from h0
  return s["switches"]["leaf0"]["ports"]["Ethernet0"]["priority_groups"]["PG3"]
          ["SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS"];
}

TEST(AckCoalescing, APausedResponderSendsTheLatestAckNotABurstThatOverflowsTheHeadroom) {
  const nlohmann::json on = PausedResponder(true), off = PausedResponder(false);
  const nlohmann::json& h0_on = on["hosts"]["h0"]["ethtool"];
  const nlohmann::json& h0_off = off["hosts"]["h0"]["ethtool"];
  ASSERT_GT(h0_on["rx_prio3_pause"].get<uint64_t>(), 10u) << "leaf0 pauses h0 again and again";

  // Every ACK queued: the bursts they make when a pause ends spill out of the PG's 802.1Qbb
  // headroom (each 66 B ACK a 256 B cell).
  EXPECT_GT(Dropped(off), 1000u) << "ACKs lost from a lossless class";

  // Coalesced: the waiting ACK gives way to the newer one, a third as many frames go, and
  // nothing is lost; the write still completes with nothing sent twice.
  EXPECT_LT(h0_on["tx_prio3_packets"].get<uint64_t>(), h0_off["tx_prio3_packets"].get<uint64_t>() / 3);
  EXPECT_EQ(Dropped(on), 0u);
  EXPECT_EQ(on["totals"]["drops_lossless"].get<uint64_t>(), 0u);
  EXPECT_EQ(on["hosts"]["h0"]["rocelab"]["bytes_delivered"].get<uint64_t>(), 20u * 1024 * 1024);
  EXPECT_EQ(on["hosts"]["h1"]["rocelab"]["retransmitted_packets"].get<uint64_t>(), 0u);
}

// The run says what it assumes where it queues every ACK, as the HPCC code's NIC does.
TEST(AckCoalescing, TheRunDisclosesItAndTheKeyTurnsItOn) {
  auto disclosed = [](const std::string& nic) {
    const Scenario sc = ParseScenarioText("duration: 1ms\n" + ExampleFabric("", nic) + "workload: []\n", "test.yaml");
    for (const Assumption& a : OutcomeAssumptions(sc))
      if (a.key == "nic.coalesce_acks") return true;
    return false;
  };
  EXPECT_TRUE(disclosed("{mtu: 4096, cc: none}"));
  EXPECT_FALSE(disclosed("{mtu: 4096, cc: none, coalesce_acks: true}"));
  const std::string refused =
      Refusal("duration: 1ms\n" + ExampleFabric("", "{coalesce_acks: sometimes}") + "workload: []\n");
  EXPECT_NE(refused.find("nic.coalesce_acks"), std::string::npos) << refused;
}

}  // namespace
}  // namespace rocelab
