// Which queue pair a NIC sends from next: round robin over its active queue
// pairs in the order they became active, passing over those with nothing to
// send, those whose priority is paused and those their rate limiter holds back.
// A NIC keeps two: one for the requests it sends (the QPs whose requester it
// is) and one for the READ responses it owes (those whose responder it is);
// `Side` names the fields of a QueuePair each of them reads and keeps.
//
// The choice is exactly the one a scan of every QP from the round-robin
// position makes, without the scan, so a frame costs about the same with one
// active QP or a thousand (an all-to-all, a storage target's many
// initiators). A QP found with nothing to send leaves the rotation until the
// transport is about to act on it again (an ACK, NAK or CNP for it, one of its
// timers, a posted message): the NIC says so with Touch before the transport
// runs, so the QP is back before anything can ask for a frame. A QP found
// paced waits in a heap by the time it may send and comes back when that time
// has come. Paused priorities are left out of the search by a mask.
#ifndef ROCELAB_NET_QP_SCHEDULER_H_
#define ROCELAB_NET_QP_SCHEDULER_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/packet.h"
#include "sim/time.h"
#include "transport/queue_pair.h"
#include "util/inline_vec.h"

namespace rocelab {

// The requests a QP's requester sends: its data, WRITE and SEND packets and READ requests.
struct Requests {
  static uint32_t& Slot(QueuePair& q) { return q.sched_slot; }
  static uint32_t Slot(const QueuePair& q) { return q.sched_slot; }
  static uint8_t& State(QueuePair& q) { return q.sched_state; }
  static uint8_t State(const QueuePair& q) { return q.sched_state; }
  static int Priority(const QueuePair& q) { return q.priority; }
  static Time NextSend(const QueuePair& q) { return q.next_send; }
  static bool HasWork(const QueuePair& q) { return q.HasDataToSend(); }
};

// The READ responses a QP's responder owes, paced by the response stream's own rate.
struct ReadResponses {
  static uint32_t& Slot(QueuePair& q) { return q.response_slot; }
  static uint32_t Slot(const QueuePair& q) { return q.response_slot; }
  static uint8_t& State(QueuePair& q) { return q.response_state; }
  static uint8_t State(const QueuePair& q) { return q.response_state; }
  static int Priority(const QueuePair& q) { return q.response_priority; }
  static Time NextSend(const QueuePair& q) { return q.response_next_send; }
  static bool HasWork(const QueuePair& q) { return !q.read_jobs.empty(); }
};

template <typename Side>
class QpScheduler {
 public:
  explicit QpScheduler(std::vector<QueuePair>* qps) : qps_(qps) {}

  // `qp` (whose requester, or responder, is this NIC) became active: it joins the rotation,
  // last.
  void Add(uint32_t qp);
  // `qp` finished or failed: it leaves the rotation. Its slot stays vacant until the vacant ones
  // are half the rotation, so that a removal costs the same however many QPs are active.
  void Remove(uint32_t qp);
  // Whether `qp` is in the rotation (its slot is this scheduler's only while it is).
  bool Has(uint32_t qp) const {
    if (qp >= qps_->size()) return false;
    const uint32_t slot = Side::Slot((*qps_)[qp]);
    return slot < active_.size() && active_[slot] == qp;  // a vacant slot holds no QP's id
  }
  // The transport is about to act on `qp`, or a message was posted on it: what was known
  // about it may change, so the next choice looks at it again. Any QP may be named; one
  // this NIC does not send from is ignored.
  void Touch(uint32_t qp) {
    if (Has(qp)) Candidate((*qps_)[qp]);
  }
  void TouchAll();

  // The QP to send from at `now`, where bit p of `paused` is set while priority p is paused;
  // the rotation moves past it. nullptr when none may send now, and then `*earliest` is when
  // the first QP its rate limiter holds back, on a priority not paused, may send (kTimeNever
  // if none).
  QueuePair* Next(Time now, uint8_t paused, Time* earliest);

  bool empty() const { return live_ == 0; }
  // Calls f(qp) for each QP in the rotation, in its order.
  template <typename F>
  void ForEachActive(F&& f) const {
    for (uint32_t id : active_)
      if (id != kVacant) f(id);
  }

 private:
  // The common case (one or two QPs active on one priority) is held inside the scheduler, on
  // the NIC's own lines: a send reads no line of the heap for its rotation.
  using Bits = InlineVec<uint64_t, 1>;  // bit i: active_[i] may be ready
  struct Paced {
    Time at;
    uint32_t qp;
  };
  static bool Later(const Paced& a, const Paced& b) { return a.at > b.at || (a.at == b.at && a.qp > b.qp); }

  // The QPs of one priority: which may be ready, and which wait for their rate limiter.
  struct Lane {
    int priority;
    Bits candidates;
    InlineVec<Paced, 1> paced;  // a min-heap by time
  };
  // Lane 0 is the first priority a QP sent on, the others (rare: a NIC sending on two
  // priorities) follow it.
  size_t NumLanes() const { return 1 + more_lanes_.size(); }
  Lane& LaneAt(size_t l) { return l == 0 ? first_lane_ : more_lanes_[l - 1]; }
  const Lane& LaneAt(size_t l) const { return l == 0 ? first_lane_ : more_lanes_[l - 1]; }
  Lane& LaneOf(const QueuePair& q) { return LaneAt(static_cast<size_t>(lane_of_[Side::Priority(q)])); }
  void Candidate(QueuePair& q) {
    Side::State(q) = QueuePair::kSchedCandidate;
    const uint32_t slot = Side::Slot(q);
    LaneOf(q).candidates[slot >> 6] |= uint64_t{1} << (slot & 63);
  }
  void Drop(const QueuePair& q) {
    const uint32_t slot = Side::Slot(q);
    LaneOf(q).candidates[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
  }
  // Serves the first ready QP among the candidate slots in [from, to) of the priorities not
  // paused, classifying the others it passes; nullptr if none is ready.
  QueuePair* Search(size_t from, size_t to, uint8_t paused, Time now);
  static void PopPaced(Lane& lane) {
    std::pop_heap(lane.paced.begin(), lane.paced.end(), Later);
    lane.paced.pop_back();
  }
  // A paced entry still stands for its QP (it was not touched or re-paced since).
  bool Current(const Paced& p) const {
    const QueuePair& q = (*qps_)[p.qp];
    return Side::State(q) == QueuePair::kSchedPaced && Side::NextSend(q) == p.at;
  }

  // Slots emptied by Remove are taken back (Compact) once they are half the rotation, and
  // it has this many: below that, vacant slots cost a search less than moving the QPs.
  static constexpr size_t kCompactAt = 64;
  static constexpr uint32_t kVacant = UINT32_MAX;  // a slot whose QP was removed
  void Compact();

  std::vector<QueuePair>* qps_;
  uint32_t live_ = 0;  // the QPs in active_
  uint32_t rr_ = 0;    // the slot the next search starts from
  int8_t lane_of_[kNumPriorities] = {-1, -1, -1, -1, -1, -1, -1, -1};
  InlineVec<uint32_t, 2> active_;  // in the order they became active; kVacant where removed
  Lane first_lane_{-1, {}, {}};    // its priority is -1 until a QP is added
  std::vector<Lane> more_lanes_;
};

extern template class QpScheduler<Requests>;
extern template class QpScheduler<ReadResponses>;

}  // namespace rocelab

#endif  // ROCELAB_NET_QP_SCHEDULER_H_
