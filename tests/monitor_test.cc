// The monitor: diagnose's rules on windows of sampled counters, as a collector
// would see them; detections, the faults they name, and the same rule ids as
// diagnose on a summary.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "diagnose/diagnose.h"
#include "test_util.h"

namespace rocelab {
namespace {

std::string StormScenario(const std::string& monitor) {
  return "duration: 20ms\ntimers: {scale: 0.01}\nmonitor: " + monitor +
         "\n"
         "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 2}\n"
         "nic: {timeout: 8, pfc_prevention_tout: off}\n"
         "switch: {pfc_watchdog: {enabled: false}}\n"
         "workload:\n"
         "  - {type: flow, src: h2, dst: h0, size: 400MB}\n"
         "  - {type: flow, src: h3, dst: h1, size: 3GB}\n"
         "faults:\n  - {kind: pfc_storm, target: h0, at: 2ms}\n";
}

// A window of 10 ms scaled by 1/100: the storm is seen at h0 by the end of the first window
// that holds it, and the fault's lifecycle says so.
TEST(Monitor, DetectsAndLocalizesAPauseStormWithinOneWindow) {
  TestRun f = RunYaml(StormScenario("{interval: 10ms}"));
  ASSERT_NE(f.run->monitor(), nullptr);
  const Time window = f.run->monitor()->window();
  EXPECT_EQ(window, 100 * kMicrosecond);
  const Monitor::Detection* d = f.run->FaultDetection(0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->rule, "pfc.slow_receiver");
  EXPECT_EQ(LocationDevice(d->location), "h0");
  EXPECT_GT(d->t, 2 * kMillisecond);
  EXPECT_LE(d->t, 2 * kMillisecond + window);
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["faults"][0]["detected_by"], "pfc.slow_receiver");
  EXPECT_EQ(s["faults"][0]["mttd_ns"], static_cast<double>(d->t - 2 * kMillisecond) / kNanosecond);
  // Nothing was detected before the fault: the fabric was healthy until then.
  for (const Monitor::Detection& x : f.run->monitor()->detections()) EXPECT_GE(x.t, 2 * kMillisecond) << x.rule;
}

// One rule set, two inputs: the monitor over one window covering the whole run finds what
// diagnose finds in the run's summary.json, rule id for rule id and place for place.
TEST(Monitor, SameRulesAsDiagnoseOverTheSameWindow) {
  TestRun f = RunYaml(StormScenario("{interval: 2000ms}"));  // scaled: one 20 ms window
  std::set<std::pair<std::string, std::string>> monitor, diagnose;
  for (const Monitor::Detection& d : f.run->monitor()->detections()) monitor.insert({d.rule, d.location});
  const std::string dir = ::testing::TempDir() + "/monitor-same";
  std::system(("mkdir -p " + dir).c_str());
  std::ofstream(dir + "/summary.json") << SummaryJson(*f.run);
  for (const Diagnosis& d : Diagnose(LoadEvidence({dir}), false))
    if (d.severity != Severity::kInfo && d.layer != "application" && d.layer != "evidence")
      diagnose.insert({d.rule, d.location});
  EXPECT_FALSE(monitor.empty());
  EXPECT_EQ(monitor, diagnose);
}

// A link that goes down is seen at one of its ends (carrier changes, SONiC's flap count).
TEST(Monitor, LinkDownIsLocalizedToAnEndOfTheLink) {
  TestRun f = RunYaml(
      "duration: 5ms\nmonitor: {interval: 200us}\n"
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4}\n"
      "switch: {link_down_detection: 50us, route_convergence: 200us}\n"
      "nic: {timeout: 6}\n"
      "workload:\n  - {type: all-to-all, size: 1MB}\n"
      "faults:\n  - {kind: link_down, target: leaf0-spine1, at: 100us}\n");
  const Monitor::Detection* d = f.run->FaultDetection(0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->rule, "physical.link_flap");
  const std::string end = LocationDevice(d->location);
  EXPECT_TRUE(end == "leaf0" || end == "spine1") << d->location;
  EXPECT_EQ(d->t, 200 * kMicrosecond);
}

}  // namespace
}  // namespace rocelab
