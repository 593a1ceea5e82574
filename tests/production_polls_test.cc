// The shipped fault scenarios as production runs them (scripts/at-production.py, which
// scripts/fault-table.sh --production runs): the monitor at the switches' counter polls with a
// scrape every 1 s, the queue pairs' timeouts NCCL's, at the scenarios' timers x 0.01. What the lifecycle concludes there must hold as it does
// at live reads: the fault found, the right action taken, recovery no worse than none.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "file_util.h"
#include "run/lifecycle.h"
#include "test_util.h"

namespace rocelab {
namespace {

// scenarios/faults/<name>.yaml as scripts/at-production.py makes it, its story `times` times over.
std::string AtProductionPolls(const std::string& name, int times, const std::string& recovery) {
  const CommandResult r = Shell("python3 " + std::string(ROCELAB_SOURCE_DIR) + "/scripts/at-production.py " +
                                ROCELAB_SOURCE_DIR + "/scenarios/faults/" + name + ".yaml --times " +
                                std::to_string(times) + " --recovery " + recovery);
  EXPECT_EQ(r.status, 0) << r.output;
  return r.output;
}

std::vector<std::string> ActionKinds(const Experiment& x) {
  std::vector<std::string> kinds;
  for (const Recovery::Action& a : x.FaultActions(0)) kinds.push_back(a.kind);
  return kinds;
}

bool Has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

// At a 1 s scrape h0's first window mixes what it took in before its pipeline stuck with the
// storm, and reads as a slow receiver: its pause is ignored and what it cannot take is forwarded
// to its NIC. The next window shows it drains nothing: what goes to it is then dropped at its port,
// and since its senders get no CNPs and go on at line rate, it is isolated. The flows into h0 are
// the storm's own, never victims; the ring loses what it lost at live reads (8 ms), not a quarter
// of the run as when h0 stayed ignored with its senders flooding the fabric (257 ms of 400).
TEST(ProductionPolls, AStormFirstReadAsASlowReceiverIsDroppedThenIsolated) {
  TestRun f = RunYaml(AtProductionPolls("pfc_storm", 2, "auto"));
  const std::vector<std::string> kinds = ActionKinds(*f.run);
  EXPECT_TRUE(Has(kinds, "ignore_pause_forward"));
  EXPECT_TRUE(Has(kinds, "ignore_pause_drop")) << "the storm's reading must replace the slow receiver's";
  EXPECT_TRUE(Has(kinds, "isolate_host"));
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  for (const VictimFlow& v : lc[0].victims) EXPECT_NE(v.dst, "h0") << "flow " << v.id << " goes to the stormed host";
  EXPECT_LT(lc[0].lost, 20 * kMillisecond);
}

// A route change that sends lossless traffic back the way it came deadlocks leaf1 and spine0; the
// switches' PFC watchdogs (200 ms) break the cycle long before a 1 s scrape could see it held, so
// the monitor never names the deadlock, only the storm the watchdog found between two switches.
// That storm is the deadlock's sign: the static routes no configuration asks for are rolled back,
// and the ring, which with the routes left in place re-deadlocks until its queue pairs fail (NCCL's
// 34 s), goes on.
TEST(ProductionPolls, AWatchdogStormBetweenSwitchesRollsBackTheLoopingRoutes) {
  TestRun f = RunYaml(AtProductionPolls("route_change", 4, "auto"));
  const std::vector<std::string> kinds = ActionKinds(*f.run);
  EXPECT_TRUE(Has(kinds, "rollback_routes"));
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  ASSERT_FALSE(lc[0].jobs.empty());
  EXPECT_FALSE(lc[0].jobs[0].stopped);
  EXPECT_GE(lc[0].workloads_recovered, 0) << "the ring comes back";
  // A host's storm trips watchdogs between switches too, and there no route is stray: nothing rolled.
  TestRun storm = RunYaml(AtProductionPolls("pfc_storm", 1, "auto"));
  EXPECT_FALSE(Has(ActionKinds(*storm.run), "rollback_routes"));
}

// Recovered means back, judged against the run without the fault at the same moments. After ECN
// is rolled back on leaf0 the ring is behind that run for good (it lost time before the action),
// so each of its iterations meets the recurring incast at another phase than the same-numbered
// iteration there did, and each incast's flows meet another phase of the ring. Judged number by
// number, one of them always falls short and the fault "recovers" at the end of the run; judged
// by the ring's progress over its last five iterations against that run's over the same stretch,
// and by what the fabric delivered while a flow begun after the action ran, it is back once the
// first incast, the one the fault met, is done.
TEST(ProductionPolls, BackIsJudgedAtTheSameMomentsNotByIterationNumber) {
  TestRun f = RunYaml(AtProductionPolls("ecn_off", 4, "auto"));
  const std::vector<Recovery::Action> actions = f.run->FaultActions(0);
  ASSERT_FALSE(actions.empty());
  EXPECT_EQ(actions.back().kind, "rollback_ecn");
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  ASSERT_GE(lc[0].workloads_recovered, 0);
  // The first incast, cut by DCQCN once leaf0 marks again, finishes at about 45 ms; the ring is
  // back before that. Judged number by number it was "back" only near the end of the run.
  EXPECT_LT(lc[0].workloads_recovered, 50 * kMillisecond);
  EXPECT_GT(lc[0].lost, 0) << "it lost time before the rollback";
}

// What a workload allreduce recovered at (-1: not by the end).
Time RecoveredAt(const FaultLifecycle& lc, const std::string& workload) {
  for (const WorkloadRecovery& w : lc.workloads)
    if (w.workload == workload) return w.recovered;
  ADD_FAILURE() << "no " << workload;
  return -1;
}

// A tenth of the frames on leaf0's uplink to spine1 vanish. At a 1 s scrape each end of the link
// is polled at its own moment, and a window's allowance for what the link carries between the two
// reads hides the loss: the hosts' sequence errors said there was loss, not where, nothing was
// done and the ring made no iteration in the run. The two ends' ledgers over many polls prove the
// loss within seconds: the link is named and shut, and the ring runs on the other uplinks.
TEST(ProductionPolls, AGrayDropIsProvenByTheLinksTwoEndsOverManyPolls) {
  TestRun f = RunYaml(AtProductionPolls("gray_drop", 5, "auto"));
  const Monitor::Detection* where = f.run->FaultLocalization(0);
  ASSERT_NE(where, nullptr);
  EXPECT_EQ(where->rule, "network.gray_drop");
  EXPECT_EQ(where->location, "leaf0:Ethernet28 facing spine1");
  EXPECT_LT(where->t, 100 * kMillisecond) << "10 s of production";
  EXPECT_TRUE(Has(ActionKinds(*f.run), "shut_link"));
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  TestRun off = RunYaml(AtProductionPolls("gray_drop", 5, "off"));
  const std::vector<FaultLifecycle> lc_off = ComputeLifecycle(*off.run);
  ASSERT_EQ(lc_off.size(), 1u);
  EXPECT_LT(lc[0].lost, 0.8 * lc_off[0].lost) << "shutting the link must win back time";
}

// The flap's link shut, the ring shares the one uplink left with the recurring incast; it is held
// to the capacity run (the link down from the start) over the same stretch of time, not iteration
// by iteration: which of the two gets more of that uplink is congestion control's to settle and
// depends on the history, so an iteration slower than that run's slowest beside the same flows
// is no recovery left undone while the fabric as a whole carries what it can. Judged iteration by
// iteration, the ring "came back" only near the end of the run (512 ms of 600).
TEST(ProductionPolls, ARingOnFewerLinksIsBackOnceTheFabricCarriesWhatItCan) {
  TestRun f = RunYaml(AtProductionPolls("link_flap", 10, "auto"));
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  ASSERT_NE(f.run->capacity(), nullptr) << "the shut link is down at the end";
  const Time back = RecoveredAt(lc[0], "allreduce 0");
  ASSERT_GE(back, 0);
  EXPECT_LT(back, 100 * kMillisecond);
}

// leaf0's headroom rolled back at the first scrape, the ring is behind the run without the fault
// for good and meets each recurring incast at another phase; one iteration that meets an incast's
// start (35 % slower than that run's at the same number) is noise over ten iterations' progress,
// not over five: back after the first incast (69 ms), not at the ninth (326 ms of 400).
TEST(ProductionPolls, OneIterationMeetingAnIncastIsNotARecoveryUndone) {
  TestRun f = RunYaml(AtProductionPolls("headroom", 10, "auto"));
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  const Time back = RecoveredAt(lc[0], "allreduce 0");
  ASSERT_GE(back, 0);
  EXPECT_LT(back, 150 * kMillisecond);
}

// A port's discards are polled every second, its priority groups' drops every ten: a burst of
// headroom drops shows in IF_IN_DISCARDS a poll before PG_DROP has it. Read in one window as "frames
// discarded at ingress, not for buffer", it named a routing loop in a fabric with none (a slow
// receiver's tree overflowing a spine's headroom). The two are compared only over a port span that
// lies within the groups' span. Once recovery has isolated h0, what its senders still send to it
// is discarded at their first hop for want of a route: those discards are real, at the ports
// facing them, and the action's.
TEST(ProductionPolls, HeadroomDropsPolledApartAreNoIngressDiscards) {
  TestRun f = RunYaml(AtProductionPolls("slow_receiver", 10, "auto"));
  bool headroom = false;
  const std::set<std::string> senders = {"h4", "h5", "h10", "h11"};
  for (const Monitor::Detection& d : f.run->monitor()->detections()) {
    headroom = headroom || d.rule == "drop.lossless_pg_headroom";
    if (d.rule != "drop.ingress_discard") continue;
    const size_t facing = d.location.find(" facing ");
    const bool at_a_sender = facing != std::string::npos && senders.count(d.location.substr(facing + 8));
    EXPECT_TRUE(at_a_sender && d.caused_by.find("for want of a route to it: the recovery isolated it") != std::string::npos)
        << d.location << " at " << d.t << ": " << d.caused_by;
  }
  EXPECT_TRUE(headroom) << "the spine's headroom overflowed: the case this is about";
}

}  // namespace rocelab
