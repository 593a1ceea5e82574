// rocelab export openmetrics RUN_OUT_DIR|series.csv [--out FILE] [--start TIME] [--time-scale N]
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/cli.h"
#include "report/openmetrics.h"
#include "util/config_error.h"
#include "util/text_file.h"
#include "util/units.h"

namespace rocelab {
namespace {

OpenMetricsTime TimeArgs(const Args& a) {
  OpenMetricsTime t;
  std::string err;
  if (a.Has("--start") && !ParseStartTime(a.Get("--start"), &t.start_s, &err))
    throw UsageError("export openmetrics: --start: " + err);
  if (a.Has("--time-scale")) {
    if (!ParseNumber(a.Get("--time-scale"), &t.time_scale, &err))
      throw UsageError("export openmetrics: --time-scale: " + err);
    if (!(t.time_scale >= kMinTimeScale && t.time_scale <= kMaxTimeScale))
      throw UsageError("export openmetrics: --time-scale: " + a.Get("--time-scale") + " is not from " +
                       "1 to 1000000000");
  }
  return t;
}

int ExportOpenMetrics(const Args& a) {
  const std::string& given = a.positional()[0];
  const bool to_file = a.Has("--out");
  const std::string out = a.Get("--out");
  if (to_file) CheckOutputFile(out, "export openmetrics: --out");
  const OpenMetricsTime time = TimeArgs(a);
  // A run's output folder, or its series.csv named directly.
  bool folder;
  const std::string file = RunFileOf(given, "series.csv", "export openmetrics", &folder);
  struct stat st;
  if (folder && ::stat(file.c_str(), &st) != 0)
    throw UsageError("export openmetrics: " + file + ": no such file (series.csv is written by a run whose "
                     "scenario has a telemetry section: docs/telemetry.md)");
  std::string text, err;
  if (!ReadTextFile(file, &text, &err)) throw UsageError("export openmetrics: " + file + ": " + err);
  std::string om;
  try {
    om = OpenMetricsFromSeries(text, file, time);
  } catch (const ConfigError& e) {
    throw UsageError(std::string("export openmetrics: ") + e.what());
  }
  if (to_file) WriteFileAtomically(out, om);
  else std::fwrite(om.data(), 1, om.size(), stdout);
  return kExitOk;
}

}  // namespace

void AddExportOpenMetricsCommand(CLI::App* export_group) {
  CLI::App* c = AddCommand(export_group, "openmetrics",
                           "A run's time series (series.csv) as OpenMetrics with timestamps, for promtool tsdb "
                           "create-blocks-from openmetrics (docs/prometheus.md)",
                           ExportOpenMetrics, "RUN_OUT_DIR", 1, 1);
  AddValue(c, "--out", "FILE", "write FILE (atomically) instead of standard output");
  AddValue(c, "--start", "TIME",
           "the date simulated time 0 is shown at: 2026-01-01T00:00:00Z (the default) or seconds since 1970");
  AddValue(c, "--time-scale", "N",
           "shown seconds per simulated second, 1 to 1e9 (default 1000: 1 us simulated is 1 ms, Prometheus's "
           "resolution); samples closer than 1 ms after scaling are refused");
}

}  // namespace rocelab
