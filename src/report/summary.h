// summary.json: the run's result. Everything here is counted by the
// simulation; the wall-clock figures live only under "engine", so two runs of
// the same scenario and seed differ nowhere else.
#ifndef ROCELAB_REPORT_SUMMARY_H_
#define ROCELAB_REPORT_SUMMARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "net/fabric.h"
#include "run/experiment.h"

namespace rocelab {

struct Totals {
  uint64_t drops_lossless = 0, drops_lossy = 0;
  uint64_t pause_frames_tx = 0, pause_frames_rx = 0;
  uint64_t ecn_marked = 0, cnp_sent = 0, cnp_handled = 0;
  uint64_t retransmitted_packets = 0, crc_errors = 0, qp_errors = 0;
  uint64_t bytes_delivered = 0;
  uint64_t timeouts = 0;
  uint64_t queue_peak_bytes = 0;  // the deepest any switch egress queue got
};

Totals ComputeTotals(const Fabric& fabric);

// FCT slowdown (FCT / ideal FCT) percentiles of finished flows, overall and per size bucket.
struct SlowdownRow {
  std::string bucket;  // "all", "<10KB", "10KB-100KB", "100KB-1MB", ">=1MB", and short "<100KB", long ">=100KB"
  size_t count = 0;
  double p50 = 0, p95 = 0, p99 = 0;
};
std::vector<SlowdownRow> SlowdownTable(const Fabric& fabric);

// How much of each device summary.json carries: every host and switch port, only those that
// saw traffic (a large fabric with a few flows), or none (the flows and totals only). The
// "device_counters" key says which, so a reader knows a missing device counted nothing.
enum class DeviceCounters { kAll, kNonzero, kNone };
const char* DeviceCountersName(DeviceCounters c);

std::string SummaryJson(const Experiment& run, DeviceCounters counters = DeviceCounters::kAll);
// Only what the devices count and how they are set (summary.json's hosts and switches, with
// sim_time_ns), as a collector polls them mid-run: every device's, or only `device`'s.
std::string DeviceCountersJson(const Experiment& run, const std::string& device = "");

}  // namespace rocelab

#endif  // ROCELAB_REPORT_SUMMARY_H_
