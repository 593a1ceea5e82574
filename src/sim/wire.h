// The frames in flight on one direction of a link. One transmitter and one
// fixed propagation delay mean they arrive in the order they were sent, so the
// event queue needs to hold only the first of them: the rest wait here, each
// with the time and sequence number it was scheduled with, and enter the queue
// when the frame ahead arrives. Events run in exactly the order they would if
// each frame were queued on its own, while the queue stays as small as the
// number of busy wires instead of the number of frames in flight.
#ifndef ROCELAB_SIM_WIRE_H_
#define ROCELAB_SIM_WIRE_H_

#include <cstdint>
#include <vector>

#include "sim/event_queue.h"

namespace rocelab {

class Wire final : public EventSource {
 public:
  // Frames reach `receiver` as event (`kind`, `arg`, frame). The wire must not move after this.
  void Connect(Simulator* sim, EventSource* receiver, uint32_t kind, uint32_t arg) {
    sim_ = sim;
    receiver_ = receiver;
    kind_ = kind;
    arg_ = arg;
  }

  // Puts `frame` on the wire; it arrives at `arrival`.
  void Send(Time arrival, Packet* frame) {
    const uint64_t seq = sim_->TakeSequence();
    if (!head_queued_) {
      head_queued_ = true;
      head_time_ = arrival;
      sim_->ScheduleInOrder(arrival, seq, this, 0, 0, frame);
    } else if (arrival >= (count_ ? At(count_ - 1).time : head_time_)) {
      Append({arrival, seq, frame});
    } else {
      // Overtakes a frame ahead (not on a real wire): it needs its own place in the queue.
      sim_->ScheduleInOrder(arrival, seq, receiver_, kind_, arg_, frame);
    }
  }

  void HandleEvent(uint32_t, uint32_t, Packet* frame) override {
    head_queued_ = false;
    if (count_) {
      const InFlight next = At(0);
      first_ = (first_ + 1) & (ring_.size() - 1);
      --count_;
      head_queued_ = true;
      head_time_ = next.time;
      sim_->ScheduleInOrder(next.time, next.seq, this, 0, 0, next.frame);
    }
    receiver_->HandleEvent(kind_, arg_, frame);
  }

  size_t CapacityBytes() const { return ring_.capacity() * sizeof(InFlight); }

 private:
  struct InFlight {
    Time time;
    uint64_t seq;
    Packet* frame;
  };

  InFlight& At(size_t i) { return ring_[(first_ + i) & (ring_.size() - 1)]; }

  void Append(const InFlight& f) {
    if (count_ == ring_.size()) {
      std::vector<InFlight> bigger(ring_.empty() ? 16 : ring_.size() * 2);
      for (size_t i = 0; i < count_; ++i) bigger[i] = At(i);
      ring_.swap(bigger);
      first_ = 0;
    }
    ring_[(first_ + count_) & (ring_.size() - 1)] = f;
    ++count_;
  }

  Simulator* sim_ = nullptr;
  EventSource* receiver_ = nullptr;
  uint32_t kind_ = 0, arg_ = 0;
  bool head_queued_ = false;
  Time head_time_ = 0;
  std::vector<InFlight> ring_;  // a power-of-two ring behind the queued head
  size_t first_ = 0, count_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_WIRE_H_
