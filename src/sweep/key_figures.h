// The figures of a run that a sweep compares across runs, read from its
// summary.json: they are the columns of the results database and the metrics
// `sweep --table` shows unless told others. A metric is one of these names or a
// key path into the summary (`totals.cnp_handled`, `fct_slowdown[<10KB].p99`,
// `workloads[0].iteration_ns[0]`), so nothing a summary holds is out of reach.
#ifndef ROCELAB_SWEEP_KEY_FIGURES_H_
#define ROCELAB_SWEEP_KEY_FIGURES_H_

#include <string>
#include <vector>

#include "util/json_value.h"

namespace rocelab {

struct KeyFigure {
  const char* name;  // the column's name
  const char* path;  // where it is in summary.json
  bool integer;      // a count (SQLite INTEGER) rather than a measure (REAL)
  const char* about;
  const char* unit;  // what its values count, for a plot's axis ("frames", "Gb/s")
};

// The unit of `metric`: a key figure's, or read from a key path's last name (`_ns`, `_gbps`,
// `_bytes`, `slowdown`); "" when it says none.
std::string MetricUnit(const std::string& metric);

// In the order of the database's columns.
const std::vector<KeyFigure>& KeyFigures();

// What `sweep --table` shows when neither the command nor the campaign names metrics: every
// figure that does not depend on the machine (not wall_s).
std::vector<std::string> DefaultMetrics();

// The value of `metric` in `summary`, nullptr if the summary has none (a run without flows has
// no FCT slowdown). Throws ConfigError naming `file` for a metric that is not a key path.
const JsonDocument* MetricValue(const JsonDocument& summary, const std::string& metric, const std::string& file);

// A value as a table cell: numbers as summary.json writes them, text as it is, "" for nothing.
std::string CellText(const JsonDocument* value);

}  // namespace rocelab

#endif  // ROCELAB_SWEEP_KEY_FIGURES_H_
