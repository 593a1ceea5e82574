// The event queue: a calendar of the near future over a radix heap of the far one. Ties in time
// break by insertion order, which makes every run with the same inputs replay identically.
// Frames in flight wait beside the queue, on their wire (sim/wire.h), so it holds few events.
#ifndef ROCELAB_SIM_EVENT_QUEUE_H_
#define ROCELAB_SIM_EVENT_QUEUE_H_

#include <cstddef>
#include <cstdint>

#include "sim/due_run.h"
#include "sim/event.h"
#include "sim/event_blocks.h"
#include "sim/radix_heap.h"
#include "sim/time.h"

namespace rocelab {

// Nearly every event of a packet network comes due within a few microseconds of being queued: a
// frame's end on the wire, its arrival a propagation delay later, the reply it prompts. The
// calendar holds those: 16,384 slots of 1,024 ps each, a horizon of 16.8 us from the slot of the
// earliest event, which covers a 4 KB frame on a 10G link and a delay of 13 us after it. A push
// into the calendar appends to its slot, once; a radix heap moves an event once for each 6-bit
// digit between its time and the clock (three or four times for an arrival a microsecond ahead).
// When the events due are gone (or, while the loop looks ahead, down to a few), the next slot
// that holds any (found through two levels of occupancy bits) is sorted into the due run, and
// the horizon moves up to start at that slot: the events of the radix heap (sim/radix_heap.h)
// that now fall within it, timers mostly, move into the calendar. The due run is sorted by
// (time, insertion), so the order is a heap's exactly. A push for a time at or before `last_`
// (the latest time in the run, which a peek and the prefetch of the next event move past the
// clock) takes its place inside it.
class EventQueue {
 public:
  static constexpr int kSlotBits = 10;  // a slot spans 2^10 ps
  static constexpr uint32_t kSlots = 16384;
  static constexpr Time kHorizon = Time{kSlots} << kSlotBits;

  void Push(Time time, EventSource* target, uint32_t kind, uint32_t arg, Packet* pkt) {
    PushInOrder(time, next_seq_++, target, kind, arg, pkt);
  }
  // The sequence number the next Push would take; taking it keeps an event's place in the
  // tie-break for when it is pushed later (Wire holds frames back this way).
  uint64_t TakeSequence() { return next_seq_++; }
  // Inlined: it is most of a handler's work on the queue, and a call costs as much again.
  __attribute__((always_inline)) void PushInOrder(Time time, uint64_t seq, EventSource* target, uint32_t kind,
                                                  uint32_t arg, Packet* pkt) {
    ++size_;
    // The event is written straight into its place: one built on the stack and copied would be
    // read back in wider loads than it was written in, which must wait for every store before it.
    if (time > last_ && time - base_ < kHorizon) PlaceNear(time) = Event{time, seq, target, pkt, kind, arg};
    else PushDueOrFar(Event{time, seq, target, pkt, kind, arg});
  }

  bool Empty() const { return size_ == 0; }
  size_t Size() const { return size_; }
  size_t CapacityBytes() const {
    return due_.CapacityBytes() + blocks_.CapacityBytes() + sizeof(slots_) + far_.CapacityBytes();
  }
  Time TopTime() {
    if (due_.Empty()) Refill();
    return due_.Front().time;
  }

  // Brings the event that is next for now into cache, while the one just popped runs.
  void PrefetchNext() {
    if (size_ == 0) return;
    if (due_.Empty()) Refill();
    const Event& n = due_.Front();
    __builtin_prefetch(n.target);
    if (n.pkt) __builtin_prefetch(n.pkt);
  }

  // Looks further ahead, for a fabric whose state is far larger than the caches: the target and
  // packet of the event kTouchAhead places after the next come into cache; where the event
  // kWarmAhead places after it is relayed (a frame on its wire), the receiver's first lines
  // (Relay, EventSource::HotLines) follow, which the hint would otherwise wait for; and the
  // event kHintAhead places after it is asked to bring in the device state it will read
  // (EventSource::Prefetch). A miss to memory costs as much as a whole event of a small fabric,
  // so the misses of several events overlap instead of following one another. The due run is
  // topped up from the calendar before it runs short (TopUp), so the first events of a slot are
  // seen as far ahead as the rest. Events pushed meanwhile may run first; that costs a hint,
  // never the order.
  static constexpr size_t kHintAhead = 1, kWarmAhead = 3, kTouchAhead = 5;
  void PrefetchAhead() {
    if (due_.Size() <= kTouchAhead && size_ > due_.Size()) TopUp();
    if (const Event* mid = due_.Ahead(kWarmAhead); mid && mid->kind == Relay::kRelayed) {
      const char* r = reinterpret_cast<const char*>(static_cast<const Relay*>(mid->target)->receiver());
      for (uint32_t lines = mid->arg; lines; lines &= lines - 1) __builtin_prefetch(r + 64 * __builtin_ctz(lines));
    }
    if (const Event* far = due_.Ahead(kTouchAhead)) {
      __builtin_prefetch(far->target);
      if (far->pkt) __builtin_prefetch(far->pkt);
    }
    if (const Event* near = due_.Ahead(kHintAhead)) near->target->Prefetch(near->kind, near->arg, near->pkt);
  }

  Event Pop() {
    if (due_.Empty()) Refill();
    --size_;
    return due_.PopFront();
  }

 private:
  static constexpr Time kSlotStart = ~((Time{1} << kSlotBits) - 1);  // a time & this: its slot's start
  static constexpr uint32_t kWords = kSlots / 64;          // occupancy words, a bit per slot
  static constexpr uint32_t kGroups = (kWords + 63) / 64;  // summary words, a bit per occupancy word

  static uint32_t SlotOf(Time t) { return static_cast<uint32_t>(static_cast<uint64_t>(t) >> kSlotBits) & (kSlots - 1); }
  // An event in the due run (at or before last_) or beyond the calendar's horizon.
  __attribute__((noinline)) void PushDueOrFar(const Event& e) {
    if (e.time <= last_) due_.Insert(e);
    else far_.Push(e);
  }
  // The place of an event at `time`, in (last_, base_ + kHorizon): in its slot.
  Event& PlaceNear(Time time) {
    const uint32_t s = SlotOf(time);
    occupied_[s / 64] |= uint64_t{1} << (s % 64);
    words_[s / 64 / 64] |= uint64_t{1} << (s / 64 % 64);
    ++near_;
    return blocks_.Append(slots_[s]);
  }

  // The first slot holding events from slot `from` on, round the calendar (it must hold some).
  uint32_t NextSlot(uint32_t from) const {
    const uint32_t w = from / 64;
    if (const uint64_t here = occupied_[w] & (~uint64_t{0} << (from % 64))) return w * 64 + __builtin_ctzll(here);
    // Words after this one, then (a later lap) from the first word up to this one.
    for (uint32_t v = w + 1; v < kWords; v = (v / 64 + 1) * 64)
      if (const uint64_t bits = words_[v / 64] & (~uint64_t{0} << (v % 64))) return FirstIn(v / 64, bits);
    for (uint32_t g = 0;; ++g)
      if (words_[g]) return FirstIn(g, words_[g]);
  }
  // The first occupied slot of the words marked in `bits`, bit i standing for word g * 64 + i.
  uint32_t FirstIn(uint32_t g, uint64_t bits) const {
    const uint32_t x = g * 64 + __builtin_ctzll(bits);
    return x * 64 + __builtin_ctzll(occupied_[x]);
  }

  // Sorts the next slot that holds events into the due run, which is empty (the queue is not).
  void Refill() {
    due_.Restart();
    TakeNextSlot();
  }
  // The same before the run is empty, so that the loop can look as far ahead across the end of a
  // slot as inside one (PrefetchAhead): else the first few events of every slot came due unseen.
  // The queue must hold events beyond the run.
  void TopUp() {
    due_.Compact();
    TakeNextSlot();
  }
  // Appends the events of the next slot that holds any to the due run, sorted: they all come
  // after the run's (time > last_).
  void TakeNextSlot() {
    if (near_ == 0) {
      // Nothing near: the calendar starts at the radix heap's earliest event.
      base_ = far_.Top().time & kSlotStart;
      MoveNear();
    }
    const uint32_t s = NextSlot(SlotOf(base_));
    EventBucket& slot = slots_[s];
    const size_t from = due_.Size();
    EventBlocks::ForEach(slot, [&](const Event& e) { due_.Append(e); });
    blocks_.Free(slot);
    slot = EventBucket{};
    occupied_[s / 64] &= ~(uint64_t{1} << (s % 64));
    if (!occupied_[s / 64]) words_[s / 64 / 64] &= ~(uint64_t{1} << (s / 64 % 64));
    near_ -= due_.Size() - from;
    due_.Sort(from);
    last_ = due_.Back().time;
    // The calendar now starts at this slot, and reaches that much further.
    base_ = last_ & kSlotStart;
    MoveNear();
  }

  // The radix heap's events that the calendar's horizon now reaches move into it.
  void MoveNear() {
    while (!far_.Empty() && far_.Top().time - base_ < kHorizon) {
      const Event e = far_.Pop();
      PlaceNear(e.time) = e;
    }
  }

  DueRun due_;  // the events at or before last_
  Time last_ = 0;
  Time base_ = 0;         // the calendar holds the events in (last_, base_ + kHorizon)
  uint64_t words_[kGroups] = {};  // bit w % 64 of group w / 64: occupied_[w] is not 0
  uint64_t occupied_[kWords] = {};  // bit s % 64 of word s / 64: slots_[s] holds events
  size_t near_ = 0;       // events in the calendar
  size_t size_ = 0;
  uint64_t next_seq_ = 0;
  EventBlocks blocks_;
  EventBucket slots_[kSlots];
  RadixHeap far_;  // the events at or after base_ + kHorizon when they were pushed
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
      if (lookahead_) queue_.PrefetchAhead();
      e.target->HandleEvent(e.kind, e.arg, e.pkt);
      if (progress_ && events_ % kProgressEvents == 0) progress_->OnProgress(now_, events_);
    }
    if (!stopped_ && now_ < until && until != kTimeNever) now_ = until;
  }

  // Whether the loop looks several events ahead (EventQueue::PrefetchAhead): worth it where the
  // devices' state is far larger than the caches, a cost where it fits. Events run the same way
  // either way.
  void SetLookahead(bool on) { lookahead_ = on; }
  bool Lookahead() const { return lookahead_; }

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
  bool lookahead_ = false;
  ProgressListener* progress_ = nullptr;
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_EVENT_QUEUE_H_
