// Helpers shared by the fabric tests: build a scenario from YAML text and run it.
#ifndef ROCELAB_TESTS_TEST_UTIL_H_
#define ROCELAB_TESTS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "net/fabric.h"
#include "report/summary.h"
#include "run/experiment.h"
#include "scenario/scenario.h"
#include "util/config_error.h"

namespace rocelab {

// A run: `->` and `*` reach its fabric, `run` the experiment (its workload drivers).
struct TestRun {
  std::unique_ptr<Experiment> run;
  Fabric* operator->() const { return &run->fabric(); }
  Fabric& operator*() const { return run->fabric(); }
};

// A shipped fault scenario, scenarios/faults/<name>.yaml, with its monitor's windows on the
// clock from 0 (the shipped ones draw their phase from the seed): for tests that expect exact
// times of detections and actions.
inline Scenario FaultScenarioOnTheClock(const std::string& name) {
  Scenario sc = LoadScenarioFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/" + name + ".yaml");
  sc.monitor_phase_random = false;
  return sc;
}

// Built but not started, for tests that step it with RunUntil and look at it mid-run.
inline TestRun StartYaml(const std::string& yaml) {
  return TestRun{std::make_unique<Experiment>(ParseScenarioText(yaml, "test.yaml"))};
}

// What the scenario reader said refusing `yaml` read as the file `file`; empty if it took it.
inline std::string Refusal(const std::string& yaml, const std::string& file = "test.yaml") {
  try {
    ParseScenarioText(yaml, file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// Run to the end.
inline TestRun RunYaml(const std::string& yaml) {
  TestRun r = StartYaml(yaml);
  r.run->Run();
  return r;
}

// Counts the messages a driven queue pair completed (requester side).
struct CountCompletions : MessageListener {
  int done = 0;
  void OnSendComplete(uint32_t, const Message&, Time) override { ++done; }
  void OnReceiveComplete(uint32_t, uint8_t, Time) override {}
  void OnSendError(uint32_t, const Message&, Error error, Time) override {
    ++(error == Error::kRetryExceeded ? retry_exceeded : flushed);
  }
  int retry_exceeded = 0, flushed = 0;
};

// The example fabric of the scenario schema: 2 spines, 2 leaves, 8 hosts each.
inline std::string ExampleFabric(const std::string& extra_switch = "", const std::string& nic = "{mtu: 4096, cc: none}",
                                 const std::string& buffer = "32MB") {
  return "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 8,\n"
         "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}\n"
         "switch:\n  buffer: " + buffer + "\n  lossless_priorities: [3]\n" + extra_switch +
         "nic: " + nic + "\n";
}

// Workload entries: one `size` flow from each of h<first>..h<last> to `dst`.
inline std::string FlowsTo(int first, int last, const std::string& dst, const std::string& size) {
  std::string s;
  for (int h = first; h <= last; ++h)
    s += "  - {type: flow, src: h" + std::to_string(h) + ", dst: " + dst + ", size: " + size + "}\n";
  return s;
}

// The timeline's events of one kind, in order.
inline std::vector<const TimelineEvent*> Events(const Fabric& f, const std::string& event) {
  std::vector<const TimelineEvent*> out;
  for (const TimelineEvent& e : f.timeline().events())
    if (e.event == event) out.push_back(&e);
  return out;
}

// Summary JSON without the "engine" block (the only wall-clock figures).
inline std::string WithoutEngine(const std::string& json) {
  size_t a = json.find("  \"engine\": {");
  size_t b = json.find("},", a);
  return json.substr(0, a) + json.substr(b + 3);
}

}  // namespace rocelab

#endif  // ROCELAB_TESTS_TEST_UTIL_H_
