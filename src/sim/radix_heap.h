// A radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, 1990) with 64-way digits: the event queue's
// store for events beyond its calendar's horizon (sim/event_queue.h), such as the timers of
// congestion control and PFC, and any event on a link slower or longer than the calendar spans.
//
// A simulation never schedules before its clock, so the heap can sort lazily. Events wait
// unsorted in buckets: an event's level is the highest 6-bit digit in which its time differs from
// `last_`, the time of the earliest event, and its bucket there is its own value of that digit. A
// push appends. When the events due at `last_` are gone, the first bucket of the lowest level that
// holds any is emptied: its earliest event becomes `last_` and comes due, and the others move down
// to lower levels. An event moves at most once per level and once more as it comes due, and pushes
// and moves append to blocks in sequence, which stays in cache where a binary heap of thousands of
// events, each push and pop walking its levels, did not. The due events are a run sorted by
// (time, insertion), so the order is a heap's exactly; an event for a time at or before `last_`
// (after a peek) takes its place inside it. A bucket is a chain of fixed blocks shared through a
// free list: most buckets hold a few events at a time, and a vector per bucket would keep each
// bucket's own peak (15 times the peak number of events, measured on a k=24 fat-tree).
#ifndef ROCELAB_SIM_RADIX_HEAP_H_
#define ROCELAB_SIM_RADIX_HEAP_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "sim/due_run.h"
#include "sim/event.h"
#include "sim/event_blocks.h"

namespace rocelab {

class RadixHeap {
 public:
  void Push(const Event& e) {
    ++size_;
    if (e.time <= last_) due_.Insert(e);
    else Place(e);
  }
  bool Empty() const { return size_ == 0; }
  size_t Size() const { return size_; }
  size_t CapacityBytes() const { return due_.CapacityBytes() + blocks_.CapacityBytes(); }
  // The earliest event (the heap must not be empty).
  const Event& Top() {
    if (due_.Empty()) Refill();
    return due_.Front();
  }
  Event Pop() {
    if (due_.Empty()) Refill();
    --size_;
    return due_.PopFront();
  }

 private:
  static constexpr int kDigitBits = 6;
  static constexpr int kDigits = 1 << kDigitBits;  // buckets per level
  static constexpr int kLevels = (64 + kDigitBits - 1) / kDigitBits;

  // An event after last_: into the bucket of the highest digit in which the two differ.
  void Place(const Event& e) {
    const uint64_t t = static_cast<uint64_t>(e.time);
    const int level = (63 - __builtin_clzll(t ^ static_cast<uint64_t>(last_))) / kDigitBits;
    const int digit = static_cast<int>((t >> (level * kDigitBits)) & (kDigits - 1));
    blocks_.Append(buckets_[level][digit]) = e;
    occupied_[level] |= uint64_t{1} << digit;
    levels_ |= 1u << level;
  }

  // Empties the earliest bucket, as no event is due at last_ (the heap must not be empty).
  void Refill() {
    const int level = __builtin_ctz(levels_);
    const int digit = __builtin_ctzll(occupied_[level]);
    occupied_[level] &= occupied_[level] - 1;
    if (!occupied_[level]) levels_ &= ~(1u << level);
    const EventBucket from = buckets_[level][digit];
    buckets_[level][digit] = EventBucket{};
    // The bucket's earliest event becomes last_ and comes due. The others share the digits
    // from `level` up with it, so each moves down at least a level.
    Time earliest = kTimeNever;
    EventBlocks::ForEach(from, [&](const Event& e) { earliest = std::min(earliest, e.time); });
    last_ = earliest;
    EventBlocks::ForEach(from, [&](const Event& e) {
      if (e.time == last_) due_.Insert(e);
      else Place(e);
    });
    blocks_.Free(from);
  }

  DueRun due_;  // the events at or before last_
  EventBucket buckets_[kLevels][kDigits];
  uint64_t occupied_[kLevels] = {};  // bit d of level l: buckets_[l][d] holds events
  uint32_t levels_ = 0;              // bit l: occupied_[l] is not 0
  EventBlocks blocks_;
  Time last_ = 0;
  size_t size_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_RADIX_HEAP_H_
