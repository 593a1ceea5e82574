#include "net/qp_scheduler.h"

#include <algorithm>

namespace rocelab {

void QpScheduler::Add(uint32_t qp) {
  QueuePair& q = (*qps_)[qp];
  q.sched_slot = static_cast<uint32_t>(active_.size());
  active_.push_back(qp);
  if (lane_of_[q.priority] < 0) {
    lane_of_[q.priority] = static_cast<int8_t>(lanes_.size());
    lanes_.push_back(Lane{q.priority, {}, {}});
  }
  const size_t words = (active_.size() + 63) / 64;
  for (Lane& lane : lanes_) lane.candidates.resize(words, 0);
  Candidate(q);
}

void QpScheduler::Remove(uint32_t qp) {
  if (!Mine(qp)) return;
  QueuePair& q = (*qps_)[qp];
  const size_t idx = q.sched_slot;
  // The slots after it move down one, bits and all; the bits below it in its word stay.
  const uint64_t below = (uint64_t{1} << (idx & 63)) - 1;
  for (Lane& lane : lanes_) {
    Bits& b = lane.candidates;
    for (size_t w = idx >> 6; w < b.size(); ++w) {
      const uint64_t carry = w + 1 < b.size() ? b[w + 1] & 1 : 0;
      const uint64_t shifted = (b[w] >> 1) | (carry << 63);
      b[w] = w == idx >> 6 ? (b[w] & below) | (shifted & ~below) : shifted;
    }
  }
  active_.erase(active_.begin() + static_cast<long>(idx));
  for (size_t i = idx; i < active_.size(); ++i) (*qps_)[active_[i]].sched_slot = static_cast<uint32_t>(i);
  q.sched_slot = UINT32_MAX;
  q.sched_state = QueuePair::kSchedIdle;
  // The rotation keeps its place: the QP it was to start from, or the one after the removed.
  if (rr_ > idx) --rr_;
  if (rr_ >= active_.size()) rr_ = 0;
}

void QpScheduler::TouchAll() {
  for (uint32_t id : active_) Candidate((*qps_)[id]);
}

QueuePair* QpScheduler::Search(size_t from, size_t to, uint8_t paused, Time now) {
  for (size_t w = from >> 6; w << 6 < to; ++w) {
    uint64_t bits = 0;
    for (const Lane& lane : lanes_)
      if (!(paused & (1u << lane.priority))) bits |= lane.candidates[w];
    if ((w << 6) < from) bits &= ~uint64_t{0} << (from & 63);
    if (((w + 1) << 6) > to && (to & 63)) bits &= (uint64_t{1} << (to & 63)) - 1;
    for (; bits; bits &= bits - 1) {
      const size_t slot = (w << 6) + static_cast<size_t>(__builtin_ctzll(bits));
      QueuePair& q = (*qps_)[active_[slot]];
      if (!q.HasDataToSend()) {  // back when the transport next acts on it
        Drop(q);
        q.sched_state = QueuePair::kSchedIdle;
        continue;
      }
      if (q.next_send > now) {  // back when its rate limiter lets it send
        Drop(q);
        q.sched_state = QueuePair::kSchedPaced;
        std::vector<Paced>& h = LaneOf(q).paced;
        h.push_back({q.next_send, q.id});
        std::push_heap(h.begin(), h.end(), Later);
        continue;
      }
      rr_ = slot + 1 < active_.size() ? slot + 1 : 0;
      return &q;
    }
  }
  return nullptr;
}

QueuePair* QpScheduler::Next(Time now, uint8_t paused, Time* earliest) {
  *earliest = kTimeNever;
  if (active_.empty()) return nullptr;
  for (Lane& lane : lanes_) {
    while (!lane.paced.empty() && lane.paced.front().at <= now) {
      const Paced due = lane.paced.front();
      PopPaced(lane);
      if (Current(due)) Candidate((*qps_)[due.qp]);
    }
  }
  if (QueuePair* q = Search(rr_, active_.size(), paused, now)) return q;
  if (QueuePair* q = Search(0, rr_, paused, now)) return q;
  for (Lane& lane : lanes_) {
    if (paused & (1u << lane.priority)) continue;
    while (!lane.paced.empty() && !Current(lane.paced.front())) PopPaced(lane);
    if (!lane.paced.empty()) *earliest = std::min(*earliest, lane.paced.front().at);
  }
  return nullptr;
}

}  // namespace rocelab
