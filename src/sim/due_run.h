// The events that have come due, in (time, insertion) order: the front of the event queue and
// of its radix heap. A refill starts a new run and appends; pops take from the front; an event
// pushed for a time the run already covers takes its place inside it.
#ifndef ROCELAB_SIM_DUE_RUN_H_
#define ROCELAB_SIM_DUE_RUN_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/event.h"
#include "sim/rank_keys.h"

namespace rocelab {

class DueRun {
 public:
  bool Empty() const { return head_ == events_.size(); }
  size_t Size() const { return events_.size() - head_; }
  const Event& Front() const { return events_[head_]; }
  // The event `k` places after the front, if the run holds it.
  const Event* Ahead(size_t k) const { return head_ + k < events_.size() ? &events_[head_ + k] : nullptr; }
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

  // A refill: Restart (the run is empty) or Compact (it is not), Append each event of the refill,
  // then Sort from the size before the first Append. The refill's events must all come after
  // those the run holds.
  void Restart() {
    events_.clear();
    head_ = 0;
  }
  void Compact() {
    events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
  void Append(const Event& e) { events_.push_back(e); }
  // Sorts the run's events from index `from` on. A refill's events come in little order (a
  // frame held back on its wire is queued with the sequence number it took when sent), so an
  // insertion sort mispredicted a branch for nearly every event. Up to kRankKeysMax events whose
  // times and sequence numbers fit one 64-bit key each are placed by rank instead
  // (sim/rank_keys.h). Larger runs, and the rare one whose keys do not fit, go to std::sort.
  void Sort(size_t from = 0) {
    Event* first = events_.data() + from;
    const size_t n = events_.size() - from;
    if (n <= 1) return;
    if (n > kRankKeysMax || !SortByRank(first, n)) std::sort(first, first + n, Less);
  }

 private:
  // Before as a type, so that the sorts inline it (through a function pointer they did not).
  struct LessThan {
    bool operator()(const Event& a, const Event& b) const { return Before(a, b); }
  };
  static constexpr LessThan Less{};
  // A key: the time after the run's earliest in the high kTimeBits, the sequence number after
  // the run's lowest below them. Keys then order as (time, seq) does; with their top bit
  // flipped, they order so as signed numbers, which is how a vector unit compares.
  static constexpr int kTimeBits = 16;
  static constexpr int kSeqBits = 64 - kTimeBits;
  static constexpr uint64_t kSignBit = uint64_t{1} << 63;

  // Sorts by rank the n (2..kRankKeysMax) events from `ev`, if their keys fit; false if they do not.
  static bool SortByRank(Event* ev, size_t n) {
    Time t0 = ev[0].time, t1 = t0;
    uint64_t s0 = ev[0].seq, s1 = s0;
    for (size_t i = 1; i < n; ++i) {
      t0 = std::min(t0, ev[i].time);
      t1 = std::max(t1, ev[i].time);
      s0 = std::min(s0, ev[i].seq);
      s1 = std::max(s1, ev[i].seq);
    }
    if (static_cast<uint64_t>(t1 - t0) >> kTimeBits || (s1 - s0) >> kSeqBits) return false;
    int64_t key[kRankKeysMax];
    for (size_t i = 0; i < n; ++i) {
      const uint64_t k = static_cast<uint64_t>(ev[i].time - t0) << kSeqBits | (ev[i].seq - s0);
      key[i] = static_cast<int64_t>(k ^ kSignBit);
    }
    uint8_t rank[kRankKeysMax];
    RankKeys(key, n, rank);
    Event sorted[kRankKeysMax];
    for (size_t i = 0; i < n; ++i) sorted[rank[i]] = ev[i];
    std::copy(sorted, sorted + n, ev);
    return true;
  }

  std::vector<Event> events_;  // from head_ on
  size_t head_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_DUE_RUN_H_
