// Headroom, buffer and ECN planning against hand-checked numbers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "plan/buffer_plan.h"
#include "plan/ecn_plan.h"
#include "scenario/scenario.h"
#include "plan/headroom.h"
#include "plan/sonic_headroom.h"

namespace rocelab {

namespace {
SonicHeadroom Sonic(uint64_t gbps, double meters, uint32_t mtu, SpectrumAsic asic) {
  SonicHeadroomInput in;
  in.speed_bps = gbps * 1000000000ull;
  in.cable_m = meters;
  in.port_mtu = mtu;
  in.asic = asic;
  SonicHeadroom h;
  std::string err;
  EXPECT_TRUE(SonicMellanoxHeadroom(in, &h, &err)) << err;
  return h;
}
}  // namespace

TEST(SonicHeadroom, WorkedExampleSpectrum2TermByTerm) {
  SonicHeadroom h = Sonic(100, 5, 9100, SpectrumAsic::kSpectrum2);
  EXPECT_EQ(h.pause_quanta, 394u);
  EXPECT_DOUBLE_EQ(h.peer_response, 25216.0);              // 394 x 512 / 8
  EXPECT_NEAR(h.cable, 631.313, 0.001);                    // 2 x 5 x 100e9 / 198e6 / 8
  EXPECT_DOUBLE_EQ(h.mac_phy_delay, 819.2);                // 0.8 KB
  EXPECT_NEAR(h.propagation, 9100 + 631.313 + 819.2 + 25216, 0.001);
  EXPECT_EQ(h.cell, 144u);
  EXPECT_EQ(h.worst_case_factor, 3u);                      // ceil(144 / 64)
  EXPECT_NEAR(h.small_packet_share, 6400.0 / 544.0, 1e-9);  // 50 % of packets are 64 B, the rest 1024 B
  EXPECT_TRUE(h.two_kb_rule);
  EXPECT_EQ(h.xon, 19456u);
  EXPECT_EQ(h.xoff, 48128u);
  EXPECT_EQ(h.size, 67584u);
}

TEST(SonicHeadroom, MoreCases) {
  // Spectrum-1 (96 B cells): factor ceil(2 x 96 / 97) = 2; 40 m of cable.
  SonicHeadroom s1 = Sonic(100, 40, 9100, SpectrumAsic::kSpectrum1);
  EXPECT_EQ(s1.worst_case_factor, 2u);
  EXPECT_NEAR(s1.propagation, 40185.705, 0.001);
  EXPECT_EQ(s1.xoff, 48128u);
  EXPECT_EQ(s1.size, 67584u);
  // Spectrum-4 at 400G adds speed_G x 120 / 8 = 6000 B of propagation.
  SonicHeadroom s4 = Sonic(400, 5, 9100, SpectrumAsic::kSpectrum4);
  EXPECT_DOUBLE_EQ(s4.speed_overhead, 6000.0);
  EXPECT_NEAR(s4.propagation, 76364.453, 0.001);
  EXPECT_EQ(s4.xoff, 98304u);
  EXPECT_EQ(s4.size, 117760u);
  // 25G over 300 m.
  SonicHeadroom s25 = Sonic(25, 300, 9100, SpectrumAsic::kSpectrum3);
  EXPECT_NEAR(s25.propagation, 24508.897, 0.001);
  EXPECT_EQ(s25.xoff, 33792u);
  // A shared headroom pool reserves only xon, and the 2 KB rule does not apply.
  SonicHeadroomInput in;
  in.shared_headroom_pool = true;
  SonicHeadroom shp;
  std::string err;
  ASSERT_TRUE(SonicMellanoxHeadroom(in, &shp, &err));
  EXPECT_FALSE(shp.two_kb_rule);
  EXPECT_EQ(shp.xoff, 46080u);
  EXPECT_EQ(shp.size, 19456u);
  in.speed_bps = 3000000000ull;
  EXPECT_FALSE(SonicMellanoxHeadroom(in, &shp, &err));
}

TEST(IeeeHeadroom, HundredGigOverHundredMeters) {
  // 100G, 100 m (500 ns each way), 9216 B frames, 256 B cells.
  HeadroomBreakdown h = Ieee8021QbbHeadroom(100000000000ull, 500 * kNanosecond, 9216, 256, 394);
  EXPECT_EQ(h.our_frame, 9236u);          // frame + preamble 8 + IFG 12
  EXPECT_EQ(h.pfc_frame, 84u);
  EXPECT_EQ(h.cable_round_trip, 12500u);  // 1 us x 100 Gb/s
  EXPECT_EQ(h.peer_response, 25216u);     // 394 quanta x 64 B
  EXPECT_EQ(h.peer_frame, 9236u);
  EXPECT_EQ(h.cell_rounding, 48u);
  EXPECT_EQ(h.total, 56320u);             // 220 cells
}

TEST(IeeeHeadroom, FourHundredGigOverFiveMeters) {
  HeadroomBreakdown h = Ieee8021QbbHeadroom(400000000000ull, 25 * kNanosecond, 4096, 256, PeerResponseQuanta(400000000000ull));
  EXPECT_EQ(h.our_frame, 4116u);
  EXPECT_EQ(h.cable_round_trip, 2500u);   // 50 ns x 400 Gb/s
  EXPECT_EQ(h.peer_response, 57920u);     // 905 quanta
  EXPECT_EQ(h.total, 68864u);             // 269 cells
  EXPECT_EQ(h.cell_rounding, 128u);
}

// 400G, 200 m, 9216 B frames, 256 B cells, 4 KB RoCE MTU: the 184,832 B of xoff hold 722
// minimum frames, a cell each, 722 x 84 B on the wire (1.213 us at 400G); the round trip it
// must absorb is 176,476 B (3.530 us). A line-rate ACK burst overflows it: the simulator drops
// lossless packets on such a 400G switch-to-switch link under a pause tree (none with 96 B cells).
TEST(IeeeHeadroom, ALineRateBurstOfSmallFramesOutrunsHeadroomSizedForData) {
  const uint64_t rate = 400000000000ull;
  const HeadroomBreakdown h = Ieee8021QbbHeadroom(rate, 1000 * kNanosecond, 9216, 256, 905, 4096 + 62);
  ASSERT_EQ(h.total, 184832u);
  const SmallFrameBurst b = SmallFrameBurstOf(h, rate, 256);
  EXPECT_EQ(b.covered, SerializationTime(722 * 84, rate));
  EXPECT_EQ(b.round_trip, SerializationTime(9236 + 84 + 100000 + 57920 + 9236, rate));
  EXPECT_TRUE(b.overflows());
  EXPECT_EQ(b.all_small_total, 2101u * 256);  // ceil(176,476 / 84) frames, a cell each
  // The all-small headroom covers it.
  HeadroomBreakdown big = h;
  big.total = b.all_small_total;
  EXPECT_FALSE(SmallFrameBurstOf(big, rate, 256).overflows());
  // Byte-exact accounting (1 B cells): a 64 B frame is charged 64 B, and 184,832 B hold the burst.
  EXPECT_FALSE(SmallFrameBurstOf(h, rate, 1).overflows());
}

TEST(BufferPlan, VerdictWhenHeadroomDoesNotFit) {
  Scenario sc = ParseScenarioText(
      "topology: {type: spine-leaf, spines: 4, leaves: 2, hosts_per_leaf: 32,\n"
      "           host_link: {rate: 100G, length: 3m}, fabric_link: {rate: 400G, length: 2km}}\n"
      "switch: {buffer: 2MB, lossless_priorities: [3, 4]}\n",
      "b.yaml");
  std::vector<SwitchBudget> b = PlanBuffers(sc);
  ASSERT_EQ(b.size(), 6u);
  EXPECT_EQ(b[0].name, "leaf0");
  EXPECT_EQ(b[0].lossless_pgs, 2);
  EXPECT_EQ(b[0].ports.size(), 36u);
  uint64_t sum = 0;
  for (const auto& p : b[0].ports) sum += p.headroom_per_pg * 2;
  EXPECT_EQ(sum, b[0].headroom_total);
  EXPECT_FALSE(b[0].fits);
  EXPECT_NE(b[0].verdict.find("DOES NOT FIT"), std::string::npos);
  EXPECT_LT(b[0].shared_left, 0);
}

TEST(EcnPlan, ThresholdsFollowTheBandwidthDelayProduct) {
  EcnPlan p = PlanDcqcnEcn(100000000000ull, 10 * kMicrosecond, 4096);
  EXPECT_EQ(p.bdp, 125000u);
  EXPECT_EQ(p.kmin, 62500u);
  EXPECT_EQ(p.kmax, 250000u);
  EXPECT_DOUBLE_EQ(p.pmax, 0.2);
  // A tiny RTT: the frame floors hold.
  EcnPlan q = PlanDcqcnEcn(25000000000ull, 1 * kMicrosecond, 1024);
  EXPECT_EQ(q.kmin, 5u * q.frame);
  EXPECT_EQ(q.kmax, q.kmin + 10u * q.frame);
  TemplateInput t;
  t.ecn = p;
  t.ports = 2;
  std::string cfg = SonicQosTemplate(t);
  for (const char* table : {"BUFFER_PROFILE", "BUFFER_PG", "WRED_PROFILE", "QUEUE", "PORT_QOS_MAP", "DSCP_TO_TC_MAP",
                            "TC_TO_PRIORITY_GROUP_MAP", "PFC_WD", "\"26\": \"3\"", "\"green_min_threshold\": \"62500\""})
    EXPECT_NE(cfg.find(table), std::string::npos) << table;
}

}  // namespace rocelab

namespace rocelab {

// Headroom in cells: with RoCE MTU 256 a 318 B frame fills two 256 B cells, so the bytes that
// arrive during a pause round trip need 512/318 of their size in buffer. The extra term is
// ceil(sum x (512 - 318) / 318), before rounding to whole cells; the simulator's auto headroom
// is this same function.
TEST(Headroom, CellOverheadCoversSmallFramesWholeCells) {
  const Time delay = 500 * kNanosecond;  // 100 m
  HeadroomBreakdown bytes = Ieee8021QbbHeadroom(100000000000ull, delay, 9234, 256, 394);
  HeadroomBreakdown cells = Ieee8021QbbHeadroom(100000000000ull, delay, 9234, 256, 394, 318);
  const uint64_t sum = bytes.our_frame + bytes.pfc_frame + bytes.cable_round_trip + bytes.peer_response + bytes.peer_frame;
  EXPECT_EQ(cells.cell_overhead, (sum * 194 + 317) / 318);
  EXPECT_EQ(cells.total % 256, 0u);
  EXPECT_GE(cells.total, sum * 512 / 318);
  EXPECT_EQ(bytes.cell_overhead, 0u);
  // A 4158 B frame (MTU 4096) fills 17 cells, 4352 B: 4.7 % more.
  HeadroomBreakdown big = Ieee8021QbbHeadroom(100000000000ull, delay, 9234, 256, 394, 4158);
  EXPECT_EQ(big.cell_overhead, (sum * 194 + 4157) / 4158);
}

}  // namespace rocelab

namespace rocelab {

// plan ecn's SONiC config can be pasted as is: every object it references is defined in it,
// and its DSCP map is the simulator's own default.
TEST(EcnPlan, SonicConfigDefinesEverythingItReferences) {
  TemplateInput t;
  t.ecn = PlanDcqcnEcn(100000000000ull, 10 * kMicrosecond, 4096);
  t.ports = 2;
  const nlohmann::ordered_json cfg = nlohmann::ordered_json::parse(SonicQosTemplate(t));
  auto defined = [&](const char* table, const std::string& name) { return cfg.contains(table) && cfg[table].contains(name); };
  for (const auto& [key, profile] : cfg.at("BUFFER_PROFILE").items())
    EXPECT_TRUE(defined("BUFFER_POOL", profile.at("pool").get<std::string>())) << key;
  for (const auto& [key, pg] : cfg.at("BUFFER_PG").items())
    EXPECT_TRUE(defined("BUFFER_PROFILE", pg.at("profile").get<std::string>())) << key;
  int queues = 0;
  for (const auto& [key, q] : cfg.at("QUEUE").items()) {
    ++queues;
    EXPECT_TRUE(defined("SCHEDULER", q.at("scheduler").get<std::string>())) << key;
    if (q.contains("wred_profile")) {
      EXPECT_TRUE(defined("WRED_PROFILE", q.at("wred_profile").get<std::string>())) << key;
    }
  }
  EXPECT_EQ(queues, 16);  // 8 queues on each of 2 ports
  EXPECT_EQ(cfg.at("SCHEDULER").at("scheduler.strict").at("type"), "STRICT");
  EXPECT_EQ(cfg.at("QUEUE").at("Ethernet0|3").at("scheduler"), "scheduler.dwrr40");
  for (const auto& [port, m] : cfg.at("PORT_QOS_MAP").items()) {
    EXPECT_TRUE(defined("DSCP_TO_TC_MAP", m.at("dscp_to_tc_map").get<std::string>())) << port;
    EXPECT_TRUE(defined("TC_TO_PRIORITY_GROUP_MAP", m.at("tc_to_pg_map").get<std::string>())) << port;
    EXPECT_TRUE(defined("TC_TO_QUEUE_MAP", m.at("tc_to_queue_map").get<std::string>())) << port;
    EXPECT_TRUE(defined("MAP_PFC_PRIORITY_TO_QUEUE", m.at("pfc_to_queue_map").get<std::string>())) << port;
  }
  const auto& map = cfg.at("DSCP_TO_TC_MAP").at("ROCE");
  const std::array<uint8_t, 64> sim = DefaultDscpMap();
  for (int d = 0; d < 64; ++d) EXPECT_EQ(map.at(std::to_string(d)), std::to_string(sim[d])) << "DSCP " << d;
  // The PFC watchdog as the simulator runs it by default: the plan deployed is the plan simulated.
  const PfcWatchdogSpec wd;
  EXPECT_EQ(cfg.at("PFC_WD").at("GLOBAL").at("POLL_INTERVAL"), std::to_string(wd.poll_interval / kMillisecond));
  EXPECT_EQ(cfg.at("PFC_WD").at("Ethernet0").at("detection_time"), std::to_string(wd.detection_time / kMillisecond));
  EXPECT_EQ(cfg.at("PFC_WD").at("Ethernet0").at("restoration_time"), std::to_string(wd.restoration_time / kMillisecond));
}

}  // namespace rocelab
