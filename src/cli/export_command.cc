// rocelab export prom RUN_OUT_DIR|summary.json [--out FILE]
// (export openmetrics: export_openmetrics_command.cc)
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/cli.h"
#include "report/prometheus.h"
#include "util/config_error.h"
#include "util/text_file.h"

namespace rocelab {
namespace {

int ExportProm(const Args& a) {
  const std::string& given = a.positional()[0];
  const bool to_file = a.Has("--out");
  const std::string out = a.Get("--out");
  if (to_file) CheckOutputFile(out, "export prom: --out");
  struct stat st;
  if (::stat(given.c_str(), &st) != 0) throw UsageError("export prom: " + given + ": no such folder");
  // A run's output folder, or its summary.json named directly.
  const bool folder = S_ISDIR(st.st_mode);
  std::string file = given;
  if (folder) {
    while (file.size() > 1 && file.back() == '/') file.pop_back();
    file += "/summary.json";
  }
  std::string text, err;
  if (!ReadTextFile(file, &text, &err))
    throw UsageError("export prom: " + file + ": " + err + (folder ? " (is " + given + " a run's --out folder?)" : ""));
  std::string prom;
  try {
    prom = PrometheusText(text, file);
  } catch (const ConfigError& e) {
    throw UsageError(std::string("export prom: ") + e.what());
  }
  if (to_file) WriteFileAtomically(out, prom);
  else std::fwrite(prom.data(), 1, prom.size(), stdout);
  return kExitOk;
}

}  // namespace

void AddExportCommand(CLI::App* root) {
  CLI::App* e = AddCommand(root, "export", "A run's results in the formats other tools read", nullptr);
  CLI::App* prom = AddCommand(e, "prom",
                              "A run's counters in the Prometheus text format (docs/prometheus.md), from its summary.json",
                              ExportProm, "RUN_OUT_DIR", 1, 1);
  AddValue(prom, "--out", "FILE", "write FILE (atomically: a scraper never reads half of it) instead of standard output");
  AddExportOpenMetricsCommand(e);
}

}  // namespace rocelab
