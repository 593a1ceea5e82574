#include "report/lifecycle_json.h"

namespace rocelab {

namespace {

void Ns(JsonWriter& w, const char* key, Time t) {
  if (t < 0) w.Null(key);
  else w.Double(key, static_cast<double>(t) / kNanosecond, 3);
}

void WriteCeiling(JsonWriter& w, const char* key, const RingCeiling& c, uint64_t size) {
  w.BeginObject(key);
  Ns(w, "iteration_ns", c.iteration);
  w.Double("algbw_GBps", c.AlgBw(size) / 1e9, 3);
  w.String("bottleneck", c.bottleneck).Uint("bottleneck_bytes", c.bottleneck_bytes);
  w.Double("bottleneck_gbps", static_cast<double>(c.bottleneck_rate_bps) / 1e9, 3);
  w.EndObject();
}

}  // namespace

void WriteFaultLifecycle(JsonWriter& w, const FaultLifecycle& lc, const CostSpec& cost) {
  Ns(w, "localized_ns", lc.localized);
  w.Uint("bytes_dropped_by_actions", lc.bytes_dropped_by_actions());
  w.BeginObject("dropped_by");
  w.Uint("pfc_watchdog", lc.by_watchdog).Uint("nic_guard", lc.by_guard).Uint("shut_links", lc.by_shut_links);
  w.Uint("no_route_after_shut", lc.by_no_route);
  w.EndObject();
  w.Int("flows_failed", lc.flows_failed);
  if (!lc.victims_known) {
    w.Null("victim_flows");
  } else {
    w.BeginArray("victim_flows");
    for (const VictimFlow& v : lc.victims) {
      w.BeginObject();
      w.Uint("id", v.id).String("src", v.src).String("dst", v.dst);
      Ns(w, "fct_ns", v.fct);
      Ns(w, "fct_without_fault_ns", v.fct_without);
      w.String("state", v.state);
      w.EndObject();
    }
    w.EndArray();
  }
  w.BeginArray("workloads");
  for (const WorkloadRecovery& r : lc.workloads) {
    w.BeginObject();
    w.String("workload", r.workload).Bool("degraded", r.degraded);
    Ns(w, "recovered_ns", r.recovered);
    w.String("recovered_when", r.criterion);
    w.EndObject();
  }
  w.EndArray();
  Ns(w, "workloads_recovered_ns", lc.workloads_recovered);
  w.BeginArray("job_impact");
  for (const JobImpact& j : lc.jobs) {
    w.BeginObject();
    w.String("workload", "allreduce " + std::to_string(j.index)).Int("ranks", j.ranks).Int("iterations", j.iterations);
    Ns(w, "mean_iteration_ns", j.mean_iteration);
    Ns(w, "baseline_iteration_ns", j.baseline_iteration);
    w.String("baseline", j.baseline).Double("inflation", j.inflation, 4);
    Ns(w, "extra_ns", j.extra);
    w.Double("gpu_idle_s", j.gpu_idle_s, 9).Bool("stopped", j.stopped);
    Ns(w, "behind_ns", j.behind > 0 ? j.behind : -1);
    w.Double("throughput_share", j.throughput, 4);
    WriteCeiling(w, "ceiling_before", j.before, j.bytes);
    WriteCeiling(w, "ceiling_after", j.after, j.bytes);
    Ns(w, "capacity_iteration_ns", j.capacity_iteration > 0 ? j.capacity_iteration : -1);
    w.String("capacity_links_down", j.capacity_links);
    w.EndObject();
  }
  w.EndArray();
  Ns(w, "degraded_ns", lc.workloads.empty() ? -1 : lc.degraded);
  w.Bool("degraded_to_end", lc.degraded_to_end);
  if (lc.throughput < 0) w.Null("throughput_share");
  else w.Double("throughput_share", lc.throughput, 4);
  Ns(w, "lost_ns", lc.lost);
  if (lc.lost_from.empty()) w.Null("lost_from");
  else w.String("lost_from", lc.lost_from);
  w.Bool("extrapolated", lc.extrapolated);
  if (lc.extrapolated) {
    w.BeginObject("extrapolation");
    Ns(w, "action_due_ns", lc.action_due);
    w.String("tier", lc.action_tier).String("arithmetic", lc.extrapolation);
    w.EndObject();
  }
  if (!lc.cost) {
    w.Null("cost");
    return;
  }
  w.BeginObject("cost");
  w.String("currency", cost.currency);
  if (cost.by_gpu) w.Int("gpus", cost.gpus).Double("per_gpu_hour", cost.per_gpu_hour);
  else w.Double("per_hour", cost.per_hour);
  w.Double("lost_s", lc.cost->seconds, 9).Double("amount", lc.cost->amount, 9).String("arithmetic", lc.cost->arithmetic);
  if (lc.production) {
    const ProductionCost& p = *lc.production;
    w.BeginObject("at_production");
    w.Double("degraded_s", p.degraded_s, 6).Double("lost_s", p.lost_s, 6).Bool("killed", p.killed);
    w.Double("rollback_s", p.rollback_s, 6).Double("restart_s", p.restart_s, 6).Double("amount", p.amount, 6);
    w.String("arithmetic", p.arithmetic);
    w.EndObject();
  } else {
    w.Null("at_production");
  }
  w.EndObject();
}

void WriteCounterfactual(JsonWriter& w, const Experiment& x) {
  const Scenario& sc = x.fabric().scenario();
  w.BeginObject("counterfactual");
  const Counterfactual* cf = x.counterfactual();
  if (!cf) {
    w.Bool("run", false).String("why", "lifecycle.counterfactual is off: no victim flows; baselines from before each fault");
    w.EndObject();
    return;
  }
  w.Bool("run", true).Uint("seed", sc.seed);
  Ns(w, "sim_time_ns", cf->end);
  size_t flows = 0, finished = 0, failed = 0;
  for (const Counterfactual::Qp& q : cf->qps) {
    if (q.open) continue;
    ++flows;
    finished += q.done;
    failed += q.failed;
  }
  w.Uint("flows", flows).Uint("flows_finished", finished).Uint("flows_failed", failed);
  w.Uint("bytes_delivered", cf->bytes_delivered).Uint("drops_lossless", cf->drops_lossless);
  w.Uint("pause_frames_tx", cf->pause_frames_tx);
  w.Double("slowdown_p50", cf->slowdown_p50, 4).Double("slowdown_p99", cf->slowdown_p99, 4);
  w.Uint("monitor_detections", cf->detections);
  w.BeginArray("allreduce_mean_iteration_ns");
  for (const std::vector<Time>& times : cf->allreduce_times) {
    Time sum = 0;
    for (Time t : times) sum += t;
    w.UintValue(times.empty() ? 0 : static_cast<uint64_t>(sum / static_cast<Time>(times.size()) / kNanosecond));
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace rocelab
