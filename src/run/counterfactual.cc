#include "run/counterfactual.h"

#include "report/summary.h"
#include "run/experiment.h"

#include <algorithm>
#include <set>

#include "topo/naming.h"

namespace rocelab {

namespace {

// What the lifecycle compares with, from a finished run `x`.
Counterfactual Measured(const Experiment& x) {
  const Fabric& f = x.fabric();
  const Scenario& sc = f.scenario();
  Counterfactual c;
  c.end = f.now();
  c.wall_s = f.engine().wall_s;
  for (const QueuePair& qp : f.qps()) c.qps.push_back({qp.done, qp.failed, qp.open, qp.start, qp.finish, qp.delivered});
  for (size_t i = 0; i < sc.allreduces.size(); ++i) {
    const AllreduceDriver& d = x.allreduce(i);
    c.allreduce_times.push_back(d.iteration_times());
    std::vector<Time> ends;
    for (size_t j = 0; j < d.iteration_times().size(); ++j) ends.push_back(d.iteration_begins()[j] + d.iteration_times()[j]);
    c.allreduce_ends.push_back(ends);
  }
  c.samples = x.probe()->samples();
  c.marks = x.probe()->marks();
  const Totals t = ComputeTotals(f);
  c.bytes_delivered = t.bytes_delivered;
  c.drops_lossless = t.drops_lossless;
  c.pause_frames_tx = t.pause_frames_tx;
  const SlowdownRow all = SlowdownTable(f).front();
  c.slowdown_p50 = all.p50;
  c.slowdown_p99 = all.p99;
  c.detections = x.monitor() ? x.monitor()->detections().size() : 0;
  return c;
}

}  // namespace

void Experiment::RunCounterfactual(ProgressListener* progress) const {
  if (counterfactual_run_) return;
  counterfactual_run_ = true;
  const Scenario& sc = fabric_.scenario();
  if (sc.faults.empty() || !sc.lifecycle.counterfactual) return;
  Experiment x(sc, Role::kCounterfactual);
  x.fabric().SetProgressListener(progress);
  x.Run();
  x.fabric().SetProgressListener(nullptr);
  counterfactual_.emplace(Measured(x));
}

const Counterfactual* Experiment::capacity() const {
  if (capacity_run_) return capacity_ ? &*capacity_ : nullptr;
  const Scenario& sc = fabric_.scenario();
  if (!finished_ || sc.faults.empty() || !sc.lifecycle.counterfactual || sc.allreduces.empty()) return nullptr;
  capacity_run_ = true;
  // Each link down at the end, once (from its lower node's end).
  const Topology& topo = fabric_.topology();
  std::vector<std::pair<int, int>> down;
  for (size_t n = 0; n < topo.nodes().size(); ++n) {
    const TopoNode& node = topo.nodes()[n];
    for (size_t p = 0; p < node.ports.size(); ++p) {
      const TopoPort& tp = node.ports[p];
      if (tp.peer_node < static_cast<int>(n) || fabric_.device(static_cast<int>(n)).Carrier(static_cast<int>(p))) continue;
      down.push_back({static_cast<int>(n), static_cast<int>(p)});
      capacity_links_.push_back(LinkName(node.name, topo.nodes()[tp.peer_node].name));
    }
  }
  if (down.empty()) return nullptr;
  // When the last of them went down: its carrier, not its signal (a flap's link held down goes
  // on losing its signal).
  std::set<std::string> names;  // each link by either end first
  for (const auto& [n, p] : down) {
    const std::string& a = topo.nodes()[n].name;
    const std::string& b = topo.nodes()[topo.nodes()[n].ports[p].peer_node].name;
    names.insert(LinkName(a, b));
    names.insert(LinkName(b, a));
  }
  for (const TimelineEvent& e : fabric_.timeline().events())
    if (e.event == "carrier_down" && names.count(e.detail.substr(0, e.detail.find(' '))))
      capacity_since_ = std::max(capacity_since_, e.t);
  Experiment x(sc, Role::kCounterfactual);
  for (const auto& [n, p] : down) x.fabric().StartWithLinkDown(n, p);
  x.Run();
  capacity_.emplace(Measured(x));
  return &*capacity_;
}

}  // namespace rocelab
