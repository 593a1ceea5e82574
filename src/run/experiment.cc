#include "run/experiment.h"

#include <algorithm>

#include "workload/allreduce.h"
#include "workload/generators.h"
#include "workload/storage.h"

namespace rocelab {

namespace {

Scenario WithoutFaults(Scenario sc) {
  sc.faults.clear();
  return sc;
}

}  // namespace

Experiment::Experiment(const Scenario& sc) : Experiment(sc, Role::kRun) {}

Experiment::Experiment(const Scenario& sc, Role role)
    : fabric_(role == Role::kCounterfactual ? WithoutFaults(sc) : sc) {
  for (const FlowRequest& f : GenerateFlows(fabric_.scenario(), fabric_.topology())) {
    QueuePair& qp = fabric_.AddFlow(f.src, f.dst, f.size, f.start, f.dscp);
    if (f.udp_sport) qp.udp_sport = f.udp_sport;
    if (f.udp_dport) qp.udp_dport = f.udp_dport;
    if (f.background) {
      qp.windowed = true;
      qp.rto = f.rto;
    }
    trace_of_qp_.resize(qp.id + 1, -1);
    trace_of_qp_[qp.id] = f.trace;
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
  if (sc.monitor_interval > 0 && sc.probes.on) {
    pingmesh_ = std::make_unique<Pingmesh>(&fabric_, ScaledTimer(sc.probes.interval, sc.timer_scale),
                                           ScaledTimer(sc.probes.timeout, sc.timer_scale),
                                           sc.probes.fabric_peers, sc.probes.dscp);
  }
  if (sc.monitor_interval > 0) {
    monitor_ = std::make_unique<Monitor>(this);
    fabric_.RunToEnd();
  }
  if (monitor_ && sc.recovery_auto) {
    recovery_ = std::make_unique<Recovery>(this, monitor_.get());
    monitor_->SetOnDetection([this](const Monitor::Detection& d) { Act(d); });
    monitor_->SetOnWindow([this](const Evidence& w) {
      const size_t before = recovery_->actions().size();
      recovery_->OnWindow(w);
      NoteShuts(before);
    });
  }
  if (monitor_ && sc.recovery_runbook) {
    recovery_ = std::make_unique<Recovery>(this, monitor_.get());
    runbook_ = std::make_unique<Runbook>(&fabric_, [this](const Monitor::Detection& d) { Act(d); });
    monitor_->SetOnDetection(
        [this](const Monitor::Detection& d) { runbook_->OnDetection(d, Recovery::ActionTier(d)); });
    recovery_->SetDefer([this](const Monitor::Detection& d, std::function<void()> step) {
      runbook_->Escalate(d, "T3", [this, step = std::move(step)] {
        const size_t before = recovery_->actions().size();
        step();
        NoteShuts(before);
      });
    });
    monitor_->SetOnWindow([this](const Evidence& w) { recovery_->OnWindow(w); });
  }
  // The lifecycle figures' instruments, only where there are faults to measure (or this is the
  // run they are measured against), so a scenario without faults runs as it always did.
  if (sc.faults.empty()) return;
  std::vector<Time> marks;
  for (const FaultSpec& f : sc.faults) marks.push_back(f.at);
  const Time window = sc.lifecycle.window > 0 ? sc.lifecycle.window : monitor_ ? monitor_->window() : sc.duration / 100;
  probe_ = std::make_unique<LifecycleProbe>(&fabric_, trace_of_qp_, sc.traces.size(), window, marks);
  if (role == Role::kCounterfactual) return;
  touch_ = std::make_unique<FlowTouch>(&fabric_, *faults_);
  for (size_t i = 0; i < sc.allreduces.size(); ++i) ceilings_before_.push_back(ComputeRingCeiling(fabric_, allreduce(i)));
}

void Experiment::Act(const Monitor::Detection& d) {
  const size_t before = recovery_->actions().size();
  recovery_->OnDetection(d);
  NoteShuts(before);
}

void Experiment::NoteShuts(size_t from) {
  // What the link had lost when recovery shut it: the loss after is the action's.
  for (size_t i = from; i < recovery_->actions().size(); ++i) {
    const Recovery::Action& a = recovery_->actions()[i];
    if (!Recovery::ShutsALink(a)) continue;
    shut_base_[a.action] = LinkLostBytes(a.devices[0], a.devices[1]);
    uint64_t no_route = 0;
    for (const auto& sw : fabric_.switches()) no_route += sw->no_route_drop_bytes();
    no_route_base_[a.action] = no_route;
  }
}

uint64_t Experiment::NoRouteBytesAt(const Recovery::Action& a) const {
  auto it = no_route_base_.find(a.action);
  return it == no_route_base_.end() ? 0 : it->second;
}

uint64_t Experiment::LinkLostBytes(const std::string& a, const std::string& b) const {
  const Topology& topo = fabric_.topology();
  const int na = topo.FindNode(a);
  if (na < 0) return 0;
  for (size_t p = 0; p < topo.nodes()[na].ports.size(); ++p) {
    const TopoPort& tp = topo.nodes()[na].ports[p];
    if (topo.nodes()[tp.peer_node].name != b) continue;
    uint64_t lost = 0;
    for (const auto& [node, port] : {std::pair<int, int>{na, static_cast<int>(p)}, {tp.peer_node, tp.peer_port}})
      if (const PortFaults* pf = fabric_.device(node).port(port).faults.get()) lost += pf->counters.carrier_lost_bytes;
    return lost;
  }
  return 0;
}

uint64_t Experiment::ShutLinkLostBytes(const Recovery::Action& a) const {
  auto it = shut_base_.find(a.action);
  if (it == shut_base_.end()) return 0;
  return LinkLostBytes(a.devices[0], a.devices[1]) - it->second;
}

const Counterfactual* Experiment::counterfactual() const {
  RunCounterfactual(nullptr);
  return counterfactual_ ? &*counterfactual_ : nullptr;
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

std::vector<RunFault> Experiment::RecoveryAccount() const {
  std::vector<RunFault> out;
  if (!recovery_) return out;
  uint64_t no_route = 0;
  for (const auto& sw : fabric_.switches()) no_route += sw->no_route_drop_bytes();
  for (size_t i = 0; i < faults_->records().size(); ++i) {
    const FaultInjector::Record& r = faults_->records()[i];
    if (r.injected < 0) continue;
    RunFault f;
    f.kind = r.kind;
    f.target = r.target;
    f.injected_s = static_cast<double>(r.injected) / kSecond;
    bool shut = false;
    for (const Recovery::Action& a : FaultActions(i)) {
      f.actions.push_back({static_cast<double>(a.t) / kSecond, a.tier, a.action, a.kind, a.devices});
      if (!shut && ShutLinkTaken(a)) {
        shut = true;
        f.no_route_after_shut_bytes = static_cast<double>(no_route - NoRouteBytesAt(a));
      }
    }
    if (!f.actions.empty()) out.push_back(std::move(f));
  }
  return out;
}

Time Experiment::FaultRecovered(size_t i) const {
  const std::vector<Recovery::Action> actions = FaultActions(i);
  if (actions.empty()) return FaultLeftToFabric(i) ? monitor_->QuietAfter(FaultDetection(i)->t, FaultDevices(i)) : -1;
  return monitor_->QuietAfter(actions.back().t, FaultDevices(i));
}

const Monitor::Detection* Experiment::FlapDetection(size_t i) const {
  const FaultInjector::Record& r = faults_->records()[i];
  if (!monitor_ || r.injected < 0 || r.kind != "link_flap") return nullptr;
  const std::vector<std::string> devices = FaultDevices(i);
  for (const Monitor::Detection& d : monitor_->detections())
    if (d.t >= r.injected && d.rule == "physical.link_flap" &&
        std::find(devices.begin(), devices.end(), LocationDevice(d.location)) != devices.end())
      return &d;
  return nullptr;
}

bool Experiment::FaultLeftToFabric(size_t i) const {
  if (!recovery_) return false;
  const Monitor::Detection* d = FaultDetection(i);
  return d && d->rule == "physical.link_down";
}

const Monitor::Detection* Experiment::FaultDetection(size_t i) const {
  const Monitor::Detection* localized = FaultLocalization(i);
  const FaultInjector::Record& r = faults_->records()[i];
  if (!monitor_ || r.injected < 0) return localized;
  for (const Monitor::Detection& d : monitor_->detections()) {
    if (d.t < r.injected || !d.fault()) continue;
    if (localized && d.t >= localized->t) break;
    // Another fault in force then: the sign could be its.
    for (size_t j = 0; j < faults_->records().size(); ++j) {
      const FaultInjector::Record& o = faults_->records()[j];
      if (j != i && o.injected >= 0 && o.injected <= d.t && (o.cleared < 0 || o.cleared > d.t - monitor_->window()))
        return localized;
    }
    return &d;
  }
  return localized;
}

const Monitor::Detection* Experiment::FaultLocalization(size_t i) const {
  const FaultInjector::Record& r = faults_->records()[i];
  const std::vector<std::string> devices = FaultDevices(i);
  if (!monitor_ || r.injected < 0 || devices.empty()) return nullptr;
  const auto& all = monitor_->detections();
  for (auto it = all.begin(); it != all.end(); ++it) {
    const Monitor::Detection& d = *it;
    // Congestion that congestion control handles is no fault's; a paused port is where it shows.
    if (d.t < r.injected || !d.fault() || !d.localizes()) continue;
    const std::string dev = LocationDevice(d.location);
    if (std::find(devices.begin(), devices.end(), dev) == devices.end()) continue;
    // A deadlock grows out of a congestion tree: once its cycle holds, through the tree's root,
    // the deadlock is what the fault is (the tree was how it looked before it closed).
    if (d.rule == "pfc.congestion_tree")
      for (auto later = it + 1; later != all.end(); ++later)
        if (later->rule == "pfc.deadlock" && (" " + later->location + " ").find(" " + dev + " ") != std::string::npos)
          return &*later;
    return &d;
  }
  return nullptr;
}

bool Experiment::StartWatchdog(size_t index, const PfcWatchdogSpec& spec) {
  Switch* sw = fabric_.switches()[index].get();
  if (watchdogs_[index] || !sw->pfc_mask()) return false;
  watchdogs_[index] = std::make_unique<PfcWatchdog>(fabric_.context(), sw, spec);
  return true;
}

void Experiment::Run() {
  fabric_.RunUntil(tail_start());
  if (fabric_.now() >= tail_start())
    for (const QueuePair& qp : fabric_.qps()) delivered_at_tail_.push_back(qp.delivered);
  fabric_.Run();
  if (probe_) probe_->Finish();
  if (touch_)
    for (size_t i = 0; i < fabric_.scenario().allreduces.size(); ++i)
      ceilings_after_.push_back(ComputeRingCeiling(fabric_, allreduce(i)));
  finished_ = true;
}

}  // namespace rocelab
