// Time series: what series.csv holds during a run, checked against what the
// run counted, and the sampler's memory staying flat over simulated time.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <string>

#include "report/series.h"
#include "series_rows.h"
#include "test_util.h"

namespace rocelab {
namespace {

using Row = SeriesRow;

// Runs `yaml` with a sampler writing to a temporary file; returns the rows.
std::vector<Row> Sample(const std::string& yaml, TestRun* run, size_t* memory = nullptr) {
  *run = StartYaml(yaml);
  std::FILE* f = std::tmpfile();
  SeriesSampler sampler(&**run, f);
  run->run->Run();
  if (memory) *memory = sampler.MemoryBytes();
  std::fflush(f);
  std::rewind(f);
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  std::vector<Row> rows = SeriesRows(text);
  EXPECT_EQ(rows.size(), sampler.rows());
  return rows;
}

// 4 -> 1 under PFC alone: the queue toward h0 holds the backlog, the link toward h0 is busy the
// whole time, the flows share it, and the senders are paused at times.
TEST(Series, IncastQueueLinkFlowsAndPausesAgreeWithTheRun) {
  std::string yaml =
      "duration: 20ms\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 5}\n"
      "nic: {cc: none}\n"
      "telemetry: {interval: 10us}\n"
      "workload:\n" + FlowsTo(1, 4, "h0", "4MB");
  TestRun run;
  const std::vector<Row> rows = Sample(yaml, &run);
  const Fabric& f = *run;
  const Time end = f.now();
  double max_queue = 0, util_sum = 0;
  int util_n = 0, paused_rows = 0;
  std::map<double, double> rate_at;  // sample time -> sum of the flows' rates
  for (const Row& r : rows) {
    EXPECT_LE(r.t, static_cast<double>(end) / kNanosecond + 1e-3);
    if (r.metric == "queue_depth" && r.device == "leaf0" && r.port == "Ethernet0" && r.priority == 3)
      max_queue = std::max(max_queue, r.value);
    // A frame that straddles two samples counts in each for its part on the wire there.
    if (r.metric == "link_util") {
      EXPECT_LE(r.value, 1.0 + 1e-9) << r.device << " " << r.port << " at " << r.t;
    }
    if (r.metric == "link_util" && r.device == "leaf0" && r.port == "Ethernet0" && r.t > 20000 && r.t < 1200000) {
      util_sum += r.value;
      ++util_n;
    }
    if (r.metric == "pause_state" && r.device.size() == 2 && r.device[0] == 'h' && r.value == 1) ++paused_rows;
    if (r.metric == "flow_rate") rate_at[r.t] += r.value;
  }
  // The deepest sample is near the queue's watermark, which falls between two samples.
  const double watermark = static_cast<double>(f.sw("leaf0").queue_counters(0, 3).watermark_bytes);
  EXPECT_LE(max_queue, watermark);
  EXPECT_GE(max_queue, 0.97 * watermark);
  ASSERT_GT(util_n, 50);
  EXPECT_GT(util_sum / util_n, 0.97) << "the bottleneck is busy all the time";
  EXPECT_GT(paused_rows, 0);
  // 16 MB over the bottleneck at 100G and 4096/4158 payload efficiency: 1.36 ms at least; the
  // per-sample sums stay under the link rate.
  double delivered = 0;
  for (const auto& [t, gbps] : rate_at) {
    EXPECT_LE(gbps, 100.0 * 4096 / 4158 * 1.02) << "at " << t;
    delivered += gbps * 1e9 / 8 * 10e-6;
  }
  EXPECT_NEAR(delivered, 16.0 * (1 << 20), 0.01 * 16 * (1 << 20)) << "the rates add up to what was delivered";
}

// DCQCN's rate cuts are visible per QP.
TEST(Series, CcRateShowsTheCuts) {
  std::string yaml =
      "duration: 20ms\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 9}\n"
      "telemetry: {interval: 20us, series: [cc_rate]}\n"
      "workload:\n" + FlowsTo(1, 8, "h0", "4MB");
  TestRun run;
  const std::vector<Row> rows = Sample(yaml, &run);
  double min_rate = 1e9;
  for (const Row& r : rows) {
    EXPECT_EQ(r.metric, "cc_rate");
    min_rate = std::min(min_rate, r.value);
  }
  EXPECT_LT(min_rate, 50) << "some QP was cut below half the line rate";
  EXPECT_GT(run->nic("h1").rdma().rp_cnp_handled, 0u);
}

// Rows go to disk as they are made: the sampler holds as much after 20 ms as after 2 ms.
TEST(Series, MemoryStaysFlatOverSimulatedTime) {
  auto yaml = [](const std::string& duration) {
    return "duration: " + duration +
           "\ntopology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 3}\n"
           "telemetry: {interval: 5us}\n"
           "workload:\n  - {type: flow, src: h1, dst: h0, size: 10GB}\n  - {type: flow, src: h2, dst: h0, size: 10GB}\n";
  };
  TestRun a, b;
  size_t mem_short = 0, mem_long = 0;
  const size_t rows_short = Sample(yaml("2ms"), &a, &mem_short).size();
  const size_t rows_long = Sample(yaml("20ms"), &b, &mem_long).size();
  EXPECT_GT(rows_long, 9 * rows_short);
  EXPECT_EQ(mem_long, mem_short);
}

TEST(Series, BadSeriesAreRefusedWithLineAndKey) {
  try {
    ParseScenarioText("topology: {type: spine-leaf}\ntelemetry:\n  interval: 10us\n  series: [queue_depth, qdepth]\n",
                      "t.yaml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("t.yaml:4:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no series 'qdepth'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ParseScenarioText("topology: {type: spine-leaf}\ntelemetry: {interval: 10ps}\n", "t.yaml"), ConfigError);
}

}  // namespace
}  // namespace rocelab
