// What a monitoring system sees, and what it makes of it. Every window
// (`monitor.interval`, scaled with the agents' timers, on the fabric's one
// sampler with the time series: telemetry/sampler.h) it reads every device's
// counters as a collector scraping SONiC's COUNTERS_DB and the hosts would: what
// each device's last poll of each counter group wrote (run/counter_db.h), not
// the hardware's count at that moment. It runs diagnose's rules on the window's deltas: the same rule set, with the same rule
// ids, that `rocelab diagnose` runs on a summary or a bundle. A finding that
// was not there in the previous window is a detection, on the timeline
// ("detected") and in the list below; the faults' lifecycle figures (when each
// fault was detected, by which rule, localized where) come from it.
//
// Each detection carries its rung of the response ladder (diagnose.h). T1 is
// congestion that congestion control is handling (a hot spot whose queue marks
// ECN while CNPs flow): it is recorded, as a "congestion" timeline event, but
// it is no fault's detection and nothing acts on it. T2 and T3 are faults.
//
// Only counters are read (no simulator state), and only the layers a monitor
// watches: physical, link, network, transport.
#ifndef ROCELAB_RUN_MONITOR_H_
#define ROCELAB_RUN_MONITOR_H_

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "diagnose/diagnose.h"  // LocationDevice
#include "diagnose/evidence.h"
#include "run/counter_db.h"
#include "sim/event_queue.h"

namespace rocelab {

class Experiment;
class Fabric;

// The switches' routing tables as a monitor reads them from the devices, with every change it
// heard of since it subscribed: the routes in force (static routes and reroutes included) and
// every exception set since. A queue can hold packets routed by any table of the run, so a
// route that has been put right still feeds (the loop that left a deadlock behind it).
class FabricRoutes final : public RouteView {
 public:
  explicit FabricRoutes(const Fabric* fabric) : fabric_(fabric) {}
  bool Feeds(const std::string& device, const std::string& port, const std::string& peer,
             const std::string& peer_port) const override;
  // An exception of switch node `node` toward host `host` was set to `ports`.
  void Heard(int node, int host, const std::vector<uint16_t>& ports);

 private:
  bool Routes(int node, int host, int port) const;  // now, or by an exception heard of
  const Fabric* fabric_;
  std::map<std::pair<int, int>, std::vector<uint16_t>> heard_;  // (node, host) -> every port set
};

class Monitor {
 public:
  // Takes its first sample now (the baseline) and one per window after.
  explicit Monitor(Experiment* x);
  ~Monitor();
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

  struct Detection {
    Time t;
    std::string rule, location, title;
    std::string tier;  // T1 (congestion), T2, T3
    // Non-empty when a recovery action caused it (the link recovery shut is down): why. It is
    // the action's, a "recovery_effect" timeline event, no fault's detection, and nothing acts
    // on it.
    std::string caused_by;
    bool fault() const { return tier != "T1" && caused_by.empty(); }
    // Whether it names where a fault is: a port paused by its peer shows where pause arrives,
    // not where it comes from (the root has its own finding: a storm, a tree, a deadlock).
    bool localizes() const { return rule != "pfc.paused_share"; }
  };
  const std::vector<Detection>& detections() const { return detections_; }
  // Called with each new detection as it is made (recovery acts on it), and with each window's
  // evidence after its detections (recovery lifts what lasts only while its cause does).
  void SetOnDetection(std::function<void(const Detection&)> f) { on_detection_ = std::move(f); }
  void SetOnWindow(std::function<void(const Evidence&)> f) { on_window_ = std::move(f); }
  // The first window that ended after `t` in which no finding above T1 named any of `devices`
  // (findings Expect()ed there aside); -1 if none.
  Time QuietAfter(Time t, const std::vector<std::string>& devices) const;
  // From now on, `rule` at `device` is what an action left there on purpose (a NIC told to stop
  // pausing discards what it cannot take): it does not keep the device from being quiet.
  void Expect(const std::string& rule, const std::string& device) { expected_.insert({rule, device}); }
  Time window() const { return window_; }
  // When the first window ends (within the first interval; 0: at its end): the scrapes' phase.
  Time phase() const { return phase_; }


 private:
  Evidence Snapshot() const;
  void Window();

  Experiment* x_;
  FabricRoutes routes_;
  Time window_;
  Time phase_ = 0;
  std::unique_ptr<CounterDb> db_;
  // Per port, per counter group: the poll the last window read.
  std::vector<std::array<CounterPoll, kCounterGroups>> seen_polls_;
  // Per port, when devices are polled apart: its link counters at its own group's last polls,
  // since its link last went down or its counters were cleared (PortEvidence::link_polls). 30
  // port polls: 30 s of a SONiC switch's.
  static constexpr size_t kLedgerPolls = 30;
  std::vector<std::vector<LinkPoll>> ledgers_;
  Evidence prev_;  // the live read of the last window: the watchdog's statistics, the probes
  Time prev_t_ = 0;
  // (rule, location) -> the last window it was found in. A finding is a new detection when it
  // was not found in the last kQuiet windows: one that comes and goes is not re-detected each time.
  static constexpr uint64_t kQuiet = 5;
  std::map<std::pair<std::string, std::string>, uint64_t> seen_;
  // A deadlock is a cycle of stopped queues that holds: a wait-for cycle seen in this many
  // windows in a row (a congestion tree can stop every queue of a loop for one window).
  static constexpr uint64_t kDeadlockWindows = 2;
  std::optional<Diagnosis> last_cycle_;  // the last window's pfc.deadlock finding, if it had one
  uint64_t deadlock_windows_ = 0;  // windows in a row with a cycle, up to this one
  uint64_t windows_ = 0;
  std::vector<Detection> detections_;
  std::function<void(const Detection&)> on_detection_;
  std::function<void(const Evidence&)> on_window_;
  // Per window: its end and the devices its findings above T1 named.
  std::vector<std::pair<Time, std::set<std::string>>> named_;
  std::set<std::pair<std::string, std::string>> expected_;  // (rule, device)
  // The link-flap count (diagnose.h: kFlapDowns in kFlapWindowSeconds, scaled with the timers):
  // per port, the windows in that span that saw it go down, with how often.
  Time flap_window_;
  std::map<std::string, std::deque<std::pair<Time, double>>> downs_;
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_MONITOR_H_
