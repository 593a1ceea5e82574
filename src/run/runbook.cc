#include "run/runbook.h"

#include <utility>

#include "util/units.h"

namespace rocelab {

Runbook::Runbook(Fabric* fabric, std::function<void(const Monitor::Detection&)> act)
    : fabric_(fabric), act_(std::move(act)) {}

Time Runbook::Delay(const std::string& tier) const {
  const Scenario& sc = fabric_->scenario();
  if (tier == "T2") return sc.runbook_delay_t2;
  if (tier == "T3") return sc.runbook_delay_t3;
  return -1;
}

void Runbook::OnDetection(const Monitor::Detection& d, const std::string& tier) { Open(d, tier, nullptr); }

void Runbook::Escalate(const Monitor::Detection& d, const std::string& tier, std::function<void()> step) {
  Open(d, tier, std::move(step));
}

void Runbook::Open(const Monitor::Detection& d, const std::string& tier, std::function<void()> step) {
  const Time delay = Delay(tier);
  if (delay < 0) return;
  const Time due = fabric_->now() + delay;
  tickets_.push_back({d, tier, due, false, std::move(step)});
  fabric_->timeline().Add(fabric_->now(), "operator", "", -1, "runbook_ticket",
                          tier + " action for " + d.rule + " at " + d.location + ": due at " + FormatTime(due) +
                              " (operator delay " + FormatTime(delay) + ")");
  fabric_->ScheduleAt(due, this, 0, static_cast<uint32_t>(tickets_.size() - 1));
}

void Runbook::HandleEvent(uint32_t, uint32_t arg, Packet*) {
  Ticket& t = tickets_[arg];
  t.acted = true;
  if (t.step) t.step();
  else act_(t.detection);
}

}  // namespace rocelab
