#include "sim/event_queue.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/rng.h"

namespace rocelab {

struct Recorder : EventSource {
  std::vector<std::pair<Time, uint32_t>> seen;
  Simulator* sim = nullptr;
  void HandleEvent(uint32_t kind, uint32_t arg, Packet*) override { seen.push_back({sim->Now(), kind * 1000 + arg}); }
};

TEST(EventQueue, OrdersByTimeThenInsertion) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.Schedule(30, &r, 1, 0);
  sim.Schedule(10, &r, 2, 0);
  sim.Schedule(10, &r, 3, 0);
  sim.Schedule(20, &r, 4, 0);
  sim.Schedule(10, &r, 5, 0);
  sim.RunUntil(kTimeNever);
  ASSERT_EQ(r.seen.size(), 5u);
  EXPECT_EQ(r.seen[0].second, 2000u);
  EXPECT_EQ(r.seen[1].second, 3000u);
  EXPECT_EQ(r.seen[2].second, 5000u);
  EXPECT_EQ(r.seen[3].second, 4000u);
  EXPECT_EQ(r.seen[4].second, 1000u);
}

TEST(EventQueue, RandomScheduleComesOutSorted) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  Rng rng(42, 0);
  for (uint32_t i = 0; i < 20000; ++i) sim.Schedule(static_cast<Time>(rng.Below(1000)), &r, 0, i);
  sim.RunUntil(kTimeNever);
  ASSERT_EQ(r.seen.size(), 20000u);
  for (size_t i = 1; i < r.seen.size(); ++i) {
    ASSERT_LE(r.seen[i - 1].first, r.seen[i].first);
    if (r.seen[i - 1].first == r.seen[i].first) { ASSERT_LT(r.seen[i - 1].second, r.seen[i].second); }
  }
}

TEST(EventQueue, RunUntilStopsAtTheLimit) {
  Simulator sim;
  Recorder r;
  r.sim = &sim;
  sim.Schedule(5, &r, 0, 0);
  sim.Schedule(50, &r, 0, 1);
  sim.RunUntil(10);
  EXPECT_EQ(r.seen.size(), 1u);
  EXPECT_EQ(sim.Now(), 10);
  sim.RunUntil(100);
  EXPECT_EQ(r.seen.size(), 2u);
}

TEST(Rng, StreamsAreIndependentAndRepeatable) {
  Rng a(7, 1), b(7, 1), c(7, 2);
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    EXPECT_NE(x, c.Next());
  }
  Rng u(1, 0);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += u.Uniform();
  EXPECT_NEAR(sum / 100000, 0.5, 0.01);
}

}  // namespace rocelab
