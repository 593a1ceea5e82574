#include "net/qp_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "sim/rng.h"
#include "util/inline_vec.h"

namespace rocelab {
namespace {

// What the transport does to a QP, and what it tells of it, on the side a scheduler serves,
// from the QP's own fields: the scan below reads them here, not through the scheduler's Side.
template <typename Side>
struct Transport;

template <>
struct Transport<Requests> {
  static constexpr bool kComesBack = false;  // a finished QP sends no more
  static void Init(QueuePair& q, int priority) {
    q.priority = static_cast<uint8_t>(priority);
    q.num_packets = 1000;
  }
  static void Start(QueuePair& q, Time next_send) {
    q.started = true;
    q.next_send = next_send;
  }
  // An ACK opens the window or a go-back rewinds (true), or everything is sent (false).
  static void SetWork(QueuePair& q, bool more, Rng& rng) {
    q.snd_nxt = more ? static_cast<uint32_t>(rng.Below(q.num_packets)) : q.num_packets;
  }
  static void SetNextSend(QueuePair& q, Time t) { q.next_send = t; }
  static void Finish(QueuePair& q) { q.done = true; }
  static void Sent(QueuePair& q) { ++q.snd_nxt; }
  static bool HasWork(const QueuePair& q) { return q.HasDataToSend(); }
  static int Priority(const QueuePair& q) { return q.priority; }
  static Time NextSend(const QueuePair& q) { return q.next_send; }
};

template <>
struct Transport<ReadResponses> {
  static constexpr bool kComesBack = true;  // a QP with no responses owed gets a READ again
  static void Init(QueuePair& q, int priority) { q.response_priority = static_cast<uint8_t>(priority); }
  static void Start(QueuePair& q, Time next_send) {
    q.read_jobs.push_back({0, 4, 4 * 4096});
    q.response_next_send = next_send;
  }
  // A READ request arrives (true), or the responses owed are gone (false).
  static void SetWork(QueuePair& q, bool more, Rng&) {
    if (more) q.read_jobs.push_back({0, 4, 4 * 4096});
    else q.read_jobs.clear();
  }
  static void SetNextSend(QueuePair& q, Time t) { q.response_next_send = t; }
  static void Finish(QueuePair& q) { q.read_jobs.clear(); }
  static void Sent(QueuePair&) {}
  static bool HasWork(const QueuePair& q) { return !q.read_jobs.empty(); }
  static int Priority(const QueuePair& q) { return q.response_priority; }
  static Time NextSend(const QueuePair& q) { return q.response_next_send; }
};

// The scan the scheduler stands in for: every active QP from the round-robin position on,
// the first with something to send, its priority not paused and its rate limiter open.
template <typename Side>
struct ScanEveryQp {
  std::vector<QueuePair>* qps;
  std::vector<uint32_t> active;
  size_t rr = 0;

  QueuePair* Next(Time now, uint8_t paused, Time* earliest) {
    *earliest = kTimeNever;
    const size_t n = active.size();
    for (size_t i = 0; i < n; ++i) {
      const size_t idx = (rr + i) % n;
      QueuePair& q = (*qps)[active[idx]];
      using T = Transport<Side>;
      if (!T::HasWork(q) || (paused & (1u << T::Priority(q)))) continue;
      if (T::NextSend(q) > now) {
        *earliest = std::min(*earliest, T::NextSend(q));
        continue;
      }
      rr = (idx + 1) % n;
      return &q;
    }
    return nullptr;
  }
  void Remove(uint32_t id) {
    const auto it = std::find(active.begin(), active.end(), id);
    const size_t idx = static_cast<size_t>(it - active.begin());
    active.erase(it);
    if (rr > idx) --rr;
    if (rr >= active.size()) rr = 0;
  }
};

// Random activations, transport actions that give a QP something to send or leave it with
// nothing, rate changes, pauses, completions and the passing of time, with the NIC's part of
// the contract kept (Touch before the transport changes a QP): every choice, and the wake-up
// time when there is none, must be the scan's. Of every 1,000 steps, 20 start a QP (while
// there are QPs left to start; where finished QPs come back, one of those half the time) and
// `finish_per_mille` complete one. `finished` counts the QPs that finished, over all seeds.
template <typename Side>
void CompareWithScan(uint64_t finish_per_mille, size_t* finished) {
  using T = Transport<Side>;
  *finished = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::vector<QueuePair> qps(5000);
    Rng rng(seed, 0x5C4ED);
    for (uint32_t i = 0; i < qps.size(); ++i) {
      qps[i].id = i;
      T::Init(qps[i], rng.Below(4) == 0 ? 5 : 3);
    }
    QpScheduler<Side> sched(&qps);
    ScanEveryQp<Side> scan{&qps, {}, 0};
    uint32_t next_new = 0;
    std::vector<uint32_t> gone;  // finished QPs, out of the rotation
    Time now = 0;
    uint8_t paused = 0;
    size_t served = 0, idle_choices = 0;
    for (int step = 0; step < 200000; ++step) {
      const uint64_t op = rng.Below(1000);
      if (op < 20 && (next_new < qps.size() || !gone.empty())) {  // a QP becomes active
        uint32_t id = next_new;
        if (!gone.empty() && (next_new == qps.size() || rng.Below(2) == 0)) {
          const size_t i = rng.Below(gone.size());
          id = gone[i];
          gone[i] = gone.back();
          gone.pop_back();
        } else {
          ++next_new;
        }
        QueuePair& q = qps[id];
        T::Start(q, now + static_cast<Time>(rng.Below(3)) * 100);
        scan.active.push_back(q.id);
        sched.Add(q.id);
      } else if (op < 300 && !scan.active.empty()) {  // the transport acts on one
        QueuePair& q = qps[scan.active[rng.Below(scan.active.size())]];
        sched.Touch(q.id);
        switch (rng.Below(3)) {
          case 0:
            T::SetWork(q, true, rng);
            break;
          case 1:
            T::SetWork(q, false, rng);
            break;
          default:  // a CNP cuts the rate, or a timer raises it
            T::SetNextSend(q, now + static_cast<Time>(rng.Below(5)) * 100 - 100);
            break;
        }
      } else if (op < 300 + finish_per_mille && !scan.active.empty()) {  // one finishes
        QueuePair& q = qps[scan.active[rng.Below(scan.active.size())]];
        ++*finished;
        sched.Touch(q.id);
        T::Finish(q);
        scan.Remove(q.id);
        sched.Remove(q.id);
        if (T::kComesBack) gone.push_back(q.id);
      } else if (op < 350 + finish_per_mille) {  // a PFC frame pauses or resumes a priority
        paused ^= static_cast<uint8_t>(1u << (rng.Below(2) == 0 ? 3 : 5));
      } else if (op < 600 + finish_per_mille) {
        now += static_cast<Time>(rng.Below(4)) * 50;
      } else {  // the port asks for a frame
        Time want_earliest = 0, got_earliest = 0;
        QueuePair* want = scan.Next(now, paused, &want_earliest);
        QueuePair* got = sched.Next(now, paused, &got_earliest);
        ASSERT_EQ(want ? static_cast<int>(want->id) : -1, got ? static_cast<int>(got->id) : -1)
            << "seed " << seed << " step " << step;
        if (!want) {
          ASSERT_EQ(want_earliest, got_earliest) << "seed " << seed << " step " << step;
          ++idle_choices;
          continue;
        }
        ++served;
        // What sending a packet does to the QP, untold: its progress and the pacing gap.
        T::Sent(*want);
        T::SetNextSend(*want, now + static_cast<Time>(rng.Below(3)) * 100);
      }
    }
    EXPECT_GT(served, 5000u);
    EXPECT_GT(idle_choices, 500u);
  }
}

TEST(QpScheduler, ChoosesWhatAScanOfEveryQpWould) {
  size_t finished = 0;
  CompareWithScan<Requests>(5, &finished);
  EXPECT_GT(finished, 3000u);
}

// Short flows, as in a web-search mix: QPs finish nearly as fast as they start, so most of
// the rotation's slots fall vacant, and are taken back, again and again.
TEST(QpScheduler, ChoosesWhatAScanWouldWhileQpsComeAndGo) {
  size_t finished = 0;
  CompareWithScan<Requests>(19, &finished);
  EXPECT_GT(finished, 14000u);
}

// The READ responses a NIC owes: the same rotation over the fields of the responder's side,
// each QP leaving it with its last response and joining again, last, with its next READ.
TEST(QpScheduler, ChoosesTheReadResponseAScanWould) {
  size_t finished = 0;
  CompareWithScan<ReadResponses>(19, &finished);
  EXPECT_GT(finished, 14000u);
}

// A QP leaving the rotation moves no other QP: a NIC with thousands of active QPs pays for a
// completion what it pays with one.
TEST(QpScheduler, ARemovalLeavesTheOtherQpsInPlace) {
  std::vector<QueuePair> qps(1000);
  QpScheduler<Requests> sched(&qps);
  for (uint32_t i = 0; i < qps.size(); ++i) {
    qps[i].id = i;
    qps[i].started = true;
    qps[i].num_packets = 10;
    sched.Add(i);
  }
  for (uint32_t i = 0; i < 400; ++i) {
    sched.Remove(i * 2);
    for (uint32_t j = 1; j < qps.size(); j += 2) ASSERT_EQ(qps[j].sched_slot, j) << "after " << i + 1 << " removals";
  }
  // Past half vacant, the slots are taken back: the QPs left close up, in order.
  for (uint32_t i = 400; i < 500; ++i) sched.Remove(i * 2);
  EXPECT_EQ(qps[999].sched_slot, 999u);
  sched.Remove(1);
  std::vector<uint32_t> order;
  sched.ForEachActive([&](uint32_t id) { order.push_back(id); });
  ASSERT_EQ(order.size(), 499u);
  for (uint32_t k = 0; k < order.size(); ++k) {
    EXPECT_EQ(order[k], 2 * k + 3);
    EXPECT_EQ(qps[order[k]].sched_slot, k);
  }
  Time earliest = 0;
  EXPECT_EQ(sched.Next(0, 0, &earliest), &qps[3]);
  EXPECT_EQ(sched.Next(0, 0, &earliest), &qps[5]);
}

// A QP the scheduler found with nothing to send stays out of the rotation until it is
// touched; touched, it sends again.
TEST(QpScheduler, AnIdleQpComesBackWhenTouched) {
  std::vector<QueuePair> qps(2);
  for (uint32_t i = 0; i < 2; ++i) {
    qps[i].id = i;
    qps[i].started = true;
    qps[i].num_packets = 10;
  }
  QpScheduler<Requests> sched(&qps);
  sched.Add(0);
  sched.Add(1);
  qps[0].snd_nxt = 10;  // all sent
  Time earliest = 0;
  ASSERT_EQ(sched.Next(0, 0, &earliest), &qps[1]);
  qps[1].next_send = 500;  // paced
  EXPECT_EQ(sched.Next(0, 0, &earliest), nullptr);
  EXPECT_EQ(earliest, 500);
  EXPECT_EQ(sched.Next(0, 1u << 3, &earliest), nullptr) << "its priority paused";
  EXPECT_EQ(earliest, kTimeNever);
  sched.Touch(0);
  qps[0].snd_nxt = 4;  // a go-back
  EXPECT_EQ(sched.Next(0, 0, &earliest), &qps[0]);
  EXPECT_EQ(sched.Next(500, 0, &earliest), &qps[1]) << "the round robin moves on";
  sched.Remove(0);
  sched.Touch(0);  // no longer this scheduler's: ignored
  EXPECT_EQ(sched.Next(500, 0, &earliest), &qps[1]);
}

// The rotation's small vector, against std::vector through the same operations: inline, on the
// heap, copied and moved from either.
TEST(InlineVec, HoldsWhatAVectorWouldInlineAndOnTheHeap) {
  InlineVec<uint64_t, 2> v;
  std::vector<uint64_t> want;
  Rng rng(7, 0x1F);
  for (int step = 0; step < 2000; ++step) {
    const uint64_t op = rng.Below(10);
    if (op < 6) {
      v.push_back(step);
      want.push_back(static_cast<uint64_t>(step));
    } else if (op < 8 && !want.empty()) {
      v.pop_back();
      want.pop_back();
    } else {
      const uint32_t n = static_cast<uint32_t>(rng.Below(want.size() + 3));
      v.resize(n, 99);
      want.resize(n, 99);
    }
    ASSERT_EQ(v.size(), want.size());
    ASSERT_TRUE(std::equal(v.begin(), v.end(), want.begin()));
    if (step % 97 == 0) {
      InlineVec<uint64_t, 2> copy(v);
      InlineVec<uint64_t, 2> moved(std::move(copy));
      EXPECT_TRUE(copy.empty()) << "moved from";
      ASSERT_TRUE(std::equal(moved.begin(), moved.end(), want.begin(), want.end()));
      copy = moved;
      v = std::move(moved);
      ASSERT_TRUE(std::equal(copy.begin(), copy.end(), want.begin(), want.end()));
      ASSERT_TRUE(std::equal(v.begin(), v.end(), want.begin(), want.end()));
    }
  }
  InlineVec<uint32_t, 2> small;
  small.push_back(1);
  small.push_back(2);
  EXPECT_EQ(small.HeapBytes(), 0u) << "two fit inside";
  small.push_back(3);
  EXPECT_GT(small.HeapBytes(), 0u);
  EXPECT_EQ(small.back(), 3u);
  EXPECT_EQ(small.front(), 1u);
}

}  // namespace
}  // namespace rocelab
