// The monitor: diagnose's rules on windows of sampled counters, as a collector
// would see them; detections, the faults they name, and the same rule ids as
// diagnose on a summary.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "diagnose/diagnose.h"
#include "report/series.h"
#include "test_util.h"

namespace rocelab {
namespace {

std::string StormScenario(const std::string& monitor) {
  return "duration: 20ms\ntimers: {scale: 0.01}\nmonitor: " + monitor +
         "\n"
         "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 2}\n"
         "nic: {pfc_prevention_tout: off}\n"
         "switch: {pfc_watchdog: {enabled: false}}\n"
         "workload:\n"
         "  - {type: flow, src: h2, dst: h0, size: 400MB}\n"
         "  - {type: flow, src: h3, dst: h1, size: 3GB}\n"
         "faults:\n  - {kind: pfc_storm, target: h0, at: 2ms}\n";
}

// A window of 10 ms scaled by 1/100: the storm is seen at h0 by the end of the first window
// that holds it, and the fault's lifecycle says so.
TEST(Monitor, DetectsAndLocalizesAPauseStormWithinOneWindow) {
  TestRun f = RunYaml(StormScenario("{refresh: instant, interval: 10ms, phase: 0s}"));
  ASSERT_NE(f.run->monitor(), nullptr);
  const Time window = f.run->monitor()->window();
  EXPECT_EQ(window, 100 * kMicrosecond);
  const Monitor::Detection* d = f.run->FaultLocalization(0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->rule, "pfc.pause_storm");
  EXPECT_EQ(LocationDevice(d->location), "h0");
  EXPECT_GT(d->t, 2 * kMillisecond);
  EXPECT_LE(d->t, 2 * kMillisecond + window);
  // Detection (the first sign, anywhere) comes no later than localization (the root named).
  const Monitor::Detection* first = f.run->FaultDetection(0);
  ASSERT_NE(first, nullptr);
  EXPECT_LE(first->t, d->t);
  EXPECT_EQ(first, d);  // here the first sign already names h0
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["faults"][0]["detected_by"], "pfc.pause_storm");
  EXPECT_EQ(s["faults"][0]["detected_at"], s["faults"][0]["localized_to"]);
  EXPECT_EQ(s["faults"][0]["detected_ns"], s["faults"][0]["localized_ns"]);
  EXPECT_EQ(s["faults"][0]["mttd_ns"], static_cast<double>(d->t - 2 * kMillisecond) / kNanosecond);
  // Nothing was detected before the fault: the fabric was healthy until then.
  for (const Monitor::Detection& x : f.run->monitor()->detections()) EXPECT_GE(x.t, 2 * kMillisecond) << x.rule;
}

// A collector's scrapes on their own clock: with monitor.phase 3.7 ms (scaled: 37 us) the
// windows end at 0.037 ms, 0.137 ms, ...; the storm at 2 ms is seen at a window end after it,
// not at a boundary that falls on the injection. The phase must fit in the interval.
TEST(Monitor, APhaseShiftsEveryWindowEnd) {
  TestRun f = RunYaml(StormScenario("{refresh: instant, interval: 10ms, phase: 3700us}"));
  EXPECT_EQ(f.run->monitor()->phase(), 37 * kMicrosecond);
  for (const Monitor::Detection& d : f.run->monitor()->detections())
    EXPECT_EQ((d.t - 37 * kMicrosecond) % (100 * kMicrosecond), 0) << d.rule << " at " << d.t;
  const Monitor::Detection* d = f.run->FaultLocalization(0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->rule, "pfc.pause_storm");
  EXPECT_GT(d->t, 2 * kMillisecond);
  EXPECT_LE(d->t, 2137 * kMicrosecond);
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["monitor_phase_ns"], 37000.0);
  EXPECT_EQ(s["monitor_window_ns"], 100000.0);
  EXPECT_THROW(ParseScenarioText(StormScenario("{refresh: instant, interval: 10ms, phase: 10ms}"), "t.yaml"), ConfigError);
}

// `phase: random`: each seed's collector keeps its own clock, drawn from the seed, within the
// first window; the same seed, the same phase; and every window ends on it.
TEST(Monitor, ARandomPhaseIsDrawnFromTheSeedWithinTheFirstWindow) {
  std::set<Time> phases;
  for (int seed = 1; seed <= 4; ++seed) {
    const std::string yaml = "seed: " + std::to_string(seed) + "\n" + StormScenario("{refresh: instant, interval: 10ms, phase: random}");
    TestRun f = RunYaml(yaml);
    const Time phase = f.run->monitor()->phase();
    EXPECT_GT(phase, 0);
    EXPECT_LT(phase, f.run->monitor()->window());
    for (const Monitor::Detection& d : f.run->monitor()->detections())
      EXPECT_EQ((d.t - phase) % f.run->monitor()->window(), 0) << d.rule << " at " << d.t;
    EXPECT_EQ(RunYaml(yaml).run->monitor()->phase(), phase) << "the same seed, the same phase";
    phases.insert(phase);
  }
  EXPECT_EQ(phases.size(), 4u);
}

// The monitor and the time series read the fabric on one sampler: with telemetry on, the
// monitor's windows come at the same times and find the same, and the run's results are the
// same (the sampler only reads).
TEST(Monitor, SharesOneSamplerWithTheTimeSeries) {
  TestRun plain = RunYaml(StormScenario("{refresh: instant, interval: 10ms, phase: 0s}"));
  TestRun with = StartYaml(StormScenario("{refresh: instant, interval: 10ms, phase: 0s}\ntelemetry: {interval: 20us, series: [queue_depth, pause_state]}"));
  std::FILE* csv = std::tmpfile();
  ASSERT_NE(csv, nullptr);
  SeriesSampler series(&with.run->fabric(), csv);
  EXPECT_EQ(with.run->fabric().sampler().readers(), 2u);
  with.run->Run();
  std::fclose(csv);
  EXPECT_GT(series.rows(), 100u);
  ASSERT_NE(with.run->monitor(), nullptr);
  // The results are the same; only the engine's figures differ.
  auto results = [](const Experiment& x) {
    std::string j = SummaryJson(x);
    const size_t from = j.find("  \"engine\": {"), to = j.find("  },\n", from);
    return j.erase(from, to + 5 - from);
  };
  EXPECT_EQ(results(*plain.run), results(*with.run));
  // 20 ms of 20 us samples are 1,000 reads; the monitor's 200 windows fall on 200 of those
  // times, so the series adds 800 events, not 1,000.
  const uint64_t added = with->sim().EventsProcessed() - plain->sim().EventsProcessed();
  EXPECT_GE(added, 800u);
  EXPECT_LE(added, 801u);
  ASSERT_EQ(plain.run->monitor()->detections().size(), with.run->monitor()->detections().size());
  for (size_t i = 0; i < plain.run->monitor()->detections().size(); ++i) {
    EXPECT_EQ(plain.run->monitor()->detections()[i].t, with.run->monitor()->detections()[i].t);
    EXPECT_EQ(plain.run->monitor()->detections()[i].rule, with.run->monitor()->detections()[i].rule);
  }
}

// One rule set, two inputs: the monitor over one window covering the whole run finds what
// diagnose finds in the run's summary.json, rule id for rule id and place for place.
// What the monitor found in the run and what diagnose finds in its summary.json, over the same
// window: (rule, location) pairs as a monitor records them.
void ExpectSameFindings(const TestRun& f, const std::string& name) {
  std::set<std::pair<std::string, std::string>> monitor, diagnose;
  for (const Monitor::Detection& d : f.run->monitor()->detections()) monitor.insert({d.rule, d.location});
  const std::string dir = ::testing::TempDir() + "/" + name;
  std::system(("mkdir -p " + dir).c_str());
  std::ofstream(dir + "/summary.json") << SummaryJson(*f.run);
  for (const Diagnosis& d : Diagnose(LoadEvidence({dir}), false))
    if (!d.tier.empty() && (d.severity != Severity::kInfo || d.tier == "T1"))  // what a monitor records
      diagnose.insert({d.rule, d.location});
  EXPECT_FALSE(monitor.empty());
  EXPECT_EQ(monitor, diagnose);
}

TEST(Monitor, SameRulesAsDiagnoseOverTheSameWindow) {
  ExpectSameFindings(RunYaml(StormScenario("{refresh: instant, interval: 2000ms, phase: 0s}")), "monitor-same");  // scaled: one 20 ms window
}

// The same for the probes' tomography: a link that drops half the flows it carries, counted
// nowhere (scenarios/faults/blackhole.yaml left alone), named from the run and from its summary.
TEST(Monitor, SameProbeTomographyAsDiagnose) {
  Scenario sc = FaultScenarioOnTheClock("blackhole");
  sc.recovery_auto = false;
  sc.duration = 12 * kMillisecond;  // left alone, every flow through the hole has failed by then
  sc.monitor_interval = static_cast<Time>(static_cast<double>(sc.duration) / sc.timer_scale);  // one window
  TestRun f{std::make_unique<Experiment>(sc)};
  f.run->Run();
  ExpectSameFindings(f, "monitor-probes");
  bool named = false;
  for (const Monitor::Detection& d : f.run->monitor()->detections())
    named |= d.rule == "network.probe_loss" && (LocationDevice(d.location) == "leaf0" || LocationDevice(d.location) == "spine1");
  EXPECT_TRUE(named);
}

// A storm the switch's PFC watchdog restored is history: `show pfcwd stats` counts it on, but no
// later window of the monitor names the switch for it (scenarios/faults/route_change.yaml at
// its shipped phase: the watchdog of spine0 broke the deadlock's queue and restored it).
TEST(Monitor, AStormTheWatchdogRestoredIsNoLongerAFinding) {
  Scenario sc = LoadScenarioFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/route_change.yaml");
  sc.duration = 20 * kMillisecond;
  TestRun f{std::make_unique<Experiment>(sc)};
  f.run->Run();
  Time restored = -1;
  for (const TimelineEvent& e : f->timeline().events())
    if (e.device == "spine0" && e.port == "Ethernet4" && e.event == "pfc_storm_restored") restored = e.t;
  ASSERT_GT(restored, 0) << "the scenario no longer has the watchdog restore a storm";
  const Time window = f.run->monitor()->window();
  const Time quiet = f.run->monitor()->QuietAfter(restored, {"spine0"});
  EXPECT_GT(quiet, restored);
  EXPECT_LE(quiet, restored + 2 * window);
  EXPECT_GE(f.run->FaultRecovered(0), 0);
}

// The routes a monitor's wait-for graph uses. Up-down routing never turns traffic from a leaf
// back to it at a spine; a static route that does feeds that turn, and still does once it is
// removed (the queues may hold what it routed).
TEST(Monitor, RoutesFeedWhatTheyTurnBack) {
  TestRun f = StartYaml("topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 6}\n");
  FabricRoutes routes(&*f);
  Topology& topo = f->mutable_topology();
  topo.SetRouteObserver([&](int n, int h, const std::vector<uint16_t>& ports) { routes.Heard(n, h, ports); });
  // leaf1 sends up to spine0 (Ethernet24); spine0 sends down to leaf0 (Ethernet0) or leaf1 (Ethernet4).
  EXPECT_TRUE(routes.Feeds("leaf1", "Ethernet24", "spine0", "Ethernet0"));
  EXPECT_FALSE(routes.Feeds("leaf1", "Ethernet24", "spine0", "Ethernet4")) << "no route turns back";
  const int spine0 = topo.FindNode("spine0");
  topo.OverrideRoute(spine0, f->HostIndex("h0"), ResolvePort(topo, spine0, "leaf1"));
  EXPECT_TRUE(routes.Feeds("leaf1", "Ethernet24", "spine0", "Ethernet4")) << "h0's packets turn back to leaf1";
  topo.ClearRoute(spine0, f->HostIndex("h0"));
  EXPECT_TRUE(routes.Feeds("leaf1", "Ethernet24", "spine0", "Ethernet4")) << "put right, what it queued may still wait";
  EXPECT_FALSE(routes.Feeds("leaf1", "Ethernet24", "leaf0", "Ethernet0")) << "not peers";
  topo.SetRouteObserver(nullptr);
}

// A link that goes down is seen at one of its ends (carrier changes, SONiC's flap count).
TEST(Monitor, LinkDownIsLocalizedToAnEndOfTheLink) {
  TestRun f = RunYaml(
      "duration: 5ms\nmonitor: {refresh: instant, interval: 200us, phase: 0s}\n"
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4}\n"
      "switch: {link_down_detection: 50us, route_convergence: 200us}\n"
      "nic: {timeout: 6}\n"
      "workload:\n  - {type: all-to-all, size: 1MB}\n"
      "faults:\n  - {kind: link_down, target: leaf0-spine1, at: 100us}\n");
  const Monitor::Detection* d = f.run->FaultLocalization(0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->rule, "physical.link_down");
  const std::string end = LocationDevice(d->location);
  EXPECT_TRUE(end == "leaf0" || end == "spine1") << d->location;
  EXPECT_EQ(d->t, 200 * kMicrosecond);
  EXPECT_EQ(d->title, "the link is down");
}

// A link that keeps going down: each down is a link down until the fifth within the flap window
// (5 in 10 s, as switches count for errdisable), which makes it a flap. Recovery off: the link
// flaps on, and is found flapping again at its next down.
TEST(Monitor, AFlapIsFiveDownsWithinTheFlapWindowNotOneDown) {
  TestRun f = RunYaml(
      "duration: 5ms\nmonitor: {refresh: instant, interval: 200us, phase: 0s}\n"
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4}\n"
      "switch: {link_down_detection: 50us, route_convergence: 200us, link_up_time: 0s}\n"
      "nic: {timeout: 6}\n"
      "workload:\n  - {type: all-to-all, size: 1MB}\n"
      "faults:\n  - {kind: link_flap, target: leaf0-spine1, at: 100us, period: 400us, count: 6, duration: 150us}\n");
  std::vector<const Monitor::Detection*> downs, flaps;
  for (const Monitor::Detection& d : f.run->monitor()->detections()) {
    if (d.rule == "physical.link_down") downs.push_back(&d);
    if (d.rule == "physical.link_flap") flaps.push_back(&d);
  }
  ASSERT_FALSE(downs.empty());
  EXPECT_EQ(downs.front()->t, 200 * kMicrosecond);
  EXPECT_EQ(downs.front()->title, "the link is down");  // down 100..250 us: still down at 200 us
  ASSERT_FALSE(flaps.empty());
  EXPECT_EQ(flaps.front()->t, 1800 * kMicrosecond) << "downs at 100, 500, 900, 1300, 1700 us";
  EXPECT_EQ(f.run->FlapDetection(0), flaps.front());
  for (const Monitor::Detection* d : downs) EXPECT_LT(d->t, flaps.front()->t);
}

// Recovery on: a tenth of the frames vanish on leaf0-spine1; the monitor finds the link, recovery
// shuts it (T3), the fabric routes around it, and no frame vanishes after; off: the loss goes on.
// (At 2 %, with the other uplink unable to take this load, it stays in service: below.)
TEST(Recovery, AGrayLinkIsShutAndTheLossStops) {
  auto yaml = [](const std::string& mode) {
    return "duration: 20ms\nmonitor: {refresh: instant, interval: 1ms, phase: 0s}\nrecovery: {mode: " + mode +
           "}\n"
           "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4}\n"
           "switch: {link_down_detection: 50us, route_convergence: 200us}\n"
           "nic: {timeout: 6}\n"
           "workload:\n  - {type: all-to-all, size: 4MB}\n"
           "faults:\n  - {kind: gray_drop, target: leaf0-spine1, at: 100us, rate: 0.1}\n";
  };
  TestRun on = RunYaml(yaml("auto"));
  const Monitor::Detection* d = on.run->FaultLocalization(0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->rule, "network.gray_drop");
  const std::vector<Recovery::Action> actions = on.run->FaultActions(0);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].tier, "T3");
  EXPECT_EQ(actions[0].t, d->t) << "auto acts as soon as the rule fires";
  EXPECT_NE(actions[0].action.find("shut link"), std::string::npos);
  const Time recovered = on.run->FaultRecovered(0);
  EXPECT_GT(recovered, actions[0].t);
  // After the shut, nothing crosses the link: the carrier is down at both ends.
  const int leaf0 = on->topology().FindNode("leaf0");
  EXPECT_FALSE(on->device(leaf0).Carrier(ResolvePort(on->topology(), leaf0, "spine1")));
  for (const QueuePair& qp : on->qps()) EXPECT_TRUE(qp.done) << "flow " << qp.id;
  const auto s = nlohmann::json::parse(SummaryJson(*on.run));
  EXPECT_EQ(s["faults"][0]["actions"][0]["tier"], "T3");
  // The monitor quiet after the action; recovered_ns (and MTTR) also waits for the workload to
  // be back (run/lifecycle.h), whichever is later.
  EXPECT_EQ(s["faults"][0]["quiet_ns"], static_cast<double>(recovered) / kNanosecond);
  const double back = s["faults"][0]["workloads_recovered_ns"];
  EXPECT_EQ(s["faults"][0]["recovered_ns"], std::max(static_cast<double>(recovered) / kNanosecond, back));
  EXPECT_EQ(s["faults"][0]["mttr_ns"], static_cast<double>(s["faults"][0]["recovered_ns"]) - 100 * 1000.0);

  TestRun off = RunYaml(yaml("off"));
  EXPECT_TRUE(off.run->FaultActions(0).empty());
  EXPECT_EQ(off.run->FaultRecovered(0), -1);
  uint64_t seq_on = 0, seq_off = 0;
  for (const auto& n : on->nics()) seq_on += n->rdma().packet_seq_err;
  for (const auto& n : off->nics()) seq_off += n->rdma().packet_seq_err;
  EXPECT_GT(seq_off, 2 * seq_on) << "left alone, the link keeps losing frames";
}

// 2 % of the frames vanish on leaf0-spine1 while all-to-all fills leaf0's two uplinks: shutting
// it would leave the other uplink more than its line rate, and go-back-N loses less to 2 % than
// to half the capacity. Recovery leaves it in service and says why, and reconsiders it every
// window: once the load has dropped enough for the other uplink to take it, the link is shut.
TEST(Recovery, AGrayLinkStaysInServiceWhileItsSiblingsCannotCarryItsLoad) {
  auto yaml = [](const std::string& size) {
    return "duration: 20ms\nmonitor: {refresh: instant, interval: 1ms, phase: 0s}\nrecovery: {mode: auto}\n"
           "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4}\n"
           "switch: {link_down_detection: 50us, route_convergence: 200us}\n"
           "nic: {timeout: 6}\n"
           "workload:\n  - {type: all-to-all, size: " + size + "}\n"
           "faults:\n  - {kind: gray_drop, target: leaf0-spine1, at: 100us, rate: 0.02}\n";
  };
  TestRun busy = RunYaml(yaml("4MB"));
  ASSERT_NE(busy.run->FaultLocalization(0), nullptr);
  EXPECT_EQ(busy.run->FaultLocalization(0)->rule, "network.gray_drop");
  const auto skipped = Events(*busy, "recovery_skipped");
  ASSERT_EQ(skipped.size(), 1u) << "one skip, for both ends, however many windows it is reconsidered in";
  EXPECT_EQ(skipped[0]->t, 1 * kMillisecond);
  EXPECT_NE(skipped[0]->detail.find("shut link leaf0-spine1 not taken: it loses "), std::string::npos) << skipped[0]->detail;
  EXPECT_NE(skipped[0]->detail.find("ECMP sibling at leaf0 would have to carry "), std::string::npos) << skipped[0]->detail;
  EXPECT_NE(skipped[0]->detail.find("it stays in service for repair"), std::string::npos) << skipped[0]->detail;
  // The all-to-all's tail: the sibling can take what is left, and the still lossy link is shut
  // then, in a later window, not forgotten.
  const std::vector<Recovery::Action> actions = busy.run->FaultActions(0);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_GT(actions[0].t, skipped[0]->t + busy.run->monitor()->window());
  EXPECT_NE(actions[0].action.find("shut link leaf0-spine1: frames vanish on it (kept in service before; its siblings can "
                                   "take its load now)"),
            std::string::npos)
      << actions[0].action;
  const int leaf0 = busy->topology().FindNode("leaf0");
  EXPECT_FALSE(busy->device(leaf0).Carrier(ResolvePort(busy->topology(), leaf0, "spine1")));
}

// A config push turns ECN off on a switch; recovery rolls it back and the switch marks again.
TEST(Recovery, EcnTurnedOffIsRolledBack) {
  std::string yaml =
      "duration: 30ms\nmonitor: {refresh: instant, interval: 1ms, phase: 0s}\nrecovery: {mode: auto}\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 16}\n"
      "switch: {ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}}\n"
      "workload:\n" + FlowsTo(1, 15, "h0", "16MB") +
      "faults:\n  - {kind: ecn_off, target: leaf0, at: 1ms}\n";
  TestRun f = StartYaml(yaml);
  f->RunUntil(1 * kMillisecond);
  const uint64_t marks_before = f->sw("leaf0").ecn_marked();
  f.run->Run();
  const std::vector<Recovery::Action> actions = f.run->FaultActions(0);
  ASSERT_FALSE(actions.empty());
  EXPECT_NE(actions[0].action.find("roll back ECN on leaf0"), std::string::npos) << actions[0].action;
  EXPECT_TRUE(f->sw("leaf0").spec().ecn.enabled);
  EXPECT_TRUE(f->sw("leaf0").port_ecn(0).enabled);
  EXPECT_GT(f->sw("leaf0").ecn_marked(), marks_before) << "marking resumed after the rollback";
}

TEST(Recovery, AutoNeedsAMonitor) {
  EXPECT_THROW(ParseScenarioText("topology: {type: spine-leaf}\nrecovery: {mode: auto}\n", "t.yaml"), ConfigError);
  EXPECT_THROW(ParseScenarioText("topology: {type: spine-leaf}\nrecovery: {mode: runbook}\n", "t.yaml"), ConfigError);
}

}  // namespace
}  // namespace rocelab
