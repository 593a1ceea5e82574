// Where the sources disagree and the reading a run takes changes what it concludes
// (docs/dcqcn.md measures each side by side): the readings this run relies on, each
// with the scenario key that takes the other one. `rocelab run` prints them and
// summary.json keeps them under "assumptions", so a result is never read without them.
#ifndef ROCELAB_RUN_ASSUMPTIONS_H_
#define ROCELAB_RUN_ASSUMPTIONS_H_

#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace rocelab {

struct Assumption {
  std::string key;          // the scenario key that changes it
  std::string assumed;      // the value the run takes, and on what ground
  std::string alternative;  // the other reading's value, and what it changes
};

// The readings `sc` relies on: none where its settings do not depend on a disputed one
// (congestion control off, the paper profile, a value set apart from both readings).
std::vector<Assumption> OutcomeAssumptions(const Scenario& sc);

}  // namespace rocelab

#endif  // ROCELAB_RUN_ASSUMPTIONS_H_
