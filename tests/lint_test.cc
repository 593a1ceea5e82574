// The checklist finds each misconfiguration, where it is, and passes a clean fabric.
#include <gtest/gtest.h>

#include <chrono>

#include "plan/headroom.h"
#include "plan/lint.h"
#include "scenario/scenario.h"
#include "sim/packet.h"

namespace rocelab {

namespace {

const char* kClean =
    "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4,\n"
    "           host_link: {rate: 100G, length: 3m}, fabric_link: {rate: 400G, length: 30m}}\n"
    "switch:\n"
    "  buffer: 32MB\n"
    "  lossless_priorities: [3]\n"
    "  pfc: {enabled: true, headroom: auto}\n"
    "  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n"
    "nic: {mtu: 4096, cc: dcqcn}\n";

LintReport Lint(const std::string& extra) { return LintFabric(ParseScenarioText(std::string(kClean) + extra, "f.yaml")); }

const Finding* FindCheck(const LintReport& r, const std::string& check, const std::string& device) {
  for (const Finding& f : r.findings)
    if (f.check == check && f.device.rfind(device, 0) == 0) return &f;
  return nullptr;
}

}  // namespace

// Clean but for what the 802.1Qbb headroom leaves open with 256 B cells: information only.
TEST(Lint, CleanFabricPasses) {
  LintReport r = Lint("");
  EXPECT_EQ(r.errors, 0);
  EXPECT_EQ(r.warnings, 0);
  for (const Finding& f : r.findings)
    if (f.check != "headroom-small-frames" || f.severity != Severity::kInfo)
      ADD_FAILURE() << f.check << " " << f.device << ": " << f.evidence;
  EXPECT_EQ(r.links_failed_and_checked, 4);
}

// A headroom sized in data frames against a line-rate burst of ACKs, a 256 B cell each: one
// finding per link class, naming every switch with such ports, with the headroom that covers
// it (plan/headroom.h's arithmetic). Cells no larger than a minimum frame waste nothing; a
// headroom as large as the fix asks for closes it.
TEST(Lint, SmallFrameHeadroomIsInformationPerLinkClass) {
  LintReport r = Lint("");
  std::vector<const Finding*> small;
  for (const Finding& f : r.findings)
    if (f.check == "headroom-small-frames") small.push_back(&f);
  ASSERT_EQ(small.size(), 2u);
  const Finding* host = small[0]->evidence.find("100G over 3 m") != std::string::npos ? small[0] : small[1];
  const Finding* fabric = host == small[0] ? small[1] : small[0];
  EXPECT_EQ(host->device, "leaf0, leaf1");
  EXPECT_EQ(fabric->device, "leaf0, leaf1, spine0, spine1");
  EXPECT_NE(fabric->evidence.find("400G over 30 m"), std::string::npos) << fabric->evidence;
  EXPECT_EQ(host->key, "switch.pfc.headroom");
  // The 400G headroom, auto: 802.1Qbb in 256 B cells, 4,174 B data frames.
  const Time delay = 30 * 5 * kNanosecond;
  const HeadroomBreakdown h = Ieee8021QbbHeadroom(400'000'000'000ull, delay, 9216 + kEthHeader + kFcs, 256,
                                                  PeerResponseQuanta(400'000'000'000ull), kRoceHeaders + 4096);
  const SmallFrameBurst b = SmallFrameBurstOf(h, 400'000'000'000ull, 256);
  ASSERT_TRUE(b.overflows());
  EXPECT_NE(fabric->fix.find("give the lossless PGs " + std::to_string(b.all_small_total) + " B"), std::string::npos)
      << fabric->fix;
  for (const Finding* f : small) EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_EQ(r.warnings, 0);

  std::string cells64 = kClean;
  cells64.replace(cells64.find("  buffer: 32MB\n"), 15, "  buffer: 32MB\n  cell: 64B\n");
  for (const Finding& f : LintFabric(ParseScenarioText(cells64, "f.yaml")).findings)
    EXPECT_NE(f.check, "headroom-small-frames") << f.evidence;

  std::string sized = kClean;
  sized.replace(sized.find("headroom: auto"), 14, "headroom: " + std::to_string(b.all_small_total) + "B");
  for (const Finding& f : LintFabric(ParseScenarioText(sized, "f.yaml")).findings)
    EXPECT_NE(f.check, "headroom-small-frames") << f.evidence;
}

TEST(Lint, EcnOffOnOneSwitch) {
  LintReport r = Lint("devices:\n  leaf1: {ecn: {enabled: false}}\n");
  const Finding* f = FindCheck(r, "ecn-enabled", "leaf1");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(f->key, "devices.leaf1.ecn.enabled");
  EXPECT_EQ(FindCheck(r, "ecn-enabled", "leaf0"), nullptr);
}

// ECN on, but its WRED profile on another queue than the one PFC protects: DCQCN gets no signal.
TEST(Lint, EcnOnAQueueOtherThanTheLosslessOne) {
  LintReport r = Lint("devices:\n  leaf1: {ecn: {priorities: [0]}}\n");
  const Finding* f = FindCheck(r, "ecn-enabled", "leaf1");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(f->key, "devices.leaf1.ecn.priorities");
  EXPECT_EQ(FindCheck(r, "ecn-enabled", "leaf0"), nullptr);
}

TEST(Lint, PfcBeforeEcn) {
  LintReport r = Lint("devices:\n  spine0: {ecn: {kmin: 6MB, kmax: 8MB}}\n");
  const Finding* f = FindCheck(r, "ecn-before-pfc", "spine0");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->evidence.find("fan-in 1"), std::string::npos) << f->evidence;
  EXPECT_EQ(FindCheck(r, "ecn-before-pfc", "leaf0"), nullptr);
  // A small dynamic threshold brings XOFF below a Kmax that was fine.
  LintReport r2 = Lint("devices:\n  leaf0: {pfc: {alpha: 0.01}}\n");
  ASSERT_NE(FindCheck(r2, "ecn-before-pfc", "leaf0"), nullptr);
}

TEST(Lint, DriftedDscpMapAndTrustMode) {
  LintReport r = Lint("devices:\n  leaf1: {dscp_to_priority: {26: 1}}\n  spine1: {trust: pcp}\n");
  const Finding* m = FindCheck(r, "dscp-map-consistent", "leaf1");
  ASSERT_NE(m, nullptr);
  EXPECT_NE(m->evidence.find("26->1"), std::string::npos);
  const Finding* l = FindCheck(r, "roce-dscp-lossless", "leaf1");
  ASSERT_NE(l, nullptr);
  EXPECT_NE(l->evidence.find("priority 1"), std::string::npos);
  const Finding* t = FindCheck(r, "trust-mode", "spine1");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->key, "devices.spine1.trust");
}

TEST(Lint, PfcOffForTheRocePriorityOnOneHop) {
  LintReport r = Lint("devices:\n  spine0: {lossless_priorities: [4]}\n  h2: {pfc: false}\n");
  const Finding* s = FindCheck(r, "pfc-enabled", "spine0");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->key, "devices.spine0.lossless_priorities");
  ASSERT_NE(FindCheck(r, "pfc-enabled", "h2"), nullptr);
}

// One key set fabric-wide: PFC off on the switches, which the NICs follow (nic.pfc not given),
// is one finding naming every device, under the key that did it. A NIC told so on its own is
// its own finding.
TEST(Lint, OneFabricWideKeyIsOneFindingNamingEveryDevice) {
  std::string yaml = std::string(kClean);
  yaml.replace(yaml.find("pfc: {enabled: true"), 19, "pfc: {enabled: false");
  LintReport r = LintFabric(ParseScenarioText(yaml, "f.yaml"));
  std::vector<const Finding*> pfc;
  for (const Finding& f : r.findings)
    if (f.check == "pfc-enabled") pfc.push_back(&f);
  ASSERT_EQ(pfc.size(), 1u);
  EXPECT_EQ(pfc[0]->key, "switch.pfc.enabled");
  EXPECT_EQ(pfc[0]->device, "leaf0, leaf1, spine0, spine1, h0 and 7 more hosts");
  LintReport own = LintFabric(ParseScenarioText(yaml + "devices:\n  h2: {pfc: false}\n", "f.yaml"));
  int findings = 0;
  for (const Finding& f : own.findings) findings += f.check == "pfc-enabled";
  EXPECT_EQ(findings, 2);
  ASSERT_NE(FindCheck(own, "pfc-enabled", "h2"), nullptr);
  EXPECT_EQ(FindCheck(own, "pfc-enabled", "h2")->key, "devices.h2.pfc");
}

TEST(Lint, MtuTooSmallOnOneHop) {
  LintReport r = Lint("devices:\n  leaf0: {mtu: 4000}\n");
  const Finding* f = FindCheck(r, "mtu", "leaf0");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->evidence.find("4174"), std::string::npos) << f->evidence;
}

TEST(Lint, HeadroomTooSmallForCableLength) {
  // 60 KB covers 3 m host links at 100G but not 400G links of 300 m.
  std::string text = kClean;
  text.replace(text.find("length: 30m"), 11, "length: 300m");
  text.replace(text.find("headroom: auto"), 14, "headroom: 60KB");
  LintReport r = LintFabric(ParseScenarioText(text, "f.yaml"));
  const Finding* f = FindCheck(r, "headroom-cable", "leaf0");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->port, "Ethernet16");  // the first uplink; host ports are fine
  EXPECT_NE(f->evidence.find("spine0"), std::string::npos);
  for (const Finding& g : r.findings)
    if (g.check == "headroom-cable") {
      EXPECT_NE(g.evidence.find("400G"), std::string::npos) << g.evidence;
    }
}

TEST(Lint, RoutingCycleFromOverrides) {
  LintReport r = Lint("routes:\n  - {switch: spine0, dst: h5, port: leaf0}\n  - {switch: leaf0, dst: h5, port: spine0}\n");
  const Finding* f = FindCheck(r, "deadlock-free", "");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->evidence.find("spine0:Ethernet0 (from leaf0) -> leaf0:Ethernet16 (from spine0)"), std::string::npos)
      << f->evidence;
}

// leaf1 pins h0 to spine0: no cycle as configured, but when leaf0 - spine0 fails spine0 reroutes
// h0 through leaf1, which sends it back.
TEST(Lint, RouteOverrideThatCyclesAfterALinkFailure) {
  LintReport r = Lint("routes:\n  - {switch: leaf1, dst: h0, port: spine0}\n");
  EXPECT_EQ(r.errors, 0);
  const Finding* f = FindCheck(r, "deadlock-free", "leaf0");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(f->port, "Ethernet16");
  EXPECT_EQ(f->evidence,
            "if the link leaf0:Ethernet16 - spine0:Ethernet0 fails, rerouting creates a cyclic buffer dependency: "
            "spine0:Ethernet4 (from leaf1) -> leaf1:Ethernet16 (from spine0) -> spine0:Ethernet4 (from leaf1)");
  EXPECT_EQ(r.links_failed_and_checked, 4);
}

TEST(Lint, EtsWeightsAndWatchdog) {
  LintReport r = Lint("devices:\n  leaf0: {ets: {weights: [10, 10, 10, 10, 10, 10, 0, 10]}, pfc_watchdog: {enabled: false}}\n");
  const Finding* e = FindCheck(r, "ets-weights", "leaf0");
  ASSERT_NE(e, nullptr);
  EXPECT_NE(e->evidence.find("70"), std::string::npos);
  const Finding* w = FindCheck(r, "pfc-watchdog", "leaf0");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->severity, Severity::kWarning);
}

TEST(Lint, TinyPauseQuantaWarn) {
  LintReport r = Lint("devices:\n  leaf0: {pfc: {enabled: true, quanta: 1}}\n");
  const Finding* w = FindCheck(r, "pfc-quanta", "leaf0");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->severity, Severity::kWarning);
  EXPECT_EQ(w->key, "devices.leaf0.pfc.quanta");
  EXPECT_EQ(FindCheck(r, "pfc-quanta", "leaf1"), nullptr);
  // 290 quanta (148,480 bit times) outlast two jumbo frames on the wire (148,064): no warning.
  LintReport ok = Lint("devices:\n  leaf0: {pfc: {enabled: true, quanta: 290}}\n");
  EXPECT_EQ(FindCheck(ok, "pfc-quanta", "leaf0"), nullptr);
  LintReport short_ = Lint("devices:\n  leaf0: {pfc: {enabled: true, quanta: 289}}\n");
  EXPECT_NE(FindCheck(short_, "pfc-quanta", "leaf0"), nullptr);
}

// plan buffer's verdict is lint's too: 400G ports whose headroom cannot fit 1 MB of buffer.
TEST(Lint, HeadroomThatDoesNotFitTheBufferIsAnError) {
  LintReport r = LintFabric(ParseScenarioText(
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 32,\n"
      "           host_link: {rate: 400G, length: 3m}, fabric_link: {rate: 400G, length: 30m}}\n"
      "switch: {buffer: 1MB, lossless_priorities: [3], pfc: {enabled: true, headroom: auto}}\n"
      "nic: {mtu: 4096, cc: dcqcn}\n",
      "f.yaml"));
  // Both leaves (34 ports each) fall short alike: one finding names both; the spines' 2 ports fit.
  const Finding* f = FindCheck(r, "buffer-budget", "leaf0");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->device, "leaf0, leaf1");
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(f->key, "switch.buffer");
  EXPECT_NE(f->evidence.find("1.68 MB short"), std::string::npos) << f->evidence;
  EXPECT_EQ(FindCheck(r, "buffer-budget", "spine"), nullptr);
  EXPECT_EQ(FindCheck(Lint(""), "buffer-budget", ""), nullptr);  // 32 MB fits
}

// A deliberately lossy class (the TCP-like background workload on priority 0) needs no PFC;
// RoCE put on a lossy priority is still an error.
TEST(Lint, LossyBackgroundTrafficNeedsNoLosslessChecks) {
  LintReport r = Lint("workload:\n  - {type: background, src: h0, dst: h5, size: 1MB}\n"
                      "  - {type: flow, src: h1, dst: h5, size: 1MB}\n");
  EXPECT_EQ(r.errors, 0) << (r.findings.empty() ? "" : r.findings[0].check + ": " + r.findings[0].evidence);
  LintReport roce_lossy = Lint("workload:\n  - {type: flow, src: h1, dst: h5, size: 1MB, dscp: 0}\n");
  EXPECT_GT(roce_lossy.errors, 0);
}

// A fabric-wide setting is one finding naming every switch, and it cites the key the user
// wrote: a devices entry that sets something else does not move it there.
TEST(Lint, FabricWideFindingsAreGroupedAndCiteTheKeyTheUserWrote) {
  std::string text = std::string(kClean) + "devices:\n  spine1: {mtu: 9100}\n";
  text.insert(text.find("nic:"), "  pfc_watchdog: {enabled: false}\n");
  LintReport r = LintFabric(ParseScenarioText(text, "f.yaml"));
  int watchdog = 0;
  for (const Finding& f : r.findings)
    if (f.check == "pfc-watchdog") {
      ++watchdog;
      EXPECT_EQ(f.device, "leaf0, leaf1, spine0, spine1") << f.device;
      EXPECT_EQ(f.key, "switch.pfc_watchdog.enabled");  // not devices.spine1.pfc_watchdog.enabled
    }
  EXPECT_EQ(watchdog, 1);
  const Finding* mtu = FindCheck(r, "mtu", "spine1");
  ASSERT_NE(mtu, nullptr);
  EXPECT_EQ(mtu->key, "devices.spine1.mtu");  // what the entry does write
}

TEST(Lint, CnpSharingTheRoceQueue) {
  LintReport r = Lint("devices:\n  leaf0: {dscp_to_priority: {48: 3}}\n");
  ASSERT_NE(FindCheck(r, "cnp-priority", "leaf0"), nullptr);
}

TEST(Lint, FatTreeK16WithEveryLinkFailureInSeconds) {
  auto t0 = std::chrono::steady_clock::now();
  LintReport r = LintFabric(ParseScenarioText("topology: {type: fat-tree, k: 16, link: {rate: 100G, delay: 1us}}\n", "k16.yaml"));
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.errors, 0);
  EXPECT_EQ(r.links_failed_and_checked, 2048);  // 16 pods x 8 x 8 edge-agg + 8 x 8 x 16 agg-core
  RecordProperty("seconds", std::to_string(s));
}

}  // namespace rocelab
