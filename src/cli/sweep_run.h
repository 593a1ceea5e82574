// How a sweep's runs are made: one run, as `rocelab run` makes it (an
// Experiment, then SummaryJson) but quietly, into its own folder
// DIR/runs/<id>/ (summary.json, and series.csv when the scenario samples time
// series; report.html only when asked); and many runs on this machine's cores,
// each in a child process of its own so that a crash, or the memory a run
// takes, stays with that run.
#ifndef ROCELAB_CLI_SWEEP_RUN_H_
#define ROCELAB_CLI_SWEEP_RUN_H_

#include <functional>
#include <string>
#include <vector>

#include "report/summary.h"
#include "scenario/scenario.h"
#include "sweep/campaign.h"

namespace rocelab {

struct RunOutputs {
  DeviceCounters counters = DeviceCounters::kAll;
  bool report = false;  // report.html beside summary.json (sweep --report)
};

// DIR/runs/<id>: where a sweep's run writes.
std::string RunFolder(const std::string& sweep_dir, const std::string& id);

// Runs `sc` into `dir` (made if missing) and returns the summary it wrote there. Throws
// std::runtime_error when it cannot write.
std::string RunOne(const Scenario& sc, const std::string& dir, const RunOutputs& outputs);

// A sweep ready to go: its campaign, checked, and which of its runs are still to make (indices
// into campaign.runs, in order).
struct SweepPlan {
  Campaign campaign;
  std::vector<size_t> todo;
};

// What becomes of a run: its summary, or (summary null) why it failed.
using RunDone = std::function<void(const SweepRun& run, const std::string* summary, const std::string& error)>;

// Makes the plan's runs into `sweep_dir`, up to `jobs` at once, each in a forked child of this
// process, and calls `done` here as each ends, in the order they end. The children die with
// this process: a sweep killed, even with SIGKILL, leaves no run going on.
void RunLocally(const SweepPlan& plan, int jobs, const std::string& sweep_dir, const RunOutputs& outputs,
                const RunDone& done);

}  // namespace rocelab

#endif  // ROCELAB_CLI_SWEEP_RUN_H_
