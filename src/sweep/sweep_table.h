// `rocelab sweep --table DIR`: one row a run, in the campaign's order; the run's
// id, the value of each swept key (blank where the run leaves it as the base has
// it) and the chosen metrics (key_figures.h). As aligned text or as CSV.
#ifndef ROCELAB_SWEEP_SWEEP_TABLE_H_
#define ROCELAB_SWEEP_SWEEP_TABLE_H_

#include <string>
#include <vector>

#include "sweep/results_db.h"

namespace rocelab {

struct SweepTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// `metrics` empty: DefaultMetrics(), leaving out those no run has (an AllReduce's bandwidth in a
// sweep without one). A metric named that no run has is an error (ConfigError naming `file`).
SweepTable MakeSweepTable(const std::vector<RunRecord>& runs, const std::vector<std::string>& keys,
                          const std::vector<std::string>& metrics, const std::string& file);

std::string TableText(const SweepTable& t);
std::string TableCsv(const SweepTable& t);  // quoted as RFC 4180 says, a line a row

}  // namespace rocelab

#endif  // ROCELAB_SWEEP_SWEEP_TABLE_H_
