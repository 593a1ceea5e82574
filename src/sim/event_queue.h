// The event queue: a radix heap of small plain structs. An event names its
// target (an EventSource), a kind the target interprets, one integer argument
// and optionally a packet. Ties in time break by insertion order, which makes
// every run with the same inputs replay identically. Frames in flight wait
// beside the queue, on their wire (sim/wire.h), so it holds few events.
#ifndef ROCELAB_SIM_EVENT_QUEUE_H_
#define ROCELAB_SIM_EVENT_QUEUE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/time.h"

namespace rocelab {

struct Packet;

// Anything that receives events: switches, NICs, workload drivers.
class EventSource {
 public:
  virtual ~EventSource() = default;
  virtual void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) = 0;
};

struct Event {
  Time time;
  uint64_t seq;
  EventSource* target;
  Packet* pkt;
  uint32_t kind;
  uint32_t arg;
};

// A radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, 1990) with 64-way digits. A simulation never
// schedules before its clock, so the queue can sort lazily. Events wait unsorted in buckets: an
// event's level is the highest 6-bit digit in which its time differs from `last_`, the time of the
// earliest event, and its bucket there is its own value of that digit. A push appends. When the
// events due at `last_` are gone, the first bucket of the lowest level that holds any is emptied:
// its earliest event becomes `last_` and comes due, and the others move down to lower levels. An
// event moves at most once per level and once more as it comes due (four times for a frame's
// arrival a microsecond ahead, 2^20 ps, which starts on level 3; with one-bit digits it could move
// once per bit, twenty times), and pushes and moves append to blocks in sequence: on a large fabric
// this stays in cache where a binary heap of thousands of events, each push and pop walking its
// levels, did not. The due events are a run sorted by (time, insertion), so the order is a heap's
// exactly. A refill and a handler's pushes for the same time append to the run in insertion order;
// a frame a wire held back (an older sequence number) and an event for a time before `last_` (a
// peek, and the prefetch of the next event, move `last_` past the clock) take their place inside
// it. A bucket is a chain of fixed blocks shared through a free list: most buckets hold a few
// events at a time, and a vector per bucket would keep each bucket's own peak (15 times the peak
// number of events, measured on a k=24 fat-tree).
class EventQueue {
 public:
  void Push(Time time, EventSource* target, uint32_t kind, uint32_t arg, Packet* pkt) {
    PushInOrder(time, next_seq_++, target, kind, arg, pkt);
  }
  // The sequence number the next Push would take; taking it keeps an event's place in the
  // tie-break for when it is pushed later (Wire holds frames back this way).
  uint64_t TakeSequence() { return next_seq_++; }
  void PushInOrder(Time time, uint64_t seq, EventSource* target, uint32_t kind, uint32_t arg, Packet* pkt) {
    ++size_;
    const Event e{time, seq, target, pkt, kind, arg};
    if (time <= last_) {
      PushDue(e);
      return;
    }
    Place(e);
  }

  bool Empty() const { return size_ == 0; }
  size_t Size() const { return size_; }
  size_t CapacityBytes() const {
    return due_.capacity() * sizeof(Event) + blocks_.size() * sizeof(Block);
  }
  Time TopTime() {
    Refill();
    return due_[due_head_].time;
  }

  // Brings the event that is next for now into cache, while the one just popped runs.
  void PrefetchNext() {
    if (size_ == 0) return;
    Refill();
    const Event& n = due_[due_head_];
    __builtin_prefetch(n.target);
    if (n.pkt) __builtin_prefetch(n.pkt);
  }

  Event Pop() {
    Refill();
    --size_;
    return due_[due_head_++];
  }

 private:
  static constexpr int kDigitBits = 6;
  static constexpr int kDigits = 1 << kDigitBits;  // buckets per level
  static constexpr int kLevels = (64 + kDigitBits - 1) / kDigitBits;

  static bool Before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.seq < b.seq);
  }
  bool DueEmpty() const { return due_head_ == due_.size(); }
  // Events come due in order but for a frame a wire held back (an older sequence number) and
  // an event before last_: those take their place in the run.
  void PushDue(const Event& e) {
    if (DueEmpty()) {
      due_.clear();
      due_head_ = 0;
    } else if (Before(e, due_.back())) {
      due_.insert(std::upper_bound(due_.begin() + static_cast<std::ptrdiff_t>(due_head_), due_.end(), e, Before), e);
      return;
    }
    due_.push_back(e);
  }

  static constexpr uint32_t kBlockEvents = 16;
  struct Block {
    Block* next = nullptr;
    Event events[kBlockEvents];
  };
  // Every block of a bucket is full but its last, whose count the bucket keeps.
  struct Bucket {
    Block* head = nullptr;
    Block* tail = nullptr;
    uint32_t tail_count = 0;
  };

  // An event after last_: into the bucket of the highest digit in which the two differ.
  void Place(const Event& e) {
    const uint64_t t = static_cast<uint64_t>(e.time);
    const int level = (63 - __builtin_clzll(t ^ static_cast<uint64_t>(last_))) / kDigitBits;
    const int digit = static_cast<int>((t >> (level * kDigitBits)) & (kDigits - 1));
    Bucket& k = buckets_[level][digit];
    if (!k.tail || k.tail_count == kBlockEvents) {
      Block* block = NewBlock();
      (k.tail ? k.tail->next : k.head) = block;
      k.tail = block;
      k.tail_count = 0;
    }
    k.tail->events[k.tail_count++] = e;
    occupied_[level] |= uint64_t{1} << digit;
    levels_ |= 1u << level;
  }
  Block* NewBlock() {
    if (!free_) {
      blocks_.push_back(std::make_unique<Block>());
      return blocks_.back().get();
    }
    Block* b = free_;
    free_ = b->next;
    b->next = nullptr;
    return b;
  }

  static uint32_t Count(const Bucket& bucket, const Block* block) {
    return block == bucket.tail ? bucket.tail_count : kBlockEvents;
  }

  // When no event is due at last_, empties the earliest bucket (the queue must not be empty).
  void Refill() {
    if (!DueEmpty()) return;
    const int level = __builtin_ctz(levels_);
    const int digit = __builtin_ctzll(occupied_[level]);
    occupied_[level] &= occupied_[level] - 1;
    if (!occupied_[level]) levels_ &= ~(1u << level);
    const Bucket from = buckets_[level][digit];
    buckets_[level][digit] = Bucket{};
    // The bucket's earliest event becomes last_ and comes due. The others share the digits
    // from `level` up with it, so each moves down at least a level.
    Time earliest = kTimeNever;
    for (const Block* k = from.head; k; k = k->next)
      for (uint32_t i = 0, n = Count(from, k); i < n; ++i) earliest = std::min(earliest, k->events[i].time);
    last_ = earliest;
    for (Block* k = from.head; k;) {
      for (uint32_t i = 0, n = Count(from, k); i < n; ++i) {
        const Event& e = k->events[i];
        if (e.time == last_) PushDue(e);
        else Place(e);
      }
      Block* next = k->next;
      k->next = free_;  // emptied: the buckets below may take it
      free_ = k;
      k = next;
    }
  }

  std::vector<Event> due_;  // from due_head_ on, by (time, seq): the events at or before last_
  size_t due_head_ = 0;
  Bucket buckets_[kLevels][kDigits];
  uint64_t occupied_[kLevels] = {};  // bit d of level l: buckets_[l][d] holds events
  uint32_t levels_ = 0;              // bit l: occupied_[l] is not 0
  Block* free_ = nullptr;
  std::vector<std::unique_ptr<Block>> blocks_;  // every block, in use or free
  Time last_ = 0;
  size_t size_ = 0;
  uint64_t next_seq_ = 0;
};

// Told now and then how far a run has come (a progress line on a terminal).
class ProgressListener {
 public:
  virtual ~ProgressListener() = default;
  virtual void OnProgress(Time now, uint64_t events) = 0;
};

// The clock and the queue together: the one loop every component shares.
class Simulator {
 public:
  // Every kProgressEvents events the listener hears of it; it must not touch the simulation.
  static constexpr uint64_t kProgressEvents = 1u << 16;
  void SetProgressListener(ProgressListener* listener) { progress_ = listener; }

  Time Now() const { return now_; }

  void Schedule(Time at, EventSource* target, uint32_t kind, uint32_t arg = 0, Packet* pkt = nullptr) {
    queue_.Push(at, target, kind, arg, pkt);
  }
  void ScheduleIn(Time delay, EventSource* target, uint32_t kind, uint32_t arg = 0,
                  Packet* pkt = nullptr) {
    queue_.Push(now_ + delay, target, kind, arg, pkt);
  }
  // An event scheduled earlier in logical order (`seq` from TakeSequence) but queued only now.
  uint64_t TakeSequence() { return queue_.TakeSequence(); }
  void ScheduleInOrder(Time at, uint64_t seq, EventSource* target, uint32_t kind, uint32_t arg, Packet* pkt) {
    queue_.PushInOrder(at, seq, target, kind, arg, pkt);
  }

  // Runs events with time <= until, or until Stop() is called.
  void RunUntil(Time until) {
    stopped_ = false;
    while (!stopped_ && !queue_.Empty() && queue_.TopTime() <= until) {
      Event e = queue_.Pop();
      now_ = e.time;
      ++events_;
      queue_.PrefetchNext();
      e.target->HandleEvent(e.kind, e.arg, e.pkt);
      if (progress_ && events_ % kProgressEvents == 0) progress_->OnProgress(now_, events_);
    }
    if (!stopped_ && now_ < until && until != kTimeNever) now_ = until;
  }

  void Stop() { stopped_ = true; }
  bool Stopped() const { return stopped_; }
  uint64_t EventsProcessed() const { return events_; }
  size_t PendingEvents() const { return queue_.Size(); }
  size_t QueueBytes() const { return queue_.CapacityBytes(); }

 private:
  EventQueue queue_;
  Time now_ = 0;
  uint64_t events_ = 0;
  bool stopped_ = false;
  ProgressListener* progress_ = nullptr;
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_EVENT_QUEUE_H_
