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

// A radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, 1990). A simulation never schedules before
// its clock, so the queue can sort lazily. Events wait unsorted in buckets by the highest bit
// in which their time differs from `last_`, the time of the earliest event: a push appends to
// a bucket. When the events due at `last_` are gone, the lowest bucket that holds any is
// emptied: its earliest time becomes `last_`, and its events move down into lower buckets, or
// into `due_`, a small heap that orders the events at `last_` by insertion. An event moves
// down a few times at most, and pushes and moves append to blocks in sequence: on a large
// fabric this stays in cache where a binary heap of thousands of events, each push and pop
// walking its levels, did not. The order is a heap's exactly: by time, then insertion. An
// event for a time before `last_` (a peek can move `last_` past the clock) goes into `due_`,
// which compares times too. A bucket is a chain of fixed blocks shared through a free list:
// in turn most events pass through most buckets, and a vector per bucket would keep each
// bucket's own peak (15 times the peak number of events, measured on a k=24 fat-tree).
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
    Append(BucketOf(time), e);
  }

  bool Empty() const { return size_ == 0; }
  size_t Size() const { return size_; }
  size_t CapacityBytes() const {
    return due_.capacity() * sizeof(Event) + blocks_.size() * sizeof(Block);
  }
  Time TopTime() {
    Refill();
    return due_.front().time;
  }

  Event Pop() {
    Refill();
    --size_;
    if (due_.size() > 1) std::pop_heap(due_.begin(), due_.end(), After());
    const Event e = due_.back();
    due_.pop_back();
    return e;
  }

 private:
  struct After {
    bool operator()(const Event& a, const Event& b) const {
      return a.time > b.time || (a.time == b.time && a.seq > b.seq);
    }
  };
  // For a time after last_: the highest bit in which the two differ.
  int BucketOf(Time time) const {
    return 63 - __builtin_clzll(static_cast<uint64_t>(time) ^ static_cast<uint64_t>(last_));
  }
  void PushDue(const Event& e) {
    due_.push_back(e);
    std::push_heap(due_.begin(), due_.end(), After());
  }

  static constexpr uint32_t kBlockEvents = 64;
  struct Block {
    Event events[kBlockEvents];
    uint32_t count = 0;
    Block* next = nullptr;
  };
  struct Bucket {
    Block* head = nullptr;
    Block* tail = nullptr;
  };

  void Append(int b, const Event& e) {
    Bucket& k = buckets_[b];
    if (!k.tail || k.tail->count == kBlockEvents) {
      Block* block = NewBlock();
      (k.tail ? k.tail->next : k.head) = block;
      k.tail = block;
    }
    k.tail->events[k.tail->count++] = e;
    nonempty_ |= uint64_t{1} << b;
  }
  Block* NewBlock() {
    if (!free_) {
      blocks_.push_back(std::make_unique<Block>());
      return blocks_.back().get();
    }
    Block* b = free_;
    free_ = b->next;
    b->count = 0;
    b->next = nullptr;
    return b;
  }

  // When no event is due at last_, brings in the next earliest (the queue must not be empty).
  void Refill() {
    if (!due_.empty()) return;
    const int b = __builtin_ctzll(nonempty_);
    nonempty_ &= nonempty_ - 1;
    const Bucket from = buckets_[b];
    buckets_[b] = Bucket{};
    Time earliest = kTimeNever;
    for (const Block* k = from.head; k; k = k->next)
      for (uint32_t i = 0; i < k->count; ++i) earliest = std::min(earliest, k->events[i].time);
    last_ = earliest;
    for (Block* k = from.head; k;) {
      for (uint32_t i = 0; i < k->count; ++i) {
        const Event& e = k->events[i];
        if (e.time == last_) PushDue(e);
        else Append(BucketOf(e.time), e);  // below `b`: the bits above it are last_'s
      }
      Block* next = k->next;
      k->next = free_;  // emptied: the buckets below may take it
      free_ = k;
      k = next;
    }
  }

  std::vector<Event> due_;  // a min-heap by (time, seq): the events at or before last_
  Bucket buckets_[64];
  uint64_t nonempty_ = 0;  // bit b: buckets_[b] holds events
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
