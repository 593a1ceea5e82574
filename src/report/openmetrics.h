// A run's time series (series.csv, series.h) as an OpenMetrics text file with
// timestamps, for `promtool tsdb create-blocks-from openmetrics`: the blocks it
// makes go into a Prometheus server's data folder, and Grafana then browses
// the run over (stretched) simulated time. docs/prometheus.md shows how.
//
// Each series.csv metric is one gauge family, rocelab_series_<metric>_<unit>,
// with labels device, port and priority (left out where series.csv leaves it
// empty). Units are Prometheus base units: Gb/s become bytes per second.
//
// Simulated time starts at 0 and moves in microseconds; Prometheus keeps one
// sample per millisecond per series and wants timestamps in seconds since
// 1970. So each sample is placed at
//
//   start + t_ns x time_scale, rounded to the millisecond
//
// start is a fixed date by default (the same file for the same run), and the
// default time_scale 1000 shows 1 us of simulated time as 1 ms: a series
// sampled every 10 us (telemetry's default interval) is a point every 10 ms.
// Two samples of one series that would share a millisecond are an error that
// names the smallest time scale keeping them apart: Prometheus would keep only
// one of them.
#ifndef ROCELAB_REPORT_OPENMETRICS_H_
#define ROCELAB_REPORT_OPENMETRICS_H_

#include <cstdint>
#include <string>

namespace rocelab {

struct OpenMetricsTime {
  // Seconds since 1970-01-01T00:00:00Z of simulated time 0: 2026-01-01T00:00:00Z.
  int64_t start_s = 1767225600;
  // Wall-clock seconds shown per simulated second.
  double time_scale = 1000;
};

// The OpenMetrics text (ending in "# EOF") of a series.csv's text; `file` names it in errors.
// Throws ConfigError naming the file, line and column for text that is not a rocelab
// series.csv, and for two samples of a series closer than 1 ms at the time scale.
std::string OpenMetricsFromSeries(const std::string& series_csv, const std::string& file, const OpenMetricsTime& time);

// Reads "2026-01-01T00:00:00Z" (UTC, RFC 3339 with a Z and no fraction) or whole seconds since
// 1970 into `seconds`; false, with `error`, for anything else or a date before 1970 or after 9999.
bool ParseStartTime(const std::string& text, int64_t* seconds, std::string* error);
// The UTC date `seconds` names, as ParseStartTime reads it: "2026-01-01T00:00:00Z".
std::string FormatStartTime(int64_t seconds);

// The time scales a user may give: 1 (real time) to 1e9.
constexpr double kMinTimeScale = 1, kMaxTimeScale = 1e9;

}  // namespace rocelab

#endif  // ROCELAB_REPORT_OPENMETRICS_H_
