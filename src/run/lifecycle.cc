#include "run/lifecycle.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "transport/rc_transport.h"

namespace rocelab {

namespace {

// A duration as read on a terminal: milliseconds, or seconds from 10 s on (an extrapolated period).
std::string Ms(Time t) {
  char buf[48];
  if (t >= 10 * kSecond) std::snprintf(buf, sizeof buf, "%.3f s", static_cast<double>(t) / kSecond);
  else std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(t) / kMillisecond);
  return buf;
}

std::string Us(Time t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f us", static_cast<double>(t) / kMicrosecond);
  return buf;
}

std::string Percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", share * 100);
  return buf;
}

const std::string& HostName(const Fabric& f, uint32_t host) { return f.topology().nodes()[f.topology().hosts()[host]].name; }

// A series judged window by window (or iteration by iteration) after the injection: when it
// came back. `ends[k]` closes step k, `bad[k]` says it fell short.
void Judge(const std::vector<Time>& ends, const std::vector<bool>& bad, Time injected, WorkloadRecovery* w) {
  int last_bad = -1;
  for (size_t k = 0; k < bad.size(); ++k)
    if (bad[k]) last_bad = static_cast<int>(k);
  w->degraded = last_bad >= 0;
  if (last_bad < 0) w->recovered = injected;  // never fell short
  else if (last_bad + 1 < static_cast<int>(bad.size())) w->recovered = ends[last_bad];
  else w->recovered = -1;  // short to the last: it did not come back
}

// The links the capacity run holds down, "leaf0-spine1, h0-leaf0".
std::string CapacityLinks(const Experiment& x) {
  std::string s;
  for (const std::string& l : x.capacity_links()) s += (s.empty() ? "" : ", ") + l;
  return s;
}

// The finite flows (not a collective's queue pairs) running at `t`, by id: the traffic an
// AllReduce shares the fabric with then. `start`, `finish` (-1: never) and `open` per id.
template <typename Qps>
std::vector<bool> FlowsRunning(const Qps& qps, Time t) {
  std::vector<bool> on(qps.size());
  for (size_t q = 0; q < qps.size(); ++q) on[q] = !qps[q].open && qps[q].start <= t && (qps[q].finish < 0 || t < qps[q].finish);
  return on;
}

// The longest iteration of AllReduce `k` in `run` among those that began beside the same
// finite flows as `running` (what this run's ring has beside it): the slowest the fabric that
// run had made the ring under the same traffic. Which workload gets more of a shared link is
// congestion control's to settle and depends on the history (a ring's iterations beside one
// incast differ by a third between runs that differ only in when a link went down), so a ring
// is held to the range the capacity run showed, not to one iteration of it. Where no iteration
// began beside the same flows, the longest of all; -1 if it did none. `beside[j]`: the flows
// running when the run's iteration j began.
Time SlowestBeside(const Counterfactual& run, size_t k, const std::vector<std::vector<bool>>& beside,
                   const std::vector<bool>& running) {
  const std::vector<Time>& times = run.allreduce_times[k];
  Time same = -1, any = -1;
  for (size_t j = 0; j < times.size(); ++j) {
    any = std::max(any, times[j]);
    if (beside[j] == running) same = std::max(same, times[j]);
  }
  return same >= 0 ? same : any;
}

// Iterations of a ring over the stretch a judgement of its progress looks at.
constexpr int kProgressWindow = 10;

// A ring's iterations done by `t` (begins and times by iteration, in order), the one in
// progress counted by the share of it done.
double Progress(const std::vector<Time>& begins, const std::vector<Time>& times, Time t) {
  const size_t n = std::min(begins.size(), times.size());
  const size_t i = static_cast<size_t>(std::partition_point(begins.begin(), begins.begin() + static_cast<long>(n),
                                                            [t](Time b) { return b <= t; }) - begins.begin());
  if (i == 0) return 0;  // none begun by t
  const Time b = begins[i - 1], d = times[i - 1];
  return static_cast<double>(i - 1) + (d > 0 ? std::min(1.0, static_cast<double>(t - b) / static_cast<double>(d)) : 1.0);
}

// Whether the fabric as a whole delivered over [from, to) within 5 % of what the run `ref`
// (its probe's samples) delivered over the same stretch.
bool KeptUpWith(const Experiment& x, const std::vector<LifecycleProbe::Sample>& ref, Time from, Time to) {
  const std::vector<LifecycleProbe::Sample>& s = x.probe()->samples();
  return LifecycleProbe::At(s, to) - LifecycleProbe::At(s, from) >=
         (1 - kRecoveredWithin) * (LifecycleProbe::At(ref, to) - LifecycleProbe::At(ref, from));
}

// One AllReduce under fault `i`: its recovery and its impact. False when it has nothing to
// judge (it was done before the injection, or there is no baseline).
// What the fabric can carry after applies to the iterations that begin at or after
// `capacity_from` (the last action on the fault, which may have shut a link; else the
// injection): measured by the capacity run where there is one (a link down at the end), else
// the analytic ceiling's drop.
bool JudgeAllreduce(const Experiment& x, const Counterfactual* cf, size_t k, Time injected, Time capacity_from,
                    Time end, WorkloadRecovery* w, JobImpact* job) {
  const AllreduceDriver& d = x.allreduce(k);
  const std::vector<Time>& times = d.iteration_times();
  const std::vector<Time>& begins = d.iteration_begins();
  const bool stopped = d.qp_error() && static_cast<int>(times.size()) < d.spec().iterations;
  Time last_end = 0;
  double before_sum = 0;
  int before_n = 0;
  std::vector<size_t> after;
  for (size_t j = 0; j < times.size(); ++j) {
    const Time e = begins[j] + times[j];
    last_end = std::max(last_end, e);
    if (e > injected) after.push_back(j);
    else before_sum += static_cast<double>(times[j]), ++before_n;
  }
  const bool stalled = stopped && end > std::max(injected, last_end);
  const std::vector<Time>* cf_times = cf ? &cf->allreduce_times[k] : nullptr;
  job->index = k;
  job->ranks = d.ranks();
  job->bytes = d.bytes();
  job->baseline = cf ? "counterfactual" : "before the fault";
  if (!cf && before_n == 0) return false;
  job->before = x.ceilings_before()[k];
  job->after = x.ceilings_after()[k];
  // What the fabric can do after the fault, relative to before: a shut link may have lowered it.
  const Counterfactual* cap = cf ? x.capacity() : nullptr;
  if (cap && cap->allreduce_times[k].empty()) cap = nullptr;
  if (cap) capacity_from = std::max(capacity_from, x.capacity_since());
  const double ceiling = !cap && job->before.iteration > 0 && job->after.iteration > 0
                             ? std::max(1.0, static_cast<double>(job->after.iteration) / static_cast<double>(job->before.iteration))
                             : 1.0;
  // An iteration's allowance: 5 % over its time without the fault, or, from capacity_from on,
  // over the slowest the fabric as the fault left it made the ring beside the same traffic.
  double cap_sum = 0;
  int cap_n = 0;
  std::vector<std::vector<bool>> cap_beside;
  if (cap)
    for (size_t j = 0; j < cap->allreduce_times[k].size(); ++j)
      cap_beside.push_back(FlowsRunning(cap->qps, cap->allreduce_ends[k][j] - cap->allreduce_times[k][j]));
  auto allowed = [&](Time begin, double base) {
    if (begin < capacity_from) return (1 + kRecoveredWithin) * base;
    if (!cap) return (1 + kRecoveredWithin) * base * ceiling;
    const Time slowest = SlowestBeside(*cap, k, cap_beside, FlowsRunning(x.fabric().qps(), begin));
    cap_sum += static_cast<double>(slowest), ++cap_n;
    return (1 + kRecoveredWithin) * std::max(base, static_cast<double>(slowest));
  };
  // The iteration in progress at the end, against the run without the fault: how far behind
  // that run this one is (it finished this iteration that long before the end), and whether
  // the iteration is already late by the measure below (a ring a fault holds up may not finish
  // any iteration at all).
  Time behind = 0;
  bool late_at_end = false;
  if (!stopped && cf && begins.size() > times.size() && cf->allreduce_ends[k].size() > times.size()) {
    const size_t n = times.size();
    const Time cf_end = cf->allreduce_ends[k][n];
    if (cf_end > injected && cf_end < end) behind = end - cf_end;
    late_at_end = static_cast<double>(end - begins[n]) > allowed(begins[n], static_cast<double>((*cf_times)[n]));
  }
  if (after.empty() && !stalled && !late_at_end) return false;
  // Where each iteration of a run began: the ends less the times.
  auto begins_of = [](const std::vector<Time>& its, const std::vector<Time>& its_ends) {
    std::vector<Time> b;
    for (size_t i = 0; i < its.size() && i < its_ends.size(); ++i) b.push_back(its_ends[i] - its[i]);
    return b;
  };
  const std::vector<Time> cf_begins = cf ? begins_of(*cf_times, cf->allreduce_ends[k]) : std::vector<Time>();
  const std::vector<Time> cap_begins = cap ? begins_of(cap->allreduce_times[k], cap->allreduce_ends[k]) : std::vector<Time>();
  double cap_mean = 0;  // an iteration's time in the capacity run, on average
  if (cap) {
    for (Time c : cap->allreduce_times[k]) cap_mean += static_cast<double>(c);
    cap_mean /= static_cast<double>(cap->allreduce_times[k].size());
  }
  const double compute = static_cast<double>(d.spec().compute);
  double sum = 0, base_sum = 0, extra = 0, cycle = 0, base_cycle = 0;
  std::vector<Time> ends;
  std::vector<bool> bad;
  for (size_t j : after) {
    double base;
    if (cf_times && j < cf_times->size()) base = static_cast<double>((*cf_times)[j]);
    else if (before_n > 0) base = before_sum / before_n;
    else continue;  // the run without the fault did not get this far: nothing to compare with
    const double t = static_cast<double>(times[j]);
    sum += t;
    base_sum += base;
    extra += t - base;
    cycle += t + compute;
    base_cycle += base + compute;
    ends.push_back(begins[j] + times[j]);
    // An iteration falls short when it is slower than its allowance and the ring also made less
    // progress than the run it is held to (without the fault; from capacity_from on, with the
    // fabric as the fault left it) over the same stretch of time, the last kProgressWindow of its
    // iterations (a couple of seconds of production at the fault scenarios' timers), where both
    // met the same traffic. A ring behind the run without the fault stays behind for good, and
    // meets the traffic beside it (an incast that recurs) at another phase of its iterations
    // than that run did: one iteration slower than the same-numbered one there, or than that
    // run's slowest beside the same flows, is the noise of another sequence of events, not a
    // recovery left undone.
    const bool after_capacity = begins[j] >= capacity_from;
    bool short_of = t > allowed(begins[j], base);
    const bool against_cap = after_capacity && cap;
    if (short_of && cf && (against_cap || ceiling <= 1) && j < cf->allreduce_ends[k].size()) {
      if (!against_cap) short_of = static_cast<double>(ends.back() - cf->allreduce_ends[k][j]) > kRecoveredWithin * base;
      if (short_of) {
        const std::vector<Time>& ref_begins = against_cap ? cap_begins : cf_begins;
        const std::vector<Time>& ref_times = against_cap ? cap->allreduce_times[k] : *cf_times;
        // Against the fabric as the fault left it, only over the time it was so.
        const Time to = ends.back(), stretch = to - kProgressWindow * static_cast<Time>(against_cap ? cap_mean : base);
        const Time from = against_cap ? std::max(capacity_from, stretch) : stretch;
        const double ours = Progress(begins, times, to) - Progress(begins, times, from);
        const double ref = Progress(ref_begins, ref_times, to) - Progress(ref_begins, ref_times, from);
        short_of = ours < (1 - kRecoveredWithin) * ref;
        // With links down, the ring shares what is left with the other workloads, and which of them
        // gets more is congestion control's to settle and depends on the history (as for the flows,
        // JudgeFlows): while the fabric as a whole delivered within 5 % of what the capacity run did
        // over the same stretch, the ring's share is no recovery left undone.
        if (short_of && against_cap) short_of = !KeptUpWith(x, cap->samples, from, to);
      }
    }
    bad.push_back(short_of);
    ++job->iterations;
  }
  if (stalled) {
    // The job stopped on a QP error: it lost the rest of the run at least.
    const Time stall = end - std::max(injected, last_end);
    extra += static_cast<double>(stall);
    cycle += static_cast<double>(stall);
  }
  if (job->iterations > 0) {
    job->mean_iteration = static_cast<Time>(sum / job->iterations);
    job->baseline_iteration = static_cast<Time>(base_sum / job->iterations);
    job->inflation = base_sum > 0 ? sum / base_sum : 0;
  }
  if (behind > 0) {
    extra = std::max(extra, static_cast<double>(behind));
    cycle += static_cast<double>(behind);
  }
  job->stopped = stalled;
  job->behind = behind;
  job->extra = static_cast<Time>(std::max(0.0, extra));
  job->gpu_idle_s = static_cast<double>(job->ranks) * static_cast<double>(job->extra) / kSecond;
  job->throughput = cycle > 0 ? std::min(1.0, base_cycle / cycle) : 1.0;
  if (cap_n > 0) {
    job->capacity_iteration = static_cast<Time>(cap_sum / cap_n);
    job->capacity_links = CapacityLinks(x);
  }
  w->workload = "allreduce " + std::to_string(k);
  w->criterion = "iteration time within 5 % of its time without the fault" +
                 std::string(ceiling > 1 ? " x the ceiling's drop" : "") +
                 (cap ? "; from " + Ms(capacity_from) + " on, of its time with " + job->capacity_links +
                            " down from the start (what the fabric can now carry)"
                      : std::string());
  if (!cf) w->criterion = "iteration time within 5 % of its mean before the fault" + std::string(ceiling > 1 ? " x the ceiling's drop" : "");
  Judge(ends, bad, injected, w);
  if (stalled || late_at_end) w->recovered = -1, w->degraded = true;
  return true;
}

// Trace `t` window by window after the injection: what it delivered against what the
// counterfactual delivered (or, without it, the trace's offered load).
bool JudgeTrace(const Experiment& x, const Counterfactual* cf, size_t t, Time injected, WorkloadRecovery* w) {
  const TraceSpec& spec = x.fabric().scenario().traces[t];
  const std::vector<LifecycleProbe::Sample>& s = x.probe()->samples();
  double offered_bps = 0;  // bytes per second of the whole trace
  if (!cf) {
    const Topology& topo = x.fabric().topology();
    for (size_t h = 0; h < topo.hosts().size(); ++h) {
      bool in = spec.hosts.empty();
      for (const NameRef& n : spec.hosts) in = in || n.name == topo.nodes()[topo.hosts()[h]].name;
      if (in) offered_bps += spec.load * static_cast<double>(topo.nodes()[topo.hosts()[h]].ports[0].link.rate_bps) / 8;
    }
  }
  std::vector<Time> ends;
  std::vector<bool> bad;
  Time prev = 0;
  for (const LifecycleProbe::Sample& now : s) {
    const Time from = prev;
    prev = now.t;
    if (now.t <= injected) continue;
    const double got = LifecycleProbe::At(s, now.t, static_cast<int>(t)) - LifecycleProbe::At(s, from, static_cast<int>(t));
    double want;
    if (cf) {
      want = LifecycleProbe::At(cf->samples, now.t, static_cast<int>(t)) - LifecycleProbe::At(cf->samples, from, static_cast<int>(t));
    } else {
      const Time a = std::max(from, spec.start), b = std::min(now.t, spec.start + spec.duration);
      want = b > a ? offered_bps * static_cast<double>(b - a) / kSecond : 0;
    }
    if (want <= 0) continue;  // nothing to deliver in this window
    // Short only while behind: a trace that has delivered all it ever will, or as much as the
    // run without the fault by then, is not short of anything.
    const double so_far = LifecycleProbe::At(s, now.t, static_cast<int>(t));
    const bool behind = cf ? so_far < LifecycleProbe::At(cf->samples, now.t, static_cast<int>(t))
                           : so_far < LifecycleProbe::At(s, s.back().t, static_cast<int>(t));
    ends.push_back(now.t);
    bad.push_back(behind && got < (1 - kRecoveredWithin) * want);
  }
  if (ends.empty()) return false;
  w->workload = "trace " + std::to_string(t);
  w->criterion = cf ? "delivers, window by window, within 5 % of what it delivers without the fault"
                    : "delivers, window by window, within 5 % of its offered load";
  Judge(ends, bad, injected, w);
  return true;
}

// The finite flows (not a trace's) running at the injection or after: all of them finish.
// A flow to or from `broken_host` (a storming host) is left out: no action on the fabric brings
// back a host that cannot drain; such a flow counts in flows_failed instead.
bool JudgeFlows(const Experiment& x, const Counterfactual* cf, Time injected, Time acted, const std::string& broken_host,
                WorkloadRecovery* w) {
  // With links left down, the flows share what is left with the other workloads, and which of
  // them gets more depends on the history (a flow beside a ring gets less in one run, more in
  // another): while the fabric as a whole delivered, from the last link's loss on, within 5 %
  // of what the capacity run delivered then (Experiment::capacity), a flow still running, or
  // slow to finish, after that loss is no sign of a recovery left undone.
  const Counterfactual* cap = cf ? x.capacity() : nullptr;
  Time shared_from = -1;  // from then on, the fabric carried what it can
  if (cap) {
    const Time from = std::max(injected, x.capacity_since());
    if (KeptUpWith(x, cap->samples, from, x.fabric().now())) shared_from = from;
  }
  const std::vector<int>& trace = x.trace_of_qp();
  bool any = false, all_done = true;
  Time last = injected, last_finish = injected;
  for (const QueuePair& qp : x.fabric().qps()) {
    if (qp.open || (qp.id < trace.size() && trace[qp.id] >= 0)) continue;
    if (!broken_host.empty() && (HostName(x.fabric(), qp.src) == broken_host || HostName(x.fabric(), qp.dst) == broken_host))
      continue;
    if (qp.done && qp.finish <= injected) continue;
    any = true;
    if (!qp.done) {
      // Unfinished: the fault's doing unless it did not finish without the fault either.
      if (shared_from < 0 && (!cf || (qp.id < cf->qps.size() && cf->qps[qp.id].done))) all_done = false;
      continue;
    }
    last_finish = std::max(last_finish, qp.finish);
    // Came back by the time the last flow the fault slowed had finished.
    if (cf && qp.id < cf->qps.size() && cf->qps[qp.id].done) {
      const Counterfactual::Qp& c = cf->qps[qp.id];
      // A flow begun after the last action on the fault, while the fabric as a whole delivered
      // within 5 % of what it did without the fault, got the share the history gave it (a ring
      // behind that run meets it at another phase), not less for want of a recovery.
      if (static_cast<double>(qp.finish - qp.start) <= kVictimSlowdown * static_cast<double>(c.finish - c.start)) continue;
      const bool fabric_kept_up = acted >= 0 && qp.start >= acted && KeptUpWith(x, cf->samples, qp.start, qp.finish);
      if (!fabric_kept_up) last = std::max(last, shared_from < 0 ? qp.finish : std::min(qp.finish, shared_from));
    }
  }
  if (!any) return false;
  w->workload = "flows";
  w->criterion = cf ? "all that finish without the fault finish; at the finish of the last one it slowed by > 10 %"
                    : "all finish; at the last finish";
  if (shared_from >= 0)
    w->criterion += "; from " + Ms(shared_from) + " on, with " + CapacityLinks(x) +
                    " down, the fabric delivered what it can (within 5 % of the run with them down from the start)";
  if (!broken_host.empty()) w->criterion += " (flows to or from " + broken_host + ", the broken host, aside)";
  if (!cf) last = last_finish;
  w->degraded = !all_done || last > injected;
  w->recovered = all_done ? last : -1;
  return true;
}

// Fault `i` at production time (run/cost.h): nothing when it was not detected or its throughput
// while degraded is unknown.
std::optional<ProductionCost> AtProduction(const Experiment& x, size_t i, const FaultLifecycle& lc) {
  const Scenario& sc = x.fabric().scenario();
  const Monitor::Detection* d = x.FaultDetection(i);
  if (!d || lc.throughput < 0) return std::nullopt;
  const std::vector<Recovery::Action> actions = x.FaultActions(i);
  ProductionInputs in;
  in.scale = sc.timer_scale;
  in.detect = d->t - x.faults().records()[i].injected;
  const std::string tier = !actions.empty() ? actions.front().tier : Recovery::ActionTier(*d);
  in.tier = tier.empty() ? d->tier : tier;
  // A person's response: as given; else none where the automation acts, and the runbook's
  // delay where a person does.
  const Time given = in.tier == "T2" ? sc.cost.response_t2 : sc.cost.response_t3;
  const Time delay = in.tier == "T2" ? sc.runbook_delay_t2 : sc.runbook_delay_t3;
  in.response = given >= 0 ? given : sc.recovery_auto ? 0 : delay;
  const Time recovered = FaultRecoveredAt(x, i, &lc);
  if (!actions.empty() && recovered >= 0) in.after_action = std::max<Time>(0, recovered - actions.back().t);
  const Monitor::Detection* l = x.FaultLocalization(i);
  in.halted = l && l->rule == "pfc.deadlock";
  for (const JobImpact& j : lc.jobs) in.halted = in.halted || j.stopped;
  in.throughput = lc.throughput;
  in.retry_budget = ScaledTimer(LocalAckTimeout(sc.nic.timeout), sc.timer_scale) * (sc.nic.retry_count + 1);
  return PriceAtProduction(sc.cost, in);
}

}  // namespace

std::vector<FaultLifecycle> ComputeLifecycle(const Experiment& x) {
  std::vector<FaultLifecycle> out;
  if (!x.finished() || !x.probe() || !x.touch()) return out;
  const Counterfactual* cf = x.counterfactual();
  const Fabric& f = x.fabric();
  const Scenario& sc = f.scenario();
  // The run's end as the scenario sets it: a run whose every flow finished or failed stops
  // early, and a job a QP error stopped stays stopped for the rest of it.
  const Time end = std::max(f.now(), sc.duration);
  const std::vector<FaultInjector::Record>& records = x.faults().records();
  const LifecycleProbe& probe = *x.probe();
  out.resize(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    FaultLifecycle& lc = out[i];
    const Time injected = records[i].injected;
    if (injected < 0) continue;
    lc.injected = true;
    if (const Monitor::Detection* d = x.FaultLocalization(i)) lc.localized = d->t;
    // The agents' drops from this injection until the next later one (or the end of the run).
    size_t next = records.size();
    for (size_t j = 0; j < records.size(); ++j)
      if (records[j].injected > injected && (next == records.size() || records[j].injected < records[next].injected)) next = j;
    const LifecycleProbe::Sample& from = probe.marks()[i];
    const LifecycleProbe::Sample& to = next < records.size() ? probe.marks()[next] : probe.samples().back();
    const Time until_next = next < records.size() ? records[next].injected : std::numeric_limits<Time>::max();
    lc.by_watchdog = to.watchdog_drop_bytes - from.watchdog_drop_bytes;
    lc.by_guard = to.guard_discard_bytes - from.guard_discard_bytes;
    // What shutting a link cost: frames the link lost, and packets other switches sent toward
    // it before their routes converged, dropped for want of a route (from the first shut on).
    Time first_shut = -1;
    for (const Recovery::Action& a : x.FaultActions(i)) {
      if (!x.ShutLinkTaken(a)) continue;
      lc.by_shut_links += x.ShutLinkLostBytes(a);
      if (first_shut < 0) {
        first_shut = a.t;
        lc.by_no_route = to.no_route_drop_bytes - x.NoRouteBytesAt(a);
      }
    }
    // Queue pairs that failed in that span (and not in the run without the faults).
    for (const QueuePair& qp : f.qps())
      if (qp.failed && qp.finish >= injected && qp.finish < until_next && !(cf && qp.id < cf->qps.size() && cf->qps[qp.id].failed))
        ++lc.flows_failed;
    // Victims: never touched the target, slowed by more than 10 % against the counterfactual. A
    // flow to or from a target host is its own, even if none of its frames reached it (dropped on
    // the way by a watchdog, or at a link the recovery shut).
    lc.victims_known = cf != nullptr;
    if (cf) {
      const std::string& target = records[i].target;
      for (const QueuePair& qp : f.qps()) {
        if (qp.open || qp.id >= cf->qps.size() || x.touch()->Touched(i, qp.id)) continue;
        if (HostName(f, qp.src) == target || HostName(f, qp.dst) == target) continue;
        const Counterfactual::Qp& c = cf->qps[qp.id];
        if (!c.done || c.finish <= injected) continue;
        const Time fct = qp.done ? qp.finish - qp.start : -1, without = c.finish - c.start;
        if (qp.done && static_cast<double>(fct) <= kVictimSlowdown * static_cast<double>(without)) continue;
        lc.victims.push_back({qp.id, HostName(f, qp.src), HostName(f, qp.dst), fct, without,
                              qp.done ? "finished" : qp.failed ? "qp_error" : "unfinished"});
      }
    }
    // Recovery, workload by workload.
    bool all = true;
    Time when = injected;
    auto add = [&](const WorkloadRecovery& w) {
      lc.workloads.push_back(w);
      if (w.recovered < 0) all = false;
      else when = std::max(when, w.recovered);
    };
    const std::vector<Recovery::Action> actions = x.FaultActions(i);
    const Time capacity_from = actions.empty() ? injected : actions.back().t;
    for (size_t k = 0; k < sc.allreduces.size(); ++k) {
      WorkloadRecovery w;
      JobImpact job;
      if (!JudgeAllreduce(x, cf, k, injected, capacity_from, end, &w, &job)) continue;
      add(w);
      lc.jobs.push_back(job);
    }
    for (size_t t = 0; t < sc.traces.size(); ++t) {
      WorkloadRecovery w;
      if (JudgeTrace(x, cf, t, injected, &w)) add(w);
    }
    WorkloadRecovery flows;
    // A storming NIC's receive pipeline is stuck, and a host the recovery isolated is out of service:
    // nothing to or from it finishes until the host is repaired.
    bool broken = records[i].kind == "pfc_storm";
    for (const Recovery::Action& a : actions)
      broken = broken || (a.kind == "isolate_host" && std::find(a.devices.begin(), a.devices.end(), records[i].target) != a.devices.end());
    if (JudgeFlows(x, cf, injected, actions.empty() ? -1 : actions.back().t, broken ? records[i].target : "", &flows)) add(flows);
    if (lc.workloads.empty()) continue;
    lc.workloads_recovered = all ? when : -1;
    lc.degraded_to_end = !all;
    const Time until = all ? when : end;
    lc.degraded = until - injected;
    // The time lost, and the throughput while degraded.
    if (!lc.jobs.empty()) {
      for (const JobImpact& j : lc.jobs) {
        if (j.extra < lc.lost) continue;
        lc.lost = j.extra;
        lc.throughput = j.throughput;
      }
      lc.lost_from = "allreduce iterations' time beyond their time without the fault";
      if (!cf) lc.lost_from = "allreduce iterations' time beyond their mean before the fault";
    } else if (cf && lc.degraded > 0) {
      // How far behind the run without the fault the bytes delivered were when it ended: the
      // counterfactual had delivered as much `lost` earlier (the same as the degraded period
      // times the share not delivered, while the counterfactual still had work to do).
      const Time caught = LifecycleProbe::When(cf->samples, LifecycleProbe::At(probe.samples(), until));
      lc.lost = std::max<Time>(0, until - std::max(caught, injected));
      lc.throughput = 1 - static_cast<double>(lc.lost) / static_cast<double>(lc.degraded);
      lc.lost_from = "how far the bytes delivered were behind the run without the fault at the end of the degraded period";
    } else if (cf) {
      lc.lost = 0;
      lc.throughput = 1;
      lc.lost_from = "nothing was degraded";
    }
    // runbook: an action still due when the run ended: the degraded period runs to it.
    if (const Runbook* rb = x.runbook(); rb && !all && (records[i].cleared < 0 || records[i].cleared > end)) {
      const std::vector<std::string> devices = x.FaultDevices(i);
      for (const Runbook::Ticket& t : rb->tickets()) {
        if (t.acted || t.due <= end || t.detection.t < injected) continue;
        if (std::find(devices.begin(), devices.end(), LocationDevice(t.detection.location)) == devices.end()) continue;
        if (lc.action_due >= 0 && t.due >= lc.action_due) continue;
        lc.action_due = t.due;
        lc.action_tier = t.tier;
      }
      if (lc.action_due >= 0) {
        lc.extrapolated = true;
        lc.degraded = lc.action_due - injected;
        const Time rest = lc.action_due - end;
        std::string s = "the " + lc.action_tier + " action is due at " + FormatSeconds(static_cast<double>(lc.action_due) / kSecond) +
                        " s, after the run's end at " + FormatSeconds(static_cast<double>(end) / kSecond) +
                        " s: degraded " + FormatSeconds(static_cast<double>(lc.degraded) / kSecond) + " s (" +
                        FormatSeconds(static_cast<double>(end - injected) / kSecond) + " s simulated)";
        if (lc.lost >= 0) {
          const Time measured = lc.lost;
          lc.lost = measured + static_cast<Time>(static_cast<double>(rest) * (1 - lc.throughput));
          char r[32];
          std::snprintf(r, sizeof r, "%.6f", lc.throughput);
          s += "; throughput while degraded " + Percent(lc.throughput) + " of the run without the fault; lost " +
               FormatSeconds(static_cast<double>(measured) / kSecond) + " s measured + " +
               FormatSeconds(static_cast<double>(rest) / kSecond) + " s × (1 − " + r + ") = " +
               FormatSeconds(static_cast<double>(lc.lost) / kSecond) + " s";
        }
        lc.extrapolation = s;
      }
    }
    if (sc.cost.given && lc.lost >= 0) lc.cost = PriceOf(sc.cost, lc.lost);
    if (sc.cost.given) lc.production = AtProduction(x, i, lc);
  }
  return out;
}

Time FaultRecoveredAt(const Experiment& x, size_t i, const FaultLifecycle* lc) {
  const Time quiet = x.FaultRecovered(i);
  if (quiet < 0 || !lc || lc->workloads.empty()) return quiet;
  return lc->workloads_recovered < 0 ? -1 : std::max(quiet, lc->workloads_recovered);
}

std::vector<std::string> LifecycleLines(const Experiment& x, size_t i, const FaultLifecycle& lc) {
  std::vector<std::string> lines;
  if (!lc.injected) return lines;
  char buf[512];
  const Time injected = x.faults().records()[i].injected;
  for (const Recovery::Action& a : x.FaultActions(i))
    lines.push_back("  action at " + Ms(a.t) + ": " + a.tier + " " + a.action);
  if (x.FaultLeftToFabric(i) && x.FaultActions(i).empty())
    lines.push_back("  no action: the switches route around a link down on their own, and take it back when it comes up");
  if (!x.FaultActions(i).empty() || x.FaultLeftToFabric(i)) {
    const Time quiet = x.FaultRecovered(i), recovered = FaultRecoveredAt(x, i, &lc);
    std::string s = recovered >= 0 ? "  recovered at " + Ms(recovered) + " (MTTR " + Ms(recovered - injected) + ")"
                                   : std::string("  not recovered by the end of the run");
    s += quiet >= 0 ? ": the monitor quiet about it from " + Ms(quiet) : ": the monitor still names it";
    const bool fell_short = std::any_of(lc.workloads.begin(), lc.workloads.end(),
                                        [](const WorkloadRecovery& w) { return w.degraded; });
    if (!lc.workloads.empty())
      s += !fell_short                     ? ", no workload fell short of the run without the fault"
           : lc.workloads_recovered >= 0 ? ", every workload back at " + Ms(lc.workloads_recovered)
                                         : ", a workload not back";
    lines.push_back(s);
  }
  if (lc.victims_known) {
    const std::string& target = x.faults().records()[i].target;
    // A route change has no target: the ports its routes name stand for it (docs/faults.md).
    std::string s = "  victim flows (never touched " + (target.empty() ? std::string("the ports its routes name") : target) +
                    ", > 10 % slower than without the fault): " + std::to_string(lc.victims.size());
    constexpr size_t kListed = 4;
    for (size_t v = 0; v < lc.victims.size() && v < kListed; ++v) {
      const VictimFlow& vf = lc.victims[v];
      s += (v ? "; " : ": ") + std::string("flow ") + std::to_string(vf.id) + " " + vf.src + " -> " + vf.dst + " " +
           (vf.fct >= 0 ? Ms(vf.fct) : vf.state) + " vs " + Ms(vf.fct_without);
    }
    if (lc.victims.size() > kListed) s += "; " + std::to_string(lc.victims.size() - kListed) + " more in summary.json";
    lines.push_back(s);
  }
  std::snprintf(buf, sizeof buf,
                "  dropped by actions: %llu B (PFC watchdog %llu B, NIC guard %llu B, shut links %llu B, no route "
                "after a shut %llu B); QP errors after it: %d",
                (unsigned long long)lc.bytes_dropped_by_actions(), (unsigned long long)lc.by_watchdog,
                (unsigned long long)lc.by_guard, (unsigned long long)lc.by_shut_links, (unsigned long long)lc.by_no_route,
                lc.flows_failed);
  lines.push_back(buf);
  for (const JobImpact& j : lc.jobs) {
    // No iteration ended after the injection (a ring the fault holds up): no mean to compare.
    char iterations[160];
    if (j.iterations > 0)
      std::snprintf(iterations, sizeof iterations, "%d iteration(s) after it, mean %s vs %s %s (x%.3f)", j.iterations,
                    Us(j.mean_iteration).c_str(), Us(j.baseline_iteration).c_str(),
                    j.baseline == "counterfactual" ? "without it" : "before it", j.inflation);
    else
      std::snprintf(iterations, sizeof iterations, "no iteration ended after it");
    // GPU idle in the line's own unit: ranks x the lost time, as GPU-milliseconds (GPU-seconds from 10 s on).
    const bool in_s = j.extra >= 10 * kSecond;
    const double idle = static_cast<double>(j.ranks) * static_cast<double>(j.extra) / (in_s ? kSecond : kMillisecond);
    std::snprintf(buf, sizeof buf, "  allreduce %zu: %s, %s lost, GPU idle %d ranks x %s = %.3f GPU-%s%s", j.index, iterations,
                  Ms(j.extra).c_str(), j.ranks, Ms(j.extra).c_str(), idle, in_s ? "s" : "ms",
                  j.stopped      ? " (stopped by a QP error)"
                  : j.behind > 0 ? (" (at the end, " + Ms(j.behind) + " behind the run without the fault)").c_str()
                                 : "");
    lines.push_back(buf);
    if (j.before.iteration > 0 && j.after.iteration > 0) {
      std::snprintf(buf, sizeof buf, "  allreduce %zu ceiling: %s per iteration before (%s), %s after (%s)%s", j.index,
                    Us(j.before.iteration).c_str(), j.before.bottleneck.c_str(), Us(j.after.iteration).c_str(),
                    j.after.bottleneck.c_str(), j.after.iteration > j.before.iteration ? ": the fabric lost capacity" : "");
      lines.push_back(buf);
    }
    if (j.capacity_iteration > 0) {
      std::snprintf(buf, sizeof buf,
                    "  allreduce %zu measured: %s per iteration with %s down from the start, routes converged "
                    "(what the fabric can now carry; full service is within 5 %% of it)",
                    j.index, Us(j.capacity_iteration).c_str(), j.capacity_links.c_str());
      lines.push_back(buf);
    }
  }
  if (!lc.workloads.empty()) {
    std::string s = "  workloads recovered: ";
    for (size_t w = 0; w < lc.workloads.size(); ++w) {
      const WorkloadRecovery& r = lc.workloads[w];
      s += (w ? "; " : "") + r.workload + " " +
           (!r.degraded ? "unaffected" : r.recovered >= 0 ? "at " + Ms(r.recovered) : "not by the end of the run");
    }
    lines.push_back(s);
    std::string d = "  degraded " + Ms(lc.degraded) + (lc.degraded_to_end && !lc.extrapolated ? " (to the end of the run, at least)" : "");
    if (lc.lost >= 0) d += ", lost " + Ms(lc.lost) + " (" + lc.lost_from + ")";
    lines.push_back(d);
  }
  if (lc.extrapolated) lines.push_back("  extrapolated: " + lc.extrapolation);
  if (lc.cost) lines.push_back("  cost: " + lc.cost->arithmetic);
  if (lc.production) lines.push_back("  cost " + lc.production->arithmetic);
  return lines;
}

std::string CounterfactualLine(const Experiment& x) {
  const Counterfactual* cf = x.counterfactual();
  if (!cf) return "counterfactual: off (lifecycle.counterfactual): no victim flows; baselines from before each fault";
  size_t flows = 0, finished = 0;
  for (const Counterfactual::Qp& q : cf->qps) {
    if (q.open) continue;
    ++flows;
    finished += q.done;
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "counterfactual (the same run without its faults, seed %llu): simulated %s, %zu of %zu flows finished, "
                "%llu B delivered, %zu monitor detections; %.3f s wall",
                static_cast<unsigned long long>(x.fabric().scenario().seed), Ms(cf->end).c_str(), finished, flows,
                static_cast<unsigned long long>(cf->bytes_delivered), cf->detections, cf->wall_s);
  return buf;
}

}  // namespace rocelab
