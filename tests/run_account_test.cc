// One story of a fault, told alike by the live monitor, by `rocelab diagnose` on the run's
// summary and by the run's printout: each fault's own finding first, what recovery caused
// labelled as the recovery's, a finding the monitor made again and again told once, and no
// figure printed for what did not happen (docs/faults.md, "One diagnosis").
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "diagnose/diagnose.h"
#include "file_util.h"
#include "report/timeline_story.h"
#include "run/cost.h"

namespace rocelab {
namespace {

struct Ran {
  std::string dir, printed;
  std::vector<Diagnosis> findings;
};

// `rocelab run` (or `demo` when `scenario` is empty) into a fresh folder, and diagnose on what it wrote.
Ran RunAndDiagnose(const std::string& scenario) {
  Ran r;
  r.dir = TempDir("account");
  // A fault scenario with its monitor's windows on the millisecond (the shipped ones draw their
  // phase from the seed): the times below are on it.
  std::string file;
  if (!scenario.empty()) {
    std::string yaml = ReadFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/" + scenario + ".yaml");
    const size_t at = yaml.find("phase: random");
    if (at != std::string::npos) yaml.replace(at, 13, "phase: 0s");
    file = WriteFile(r.dir + "/" + scenario + ".yaml", yaml);
  }
  const CommandResult c = scenario.empty() ? Rocelab("demo --no-report --out " + r.dir)
                                           : Rocelab("run " + file + " --no-report --out " + r.dir);
  EXPECT_EQ(c.status, 0) << c.output;
  r.printed = c.output;
  r.findings = Diagnose(LoadEvidence({r.dir}));
  return r;
}

const Diagnosis* Find(const std::vector<Diagnosis>& ds, const std::string& rule) {
  for (const Diagnosis& d : ds)
    if (d.rule == rule) return &d;
  return nullptr;
}

// The demo's storm starts at 3 ms: over the whole run h0 drained before it stuck, which the
// totals alone read as a slow receiver. The monitor saw a storm window by window, recovery acted
// on a storm, and the closing diagnosis says the same.
TEST(OneDiagnosis, TheDemosStormIsAStormLiveAndAfterwards) {
  const Ran r = RunAndDiagnose("");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().rule, "pfc.pause_storm");
  EXPECT_EQ(r.findings.front().location, "h0 (mlx5_0/eth0)");
  EXPECT_EQ(r.findings.front().severity, Severity::kError);
  EXPECT_NE(r.findings.front().evidence.find("the run's monitor found it at 3.100 ms"), std::string::npos);
  // The totals' reading is kept as evidence, not as a second diagnosis of the same host.
  EXPECT_NE(r.findings.front().evidence.find("over the whole run: pfc.slow_receiver"), std::string::npos);
  EXPECT_EQ(Find(r.findings, "pfc.slow_receiver"), nullptr);
  // The flows into h0 time out and fail: what goes to h0 is dropped where its pause is ignored,
  // then at the senders' first hop once h0 is isolated. That is the actions' doing, said so (the
  // later one, which the flows meet now), not a new transport fault.
  for (const char* rule : {"transport.ack_timeouts", "transport.retries_exceeded", "app.flows_failed"}) {
    const Diagnosis* d = Find(r.findings, rule);
    ASSERT_NE(d, nullptr) << rule;
    EXPECT_EQ(d->severity, Severity::kInfo) << rule;
    EXPECT_EQ(d->title.rfind("caused by the recovery: ", 0), 0u) << d->title;
    EXPECT_NE(d->evidence.find("runs into h0, which the recovery isolated at 3.200 ms"), std::string::npos) << d->evidence;
  }
  // The closing lines of the demo: the one problem it has, the storm.
  EXPECT_EQ(Occurrences(r.printed, "\ndiagnosis: "), 2u) << r.printed;
  EXPECT_NE(r.printed.find("\ndiagnosis: and 5 findings the recovery caused"), std::string::npos) << r.printed;
  EXPECT_NE(r.printed.find("diagnosis: T2 pfc.pause_storm at h0 (mlx5_0/eth0): pause storm: this NIC pauses its switch 100 %"), std::string::npos) << r.printed;
}

// A deadlock that recovery broke after two windows does not show in the whole run's pause shares;
// the monitor named the cycle, and so does the diagnosis, first.
TEST(OneDiagnosis, ADeadlockRecoveryBrokeIsStillTheDiagnosis) {
  const Ran r = RunAndDiagnose("deadlock");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().rule, "pfc.deadlock");
  EXPECT_EQ(r.findings.front().location, "leaf1 -> spine0 -> leaf1");
  EXPECT_NE(r.findings.front().action.find("The run's recovery: "), std::string::npos);
}

// A link that flapped until recovery shut it: the whole run's evidence holds its flap, first, one
// finding for both ends, and no link down beside it.
TEST(OneDiagnosis, AFlapIsAFlapNotADown) {
  const Ran r = RunAndDiagnose("link_flap");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().rule, "physical.link_flap");
  EXPECT_EQ(r.findings.front().severity, Severity::kError);
  for (const Diagnosis& d : r.findings) EXPECT_NE(d.rule, "physical.link_down") << d.location;
}

// A gray drop the recovery isolated: the gray drop first; the flap of the link it shut and the
// packets dropped toward that link before the routes converged are the shut's.
TEST(OneDiagnosis, AGrayDropFirstAndTheShutsSideEffectsAreTheShuts) {
  const Ran r = RunAndDiagnose("gray_drop");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().rule, "network.gray_drop");
  EXPECT_EQ(r.findings.front().location, "leaf0:Ethernet28 facing spine1");
  const Diagnosis* flap = Find(r.findings, "physical.link_down");
  ASSERT_NE(flap, nullptr);
  EXPECT_EQ(flap->severity, Severity::kInfo);
  EXPECT_NE(flap->evidence.find("the recovery shut the link leaf0-spine1 at 3.000 ms"), std::string::npos) << flap->evidence;
  const Diagnosis* discard = Find(r.findings, "drop.ingress_discard");
  ASSERT_NE(discard, nullptr);
  EXPECT_EQ(discard->severity, Severity::kInfo);
  EXPECT_NE(discard->evidence.find("for want of a route after the recovery shut leaf0-spine1"), std::string::npos);
}

// A link that went down by itself: its flap is the fault's own finding (one, for both ends), not
// the shut's that followed it.
TEST(OneDiagnosis, ALinkDownIsItsOwnFindingAtBothEnds) {
  const Ran r = RunAndDiagnose("link_down");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().rule, "physical.link_down");
  EXPECT_EQ(r.findings.front().title, "the link is down");
  EXPECT_EQ(r.findings.front().severity, Severity::kError);
  EXPECT_NE(r.findings.front().evidence.find("at spine1:Ethernet0 facing leaf0"), std::string::npos);
  int downs = 0;
  for (const Diagnosis& d : r.findings) downs += d.rule == "physical.link_down" || d.rule == "physical.link_flap";
  EXPECT_EQ(downs, 1);
  // The link's own failure prunes each end's ECMP groups once, and the switches' routes
  // converge once: no action follows a link down.
  const std::string summary = ReadFile(r.dir + "/summary.json");
  EXPECT_EQ(Occurrences(summary, "\"ecmp_pruned\""), 2u);
  EXPECT_EQ(Occurrences(summary, "\"routes_converged\""), 1u);
}

// A finding detected again and again is one line of the story, with its count, its span and
// every place; the events themselves all stay in summary.json.
TEST(Story, RepeatedDetectionsAreOneLine) {
  std::vector<TimelineEvent> events;
  events.push_back({1000, "h0", "", -1, "fault_injected", "pfc_storm on h0"});
  for (int k = 0; k < 3; ++k)
    for (const char* host : {"h4 (mlx5_0/eth0)", "h5 (mlx5_0/eth0)"})
      events.push_back({(2 + k) * 1000, "monitor", "", -1, "detected",
                        MonitorDetail({"T3", "transport.ack_timeouts", host, "ACK timeouts: tail loss or a stalled path"})});
  events.push_back({4500, "h4", "eth0", -1, "qp_error", "QP 0 (h4 -> h0)"});
  events.push_back({5000, "monitor", "", -1, "detected",
                    MonitorDetail({"T3", "transport.retries_exceeded", "h4 (mlx5_0/eth0)", "queue pairs failed"})});
  const std::vector<StoryLine> story = TellTimeline(events);
  ASSERT_EQ(story.size(), 4u);
  EXPECT_EQ(story[1].event.t, 2000);
  EXPECT_EQ(story[1].count, 3) << "found 3 times, each time at 2 places";
  EXPECT_EQ(story[1].last, 4000);
  EXPECT_EQ(story[1].event.detail,
            "T3 transport.ack_timeouts at h4 (mlx5_0/eth0); h5 (mlx5_0/eth0): ACK timeouts: tail loss or a stalled path");
  EXPECT_EQ(RepeatNote(story[1], "4 ns"), " (3 times until 4 ns)");
  EXPECT_EQ(story[2].event.event, "qp_error");
  EXPECT_EQ(story[3].count, 1);
  EXPECT_EQ(RepeatNote(story[3], "5 ns"), "");
  // Read back as written: a port's colon is not the end of the location.
  MonitorFinding f;
  ASSERT_TRUE(ParseMonitorDetail("T3 physical.link_down at leaf0:Ethernet28 facing spine1: the link is down", &f));
  EXPECT_EQ(f.location, "leaf0:Ethernet28 facing spine1");
  EXPECT_EQ(f.title, "the link is down");
  EXPECT_FALSE(ParseMonitorDetail("leaf0-spine1 leaves this switch's ECMP groups", &f));
}

// The demo's printout: ACK-timeout detections at two hosts, 7 windows' worth, are one line, and
// the recovery's (so are the shut link's and the drops toward it); nothing finished, so
// no mean FCT; money and seconds without an exponent; GPU idle in the line's unit (none: the
// isolated host's flows no longer share the ring's links, which runs a little faster than
// without the storm).
// Each action in summary.json says what it did for a program as well as for a person: its kind,
// the rule it answered, the devices and the port it acted on. diagnose reads those fields, not
// the sentence, to tell the action's effects from a new fault's.
TEST(Story, ActionsCarryTheirKindRuleDevicesAndPort) {
  const Ran r = RunAndDiagnose("");
  const nlohmann::json s = nlohmann::json::parse(ReadFile(r.dir + "/summary.json"));
  const nlohmann::json& actions = s["faults"][0]["actions"];
  ASSERT_GE(actions.size(), 2u) << actions.dump(1);
  EXPECT_EQ(actions[0]["kind"], "ignore_pause_drop");
  EXPECT_EQ(actions[0]["rule"], "pfc.pause_storm");
  EXPECT_EQ(actions[0]["devices"], nlohmann::json::array({"leaf0", "h0"}));
  EXPECT_EQ(actions[0]["port"], "Ethernet0");
  EXPECT_EQ(actions[1]["kind"], "isolate_host");
  EXPECT_EQ(actions[1]["devices"], nlohmann::json::array({"leaf0", "h0"}));
  EXPECT_EQ(actions[1]["tier"], "T3");
  // The sentence can change without losing the attribution: diagnose goes by the fields.
  std::string summary = ReadFile(r.dir + "/summary.json");
  int rewritten = 0;
  for (const std::string from : {"\"action\": \"ignore ", "\"action\": \"isolate "})
    for (size_t at; (at = summary.find(from)) != std::string::npos; ++rewritten)
      summary.replace(at, from.size(), "\"action\": \"Operator step: ");
  EXPECT_GE(rewritten, 2);
  WriteFile(r.dir + "/summary.json", summary);
  const CommandResult d = Rocelab("diagnose " + r.dir);
  EXPECT_NE(d.output.find("runs into h0, which the recovery isolated at 3.200 ms"), std::string::npos) << d.output;
  EXPECT_NE(d.output.find("the recovery shut the link leaf0-h0 at 3.200 ms"), std::string::npos) << d.output;
}

TEST(Story, TheDemoPrintsOneConsistentStory) {
  const Ran r = RunAndDiagnose("");
  EXPECT_EQ(Occurrences(r.printed, "transport.ack_timeouts"), 1u) << r.printed;
  // ... and theirs only because every flow of theirs runs into the stuck host: the action's doing.
  EXPECT_NE(r.printed.find("recovery_effect  T3 transport.ack_timeouts at h4 (mlx5_0/eth0); h5 (mlx5_0/eth0): ACK "
                           "timeouts: tail loss or a stalled path; every flow of it runs into h0, which the recovery "
                           "isolated at 3.200 ms (what is sent to it is dropped at the senders' first hop) (7 times "
                           "until 7800.000 us)"),
            std::string::npos)
      << r.printed;
  // The ring never fell short (the storage into h0 stopped, and it ran faster): nothing was
  // "back" at the injection.
  EXPECT_NE(r.printed.find("the monitor quiet about it from 3.300 ms, no workload fell short of the run without the fault"),
            std::string::npos)
      << r.printed;
  EXPECT_EQ(r.printed.find("every workload back at 3.000 ms"), std::string::npos) << r.printed;
  // The link the isolation shut reads as down, and the switches that had not heard yet drop what
  // they send toward it: the action's, said so, never a new fault's detection.
  EXPECT_NE(r.printed.find("recovery_effect  T3 physical.link_down at h0 (mlx5_0/eth0); leaf0:Ethernet0 facing h0: the "
                           "link is down; the recovery shut the link leaf0-h0 at 3.200 ms (pfc_storm on h0)"),
            std::string::npos)
      << r.printed;
  EXPECT_EQ(Occurrences(r.printed, "drop.ingress_discard"), 1u) << r.printed;
  EXPECT_EQ(r.printed.find("detected         T3 physical.link_down"), std::string::npos) << r.printed;
  EXPECT_EQ(r.printed.find("detected         T3 drop.ingress_discard"), std::string::npos) << r.printed;
  EXPECT_EQ(r.printed.find("detected         T3 transport."), std::string::npos) << r.printed;
  EXPECT_NE(r.printed.find("FCT: no flow finished"), std::string::npos);
  EXPECT_EQ(r.printed.find("mean FCT 0.0"), std::string::npos);
  EXPECT_EQ(r.printed.find("e-0"), std::string::npos) << r.printed;
  EXPECT_NE(r.printed.find("GPU idle 6 ranks x 0.000 ms = 0.000 GPU-ms"), std::string::npos) << r.printed;
  EXPECT_NE(r.printed.find(" GPU-ms"), std::string::npos);
}

// A route change has no target: its victim line says what stands for it; a ring that no
// iteration of ended after the fault prints no ratio of nothing.
TEST(Story, NoEmptyTargetAndNoRatioOfNothing) {
  const Ran r = RunAndDiagnose("route_change");
  EXPECT_EQ(r.printed.find("never touched ,"), std::string::npos) << r.printed;
  EXPECT_NE(r.printed.find("victim flows (never touched the ports its routes name, "), std::string::npos) << r.printed;
  EXPECT_EQ(r.printed.find("x0.000"), std::string::npos) << r.printed;
  const Ran storm = RunAndDiagnose("pfc_storm");
  EXPECT_EQ(storm.printed.find("x0.000"), std::string::npos) << storm.printed;
}

// A stuck host's senders get no CNPs (nothing reaches its NIC to send them) and go on at line
// rate: with its pause ignored, leaf0 drops their frames after they crossed the uplinks the ring
// needs. Recovery isolates the host (T3) once a window drops more than a tenth of its link's
// frames: its link shut and its route withdrawn, the other switches drop at the senders' first
// hop, and the ring loses less than with no recovery at all (docs/faults.md's table sweeps 8 seeds).
TEST(RecoveryThatHelps, AStuckHostThatFloodsTheFabricIsIsolated) {
  const std::string scenario = ReadFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/pfc_storm.yaml");
  const std::string dir = TempDir("isolate");
  const std::string off = WriteFile(dir + "/off.yaml", std::string(scenario).replace(scenario.find("recovery: {mode: auto}"), 22,
                                                                                      "recovery: {mode: off}"));
  const CommandResult a = Rocelab("run " + std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/pfc_storm.yaml --quiet --no-report --out " + dir + "/auto");
  const CommandResult o = Rocelab("run " + off + " --quiet --no-report --out " + dir + "/off");
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(o.status, 0) << o.output;
  const Evidence with = LoadEvidence({dir + "/auto"});
  ASSERT_EQ(with.faults.size(), 1u);
  const RunFault& f = with.faults[0];
  ASSERT_EQ(f.actions.size(), 2u);
  EXPECT_EQ(f.actions[0].tier, "T2");
  EXPECT_EQ(f.actions[1].tier, "T3");
  EXPECT_EQ(f.actions[1].action.rfind("isolate h0: shut its link leaf0-h0 and withdraw its route (", 0), 0u) << f.actions[1].action;
  EXPECT_NEAR(f.actions[1].t_s, f.actions[0].t_s + 0.001, 1e-9);  // the first window after the T2 action
  // What its senders still send is dropped at their first hop, for want of a route.
  EXPECT_GT(f.no_route_after_shut_bytes, 100e6);
  auto lost = [](const std::string& summary) {
    const std::string text = ReadFile(summary);
    const size_t at = text.find("\"lost_ns\":");
    return at == std::string::npos ? -1.0 : std::atof(text.c_str() + at + 10);
  };
  const double lost_auto = lost(dir + "/auto/summary.json"), lost_off = lost(dir + "/off/summary.json");
  EXPECT_GT(lost_off, 0);
  EXPECT_LT(lost_auto, 0.9 * lost_off) << lost_auto << " ns with recovery, " << lost_off << " without";
}

// A ring that lost no time is not "not recovered": after the rollback of qos_drift its
// iterations run a little faster or a little slower than without the fault, and it is never
// behind that run; a slow iteration falls short only while the ring is behind.
TEST(Story, NothingLostIsNotNotRecovered) {
  const Ran r = RunAndDiagnose("qos_drift");
  // Twelve iterations after it, x1.001 of their time without the fault: no iteration fell short.
  EXPECT_NE(r.printed.find("(x1.00"), std::string::npos) << r.printed;
  EXPECT_NE(r.printed.find("workloads recovered: allreduce 0 unaffected"), std::string::npos) << r.printed;
  EXPECT_EQ(r.printed.find("not recovered by the end of the run"), std::string::npos) << r.printed;
  EXPECT_NE(r.printed.find("  recovered at 4.000 ms (MTTR 2.000 ms)"), std::string::npos) << r.printed;
}

TEST(Money, AmountsAndSecondsNeverInAnExponent) {
  EXPECT_EQ(FormatMoney(2e-5), "0.000020");
  EXPECT_EQ(FormatMoney(0.0123), "0.01");
  EXPECT_EQ(FormatMoney(4000), "4000.00");
  EXPECT_EQ(FormatMoney(0), "0.00");
  EXPECT_EQ(FormatSeconds(7.04387e-05), "0.0000704387");
  EXPECT_EQ(FormatSeconds(0.84), "0.84");
  EXPECT_EQ(FormatSeconds(1800), "1800");
  EXPECT_EQ(FormatSeconds(3.2e7), "32000000");
}

}  // namespace
}  // namespace rocelab
