// Before and after: two runs (their --out folders, with summary.json) or two
// bundles of `rocelab collect` (manifest.json), or one of each, side by side:
//
//  - the settings that differ, per device (each device's `config` block of
//    summary.json, the switch buffer, and the run's own settings: scenario,
//    seed, workloads; a bundle's PFC, trust, DSCP map, DCQCN parameters, MTU
//    and speed per NIC port), A's value and B's;
//  - the figures that say how the fabric did, A's, B's and the change:
//    flows finished, FCT slowdown per size bucket, AllReduce busbw and
//    iteration time, storage IOPS and latency, pauses, ECN marks and CNPs,
//    drops by class and priority, and per switch the busiest and the least
//    loaded uplink (ECMP imbalance);
//  - a verdict, weighed as an engineer would: what was lost first, then the service the
//    workloads got, then the tails, then the mechanism (fewer pauses bought with loss is no
//    gain): "B is worse: ...", "B is better: ...", or "Mixed: ...".
//
// A bundle has counters and settings but no flows: its figures are the PFC,
// ECN, CNP and drop counters of its NIC ports, counted between its two
// samples, and each port's transmit utilization. A figure one side does not
// have is shown for the other alone. docs/compare.md says where every figure
// comes from.
//
// The Comparison is plain data in display order, so every renderer (the text
// table, JSON, report.html) walks the same rows.
#ifndef ROCELAB_REPORT_COMPARE_H_
#define ROCELAB_REPORT_COMPARE_H_

#include <optional>
#include <string>
#include <vector>

#include "report/html_page.h"

namespace rocelab {

// What one side is.
struct CompareInput {
  std::string path;   // as given
  std::string kind;   // "run" or "bundle"
  std::string title;  // "run incast-ar, seed 3, 1009.4 µs simulated" / "bundle of gpu-node-17, 1 port, 1 s"
  double seconds = 0; // the time its counters cover: simulated time, or between a bundle's samples (0: unknown)
};

// A setting that differs. `device` is "" for the run or bundle as a whole.
struct SettingChange {
  std::string device;
  std::string key;                 // "pfc_priorities", "dscp_to_priority.26", "workloads[1].bytes"
  std::optional<std::string> a, b; // as JSON writes them ([3], dscp, 102400); absent on that side: nullopt
};

// Which way a figure should move.
enum class Better { kNeither, kHigher, kLower };

// How much a headline figure weighs in the verdict, first first: what was lost (drops, failed
// queue pairs), then the service the workloads got (flows finished, bus bandwidth, iteration
// time, IOPS), then the tails (FCT slowdown, latency p99), then the mechanism (pauses), which
// is never a gain bought with loss.
enum class Weight { kNone, kLoss, kService, kTails, kMechanism };

// One figure of the table.
struct FigureChange {
  std::string section;  // "AllReduce", "PFC", ...
  std::string name;     // in its section: "iteration time (mean)"
  std::string label;    // alone, as the verdict says it: "AllReduce iteration time (mean)"
  std::string unit;     // "µs", "Gb/s", "%", "×", "" for a count
  std::optional<double> a, b;
  std::string a_detail, b_detail;  // what the value is of, where it varies: "Ethernet20 → spine1"
  Better better = Better::kNeither;
  Weight weight = Weight::kNone;  // a candidate for the verdict unless kNone
  bool headline() const { return weight != Weight::kNone; }

  bool changed() const { return a && b && *a != *b; }
  std::optional<double> change() const;      // b − a
  std::optional<double> change_pct() const;  // (b − a) / |a| × 100; nullopt when a is 0
};

struct Comparison {
  CompareInput a, b;
  // "B is worse: drops in lossy classes 0 → 1829; flows finished -60 % (15 → 6)", or what did
  // not change.
  std::string verdict;
  std::vector<std::string> also;  // the next headline figures that moved, shortest form
  std::vector<SettingChange> settings;
  std::vector<std::string> devices_only_in_a, devices_only_in_b;
  std::vector<FigureChange> figures;  // every figure either side has, in sections
  std::vector<std::string> notes;     // what the reader should know: different kinds, spans
};

// Reads both sides (a folder with summary.json or manifest.json, or either file) and compares
// them. Throws ConfigError naming the file (and line or key) for a side that is neither or
// cannot be read.
Comparison Compare(const std::string& path_a, const std::string& path_b);

// The terminal table: the verdict, the settings that differ (devices with the same changes
// on one line), then each section's figures with A, B and the change, absolute and in %.
std::string CompareText(const Comparison& c);
// The same as JSON; numbers as numbers, a value one side lacks as null.
std::string CompareJson(const Comparison& c);

// The same as a section of a page (report/html_page.h): the verdict, what A and B are, the
// settings that differ, each section's figures with A, B and the change (rows that got worse
// marked). `rocelab compare --html` puts it in run B's report.html.
HtmlSection CompareHtmlSection(const Comparison& c);

// Device names listed short: runs of consecutive numbers joined ("h0..h15, leaf0..leaf1").
std::string CompactDeviceNames(const std::vector<std::string>& names);

}  // namespace rocelab

#endif  // ROCELAB_REPORT_COMPARE_H_
