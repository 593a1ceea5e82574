// A deadline its owner keeps moving: the pause each PFC frame extends, the XOFF
// refresh, DCQCN's rate timer that every cut restarts. Moving it later queues
// nothing: one event waits for the earliest time the timer may fire, and when
// it finds the deadline moved on it queues again, in the place in the tie-break
// order that setting the deadline took. A run is therefore the same as if every
// setting had queued its own event and the stale ones were ignored, with one
// event per timer in the queue instead of one per setting.
//
// The owner's handler for (kind, arg) asks Fire() first and acts only on true.
#ifndef ROCELAB_SIM_TIMER_H_
#define ROCELAB_SIM_TIMER_H_

#include <cstdint>

#include "sim/event_queue.h"

namespace rocelab {

class Timer {
 public:
  // The timer fires as event (kind, arg) of `target` at `at`, replacing any deadline before.
  void Set(Simulator* sim, Time at, EventSource* target, uint32_t kind, uint32_t arg) {
    seq_ = sim->TakeSequence();
    due_ = at;
    if (queued_ == kTimeNever || at < queued_) {
      // Earlier than the event waiting: queue another; the one waiting becomes a stray.
      queued_ = at;
      sim->ScheduleInOrder(at, seq_, target, kind, arg, nullptr);
    }
  }

  // No deadline: the event waiting, if any, will find nothing to do.
  void Cancel() { due_ = kTimeNever; }
  bool armed() const { return due_ != kTimeNever; }
  Time due() const { return due_; }

  // In the handler of the timer's event: true when the deadline has come (the timer is then
  // disarmed); false for a stray, a cancelled deadline, or one moved later (queued again).
  bool Fire(Simulator* sim, EventSource* target, uint32_t kind, uint32_t arg) {
    const Time now = sim->Now();
    if (now != queued_) return false;  // a stray from before an earlier Set
    queued_ = kTimeNever;
    if (due_ == now) {
      due_ = kTimeNever;
      return true;
    }
    if (due_ != kTimeNever) {
      queued_ = due_;
      sim->ScheduleInOrder(due_, seq_, target, kind, arg, nullptr);
    }
    return false;
  }

 private:
  Time due_ = kTimeNever;
  uint64_t seq_ = 0;          // the tie-break place the current deadline took when it was set
  Time queued_ = kTimeNever;  // when the event waiting for this timer fires
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_TIMER_H_
