// Whole runs: the k=8 fat-tree permutation of 4 MB flows with DCQCN
// (scenarios/fat-tree-k8-permutation.yaml) and the k=8 WebSearch trace at 50 %
// load for 10 ms (scenarios/fat-tree-k8-websearch50.yaml). Reports packet-hops per second
// (one frame crossing one link: the primary figure), events per second,
// simulated-to-wall time and bytes per in-flight packet.
#include <benchmark/benchmark.h>

#include "run/experiment.h"
#include "report/summary.h"
#include "scenario/scenario.h"

namespace rocelab {
namespace {

void RunScenarioBench(benchmark::State& state, const char* file) {
  Scenario sc = LoadScenarioFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/" + file);
  uint64_t hops = 0, events = 0;
  double sim_s = 0, bytes_per_packet = 0;
  for (auto _ : state) {
    Experiment x(sc);
    x.Run();
    const Fabric& f = x.fabric();
    hops += f.engine().packet_hops;
    events += f.engine().events;
    sim_s += static_cast<double>(f.now()) / kSecond;
    bytes_per_packet = f.engine().bytes_per_packet;
  }
  state.counters["packet_hops_per_s"] = benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsRate);
  state.counters["events_per_s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["sim_s_per_wall_s"] = benchmark::Counter(sim_s, benchmark::Counter::kIsRate);
  state.counters["bytes_per_inflight_packet"] = bytes_per_packet;
  state.counters["peak_rss_kb"] = static_cast<double>(PeakRssKb());
}

void BM_FatTreeK8Permutation(benchmark::State& state) { RunScenarioBench(state, "fat-tree-k8-permutation.yaml"); }
BENCHMARK(BM_FatTreeK8Permutation)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_FatTreeK8WebSearch50(benchmark::State& state) { RunScenarioBench(state, "fat-tree-k8-websearch50.yaml"); }
BENCHMARK(BM_FatTreeK8WebSearch50)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Incast15to1(benchmark::State& state) { RunScenarioBench(state, "incast-15to1.yaml"); }
BENCHMARK(BM_Incast15to1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rocelab
