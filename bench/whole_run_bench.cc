// Whole runs: the k=8 fat-tree permutation of 4 MB flows with DCQCN
// (scenarios/fat-tree-k8-permutation.yaml) and the k=8 WebSearch trace at 50 %
// load for 10 ms (scenarios/fat-tree-k8-websearch50.yaml), an incast from many queue pairs
// per sender, and the k=4 WebSearch comparison (scenarios/cc/websearch-k4-50.yaml) under each
// congestion control. Reports packet-hops per second
// (one frame crossing one link: the primary figure), events per second,
// simulated-to-wall time and bytes per in-flight packet.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "run/experiment.h"
#include "util/process_memory.h"
#include "scenario/scenario.h"

namespace rocelab {
namespace {

void RunBench(benchmark::State& state, const Scenario& sc) {
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

void RunScenarioBench(benchmark::State& state, const char* file) {
  RunBench(state, LoadScenarioFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/" + file));
}

void BM_FatTreeK8Permutation(benchmark::State& state) { RunScenarioBench(state, "fat-tree-k8-permutation.yaml"); }
BENCHMARK(BM_FatTreeK8Permutation)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_FatTreeK8WebSearch50(benchmark::State& state) { RunScenarioBench(state, "fat-tree-k8-websearch50.yaml"); }
BENCHMARK(BM_FatTreeK8WebSearch50)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Incast15to1(benchmark::State& state) { RunScenarioBench(state, "incast-15to1.yaml"); }
BENCHMARK(BM_Incast15to1)->Unit(benchmark::kMillisecond);

// 15 senders into one receiver with 1, 64 or 1,024 queue pairs each and the same bytes in all
// (64 MB a sender): the cost of a frame should not grow with the queue pairs a NIC sends from.
void BM_IncastQueuePairsPerSender(benchmark::State& state) {
  const int64_t qps = state.range(0);
  const std::string yaml =
      "name: incast-qps\nseed: 1\nduration: 100ms\n"
      "topology: {type: fat-tree, k: 4, link: {rate: 100G, delay: 1us}}\n"
      "switch: {buffer: 32MB, lossless_priorities: [3], ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}}\n"
      "nic: {mtu: 4096, cc: dcqcn}\n"
      "workload:\n  - {type: incast, senders: 15, dst: h0, qps: " + std::to_string(qps) +
      ", size: " + std::to_string(64 * 1024 / qps) + "KB, priority: 3}\n";
  RunBench(state, ParseScenarioText(yaml, "incast-qps.yaml"));
}
BENCHMARK(BM_IncastQueuePairsPerSender)->Arg(1)->Arg(64)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->Iterations(1);

// WebSearch at 50 % on a k=4 fat-tree under each congestion control: what each algorithm's
// per-packet work (pacing from an ACK-driven rate, the echo on each ACK) costs the engine. The
// runs differ in their traffic too (an algorithm that pauses less moves fewer frames), so compare
// packet-hops per second, not time.
void BM_WebSearchK4PerCc(benchmark::State& state) {
  static const char* const kCc[] = {"none", "dcqcn", "dctcp", "timely", "hpcc"};
  const char* cc = kCc[state.range(0)];
  state.SetLabel(cc);
  const std::string path = std::string(ROCELAB_SOURCE_DIR) + "/scenarios/cc/websearch-k4-50.yaml";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const size_t at = yaml.find("cc: dcqcn");
  if (at == std::string::npos) {
    state.SkipWithError("scenarios/cc/websearch-k4-50.yaml has no 'cc: dcqcn'");
    return;
  }
  yaml.replace(at, 9, std::string("cc: ") + cc);
  RunBench(state, ParseScenarioText(yaml, path));
}
BENCHMARK(BM_WebSearchK4PerCc)->DenseRange(0, 4)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace rocelab
