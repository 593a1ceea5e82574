// Buckets of events for the event queue's calendar and radix heap: each a chain of fixed blocks
// from a shared free list. Most buckets hold a few events at a time; a vector per bucket would
// keep each bucket's own peak. Events stay in the order they were appended.
#ifndef ROCELAB_SIM_EVENT_BLOCKS_H_
#define ROCELAB_SIM_EVENT_BLOCKS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/event.h"

namespace rocelab {

struct EventBlock {
  static constexpr uint32_t kEvents = 16;
  EventBlock* next = nullptr;
  Event events[kEvents];
};

// Every block of a bucket is full but its last, whose count the bucket keeps.
struct EventBucket {
  EventBlock* head = nullptr;
  EventBlock* tail = nullptr;
  uint32_t tail_count = 0;
};

class EventBlocks {
 public:
  // The place of a new last event of `k`, for the caller to fill.
  Event& Append(EventBucket& k) {
    if (!k.tail || k.tail_count == EventBlock::kEvents) {
      EventBlock* block = New();
      (k.tail ? k.tail->next : k.head) = block;
      k.tail = block;
      k.tail_count = 0;
    }
    return k.tail->events[k.tail_count++];
  }

  // Calls f on each event of `k` in the order appended.
  template <typename F>
  static void ForEach(const EventBucket& k, F&& f) {
    for (const EventBlock* b = k.head; b; b = b->next)
      for (uint32_t i = 0, n = b == k.tail ? k.tail_count : EventBlock::kEvents; i < n; ++i) f(b->events[i]);
  }

  // The blocks of an emptied bucket (a copy of it; the bucket itself is reset by its owner).
  void Free(const EventBucket& k) {
    if (!k.head) return;
    k.tail->next = free_;
    free_ = k.head;
  }

  size_t CapacityBytes() const { return all_.size() * sizeof(EventBlock); }

 private:
  EventBlock* New() {
    if (!free_) {
      all_.push_back(std::make_unique<EventBlock>());
      return all_.back().get();
    }
    EventBlock* b = free_;
    free_ = b->next;
    b->next = nullptr;
    return b;
  }

  EventBlock* free_ = nullptr;
  std::vector<std::unique_ptr<EventBlock>> all_;  // every block, in use or free
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_EVENT_BLOCKS_H_
