// The run's timeline: what happened to the fabric, in time order. Faults
// injected and cleared, carriers going down and up, ECMP groups pruned and
// restored, routes converging, queue pairs failing; later, every agent's
// action. Devices append as things happen; events at the same instant keep
// the order in which the event loop ran them, so the same scenario and seed
// give the same timeline byte for byte.
#ifndef ROCELAB_TELEMETRY_TIMELINE_H_
#define ROCELAB_TELEMETRY_TIMELINE_H_

#include <string>
#include <utility>
#include <vector>

#include "sim/time.h"

namespace rocelab {

struct TimelineEvent {
  Time t = 0;
  std::string device;  // a host or switch name; "fabric" for what no one device does
  std::string port;    // "Ethernet8" on a switch, the netdev on a host; empty: the whole device
  int priority = -1;   // -1: not about one priority
  std::string event;   // a word: fault_injected, carrier_down, ecmp_pruned, routes_converged, qp_error...
  std::string detail;  // one line for a person
};

class Timeline {
 public:
  void Add(Time t, std::string device, std::string port, int priority, std::string event, std::string detail) {
    events_.push_back({t, std::move(device), std::move(port), priority, std::move(event), std::move(detail)});
  }
  const std::vector<TimelineEvent>& events() const { return events_; }
  bool empty() const { return events_.empty(); }

 private:
  std::vector<TimelineEvent> events_;
};

}  // namespace rocelab

#endif  // ROCELAB_TELEMETRY_TIMELINE_H_
