// The frames in flight on one direction of a link. One transmitter and one
// fixed propagation delay mean they arrive in the order they were sent, so the
// event queue needs to hold only the first of them: the rest wait here, each
// with the time and sequence number it was scheduled with, and enter the queue
// when the frame ahead arrives. Events run in exactly the order they would if
// each frame were queued on its own, while the queue stays as small as the
// number of busy wires instead of the number of frames in flight.
//
// The frames wait in a chain through Packet::next, and each carries the arrival
// time and sequence number of the one behind it: an arrival reads only the frame
// it delivers, which the receiver is about to read anyway. A ring of its own per
// wire cost a cache miss on every arrival of a large fabric.
#ifndef ROCELAB_SIM_WIRE_H_
#define ROCELAB_SIM_WIRE_H_

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/event_queue.h"
#include "sim/packet.h"

namespace rocelab {

class Wire final : public Relay {
 public:
  // Frames reach `receiver` as event (`kind` < 2^16, `arg`, frame). The wire must not move
  // after this. The kind and the receiver's HotLines are kept in 16 bits each, so that the wire
  // fits its port's first line; one that does not fit is a fault of the program, refused here.
  void Connect(Simulator* sim, EventSource* receiver, uint32_t kind, uint32_t arg) {
    const uint32_t lines = receiver->HotLines();
    if (kind >> 16 || lines >> 16)
      throw std::logic_error("Wire::Connect: event kind " + std::to_string(kind) + " or hot lines " +
                             std::to_string(lines) + " past 16 bits");
    sim_ = sim;
    receiver_ = receiver;
    receiver_lines_ = static_cast<uint16_t>(lines);
    kind_ = static_cast<uint16_t>(kind);
    arg_ = arg;
  }

  // Puts `frame` on the wire; it arrives at `arrival`.
  void Send(Time arrival, Packet* frame) {
    const uint64_t seq = sim_->TakeSequence();
    frame->next = nullptr;
    if (!tail_) {
      tail_ = frame;
      tail_arrival_ = arrival;
      sim_->ScheduleInOrder(arrival, seq, this, kRelayed, receiver_lines_, frame);
    } else if (arrival >= tail_arrival_) {
      tail_->next = frame;
      tail_->wire_next_arrival = arrival;
      tail_->wire_next_seq = seq;
      tail_ = frame;
      tail_arrival_ = arrival;
    } else {
      // Overtakes a frame ahead (not on a real wire): it needs its own place in the queue.
      sim_->ScheduleInOrder(arrival, seq, receiver_, kind_, arg_, frame);
    }
  }

  void Prefetch(uint32_t, uint32_t, const Packet* frame) const override { receiver_->Prefetch(kind_, arg_, frame); }

  void HandleEvent(uint32_t, uint32_t, Packet* frame) override {
    if (Packet* next = frame->next) {
      sim_->ScheduleInOrder(frame->wire_next_arrival, frame->wire_next_seq, this, kRelayed, receiver_lines_, next);
    } else {
      tail_ = nullptr;
    }
    receiver_->HandleEvent(kind_, arg_, frame);
  }

 private:
  uint16_t kind_ = 0;  // first: it fills the end of the Relay's last word
  uint32_t arg_ = 0;
  Simulator* sim_ = nullptr;
  Packet* tail_ = nullptr;  // the last frame sent, null when none is in flight
  Time tail_arrival_ = 0;
};

static_assert(sizeof(Wire) <= 48, "a wire leaves a port's first line room for its fault and capture pointers");

}  // namespace rocelab

#endif  // ROCELAB_SIM_WIRE_H_
