// The auto headroom sized for small frames (switch.pfc.small_packet_percentage, SONiC's
// LOSSLESS_TRAFFIC_PATTERN): the ACKs a switch queue holds behind a pause leave back to back when
// it ends, each 66 B frame charged a whole cell, and fill a headroom sized for data frames three
// times as fast as their bytes say.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "plan/headroom.h"
#include "run/assumptions.h"
#include "sim/packet.h"
#include "test_util.h"

namespace rocelab {
namespace {

// 100G, 1 us of cable, port MTU 9216, 256 B cells, RoCE MTU 4096 (a 4158 B frame), 394 quanta.
HeadroomBreakdown At100G(int small_percent) {
  return Ieee8021QbbHeadroom(100000000000ull, kMicrosecond, 9216 + kEthHeader + kFcs, 256, 394, 4158, small_percent);
}

TEST(SmallFrameHeadroom, TheShareOfSmallFramesSetsTheCellsTheRoundTripTakes) {
  const HeadroomBreakdown data = At100G(0), small = At100G(100), half = At100G(50);
  const uint64_t sum = data.our_frame + data.pfc_frame + data.cable_round_trip + data.peer_response + data.peer_frame;
  EXPECT_EQ(sum, 9254u + 84 + 25000 + 25216 + 9254);
  // Data frames alone: 17 cells (4352 B) for each 4158 B frame.
  EXPECT_EQ(data.total, ((sum * 4352 + 4157) / 4158 + 255) / 256 * 256);
  // 64 B frames alone: 84 B of wire time each, a 256 B cell each.
  EXPECT_EQ(small.total, ((sum * 256 + 83) / 84 + 255) / 256 * 256);
  EXPECT_EQ(small.total, 209920u);
  // Half the frames small, by count: they are 2 % of the bytes, and add 8 %.
  EXPECT_GT(half.total, data.total);
  EXPECT_LT(half.total, data.total * 11 / 10);
  // What the lint measures a headroom against: all-small covers the burst, data frames do not.
  EXPECT_FALSE(SmallFrameBurstOf(small, 100000000000ull, 256).overflows());
  EXPECT_TRUE(SmallFrameBurstOf(data, 100000000000ull, 256).overflows());
}

// h0..h7 send across at line rate into a 2:1 oversubscribed spine layer, h8..h15 write to h0: the
// reverse queues of leaf1's uplinks hold ACKs of many queue pairs behind each pause, which leave
// back to back when it ends.
nlohmann::json AckBurstsBehindPauses(const std::string& pfc) {
  std::string flows;
  for (int h = 0; h < 8; ++h)
    flows += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h" + std::to_string(h + 8) + ", size: 20MB}\n";
  for (int h = 8; h < 16; ++h) flows += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 2MB}\n";
  TestRun r = RunYaml(
      "duration: 3ms\n"
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 8,\n"
      "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}\n"
      "switch: {buffer: 32MB, lossless_priorities: [3], pfc: " + pfc + "}\n"
      "nic: {mtu: 4096, cc: none}\nworkload:\n" + flows);
  return nlohmann::json::parse(SummaryJson(*r.run));
}

TEST(SmallFrameHeadroom, AHeadroomForSmallFramesHoldsTheAckBurstsOneForDataFramesDrops) {
  const nlohmann::json data = AckBurstsBehindPauses("{}");
  const nlohmann::json small = AckBurstsBehindPauses("{small_packet_percentage: 100}");
  EXPECT_GT(data["totals"]["drops_lossless"].get<uint64_t>(), 100u) << "ACKs lost from a lossless class";
  EXPECT_EQ(small["totals"]["drops_lossless"].get<uint64_t>(), 0u);
  EXPECT_EQ(small["switches"]["spine1"]["ports"]["Ethernet4"]["headroom_bytes"].get<uint64_t>(), 209920u);
  EXPECT_GT(small["totals"]["pause_frames_tx"].get<uint64_t>(), 1000u) << "the pauses that hold the ACKs back";
}

TEST(SmallFrameHeadroom, TheRunDisclosesItAndAGivenHeadroomRefusesIt) {
  auto disclosed = [](const std::string& pfc) {
    const Scenario sc =
        ParseScenarioText("duration: 1ms\n" + ExampleFabric("  pfc: " + pfc + "\n") + "workload: []\n", "test.yaml");
    for (const Assumption& a : OutcomeAssumptions(sc))
      if (a.key == "switch.pfc.small_packet_percentage") return true;
    return false;
  };
  EXPECT_TRUE(disclosed("{}"));
  EXPECT_FALSE(disclosed("{small_packet_percentage: 100}"));
  EXPECT_FALSE(disclosed("{headroom: 100KB}"));
  const std::string refused =
      Refusal("duration: 1ms\n" + ExampleFabric("  pfc: {headroom: 100KB, small_packet_percentage: 50}\n") +
              "workload: []\n");
  EXPECT_NE(refused.find("switch.pfc.small_packet_percentage"), std::string::npos) << refused;
  EXPECT_NE(refused.find("auto headroom only"), std::string::npos) << refused;
}

}  // namespace
}  // namespace rocelab
