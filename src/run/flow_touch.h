// Which queue pairs crossed each fault's target. A tap (net/port_tap.h) on
// every port of the target notes the queue pair of each frame sent, received
// or lost there, PFC frames aside, from the start of the run: the path the
// fabric actually used, ECMP choices, reroutes and retransmissions included,
// in either direction (a flow whose ACKs cross the target touched it too).
//
// The ports of a target: a link's two ends; a port; every port of a device (a
// host has one). A route_change has no target: the ports its routes name.
// A victim flow (run/lifecycle.h) is one that never touched the target.
#ifndef ROCELAB_RUN_FLOW_TOUCH_H_
#define ROCELAB_RUN_FLOW_TOUCH_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "fault/fault_injector.h"
#include "net/fabric.h"
#include "net/port_tap.h"

namespace rocelab {

class FlowTouch {
 public:
  // Taps the ports of every fault's target on `fabric`, which must outlive this.
  FlowTouch(Fabric* fabric, const FaultInjector& faults);
  ~FlowTouch();  // takes the taps off
  FlowTouch(const FlowTouch&) = delete;
  FlowTouch& operator=(const FlowTouch&) = delete;

  // Whether a frame of queue pair `qp` crossed fault `fault`'s target so far.
  bool Touched(size_t fault, uint32_t qp) const {
    return qp < touched_[fault].size() && touched_[fault][qp];
  }

 private:
  class Tap;
  void Note(const std::vector<size_t>& faults, const Packet& pkt);

  Fabric* fabric_;
  std::vector<std::unique_ptr<Tap>> taps_;
  std::vector<std::vector<uint8_t>> touched_;  // per fault, per queue pair id
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_FLOW_TOUCH_H_
