// Switch ASIC profiles (switch.asic): a chip's cell, buffer and pipeline latency from public
// sources, under the section's own keys; what is not published is disclosed, and so is the
// generic switch.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "plan/sonic_headroom.h"
#include "run/assumptions.h"
#include "scenario/asic_profile.h"
#include "test_util.h"

namespace rocelab {
namespace {

// The README's fabric with no buffer given, so that a profile's buffer holds.
std::string Fabric(const std::string& sw, const std::string& devices = "") {
  return "duration: 10ms\n"
         "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 8,\n"
         "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}\n"
         "switch: " + sw + "\nnic: {mtu: 4096, cc: none}\n" + devices +
         "workload:\n  - {type: flow, src: h0, dst: h8, size: 1MB, priority: 3}\n";
}

bool Assumes(const Scenario& sc, const std::string& key) {
  for (const Assumption& a : OutcomeAssumptions(sc))
    if (a.key == key) return true;
  return false;
}

TEST(AsicProfile, AProfileSetsTheChipsFiguresUnderTheSectionsOwnKeys) {
  const Scenario s2 = ParseScenarioText(Fabric("{asic: spectrum2}"), "t.yaml");
  EXPECT_EQ(s2.sw.cell, 144u);
  EXPECT_EQ(s2.sw.buffer, 42ull << 20);
  EXPECT_EQ(s2.sw.pipeline_latency, 300 * kNanosecond);
  // A key of the same section wins over the profile, wherever it is written.
  const Scenario own = ParseScenarioText(Fabric("{buffer: 8MB, asic: spectrum2, pipeline_latency: 1us}"), "t.yaml");
  EXPECT_EQ(own.sw.cell, 144u);
  EXPECT_EQ(own.sw.buffer, 8ull << 20);
  EXPECT_EQ(own.sw.pipeline_latency, kMicrosecond);
  // One switch of another chip: its profile over what it inherited, its own keys over both.
  const Scenario mixed = ParseScenarioText(
      Fabric("{asic: spectrum1}", "devices:\n  spine0: {asic: trident3}\n  spine1: {asic: trident3, cell: 128B}\n"),
      "t.yaml");
  EXPECT_EQ(SwitchSpecFor(mixed, "leaf0").cell, 96u);
  EXPECT_EQ(SwitchSpecFor(mixed, "leaf0").buffer, 16ull << 20);
  const SwitchSpec& td3 = SwitchSpecFor(mixed, "spine0");
  EXPECT_EQ(td3.cell, 256u);
  EXPECT_EQ(td3.buffer, 32ull << 20);
  EXPECT_EQ(td3.pipeline_latency, 800 * kNanosecond);
  EXPECT_EQ(SwitchSpecFor(mixed, "spine1").cell, 128u);
  // A figure the vendor does not publish stays the scenario's.
  const Scenario s3 = ParseScenarioText(Fabric("{asic: spectrum3}"), "t.yaml");
  EXPECT_EQ(s3.sw.pipeline_latency, 0);
  const Scenario s5 = ParseScenarioText(Fabric("{buffer: 100MB, asic: spectrum5}"), "t.yaml");
  EXPECT_EQ(s5.sw.cell, 192u);
  EXPECT_EQ(s5.sw.buffer, 100ull << 20);
}

TEST(AsicProfile, EveryNameTheKeyTakesHasAProfileAndThePlanReadsTheSame) {
  std::stringstream names(opt::kSwitchAsic.values);
  std::string name;
  int n = 0;
  while (std::getline(names, name, '|')) {
    if (name == "none") {
      EXPECT_EQ(FindAsicProfile(name), nullptr);
      continue;
    }
    ASSERT_NE(FindAsicProfile(name), nullptr) << name;
    ++n;
    SpectrumAsic s;
    if (!ParseSpectrumAsic(name, &s)) continue;
    EXPECT_EQ(SpectrumCellSize(s), FindAsicProfile(name)->cell) << name;
  }
  EXPECT_EQ(n, 6);
  // `plan ecn` takes only a published buffer: Spectrum-4's stand-in is SONiC's pool.
  EXPECT_EQ(SpectrumBufferBytes(SpectrumAsic::kSpectrum2), 42ull << 20);
  EXPECT_EQ(SpectrumBufferBytes(SpectrumAsic::kSpectrum4), 0u);
  EXPECT_EQ(FindAsicProfile("spectrum4")->buffer, 158229504u);
}

// The switch a run builds has the chip's buffer (its shared pool is the buffer less the
// headroom it reserves), its latency on every frame, and says which chip it is.
TEST(AsicProfile, TheRunsSwitchesAreTheChipsAndSaySo) {
  auto generic = RunYaml(Fabric("{cell: 144B, buffer: 42MB}"));
  auto s2 = RunYaml(Fabric("{asic: spectrum2}"));
  const Switch& a = generic->sw("leaf0");
  const Switch& b = s2->sw("leaf0");
  EXPECT_EQ(b.spec().buffer, 42ull << 20);
  EXPECT_EQ(b.shared_pool(), a.shared_pool());
  // Three switches on the path, each crossed by the last frame and by its ACK.
  const QueuePair& qa = generic->qps()[0];
  const QueuePair& qb = s2->qps()[0];
  ASSERT_TRUE(qa.done && qb.done);
  EXPECT_EQ((qb.finish - qb.start) - (qa.finish - qa.start), 6 * 300 * kNanosecond);
  const auto sa = nlohmann::json::parse(SummaryJson(*generic.run));
  const auto sb = nlohmann::json::parse(SummaryJson(*s2.run));
  EXPECT_FALSE(sa["switches"]["leaf0"]["config"].contains("asic"));
  EXPECT_EQ(sb["switches"]["leaf0"]["config"]["asic"], "spectrum2");
}

TEST(AsicProfile, TheRunDisclosesAGenericSwitchAndEveryFigureNotPublished) {
  EXPECT_TRUE(Assumes(ParseScenarioText(Fabric("{buffer: 2MB}"), "t.yaml"), "switch.asic"));
  const Scenario s2 = ParseScenarioText(Fabric("{asic: spectrum2}"), "t.yaml");
  EXPECT_FALSE(Assumes(s2, "switch.asic"));
  EXPECT_FALSE(Assumes(s2, "switch.pipeline_latency"));
  EXPECT_FALSE(Assumes(s2, "switch.buffer"));
  EXPECT_TRUE(Assumes(ParseScenarioText(Fabric("{asic: spectrum3}"), "t.yaml"), "switch.pipeline_latency"));
  EXPECT_FALSE(
      Assumes(ParseScenarioText(Fabric("{asic: spectrum3, pipeline_latency: 300ns}"), "t.yaml"), "switch.pipeline_latency"));
  EXPECT_TRUE(Assumes(ParseScenarioText(Fabric("{asic: spectrum4}"), "t.yaml"), "switch.buffer"));
  EXPECT_FALSE(Assumes(ParseScenarioText(Fabric("{asic: spectrum4, buffer: 160MB}"), "t.yaml"), "switch.buffer"));
  EXPECT_TRUE(Assumes(ParseScenarioText(Fabric("{asic: spectrum5}"), "t.yaml"), "switch.buffer"));
}

TEST(AsicProfile, AnUnknownChipIsRefusedWithItsKey) {
  const std::string what = Refusal(Fabric("{asic: tomahawk}"), "t.yaml");
  ASSERT_FALSE(what.empty()) << "accepted";
  EXPECT_NE(what.find("t.yaml"), std::string::npos) << what;
  EXPECT_NE(what.find("asic"), std::string::npos) << what;
  EXPECT_NE(what.find("spectrum2"), std::string::npos) << what;
}

}  // namespace
}  // namespace rocelab
