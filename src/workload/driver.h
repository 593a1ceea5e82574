// A workload that drives queue pairs while the fabric runs (collectives,
// storage, ...), as opposed to the static flows decided before the run. The
// experiment starts each driver once, and asks it for its results when the run
// is over.
#ifndef ROCELAB_WORKLOAD_DRIVER_H_
#define ROCELAB_WORKLOAD_DRIVER_H_

#include <string>

namespace rocelab {

class JsonWriter;

class WorkloadDriver {
 public:
  virtual ~WorkloadDriver() = default;
  // Posts the first work and keeps the run going until the driver is done.
  virtual void Start() = 0;
  // One object in summary.json's "workloads" array.
  virtual void WriteSummary(JsonWriter& w) const = 0;
  // One line for the terminal summary of the run.
  virtual std::string ReportLine() const = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_WORKLOAD_DRIVER_H_
