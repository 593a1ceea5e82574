// The faults' lifecycle figures (run/lifecycle.h) in summary.json: the keys
// each faults[] entry gains once the run is over, and the counterfactual's
// key figures beside the faults. docs/faults.md lists them.
#ifndef ROCELAB_REPORT_LIFECYCLE_JSON_H_
#define ROCELAB_REPORT_LIFECYCLE_JSON_H_

#include "run/lifecycle.h"
#include "util/json_writer.h"

namespace rocelab {

// Into the open faults[] object of fault `i`.
void WriteFaultLifecycle(JsonWriter& w, const FaultLifecycle& lc, const CostSpec& cost);

// "counterfactual": what the same run without its faults did (a scenario with faults only).
void WriteCounterfactual(JsonWriter& w, const Experiment& x);

}  // namespace rocelab

#endif  // ROCELAB_REPORT_LIFECYCLE_JSON_H_
