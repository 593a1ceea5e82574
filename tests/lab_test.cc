// The fault labs: each shipped lab's evidence shows its root cause in the real tools' layouts,
// the fix an engineer would make passes `check`, and the wrong fix does not.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "diagnose/parsers.h"
#include "file_util.h"
#include "lab/device_views.h"
#include "lab/lab.h"
#include "lab/lab_session.h"
#include "telemetry/counter_names.h"
#include "util/text_lines.h"

namespace rocelab {
namespace {

LabSession Start(const std::string& name) {
  const Lab* lab = FindLab(name);
  EXPECT_NE(lab, nullptr) << name;
  return LabSession(*lab);
}

// Runs each command and returns the last one's output.
std::string Do(LabSession& s, const std::vector<std::string>& commands) {
  std::string out;
  for (const std::string& c : commands) out = s.Execute(c);
  return out;
}

bool Fixed(const std::string& check) { return check.find("all checks hold") != std::string::npos; }

const PortEvidence* PortNamed(const std::vector<PortEvidence>& ports, const std::string& name) {
  for (const PortEvidence& p : ports)
    if (p.port == name) return &p;
  return nullptr;
}

TEST(Lab, TheEightCourseLabsEachHaveATicketAndChecks) {
  std::vector<std::string> names;
  for (const Lab& l : Labs()) names.push_back(l.name);
  for (const char* n : {"pfc_storm", "slow_receiver", "ecn_off", "qos_drift", "bad_optic", "gray_drop", "headroom", "deadlock"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  for (const Lab& l : Labs()) {
    EXPECT_FALSE(l.briefing.empty()) << l.name;
    EXPECT_FALSE(l.checks.empty()) << l.name;
  }
}

// A storm: h0 pauses leaf0 without end and, with no PFC watchdog on the fabric, the pause holds
// the ring's uplinks. The evidence: leaf0 receives PFC on the port facing h0 and on no other,
// h0 sends pause and takes almost nothing in. The fix: the watchdog on every switch.
TEST(Lab, PfcStormIsFoundFromThePauseCountersAndFixedByTheWatchdog) {
  LabSession s = Start("pfc_storm");
  Do(s, {"run 2ms"});
  const std::vector<PortEvidence> pfc = ParsePfcCounters(s.Execute("on leaf0 show pfc counters"), "show pfc counters");
  const PortEvidence* to_h0 = PortNamed(pfc, "Ethernet0");
  ASSERT_NE(to_h0, nullptr);
  EXPECT_GT(to_h0->counters.at(kSaiPortPfcRxPkts.Name(3)), 10);
  for (const PortEvidence& p : pfc) {
    if (p.port == "Ethernet0") continue;
    EXPECT_EQ(p.counters.at(kSaiPortPfcRxPkts.Name(3)), 0) << p.port;
  }
  const CounterMap h0 = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  EXPECT_GT(h0.at("tx_prio3_pause"), 10);
  EXPECT_LT(h0.at("rx_prio3_packets"), 10);
  EXPECT_NE(s.Execute("on leaf0 show pfcwd config").find("not running"), std::string::npos);
  const std::string stuck = s.Execute("check");
  EXPECT_FALSE(Fixed(stuck)) << stuck;
  EXPECT_NE(stuck.find("leaf0:Ethernet0 (h0) held paused"), std::string::npos) << stuck;

  const std::string check = Do(s, {"on leaf0 config pfcwd start --action drop ports all detection-time 200 --restoration-time 200",
                                   "on leaf1 config pfcwd start_default", "on spine0 config pfcwd start_default",
                                   "on spine1 config pfcwd start_default", "run 100ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
  // The watchdog's own account: leaf0's queue 3 toward h0 stormed, and what went to h0 was dropped.
  const std::vector<WatchdogQueue> wd = ParsePfcwdStats(s.Execute("on leaf0 show pfcwd stats"), "show pfcwd stats");
  ASSERT_EQ(wd.size(), 1u);
  EXPECT_EQ(wd[0].port, "Ethernet0");
  EXPECT_EQ(wd[0].queue, 3);
  EXPECT_GT(wd[0].tx_drop, 0);
  const std::string review = s.Execute("review");
  EXPECT_NE(review.find("pfc_storm on h0, injected at 2.000 ms"), std::string::npos) << review;
  EXPECT_NE(review.find("recovered:    your last change before the passing check, at 42.000 ms"), std::string::npos) << review;
  EXPECT_NE(review.find("USD"), std::string::npos) << review;
}

// The stormed NIC's driver reloaded (`devlink dev reload`): its stuck receive pipeline starts
// again and it pauses no more. The queue pairs it was an end of go to error (the storage reads into
// h0: their senders count the errored work requests); the ring's live on. The watchdog is still
// the fabric's part of the fix.
TEST(Lab, ADriverReloadEndsAStormAndFailsItsQueuePairs) {
  LabSession s = Start("pfc_storm");
  Do(s, {"run 2ms"});
  EXPECT_EQ(s.Execute("on h0 devlink dev show"), "pci/0000:08:00.0\n");
  for (const char* bad : {"devlink dev reload", "devlink dev reload pci/0000:01:00.0", "devlink dev reload pci/0000:08:00.0 action fw_activate",
                          "devlink"})
    EXPECT_EQ(s.Execute(std::string("on h0 ") + bad).rfind("usage: ", 0), 0u) << bad;
  const std::string errors = "cat /sys/class/infiniband/mlx5_0/ports/1/hw_counters/req_cqe_error";
  EXPECT_EQ(s.Execute("on h4 " + errors), "0\n");
  const CounterMap stormed = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  Do(s, {"run 1ms"});
  const CounterMap still = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  ASSERT_GT(still.at("tx_prio3_pause"), stormed.at("tx_prio3_pause")) << "a storm pauses on";
  EXPECT_EQ(s.Execute("on h0 devlink dev reload pci/0000:08:00.0"), "reload_actions_performed:\n  driver_reinit\n");
  const CounterMap reloaded = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  Do(s, {"run 5ms"});
  const CounterMap after = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  EXPECT_EQ(after.at("tx_prio3_pause"), reloaded.at("tx_prio3_pause")) << "the pipeline drains: no pause since";
  for (const char* sender : {"h4", "h5", "h10", "h11"})
    EXPECT_NE(s.Execute(std::string("on ") + sender + " " + errors), "0\n") << sender << "'s reads into h0 failed";
  EXPECT_EQ(s.Execute("on h1 " + errors), "0\n") << "the ring's queue pairs live on";
  EXPECT_NE(s.Execute("timeline all").find("nic_reload"), std::string::npos);
  const std::string check = Do(s, {"on leaf0 config pfcwd start_default", "on leaf1 config pfcwd start_default",
                                   "on spine0 config pfcwd start_default", "on spine1 config pfcwd start_default", "run 60ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
}

TEST(Lab, PfcStormIsNotFixedByShuttingAnInnocentUplink) {
  LabSession s = Start("pfc_storm");
  const std::string check = Do(s, {"run 2ms", "on leaf0 config interface shutdown Ethernet24", "run 60ms", "check"});
  EXPECT_FALSE(Fixed(check)) << check;
  EXPECT_NE(check.find("FAIL  no switch port held paused by a host"), std::string::npos) << check;
}

// A slow receiver is told apart from a storm by what it takes in: h0 pauses, but its receive
// counters move at about its drain rate (20G), and the watchdog finds no storm. Congestion
// control slows its senders; isolating it stops the storage it serves.
TEST(Lab, ASlowReceiverDrainsAndIsNotIsolated) {
  LabSession s = Start("slow_receiver");
  Do(s, {"run 2ms"});
  const CounterMap first = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  Do(s, {"run 2ms"});
  const CounterMap second = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  const double gbps = (second.at("rx_prio3_bytes") - first.at("rx_prio3_bytes")) * 8 / 2e-3 / 1e9;
  EXPECT_GT(gbps, 15);
  EXPECT_LT(gbps, 25);
  EXPECT_GT(second.at("tx_prio3_pause"), first.at("tx_prio3_pause"));
  EXPECT_TRUE(ParsePfcwdStats(s.Execute("on leaf0 show pfcwd stats"), "show pfcwd stats").empty());
  EXPECT_FALSE(Fixed(s.Execute("check")));
  const std::string check = Do(s, {"run 30ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
  EXPECT_NE(s.Execute("review").find("with no change of yours: the fabric got over it alone"), std::string::npos);
}

TEST(Lab, ASlowReceiverIsolatedLikeAStormStarvesItsStorage) {
  LabSession s = Start("slow_receiver");
  const std::string check = Do(s, {"run 2ms", "on leaf0 config interface shutdown Ethernet0", "run 30ms", "check"});
  EXPECT_FALSE(Fixed(check)) << check;
  EXPECT_NE(check.find("FAIL  every flow still open delivers data: 4 delivered nothing (h4 -> h0"), std::string::npos) << check;
}

TEST(Lab, EcnOffIsFoundInShowEcnAndFixedByReloadingTheQosConfiguration) {
  LabSession s = Start("ecn_off");
  Do(s, {"run 2ms"});
  EXPECT_NE(s.Execute("on leaf0 show ecn").find("ecn_none"), std::string::npos);
  EXPECT_NE(s.Execute("on leaf1 show ecn").find("ecn_all"), std::string::npos);
  // PFC sent up leaf0's uplinks: the hot spot below does not mark.
  const std::vector<PortEvidence> pfc = ParsePfcCounters(s.Execute("on leaf0 show pfc counters"), "show pfc counters");
  EXPECT_GT(PortNamed(pfc, "Ethernet24")->counters.at(kSaiPortPfcTxPkts.Name(3)), 0);
  const std::string check = Do(s, {"on leaf0 config qos reload", "run 30ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
  EXPECT_NE(s.Execute("on leaf0 show ecn").find("ecn_all"), std::string::npos);
}

TEST(Lab, EcnOffIsNotFixedByRetuningThresholdsAloneOrShuttingAnUplink) {
  {
    LabSession s = Start("ecn_off");
    // ecnconfig sets a profile's thresholds, not its ECN mode: marking stays off.
    const std::string check =
        Do(s, {"run 2ms", "on leaf0 config ecn -profile AZURE_LOSSLESS -gmin 51200 -gmax 204800", "run 30ms", "check"});
    EXPECT_FALSE(Fixed(check)) << check;
    EXPECT_NE(s.Execute("on leaf0 show ecn").find("green_min_threshold     51200"), std::string::npos);
  }
  LabSession s = Start("ecn_off");
  const std::string check = Do(s, {"run 2ms", "on leaf0 config interface shutdown Ethernet24", "run 30ms", "check"});
  EXPECT_FALSE(Fixed(check)) << check;
}

// RoCE's DSCP 26 mapped to lossy priority 1 on leaf0: its queue counters show RoCE in UC1 and
// drops there, and the map says 26 -> 1.
TEST(Lab, QosDriftIsFoundInTheQueueCountersAndTheMap) {
  LabSession s = Start("qos_drift");
  Do(s, {"run 2ms"});
  const std::vector<PortEvidence> queues = ParseQueueCounters(s.Execute("on leaf0 show queue counters"), "show queue counters");
  double uc1 = 0, uc1_drops = 0;
  for (const PortEvidence& p : queues) {
    uc1 += p.queues.at("UC1").at(kSaiQueuePackets.name);
    uc1_drops += p.queues.at("UC1").at(kSaiQueueDroppedPackets.name);
  }
  EXPECT_GT(uc1, 1000);
  EXPECT_GT(uc1_drops, 100);
  EXPECT_NE(s.Execute("on leaf0 sonic-cfggen -d --var-json DSCP_TO_TC_MAP").find("\"26\": \"1\""), std::string::npos);
  EXPECT_NE(s.Execute("on leaf1 sonic-cfggen -d --var-json DSCP_TO_TC_MAP").find("\"26\": \"3\""), std::string::npos);
  const std::string check = Do(s, {"on leaf0 config qos reload", "run 30ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
}

TEST(Lab, QosDriftIsNotFixedByShuttingAnUplink) {
  LabSession s = Start("qos_drift");
  const std::string check = Do(s, {"run 2ms", "on leaf0 config interface shutdown Ethernet28", "run 30ms", "check"});
  EXPECT_FALSE(Fixed(check)) << check;
  EXPECT_NE(check.find("FAIL  every switch's DSCP map"), std::string::npos) << check;
}

// A bad optic on leaf0-spine1: leaf0's Ethernet28 counts receive errors and no other port does.
TEST(Lab, ABadOpticShowsInTheInterfaceErrorsAndIsShut) {
  LabSession s = Start("bad_optic");
  const std::string counters = Do(s, {"run 2ms", "on leaf0 show interfaces counters"});
  std::vector<std::string> errored;
  for (const TextLine& l : NumberedLines(counters)) {
    const std::vector<std::string> w = Words(l.text);
    // IFACE STATE RX_OK RX_BPS (a figure and its unit) RX_UTIL RX_ERR ...
    if (w.size() == 16 && w[0].rfind("Ethernet", 0) == 0 && w[6] != "0") errored.push_back(w[0]);
  }
  EXPECT_EQ(errored, std::vector<std::string>{"Ethernet28"}) << counters;
  const std::string check = Do(s, {"on leaf0 config interface shutdown Ethernet28", "run 30ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
  EXPECT_NE(s.Execute("on leaf0 show interfaces counters").find("Ethernet28      D"), std::string::npos);
  // startup trains the link again (link_up_time) and it carries frames; a port that is up stays so.
  EXPECT_EQ(s.Execute("on leaf0 config interface startup Ethernet24"), "Ethernet24 on leaf0 is not shut down\n");
  EXPECT_EQ(s.Execute("on leaf0 config interface startup Ethernet28"), "");
  Do(s, {"run 5ms"});
  EXPECT_NE(s.Execute("on leaf0 show interfaces counters").find("Ethernet28      U"), std::string::npos);
}

TEST(Lab, ABadOpticIsNotFixedByShuttingTheGoodUplink) {
  LabSession s = Start("bad_optic");
  const std::string check = Do(s, {"run 2ms", "on leaf0 config interface shutdown Ethernet24", "run 30ms", "check"});
  EXPECT_FALSE(Fixed(check)) << check;
}

// A gray drop counts nowhere. The hosts' probes find it: every path that lost probes crosses
// spine1's two links (with two leaves, every path through spine1 crosses both). The counters of
// each link's two ends say which: what leaf0's Ethernet28 sends, spine1's Ethernet0 does not all
// receive, while neither end counts an error or a drop.
TEST(Lab, AGrayDropIsNarrowedByProbesAndPinnedByTheTwoEndsCounters) {
  LabSession s = Start("gray_drop");
  const std::string mesh = Do(s, {"run 2ms", "pingmesh"});
  size_t lossy = 0;
  ASSERT_EQ(std::sscanf(mesh.c_str(), "probes every 100.000 µs, lost after 500.000 µs: %zu paths lost probes", &lossy), 1) << mesh;
  EXPECT_GT(lossy, 20u) << mesh;
  const size_t table = mesh.find("The links most lossy paths cross:");
  ASSERT_NE(table, std::string::npos) << mesh;
  const std::vector<TextLine> rows = NumberedLines(mesh.substr(table));
  ASSERT_GE(rows.size(), 5u) << mesh;
  const std::string all = std::to_string(lossy) + " of " + std::to_string(lossy);
  std::set<std::string> on_every_lossy_path;
  for (size_t r = 3; r < rows.size(); ++r) {
    const std::vector<std::string> w = Words(rows[r].text);
    if (w.size() >= 6 && w[3] + " " + w[4] + " " + w[5] == all) on_every_lossy_path.insert(w[0] + " " + w[2]);
  }
  EXPECT_EQ(on_every_lossy_path, (std::set<std::string>{"leaf0:Ethernet28 spine1:Ethernet0", "leaf1:Ethernet28 spine1:Ethernet4"}))
      << mesh;
  auto frames = [&](const std::string& device, const std::string& port, int column) {
    for (const TextLine& l : NumberedLines(s.Execute("on " + device + " show interfaces counters"))) {
      const std::vector<std::string> w = Words(l.text);
      if (w.size() == 16 && w[0] == port) {
        std::string digits;
        for (char c : w[column]) if (c != ',') digits += c;
        return std::stod(digits);
      }
    }
    return -1.0;
  };
  // leaf0's Ethernet28 (TX_OK, column 9) against spine1's Ethernet0 (RX_OK, column 2), and the
  // way back; leaf1's link to spine1 delivers what it carries.
  const double sent = frames("leaf0", "Ethernet28", 9), received = frames("spine1", "Ethernet0", 2);
  EXPECT_LT(received, 0.95 * sent) << sent << " " << received;
  EXPECT_GT(received, 0.85 * sent) << sent << " " << received;
  const double back_sent = frames("spine1", "Ethernet0", 9), back_received = frames("leaf0", "Ethernet28", 2);
  EXPECT_LT(back_received, 0.95 * back_sent);
  EXPECT_NEAR(frames("leaf1", "Ethernet28", 9), frames("spine1", "Ethernet4", 2), 50);
  EXPECT_NEAR(frames("leaf0", "Ethernet24", 9), frames("spine0", "Ethernet0", 2), 50);
  for (int error_column : {6, 7, 13, 14}) EXPECT_EQ(frames("leaf0", "Ethernet28", error_column), 0) << error_column;
  // Back at the twin's pace takes a while: the job's queue pairs leave the drop at other rates
  // than the twin's and DCQCN evens them out slowly (docs/labs.md).
  const std::string check = Do(s, {"on leaf0 config interface shutdown Ethernet28", "run 300ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
}

// Shutting leaf0's other uplink puts everything on the link that drops.
TEST(Lab, AGrayDropIsNotFixedByShuttingTheGoodUplink) {
  LabSession s = Start("gray_drop");
  const std::string check = Do(s, {"run 2ms", "on leaf0 config interface shutdown Ethernet24", "run 30ms", "check"});
  EXPECT_FALSE(Fixed(check)) << check;
  EXPECT_NE(check.find("FAIL  every link delivers what is sent into it: spine1:Ethernet0 to leaf0"), std::string::npos) << check;
}

// The xoff of mmuconfig's profile `name` ("pg_lossless_100000_5m_profile"); -1 if it has none.
double ProfileXoff(const std::string& mmuconfig, const std::string& name) {
  const size_t at = mmuconfig.find("Profile: " + name + "\n");
  if (at == std::string::npos) return -1;
  const size_t xoff = mmuconfig.find("xoff", at);
  return xoff == std::string::npos ? -1 : std::stod(mmuconfig.substr(xoff + 4));
}

// The spines moved to a hall 2 km away and leaf0's CABLE_LENGTH still says the 5 m of the old
// copper: bursts into h0 make leaf0 pause its uplinks, and what is in flight on 2 km then
// overflows PG3's headroom. The evidence: PG3 drops on leaf0, mmuconfig's profiles named for a 5 m
// cable on leaf0 and for 2000 m on leaf1, CABLE_LENGTH. The fix SONiC gives: the cable lengths as
// they are (`config interface cable-length`), from which the profile is sized again.
TEST(Lab, ShortHeadroomIsAProfileForTheOldCableAndTheCableLengthFixesIt) {
  LabSession s = Start("headroom");
  const std::string drops = Do(s, {"run 2ms", "on leaf0 show priority-group drop counters"});
  double pg3 = 0;
  for (const TextLine& l : NumberedLines(drops)) {
    const std::vector<std::string> w = Words(l.text);
    if (w.size() == 9 && w[0].rfind("Ethernet", 0) == 0) {
      pg3 += std::stod(w[4]);
      for (int pg : {1, 2, 3, 5, 6, 7, 8}) EXPECT_EQ(w[pg], "0") << l.text;
    }
  }
  EXPECT_GT(pg3, 10) << drops;
  const std::string leaf0 = s.Execute("on leaf0 mmuconfig -l"), leaf1 = s.Execute("on leaf1 mmuconfig -l");
  const double short_xoff = ProfileXoff(leaf0, "pg_lossless_100000_5m_profile");
  const double long_xoff = ProfileXoff(leaf1, "pg_lossless_100000_2000m_profile");
  EXPECT_EQ(ProfileXoff(leaf0, "pg_lossless_100000_2000m_profile"), -1) << leaf0;
  ASSERT_GT(short_xoff, 0) << leaf0;
  EXPECT_GT(long_xoff, 4 * short_xoff) << leaf1;
  const std::string cables = s.Execute("on leaf0 sonic-cfggen -d --var-json CABLE_LENGTH");
  EXPECT_NE(cables.find("\"Ethernet28\": \"5m\""), std::string::npos) << cables;
  EXPECT_NE(s.Execute("on leaf1 sonic-cfggen -d --var-json CABLE_LENGTH").find("\"Ethernet28\": \"2000m\""), std::string::npos);
  // The headroom PG3 used on leaf0's uplinks filled the profile's xoff but for less than a frame
  // (4 KB and its cells): the frame that did not fit was dropped.
  double headroom_used = 0;
  for (const TextLine& l : NumberedLines(s.Execute("on leaf0 show priority-group watermark headroom"))) {
    const std::vector<std::string> w = Words(l.text);
    if (w.size() == 9 && w[0] == "Ethernet28") {
      std::string digits;
      for (char c : w[4]) if (c != ',') digits += c;
      headroom_used = std::stod(digits);
    }
  }
  EXPECT_GE(headroom_used, short_xoff - 4608);
  EXPECT_LE(headroom_used, short_xoff);
  EXPECT_FALSE(Fixed(s.Execute("check")));
  for (const char* bad : {"config interface cable-length Ethernet28", "config interface cable-length Ethernet28 far",
                          "config interface cable-length Ethernet28 0m"})
    EXPECT_EQ(s.Execute(std::string("on leaf0 ") + bad).rfind("usage: ", 0), 0u) << bad;
  EXPECT_EQ(s.Execute("on leaf0 config interface cable-length Ethernet99 2000m"), "no port Ethernet99 on leaf0\n");
  const std::string check = Do(s, {"on leaf0 config interface cable-length Ethernet24 2000m",
                                   "on leaf0 config interface cable-length Ethernet28 2000m", "run 30ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
  EXPECT_EQ(ProfileXoff(s.Execute("on leaf0 mmuconfig -l"), "pg_lossless_100000_2000m_profile"), long_xoff);
}

// `config qos reload` puts the configuration back as a whole: the profiles sized for the cables
// the scenario has.
TEST(Lab, ShortHeadroomIsFixedByReloadingTheQosConfiguration) {
  LabSession s = Start("headroom");
  const std::string check = Do(s, {"run 2ms", "on leaf0 config qos reload", "run 30ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
  EXPECT_NE(s.Execute("on leaf0 sonic-cfggen -d --var-json CABLE_LENGTH").find("\"Ethernet28\": \"2000m\""), std::string::npos);
}

TEST(Lab, ShortHeadroomIsNotFixedByLoweringTheEcnThresholds) {
  LabSession s = Start("headroom");
  const std::string check =
      Do(s, {"run 2ms", "on leaf0 config ecn -profile AZURE_LOSSLESS -gmin 20000 -gmax 80000", "run 30ms", "check"});
  EXPECT_FALSE(Fixed(check)) << check;
}

// A route change points spine0 and leaf1 at each other for h0: the routing tables show the static
// routes, the PFC watchdog keeps finding spine0's port to leaf1 stormed, and the job stands still.
TEST(Lab, ADeadlockIsTracedToStaticRoutesAndFixedByRemovingThem) {
  LabSession s = Start("deadlock");
  EXPECT_NE(s.Execute("run 2ms").find("finished 0 iterations"), std::string::npos);
  const std::string spine0 = s.Execute("on spine0 show ip route");
  EXPECT_NE(spine0.find("S>* 10.0.0.0/32 [1/0] via leaf1, Ethernet4 (h0)"), std::string::npos) << spine0;
  EXPECT_NE(s.Execute("on leaf1 show ip route").find("S>* 10.0.0.0/32 [1/0] via spine0, Ethernet24 (h0)"), std::string::npos);
  EXPECT_NE(s.Execute("on leaf0 show ip route").find("C>* 10.0.0.0/32 is directly connected, Ethernet0 (h0)"), std::string::npos);
  const std::vector<WatchdogQueue> wd = ParsePfcwdStats(s.Execute("on spine0 show pfcwd stats"), "show pfcwd stats");
  ASSERT_FALSE(wd.empty());
  EXPECT_EQ(wd[0].port, "Ethernet4");
  EXPECT_GE(wd[0].storms_detected, 1);
  EXPECT_EQ(s.Execute("on leaf0 config route del prefix 10.0.0.0/32"), "no static route to 10.0.0.0/32 on leaf0\n");
  const std::string check =
      Do(s, {"on spine0 config route del prefix 10.0.0.0/32", "on spine1 config route del prefix 10.0.0.0/32",
             "on leaf1 config route del prefix 10.0.0.0/32", "run 60ms", "check"});
  EXPECT_TRUE(Fixed(check)) << check;
  // Back to the fabric's own routes: ECMP over both spines from leaf1.
  const std::string leaf1 = s.Execute("on leaf1 show ip route");
  EXPECT_NE(leaf1.find("B>* 10.0.0.0/32 [20/0] via spine0, Ethernet24 (h0)\n  *"), std::string::npos) << leaf1;
}

TEST(Lab, ADeadlockIsNotFixedByShuttingAPortOfTheLoop) {
  LabSession s = Start("deadlock");
  const std::string check = Do(s, {"run 2ms", "on leaf1 config interface shutdown Ethernet24", "run 60ms", "check"});
  EXPECT_FALSE(Fixed(check)) << check;
  EXPECT_NE(check.find("FAIL  no static route that no configuration asks for"), std::string::npos) << check;
}

// Probing: with the hosts' probes on (a scenario's monitor.probes), `pingmesh` lists the paths that
// lost probes and the links they share; a blackholed link is on every lossy path.
TEST(Lab, PingmeshNamesTheLinkEveryLossyPathCrosses) {
  const std::string path = std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/blackhole.yaml";
  LabSession s(LabOfScenario(path, ReadFile(path)));
  const std::string mesh = Do(s, {"run 2ms", "pingmesh"});
  size_t lossy = 0;
  ASSERT_EQ(std::sscanf(mesh.c_str(), "probes every 100.000 µs, lost after 500.000 µs: %zu paths lost probes", &lossy), 1) << mesh;
  EXPECT_GT(lossy, 50u);
  // The first of the links the lossy paths share is the blackholed one, on all of them.
  const size_t table = mesh.find("The links most lossy paths cross:");
  ASSERT_NE(table, std::string::npos) << mesh;
  const std::vector<TextLine> rows = NumberedLines(mesh.substr(table));
  ASSERT_GE(rows.size(), 4u);
  const std::vector<std::string> first = Words(rows[3].text);
  ASSERT_GE(first.size(), 6u) << rows[3].text;
  EXPECT_EQ(first[0] + " " + first[2], "leaf0:Ethernet20 spine1:Ethernet0") << mesh;
  EXPECT_EQ(first[3] + " " + first[4] + " " + first[5], std::to_string(lossy) + " of " + std::to_string(lossy)) << mesh;
  EXPECT_EQ(Start("ecn_off").Execute("pingmesh"), "no probing in this fabric (monitor.probes is off)\n");
}

// What a host prints reads as the real tools' output: the parsers diagnose uses give back the
// counters the device block holds.
TEST(Lab, HostViewsParseAsTheRealTools) {
  LabSession s = Start("ecn_off");
  Do(s, {"run 1ms"});
  const CounterMap ethtool = ParseCounterList(s.Execute("on h2 ethtool -S eth0"), "ethtool -S");
  EXPECT_GT(ethtool.at("rx_packets_phy"), 1000);
  const std::vector<PortEvidence> rdma = ParseRdmaStatistic(s.Execute("on h2 rdma statistic"), "rdma statistic");
  ASSERT_EQ(rdma.size(), 1u);
  EXPECT_EQ(rdma[0].port, "mlx5_0/1");
  EXPECT_EQ(std::to_string(static_cast<long long>(rdma[0].counters.at("np_cnp_sent"))) + "\n",
            s.Execute("on h2 cat /sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent"));
  PortEvidence qos;
  ParseMlnxQos(s.Execute("on h2 mlnx_qos -i eth0"), "mlnx_qos", &qos);
  EXPECT_EQ(qos.trust, "dscp");
  ASSERT_TRUE(qos.pfc_enabled.has_value());
  EXPECT_TRUE((*qos.pfc_enabled)[3]);
  EXPECT_FALSE((*qos.pfc_enabled)[0]);
  ASSERT_TRUE(qos.dscp_to_priority.has_value());
  EXPECT_EQ((*qos.dscp_to_priority)[26], 3);
  EXPECT_EQ((*qos.dscp_to_priority)[48], 6);
  EXPECT_EQ(s.Execute("on h2 cat /sys/class/net/eth0/ecn/roce_rp/enable/3"), "1\n");
  EXPECT_EQ(s.Execute("on h2 echo 0 > /sys/class/net/eth0/ecn/roce_rp/enable/3"), "");
  EXPECT_EQ(s.Execute("on h2 cat /sys/class/net/eth0/ecn/roce_rp/enable/3"), "0\n");
}

// mlnx_qos sets what it shows, in simulated time, on the running fabric. PFC taken off the slow
// receiver's priority (the wrong fix: it trades the pause for loss) stops its pause at once and
// its NIC discards what it cannot take; trust pcp is shown as set. A bad list changes nothing.
TEST(Lab, MlnxQosSetsTheNicsPfcAndTrust) {
  LabSession s = Start("slow_receiver");
  Do(s, {"run 4ms"});
  const CounterMap before = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  ASSERT_GT(before.at("tx_prio3_pause"), 10) << "the slow receiver pauses its switch";
  for (const char* bad : {"--pfc 0,0,0,1", "--pfc 0,0,0,2,0,0,0,0", "--trust none", "--pfc", "-x eth0"})
    EXPECT_EQ(s.Execute(std::string("on h0 mlnx_qos -i eth0 ") + bad).rfind("usage: ", 0), 0u) << bad;
  PortEvidence qos;
  ParseMlnxQos(s.Execute("on h0 mlnx_qos -i eth0 --pfc 0,0,0,0,0,0,0,0 --trust pcp"), "mlnx_qos", &qos);
  EXPECT_EQ(qos.trust, "pcp");
  ASSERT_TRUE(qos.pfc_enabled.has_value());
  EXPECT_FALSE((*qos.pfc_enabled)[3]);
  // The traffic still reaches it on priority 3 (the switch writes the PCP from its DSCP map).
  const CounterMap off = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  Do(s, {"run 2ms"});
  const CounterMap after = ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S");
  EXPECT_EQ(after.at("tx_prio3_pause"), off.at("tx_prio3_pause")) << "no pause from a priority PFC is off on";
  EXPECT_GT(after.at("rx_prio3_discards"), off.at("rx_prio3_discards")) << "what it cannot take is discarded";
  ParseMlnxQos(s.Execute("on h0 mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0 --trust dscp"), "mlnx_qos", &qos);
  EXPECT_TRUE((*qos.pfc_enabled)[3]);
  Do(s, {"run 2ms"});
  EXPECT_GT(ParseCounterList(s.Execute("on h0 ethtool -S eth0"), "ethtool -S").at("tx_prio3_pause"), after.at("tx_prio3_pause"))
      << "PFC back on: it pauses again";
}

// DCQCN's parameters read and written as the mlx5 driver's sysfs files, in its units, on the
// running fabric: with rpg_min_dec_fac 100 (a cut keeps all of the rate) the storage senders
// into the slow receiver no longer slow down at their CNPs, and send more than with the defaults.
TEST(Lab, DcqcnParametersAreTheDriversFiles) {
  const std::string rp = "/sys/class/net/eth0/ecn/roce_rp/";
  LabSession defaults = Start("slow_receiver"), uncut = Start("slow_receiver");
  EXPECT_EQ(uncut.Execute("on h4 cat " + rp + "rpg_ai_rate"), "5\n");
  EXPECT_EQ(uncut.Execute("on h4 cat " + rp + "rpg_byte_reset"), "32767\n");
  EXPECT_EQ(uncut.Execute("on h4 cat /sys/class/net/eth0/ecn/roce_np/min_time_between_cnps"), "2\n");
  EXPECT_EQ(uncut.Execute("on h4 cat " + rp + "rpg_nothing"), "cat: " + rp + "rpg_nothing: No such file or directory\n");
  for (const char* bad : {"101", "-1", "5.5", "x"})
    EXPECT_EQ(uncut.Execute(std::string("on h4 echo ") + bad + " > " + rp + "rpg_min_dec_fac").rfind("echo: write error: Invalid argument", 0), 0u) << bad;
  EXPECT_EQ(uncut.Execute("on h4 cat " + rp + "rpg_min_dec_fac"), "50\n") << "a refused write changes nothing";
  for (const char* h : {"h4", "h5", "h10", "h11"}) EXPECT_EQ(uncut.Execute(std::string("on ") + h + " echo 100 > " + rp + "rpg_min_dec_fac"), "");
  EXPECT_EQ(uncut.Execute("on h4 cat " + rp + "rpg_min_dec_fac"), "100\n");
  Do(defaults, {"run 4ms"});
  Do(uncut, {"run 4ms"});
  double sent_defaults = 0, sent_uncut = 0;
  for (const char* h : {"h4", "h5", "h10", "h11"}) {
    sent_defaults += ParseCounterList(defaults.Execute(std::string("on ") + h + " ethtool -S eth0"), "ethtool -S").at("tx_bytes_phy");
    sent_uncut += ParseCounterList(uncut.Execute(std::string("on ") + h + " ethtool -S eth0"), "ethtool -S").at("tx_bytes_phy");
  }
  EXPECT_GT(sent_uncut, 1.1 * sent_defaults);
}

// The tables are SONiC's: every column right-aligned under its dashes, two spaces apart.
TEST(Lab, TablesAreTabulatesSimpleFormat) {
  EXPECT_EQ(Tabulate({"QUEUE", "STATUS"}, {{"Ethernet4:3", "stormed"}}),
            "      QUEUE   STATUS\n-----------  -------\nEthernet4:3  stormed\n");
  EXPECT_EQ(Thousands(16254949855200.0), "16,254,949,855,200");
  EXPECT_EQ(Thousands(0), "0");
}

// A malformed command gets one line saying how it goes, and the fabric is where it was.
TEST(Lab, MalformedCommandsGetOneLineAndChangeNothing) {
  LabSession s = Start("ecn_off");
  const std::string time = s.Execute("time");
  for (const std::string& bad : std::vector<std::string>{"run", "run fast", "run -1ms", "on", "on nosuch show ecn", "frobnicate", "on leaf0 show", "on leaf0 show nothing",
        "on leaf0 config interface shutdown", "on leaf0 config interface shutdown Ethernet999", "on leaf0 config ecn",
        "on leaf0 config ecn -profile AZURE_LOSSLESS -gmin", "on leaf0 config ecn -profile X -gmin 1", "on leaf0 config pfcwd start",
        "on leaf0 config pfcwd start ports all detection-time 5", "on leaf0 ethtool -S eth0", "on h0 show ecn", "on h0 ethtool",
        "on h0 ethtool -S eth9", "on h0 cat /etc/passwd", "on h0 echo 2 > /sys/class/net/eth0/ecn/roce_rp/enable/3",
        "on h0 mlnx_qos", "timeline some", "check now", "review please", "diagnose x", "pace", "pace -1", "pace 2",
        "pause", "resume now", std::string(5000, 'x')}) {
    const std::string out = s.Execute(bad);
    EXPECT_EQ(Occurrences(out, "\n"), 1u) << bad << " -> " << out;
    EXPECT_FALSE(out.empty()) << bad;
  }
  EXPECT_EQ(s.Execute("time"), time);
  EXPECT_EQ(s.Execute(""), "");
  EXPECT_NE(s.Execute("run 1ms").find("now 11.000 ms"), std::string::npos);
}

// At a pace, wall time moves the fabric; paused, it does not.
TEST(Lab, AtAPaceTheFabricRunsOnItsOwnUntilPaused) {
  LabSession s = Start("ecn_off");
  EXPECT_FALSE(s.Tick(1.0));  // no pace: only `run` moves time
  EXPECT_EQ(s.Execute("pace 0.001"), "");
  EXPECT_TRUE(s.Tick(1.0));
  EXPECT_EQ(s.Prompt(), "lab 11.000 ms> ");
  EXPECT_EQ(s.Execute("pause"), "paused at 11.000 ms\n");
  EXPECT_FALSE(s.Tick(1.0));
  EXPECT_EQ(s.Prompt(), "lab 11.000 ms> ");
  s.Execute("resume");
  for (int i = 0; i < 10; ++i) s.Tick(0.1);
  EXPECT_EQ(s.Prompt(), "lab 12.000 ms> ");
}

TEST(Lab, CompletesCommandsDevicesAndPorts) {
  LabSession s = Start("ecn_off");
  EXPECT_EQ(s.Complete("sh"), std::vector<std::string>{"show"});
  EXPECT_EQ(s.Complete("on le"), (std::vector<std::string>{"leaf0", "leaf1"}));
  const std::vector<std::string> ports = s.Complete("on leaf0 config interface shutdown Ethernet2");
  EXPECT_EQ(ports, (std::vector<std::string>{"Ethernet20", "Ethernet24", "Ethernet28"}));
  EXPECT_EQ(s.Complete("on spine1 show pfcw"), std::vector<std::string>{"pfcwd"});
}

TEST(LabCli, ListStartAndRefusals) {
  const CommandResult list = Rocelab("lab list");
  EXPECT_EQ(list.status, 0);
  for (const Lab& l : Labs()) EXPECT_NE(list.output.find(l.name), std::string::npos) << l.name;
  const CommandResult nope = Rocelab("lab start nosuch");
  EXPECT_EQ(nope.status, 2);
  EXPECT_NE(nope.output.find("no lab named 'nosuch'"), std::string::npos) << nope.output;
  EXPECT_EQ(Rocelab("lab start ecn_off --commands /nonexistent/cmds").status, 2);
  EXPECT_EQ(Rocelab("lab start").status, 2);
  const std::string dir = TempDir("lab");
  WriteFile(dir + "/bad.yaml", "name: x\nduration: 10ms\ntopology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 2}\n"
                               "workload:\n  - {type: allreduce, hosts: [h0, h2], size: 1XB}\n");
  const CommandResult bad = Rocelab("lab start --scenario " + dir + "/bad.yaml --commands /dev/null");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find(dir + "/bad.yaml:5:"), std::string::npos) << bad.output;
  // A transcript: the prompt, the command echoed, its output.
  const CommandResult t = Shell("printf 'run 1ms\\non leaf0\\nshow ecn\\nquit\\n' | " + std::string(ROCELAB_BINARY) +
                                " lab start ecn_off --commands -");
  EXPECT_EQ(t.status, 0) << t.output;
  EXPECT_NE(t.output.find("lab 10.000 ms> run 1ms\nran 1.000 ms: now 11.000 ms"), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("leaf0 11.000 ms> show ecn\nProfile: AZURE_LOSSLESS"), std::string::npos) << t.output;
}

}  // namespace
}  // namespace rocelab

namespace rocelab {
namespace {

// A real terminal: the lab under tmux, keys sent as a person types them, the screen read back.
class Tmux {
 public:
  Tmux() : socket_("rocelab-lab-" + std::to_string(::getpid())) {}
  ~Tmux() { Shell(Cmd("kill-server")); }
  std::string Cmd(const std::string& args) const { return "tmux -L " + socket_ + " " + args; }
  CommandResult Start(const std::string& command) const {
    return Shell(Cmd("new-session -d -s lab -x 160 -y 50 '" + command + "'"));
  }
  void Keys(const std::string& keys) const { Shell(Cmd("send-keys -t lab " + keys)); }
  std::string Screen() const { return Shell(Cmd("capture-pane -p -t lab -S -200")).output; }
  // Waits up to 20 s until the screen holds `text` `times` times (capture-pane drops the spaces
  // that end a line).
  bool WaitFor(const std::string& text, size_t times = 1) const {
    for (int i = 0; i < 200; ++i) {
      if (Occurrences(Screen(), text) >= times) return true;
      ::usleep(100000);
    }
    return false;
  }
  bool Running() const { return Shell(Cmd("has-session -t lab")).status == 0; }

 private:
  std::string socket_;
};

TEST(LabTerminal, PromptLineEditingHistoryAndCompletion) {
  ASSERT_EQ(Shell("command -v tmux").status, 0) << "tmux is missing (scripts/setup.sh installs it)";
  Tmux t;
  ASSERT_EQ(t.Start(std::string(ROCELAB_BINARY) + " lab start ecn_off").status, 0);
  ASSERT_TRUE(t.WaitFor("lab 10.000 ms>")) << t.Screen();
  // Tab completes the common prefix of the devices, a second Tab lists them.
  t.Keys("'on le' Tab");
  ASSERT_TRUE(t.WaitFor("lab 10.000 ms> on leaf")) << t.Screen();
  t.Keys("Tab");
  ASSERT_TRUE(t.WaitFor("leaf0  leaf1")) << t.Screen();
  t.Keys("0 Enter");
  ASSERT_TRUE(t.WaitFor("leaf0 10.000 ms>")) << t.Screen();
  // One match: completed with a space after it.
  t.Keys("'show ec' Tab Enter");
  ASSERT_TRUE(t.WaitFor("Profile: AZURE_LOSSLESS")) << t.Screen();
  // Backspace mends a typo.
  t.Keys("'run 1mx' BSpace s Enter");
  ASSERT_TRUE(t.WaitFor("ran 1.000 ms: now 11.000 ms")) << t.Screen();
  // Up twice: the command before the last, run again.
  t.Keys("Up Up Enter");
  ASSERT_TRUE(t.WaitFor("Profile: AZURE_LOSSLESS", 2)) << t.Screen();
  // The cursor moves: a letter typed in the middle of the line.
  t.Keys("tme Left Left i Enter");
  ASSERT_TRUE(t.WaitFor("11.000 ms into the run")) << t.Screen();
  // Ctrl-C abandons a line; a malformed command gets its usage and the shell goes on.
  t.Keys("'run nowhere' C-c 'run x' Enter");
  ASSERT_TRUE(t.WaitFor("usage: run DURATION")) << t.Screen();
  EXPECT_EQ(Occurrences(t.Screen(), "usage: run DURATION"), 1u) << t.Screen();
  // At a pace the prompt's time moves while nobody types; `pause` holds it.
  t.Keys("'pace 0.002' Enter");
  ASSERT_TRUE(t.WaitFor("leaf0 12.")) << t.Screen();
  t.Keys("pause Enter");
  ASSERT_TRUE(t.WaitFor("paused at")) << t.Screen();
  const std::string paused = t.Screen();
  ::usleep(500000);
  EXPECT_EQ(t.Screen(), paused);
  // Ctrl-D on an empty line leaves.
  t.Keys("C-d");
  for (int i = 0; i < 100 && t.Running(); ++i) ::usleep(100000);
  EXPECT_FALSE(t.Running());
}

}  // namespace
}  // namespace rocelab
