// The event loop's own cost: a steady state of N pending events, each popped
// event scheduling one more at a random later time (the "hold" model).
#include <benchmark/benchmark.h>

#include "sim/event_queue.h"
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

}  // namespace
}  // namespace rocelab
