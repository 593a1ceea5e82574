// report.html: one run on one self-contained page, for a person to read.
//
// The page is made from the run's files, not from the fabric, so `rocelab
// export html DIR` on a finished run writes the same bytes `rocelab run`
// wrote, and any output folder can be turned into a page:
//   summary.json  the scenario, totals, flows, workloads, faults, timeline and
//                 every device's counters (the topology comes from the switch
//                 ports' peers);
//   series.csv    (a `telemetry` section) the charts over time and the pause
//                 timeline; without it the page names the series that are off
//                 and shows the end-of-run figures from the counters;
//   findings      what diagnose makes of the folder.
//
// Sections, in order: run, findings, topology and congestion tree, faults and
// timeline, time series, pause timeline, end-of-run figures, workload results.
// docs/report.md says what each holds and the bounds that keep a page small
// (SeriesLimits; tables of a few dozen rows, the largest first).
//
// Everything from the inputs is escaped, nothing in the page runs or fetches,
// and nothing depends on the wall clock: a scenario and seed give the same
// bytes (summary.json's engine block is left out).
#ifndef ROCELAB_REPORT_HTML_REPORT_H_
#define ROCELAB_REPORT_HTML_REPORT_H_

#include <istream>
#include <string>
#include <vector>

#include "diagnose/diagnose.h"
#include "report/html_page.h"
#include "report/series_reader.h"

namespace rocelab {

struct RunReportInput {
  std::string summary_json;
  std::string summary_file;          // names it in errors
  std::istream* series = nullptr;    // series.csv (seekable), or nullptr: the run had no telemetry
  std::string series_file;
  std::vector<Diagnosis> findings;
  std::string findings_error;        // not empty: why there are no findings (diagnose refused the folder)
  SeriesLimits limits;
};

// The sections of one run's page. Throws ConfigError, naming the file and the key (or line),
// for a summary.json or series.csv that is not rocelab's.
std::vector<HtmlSection> RunReportSections(const RunReportInput& in);

// The page: the run's sections, then `more` (a part another command adds, say a comparison
// with other runs, built from html_page.h and svg_chart.h).
std::string RunReportHtml(const RunReportInput& in, const std::vector<HtmlSection>& more = {});

// The page of an output folder: DIR/summary.json, DIR/series.csv when there is one, and the
// findings of diagnose on DIR. Throws ConfigError for a folder without a readable summary.
// `more` sections follow the run's own.
std::string RunReportOfFolder(const std::string& dir, const std::vector<HtmlSection>& more = {});

// The page of a comparison of two runs' folders: `comparison` first, then A and B overlaid on the
// same time charts (B solid, A dashed, each with its faults' marks). Throws ConfigError as above.
std::string CompareReportOfFolders(const std::string& dir_a, const std::string& dir_b, const HtmlSection& comparison,
                                   const std::string& subtitle);

}  // namespace rocelab

#endif  // ROCELAB_REPORT_HTML_REPORT_H_
