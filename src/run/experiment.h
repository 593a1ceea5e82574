// One run of a scenario: the fabric, the static flows of its workload entries
// and the drivers of its dynamic workloads (collectives, storage), on one
// event loop. This is the one room that knows both the network and the
// workloads; faults and agents plug in here too, so net/ never includes
// workload/.
#ifndef ROCELAB_RUN_EXPERIMENT_H_
#define ROCELAB_RUN_EXPERIMENT_H_

#include <memory>
#include <vector>

#include "fault/fault_injector.h"
#include "net/fabric.h"
#include "net/pfc_watchdog.h"
#include "run/monitor.h"
#include "run/recovery.h"
#include "scenario/scenario.h"
#include "workload/driver.h"

namespace rocelab {

class Experiment {
 public:
  // Builds the fabric and puts the workload on it. Throws ConfigError for names
  // that do not resolve or entries that cannot be generated.
  explicit Experiment(const Scenario& sc);
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
  // The monitor (a `monitor` section), or nullptr.
  const Monitor* monitor() const { return monitor_.get(); }
  // The monitor's first fault detection (T2 or T3) that names fault `i`'s target (a device of it: the host, the
  // switch, either end of the link) at or after its injection; nullptr if none.
  const Monitor::Detection* FaultDetection(size_t i) const;
  // The recovery actions taken on fault `i`'s devices, and when the monitor saw them quiet
  // after the last of them (-1: not yet); empty without `recovery: {mode: auto}`.
  std::vector<Recovery::Action> FaultActions(size_t i) const;
  Time FaultRecovered(size_t i) const;

 private:
  Fabric fabric_;
  std::vector<std::unique_ptr<WorkloadDriver>> drivers_;
  std::unique_ptr<FaultInjector> faults_;
  std::vector<std::unique_ptr<PfcWatchdog>> watchdogs_;
  std::unique_ptr<Monitor> monitor_;
  std::unique_ptr<Recovery> recovery_;
  // The devices fault `i` acts on: the host or switch, both ends of the link, or the switches
  // whose routes a route change sets.
  std::vector<std::string> FaultDevices(size_t i) const;
  std::vector<uint64_t> delivered_at_tail_;
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_EXPERIMENT_H_
