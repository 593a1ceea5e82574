// Probing (run/pingmesh.h) and the tomography over its results
// (network.probe_loss): a probe's round trip is the network's, the responder's
// own delay taken out; the probes cost what the budget says; the fabric probes
// cover the ECMP paths; probes are paused like RoCE traffic, so a stuck host's
// are lost and tomography names the host; and on evidence alone, the link common
// to lossy paths is named, links the same probes cross are not told apart, and
// loss spread everywhere names no link.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "diagnose/diagnose.h"
#include "test_util.h"

namespace rocelab {
namespace {

// Probes go on while a workload does: a flow of one packet at `at`, which ends the run.
std::string KeepRunning(const std::string& src, const std::string& dst, const std::string& at) {
  return "workload:\n  - {type: flow, src: " + src + ", dst: " + dst + ", size: 1KB, start: " + at + "}\n";
}

std::string TwoHosts(const std::string& nic) {
  return "duration: 2ms\nmonitor: {refresh: instant, interval: 1ms, probes: {interval: 100us, timeout: 1ms}}\n"
         "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2,\n"
         "           host_link: {rate: 100G, delay: 1us}}\n"
         "nic: " + nic + "\n" + KeepRunning("h0", "h1", "1.99ms");
}

// h0 -> leaf0 -> h1 and back: four links of 1 us, each crossed by a 102-byte frame (122 bytes on
// the wire with preamble and gap) at 100 Gb/s, stored and forwarded: 4 x (1 us + 9.76 ns). A
// responder that takes 20 us to see the probe answers 20 us later, and the round trip is the same.
TEST(Probing, RoundTripIsTheNetworksOwn) {
  const double expected_ns = 4 * (1000 + (kProbeFrameBytes + kWireOverhead) * 8 / 100.0);
  for (const char* nic : {"{processing_delay: 0us}", "{processing_delay: 20us}"}) {
    SCOPED_TRACE(nic);
    TestRun f = RunYaml(TwoHosts(nic));
    const Pingmesh* pm = f.run->pingmesh();
    ASSERT_NE(pm, nullptr);
    ASSERT_EQ(pm->paths().size(), 2u);  // h0 -> h1 and h1 -> h0
    for (const ProbePath& p : pm->paths()) {
      EXPECT_TRUE(p.same_rack);
      EXPECT_EQ(p.lost, 0);
      EXPECT_GE(p.judged, 19) << "a probe every 100 us for 2 ms, answered within microseconds";
      EXPECT_NEAR(p.rtt_min_ns, expected_ns, 0.01);
      EXPECT_NEAR(p.rtt_max_ns, expected_ns, 0.01);
      // Both ways over h0's and h1's links, each by its sending and receiving port.
      EXPECT_EQ(p.hops.size(), 4u);
    }
  }
}

// Each round every host probes its rack and `fabric_peers` hosts elsewhere.
TEST(Probing, BudgetIsHostsTimesPeers) {
  TestRun f = RunYaml(
      "duration: 1ms\nmonitor: {refresh: instant, interval: 1ms, probes: {interval: 50us, fabric_peers: 2}}\n"
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 3}\n" + KeepRunning("h0", "h1", "990us"));
  const Pingmesh::Budget b = f.run->pingmesh()->budget();
  EXPECT_EQ(b.pairs, 6u * (2 + 2));
  EXPECT_DOUBLE_EQ(b.probes_per_s, 24 / 50e-6);
  // A host sends its 4 probes and answers 4 per round: 8 frames of 122 bytes on the wire.
  EXPECT_DOUBLE_EQ(b.bits_per_s_per_host, 8 * 122 * 8 / 50e-6);
  EXPECT_EQ(f.run->pingmesh()->sent(), 24u * 21);  // rounds at 0, 50 us, ..., 1 ms: a monitor runs to the duration
}

// Over the rounds a host's probes to another leaf take every spine, both ways.
TEST(Probing, FabricProbesCoverTheEcmpPaths) {
  TestRun f = RunYaml(
      "duration: 2ms\nmonitor: {refresh: instant, interval: 1ms, probes: {interval: 20us, fabric_peers: 1}}\n"
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 1}\n" + KeepRunning("h0", "h1", "1.99ms"));
  // h0 > leaf0, leaf0 > spine, spine > leaf1, leaf1 > h1; h1 > leaf1, leaf1 > spine, ...
  std::set<std::string> out, back;
  for (const ProbePath& p : f.run->pingmesh()->paths()) {
    if (p.src != "h0") continue;
    ASSERT_EQ(p.hops.size(), 8u);
    out.insert(p.hops[1].substr(p.hops[1].find('>') + 1, 6));
    back.insert(p.hops[5].substr(p.hops[5].find('>') + 1, 6));
  }
  EXPECT_EQ(out, (std::set<std::string>{"spine0", "spine1"}));
  EXPECT_EQ(back, (std::set<std::string>{"spine0", "spine1"}));
}

// A host whose receive pipeline stops pauses its ToR without end: probes to it wait behind the
// pause like RoCE data and are never answered, and it answers no one. Tomography names the host,
// and the rack mesh shows it is not the fabric beyond the ToR.
TEST(Probing, AStuckHostsProbesAreLostAndItIsNamed) {
  TestRun f = RunYaml(
      "duration: 6ms\ntimers: {scale: 0.01}\n"
      "monitor: {refresh: instant, interval: 100ms, probes: {interval: 10ms, timeout: 50ms}}\n"
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 3}\n"
      "nic: {pfc_prevention_tout: off}\nswitch: {pfc_watchdog: {enabled: false}}\n"
      "faults:\n  - {kind: pfc_storm, target: h1, at: 1ms}\n" + KeepRunning("h3", "h4", "5.99ms"));
  double to_h1 = 0, lost_to_h1 = 0, others_lost = 0;
  for (const ProbePath& p : f.run->pingmesh()->paths()) {
    if (p.dst == "h1" || p.src == "h1") {
      to_h1 += p.judged;
      lost_to_h1 += p.lost;
    } else {
      others_lost += p.lost;
    }
  }
  EXPECT_GT(lost_to_h1, 0.5 * to_h1);
  EXPECT_EQ(others_lost, 0) << "probes on the priority of data wait in the pause, but only those to h1 never get through";
  bool named = false;
  for (const Monitor::Detection& d : f.run->monitor()->detections())
    if (d.rule == "network.probe_loss") {
      EXPECT_EQ(d.location, "h1 (mlx5_0/eth0)");
      EXPECT_NE(d.title.find("within its rack too"), std::string::npos) << d.title;
      named = true;
    }
  EXPECT_TRUE(named);
}

// --- tomography on evidence alone ---------------------------------------------------------------

ProbePath Path(const std::string& src, const std::string& dst, std::vector<std::string> hops, double judged, double lost) {
  ProbePath p;
  p.src = src;
  p.dst = dst;
  p.hops = std::move(hops);
  p.judged = judged;
  p.lost = lost;
  return p;
}

std::vector<Diagnosis> ProbeFindings(const Evidence& ev) {
  std::vector<Diagnosis> out;
  for (const Diagnosis& d : Diagnose(ev, false))
    if (d.rule == "network.probe_loss") out.push_back(d);
  return out;
}

// Three leaves under one spine, each leaf's uplink a link "lN:up|s:dN". Paths between leaves 0-1
// and 0-2 lose probes; 1-2 loses none: the link common to the lossy paths is leaf0's.
Evidence ThreeLeaves(double lost01, double lost02, double lost12) {
  auto hops = [](int a, int b) {
    const std::string la = "l" + std::to_string(a), lb = "l" + std::to_string(b);
    return std::vector<std::string>{la + ":up>s:d" + std::to_string(a), "s:d" + std::to_string(b) + ">" + lb + ":up",
                                    lb + ":up>s:d" + std::to_string(b), "s:d" + std::to_string(a) + ">" + la + ":up"};
  };
  Evidence ev;
  ev.probes = {Path("a", "b", hops(0, 1), 200, lost01), Path("a", "c", hops(0, 2), 200, lost02),
               Path("b", "c", hops(1, 2), 200, lost12)};
  return ev;
}

TEST(ProbeTomography, NamesTheLinkCommonToTheLossyPaths) {
  const std::vector<Diagnosis> d = ProbeFindings(ThreeLeaves(5, 4, 0));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].tier, "T3");
  EXPECT_NE(d[0].title.find("the link l0-s"), std::string::npos) << d[0].title;
  EXPECT_NE(d[0].evidence.find("9 of 400 probes across it lost"), std::string::npos) << d[0].evidence;
}

// With two leaves every path through the spine crosses one link of each: the probes cannot say
// which, and the device the two share is named instead.
TEST(ProbeTomography, LinksTheSameProbesCrossAreNotToldApart) {
  Evidence ev = ThreeLeaves(5, 0, 0);
  ev.probes.resize(1);
  const std::vector<Diagnosis> d = ProbeFindings(ev);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location, "s");
  EXPECT_NE(d[0].title.find("cannot tell which"), std::string::npos) << d[0].title;
}

TEST(ProbeTomography, LossSpreadEverywhereOrTooLittleNamesNoLink) {
  EXPECT_TRUE(ProbeFindings(ThreeLeaves(3, 3, 3)).empty()) << "every path loses alike";
  EXPECT_TRUE(ProbeFindings(ThreeLeaves(1, 0, 0)).empty()) << "one lost probe is no pattern";
  EXPECT_TRUE(ProbeFindings(ThreeLeaves(0, 0, 0)).empty());
}

}  // namespace
}  // namespace rocelab
