// What acts on the monitor's detections with `recovery: {mode: auto}`: the
// isolation and rollback step of the response ladder (T3), as an operator's
// automation would take it, the moment a rule fires:
//   frames vanishing on a link (network.gray_drop) or bit errors past FEC
//   (physical.crc_errors): shut the link, so the fabric routes around it;
//   ECN off or drifted on a switch (ecn.off, ecn.turned_off, ecn.pfc_without_ecn):
//   roll its ECN back to the configured profile;
//   RoCE in a lossy queue (qos.roce_in_lossy_queue): roll the switch's
//   classification and PFC priorities back;
//   a host that ignores CNPs (cc.cnp_ignored): re-enable its reaction point.
// T1 (congestion control) and T2 (the PFC watchdog and the NIC guard) act on
// their own. Each action, once per place, is a timeline event with its tier.
#ifndef ROCELAB_RUN_RECOVERY_H_
#define ROCELAB_RUN_RECOVERY_H_

#include <set>
#include <string>
#include <vector>

#include "run/monitor.h"

namespace rocelab {

class Recovery {
 public:
  explicit Recovery(Experiment* x) : x_(x) {}

  struct Action {
    Time t;
    std::string tier, action;
    std::vector<std::string> devices;  // the devices it acted on (both ends of a link)
  };
  // A new detection: acts if a rule of the list above fired, once per place.
  void OnDetection(const Monitor::Detection& d);
  const std::vector<Action>& actions() const { return actions_; }
  // The tier of the action a detection by `rule` calls for ("" for none): what a runbook's
  // operator delay depends on (run/runbook.h).
  static std::string ActionTier(const std::string& rule);

 private:
  void ShutLink(const std::string& location, const std::string& why);
  bool StillConnectedWithout(int node, int port) const;

  Experiment* x_;
  std::set<std::string> done_;  // what was acted on already
  std::vector<Action> actions_;
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_RECOVERY_H_
