// The event queue: a binary min-heap of small plain structs. An event names its
// target (an EventSource), a kind the target interprets, one integer argument
// and optionally a packet. Ties in time break by insertion order, which makes
// every run with the same inputs replay identically. Frames in flight wait
// beside the heap, on their wire (sim/wire.h), so it holds few events.
#ifndef ROCELAB_SIM_EVENT_QUEUE_H_
#define ROCELAB_SIM_EVENT_QUEUE_H_

#include <cstddef>
#include <cstdint>
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

// Most events schedule one more as they are handled (a frame that arrives sends the next one
// on). So Pop leaves the root of the heap empty, and the first Push after it goes there and
// sinks to its place: one walk down the heap instead of a walk down for the pop and one up
// for the push. When nothing is pushed, the hole is filled as a pop would (Settle). The order
// is the heap's all the same: by time, then insertion.
class EventQueue {
 public:
  void Push(Time time, EventSource* target, uint32_t kind, uint32_t arg, Packet* pkt) {
    PushInOrder(time, next_seq_++, target, kind, arg, pkt);
  }
  // The sequence number the next Push would take; taking it keeps an event's place in the
  // tie-break for when it is pushed later (Wire holds frames back this way).
  uint64_t TakeSequence() { return next_seq_++; }
  void PushInOrder(Time time, uint64_t seq, EventSource* target, uint32_t kind, uint32_t arg, Packet* pkt) {
    const Event e{time, seq, target, pkt, kind, arg};
    if (hole_) {
      hole_ = false;
      SiftDown(e);
      return;
    }
    heap_.push_back(e);
    SiftUp(heap_.size() - 1);
  }

  bool Empty() const { return heap_.size() == (hole_ ? 1u : 0u); }
  size_t Size() const { return heap_.size() - (hole_ ? 1 : 0); }
  size_t CapacityBytes() const { return heap_.capacity() * sizeof(Event); }
  Time TopTime() {
    Settle();
    return heap_.front().time;
  }

  Event Pop() {
    Settle();
    hole_ = true;
    return heap_.front();
  }

 private:
  static bool Before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.seq < b.seq);
  }

  void SiftUp(size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      size_t parent = (i - 1) / 2;
      if (!Before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  // Puts `e` in the hole at the root and sinks it below every smaller child.
  void SiftDown(const Event& e) {
    const size_t n = heap_.size();
    size_t i = 0;
    for (;;) {
      size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && Before(heap_[child + 1], heap_[child])) ++child;
      if (!Before(heap_[child], e)) break;
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = e;
  }

  // The hole a Pop left, when no Push came to fill it: the last event fills it.
  void Settle() {
    if (!hole_) return;
    hole_ = false;
    const Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) FillHole(last);
  }

  // Floyd's fill: walks the hole at the root down to a leaf along the smaller children (one
  // comparison a level, not two), then brings `last` up from there; it rarely climbs far.
  void FillHole(const Event& last) {
    const size_t n = heap_.size();
    size_t i = 0;
    for (;;) {
      size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && Before(heap_[child + 1], heap_[child])) ++child;
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = last;
    SiftUp(i);
  }

  std::vector<Event> heap_;
  bool hole_ = false;  // heap_[0] was popped and nothing has taken its place yet
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
