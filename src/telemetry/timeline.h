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

// A monitor's finding as its timeline event ("detected" or "congestion") words it:
// "T2 pfc.pause_storm at h0 (mlx5_0/eth0): pause storm: ...". A location holds no ": " (a port is
// "leaf0:Ethernet8"), so the first one after " at " ends it; the title may hold more.
struct MonitorFinding {
  std::string tier, rule, location, title;
};

inline std::string MonitorDetail(const MonitorFinding& f) { return f.tier + " " + f.rule + " at " + f.location + ": " + f.title; }

// Reads a monitor event's detail back; false for a detail of another form.
inline bool ParseMonitorDetail(const std::string& detail, MonitorFinding* f) {
  const size_t tier_end = detail.find(' ');
  if (tier_end == std::string::npos) return false;
  const size_t at = detail.find(" at ", tier_end + 1);
  if (at == std::string::npos) return false;
  const size_t colon = detail.find(": ", at + 4);
  if (colon == std::string::npos) return false;
  f->tier = detail.substr(0, tier_end);
  f->rule = detail.substr(tier_end + 1, at - tier_end - 1);
  f->location = detail.substr(at + 4, colon - at - 4);
  f->title = detail.substr(colon + 2);
  return !f->rule.empty() && f->rule.find(' ') == std::string::npos && f->tier.size() == 2 && f->tier[0] == 'T';
}

}  // namespace rocelab

#endif  // ROCELAB_TELEMETRY_TIMELINE_H_
