// series.csv (telemetry/series.h writes it) read row by row: the one reader of the file's
// format, under the report's charts (series_reader.h) and the OpenMetrics export
// (openmetrics.h).
#ifndef ROCELAB_REPORT_SERIES_ROWS_H_
#define ROCELAB_REPORT_SERIES_ROWS_H_

#include <functional>
#include <istream>
#include <string>

namespace rocelab {

// The header line, without its newline.
extern const char kSeriesCsvHeader[];

// One data row, checked: a time that is not negative, a device, a priority of 0..7 or none,
// a metric, a finite value.
struct SeriesRow {
  double t_ns = 0, value = 0;
  std::string device, port, metric;
  int priority = -1;  // -1: the field is empty
  int column[6] = {};  // where each field starts on its line, from 1
};

// Reads `in` from its start (it is rewound, so a caller may read a file twice), checks the
// header, and hands each data row to `row` with its line number; blank lines are skipped, a
// spreadsheet's byte-order mark and CR line ends are taken. Throws ConfigError naming `file`,
// the line, the column and the field for text that is not a rocelab series.csv.
void ForEachSeriesRow(std::istream& in, const std::string& file,
                      const std::function<void(const SeriesRow& row, int line)>& row);

// The ConfigError a reader of rows throws about one of them: field `index` (0 = t_ns .. 5 =
// value) of `row` on `line`.
[[noreturn]] void FailSeriesRow(const std::string& file, int line, const SeriesRow& row, int index,
                                const std::string& what);

}  // namespace rocelab

#endif  // ROCELAB_REPORT_SERIES_ROWS_H_
