// Which queue pair a NIC sends from next: round robin over its active queue
// pairs in the order they became active, passing over those with nothing to
// send, those whose priority is paused and those their rate limiter holds back.
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

namespace rocelab {

class QpScheduler {
 public:
  explicit QpScheduler(std::vector<QueuePair>* qps) : qps_(qps) {}

  // `qp` (whose requester is this NIC) became active: it joins the rotation, last.
  void Add(uint32_t qp);
  // `qp` finished or failed: it leaves the rotation. Its slot stays vacant until the vacant ones
  // are half the rotation, so that a removal costs the same however many QPs are active.
  void Remove(uint32_t qp);
  // The transport is about to act on `qp`, or a message was posted on it: what was known
  // about it may change, so the next choice looks at it again. Any QP may be named; one
  // this NIC does not send from is ignored.
  void Touch(uint32_t qp) {
    if (Mine(qp)) Candidate((*qps_)[qp]);
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
  using Bits = std::vector<uint64_t>;  // bit i: active_[i] may be ready
  struct Paced {
    Time at;
    uint32_t qp;
  };
  static bool Later(const Paced& a, const Paced& b) { return a.at > b.at || (a.at == b.at && a.qp > b.qp); }

  // The QPs of one priority: which may be ready, and which wait for their rate limiter.
  struct Lane {
    int priority;
    Bits candidates;
    std::vector<Paced> paced;  // a min-heap by time
  };
  // Whether `qp` is in this rotation (its slot is this scheduler's only while it is).
  bool Mine(uint32_t qp) const {
    if (qp >= qps_->size()) return false;
    const uint32_t slot = (*qps_)[qp].sched_slot;
    return slot < active_.size() && active_[slot] == qp;  // a vacant slot holds no QP's id
  }
  Lane& LaneOf(const QueuePair& q) { return lanes_[static_cast<size_t>(lane_of_[q.priority])]; }
  void Candidate(QueuePair& q) {
    q.sched_state = QueuePair::kSchedCandidate;
    LaneOf(q).candidates[q.sched_slot >> 6] |= uint64_t{1} << (q.sched_slot & 63);
  }
  void Drop(const QueuePair& q) { LaneOf(q).candidates[q.sched_slot >> 6] &= ~(uint64_t{1} << (q.sched_slot & 63)); }
  // Serves the first ready QP among the candidate slots in [from, to) of the priorities not
  // paused, classifying the others it passes; nullptr if none is ready.
  QueuePair* Search(size_t from, size_t to, uint8_t paused, Time now);
  void PopPaced(Lane& lane) {
    std::pop_heap(lane.paced.begin(), lane.paced.end(), Later);
    lane.paced.pop_back();
  }
  // A paced entry still stands for its QP (it was not touched or re-paced since).
  bool Current(const Paced& p) const {
    const QueuePair& q = (*qps_)[p.qp];
    return q.sched_state == QueuePair::kSchedPaced && q.next_send == p.at;
  }

  // Slots emptied by Remove are taken back (Compact) once they are half the rotation, and
  // it has this many: below that, vacant slots cost a search less than moving the QPs.
  static constexpr size_t kCompactAt = 64;
  static constexpr uint32_t kVacant = UINT32_MAX;  // a slot whose QP was removed
  void Compact();

  std::vector<QueuePair>* qps_;
  std::vector<uint32_t> active_;  // in the order they became active; kVacant where removed
  size_t live_ = 0;               // the QPs in active_
  size_t rr_ = 0;                 // the slot the next search starts from
  std::vector<Lane> lanes_;       // one per priority some QP has sent on (one or two, usually)
  int8_t lane_of_[kNumPriorities] = {-1, -1, -1, -1, -1, -1, -1, -1};
};

}  // namespace rocelab

#endif  // ROCELAB_NET_QP_SCHEDULER_H_
