// What a fault cost: victim flows against the counterfactual (the same run
// without the fault), an AllReduce's inflation and lost time, the price of it,
// the ring's ceiling after a shut link, and runbook recovery with its operator
// delay (and the extrapolation past the run's end), full service against what the fabric can
// carry with a shut link gone. Timers scaled, runs short.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run/lifecycle.h"
#include "report/summary.h"
#include "run/memory_estimate.h"
#include "util/units.h"
#include "scenario/scenario.h"
#include "file_util.h"
#include "test_util.h"

namespace rocelab {
namespace {

// Three leaves of three hosts under one spine. h3 -> h0 crosses the stormed host; h4 -> h1
// shares the spine's link to leaf0 with it and never touches h0; h6 -> h7 stays on leaf2.
// h2, h5 and h8 are idle.
std::string ThreeLeaves(const std::string& target) {
  return "duration: 5ms\ntimers: {scale: 0.01}\n"
         "topology: {type: spine-leaf, spines: 1, leaves: 3, hosts_per_leaf: 3}\n"
         "nic: {pfc_prevention_tout: off}\n"
         "switch: {pfc_watchdog: {enabled: false}}\n"
         "workload:\n"
         "  - {type: flow, src: h3, dst: h0, size: 16MB}\n"
         "  - {type: flow, src: h4, dst: h1, size: 16MB}\n"
         "  - {type: flow, src: h6, dst: h7, size: 16MB}\n"
         "faults:\n  - {kind: pfc_storm, target: " + target + ", at: 500us}\n";
}

TEST(LifecycleCost, VictimsAreTheFlowsThatNeverTouchedTheTargetAndWereSlowed) {
  TestRun f = RunYaml(ThreeLeaves("h0"));
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  const Counterfactual* cf = f.run->counterfactual();
  ASSERT_NE(cf, nullptr);
  ASSERT_TRUE(lc[0].victims_known);
  // h3 -> h0 went through the target: not a victim, however slow.
  EXPECT_TRUE(f.run->touch()->Touched(0, 0));
  EXPECT_FALSE((*f).qps()[0].done);
  // h4 -> h1 never touched h0 and was stopped by the pause that spread from it.
  EXPECT_FALSE(f.run->touch()->Touched(0, 1));
  ASSERT_EQ(lc[0].victims.size(), 1u);
  const VictimFlow& v = lc[0].victims[0];
  EXPECT_EQ(v.id, 1u);
  EXPECT_EQ(v.src, "h4");
  EXPECT_EQ(v.dst, "h1");
  EXPECT_EQ(v.state, "unfinished");
  EXPECT_EQ(v.fct, -1);
  EXPECT_EQ(v.fct_without, cf->qps[1].finish - cf->qps[1].start);
  EXPECT_GT(v.fct_without, 500 * kMicrosecond) << "it was still running at the injection without the fault";
  // h6 -> h7 on another leaf: untouched and unharmed, to the picosecond the same as without the fault.
  EXPECT_FALSE(f.run->touch()->Touched(0, 2));
  ASSERT_TRUE((*f).qps()[2].done);
  EXPECT_EQ((*f).qps()[2].finish, cf->qps[2].finish);
  // In summary.json, beside the counterfactual's figures.
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  const auto& victims = s["faults"][0]["victim_flows"];
  ASSERT_EQ(victims.size(), 1u);
  EXPECT_EQ(victims[0]["id"], 1);
  EXPECT_TRUE(victims[0]["fct_ns"].is_null());
  EXPECT_EQ(victims[0]["fct_without_fault_ns"], static_cast<double>(v.fct_without) / kNanosecond);
  EXPECT_EQ(s["counterfactual"]["flows_finished"], 3);
  EXPECT_EQ(s["faults"][0]["workloads"][0]["workload"], "flows");
  EXPECT_TRUE(s["faults"][0]["workloads"][0]["recovered_ns"].is_null()) << "two flows never finished";
}

TEST(LifecycleCost, AFaultThatTouchesNobodyHasNoVictimsAndCostsNothing) {
  TestRun f = RunYaml(ThreeLeaves("h8") + "cost: {per_hour: 1000}\n");
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  EXPECT_TRUE(lc[0].victims_known);
  EXPECT_TRUE(lc[0].victims.empty());
  EXPECT_EQ(lc[0].flows_failed, 0);
  EXPECT_EQ(lc[0].bytes_dropped_by_actions(), 0u);
  ASSERT_EQ(lc[0].workloads.size(), 1u);
  EXPECT_FALSE(lc[0].workloads[0].degraded);
  EXPECT_EQ(lc[0].workloads_recovered, 500 * kMicrosecond) << "never degraded: recovered at the injection";
  EXPECT_EQ(lc[0].lost, 0);
  ASSERT_TRUE(lc[0].cost.has_value());
  EXPECT_EQ(lc[0].cost->amount, 0.0);
}

// The counterfactual is the same run: its figures are those of the scenario run without its
// faults, and two runs with the fault give the same summary byte for byte.
TEST(LifecycleCost, TheCounterfactualIsTheRunWithoutTheFaultAndBothRepeat) {
  const std::string yaml = ThreeLeaves("h0");
  TestRun a = RunYaml(yaml), b = RunYaml(yaml);
  EXPECT_EQ(WithoutEngine(SummaryJson(*a.run)), WithoutEngine(SummaryJson(*b.run)));
  TestRun without = RunYaml(yaml.substr(0, yaml.find("faults:")));
  const Counterfactual* cf = a.run->counterfactual();
  ASSERT_EQ(cf->qps.size(), without->qps().size());
  for (const QueuePair& qp : without->qps()) {
    EXPECT_EQ(cf->qps[qp.id].finish, qp.finish) << qp.id;
    EXPECT_EQ(cf->qps[qp.id].delivered, qp.delivered) << qp.id;
  }
  EXPECT_EQ(cf->end, without->now());
}

TEST(LifecycleCost, CostArithmeticIsExact) {
  CostSpec gpu;
  gpu.given = gpu.by_gpu = true;
  gpu.gpus = 512;
  gpu.per_gpu_hour = 2.0;
  const CostFigure a = PriceOf(gpu, 840 * kMillisecond);
  EXPECT_EQ(a.amount, 512 * 0.84 * 2.0 / 3600);
  EXPECT_EQ(a.arithmetic, "512 GPUs × 0.84 s lost × 2.00 USD/GPU-hour = 0.24 USD");
  CostSpec cluster;
  cluster.given = true;
  cluster.per_hour = 1500;
  cluster.currency = "EUR";
  const CostFigure b = PriceOf(cluster, 3 * kMillisecond);
  EXPECT_EQ(b.amount, 0.003 * 1500 / 3600);
  EXPECT_EQ(b.arithmetic, "0.003 s lost × 1500.00 EUR/hour = 0.0013 EUR");
}

// A ring AllReduce with two flows into h0; h0's receive pipeline stalls for 3 ms (no watchdog,
// no guard): the pause spreads, the ring slows, and comes back after the storm ends.
const char* kRingUnderAStorm =
    "seed: 7\nduration: 30ms\ntimers: {scale: 0.01}\n"
    "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4,\n"
    "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}\n"
    "switch:\n  pfc: {enabled: true, headroom: auto}\n  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n"
    "  pfc_watchdog: {enabled: false}\n"
    "nic: {cc: dcqcn, timeout: 19, pfc_prevention_tout: off}\n"
    "cost: {gpus: 512, per_gpu_hour: 2.0, currency: USD}\n"
    "workload:\n"
    "  - {type: allreduce, hosts: [h1, h2, h3, h5, h6, h7], size: 4MB, iterations: 20, compute: 200us}\n"
    "  - {type: flow, src: h4, dst: h0, size: 64MB}\n"
    "  - {type: flow, src: h5, dst: h0, size: 64MB}\n"
    "faults:\n  - {kind: pfc_storm, target: h0, at: 2ms, duration: 3ms}\n";

TEST(LifecycleCost, AnAllreduceUnderAStormIsInflatedAndItsLostTimePriced) {
  TestRun f = RunYaml(kRingUnderAStorm);
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  ASSERT_EQ(lc[0].jobs.size(), 1u);
  const JobImpact& job = lc[0].jobs[0];
  const AllreduceDriver& ring = f.run->allreduce(0);
  const std::vector<Time>& without = f.run->counterfactual()->allreduce_times[0];
  ASSERT_EQ(ring.iteration_times().size(), 20u);
  ASSERT_EQ(without.size(), 20u);
  // The iterations that ended after the injection, against the same iterations without it.
  Time extra = 0, sum = 0, base = 0;
  int n = 0;
  for (size_t j = 0; j < 20; ++j) {
    if (ring.iteration_begins()[j] + ring.iteration_times()[j] <= 2 * kMillisecond) continue;
    extra += ring.iteration_times()[j] - without[j];
    sum += ring.iteration_times()[j];
    base += without[j];
    ++n;
  }
  EXPECT_EQ(job.iterations, n);
  EXPECT_EQ(job.extra, extra);
  EXPECT_EQ(job.mean_iteration, sum / n);
  EXPECT_EQ(job.baseline_iteration, base / n);
  EXPECT_DOUBLE_EQ(job.inflation, static_cast<double>(sum) / static_cast<double>(base));
  EXPECT_GT(job.inflation, 1.1) << "the storm slowed the ring";
  EXPECT_GT(job.extra, 1 * kMillisecond);
  EXPECT_DOUBLE_EQ(job.gpu_idle_s, 6.0 * static_cast<double>(extra) / kSecond);
  // It came back (the storm ended), and the time it lost is what the cost prices.
  ASSERT_EQ(lc[0].workloads[0].workload, "allreduce 0");
  EXPECT_GT(lc[0].workloads[0].recovered, 5 * kMillisecond);
  EXPECT_EQ(lc[0].lost, extra);
  ASSERT_TRUE(lc[0].cost.has_value());
  const double lost_s = static_cast<double>(extra) / kSecond;
  EXPECT_EQ(lc[0].cost->amount, 512 * lost_s * 2.0 / 3600);
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  const auto& cost = s["faults"][0]["cost"];
  EXPECT_EQ(cost["gpus"], 512);
  EXPECT_EQ(cost["arithmetic"], "512 GPUs × " + FormatSeconds(lost_s) + " s lost × 2.00 USD/GPU-hour = " +
                                    FormatMoney(512 * lost_s * 2.0 / 3600) + " USD");
  EXPECT_EQ(s["faults"][0]["job_impact"][0]["extra_ns"], static_cast<double>(extra) / kNanosecond);
}

// scenarios/faults/deadlock.yaml left alone (recovery off): the cycle holds the ring up to the
// end. The ring finishes no iteration after the injection in the 12 ms, where the run without
// the deadlock finished three: it is not back, and it is as far behind that run as the time
// since that run finished the iteration this one is still in.
TEST(LifecycleCost, ARingThatFinishesNoIterationAfterTheFaultIsBehindAndNotBack) {
  std::string yaml = ReadFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/deadlock.yaml");
  const size_t mode = yaml.find("recovery: {mode: auto}");
  ASSERT_NE(mode, std::string::npos);
  yaml.replace(mode, 22, "recovery: {mode: off}");
  TestRun f = RunYaml(yaml);
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  ASSERT_EQ(lc[0].jobs.size(), 1u);
  const AllreduceDriver& ring = f.run->allreduce(0);
  const Counterfactual& cf = *f.run->counterfactual();
  const size_t n = ring.iteration_times().size();
  ASSERT_EQ(n, 0u) << "the ring finished an iteration: the scenario no longer shows a held-up ring";
  ASSERT_GT(cf.allreduce_ends[0].size(), n + 1);
  const Time end = f.run->fabric().now(), cf_end = cf.allreduce_ends[0][n];
  const JobImpact& job = lc[0].jobs[0];
  EXPECT_EQ(job.iterations, 0);
  EXPECT_EQ(job.behind, end - cf_end);
  EXPECT_EQ(job.extra, end - cf_end);
  EXPECT_EQ(lc[0].lost, end - cf_end);
  ASSERT_FALSE(lc[0].workloads.empty());
  EXPECT_EQ(lc[0].workloads[0].workload, "allreduce 0");
  EXPECT_TRUE(lc[0].workloads[0].degraded);
  EXPECT_EQ(lc[0].workloads[0].recovered, -1);
  EXPECT_EQ(lc[0].workloads_recovered, -1);
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_TRUE(s["faults"][0]["recovered_ns"].is_null());
  EXPECT_EQ(s["faults"][0]["job_impact"][0]["behind_ns"], static_cast<double>(end - cf_end) / kNanosecond);
}

// An open-loop trace through a 1 ms storm: recovered at the end of the last window in which it
// delivered less than 95 % of what it delivers without the storm while behind it.
TEST(LifecycleCost, ATraceRecoversWhenItDeliversItsLoadAgain) {
  TestRun f = RunYaml(
      "duration: 20ms\nseed: 5\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 4}\n"
      "nic: {cc: dcqcn, timeout: 8, pfc_prevention_tout: off}\n"
      "switch: {pfc_watchdog: {enabled: false}}\n"
      "lifecycle: {window: 250us}\n"
      "workload:\n  - {type: trace, cdf: " + std::string(ROCELAB_SHARED_DATA) +
      "/cdf/WebSearch_distribution.txt, load: 0.4, duration: 6ms}\n"
      "faults:\n  - {kind: pfc_storm, target: h0, at: 1ms, duration: 1ms}\n");
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc[0].workloads.size(), 1u);
  const WorkloadRecovery& w = lc[0].workloads[0];
  EXPECT_EQ(w.workload, "trace 0");
  EXPECT_TRUE(w.degraded);
  const Time window = 250 * kMicrosecond, recovered = w.recovered;
  ASSERT_GE(recovered, 2 * kMillisecond) << "not before the storm ended";
  EXPECT_EQ(recovered % window, 0);
  // Window by window, against the counterfactual.
  const auto& s = f.run->probe()->samples();
  const auto& c = f.run->counterfactual()->samples;
  auto short_of_load = [&](Time end) {
    const double got = LifecycleProbe::At(s, end, 0) - LifecycleProbe::At(s, end - window, 0);
    const double want = LifecycleProbe::At(c, end, 0) - LifecycleProbe::At(c, end - window, 0);
    return want > 0 && got < 0.95 * want && LifecycleProbe::At(s, end, 0) < LifecycleProbe::At(c, end, 0);
  };
  EXPECT_TRUE(short_of_load(recovered));
  for (Time t = recovered + window; t <= f->now(); t += window) EXPECT_FALSE(short_of_load(t)) << t;
  EXPECT_EQ(lc[0].workloads_recovered, recovered);
  EXPECT_EQ(lc[0].degraded, recovered - 1 * kMillisecond);
}

// Frames vanish on leaf0-spine1 under a ring whose every edge crosses the leaves.
std::string GrayRing(const std::string& recovery) {
  return "duration: 10ms\ntimers: {scale: 0.01}\nmonitor: {refresh: instant, interval: 100ms, phase: 0s}\nrecovery: " + recovery +
         "\n"
         "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4,\n"
         "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G}}\n"  // frames on the cable at the shut
         "switch: {link_down_detection: 5ms, route_convergence: 20ms}\n"
         "nic: {timeout: 13}\n"
         "workload:\n"
         "  - {type: allreduce, hosts: [h0, h4, h1, h5, h2, h6, h3, h7], size: 2MB, qps: 4, iterations: 40, compute: 100us}\n"
         "faults:\n  - {kind: gray_drop, target: leaf0-spine1, at: 1ms, rate: 0.1}\n";
}

// On the wire, per iteration, what one ring edge carries: 2(N-1) blocks of S/N over its QPs.
uint64_t EdgeWireBytes(uint64_t size, int ranks, int qps, uint32_t mtu) {
  const uint64_t per_qp = (size + ranks - 1) / ranks * 2 * (ranks - 1) / qps;
  return static_cast<uint64_t>(qps) * (per_qp + (per_qp + mtu - 1) / mtu * (kRoceHeaders + 20));
}

TEST(LifecycleCost, AShutLinkLowersTheRingsCeilingAndRecoveryIsJudgedAgainstIt) {
  TestRun f = RunYaml(GrayRing("{mode: auto}"));
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  const std::vector<Recovery::Action> actions = f.run->FaultActions(0);
  ASSERT_EQ(actions.size(), 1u);
  ASSERT_EQ(lc[0].jobs.size(), 1u);
  const RingCeiling& before = lc[0].jobs[0].before;
  const RingCeiling& after = lc[0].jobs[0].after;
  // After the shut, leaf0's one uplink carries the four edges that leave leaf0 (and spine0's
  // link down to leaf0 the four that arrive): four edges' bytes at 100G.
  const uint64_t edge = EdgeWireBytes(2 << 20, 8, 4, 4096);
  EXPECT_EQ(after.bottleneck_bytes, 4 * edge);
  EXPECT_EQ(after.bottleneck_rate_bps, 100000000000ull);
  EXPECT_NEAR(static_cast<double>(after.iteration), 4.0 * edge * 8 / 100e9 * kSecond, 1);
  EXPECT_NE(after.bottleneck.find("spine0"), std::string::npos) << after.bottleneck;
  EXPECT_LT(before.iteration, after.iteration);
  EXPECT_GE(before.bottleneck_bytes, edge);
  // Full service is judged against what the fabric carries with the link down from the start,
  // measured: a little above the analytic bound (pipeline fill, congestion control).
  const JobImpact& job = lc[0].jobs[0];
  EXPECT_GE(job.capacity_iteration, after.iteration);
  EXPECT_LT(static_cast<double>(job.capacity_iteration), 1.1 * static_cast<double>(after.iteration));
  EXPECT_EQ(job.capacity_links, "leaf0-spine1");
  ASSERT_EQ(lc[0].workloads.size(), 1u);
  EXPECT_NE(lc[0].workloads[0].criterion.find("with leaf0-spine1 down from the start"), std::string::npos)
      << lc[0].workloads[0].criterion;
  // What the shut cost, counted: frames the link lost from the shut on, and none before it.
  EXPECT_GT(lc[0].by_shut_links, 0u);
  const Topology& topo = f->topology();
  const int leaf0 = topo.FindNode("leaf0"), spine1 = topo.FindNode("spine1");
  const uint64_t lost = f->device(leaf0).port(ResolvePort(topo, leaf0, "spine1")).faults->counters.carrier_lost_bytes +
                        f->device(spine1).port(ResolvePort(topo, spine1, "leaf0")).faults->counters.carrier_lost_bytes;
  EXPECT_EQ(lc[0].by_shut_links, lost);
  EXPECT_EQ(lc[0].by_watchdog + lc[0].by_guard, 0u);
  // The strict recovered_ns: the monitor quiet and the ring back, whichever is later.
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_NEAR(s["faults"][0]["job_impact"][0]["capacity_iteration_ns"].get<double>(),
              static_cast<double>(job.capacity_iteration) / kNanosecond, 0.001);
  if (s["faults"][0]["workloads_recovered_ns"].is_null()) {
    EXPECT_TRUE(s["faults"][0]["recovered_ns"].is_null());
  } else {
    const double quiet = s["faults"][0]["quiet_ns"], ring = s["faults"][0]["workloads_recovered_ns"];
    EXPECT_EQ(s["faults"][0]["recovered_ns"], std::max(quiet, ring));
  }
}

// A fabric started with a link down carries nothing over it and drops nothing for want of a
// route: every switch's routes were converged around it before the first frame.
TEST(LifecycleCost, AFabricStartedWithALinkDownNeverUsesIt) {
  TestRun f = StartYaml(
      "duration: 3ms\n"
      "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4}\n"
      "workload:\n"
      "  - {type: allreduce, hosts: [h0, h4, h1, h5, h2, h6, h3, h7], size: 1MB, qps: 4, iterations: 100, compute: 10us}\n");
  const Topology& topo = f->topology();
  const int leaf0 = topo.FindNode("leaf0"), spine1 = topo.FindNode("spine1");
  const int up = ResolvePort(topo, leaf0, "spine1"), down = ResolvePort(topo, spine1, "leaf0");
  f->StartWithLinkDown(leaf0, up);
  f.run->Run();
  EXPECT_GT(f.run->allreduce(0).iteration_times().size(), 2u);
  for (const auto& [node, port] : {std::pair{leaf0, up}, std::pair{spine1, down}}) {
    EXPECT_EQ(f->device(node).port(port).counters.tx_prio[3].packets, 0u);
    EXPECT_EQ(f->device(node).port(port).faults->counters.carrier_lost_bytes, 0u);
  }
  for (const auto& sw : f->switches()) EXPECT_EQ(sw->no_route_drop_bytes(), 0u) << sw->name();
  EXPECT_EQ(ComputeTotals(*f).drops_lossless, 0u);
}

// After recovery shut a link, the ring is back when it runs as fast as the fabric can with that
// link gone, measured: the run again without the fault, the link down from the start. The
// analytic ceiling (x1.5 here) misses what the ring loses to the incast on the link left (x2).
TEST(LifecycleCost, FullServiceIsWhatTheFabricCarriesWithTheShutLinkDownFromTheStart) {
  // The errors of scenarios/faults/link_errors.yaml raised to 1.2e-3 (30 % of the codewords
  // uncorrectable) on a link that carries them (no PCS failure): the link is down only when the
  // recovery shuts it, at 3 ms, on the millisecond.
  Scenario sc = FaultScenarioOnTheClock("link_errors");
  sc.faults[0].pre_fec_ber = 1.2e-3;
  sc.faults[0].link_fault = false;
  Experiment x(sc);
  x.Run();
  const std::vector<Recovery::Action> actions = x.FaultActions(0);
  ASSERT_EQ(actions.size(), 1u);
  const Counterfactual* cap = x.capacity();
  ASSERT_NE(cap, nullptr);
  EXPECT_EQ(x.capacity_links(), std::vector<std::string>{"leaf0-spine1"});
  EXPECT_EQ(x.capacity_since(), actions[0].t);
  // What the fabric can carry for the ring once the incast runs (from 3 ms): half of what it
  // carries with both uplinks.
  auto mean_from = [](const std::vector<Time>& times, const std::vector<Time>& ends, Time from) {
    double sum = 0;
    int n = 0;
    for (size_t j = 0; j < times.size(); ++j)
      if (ends[j] - times[j] >= from) sum += static_cast<double>(times[j]), ++n;
    return n ? sum / n : 0.0;
  };
  const Counterfactual* cf = x.counterfactual();
  ASSERT_NE(cf, nullptr);
  const double with_link = mean_from(cf->allreduce_times[0], cf->allreduce_ends[0], 3 * kMillisecond);
  const double without = mean_from(cap->allreduce_times[0], cap->allreduce_ends[0], 3 * kMillisecond);
  ASSERT_GT(with_link, 0);
  EXPECT_GT(without, 1.7 * with_link);
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(x);
  ASSERT_EQ(lc[0].jobs.size(), 1u);
  const JobImpact& job = lc[0].jobs[0];
  EXPECT_GT(static_cast<double>(job.capacity_iteration), 1.7 * with_link);
  EXPECT_EQ(job.capacity_links, "leaf0-spine1");
  EXPECT_LT(static_cast<double>(job.after.iteration), 1.6 * static_cast<double>(job.before.iteration))
      << "the analytic ceiling alone would hold the ring to too fast a time";
  // The ring back, after the shut, and the lost time still counted against the run without the
  // fault.
  ASSERT_EQ(lc[0].workloads.size(), 2u);
  EXPECT_EQ(lc[0].workloads[0].workload, "allreduce 0");
  EXPECT_GT(lc[0].workloads[0].recovered, actions[0].t);
  EXPECT_GT(job.extra, 0);
  // Recovery off: the link stays up, losing frames; nothing to measure, and not back.
  sc.recovery_auto = false;
  Experiment off(sc);
  off.Run();
  EXPECT_EQ(off.capacity(), nullptr);
  EXPECT_EQ(ComputeLifecycle(off)[0].workloads[0].recovered, -1);
}

TEST(LifecycleCost, RunbookActsExactlyTheOperatorDelayAfterTheDetection) {
  TestRun f = RunYaml(GrayRing("{mode: runbook, delay: {t3: 1500us}}"));
  const Monitor::Detection* d = f.run->FaultLocalization(0);
  ASSERT_NE(d, nullptr);
  const std::vector<Recovery::Action> actions = f.run->FaultActions(0);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].t, d->t + 1500 * kMicrosecond);
  ASSERT_NE(f.run->runbook(), nullptr);
  const Runbook::Ticket& t = f.run->runbook()->tickets().front();
  EXPECT_EQ(t.tier, "T3");
  EXPECT_EQ(t.due, d->t + 1500 * kMicrosecond);
  EXPECT_TRUE(t.acted);
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  EXPECT_FALSE(lc[0].extrapolated);
}

// Under a runbook the storm's escalation is the operator's too: once the drop at h0's port shows
// its senders going on at line rate, a T3 ticket is opened for isolating h0, and h0 is isolated
// exactly the T3 delay later, not at once (automation) and not never (as before: a runbook's
// storm was dropped at its port for good, its senders flooding the ring's uplinks).
TEST(LifecycleCost, ARunbooksStormIsIsolatedTheT3DelayAfterItsDropShowsItsSendersGoingOn) {
  std::string yaml = ReadFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/pfc_storm.yaml");
  const std::string auto_mode = "recovery: {mode: auto}";
  ASSERT_NE(yaml.find(auto_mode), std::string::npos);
  yaml.replace(yaml.find(auto_mode), auto_mode.size(), "recovery: {mode: runbook, delay: {t2: 1ms, t3: 2ms}}");
  TestRun f = RunYaml(yaml);
  ASSERT_NE(f.run->runbook(), nullptr);
  const Runbook::Ticket* drop = nullptr;
  const Runbook::Ticket* isolate = nullptr;
  for (const Runbook::Ticket& t : f.run->runbook()->tickets()) {
    if (t.tier == "T2" && t.detection.rule == "pfc.pause_storm" && !drop) drop = &t;
    if (t.tier == "T3" && t.step) isolate = &t;
  }
  ASSERT_NE(drop, nullptr);
  ASSERT_NE(isolate, nullptr) << "the escalation opens a ticket";
  EXPECT_GT(isolate->detection.t, drop->due) << "opened once the drop shows the senders going on";
  EXPECT_EQ(isolate->due, isolate->detection.t + 2 * kMillisecond);
  EXPECT_TRUE(isolate->acted);
  Time isolated = -1;
  for (const Recovery::Action& a : f.run->FaultActions(0))
    if (a.kind == "isolate_host") isolated = a.t;
  EXPECT_EQ(isolated, isolate->due);
}

// scenarios/faults/slow_receiver.yaml: h0 drains 20G. ECN re-tuned on the queue feeding it does not
// stop its pause spreading, so its pause is ignored and its traffic forwarded. No queue builds
// for it then, nothing marks, no CNP reaches its senders, and they go on at what DCQCN had
// them at: h10 and h11 send 40G across the spines, half of it to be discarded at h0's NIC,
// and the ring sharing those links never came back (8.1 ms lost of 40, not back by the end).
// The discards counted in a window are the escalation's evidence: h0 is isolated, its flows
// fail as it is out of service, and the ring is back.
TEST(LifecycleCost, ASlowReceiverWhoseSendersAreNotSlowedIsIsolatedAndTheRingComesBack) {
  auto run = [](const char* mode) {
    std::string yaml = ReadFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/slow_receiver.yaml");
    const size_t at = yaml.find("recovery: {mode: auto}");
    EXPECT_NE(at, std::string::npos);
    yaml.replace(at, 22, std::string("recovery: {mode: ") + mode + "}");
    return RunYaml(yaml);
  };
  TestRun on = run("auto");
  const std::vector<Recovery::Action> actions = on.run->FaultActions(0);
  EXPECT_EQ(actions.size(), 3u);
  if (actions.size() == 3) {
    EXPECT_EQ(actions[0].kind, "retune_ecn");
    EXPECT_EQ(actions[1].kind, "ignore_pause_forward");
    EXPECT_EQ(actions[2].kind, "isolate_host");
    EXPECT_EQ(actions[2].rule, "pfc.slow_receiver");
    EXPECT_EQ(actions[2].t, actions[1].t + on.run->monitor()->window()) << "the first window the NIC discards in";
    EXPECT_NE(actions[2].action.find("discarded at its NIC (rx_discards_phy)"), std::string::npos) << actions[2].action;
  }
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*on.run);
  ASSERT_EQ(lc.size(), 1u);
  ASSERT_FALSE(lc[0].workloads.empty());
  EXPECT_EQ(lc[0].workloads[0].workload, "allreduce 0");
  EXPECT_GE(lc[0].workloads[0].recovered, 0) << "the ring is back";
  EXPECT_GE(lc[0].workloads_recovered, 0) << "h0's flows are out of service with it, the rest back";
  TestRun off = run("off");
  const std::vector<FaultLifecycle> left = ComputeLifecycle(*off.run);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_LT(lc[0].lost, left[0].lost / 5) << FormatTime(lc[0].lost) << " lost with recovery, " << FormatTime(left[0].lost) << " without";
}

// With production-like delays the action is due long after the run: the degraded period runs
// to it, at the throughput the run measured while degraded.
TEST(LifecycleCost, ARunbookDelayPastTheRunIsExtrapolated) {
  TestRun f = RunYaml(GrayRing("{mode: runbook, delay: {t3: 15min}}") + "cost: {per_hour: 3600}\n");
  const Monitor::Detection* d = f.run->FaultLocalization(0);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(f.run->FaultActions(0).empty()) << "nothing acted within the run";
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  const FaultLifecycle& l = lc[0];
  ASSERT_TRUE(l.extrapolated);
  const Time due = d->t + 15 * 60 * kSecond, end = f->now(), injected = 1 * kMillisecond;
  EXPECT_EQ(l.action_due, due);
  EXPECT_EQ(l.action_tier, "T3");
  EXPECT_EQ(l.degraded, due - injected);
  ASSERT_EQ(l.jobs.size(), 1u);
  const JobImpact& job = l.jobs[0];
  EXPECT_GT(job.inflation, 1.2);
  EXPECT_DOUBLE_EQ(l.throughput, job.throughput);
  EXPECT_GT(l.throughput, 0.1);
  EXPECT_LT(l.throughput, 0.9);
  EXPECT_EQ(l.lost, job.extra + static_cast<Time>(static_cast<double>(due - end) * (1 - l.throughput)));
  ASSERT_TRUE(l.cost.has_value());
  EXPECT_EQ(l.cost->amount, static_cast<double>(l.lost) / kSecond * 3600 / 3600);
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["faults"][0]["extrapolated"], true);
  EXPECT_EQ(s["faults"][0]["extrapolation"]["action_due_ns"], static_cast<double>(due) / kNanosecond);
  const std::string arithmetic = s["faults"][0]["extrapolation"]["arithmetic"];
  EXPECT_NE(arithmetic.find("due at 900.002 s"), std::string::npos) << arithmetic;
  EXPECT_TRUE(s["faults"][0]["recovered_ns"].is_null());
}

// The run without the faults is held beside the run with them: the estimate counts it.
TEST(LifecycleCost, TheMemoryEstimateCountsTheCounterfactual) {
  const MemoryEstimate with = EstimateMemory(ParseScenarioText(ThreeLeaves("h0"), "t.yaml"));
  const MemoryEstimate off =
      EstimateMemory(ParseScenarioText(ThreeLeaves("h0") + "lifecycle: {counterfactual: false}\n", "t.yaml"));
  EXPECT_EQ(off.counterfactual, 0u);
  EXPECT_EQ(with.counterfactual, with.routes + with.devices + with.flows);
  EXPECT_EQ(with.total, off.total + with.counterfactual);
}

struct Refusal {
  const char* yaml;  // below a minimal topology line
  int line;
  const char* key;
};

TEST(LifecycleCost, BadCostRecoveryAndLifecycleKeysAreRefusedWithTheSpot) {
  const Refusal kBad[] = {
      {"cost: {per_gpu_hour: 2.0}\n", 2, "cost.per_gpu_hour"},
      {"cost: {gpus: 8, per_gpu_hour: 2, per_hour: 100}\n", 2, "cost.per_hour"},
      {"cost:\n  currency: USD\n", 3, "cost"},
      {"cost: {gpus: 0, per_gpu_hour: 1}\n", 2, "cost.gpus"},
      {"cost: {per_hour: -1}\n", 2, "cost.per_hour"},
      {"cost: {per_hour: 1, gpus: 4}\n", 2, "cost.gpus"},
      {"cost: {per_hour: 1, currency: US DOLLARS}\n", 2, "cost.currency"},
      {"cost: {per_hour: 1, price: 3}\n", 2, "cost.price"},
      {"monitor: {refresh: instant, interval: 1ms}\nrecovery: {mode: auto, delay: {t3: 1min}}\n", 3, "recovery.delay"},
      {"monitor: {refresh: instant, interval: 1ms}\nrecovery: {mode: runbook, delay: {t4: 1min}}\n", 3, "recovery.delay.t4"},
      {"monitor: {refresh: instant, interval: 1ms}\nrecovery: {mode: runbook, delay: {t3: 2h}}\n", 3, "recovery.delay.t3"},
      {"monitor: {refresh: instant, interval: 1ms}\nrecovery: {mode: runbook, delay: {t3: 61min}}\n", 3, "recovery.delay.t3"},
      {"recovery: {mode: runbook}\n", 2, "recovery.mode"},
      {"monitor: {refresh: instant, interval: 1ms}\nrecovery: {mode: manual}\n", 3, "recovery.mode"},
      {"lifecycle: {counterfactual: maybe}\n", 2, "lifecycle.counterfactual"},
      {"lifecycle: {window: 0s}\n", 2, "lifecycle.window"},
      {"cost: {per_hour: 1, checkpoint: {since_last: 1h}}\n", 2, "cost.checkpoint.interval"},
      {"cost: {per_hour: 1, checkpoint: {interval: 1h, since_last: 2h}}\n", 2, "cost.checkpoint.since_last"},
      {"cost: {per_hour: 1, checkpoint: {interval: 0s}}\n", 2, "cost.checkpoint.interval"},
      {"cost: {per_hour: 1, checkpoint: {interval: 4h, every: 1h}}\n", 2, "cost.checkpoint.every"},
      {"cost: {per_hour: 1, checkpoint: {interval: 4}}\n", 2, "cost.checkpoint.interval"},
      {"cost: {per_hour: 1, response: {t4: 1min}}\n", 2, "cost.response.t4"},
      {"cost: {per_hour: 1, response: {t3: 800h}}\n", 2, "cost.response.t3"},
  };
  for (const Refusal& r : kBad) {
    try {
      ParseScenarioText("topology: {type: spine-leaf}\n" + std::string(r.yaml), "t.yaml");
      ADD_FAILURE() << "accepted: " << r.yaml;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.file(), "t.yaml") << r.yaml;
      EXPECT_EQ(e.line(), r.line) << r.yaml << e.what();
      EXPECT_EQ(e.key(), r.key) << r.yaml << e.what();
    }
  }
  // The good forms.
  const Scenario sc = ParseScenarioText(
      "topology: {type: spine-leaf}\nmonitor: {refresh: instant, interval: 1ms, phase: 0s}\nrecovery: {mode: runbook, delay: {t2: 90s}}\n"
      "cost: {per_hour: 1200.5, currency: EUR}\nlifecycle: {counterfactual: false, window: 250us}\n",
      "t.yaml");
  EXPECT_TRUE(sc.recovery_runbook);
  EXPECT_EQ(sc.runbook_delay_t2, 90 * kSecond);
  EXPECT_EQ(sc.runbook_delay_t3, 15 * 60 * kSecond);
  EXPECT_FALSE(sc.cost.by_gpu);
  EXPECT_EQ(sc.cost.per_hour, 1200.5);
  EXPECT_EQ(sc.cost.currency, "EUR");
  EXPECT_FALSE(sc.lifecycle.counterfactual);
  EXPECT_EQ(sc.lifecycle.window, 250 * kMicrosecond);
}

// `rocelab run` on `yaml` (written to a fresh folder as run.yaml, the output in out/ beside it).
struct Command {
  int status = -1;
  std::string text, file, out;
};
Command RunCommand(const std::string& yaml) {
  Command c;
  c.file = TempDir("lifecycle") + "/run.yaml";
  c.out = c.file.substr(0, c.file.size() - 8) + "out";
  std::ofstream(c.file) << yaml;
  FILE* p = popen((std::string(ROCELAB_BINARY) + " run " + c.file + " --out " + c.out + " 2>&1").c_str(), "r");
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) c.text.append(buf, n);
  const int st = pclose(p);
  c.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return c;
}

// At production time, by hand: the run's times x 1/scale, a person's response, and either the
// share of the degraded time lost or, for a halt past the retry budget, all of it plus the
// rollback to the last checkpoint and the restart.
TEST(LifecycleCost, ProductionArithmeticIsExact) {
  CostSpec spec;
  spec.given = true;
  spec.per_hour = 8000;
  spec.currency = "CNY";
  ProductionInputs in;
  in.scale = 0.01;
  in.detect = 2 * kMillisecond;   // 0.2 s at production
  in.tier = "T3";
  in.response = 30 * 60 * kSecond;
  in.after_action = kMillisecond;  // 0.1 s
  in.throughput = 0.25;
  in.retry_budget = 8 * kMillisecond;  // 0.8 s
  ProductionCost slowed = PriceAtProduction(spec, in);
  EXPECT_DOUBLE_EQ(slowed.degraded_s, 1800.3);
  EXPECT_DOUBLE_EQ(slowed.lost_s, 1800.3 * 0.75);
  EXPECT_FALSE(slowed.killed);
  EXPECT_DOUBLE_EQ(slowed.amount, 1800.3 * 0.75 / 3600 * 8000);
  in.halted = true;
  ProductionCost unpriced = PriceAtProduction(spec, in);  // no checkpoint section: killed, the rollback not priced
  EXPECT_TRUE(unpriced.killed);
  EXPECT_DOUBLE_EQ(unpriced.amount, 1800.3 / 3600 * 8000);
  spec.checkpoint_interval = 4 * 3600 * kSecond;
  spec.since_checkpoint = 2 * 3600 * kSecond;
  spec.restart = 10 * 60 * kSecond;
  ProductionCost killed = PriceAtProduction(spec, in);
  EXPECT_TRUE(killed.killed);
  EXPECT_DOUBLE_EQ(killed.rollback_s, 7200);
  EXPECT_DOUBLE_EQ(killed.amount, (1800.3 + 7200 + 600) / 3600 * 8000);
  EXPECT_EQ(killed.arithmetic,
            "at production time (the run's timers × 100): detected after 0.003 min + T3 response 30.000 min + back 0.002 "
            "min after the action = 30.005 min halted, longer than the queue pairs' retry budget (0.013 min): the job "
            "dies, redoes its work since the last checkpoint and restarts: 30.005 min + 120.000 min + 10.000 min = "
            "160.005 min × 8000.00 CNY/hour = 21334.00 CNY");
  // A halt shorter than the retry budget: the queue pairs survive, nothing to roll back.
  in.response = 0;
  in.retry_budget = kSecond;
  ProductionCost survived = PriceAtProduction(spec, in);
  EXPECT_FALSE(survived.killed);
  EXPECT_DOUBLE_EQ(survived.amount, 0.3 / 3600 * 8000);
}

// The worked example operators quote: a 64-node job (8000 CNY an hour) halted by a PFC deadlock
// for 30 minutes loses 4000 CNY of its time, and its rollback to the last checkpoint (2 hours of
// work) 16000 more. scenarios/faults/deadlock.yaml prices its deadlock so, within 5 %.
TEST(LifecycleCost, TheDeadlockScenarioReproducesTheWorkedExample) {
  TestRun f = RunYaml(ReadFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/deadlock.yaml"));
  const std::vector<FaultLifecycle> lc = ComputeLifecycle(*f.run);
  ASSERT_EQ(lc.size(), 1u);
  ASSERT_TRUE(lc[0].production.has_value());
  const ProductionCost& p = *lc[0].production;
  EXPECT_TRUE(p.killed);
  EXPECT_NEAR(p.lost_s, 1800, 0.05 * 1800);
  EXPECT_NEAR(p.lost_s / 3600 * 8000, 4000, 0.05 * 4000);
  EXPECT_DOUBLE_EQ(p.rollback_s, 7200);
  EXPECT_NEAR(p.amount, 20000, 0.05 * 20000);
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["faults"][0]["cost"]["at_production"]["amount"], std::round(p.amount * 1e6) / 1e6);
  EXPECT_EQ(s["faults"][0]["cost"]["at_production"]["killed"], true);
}

TEST(LifecycleCost, TheCommandRefusesABadCostWithExitTwoAndWritesNothing) {
  const Command c = RunCommand(ThreeLeaves("h0") + "cost: {gpus: 512, per_hour: 2.0}\n");
  EXPECT_EQ(c.status, 2) << c.text;
  EXPECT_NE(c.text.find(c.file + ":12:"), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("key 'cost.gpus'"), std::string::npos) << c.text;
  struct stat st;
  EXPECT_NE(stat(c.out.c_str(), &st), 0) << "nothing written";
}

// The command prints each figure with its arithmetic.
TEST(LifecycleCost, RunPrintsTheFiguresAndTheCostArithmetic) {
  const Command c = RunCommand(ThreeLeaves("h0") + "cost: {gpus: 512, per_gpu_hour: 2.0}\n");
  const std::string& text = c.text;
  EXPECT_EQ(c.status, 0) << text;
  for (const char* line : {"victim flows (never touched h0, > 10 % slower than without the fault): 1: flow 1 h4 -> h1",
                           "dropped by actions: 0 B", "workloads recovered: flows not by the end of the run",
                           "cost: 512 GPUs × ", " s lost × 2.00 USD/GPU-hour = ",
                           "counterfactual (the same run without its faults, seed 1)"})
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
}

}  // namespace
}  // namespace rocelab
