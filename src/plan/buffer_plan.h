// The buffer budget of every switch in a fabric: per port and lossless
// priority group the headroom it must reserve, what that leaves of the shared
// pool, and a verdict when it does not fit.
#ifndef ROCELAB_PLAN_BUFFER_PLAN_H_
#define ROCELAB_PLAN_BUFFER_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace rocelab {

struct PortBudget {
  std::string port, peer;
  uint64_t rate_bps = 0;
  Time delay = 0;
  uint64_t headroom_per_pg = 0;
};

struct SwitchBudget {
  std::string name;
  uint64_t buffer = 0;
  int lossless_pgs = 0;
  std::vector<PortBudget> ports;
  uint64_t headroom_total = 0;  // every lossless PG's headroom, summed
  // What the headroom takes from the buffer: headroom_total, or the shared headroom pool that
  // holds it (over_subscribe_ratio > 0; the pool's size is this).
  double over_subscribe_ratio = 0;
  uint64_t headroom_reserved = 0;
  int64_t shared_left = 0;
  bool fits = true;
  std::string verdict;
};

std::vector<SwitchBudget> PlanBuffers(const Scenario& sc);

}  // namespace rocelab

#endif  // ROCELAB_PLAN_BUFFER_PLAN_H_
