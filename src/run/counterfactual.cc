#include "run/counterfactual.h"

#include "report/summary.h"
#include "run/experiment.h"

namespace rocelab {

void Experiment::RunCounterfactual(ProgressListener* progress) const {
  if (counterfactual_run_) return;
  counterfactual_run_ = true;
  const Scenario& sc = fabric_.scenario();
  if (sc.faults.empty() || !sc.lifecycle.counterfactual) return;
  Experiment x(sc, Role::kCounterfactual);
  x.fabric().SetProgressListener(progress);
  x.Run();
  x.fabric().SetProgressListener(nullptr);
  const Fabric& f = x.fabric();
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
  counterfactual_.emplace(std::move(c));
}

}  // namespace rocelab
