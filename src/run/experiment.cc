#include "run/experiment.h"

#include "workload/allreduce.h"
#include "workload/generators.h"
#include "workload/storage.h"

namespace rocelab {

Experiment::Experiment(const Scenario& sc) : fabric_(sc) {
  for (const FlowRequest& f : GenerateFlows(fabric_.scenario(), fabric_.topology())) {
    QueuePair& qp = fabric_.AddFlow(f.src, f.dst, f.size, f.start, f.dscp);
    if (f.background) {
      qp.windowed = true;
      qp.rto = f.rto;
    }
  }
  fabric_.StartFlows();
  // Each driver opens its queue pairs and starts before the next one is built, so the
  // event order (and with it every result) follows the scenario's order.
  for (const AllreduceSpec& a : sc.allreduces) {
    drivers_.push_back(std::make_unique<AllreduceDriver>(&fabric_, a));
    drivers_.back()->Start();
  }
  for (size_t i = 0; i < sc.storages.size(); ++i) {
    drivers_.push_back(std::make_unique<StorageDriver>(&fabric_, sc.storages[i], sc.seed, i));
    drivers_.back()->Start();
  }
  // Last, so that a scenario without faults schedules exactly what it did before they existed.
  faults_ = std::make_unique<FaultInjector>(&fabric_);
  // The agents. A switch whose PFC is off has nothing to watch.
  for (const auto& s : fabric_.switches())
    watchdogs_.push_back(s->spec().pfc_watchdog.enabled && s->pfc_mask()
                             ? std::make_unique<PfcWatchdog>(fabric_.context(), s.get())
                             : nullptr);
  if (sc.monitor_interval > 0) monitor_ = std::make_unique<Monitor>(this);
  if (monitor_ && sc.recovery_auto) {
    recovery_ = std::make_unique<Recovery>(this, monitor_.get());
    monitor_->SetOnDetection([this](const Monitor::Detection& d) { recovery_->OnDetection(d); });
    monitor_->SetOnWindow([this](const Evidence& w) { recovery_->OnWindow(w); });
  }
}

std::vector<std::string> Experiment::FaultDevices(size_t i) const {
  const FaultTarget& t = faults_->targets()[i];
  if (t.node < 0) {  // a route change: the switches whose routes it changes
    std::vector<std::string> devices;
    for (const RouteOverride& r : fabric_.scenario().faults[i].routes) devices.push_back(r.sw.name);
    return devices;
  }
  const Topology& topo = fabric_.topology();
  std::vector<std::string> devices{topo.nodes()[t.node].name};
  if (t.what == FaultTarget::What::kLink) devices.push_back(topo.nodes()[topo.nodes()[t.node].ports[t.port].peer_node].name);
  return devices;
}

std::vector<Recovery::Action> Experiment::FaultActions(size_t i) const {
  std::vector<Recovery::Action> out;
  if (!recovery_) return out;
  const Time injected = faults_->records()[i].injected;
  const std::vector<std::string> devices = FaultDevices(i);
  for (const Recovery::Action& a : recovery_->actions()) {
    bool mine = false;
    for (const std::string& d : a.devices)
      for (const std::string& f : devices) mine = mine || d == f;
    if (mine && injected >= 0 && a.t >= injected) out.push_back(a);
  }
  return out;
}

Time Experiment::FaultRecovered(size_t i) const {
  const std::vector<Recovery::Action> actions = FaultActions(i);
  if (actions.empty()) return -1;
  return monitor_->QuietAfter(actions.back().t, FaultDevices(i));
}

const Monitor::Detection* Experiment::FaultDetection(size_t i) const {
  const FaultInjector::Record& r = faults_->records()[i];
  const std::vector<std::string> devices = FaultDevices(i);
  if (!monitor_ || r.injected < 0 || devices.empty()) return nullptr;
  for (const Monitor::Detection& d : monitor_->detections()) {
    // Congestion that congestion control handles is no fault's; a paused port is where it shows.
    if (d.t < r.injected || !d.fault() || !d.localizes()) continue;
    const std::string dev = LocationDevice(d.location);
    for (const std::string& n : devices)
      if (dev == n) return &d;
  }
  return nullptr;
}

void Experiment::Run() {
  fabric_.RunUntil(tail_start());
  if (fabric_.now() >= tail_start())
    for (const QueuePair& qp : fabric_.qps()) delivered_at_tail_.push_back(qp.delivered);
  fabric_.Run();
}

}  // namespace rocelab
