// What each fault cost, beyond when it was detected and acted on: the flows
// it slowed without touching them, the jobs it slowed, what the actions
// dropped, how long the workloads took to come back, and the price of the time
// lost. Computed once the run is over, from the run (its probe, its taps, its
// recovery), and from the counterfactual: the same run without the faults
// (run/counterfactual.h). docs/faults.md ("What a fault cost") defines each
// figure; summary.json's faults[] and `rocelab run` show them.
//
//   victim flows: flows (not a workload driver's queue pairs) that never
//     touched the fault's target (run/flow_touch.h), were still running at its
//     injection in the counterfactual, and finished more than 10 % later than
//     there, or not at all.
//   recovered, per workload: an AllReduce's iterations back within 5 % of what
//     the fabric can do after the fault (its time without the fault, scaled by
//     the ring's ceiling after over before: run/ring_ceiling.h), and where the
//     ceiling held, only while the ring is behind the counterfactual; a trace
//     delivering, window by window, within 5 % of what the counterfactual
//     delivers (its offered load, as a healthy fabric carries it) unless it
//     is not behind it; finite
//     flows all finished. The moment: the end of the last iteration or window
//     that fell short, once one that did not followed it.
//   lost time: an AllReduce's iterations' time beyond their time without the
//     fault (the job's wall-clock loss; GPU idle = ranks x that); without an
//     AllReduce, the degraded period times the share of bytes not delivered.
//   runbook: an action due after the run's end ends the degraded period there,
//     extrapolated at the throughput measured during the simulated part.
#ifndef ROCELAB_RUN_LIFECYCLE_H_
#define ROCELAB_RUN_LIFECYCLE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run/cost.h"
#include "run/experiment.h"
#include "run/ring_ceiling.h"

namespace rocelab {

// The thresholds of the definitions above.
constexpr double kVictimSlowdown = 1.10;  // "finished > 10 % later"
constexpr double kRecoveredWithin = 0.05;  // "within 5 %"

struct VictimFlow {
  uint32_t id = 0;
  std::string src, dst;
  Time fct = -1;          // -1: it did not finish (state says why)
  Time fct_without = -1;  // in the counterfactual
  std::string state;      // finished, qp_error, unfinished
};

struct WorkloadRecovery {
  std::string workload;   // "allreduce 0", "trace 0", "flows"
  std::string criterion;  // what recovered means for it
  Time recovered = -1;    // -1: not by the end of the run
  bool degraded = false;  // it fell short after the injection
};

// One AllReduce under a fault: its iterations that ended after the injection.
struct JobImpact {
  size_t index = 0;
  int ranks = 0;
  uint64_t bytes = 0;  // S
  int iterations = 0;
  Time mean_iteration = 0, baseline_iteration = 0;
  std::string baseline;  // "counterfactual" or "before the fault"
  double inflation = 0;  // mean / baseline
  Time extra = 0;        // the job's lost time: their time beyond their baseline (and a stall)
  double gpu_idle_s = 0;  // ranks x extra
  bool stopped = false;   // a QP error ended it after the injection
  Time behind = 0;        // still running at the end, this far behind the run without the fault
  double throughput = 1;  // iterations per second, as a share of the baseline's
  RingCeiling before, after;
  // What the fabric as the fault left it carries (Experiment::capacity): the mean time of the
  // capacity run's iterations the judged ones were held to, and the links it held down; 0 and
  // empty when there was no such run.
  Time capacity_iteration = 0;
  std::string capacity_links;
};

struct FaultLifecycle {
  bool injected = false;
  Time localized = -1;
  // Frame bytes the actions dropped (docs/faults.md says what counts).
  uint64_t by_watchdog = 0, by_guard = 0, by_shut_links = 0, by_no_route = 0;
  uint64_t bytes_dropped_by_actions() const { return by_watchdog + by_guard + by_shut_links + by_no_route; }
  int flows_failed = 0;
  bool victims_known = false;  // the counterfactual ran
  std::vector<VictimFlow> victims;
  std::vector<WorkloadRecovery> workloads;
  Time workloads_recovered = -1;  // when the last of them had; -1: one did not
  std::vector<JobImpact> jobs;
  Time degraded = 0;              // from the injection to workloads_recovered (or see below)
  bool degraded_to_end = false;   // not recovered by the end of the run: degraded is a lower bound
  double throughput = -1;         // the workloads' during the degraded period, share of without (-1: unknown)
  Time lost = -1;                 // the time the workloads lost (-1: unknown)
  std::string lost_from;          // how it was measured
  bool extrapolated = false;      // runbook: the action was due after the run's end
  Time action_due = -1;
  std::string action_tier, extrapolation;  // the arithmetic
  std::optional<CostFigure> cost;
  std::optional<ProductionCost> production;  // the same fault at production time (run/cost.h)
};

// One per fault, in scenario order; empty until the run has finished. Runs the
// counterfactual first if it has not run.
std::vector<FaultLifecycle> ComputeLifecycle(const Experiment& x);

// When fault `i` was recovered (-1: not by the end of the run): the monitor quiet about its
// devices after the last action (Experiment::FaultRecovered) and, where `lc` judged the
// workloads, every one of them back: the later of the two.
Time FaultRecoveredAt(const Experiment& x, size_t i, const FaultLifecycle* lc);

// What `rocelab run` prints under fault `i`'s line, and once about the counterfactual.
std::vector<std::string> LifecycleLines(const Experiment& x, size_t i, const FaultLifecycle& f);
std::string CounterfactualLine(const Experiment& x);

}  // namespace rocelab

#endif  // ROCELAB_RUN_LIFECYCLE_H_
