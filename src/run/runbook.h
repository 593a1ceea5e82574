// `recovery: {mode: runbook}`: detection and diagnosis stay automatic (the
// monitor), the actions wait for an operator. Each detection that calls for
// an action opens a ticket; the action is taken the operator's delay for its
// tier later (`recovery.delay.t2`, `recovery.delay.t3`; minutes by default),
// exactly then, by the same recovery that `auto` runs at once. A ticket due
// after the run has ended stays open: the fault's degraded period is then
// extrapolated to it (run/lifecycle.h says how).
#ifndef ROCELAB_RUN_RUNBOOK_H_
#define ROCELAB_RUN_RUNBOOK_H_

#include <functional>
#include <string>
#include <vector>

#include "net/fabric.h"
#include "run/monitor.h"

namespace rocelab {

class Runbook final : public EventSource {
 public:
  // `act` takes the action a detection calls for (Recovery::OnDetection, in the experiment).
  Runbook(Fabric* fabric, std::function<void(const Monitor::Detection&)> act);

  struct Ticket {
    Monitor::Detection detection;
    std::string tier;  // of the action it calls for
    Time due = 0;      // detection + the operator's delay for the tier
    bool acted = false;
    std::function<void()> step;  // an escalation's own step (Escalate); empty: the detection's action
  };
  // A detection whose action is of `tier` ("T2", "T3"; anything else opens nothing).
  void OnDetection(const Monitor::Detection& d, const std::string& tier);
  // A step that escalates an action already taken (recovery.h, Recovery::SetDefer): a ticket of
  // `tier` for detection `d` whose action, when due, is `step`.
  void Escalate(const Monitor::Detection& d, const std::string& tier, std::function<void()> step);
  const std::vector<Ticket>& tickets() const { return tickets_; }
  Time Delay(const std::string& tier) const;

  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  void Open(const Monitor::Detection& d, const std::string& tier, std::function<void()> step);

  Fabric* fabric_;
  std::function<void(const Monitor::Detection&)> act_;
  std::vector<Ticket> tickets_;
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_RUNBOOK_H_
