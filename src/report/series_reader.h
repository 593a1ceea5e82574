// series.csv (series.h) read back for charts: for each metric the few series
// worth drawing, thinned to a bounded number of points, and the pause state
// as spans of time.
//
// The file may be far larger than memory (a long run sampled every 100 ns), so
// it is read twice as a stream: the first pass finds every series' peak and
// the sampling interval, the second keeps points of the chosen series only.
// What is kept is bounded whatever the file's size:
//  - per metric, the `lines` series with the highest peaks, the larger sum
//    first among equal peaks (for pause_state, the `pause_rows` ports paused
//    longest);
//  - per series, every sample while there are at most `points` of them; past
//    that, for each of points/2 equal slices of the run, its lowest and its
//    highest sample in time order (the envelope: peaks and dips survive);
//  - per pause row, spans closer than 1/1000 of the run merged.
//
// The file writes a value only while it is not zero, and once when it returns
// to zero; a series is therefore zero before its first row and between a zero
// row and the next. Points at zero are put back one interval before a series
// leaves zero, so a line rises where the value did.
#ifndef ROCELAB_REPORT_SERIES_READER_H_
#define ROCELAB_REPORT_SERIES_READER_H_

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "report/svg_chart.h"

namespace rocelab {

struct SeriesLimits {
  size_t lines = 8;        // series per metric drawn
  size_t pause_rows = 24;  // port/priority rows of the pause timeline
  size_t points = 2000;    // points per series, at most
};

// One series of the file: an element's metric.
struct SeriesTrace {
  std::string device, port;
  int priority = -1;  // -1: none in the file
  double peak = 0;    // its largest value
  double held_ns = 0; // pause_state: time it was 1 (samples at 1 x interval)
  size_t rows = 0;    // rows of the file
  std::vector<ChartPoint> points;  // as drawn (thinned); empty for pause_state
  std::vector<ChartSpan> spans;    // pause_state: when it was 1 (titles empty)
};

struct MetricTraces {
  std::string metric;            // queue_depth, ...
  size_t series = 0;             // distinct series of the metric in the file
  size_t rows = 0;               // rows of the metric in the file
  std::vector<SeriesTrace> top;  // the chosen ones, largest first
};

struct SeriesData {
  size_t rows = 0;           // data rows of the file
  double interval_ns = 0;    // the sampling interval, from the distance between sample times
  double last_t_ns = 0;      // the last sample's time
  std::vector<MetricTraces> metrics;  // in the order of SeriesMetricNames(), then any other metric the file has
};

// The metrics series.csv can hold, in the order the report draws them.
const std::vector<std::string>& SeriesMetricNames();

// Reads `in` (positioned at the start; it must be seekable: read twice) as series.csv.
// `t_end_ns` is the run's end (the slices of thinning divide [0, t_end_ns]; a later sample
// widens it). Throws ConfigError naming `file`, the line and the column for text that is not
// a rocelab series.csv.
SeriesData ReadSeries(std::istream& in, const std::string& file, double t_end_ns, const SeriesLimits& limits = {});

}  // namespace rocelab

#endif  // ROCELAB_REPORT_SERIES_READER_H_
