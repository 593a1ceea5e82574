// rocelab export prom RUN_OUT_DIR|summary.json [--out FILE]
// rocelab export html RUN_OUT_DIR|summary.json [--out FILE]
// (export openmetrics: export_openmetrics_command.cc)

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/cli.h"
#include "report/html_report.h"
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
  bool folder;
  const std::string file = RunFileOf(given, "summary.json", "export prom", &folder);
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

// ---- export html -----------------------------------------------------------------------------

int ExportHtml(const Args& a) {
  bool folder;
  const std::string file = RunFileOf(a.positional()[0], "summary.json", "export html", &folder);
  // The page reads the folder's other files too (series.csv): a summary.json named directly stands
  // for its folder, any other file for nothing.
  const std::string dir = FolderOf(file, false);
  const size_t slash = file.rfind('/');
  if (file.substr(slash == std::string::npos ? 0 : slash + 1) != "summary.json")
    throw UsageError("export html: " + file + ": give a run's output folder (or its summary.json)");
  const std::string out = a.Has("--out") ? a.Get("--out") : dir + "/report.html";
  CheckOutputFile(out, "export html: --out");
  std::string html;
  try {
    html = RunReportOfFolder(dir);
  } catch (const ConfigError& e) {
    throw UsageError(std::string("export html: ") + e.what() + (folder ? "" : " (is it a run's summary.json?)"));
  }
  WriteFileAtomically(out, html);
  return kExitOk;
}

void AddExportHtml(CLI::App* e) {
  CLI::App* html = AddCommand(e, "html",
                              "A run's report.html (docs/report.md) from its output folder: summary.json, series.csv "
                              "if there, and the diagnosis",
                              ExportHtml, "RUN_OUT_DIR", 1, 1);
  AddValue(html, "--out", "FILE", "write FILE instead of RUN_OUT_DIR/report.html (atomically)");
}

}  // namespace

void AddExportCommand(CLI::App* root) {
  CLI::App* e = AddCommand(root, "export", "A run's results in the formats other tools read", nullptr);
  CLI::App* prom = AddCommand(e, "prom",
                              "A run's counters in the Prometheus text format (docs/prometheus.md), from its summary.json",
                              ExportProm, "RUN_OUT_DIR", 1, 1);
  AddValue(prom, "--out", "FILE", "write FILE (atomically: a scraper never reads half of it) instead of standard output");
  AddExportHtml(e);
  AddExportOpenMetricsCommand(e);
}

}  // namespace rocelab
