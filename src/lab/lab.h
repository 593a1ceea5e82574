// A fault lab: a fabric that is running and broken, the symptom as a user
// would report it, and the checks that say it is fixed. The engineer works it
// as the course's chapters go: the symptom, the evidence (the commands used in
// production, lab/lab_session.h), the root cause, the action, the
// verification (`check`), the review.
#ifndef ROCELAB_LAB_LAB_H_
#define ROCELAB_LAB_LAB_H_

#include <string>
#include <vector>

#include "sim/time.h"

namespace rocelab {

// What `check` verifies, each over a verification window the lab runs for it.
enum class LabCheck {
  // The training job's goodput (its ring's payload delivered in order) within 5 % of the same
  // fabric without the fault, given the same changes (a link shut in both) and the same queue
  // pairs alive (those the fault killed fail in both): the job runs as fast as this fabric can
  // carry it. The job alone, not the whole fabric's goodput: while other flows share its links,
  // how DCQCN splits them depends on the run's history (the broken fabric's flows reach another
  // split than the twin's, and hold it for tens of ms), so a lab checks once they are done.
  kRingPace,
  // No frame dropped at any switch, in a lossless queue or a lossy one (a lab's traffic is all
  // RoCE: a drop in a lossy queue is RoCE that lost its lossless class).
  kNoDrops,
  // No switch port held paused by a host for more than a tenth of the window.
  kNoHostPause,
  // Every switch's ECN/WRED profile as its configuration gives it.
  kEcnAsConfigured,
  // Every switch's DSCP map, trust and PFC priorities as its configuration gives them.
  kQosAsConfigured,
  // No frame lost to a bad FCS on any link.
  kNoFcsErrors,
  // A PFC watchdog on every switch whose PFC is on.
  kWatchdogOn,
  // Every link delivers what is sent into it: no link where more than 1 % of the frames sent
  // (and more than 200) never arrive at the other end, counted or not.
  kNoFrameVanishes,
  // Every queue pair that has not finished delivered data in the window: no workload starved (a
  // host isolated for being slow takes the storage it serves down with it).
  kEveryFlowMoves,
  // Every switch's static routes are the configuration's (the scenario's `routes`), no other.
  kRoutesAsConfigured,
};
const char* LabCheckText(LabCheck c);

struct Lab {
  std::string name;      // "ecn_off"
  std::string title;     // "ECN disabled on one switch"
  std::string briefing;  // the ticket: what a user reports, in their words
  std::string scenario_yaml;
  std::string scenario_label;  // where the scenario came from, for its errors
  Time paged = 0;        // the fabric runs to this moment before the first prompt
  Time verify = 0;       // the verification window `check` runs
  std::vector<LabCheck> checks;
};

// The labs rocelab ships, in the course's order.
const std::vector<Lab>& Labs();
const Lab* FindLab(const std::string& name);
// A lab of a user's scenario (`lab start --scenario FILE`): its faults, a generic ticket, and the
// checks every lab has (the job's pace, no drops, the configuration as configured).
Lab LabOfScenario(const std::string& path, const std::string& yaml);

}  // namespace rocelab

#endif  // ROCELAB_LAB_LAB_H_
