// A fault's lifecycle on the response ladder: healthy fabrics under load make
// no detection above T1 and no action (a 16 -> 1 incast, a trace at 70 % load,
// an AllReduce with a slow rank); pause is traced to a storm, a slow receiver or
// a hot spot; and each ready scenario of scenarios/faults/ is detected by its
// rule at its target, recovered with `recovery: {mode: auto}` (the symptom stops,
// no lossless byte lost but what an action dropped), and left alone with `off`.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "test_util.h"
#include "topo/topology.h"
#include "workload/allreduce.h"

namespace rocelab {
namespace {

// No detection above T1 and no recovery action; returns how many T1 detections were recorded.
size_t ExpectNothingAboveT1(const TestRun& f) {
  size_t congestion = 0;
  for (const Monitor::Detection& d : f.run->monitor()->detections()) {
    EXPECT_EQ(d.tier, "T1") << d.rule << " at " << d.location << ": " << d.title;
    congestion += d.tier == "T1";
  }
  EXPECT_TRUE(Events(*f, "detected").empty());
  EXPECT_TRUE(Events(*f, "recovery_action").empty());
  EXPECT_EQ(Events(*f, "congestion").size(), congestion);
  // The hosts probe each other all along: in a lossless fabric, however loaded, none is lost.
  double judged = 0, lost = 0;
  if (const Pingmesh* pm = f.run->pingmesh())
    for (const ProbePath& p : pm->paths()) {
      judged += p.judged;
      lost += p.lost;
    }
  EXPECT_GT(judged, 100) << "probed";
  EXPECT_EQ(lost, 0);
  return congestion;
}

// --- no false positives ------------------------------------------------------------------------

// A 16 -> 1 incast under the mlx5 DCQCN profile pauses its senders most of some windows (a few
// 100 % of one): congestion, traced to leaf0's port toward h0, whose queue marks ECN while CNPs
// flow. Recorded as T1 at every window length, acted on at none.
TEST(FalsePositives, HealthyIncast16To1IsCongestionNotAFault) {
  for (const char* window : {"100us", "1ms", "5ms"}) {
    SCOPED_TRACE(window);
    TestRun f = RunYaml("duration: 20ms\nmonitor: {refresh: instant, interval: " + std::string(window) +
                        ", probes: {}}\nrecovery: {mode: auto}\n"
                        "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 17}\n"
                        "workload:\n" + FlowsTo(1, 16, "h0", "8MB"));
    for (const QueuePair& qp : f->qps()) EXPECT_TRUE(qp.done) << "flow " << qp.id;
    EXPECT_GT(ComputeTotals(*f).pause_frames_tx, 0u) << "the incast pauses";
    const size_t congestion = ExpectNothingAboveT1(f);
    if (std::string(window) != "5ms") {
      EXPECT_GT(congestion, 0u) << "the pausing is recorded, as congestion";
    }
  }
}

// The same across a spine (16 senders on two leaves): the pause passes through the spines to
// the hot spot at leaf0, which is where the tree is named.
TEST(FalsePositives, HealthyIncastAcrossTheSpinesIsCongestionNotAFault) {
  std::string yaml = "duration: 20ms\nmonitor: {refresh: instant, interval: 1ms, probes: {}}\nrecovery: {mode: auto}\n"
                     "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 9}\nworkload:\n";
  yaml += FlowsTo(1, 8, "h0", "8MB") + FlowsTo(10, 17, "h0", "8MB");
  TestRun f = RunYaml(yaml);
  EXPECT_GT(ExpectNothingAboveT1(f), 0u);
  bool tree = false;
  for (const Monitor::Detection& d : f.run->monitor()->detections())
    if (d.rule == "pfc.congestion_tree") {
      tree = true;
      EXPECT_EQ(d.location, "leaf0:Ethernet0 facing h0");
    }
  EXPECT_TRUE(tree);
}

// WebSearch flow sizes at 70 % load on a k = 4 fat-tree.
TEST(FalsePositives, TraceAt70PercentLoad) {
  TestRun f = RunYaml("duration: 8ms\nseed: 3\nmonitor: {refresh: instant, interval: 500us, probes: {}}\nrecovery: {mode: auto}\n"
                      "topology: {type: fat-tree, k: 4, link: {rate: 100G, delay: 1us}}\n"
                      "workload:\n  - {type: trace, cdf: " + std::string(ROCELAB_SHARED_DATA) +
                      "/cdf/WebSearch_distribution.txt, load: 0.7, duration: 6ms}\n");
  EXPECT_GT(f->qps().size(), 300u);
  EXPECT_GT(ComputeTotals(*f).ecn_marked, 0u) << "loaded enough to mark";
  ExpectNothingAboveT1(f);
}

// One rank of the ring computes 2 ms instead of 200 us: the ring waits for it each iteration,
// and the network has nothing to do with it.
TEST(FalsePositives, AllreduceWithOneSlowRank) {
  auto ring = [](const std::string& straggler) {
    return "duration: 40ms\nmonitor: {refresh: instant, interval: 1ms, probes: {}}\nrecovery: {mode: auto}\n"
           "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4,\n"
           "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}\n"
           "workload:\n  - {type: allreduce, hosts: [h0, h4, h1, h5, h2, h6, h3, h7], size: 8MB, iterations: 4, "
           "compute: 200us" + straggler + "}\n";
  };
  TestRun slow = RunYaml(ring(", straggler: h5, straggler_compute: 2ms"));
  TestRun even = RunYaml(ring(""));
  auto mean = [](const TestRun& r) {
    const auto& t = static_cast<const AllreduceDriver&>(*r.run->drivers()[0]).iteration_times();
    EXPECT_EQ(t.size(), 4u);
    double sum = 0;
    for (Time x : t) sum += static_cast<double>(x);
    return sum / static_cast<double>(t.size());
  };
  // The straggler's 1.8 ms more of compute is exposed, less what the others' sends overlap.
  EXPECT_GT(mean(slow), mean(even) + 0.9 * kMillisecond);
  ExpectNothingAboveT1(slow);
  ExpectNothingAboveT1(even);
}

TEST(FalsePositives, AStragglerMustBeARankAndComputeLonger) {
  const std::string head = "topology: {type: spine-leaf}\nworkload:\n  - {type: allreduce, hosts: [h0, h1], size: 1MB";
  EXPECT_THROW(ParseScenarioText(head + ", straggler: h3, straggler_compute: 1ms}\n", "t.yaml"), ConfigError);
  EXPECT_THROW(ParseScenarioText(head + ", compute: 2ms, straggler: h1, straggler_compute: 1ms}\n", "t.yaml"), ConfigError);
  EXPECT_THROW(ParseScenarioText(head + ", straggler_compute: 1ms}\n", "t.yaml"), ConfigError);
  EXPECT_NO_THROW(ParseScenarioText(head + ", straggler: h1, straggler_compute: 1ms}\n", "t.yaml"));
}

// --- storm, slow receiver, hot spot --------------------------------------------------------------

std::string TwoLeaves(const std::string& extra) {
  return "duration: 8ms\ntimers: {scale: 0.01}\nmonitor: {refresh: instant, interval: 50ms}\n"
         "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 3}\n"
         "nic: {pfc_prevention_tout: off}\nswitch: {pfc_watchdog: {enabled: false}}\n"
         "workload:\n  - {type: flow, src: h3, dst: h0, size: 1GB}\n  - {type: flow, src: h4, dst: h0, size: 1GB}\n"
         "  - {type: flow, src: h5, dst: h1, size: 1GB}\n" + extra;
}

const Monitor::Detection* First(const TestRun& f, const std::string& rule) {
  for (const Monitor::Detection& d : f.run->monitor()->detections())
    if (d.rule == rule) return &d;
  return nullptr;
}

// The fault's detection: by `rule`, a T2, at h0.
void ExpectDetectedAtH0(const TestRun& f, const std::string& rule) {
  const Monitor::Detection* d = f.run->FaultLocalization(0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->rule, rule);
  EXPECT_EQ(d->tier, "T2");
  EXPECT_EQ(LocationDevice(d->location), "h0");
}

TEST(Classification, AStormDrainsNothingAndPausesWithoutEnd) {
  TestRun f = RunYaml(TwoLeaves("faults:\n  - {kind: pfc_storm, target: h0, at: 2ms}\n"));
  ExpectDetectedAtH0(f, "pfc.pause_storm");
  EXPECT_EQ(First(f, "pfc.slow_receiver"), nullptr) << "a storm is no slow receiver";
  const Monitor::Detection* tree = First(f, "pfc.congestion_tree");
  ASSERT_NE(tree, nullptr);
  EXPECT_EQ(LocationDevice(tree->location), "h0");
  EXPECT_EQ(tree->title.find("pause storm"), 0u) << tree->title;
}

TEST(Classification, ASlowReceiverDrainsAndPausesInBursts) {
  TestRun f = RunYaml(TwoLeaves("faults:\n  - {kind: slow_receiver, target: h0, at: 2ms, drain_rate: 30G}\n"));
  ExpectDetectedAtH0(f, "pfc.slow_receiver");
  EXPECT_EQ(First(f, "pfc.pause_storm"), nullptr) << "a slow receiver is no storm";
}

// With ECN off on the hot spot's switch, the same congestion is not congestion control's: T2.
TEST(Classification, AHotSpotThatDoesNotMarkIsNotCongestionControls) {
  const std::string incast = "duration: 10ms\nmonitor: {refresh: instant, interval: 1ms}\n"
                             "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 17}\n"
                             "workload:\n" + FlowsTo(1, 16, "h0", "8MB");
  TestRun marking = RunYaml(incast);
  const Monitor::Detection* t1 = First(marking, "pfc.congestion_tree");
  ASSERT_NE(t1, nullptr);
  EXPECT_EQ(t1->tier, "T1");
  EXPECT_EQ(t1->location, "leaf0:Ethernet0 facing h0");
  TestRun blind = RunYaml(incast + "devices:\n  leaf0: {ecn: {enabled: false}}\n");
  const Monitor::Detection* t2 = First(blind, "pfc.paused_share");
  ASSERT_NE(t2, nullptr);
  EXPECT_EQ(t2->tier, "T2");
  EXPECT_NE(t2->title.find("congestion that ECN does not signal"), std::string::npos) << t2->title;
}

// --- one ready scenario per fault class --------------------------------------------------------

// What a class's symptom has grown to: frames lost, pause held, configuration not as meant.
using Symptom = std::function<double(Fabric&)>;

Port& PortFacing(Fabric& f, const std::string& device, const std::string& peer) {
  const int node = f.topology().FindNode(device);
  return f.device(node).port(ResolvePort(f.topology(), node, peer));
}

uint64_t LinkCounter(Fabric& f, const std::string& a, const std::string& b, uint64_t LinkCounters::*c) {
  uint64_t n = 0;
  for (const Port* p : {&PortFacing(f, a, b), &PortFacing(f, b, a)})
    if (p->faults) n += p->faults->counters.*c;
  return n;
}

double PauseOnTheSpines(Fabric& f) {
  double us = 0;
  for (const char* spine : {"spine0", "spine1"})
    us += static_cast<double>(PortFacing(f, spine, "leaf0").RxPauseTime(3, f.now())) / kMicrosecond;
  return us;
}

// What the slower of the storage clients under leaf1 delivered to h0: the looping routes and the
// deadlock they leave catch their traffic.
double IntoH0FromLeaf1(Fabric& f) {
  double least = -1;
  for (const QueuePair& qp : f.qps()) {
    const int src = static_cast<int>(qp.src);
    if (static_cast<int>(qp.dst) != f.HostIndex("h0") || (src != f.HostIndex("h10") && src != f.HostIndex("h11"))) continue;
    if (least < 0 || static_cast<double>(qp.delivered) < least) least = static_cast<double>(qp.delivered);
  }
  return least;
}

struct FaultCase {
  std::string name;   // scenarios/faults/<name>.yaml
  std::string rule;   // the detector
  std::string tier;   // its tier, and every action's
  std::vector<std::string> where;  // localized_to names one of these devices
  Symptom symptom;
  bool healthy_grows;  // the symptom is something that stops (marks, bytes delivered)
};

void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.name; }

std::vector<FaultCase> Cases() {
  auto marks = [](Fabric& f) { return static_cast<double>(f.sw("leaf0").ecn_marked()); };
  auto link = std::vector<std::string>{"leaf0", "spine1"};
  auto routes = std::vector<std::string>{"spine0", "leaf1", "spine1"};
  return {
      {"link_down", "physical.link_down", "T3", link,
       [](Fabric& f) {  // microseconds it has been down: the capacity it takes (routing, not recovery, answers it)
         const Port& p = PortFacing(f, "leaf0", "spine1");
         return p.faults && !p.faults->carrier ? static_cast<double>(f.now() - p.faults->dark_at) / kMicrosecond : 0;
       },
       false},
      {"link_flap", "physical.link_flap", "T3", link,
       [](Fabric& f) { return static_cast<double>(LinkCounter(f, "leaf0", "spine1", &LinkCounters::carrier_changes)); }, false},
      {"link_errors", "physical.crc_errors", "T3", link,
       [](Fabric& f) {
         return static_cast<double>(PortFacing(f, "leaf0", "spine1").counters.crc_errors +
                                    PortFacing(f, "spine1", "leaf0").counters.crc_errors);
       },
       false},
      {"gray_drop", "network.gray_drop", "T3", link,
       [](Fabric& f) {
         double n = 0;
         for (const auto& nic : f.nics()) n += static_cast<double>(nic->rdma().out_of_sequence);
         return n;
       },
       false},
      {"blackhole", "network.probe_loss", "T3", link,
       [](Fabric& f) {  // no counter sees it; its flows' senders time out
         double n = 0;
         for (const auto& nic : f.nics()) n += static_cast<double>(nic->rdma().local_ack_timeout_err);
         return n;
       },
       false},
      {"ecn_off", "ecn.off", "T3", {"leaf0"}, marks, true},
      {"ecn_thresholds", "ecn.pfc_without_ecn", "T2", {"leaf0"}, marks, true},
      {"cc_disabled", "cc.cnp_ignored", "T3", {"h10"},
       [](Fabric& f) { return static_cast<double>(f.nic("h10").rdma().rp_cnp_ignored); }, false},
      {"qos_drift", "qos.roce_in_lossy_queue", "T3", {"leaf0"},
       [](Fabric& f) {  // RoCE packets through leaf0's lossy queue 1
         double n = 0;
         const Switch& s = f.sw("leaf0");
         for (int p = 0; p < s.num_ports(); ++p) n += static_cast<double>(s.queue_counters(p, 1).packets);
         return n;
       },
       false},
      {"mtu", "link.mtu_oversize", "T3", {"leaf0"},
       [](Fabric& f) {
         double n = 0;
         Node& s = f.sw("leaf0");
         for (int p = 0; p < s.num_ports(); ++p)
           if (s.port(p).faults) n += static_cast<double>(s.port(p).faults->counters.rx_oversize);
         return n;
       },
       false},
      {"headroom", "drop.lossless_pg_headroom", "T3", {"leaf0"},
       [](Fabric& f) { return static_cast<double>(f.sw("leaf0").lossless_drops()); }, false},
      {"route_change", "pfc.deadlock", "T3", routes, IntoH0FromLeaf1, true},
      {"deadlock", "pfc.deadlock", "T3", routes, IntoH0FromLeaf1, true},
      {"pfc_storm", "pfc.pause_storm", "T2", {"h0"}, PauseOnTheSpines, false},
      {"slow_receiver", "pfc.slow_receiver", "T2", {"h0"}, PauseOnTheSpines, false},
  };
}

// The first 12 ms of each but the flap (whose downs are counted to 32 ms): the detection, the
// actions and what they stop all fall in them (the scenarios run on to 40 ms so that the
// workloads' full service shows: LifecycleCost tests and docs/faults.md's table).
TestRun Start(const std::string& name, bool recovery) {
  Scenario sc = FaultScenarioOnTheClock(name);
  sc.recovery_auto = recovery;
  if (name != "link_flap") sc.duration = std::min(sc.duration, 12 * kMillisecond);
  return TestRun{std::make_unique<Experiment>(sc)};
}

// How much the symptom grew after `t`.
double GrowthAfter(const std::string& name, bool recovery, Time t, const Symptom& symptom) {
  TestRun f = Start(name, recovery);
  f->RunUntil(t);
  const double at = symptom(*f);
  f.run->Run();
  return symptom(*f) - at;
}

class FaultScenarios : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FaultScenarios, DetectedLocalizedRecoveredAndLeftAloneItStays) {
  const FaultCase& c = GetParam();
  TestRun on = Start(c.name, true);
  on.run->Run();
  // The right detector, at the target.
  const Monitor::Detection* d = on.run->FaultLocalization(0);
  ASSERT_NE(d, nullptr) << "not detected";
  if (c.name == "link_flap") {
    // Each down is a link down, until the fifth in the flap window makes it a flap.
    EXPECT_EQ(d->rule, "physical.link_down");
    d = on.run->FlapDetection(0);
    ASSERT_NE(d, nullptr) << "never seen as a flap";
  }
  EXPECT_EQ(d->rule, c.rule);
  EXPECT_EQ(d->tier, c.tier);
  const std::string at = LocationDevice(d->location);
  EXPECT_NE(std::find(c.where.begin(), c.where.end(), at), c.where.end()) << d->location;
  if (c.rule == "pfc.deadlock") {
    // A cycle counts once it has held two windows: the ports it holds paused (T3) show a window
    // before it is named, and the fault is detected no later than that.
    const Monitor::Detection* first = on.run->FaultDetection(0);
    ASSERT_NE(first, nullptr);
    const Monitor::Detection* held = nullptr;
    for (const Monitor::Detection& m : on.run->monitor()->detections())
      if (!held && m.rule == "pfc.paused_share" && m.tier == "T3") held = &m;
    ASSERT_NE(held, nullptr);
    EXPECT_EQ(d->t - held->t, on.run->monitor()->window());
    EXPECT_LE(first->t, held->t);
  }
  // Recovered, by actions on the detection's rung, as soon as it fired.
  const std::vector<Recovery::Action> actions = on.run->FaultActions(0);
  if (c.name == "link_down") {
    // The switches route around a link that is down; no action is due, and the monitor is
    // quiet about it once they have.
    EXPECT_TRUE(actions.empty());
    EXPECT_TRUE(on.run->FaultLeftToFabric(0));
    EXPECT_GT(on.run->FaultRecovered(0), d->t);
    TestRun off = Start(c.name, false);
    off.run->Run();
    ASSERT_NE(off.run->FaultLocalization(0), nullptr);
    EXPECT_EQ(off.run->FaultLocalization(0)->rule, c.rule) << "the same detection, without recovery";
    return;
  }
  ASSERT_FALSE(actions.empty());
  EXPECT_EQ(actions.front().t, d->t) << "auto acts as soon as the rule fires";
  // A storm's senders get no CNPs and flood the fabric with what its port drops, a slow
  // receiver's with what its NIC discards once its pause is ignored: recovery isolates the host
  // (T3) one window after the T2 action that let its traffic through to be lost.
  const bool isolated = c.name == "pfc_storm" || c.name == "slow_receiver";
  for (const Recovery::Action& a : actions) {
    if (isolated && &a == &actions.back()) {
      ASSERT_GE(actions.size(), 2u);
      EXPECT_EQ(a.tier, "T3") << a.action;
      EXPECT_EQ(a.action.rfind("isolate h0: ", 0), 0u) << a.action;
      EXPECT_EQ(a.t, actions[actions.size() - 2].t + on.run->monitor()->window());
      continue;
    }
    EXPECT_EQ(a.tier, c.tier) << a.action;
  }
  const Time recovered = on.run->FaultRecovered(0);
  ASSERT_GT(recovered, actions.back().t);
  // No lossless byte lost but what the fault itself dropped (headroom: at leaf0, none after
  // recovery, below; a stuck or slow host: at its NIC) and what an action dropped, counted: at
  // the switch port that drops a storm's traffic or drains a deadlock, or at the NIC of a slow
  // receiver whose pause is ignored.
  const Totals t = ComputeTotals(*on);
  uint64_t fault_drops = 0;
  if (c.name == "pfc_storm" || c.name == "slow_receiver") fault_drops = on->nic("h0").port(0).counters.rx_prio_discards[3];
  if (c.name == "headroom") fault_drops = on->sw("leaf0").lossless_drops();
  EXPECT_EQ(t.drops_lossless, fault_drops);
  uint64_t switch_drops = 0;
  for (const auto& s : on->switches())
    for (int p = 0; p < s->num_ports(); ++p) switch_drops += s->storm_tx_drops(p, 3) + s->storm_rx_drops(p, 3);
  if (c.name == "pfc_storm" || c.name == "route_change" || c.name == "deadlock") {
    EXPECT_GT(switch_drops, 0u) << "the action dropped frames, and they are counted";
  } else {
    EXPECT_EQ(switch_drops, 0u);
  }
  const bool into_stuck_host = c.name == "pfc_storm" || c.name == "slow_receiver";
  for (const QueuePair& qp : on->qps()) {
    if (!into_stuck_host || static_cast<int>(qp.dst) != on->HostIndex("h0")) {
      EXPECT_FALSE(qp.failed) << "QP " << qp.id;
    }
  }
  // After recovery the symptom stops; left alone (recovery off) it goes on. A storm's pause stops
  // spreading with its T2 action: judged from the window after it, before the switch's own PFC
  // watchdog (2 ms, scaled) would stop it in the run without recovery too.
  const Time judged_from = c.name == "pfc_storm" ? actions.front().t + on.run->monitor()->window() : recovered;
  const double fixed = GrowthAfter(c.name, true, judged_from, c.symptom);
  const double left = GrowthAfter(c.name, false, judged_from, c.symptom);
  if (c.healthy_grows) {
    EXPECT_GT(fixed, 0) << "recovered";
    EXPECT_EQ(left, 0) << "left alone, it stays broken";
  } else {
    EXPECT_EQ(fixed, 0) << "recovered";
    EXPECT_GT(left, 0) << "left alone, it goes on";
  }
  TestRun off = Start(c.name, false);
  off.run->Run();
  EXPECT_TRUE(off.run->FaultActions(0).empty());
  EXPECT_EQ(off.run->FaultRecovered(0), -1);
  ASSERT_NE(off.run->FaultLocalization(0), nullptr);
  EXPECT_EQ(off.run->FaultLocalization(0)->rule, c.name == "link_flap" ? "physical.link_down" : c.rule)
      << "the same detection, without recovery";
  if (c.name == "link_flap") {
    ASSERT_NE(off.run->FlapDetection(0), nullptr);
    EXPECT_EQ(off.run->FlapDetection(0)->t, on.run->FlapDetection(0)->t);
  }
}

INSTANTIATE_TEST_SUITE_P(Lifecycle, FaultScenarios, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<FaultCase>& i) { return i.param.name; });

// On seed 2 the bit errors fail leaf0-spine1 in the first window (hi_ber) before its frames show
// a bad FCS: a link down beside codewords FEC could not correct, which comes back and fails again.
// It is no link down to wait out: recovery shuts it as soon as the rule fires.
TEST(LinkErrors, ALinkFailedOnErrorsPastFecIsShutAtOnce) {
  Scenario sc = LoadScenarioFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/link_errors.yaml");
  sc.seed = 2;
  sc.duration = 12 * kMillisecond;
  TestRun r{std::make_unique<Experiment>(sc)};
  r.run->Run();
  const Monitor::Detection* d = r.run->FaultLocalization(0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->rule, "physical.hi_ber");
  EXPECT_EQ(d->location.rfind("leaf0:Ethernet28", 0), 0u) << d->location;
  const std::vector<Recovery::Action> actions = r.run->FaultActions(0);
  ASSERT_FALSE(actions.empty());
  EXPECT_EQ(actions.front().kind, "shut_link");
  EXPECT_EQ(actions.front().rule, "physical.hi_ber");
  EXPECT_EQ(actions.front().t, d->t);
  EXPECT_GT(r.run->FaultRecovered(0), d->t);
}

// Every scenario in the folder is one of the cases above, and every case has its scenario.
TEST(FaultScenarioFolder, EveryScenarioIsTested) {
  std::set<std::string> files, cases;
  for (const auto& e : std::filesystem::directory_iterator(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults"))
    if (e.path().extension() == ".yaml") files.insert(e.path().stem().string());
  for (const FaultCase& c : Cases()) cases.insert(c.name);
  EXPECT_EQ(files, cases);
}

}  // namespace
}  // namespace rocelab
