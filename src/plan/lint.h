// The change-review checklist for a lossless RoCE fabric: each check looks at
// the same fabric description the simulator runs and reports findings with a
// severity, the place (device, port, key), the evidence and the fix.
#ifndef ROCELAB_PLAN_LINT_H_
#define ROCELAB_PLAN_LINT_H_

#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace rocelab {

enum class Severity { kError, kWarning, kInfo };
const char* SeverityName(Severity s);

struct Finding {
  Severity severity;
  std::string check;  // pfc-enabled, roce-dscp-lossless, dscp-map-consistent, trust-mode, cnp-priority,
                      // ecn-enabled, ecn-before-pfc, headroom-cable, mtu, pfc-watchdog, ets-weights,
                      // deadlock-free, headroom-small-frames (info)
  std::string device, port, key;
  std::string evidence;
  std::string fix;
};

struct LintReport {
  std::vector<Finding> findings;
  int errors = 0, warnings = 0;
  int links_failed_and_checked = 0;
};

struct LintOptions {
  // Also check routing for deadlock cycles under every single link failure (the costly part on
  // fabrics of thousands of links).
  bool single_link_failures = true;
};

LintReport LintFabric(const Scenario& sc, const LintOptions& options = LintOptions());

}  // namespace rocelab

#endif  // ROCELAB_PLAN_LINT_H_
