// The event loop's own cost: a steady state of N pending events, each popped
// event scheduling one more at a random later time (the "hold" model).
#include <benchmark/benchmark.h>

#include <vector>

#include "sim/due_run.h"
#include "sim/event_queue.h"
#include "sim/rank_keys.h"
#include "sim/rng.h"

namespace rocelab {
namespace {

struct Rescheduler : EventSource {
  Simulator* sim;
  Rng rng{1, 2};
  void HandleEvent(uint32_t, uint32_t, Packet*) override {
    sim->ScheduleIn(1 + static_cast<Time>(rng.Below(10 * kMicrosecond)), this, 0);
  }
};

void BM_EventHold(benchmark::State& state) {
  Simulator sim;
  Rescheduler r;
  r.sim = &sim;
  for (int64_t i = 0; i < state.range(0); ++i) sim.Schedule(static_cast<Time>(r.rng.Below(10 * kMicrosecond)), &r, 0);
  uint64_t before = sim.EventsProcessed();
  Time horizon = 0;
  for (auto _ : state) {
    horizon += 100 * kNanosecond;
    sim.RunUntil(horizon);
  }
  state.counters["events_per_s"] =
      benchmark::Counter(static_cast<double>(sim.EventsProcessed() - before), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EventHold)->Arg(1000)->Arg(10000)->Arg(100000);

// A refill's sort (sim/due_run.h) of runs of N events: times within one 1,024 ps slot, sequence
// numbers in order but for a third of them, taken out and put back later, as a wire's held-back
// frames are. Items are events sorted.
void BM_DueRunSort(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  Rng rng(3, 4);
  constexpr int kRuns = 256;
  std::vector<std::vector<Event>> runs(kRuns);
  for (auto& run : runs) {
    for (size_t i = 0; i < n; ++i) {
      Event e{};
      e.time = 5000000 + static_cast<Time>(rng.Below(1024));
      e.seq = 1000 + i;
      run.push_back(e);
    }
    for (size_t i = 0; i + 1 < n; ++i)
      if (rng.Below(3) == 0) std::swap(run[i], run[i + rng.Below(n - i)]);
  }
  DueRun due;
  size_t r = 0;
  for (auto _ : state) {
    due.Restart();
    for (const Event& e : runs[r++ % kRuns]) due.Append(e);
    due.Sort();
    benchmark::DoNotOptimize(due.Front());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_DueRunSort)->Arg(8)->Arg(16)->Arg(32)->Arg(64);

// Counting ranks alone, with AVX2 where the processor has it (RankKeys) and a key at a time.
template <void (*Rank)(int64_t*, size_t, uint8_t*)>
void BM_Rank(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  Rng rng(5, 6);
  std::vector<int64_t> key(RankKeysPadded(n), INT64_MAX);
  for (size_t i = 0; i < n; ++i) key[i] = static_cast<int64_t>(rng.Below(uint64_t{1} << 62)) + static_cast<int64_t>(i);
  uint8_t rank[kRankKeysMax];
  for (auto _ : state) {
    Rank(key.data(), n, rank);
    benchmark::DoNotOptimize(rank);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_Rank<RankKeys>)->Name("BM_RankKeys")->Arg(16)->Arg(32)->Arg(64);
BENCHMARK(BM_Rank<RankKeysScalar>)->Name("BM_RankKeysScalar")->Arg(16)->Arg(32)->Arg(64);

}  // namespace
}  // namespace rocelab
