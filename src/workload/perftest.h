// perftest on a simulated fabric: ib_write_bw, ib_send_bw, ib_read_bw,
// ib_write_lat, ib_send_lat and ib_read_lat between two hosts, measured and printed the way linux-rdma
// perftest measures and prints them, so scripts that parse its output keep
// working.
//   bandwidth: tx_depth messages outstanding per QP; BW average = bytes x
//     iterations / (last completion - first post); BW peak = the best window
//     of consecutive messages; MB = 2^20 bytes, Gb = 10^9 bits.
//   latency: ping-pong; each sample is the time between two posts of the
//     client divided by 2 (a READ's round trip is not halved); the two
//     largest samples are dropped; typical is the median.
#ifndef ROCELAB_WORKLOAD_PERFTEST_H_
#define ROCELAB_WORKLOAD_PERFTEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace rocelab {

struct PerftestOptions {
  std::string test = "write_bw";  // write_bw, send_bw, read_bw, write_lat, send_lat, read_lat
  std::vector<uint64_t> sizes;    // empty: the test's default (65536 for bandwidth, 2 for latency)
  int iters = 0;                  // 0: 5000 for bandwidth, 1000 for latency
  int qps = 1;
  int tx_depth = 128;
  bool report_gbits = false;
  std::string src = "h0", dst = "h1";
};

struct PerftestBwRow {
  uint64_t bytes = 0, iters = 0;
  double bw_peak = 0, bw_average = 0, msg_rate_mpps = 0;
};

struct PerftestLatRow {
  uint64_t bytes = 0, iters = 0;
  double t_min = 0, t_max = 0, t_typical = 0, t_avg = 0, t_stdev = 0, p99 = 0, p999 = 0;  // usec
};

struct PerftestResult {
  bool bandwidth = true;
  std::vector<PerftestBwRow> bw;
  std::vector<PerftestLatRow> lat;
  std::string report;  // perftest's own layout
  bool qp_error = false;  // a queue pair failed (retries exhausted): the test stopped there
};

// All sizes perftest -a runs: 2 B to 8 MB, powers of two.
std::vector<uint64_t> PerftestAllSizes();

// Runs the test on the scenario's fabric. Throws ConfigError for unknown hosts or tests.
PerftestResult RunPerftest(const Scenario& sc, const PerftestOptions& options);

}  // namespace rocelab

#endif  // ROCELAB_WORKLOAD_PERFTEST_H_
