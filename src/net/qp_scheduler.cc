#include "net/qp_scheduler.h"

#include <algorithm>

namespace rocelab {

template <typename Side>
void QpScheduler<Side>::Add(uint32_t qp) {
  QueuePair& q = (*qps_)[qp];
  Side::Slot(q) = static_cast<uint32_t>(active_.size());
  active_.push_back(qp);
  ++live_;
  const int prio = Side::Priority(q);
  if (lane_of_[prio] < 0) {
    if (first_lane_.priority < 0) {
      first_lane_.priority = prio;
      lane_of_[prio] = 0;
    } else {
      lane_of_[prio] = static_cast<int8_t>(NumLanes());
      more_lanes_.push_back(Lane{prio, {}, {}});
    }
  }
  const uint32_t words = (active_.size() + 63) / 64;
  for (size_t l = 0; l < NumLanes(); ++l) LaneAt(l).candidates.resize(words, 0);
  Candidate(q);
}

template <typename Side>
void QpScheduler<Side>::Remove(uint32_t qp) {
  if (!Has(qp)) return;
  QueuePair& q = (*qps_)[qp];
  // Its slot is left vacant, so that the others keep theirs: a removal touches no other QP.
  // The rotation keeps its place, at the removed slot if it was to start there, which a search
  // passes on to the QP after it.
  Drop(q);
  active_[Side::Slot(q)] = kVacant;
  Side::Slot(q) = UINT32_MAX;
  Side::State(q) = QueuePair::kSchedIdle;
  --live_;
  // Vacant slots at the end go at once: the rotation wraps after its last QP, before any added
  // later.
  while (!active_.empty() && active_.back() == kVacant) active_.pop_back();
  if (rr_ >= active_.size()) rr_ = 0;
  if (active_.size() >= kCompactAt && live_ < active_.size() / 2) Compact();
}

template <typename Side>
void QpScheduler<Side>::Compact() {
  // The QPs move down over the vacant slots in order, their candidate bits with them; each
  // compaction follows at least as many removals as the QPs it moves.
  std::vector<Bits> bits(NumLanes());
  for (Bits& b : bits) b.resize((live_ + 63) / 64, 0);
  uint32_t to = 0, rr = 0;
  for (uint32_t from = 0; from < active_.size(); ++from) {
    if (from == rr_) rr = to;
    const uint32_t id = active_[from];
    if (id == kVacant) continue;
    for (size_t l = 0; l < NumLanes(); ++l)
      if (LaneAt(l).candidates[from >> 6] >> (from & 63) & 1) bits[l][to >> 6] |= uint64_t{1} << (to & 63);
    Side::Slot((*qps_)[id]) = to;
    active_[to++] = id;
  }
  active_.resize(to);
  for (size_t l = 0; l < NumLanes(); ++l) LaneAt(l).candidates = std::move(bits[l]);
  rr_ = rr < to ? rr : 0;
}

template <typename Side>
void QpScheduler<Side>::TouchAll() {
  ForEachActive([this](uint32_t id) { Candidate((*qps_)[id]); });
}

template <typename Side>
QueuePair* QpScheduler<Side>::Search(size_t from, size_t to, uint8_t paused, Time now) {
  for (size_t w = from >> 6; w << 6 < to; ++w) {
    uint64_t bits = 0;
    for (size_t l = 0; l < NumLanes(); ++l)
      if (const Lane& lane = LaneAt(l); !(paused & (1u << lane.priority))) bits |= lane.candidates[w];
    if ((w << 6) < from) bits &= ~uint64_t{0} << (from & 63);
    if (((w + 1) << 6) > to && (to & 63)) bits &= (uint64_t{1} << (to & 63)) - 1;
    for (; bits; bits &= bits - 1) {
      const size_t slot = (w << 6) + static_cast<size_t>(__builtin_ctzll(bits));
      QueuePair& q = (*qps_)[active_[slot]];
      if (!Side::HasWork(q)) {  // back when the transport next acts on it
        Drop(q);
        Side::State(q) = QueuePair::kSchedIdle;
        continue;
      }
      const Time next_send = Side::NextSend(q);
      if (next_send > now) {  // back when its rate limiter lets it send
        Drop(q);
        Side::State(q) = QueuePair::kSchedPaced;
        InlineVec<Paced, 1>& h = LaneOf(q).paced;
        h.push_back({next_send, q.id});
        std::push_heap(h.begin(), h.end(), Later);
        continue;
      }
      rr_ = slot + 1 < active_.size() ? static_cast<uint32_t>(slot + 1) : 0;
      return &q;
    }
  }
  return nullptr;
}

template <typename Side>
QueuePair* QpScheduler<Side>::Next(Time now, uint8_t paused, Time* earliest) {
  *earliest = kTimeNever;
  if (live_ == 0) return nullptr;
  for (size_t l = 0; l < NumLanes(); ++l) {
    Lane& lane = LaneAt(l);
    while (!lane.paced.empty() && lane.paced.front().at <= now) {
      const Paced due = lane.paced.front();
      PopPaced(lane);
      if (Current(due)) Candidate((*qps_)[due.qp]);
    }
  }
  if (QueuePair* q = Search(rr_, active_.size(), paused, now)) return q;
  if (QueuePair* q = Search(0, rr_, paused, now)) return q;
  for (size_t l = 0; l < NumLanes(); ++l) {
    Lane& lane = LaneAt(l);
    if (paused & (1u << lane.priority)) continue;
    while (!lane.paced.empty() && !Current(lane.paced.front())) PopPaced(lane);
    if (!lane.paced.empty()) *earliest = std::min(*earliest, lane.paced.front().at);
  }
  return nullptr;
}

template class QpScheduler<Requests>;
template class QpScheduler<ReadResponses>;

}  // namespace rocelab
