#include "sim/event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "sim/due_run.h"
#include "sim/rank_keys.h"
#include "sim/rng.h"
#include "sim/timer.h"
#include "sim/wire.h"
#include "telemetry/sampler.h"

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

// Each test of the order runs with the loop looking ahead and without: looking ahead, the queue
// sorts the next slot into the due run before the run is empty (EventQueue::TopUp).
class EventQueueOrder : public ::testing::TestWithParam<bool> {};
INSTANTIATE_TEST_SUITE_P(Lookahead, EventQueueOrder, ::testing::Bool());

TEST_P(EventQueueOrder, RandomScheduleComesOutSorted) {
  Simulator sim;
  sim.SetLookahead(GetParam());
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

// Handlers that schedule none, one or several events, some at the very time they run, come out
// in the order of a sorted list of everything scheduled.
struct Spawner : EventSource {
  Simulator* sim = nullptr;
  Rng rng{11, 3};
  uint32_t next = 0, budget = 0;
  int max_shift = 0;  // delays up to 5000 << this
  Time (*delay)(Rng&) = nullptr;  // set: the delays instead
  std::vector<std::tuple<Time, uint32_t>> seen, scheduled;
  void Add(Time at) {
    scheduled.push_back({at, next});
    sim->Schedule(at, this, 0, next++);
  }
  void HandleEvent(uint32_t, uint32_t arg, Packet*) override {
    seen.push_back({sim->Now(), arg});
    const uint64_t n = rng.Below(4);  // 0, 1 (most often), 2 or 3 more
    for (uint64_t k = 0; k < (n == 3 ? 1 : n) && budget > 0; ++k, --budget)
      Add(sim->Now() + (delay                ? delay(rng)
                        : rng.Below(3) == 0 ? 0
                                            : static_cast<Time>(rng.Below(5000)) << rng.Below(max_shift + 1)));
  }
};

TEST_P(EventQueueOrder, PopsAndPushesInAnyMixComeOutInOrder) {
  Simulator sim;
  sim.SetLookahead(GetParam());
  Spawner s;
  s.sim = &sim;
  s.budget = 200000;
  for (int i = 0; i < 1000; ++i) s.Add(static_cast<Time>(s.rng.Below(5000)));
  sim.RunUntil(kTimeNever);
  std::vector<std::tuple<Time, uint32_t>> expected = s.scheduled;
  std::sort(expected.begin(), expected.end());  // by time, then by the order scheduled
  ASSERT_EQ(s.seen.size(), expected.size());
  EXPECT_TRUE(s.seen == expected);
  EXPECT_EQ(sim.PendingEvents(), 0u);
}

// Delays from picoseconds to minutes, and a run in slices: between slices, events are scheduled
// for times before the next pending one, which the queue has already looked at.
TEST_P(EventQueueOrder, TimesOfEveryScaleAndEventsBeforeAPeekComeOutInOrder) {
  Simulator sim;
  sim.SetLookahead(GetParam());
  Spawner s;
  s.sim = &sim;
  s.budget = 200000;
  s.max_shift = 36;
  for (int i = 0; i < 1000; ++i) s.Add(static_cast<Time>(s.rng.Below(5000)) << s.rng.Below(37));
  Time until = 0;
  while (sim.PendingEvents() > 0) {
    until += static_cast<Time>(s.rng.Below(5000)) << s.rng.Below(30);
    sim.RunUntil(until);
    for (uint64_t k = s.rng.Below(3); k > 0; --k) s.Add(sim.Now() + static_cast<Time>(s.rng.Below(100)));
  }
  std::vector<std::tuple<Time, uint32_t>> expected = s.scheduled;
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(s.seen.size(), expected.size());
  EXPECT_TRUE(s.seen == expected);
}

// Delays at the edges of the calendar's slots and of its horizon, once and twice over, and now and
// then a quiet spell after which the calendar starts again at the radix heap's earliest event.
TEST_P(EventQueueOrder, EventsAtTheCalendarsEdgesComeOutInOrder) {
  Simulator sim;
  sim.SetLookahead(GetParam());
  Spawner s;
  s.sim = &sim;
  s.budget = 300000;
  s.delay = [](Rng& rng) -> Time {
    constexpr Time kSlot = Time{1} << EventQueue::kSlotBits;
    const Time jitter = static_cast<Time>(rng.Below(5)) - 2;
    switch (rng.Below(8)) {
      case 0: return 0;
      case 1: return static_cast<Time>(1 + rng.Below(4)) * kSlot + jitter;
      case 2: return static_cast<Time>(rng.Below(3000));
      case 3: return EventQueue::kHorizon + jitter - kSlot * static_cast<Time>(rng.Below(2));
      case 4: return 2 * EventQueue::kHorizon + jitter;
      case 5: return static_cast<Time>(rng.Below(static_cast<uint64_t>(3 * EventQueue::kHorizon)));
      case 6: return rng.Below(50) == 0 ? 1000 * EventQueue::kHorizon + jitter : 1;
      default: return static_cast<Time>(rng.Below(100000));
    }
  };
  for (int i = 0; i < 1000; ++i) s.Add(static_cast<Time>(s.rng.Below(5000)));
  sim.RunUntil(kTimeNever);
  std::vector<std::tuple<Time, uint32_t>> expected = s.scheduled;
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(s.seen.size(), expected.size());
  EXPECT_TRUE(s.seen == expected);
  EXPECT_EQ(sim.PendingEvents(), 0u);
}

// Runs of every size a refill makes, by rank and by std::sort: times all equal, within a
// calendar slot, or wide apart; sequence numbers close, shuffled, or far apart (a timer's from
// long ago beside a fresh one). Each comes out as a sort by (time, seq) puts it.
TEST(DueRun, SortsEveryRunByTimeThenInsertion) {
  Rng rng(7, 1);
  DueRun run;
  for (int spread = 0; spread < 4; ++spread) {
    for (size_t n = 0; n <= kRankKeysMax + 6; ++n) {
      for (int trial = 0; trial < 50; ++trial) {
        const uint64_t first_seq = rng.Below(1000000);
        std::vector<Event> events;
        for (size_t i = 0; i < n; ++i) {
          Event e{};
          e.time = 5000000;
          if (spread == 1) e.time += static_cast<Time>(rng.Below(1024));
          if (spread >= 2) e.time += static_cast<Time>(rng.Below(3)) * 1000;
          if (spread == 3 && i % 7 == 3) e.time += Time{1} << 20;  // keys would not fit
          e.seq = first_seq + i;
          if (spread == 2 && i % 5 == 1) e.seq += uint64_t{1} << 50;
          e.arg = static_cast<uint32_t>(i);
          events.push_back(e);
        }
        // Mostly in order of sequence, with some taken out and put back later.
        for (size_t i = 0; i + 1 < n; ++i)
          if (rng.Below(3) == 0) std::swap(events[i], events[i + rng.Below(n - i)]);
        run.Restart();
        for (const Event& e : events) run.Append(e);
        run.Sort();
        std::vector<Event> expected = events;
        std::sort(expected.begin(), expected.end(), Before);
        ASSERT_EQ(run.Size(), n);
        for (size_t i = 0; i < n; ++i) {
          const Event e = run.PopFront();
          ASSERT_EQ(e.time, expected[i].time) << "spread " << spread << ", " << n << " events, at " << i;
          ASSERT_EQ(e.seq, expected[i].seq) << "spread " << spread << ", " << n << " events, at " << i;
          ASSERT_EQ(e.arg, expected[i].arg);
        }
        ASSERT_TRUE(run.Empty());
      }
    }
  }
}

// Both ways of counting, against the places std::sort gives: every count the event queue uses,
// keys anywhere in the signed range, close together or wide apart.
TEST(RankKeys, CountsTheKeysBelowEach) {
  Rng rng(11, 2);
  for (size_t n = 1; n <= kRankKeysMax; ++n) {
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<int64_t> key(RankKeysPadded(n), INT64_MAX);
      const uint64_t spread = trial % 2 ? 4 * n : ~uint64_t{0} >> 1;
      const int64_t base = trial % 3 ? INT64_MIN + static_cast<int64_t>(n) : -static_cast<int64_t>(spread / 2);
      for (size_t i = 0; i < n; ++i) {
        int64_t k;
        do k = base + static_cast<int64_t>(rng.Below(spread));
        while (std::find(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(i), k) != key.begin() + static_cast<std::ptrdiff_t>(i) || k == INT64_MAX);
        key[i] = k;
      }
      std::vector<int64_t> sorted(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(n));
      std::sort(sorted.begin(), sorted.end());
      uint8_t rank[kRankKeysMax], scalar[kRankKeysMax];
      RankKeys(key.data(), n, rank);
      RankKeysScalar(key.data(), n, scalar);
      for (size_t i = 0; i < n; ++i) {
        const auto place = std::lower_bound(sorted.begin(), sorted.end(), key[i]) - sorted.begin();
        ASSERT_EQ(rank[i], place) << n << " keys, key " << i;
        ASSERT_EQ(scalar[i], place) << n << " keys, key " << i;
      }
    }
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

// Frames held on a wire come out in exactly the order they would if each were queued on its
// own: by time, ties by the order they were sent, interleaved with other events, including
// frames that overtake the ones ahead and wires that empty and refill.
struct WireReceiver : EventSource {
  Simulator* sim = nullptr;
  std::vector<std::pair<Time, uintptr_t>> seen;
  void HandleEvent(uint32_t kind, uint32_t arg, Packet* p) override {
    seen.push_back({sim->Now(), reinterpret_cast<uintptr_t>(p) * 64 + kind * 8 + arg});
  }
};

struct WireSender : EventSource {
  Simulator* sim = nullptr;
  WireReceiver* rx = nullptr;
  std::vector<Wire>* wires = nullptr;  // null: every frame queued as its own event
  std::vector<Packet>* frames = nullptr;  // one per frame sent (a wire chains them)
  Rng rng{7, 9};
  int left = 20000;
  void HandleEvent(uint32_t, uint32_t, Packet*) override {
    if (--left <= 0) return;
    const uint32_t w = static_cast<uint32_t>(rng.Below(3));
    const Time at = sim->Now() + 50 + static_cast<Time>(rng.Below(rng.Below(8) == 0 ? 40 : 4));
    Packet* frame = &(*frames)[static_cast<size_t>(left)];
    if (wires) (*wires)[w].Send(at, frame);
    else sim->Schedule(at, rx, 1, w, frame);
    sim->ScheduleIn(static_cast<Time>(rng.Below(3)), this, 0);  // ties with arrivals
    if (rng.Below(4) == 0) sim->ScheduleIn(static_cast<Time>(rng.Below(60)), this, 0);
  }
};

TEST(Wire, KeepsTheOrderOfIndividuallyQueuedEvents) {
  std::vector<Packet> frames(20000);
  auto run = [&frames](bool on_wires) {
    Simulator sim;
    WireReceiver rx;
    rx.sim = &sim;
    std::vector<Wire> wires(3);
    for (uint32_t i = 0; i < wires.size(); ++i) wires[i].Connect(&sim, &rx, 1, i);
    WireSender tx;
    tx.sim = &sim;
    tx.rx = &rx;
    tx.wires = on_wires ? &wires : nullptr;
    tx.frames = &frames;
    sim.Schedule(0, &tx, 0);
    sim.RunUntil(kTimeNever);
    return std::make_pair(rx.seen, sim.EventsProcessed());
  };
  const auto held = run(true), alone = run(false);
  ASSERT_GT(held.first.size(), 10000u);
  EXPECT_EQ(held.first, alone.first);
  EXPECT_EQ(held.second, alone.second);
}

// A wire keeps its receiver's event kind and hot lines in 16 bits each: wider ones are refused
// when it is connected, not cut short.
struct WideReceiver : EventSource {
  uint32_t lines = 1;
  void HandleEvent(uint32_t, uint32_t, Packet*) override {}
  uint32_t HotLines() const override { return lines; }
};

TEST(Wire, RefusesAKindOrHotLinesPastSixteenBits) {
  Simulator sim;
  WideReceiver rx;
  Wire wire;
  EXPECT_NO_THROW(wire.Connect(&sim, &rx, 0xFFFF, 0));
  EXPECT_THROW(wire.Connect(&sim, &rx, 0x10000, 0), std::logic_error);
  rx.lines = 0xFFFF;
  EXPECT_NO_THROW(wire.Connect(&sim, &rx, 1, 0));
  rx.lines = 0x10000;
  EXPECT_THROW(wire.Connect(&sim, &rx, 1, 0), std::logic_error);
}

// A timer moved at random, later and earlier, fires at the same times and in the same order
// among other events as the plain way: an event queued for every setting, the handler acting
// on the first one that finds the deadline come.
struct TimerOwner : EventSource {
  Simulator* sim = nullptr;
  bool coalesced = false;
  Timer timer;
  Time deadline = kTimeNever;  // the plain way's deadline
  Rng rng{3, 4};
  int left = 30000;
  std::vector<std::pair<Time, int>> log;  // (time, what): 0 fired, 1 other event
  void Move(Time at) {
    if (coalesced) timer.Set(sim, at, this, 1, 0);
    else sim->Schedule(at, this, 1, 0);
    deadline = at;
  }
  void HandleEvent(uint32_t kind, uint32_t, Packet*) override {
    if (kind == 1) {
      if (coalesced ? !timer.Fire(sim, this, 1, 0) : deadline != sim->Now()) return;
      deadline = kTimeNever;
      log.push_back({sim->Now(), 0});
      return;
    }
    log.push_back({sim->Now(), 1});
    if (--left <= 0) return;
    const uint64_t what = rng.Below(10);
    if (what < 6) Move(sim->Now() + 1 + static_cast<Time>(rng.Below(200)));  // mostly later
    else if (what < 7) Move(sim->Now() + static_cast<Time>(rng.Below(5)));    // sooner, even now
    else if (what < 8) {
      if (coalesced) timer.Cancel();
      deadline = kTimeNever;
    }
    sim->ScheduleIn(static_cast<Time>(rng.Below(20)), this, 0);
  }
};

TEST(PacketFifo, FirstInFirstOutWithItsDepth) {
  // The queues of a switch (a PacketFifo) and a port's PFC frames (a PacketChain) both thread
  // packets through Packet::next; a mix of pushes and pops comes out in push order.
  Packet packets[100];
  PacketFifo fifo;
  PacketChain chain;
  Rng rng(7, 1);
  std::vector<Packet*> expected;
  size_t next = 0, popped = 0;
  uint64_t bytes = 0;
  while (popped < 100) {
    if (next < 100 && (fifo.empty() || rng.Uniform() < 0.6)) {
      Packet* p = &packets[next++];
      p->frame_bytes = static_cast<uint16_t>(64 + next * 10);
      bytes += p->frame_bytes;
      expected.push_back(p);
      fifo.push(p);
      ASSERT_EQ(fifo.front(), expected[popped]);
      continue;
    }
    Packet* p = fifo.pop();
    ASSERT_EQ(p, expected[popped]) << "pop " << popped;
    bytes -= p->frame_bytes;
    ++popped;
    EXPECT_EQ(fifo.bytes(), bytes);
    EXPECT_EQ(fifo.size(), next - popped);
    chain.push(p);  // the popped packets, chained again in the same order
  }
  EXPECT_TRUE(fifo.empty());
  for (Packet* p : expected) {
    ASSERT_FALSE(chain.empty());
    EXPECT_EQ(chain.pop(), p);
  }
  EXPECT_TRUE(chain.empty());
}

TEST(Timer, FiresWhereAnEventPerSettingWould) {
  auto run = [](bool coalesced) {
    Simulator sim;
    TimerOwner t;
    t.sim = &sim;
    t.coalesced = coalesced;
    sim.Schedule(0, &t, 0);
    sim.RunUntil(kTimeNever);
    return std::make_pair(t.log, sim.EventsProcessed());
  };
  const auto plain = run(false), coalesced = run(true);
  int fired = 0;
  for (const auto& e : plain.first) fired += e.second == 0;
  ASSERT_GT(fired, 1000);
  EXPECT_EQ(plain.first, coalesced.first);
  EXPECT_LT(coalesced.second, plain.second);  // fewer events for the same story
}

// One sampler serves every periodic reader: readers every 10 and every 25 are called at their
// times, in registration order where they coincide, with one event per distinct time.
TEST(Sampler, OneEventServesEveryReaderDueThen) {
  Simulator sim;
  Sampler sampler(&sim);
  std::vector<std::pair<Time, char>> calls;
  sampler.Every(10, [&] { calls.push_back({sim.Now(), 'a'}); });
  sampler.Every(25, [&] { calls.push_back({sim.Now(), 'b'}); });
  sim.RunUntil(100);
  const std::vector<std::pair<Time, char>> want = {{10, 'a'}, {20, 'a'}, {25, 'b'}, {30, 'a'}, {40, 'a'},
                                                   {50, 'a'}, {50, 'b'}, {60, 'a'}, {70, 'a'}, {75, 'b'},
                                                   {80, 'a'}, {90, 'a'}, {100, 'a'}, {100, 'b'}};
  EXPECT_EQ(calls, want);
  EXPECT_EQ(sim.EventsProcessed(), 12u);  // 14 calls at 12 distinct times
  // A reader registered later, due before the queued event, is served on time; the overtaken
  // event does nothing.
  calls.clear();
  sampler.Every(3, [&] { calls.push_back({sim.Now(), 'c'}); });
  sim.RunUntil(110);
  const std::vector<std::pair<Time, char>> later = {{103, 'c'}, {106, 'c'}, {109, 'c'}, {110, 'a'}};
  EXPECT_EQ(calls, later);
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
