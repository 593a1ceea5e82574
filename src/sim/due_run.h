// The events that have come due, in (time, insertion) order: the front of the event queue and
// of its radix heap. A refill starts a new run and appends; pops take from the front; an event
// pushed for a time the run already covers takes its place inside it.
#ifndef ROCELAB_SIM_DUE_RUN_H_
#define ROCELAB_SIM_DUE_RUN_H_

#include <algorithm>
#include <cstddef>
#include <vector>

#include "sim/event.h"

namespace rocelab {

class DueRun {
 public:
  bool Empty() const { return head_ == events_.size(); }
  size_t Size() const { return events_.size() - head_; }
  const Event& Front() const { return events_[head_]; }
  const Event& Back() const { return events_.back(); }
  Event PopFront() { return events_[head_++]; }
  size_t CapacityBytes() const { return events_.capacity() * sizeof(Event); }

  // An event in its place: after the last, unless it sorts before it (an older sequence number,
  // or a time before the last).
  void Insert(const Event& e) {
    if (Empty()) {
      Restart();
    } else if (Before(e, events_.back())) {
      events_.insert(std::upper_bound(events_.begin() + static_cast<std::ptrdiff_t>(head_), events_.end(), e, Less), e);
      return;
    }
    events_.push_back(e);
  }

  // A refill (the run must be empty): Restart, Append each event, then Sort if they came out of
  // order.
  void Restart() {
    events_.clear();
    head_ = 0;
  }
  void Append(const Event& e) { events_.push_back(e); }
  // By insertion for a few events, mostly in order already; by std::sort past 32.
  void Sort() {
    if (events_.size() > 32) {
      std::sort(events_.begin(), events_.end(), Less);
      return;
    }
    for (size_t i = 1; i < events_.size(); ++i) {
      const Event e = events_[i];
      size_t j = i;
      for (; j > 0 && Before(e, events_[j - 1]); --j) events_[j] = events_[j - 1];
      events_[j] = e;
    }
  }

 private:
  // Before as a type, so that the sorts inline it (through a function pointer they did not).
  struct LessThan {
    bool operator()(const Event& a, const Event& b) const { return Before(a, b); }
  };
  static constexpr LessThan Less{};

  std::vector<Event> events_;  // from head_ on
  size_t head_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_DUE_RUN_H_
