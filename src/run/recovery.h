// What acts on the monitor's detections with `recovery: {mode: auto}`, as an
// operator's automation would, the moment a rule fires, on the rung of the
// response ladder the detection names (diagnose.h):
//   T1, congestion that congestion control is handling: nothing.
//   T2, PFC-level: a host whose pause storms (pfc.pause_storm): its switch port
//   ignores its pause and drops its traffic (the PFC watchdog's drop action),
//   so the congestion tree dissolves; lifted when the host stops pausing. A
//   storming host's senders get no CNPs (nothing reaches its NIC to send them),
//   so they go on at line rate and their frames cross the fabric only to be
//   dropped at its last hop: when a window drops more than a tenth of what the
//   host's link carries in it, the host is isolated (T3): its link shut, and
//   with it its route withdrawn, so the other switches drop what is sent to it
//   at their first hop once their routes converge. A
//   slow receiver (pfc.slow_receiver): ECN re-tuned on the queue feeding it,
//   marking earlier; if its pause spreads even so (pfc.congestion_tree rooted
//   at it), its pause is ignored and its traffic forwarded (the watchdog's
//   forward action), what it cannot take discarded at its NIC, counted. No
//   queue then builds for it, so nothing marks and its senders get no CNPs:
//   when its NIC discards more in a window than a tenth of what its link
//   carries in one, its senders are not slowed to what it takes in and their
//   frames cross the fabric to die at its NIC (go-back-N then delivers almost
//   nothing to it): the host is isolated (T3), as a storming one is.
//   A hot spot whose queue does not mark (ecn.pfc_without_ecn with ECN on, a
//   pfc.congestion_tree rooted at a switch): its ECN re-tuned to its profile.
//   T3, isolation and rollback: a link that loses frames (network.gray_drop,
//   network.probe_loss, physical.crc_errors) or flapped (physical.link_flap: downs counted over
//   the flap window) is shut and held down, so the fabric routes around it, unless hosts would be cut
//   off, or, for a link that is up and loses less than 5 % of its frames (gray drop, bit
//   errors, a flap), unless its ECMP siblings could not take what it carried in the last window
//   (CorrOpt's capacity constraint: Zhuo et al., SIGCOMM 2017): then it stays in service for a
//   person to repair, since a go-back-N fabric loses less to a few lost frames than to half its
//   uplinks; a link that went down once (physical.link_down) is left to the switches, which
//   route around it and take it back when it comes up;
//   drifted configuration is rolled back to the scenario's: ECN
//   (ecn.off, ecn.turned_off, ecn.pfc_without_ecn with ECN off),
//   classification and PFC priorities (qos.roce_in_lossy_queue, pfc.off_on_hop),
//   MTU (link.mtu_oversize), headroom (drop.lossless_pg_headroom), routes
//   (pfc.deadlock: static routes no configuration asks for, on every switch);
//   a deadlock is broken by draining one queue of its cycle for one window; a
//   host ignoring CNPs (cc.cnp_ignored) gets its reaction point back.
// Each action, once per place, is a timeline event with its tier; an action
// that would change nothing (the configuration is as configured) is not taken.
#ifndef ROCELAB_RUN_RECOVERY_H_
#define ROCELAB_RUN_RECOVERY_H_

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "run/monitor.h"
#include "topo/topology.h"

namespace rocelab {

class Recovery {
 public:
  // Tells `monitor` what an action leaves at a device on purpose (Monitor::Expect).
  Recovery(Experiment* x, Monitor* monitor) : x_(x), monitor_(monitor) {}

  // What was done, for a person (`action`) and for a program (`kind`, `rule`, `devices`,
  // `port`): summary.json carries both.
  struct Action {
    Time t;
    std::string tier, action;
    std::vector<std::string> devices;  // the devices it acted on (both ends of a link)
    std::string kind;  // shut_link, isolate_host, ignore_pause_drop, ignore_pause_forward, honour_pause,
                       // retune_ecn, rollback_ecn, rollback_qos, rollback_mtu, rollback_headroom,
                       // rollback_routes, drain_queue, stop_draining, restore_reaction_point
    std::string rule;  // the detection's rule it answers ("" for one that ends an earlier action)
    std::string port;  // the port it acted on, on devices[0] ("" for a whole device)
  };
  // A new detection: acts if a rule of the list above fired, once per place.
  void OnDetection(const Monitor::Detection& d);
  // A monitor window's evidence: lifts what lasts only while its cause does, and isolates a
  // stuck host that floods the fabric: at once, or, under a runbook, through `defer`.
  void OnWindow(const Evidence& window);
  // Under a runbook: a step that escalates an action already taken (the isolation a storm's drop
  // leads to) is handed to `defer` with the detection it answers and the step itself, for the
  // operator to take after the delay of its tier, instead of being taken at once.
  using Deferral = std::function<void(const Monitor::Detection&, std::function<void()>)>;
  void SetDefer(Deferral defer) { defer_ = std::move(defer); }
  // Whether `a` shut a link ("shut link A-B", "isolate H: shut its link A-B"): its devices are the
  // link's ends.
  static bool ShutsALink(const Action& a) { return a.kind == "shut_link" || a.kind == "isolate_host"; }
  const std::vector<Action>& actions() const { return actions_; }
  // The tier of the action detection `d` calls for ("" for none): what a runbook's operator
  // delay depends on (run/runbook.h).
  static std::string ActionTier(const Monitor::Detection& d);

 private:
  void Act(const std::string& tier, const std::string& kind, const std::string& rule, const std::string& what,
           std::vector<std::string> devices, const std::string& port);
  // `capacity`: only if its ECMP siblings can take its load (a link that still carries).
  // `again`: a link kept in service before, reconsidered (a new skip says nothing).
  void ShutLink(const Monitor::Detection& d, const std::string& why, bool capacity, bool again = false);
  // Why shutting `node`:`port` costs more than keeping it ("" when it does not): it loses few of
  // its frames and its ECMP siblings could not take what it and they carried since the last
  // window, each way, at their line rate.
  std::string KeepInService(int node, int port) const;
  // The share of the frames sent into `node`:`port`'s link, either way, since the last window
  // that did not arrive whole at the other end (vanished, or dropped for a bad FCS).
  double LossShare(int node, int port) const;
  void NoteTallies();
  const TopoPort* HostSwitchPort(const std::string& host, const std::string& key);
  void IgnorePause(const Monitor::Detection& d, bool drop);
  void RetuneEcnFacing(const Monitor::Detection& d);
  void BreakDeadlock(const Monitor::Detection& d);
  void RollBackLoopRoutes(const Monitor::Detection& d);
  void RollBackRoutes(const Monitor::Detection& d, const std::string& why);
  bool StillConnectedWithout(int node, int port) const;

  Experiment* x_;
  Monitor* monitor_;
  std::set<std::string> done_;  // what was acted on already
  std::vector<Action> actions_;
  // Pause ignored at a switch port for a host, until the host stops pausing.
  struct Ignored {
    int sw, port;
    std::string host;
    bool drop;                // its traffic dropped at the switch (a storm), or forwarded
    uint64_t dropped_before;  // the port's drop counts when it began
    uint64_t dropped_seen;    // ... at the end of the last window
    bool isolated = false;    // its link shut: nothing left to honour
    bool isolation_due = false;  // handed to a runbook's operator, not taken yet
    Time since = 0;              // when its pause was first ignored
  };
  // `rule` is the reading it escalates; `why` says what was counted ("10256 frames for it dropped
  // at leaf0:Ethernet0 in the last 1ms").
  void IsolateHost(Ignored* ig, const std::string& rule, const std::string& why);
  // Frames sent to the host `ig` and lost in the last window: dropped at its switch port (a
  // storm's drop action, read as `show pfcwd stats` counts them) or discarded at its NIC (the
  // forward action, `rx_discards_phy` in the window's evidence).
  uint64_t LostInWindow(Ignored* ig, const Evidence& w);
  std::vector<Ignored> ignored_;
  Deferral defer_;
  // A switch port drained for one window to break a deadlock.
  struct Drained {
    int sw, port;
    Time since;
    uint64_t dropped_before;  // the port's drop counts when it began
  };
  std::vector<Drained> drained_;
  // A lossy link kept in service because its siblings could not take its load: reconsidered
  // every window while it still loses frames, shut once they can; forgotten once it carries
  // frames and loses none.
  struct Kept {
    Monitor::Detection d;
    std::string why;
    int node, port;
  };
  std::vector<Kept> kept_;
  bool SameLink(const Kept& k, int node, int port) const;
  bool IsKept(int node, int port) const;
  void ForgetKept(int node, int port);
 public:
  // What a switch port sent and received.
  struct PortTally {
    uint64_t tx = 0, rx = 0;              // bytes
    uint64_t tx_frames = 0, rx_frames = 0;  // frames; rx_frames counts those with a bad FCS
    uint64_t crc_errors = 0;
  };

 private:
  // What `node`:`port` sent and received since the last window ended; the tallies at its end.
  PortTally Since(int node, int port) const;
  std::vector<std::vector<PortTally>> tallies_;
  Time tallies_at_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_RECOVERY_H_
