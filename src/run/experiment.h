// One run of a scenario: the fabric, the static flows of its workload entries
// and the drivers of its dynamic workloads (collectives, storage), on one
// event loop. This is the one room that knows both the network and the
// workloads; faults and agents plug in here too, so net/ never includes
// workload/.
#ifndef ROCELAB_RUN_EXPERIMENT_H_
#define ROCELAB_RUN_EXPERIMENT_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fault/fault_injector.h"
#include "net/fabric.h"
#include "net/pfc_watchdog.h"
#include "run/counterfactual.h"
#include "run/flow_touch.h"
#include "run/lifecycle_probe.h"
#include "run/monitor.h"
#include "run/pingmesh.h"
#include "run/recovery.h"
#include "run/ring_ceiling.h"
#include "run/runbook.h"
#include "scenario/scenario.h"
#include "workload/allreduce.h"
#include "workload/driver.h"

namespace rocelab {

class Experiment {
 public:
  // Builds the fabric and puts the workload on it. Throws ConfigError for names
  // that do not resolve or entries that cannot be generated.
  explicit Experiment(const Scenario& sc);
  // kCounterfactual: `sc` without its faults, probed at the same instants as the run with
  // them (run/counterfactual.h).
  enum class Role { kRun, kCounterfactual };
  Experiment(const Scenario& sc, Role role);
  Experiment(const Experiment&) = delete;
  Experiment& operator=(const Experiment&) = delete;

  // Runs to the end. Long flows still running then are measured over the last fifth of the
  // run as well (their converged shares), from a snapshot taken on the way.
  void Run();

  Fabric& fabric() { return fabric_; }
  const Fabric& fabric() const { return fabric_; }
  // The dynamic workloads in scenario order: every AllReduce, then every storage entry.
  const std::vector<std::unique_ptr<WorkloadDriver>>& drivers() const { return drivers_; }
  // Bytes each queue pair had delivered at tail_start() (empty if the run ended before it).
  const std::vector<uint64_t>& delivered_at_tail() const { return delivered_at_tail_; }
  Time tail_start() const { return fabric_.scenario().duration / 5 * 4; }
  // The scenario's faults: what each did and when.
  const FaultInjector& faults() const { return *faults_; }
  // The PFC watchdog of switch `index` (in switch order); nullptr where it is off.
  const PfcWatchdog* watchdog(size_t index) const { return watchdogs_[index].get(); }
  // `config pfcwd start` on switch `index`: a watchdog with `spec` (production times, scaled as
  // the run's), polling from now on, where none runs yet. False where one runs, or PFC is off.
  bool StartWatchdog(size_t index, const PfcWatchdogSpec& spec);
  // The monitor (a `monitor` section), or nullptr.
  const Monitor* monitor() const { return monitor_.get(); }
  Monitor* monitor() { return monitor_.get(); }
  // The hosts' probing agents (monitor.probes), or nullptr.
  const Pingmesh* pingmesh() const { return pingmesh_.get(); }
  // Localization: the monitor's first fault detection (T2 or T3) that names fault `i`'s target
  // (a device of it: the host, the switch, either end of the link) at or after its injection;
  // nullptr if none.
  const Monitor::Detection* FaultLocalization(size_t i) const;
  // Detection: the first sign of fault `i` the monitor saw, which may name a victim before
  // anything names the root (a port paused by a storm): its first fault detection after the
  // injection, anywhere, while no other fault was in force (with two at once a sign is only
  // theirs by where it is: then this is the localization). No later than the localization;
  // nullptr if neither.
  const Monitor::Detection* FaultDetection(size_t i) const;
  // A link_flap fault: the monitor's first physical.link_flap detection naming its link (each
  // down before the flap count is reached is a link down); nullptr if none or another kind.
  const Monitor::Detection* FlapDetection(size_t i) const;
  // The recovery actions taken on fault `i`'s devices, and when the monitor saw them quiet
  // after the last of them (-1: not yet); empty without `recovery: {mode: auto}` (or runbook).
  std::vector<Recovery::Action> FaultActions(size_t i) const;
  Time FaultRecovered(size_t i) const;
  // What recovery has done so far, fault by fault, as diagnose reads it from a summary (the
  // actions, the packets dropped for want of a route since the first link it shut): what the
  // monitor labels the findings the actions caused by. Faults without actions are left out.
  std::vector<RunFault> RecoveryAccount() const;
  // Whether fault `i` was detected as what the switches answer on their own (a link down: they
  // route around it, and take it back when it comes up), so that no action is due: then it
  // counts as recovered once the monitor is quiet about it after its detection.
  bool FaultLeftToFabric(size_t i) const;
  // The devices fault `i` acts on: the host or switch, or both ends of the link.
  std::vector<std::string> FaultDevices(size_t i) const;

  // ---- What the faults' lifecycle figures read (run/lifecycle.h); only with faults ----
  // Whether Run() has run to the end.
  bool finished() const { return finished_; }
  // AllReduce workload `i`, in scenario order.
  const AllreduceDriver& allreduce(size_t i) const { return static_cast<const AllreduceDriver&>(*drivers_[i]); }
  const LifecycleProbe* probe() const { return probe_.get(); }
  const FlowTouch* touch() const { return touch_.get(); }
  // `recovery: {mode: runbook}`: the tickets the detections opened; nullptr in other modes.
  const Runbook* runbook() const { return runbook_.get(); }
  // The trace entry each queue pair came from (-1: none), by id.
  const std::vector<int>& trace_of_qp() const { return trace_of_qp_; }
  // Per AllReduce: its ring's ceiling over the routes at the start, and at the end of the run.
  const std::vector<RingCeiling>& ceilings_before() const { return ceilings_before_; }
  const std::vector<RingCeiling>& ceilings_after() const { return ceilings_after_; }
  // Frame bytes the carrier lost on the link that recovery action `a` shut, since it shut it
  // (in flight then, or sent into it after); 0 for an action that shut nothing.
  uint64_t ShutLinkLostBytes(const Recovery::Action& a) const;
  // Whether action `a` shut a link; and every switch's no-route drop bytes when it was taken.
  bool ShutLinkTaken(const Recovery::Action& a) const { return shut_base_.count(a.action) > 0; }
  uint64_t NoRouteBytesAt(const Recovery::Action& a) const;
  // The counterfactual, run on first need (here, or RunCounterfactual with a progress line)
  // when the scenario has faults and lifecycle.counterfactual is on; else nullptr. Both in
  // run/counterfactual.cc.
  const Counterfactual* counterfactual() const;
  void RunCounterfactual(ProgressListener* progress) const;
  // What the fabric can carry as this run left it: the counterfactual again, with every link
  // that was down at this run's end (a link down for good, a link recovery shut) down from the
  // start and the routes converged around it. An AllReduce has its full service back when its
  // iterations are within 5 % of this run's, not of the run without the fault: a link out of
  // service lowers what the fabric can carry, and no action brings that back. Run on first
  // need, once this run has finished; nullptr when no link was down at its end, there is no
  // AllReduce, or lifecycle.counterfactual is off.
  const Counterfactual* capacity() const;
  // The links it holds down ("leaf0-spine1"), and when the last of them went down in this run.
  const std::vector<std::string>& capacity_links() const { return capacity_links_; }
  Time capacity_since() const { return capacity_since_; }

 private:
  Fabric fabric_;
  std::vector<std::unique_ptr<WorkloadDriver>> drivers_;
  std::unique_ptr<FaultInjector> faults_;
  std::vector<std::unique_ptr<PfcWatchdog>> watchdogs_;
  std::unique_ptr<Pingmesh> pingmesh_;
  std::unique_ptr<Monitor> monitor_;
  std::unique_ptr<Recovery> recovery_;
  std::vector<uint64_t> delivered_at_tail_;
  // The faults' lifecycle.
  void Act(const Monitor::Detection& d);  // recovery acts on `d` now
  void NoteShuts(size_t from);            // the links recovery's actions from `from` on shut: what they had lost
  // carrier_lost_bytes at both ends of the link between devices `a` and `b`.
  uint64_t LinkLostBytes(const std::string& a, const std::string& b) const;
  bool finished_ = false;
  std::vector<int> trace_of_qp_;
  std::unique_ptr<Runbook> runbook_;
  std::unique_ptr<LifecycleProbe> probe_;
  std::unique_ptr<FlowTouch> touch_;
  std::vector<RingCeiling> ceilings_before_, ceilings_after_;
  // Shut action -> LinkLostBytes, and every switch's no-route drop bytes, when it was taken.
  std::map<std::string, uint64_t> shut_base_, no_route_base_;
  mutable bool counterfactual_run_ = false;
  mutable std::optional<Counterfactual> counterfactual_;
  mutable bool capacity_run_ = false;
  mutable std::optional<Counterfactual> capacity_;
  mutable std::vector<std::string> capacity_links_;
  mutable Time capacity_since_ = -1;
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_EXPERIMENT_H_
