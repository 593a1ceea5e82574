// A run's time series as OpenMetrics with timestamps: Prometheus's own importer (promtool tsdb
// create-blocks-from openmetrics) takes every row of series.csv as one sample at the stated
// time; the time mapping, the units and the refusal of samples that would share a millisecond.
#include "report/openmetrics.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "file_util.h"
#include "series_rows.h"
#include "util/config_error.h"

namespace rocelab {
namespace {

// A 4 -> 1 incast on a 2 x 2 spine-leaf fabric, sampled every 10 us (telemetry's default).
const char kScenario[] =
    "name: om-incast\nseed: 5\nduration: 2ms\n"
    "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4,\n"
    "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}\n"
    "switch: {buffer: 1MB, lossless_priorities: [3], pfc: {enabled: true, headroom: auto},\n"
    "         ecn: {enabled: true, kmin: 50KB, kmax: 200KB, pmax: 0.2}}\n"
    "nic: {mtu: 4096, cc: dcqcn}\n"
    "telemetry: {interval: 10us}\n"
    "workload:\n  - {type: incast, dst: h0, senders: [h1, h4, h5, h6], size: 256KB, priority: 3}\n";

// promtool tsdb list: the blocks' sample and series counts, their first and last timestamps.
struct Blocks {
  long samples = 0, series = 0;
  long long min_ms = -1, max_ms = -1;
  int count = 0;
};

Blocks ListBlocks(const std::string& promtool, const std::string& tsdb) {
  const CommandResult r = Shell(promtool + " tsdb list " + tsdb);
  EXPECT_EQ(r.status, 0) << r.output;
  Blocks b;
  std::istringstream in(r.output);
  std::string line;
  std::getline(in, line);  // BLOCK ULID  MIN TIME  MAX TIME  DURATION  NUM SAMPLES  NUM CHUNKS  NUM SERIES  SIZE
  while (std::getline(in, line)) {
    std::istringstream w(line);
    std::string ulid, duration;
    long long min_ms, max_ms;
    long samples, chunks, series;
    if (!(w >> ulid >> min_ms >> max_ms >> duration >> samples >> chunks >> series)) continue;
    ++b.count;
    b.samples += samples;
    b.series += series;
    if (b.min_ms < 0 || min_ms < b.min_ms) b.min_ms = min_ms;
    b.max_ms = std::max(b.max_ms, max_ms);
  }
  return b;
}

TEST(OpenMetrics, PromtoolImportsEveryRowOfARunAtItsTime) {
  const std::string promtool = Promtool();
  ASSERT_FALSE(promtool.empty()) << "promtool not found: install Debian's prometheus package (scripts/setup.sh)";
  const std::string dir = TempDir("om");
  WriteFile(dir + "/s.yaml", kScenario);
  CommandResult r = Rocelab("run " + dir + "/s.yaml --out " + dir + "/run --quiet");
  ASSERT_EQ(r.status, 0) << r.output;
  r = Rocelab("export openmetrics " + dir + "/run --out " + dir + "/run.om");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "");
  const std::string om = ReadFile(dir + "/run.om");
  ASSERT_GE(om.size(), 6u);
  EXPECT_EQ(om.substr(om.size() - 6), "# EOF\n");

  const std::vector<SeriesRow> rows = SeriesRows(ReadFile(dir + "/run/series.csv"));
  std::set<std::tuple<std::string, std::string, int, std::string>> series;
  std::set<std::string> metrics;
  double last_t = 0;
  for (const SeriesRow& row : rows) {
    series.insert({row.device, row.port, row.priority, row.metric});
    metrics.insert(row.metric);
    last_t = std::max(last_t, row.t);
  }
  ASSERT_GT(rows.size(), 200u);
  EXPECT_EQ(metrics.size(), 6u) << "the incast should show every series";

  r = Shell(promtool + " tsdb create-blocks-from openmetrics " + dir + "/run.om " + dir + "/tsdb");
  ASSERT_EQ(r.status, 0) << r.output;
  const Blocks b = ListBlocks(promtool, dir + "/tsdb");
  EXPECT_EQ(b.count, 1);  // 2 ms stretched x1000 is 2 s: one 2 h block
  EXPECT_EQ(b.samples, static_cast<long>(rows.size()));
  EXPECT_EQ(b.series, static_cast<long>(series.size()));
  // The first sample is one interval (10 us -> 10 ms) after 2026-01-01T00:00:00Z.
  EXPECT_EQ(b.min_ms, 1767225600000LL + 10);
  // A block's max time is exclusive: one past its last sample.
  EXPECT_EQ(b.max_ms, 1767225600000LL + static_cast<long long>(last_t / 1000 + 0.5) + 1);

  // One sample read back: the first link_util row, its time and value; and a rate in bytes/s.
  ::mkdir((dir + "/tsdb/wal").c_str(), 0755);  // dump opens the head's WAL too
  const std::string dump = Shell(promtool + " tsdb dump " + dir + "/tsdb 2>/dev/null").output;
  for (const char* metric : {"link_util", "flow_rate"}) {
    const SeriesRow* first = nullptr;
    for (const SeriesRow& row : rows)
      if (row.metric == metric && !first) first = &row;
    ASSERT_NE(first, nullptr) << metric;
    const bool rate = std::string(metric) == "flow_rate";
    std::ostringstream want;
    want << "{__name__=\"rocelab_series_" << metric << (rate ? "_bytes_per_second" : "_ratio") << "\", device=\""
         << first->device << "\", port=\"" << first->port << "\""
         << (first->priority < 0 ? "" : ", priority=\"" + std::to_string(first->priority) + "\"") << "} ";
    const size_t at = dump.find(want.str());
    ASSERT_NE(at, std::string::npos) << want.str();
    std::istringstream got(dump.substr(at + want.str().size()));
    double value;
    long long ts;
    got >> value >> ts;
    EXPECT_DOUBLE_EQ(value, first->value * (rate ? 1e9 / 8 : 1)) << metric;
    EXPECT_EQ(ts, 1767225600000LL + static_cast<long long>(first->t / 1000 + 0.5)) << metric;
  }
}

OpenMetricsTime At(int64_t start_s, double scale) {
  OpenMetricsTime t;
  t.start_s = start_s;
  t.time_scale = scale;
  return t;
}

const char kHeader[] = "t_ns,device,port,priority,metric,value\n";

TEST(OpenMetrics, TimestampsAreStartPlusScaledSimulatedTimeToTheMillisecond) {
  const std::string csv = std::string(kHeader) +
                          "0.000,leaf0,Ethernet0,3,queue_depth,4096\n"
                          "1500.500,leaf0,Ethernet0,3,queue_depth,0\n"
                          "1500.500,h1,qp0,3,flow_rate,100\n"
                          "1500.500,leaf0,Ethernet4,,link_util,0.5\n";
  const std::string om = OpenMetricsFromSeries(csv, "series.csv", At(1000000000, 1e6));
  // 1500.5 ns x 1e6 = 1500.5 ms, rounded to 1501 ms.
  EXPECT_NE(om.find("rocelab_series_queue_depth_bytes{device=\"leaf0\",port=\"Ethernet0\",priority=\"3\"} 4096 "
                    "1000000000.000\n"
                    "rocelab_series_queue_depth_bytes{device=\"leaf0\",port=\"Ethernet0\",priority=\"3\"} 0 "
                    "1000000001.501\n"),
            std::string::npos)
      << om;
  // Gb/s become bytes per second; an empty priority is no label.
  EXPECT_NE(om.find("rocelab_series_flow_rate_bytes_per_second{device=\"h1\",port=\"qp0\",priority=\"3\"} 12500000000 "
                    "1000000001.501\n"),
            std::string::npos)
      << om;
  EXPECT_NE(om.find("rocelab_series_link_util_ratio{device=\"leaf0\",port=\"Ethernet4\"} 0.5 1000000001.501\n"),
            std::string::npos)
      << om;
  EXPECT_NE(om.find("# TYPE rocelab_series_queue_depth_bytes gauge\n# UNIT rocelab_series_queue_depth_bytes bytes\n"),
            std::string::npos);
  // The HELP text says how to read the time.
  EXPECT_NE(om.find("Timestamps are 2001-09-09T01:46:40Z plus simulated time x 1000000, to the millisecond."),
            std::string::npos)
      << om;
  // Families in name order, only those with samples, and the end marker.
  EXPECT_LT(om.find("flow_rate"), om.find("link_util"));
  EXPECT_LT(om.find("link_util"), om.find("queue_depth"));
  EXPECT_EQ(om.find("pause_state"), std::string::npos);
  EXPECT_EQ(om.substr(om.size() - 6), "# EOF\n");

  // The default: 2026-01-01, 1 us simulated is 1 ms.
  const std::string d = OpenMetricsFromSeries(std::string(kHeader) + "10000.000,leaf0,Ethernet0,3,queue_depth,1\n",
                                              "series.csv", OpenMetricsTime());
  EXPECT_NE(d.find("} 1 1767225600.010\n"), std::string::npos) << d;
  // A header alone is an empty file that still ends.
  EXPECT_EQ(OpenMetricsFromSeries(kHeader, "series.csv", OpenMetricsTime()), "# EOF\n");
}

TEST(OpenMetrics, StartTimeIsUtcOrEpochSeconds) {
  int64_t s = 0;
  std::string err;
  ASSERT_TRUE(ParseStartTime("2026-01-01T00:00:00Z", &s, &err)) << err;
  EXPECT_EQ(s, 1767225600);
  ASSERT_TRUE(ParseStartTime("2024-02-29T12:34:56Z", &s, &err)) << err;
  EXPECT_EQ(s, 1709210096);
  ASSERT_TRUE(ParseStartTime("2000-03-01T00:00:00Z", &s, &err)) << err;
  EXPECT_EQ(s, 951868800);
  ASSERT_TRUE(ParseStartTime("9999-12-31T23:59:59Z", &s, &err)) << err;
  EXPECT_EQ(s, 253402300799);
  ASSERT_TRUE(ParseStartTime("1767225600", &s, &err)) << err;
  EXPECT_EQ(s, 1767225600);
  for (int64_t t : {int64_t{0}, int64_t{951868800}, int64_t{1709210096}, int64_t{253402300799}}) {
    ASSERT_TRUE(ParseStartTime(FormatStartTime(t), &s, &err)) << FormatStartTime(t);
    EXPECT_EQ(s, t);
  }
  for (const char* bad : {"2023-02-29T00:00:00Z", "1969-12-31T23:59:59Z", "2026-01-01 00:00:00", "2026-01-01T00:00:00",
                          "2026-01-01T00:00:00+01:00", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "+1767225600",
                          "-5", "", "99999999999999", "2026-1-01T00:00:00Z", "2026-01-01T00:00:00.5Z"}) {
    err.clear();
    EXPECT_FALSE(ParseStartTime(bad, &s, &err)) << bad;
    EXPECT_FALSE(err.empty()) << bad;
  }
}

// What OpenMetricsFromSeries says about `csv`, or "" when it takes it.
std::string ErrorOf(const std::string& csv, double scale = 1000) {
  try {
    OpenMetricsFromSeries(csv, "run/series.csv", At(1767225600, scale));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(OpenMetrics, SamplesThatWouldShareAMillisecondAreRefused) {
  // 400 ns apart: 0.4 ms at x1000, both round to 10 ms. Prometheus would keep one.
  const std::string close = std::string(kHeader) +
                            "10000.000,leaf0,Ethernet0,3,queue_depth,100\n"
                            "10000.000,leaf0,Ethernet4,3,queue_depth,100\n"
                            "10400.000,leaf0,Ethernet0,3,queue_depth,200\n";
  EXPECT_EQ(ErrorOf(close),
            "run/series.csv:4:1: samples at t_ns 10000.000 (line 2) and 10400.000 of "
            "rocelab_series_queue_depth_bytes{device=\"leaf0\",port=\"Ethernet0\",priority=\"3\"} fall in one "
            "millisecond at time scale 1000, and Prometheus keeps one sample per millisecond: a time scale of 2500 or "
            "more keeps every sample");
  EXPECT_EQ(ErrorOf(close, 2500), "");
  // Two series at one time are no collision; one series twice at one time is an error.
  EXPECT_EQ(ErrorOf(std::string(kHeader) + "10000,leaf0,Ethernet0,3,queue_depth,1\n10000,leaf0,Ethernet0,4,queue_depth,1\n"),
            "");
  EXPECT_NE(ErrorOf(std::string(kHeader) + "10000,leaf0,Ethernet0,3,queue_depth,1\n10000,leaf0,Ethernet0,3,queue_depth,2\n")
                .find("series.csv:3:1: key 't_ns': t_ns 10000 again for rocelab_series_queue_depth_bytes"),
            std::string::npos);
  EXPECT_NE(ErrorOf(std::string(kHeader) + "20000,leaf0,Ethernet0,3,queue_depth,1\n10000,leaf0,Ethernet0,3,queue_depth,2\n")
                .find("series.csv:3:1: key 't_ns': t_ns 10000 goes back"),
            std::string::npos);
}

TEST(OpenMetrics, TextThatIsNotASeriesCsvIsRefusedWithItsLine) {
  const std::string h = kHeader;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"t,device\n", "run/series.csv:1: not a rocelab series.csv: the first line is not 't_ns,device,port,priority,metric,value'"},
      {"", "run/series.csv: empty: not a rocelab series.csv"},
      {h + "10000,leaf0,Ethernet0,3,queue_depth\n", "run/series.csv:2: 6 fields expected"},
      {h + "x,leaf0,Ethernet0,3,queue_depth,1\n", "run/series.csv:2:1: key 't_ns': a number expected, found 'x'"},
      {h + "-1,leaf0,Ethernet0,3,queue_depth,1\n", "run/series.csv:2:1: key 't_ns': a time cannot be negative"},
      {h + "1,,Ethernet0,3,queue_depth,1\n", "run/series.csv:2:3: key 'device': no device named"},
      {h + "1,leaf0,Ethernet0,9,queue_depth,1\n", "run/series.csv:2:19: key 'priority': a priority is 0..7, found 9"},
      {h + "1,leaf0,Ethernet0,3,qdepth,1\n", "run/series.csv:2:21: key 'metric': unknown metric 'qdepth'"},
      {h + "1,leaf0,Ethernet0,3,queue_depth,nan\n", "run/series.csv:2:33: key 'value': a number expected, found 'nan'"},
      {h + "1e300,leaf0,Ethernet0,3,queue_depth,1\n", "run/series.csv:2:1: key 't_ns': t_ns 1e+300 is beyond any date"},
  };
  for (const auto& [csv, want] : cases) {
    const std::string got = ErrorOf(csv);
    EXPECT_EQ(got.substr(0, want.size()), want) << csv;
  }
  // Label values are escaped, never part of a name.
  const std::string om = OpenMetricsFromSeries(h + "1000,le\"af\\0,Eth,,link_util,1\n", "s.csv", OpenMetricsTime());
  EXPECT_NE(om.find("{device=\"le\\\"af\\\\0\",port=\"Eth\"} 1 "), std::string::npos) << om;
}

TEST(OpenMetrics, CommandRefusesBadInputAndWritesNothing) {
  const std::string dir = TempDir("om");
  WriteFile(dir + "/s.yaml", kScenario);
  ASSERT_EQ(Rocelab("run " + dir + "/s.yaml --out " + dir + "/run --quiet").status, 0);
  WriteFile(dir + "/plain/summary.json", "{}");
  struct Case {
    std::string args, says;
  };
  const std::vector<Case> cases = {
      {dir + "/run --time-scale 10", "at time scale 10, and Prometheus keeps one sample per millisecond: a time scale of 100 or more keeps every sample"},
      {dir + "/run --time-scale 0.5", "--time-scale: 0.5 is not from 1 to 1000000000"},
      {dir + "/run --time-scale fast", "--time-scale"},
      {dir + "/run --start yesterday", "--start: 'yesterday' is not a UTC time as 2026-01-01T00:00:00Z"},
      {dir + "/plain", dir + "/plain/series.csv: no such file (series.csv is written by a run whose scenario has a "
                              "telemetry section"},
      {dir + "/none", dir + "/none: no such folder"},
      {dir + "/s.yaml", dir + "/s.yaml:1: not a rocelab series.csv"},
  };
  for (const Case& c : cases) {
    const CommandResult r = Rocelab("export openmetrics " + c.args + " --out " + dir + "/out.om");
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_FALSE(Exists(dir + "/out.om")) << c.args;
    EXPECT_FALSE(Exists(dir + "/out.om.tmp")) << c.args;
  }
  // A scale that keeps the samples apart, and a file named directly, to standard output.
  const CommandResult ok = Rocelab("export openmetrics " + dir + "/run/series.csv --time-scale 100 --start 0");
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_NE(ok.output.find(" 0.001\n"), std::string::npos);  // 10 us x100 = 1 ms after 1970
  EXPECT_NE(ok.output.find("Timestamps are 1970-01-01T00:00:00Z plus simulated time x 100"), std::string::npos);
  const CommandResult help = Rocelab("export openmetrics --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.output.find("--time-scale"), std::string::npos);
}

}  // namespace
}  // namespace rocelab
