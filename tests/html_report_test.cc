// report.html: what the page holds for a run (charts with the samples of series.csv, thinned
// within their bounds; the pause timeline; the congestion tree; the tables), that every input
// string reaches it escaped, that it is the same bytes for the same run, and that headless
// Chromium renders it with no console message and finds in it the charts and tables written.
#include "report/html_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/demo_scenario.h"
#include "report/html_page.h"
#include "report/series_reader.h"
#include "report/svg_chart.h"
#include "util/config_error.h"

#include "file_util.h"

namespace rocelab {
namespace {

const char kSeriesHeader[] = "t_ns,device,port,priority,metric,value\n";

// Each <polyline class="line"> of `html` in order: its data-name and its number of points.
std::vector<std::pair<std::string, size_t>> Polylines(const std::string& html) {
  std::vector<std::pair<std::string, size_t>> out;
  static const std::regex kLine(R"re(<polyline class="line" data-name="([^"]*)" stroke="[^"]*" points="([^"]*)")re");
  for (std::sregex_iterator it(html.begin(), html.end(), kLine), end; it != end; ++it) {
    const std::string points = (*it)[2];
    out.emplace_back((*it)[1], points.empty() ? 0 : Occurrences(points, " ") + 1);
  }
  return out;
}

// The polylines of the chart `id` (its <svg data-chart=...>).
std::vector<std::pair<std::string, size_t>> ChartLines(const std::string& html, const std::string& id) {
  const size_t at = html.find("<svg class=\"chart\" data-chart=\"" + id + "\"");
  if (at == std::string::npos) return {};
  return Polylines(html.substr(at, html.find("</svg>", at) - at));
}

// A summary.json of a run of `t_end_ns` with the flows `flows` (JSON array text).
std::string Summary(double t_end_ns, const std::string& flows = "[]") {
  return "{\"scenario\": \"unit\", \"seed\": 1, \"sim_time_ns\": " + std::to_string(t_end_ns) + ", \"flows\": " + flows +
         ", \"totals\": {}, \"workloads\": [], \"fct_slowdown\": [], \"faults\": [], \"timeline\": [], "
         "\"device_counters\": \"none\"}";
}

std::string Page(const std::string& summary, const std::string* series, SeriesLimits limits = {}) {
  RunReportInput in;
  in.summary_json = summary;
  in.summary_file = "summary.json";
  std::istringstream csv(series ? *series : "");
  if (series) in.series = &csv, in.series_file = "series.csv";
  in.limits = limits;
  return RunReportHtml(in);
}

SeriesData Read(const std::string& csv, double t_end_ns, SeriesLimits limits = {}) {
  std::istringstream in(csv);
  return ReadSeries(in, "series.csv", t_end_ns, limits);
}

const MetricTraces& Metric(const SeriesData& d, const std::string& name) {
  for (const MetricTraces& m : d.metrics)
    if (m.metric == name) return m;
  static const MetricTraces kNone;
  ADD_FAILURE() << "no metric " << name;
  return kNone;
}

// ---- escaping --------------------------------------------------------------------------------

TEST(HtmlReport, EscapeTurnsMarkupIntoText) {
  EXPECT_EQ(HtmlEscape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(HtmlEscape("a&b \"q\" 'p'"), "a&amp;b &quot;q&quot; &#39;p&#39;");
  EXPECT_EQ(HtmlEscape("leaf0:Ethernet8/3 µs"), "leaf0:Ethernet8/3 µs");
}

// Every string of a hand-made summary.json and series.csv that could carry markup (names of the
// scenario, devices, ports, flows, faults, timeline events, workloads, totals) reaches the page
// only escaped: the page holds no element but its own.
TEST(HtmlReport, HostileNamesReachThePageOnlyEscaped) {
  const std::string evil = "<script>alert(1)</script>";
  const std::string summary = R"({
    "scenario": "<script>alert(1)</script>", "seed": 1, "sim_time_ns": 10000.0,
    "flows": [{"id": 0, "src": "<script>alert(1)</script>", "dst": "<img src=x onerror=alert(2)>", "priority": 3,
               "bytes": 1000, "start_ns": 0.0, "finish_ns": null, "fct_ns": null, "ideal_fct_ns": 100.0,
               "slowdown": null, "state": "<b>qp_error</b>", "bytes_delivered": 0}],
    "totals": {"<script>alert(1)</script>": 1},
    "workloads": [{"type": "<script>alert(1)</script>", "note": "<svg onload=alert(3)>"}],
    "fct_slowdown": [{"bucket": "<script>alert(1)</script>", "flows": 0, "p50": 0, "p95": 0, "p99": 0}],
    "faults": [{"kind": "<script>alert(1)</script>", "target": "<script>alert(1)</script>", "injected_ns": 1000.0,
                "cleared_ns": null, "detected_ns": 2000.0, "detected_by": "<script>alert(1)</script>",
                "localized_to": "<img src=x onerror=alert(2)>", "mttd_ns": 1000.0,
                "actions": [{"t_ns": 3000.0, "tier": "<i>", "action": "</title><script>alert(1)</script>"}]}],
    "timeline": [{"t_ns": 1000.0, "device": "<script>alert(1)</script>", "port": "\"><script>alert(1)</script>",
                  "priority": 3, "event": "<svg onload=alert(3)>", "detail": "</title><script>alert(1)</script>"}],
    "device_counters": "all",
    "hosts": {"<script>alert(1)</script>": {"netdev": "<script>alert(1)</script>",
              "ethtool": {"tx_prio3_pause": 7, "rx_prio3_pause": 0}}},
    "switches": {"<script>alert(1)</script>x": {"buffer": {"size_bytes": 1, "shared_pool_bytes": 1, "shared_watermark_bytes": 1},
      "ports": {"<script>alert(1)</script>": {"peer": "<script>alert(1)</script>", "SAI_PORT_STAT_PFC_3_RX_PKTS": 7,
        "SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US": 3, "rocelab_tx_busy_ns": 10,
        "queues": {"<script>alert(1)</script>": {"SAI_QUEUE_STAT_WATERMARK_BYTES": 5}},
        "pfcwd": {"<script>alert(1)</script>": {"status": "<script>alert(1)</script>"}}}}}}
  })";
  const std::string series = std::string(kSeriesHeader) +
                             "1000.000,<script>alert(1)</script>,<img src=x onerror=alert(2)>,3,queue_depth,100\n"
                             "1000.000,<script>alert(1)</script>,qp0,3,flow_rate,50\n"
                             "1000.000,<script>alert(1)</script>,<script>alert(1)</script>,3,pause_state,1\n"
                             "1000.000,<script>alert(1)</script>,eth0,,<script>alert(1)</script>,1\n";
  RunReportInput in;
  in.summary_json = summary;
  in.summary_file = "summary.json";
  std::istringstream csv(series);
  in.series = &csv;
  in.series_file = "series.csv";
  in.findings.push_back({"link", Severity::kError, evil, evil, evil, evil, "x", ""});
  const std::string html = RunReportHtml(in);
  for (const char* raw : {"<script", "<img", "<svg onload", "<b>", "<i>", "</title><script"})
    EXPECT_EQ(html.find(raw), std::string::npos) << raw;
  EXPECT_GT(Occurrences(html, HtmlEscape(evil)), 20u);
  // The escaped names are where the page names things: the title, the drawing, a chart's line.
  EXPECT_NE(html.find("<title>rocelab run: &lt;script&gt;alert(1)&lt;/script&gt;</title>"), std::string::npos);
  EXPECT_NE(html.find("data-device=\"&lt;script&gt;alert(1)&lt;/script&gt;\""), std::string::npos);
  EXPECT_NE(html.find("data-from=\"&lt;script&gt;alert(1)&lt;/script&gt;\""), std::string::npos);
  ASSERT_EQ(ChartLines(html, "queue_depth").size(), 1u);
  // Nothing may load or run even so: the page says it.
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\""),
            std::string::npos);
}

// ---- series.csv to chart points ---------------------------------------------------------------

// Each row is a point; a series leaving zero gets a zero one interval before (the file writes
// no zeros but the first), and a pause_state of 1 becomes a span to the row where it is 0.
TEST(HtmlReport, ChartPointsFollowTheRows) {
  const std::string csv = std::string(kSeriesHeader) +
                          "1000.000,leaf0,Ethernet0,3,queue_depth,10\n"
                          "1000.000,leaf0,Ethernet0,,link_util,0.5\n"
                          "2000.000,leaf0,Ethernet0,3,queue_depth,20\n"
                          "2000.000,leaf0,Ethernet0,,link_util,0\n"
                          "3000.000,leaf0,Ethernet0,3,queue_depth,0\n"
                          "3000.000,leaf0,Ethernet4,3,pause_state,1\n"
                          "4000.000,leaf0,Ethernet4,3,pause_state,1\n"
                          "5000.000,leaf0,Ethernet4,3,pause_state,0\n"
                          "7000.000,leaf0,Ethernet0,3,queue_depth,40\n"
                          "8000.000,leaf0,Ethernet0,3,queue_depth,0\n"
                          "9000.000,leaf0,Ethernet4,3,pause_state,1\n";
  const SeriesData d = Read(csv, 10000);
  EXPECT_EQ(d.rows, 11u);
  EXPECT_DOUBLE_EQ(d.interval_ns, 1000);
  const MetricTraces& q = Metric(d, "queue_depth");
  ASSERT_EQ(q.top.size(), 1u);
  EXPECT_EQ(q.top[0].rows, 5u);
  EXPECT_DOUBLE_EQ(q.top[0].peak, 40);
  // 5 rows and the zero at 6 µs, one interval before the value left zero again.
  const std::vector<std::pair<double, double>> want = {{1000, 10}, {2000, 20}, {3000, 0}, {6000, 0}, {7000, 40}, {8000, 0}};
  ASSERT_EQ(q.top[0].points.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_DOUBLE_EQ(q.top[0].points[i].t_ns, want[i].first) << i;
    EXPECT_DOUBLE_EQ(q.top[0].points[i].value, want[i].second) << i;
  }
  const MetricTraces& p = Metric(d, "pause_state");
  ASSERT_EQ(p.top.size(), 1u);
  ASSERT_EQ(p.top[0].spans.size(), 2u);
  EXPECT_DOUBLE_EQ(p.top[0].spans[0].from_ns, 3000);
  EXPECT_DOUBLE_EQ(p.top[0].spans[0].to_ns, 5000);
  EXPECT_DOUBLE_EQ(p.top[0].spans[1].from_ns, 9000);
  EXPECT_DOUBLE_EQ(p.top[0].spans[1].to_ns, 10000);  // still paused when the run ended
  EXPECT_DOUBLE_EQ(p.top[0].held_ns, 3000);          // three samples at 1

  // On the page: one line per series, a point per point, a bar per span.
  const std::string html = Page(Summary(10000), &csv);
  const auto lines = ChartLines(html, "queue_depth");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].first, "leaf0:Ethernet0 UC3");
  EXPECT_EQ(lines[0].second, 6u);
  ASSERT_EQ(ChartLines(html, "link_util").size(), 1u);
  EXPECT_EQ(ChartLines(html, "link_util")[0].second, 2u);
  EXPECT_EQ(Occurrences(html, "<rect class=\"span\""), 2u);
  // Metrics without a row are named, not drawn.
  EXPECT_TRUE(ChartLines(html, "flow_rate").empty());
  EXPECT_NE(html.find("No rows in series.csv for pg_occupancy, flow_rate, cc_rate"), std::string::npos);
}

// Past `points` samples a line keeps the lowest and highest of each slice of the run, so a
// single-sample spike survives thinning; below it, every sample is drawn.
TEST(HtmlReport, LongSeriesAreThinnedKeepingTheirPeaks) {
  std::string csv = kSeriesHeader;
  const int kSamples = 10000;
  for (int i = 1; i <= kSamples; ++i) {
    const double v = i == 7777 ? 9e6 : i == 3333 ? 1 : 1000 + (i % 7);
    csv += std::to_string(i * 100) + ".000,leaf0,Ethernet0,3,queue_depth," + std::to_string(v) + "\n";
  }
  for (int i = 1; i <= 1500; ++i) csv += std::to_string(kSamples * 100 + i) + ".000,leaf0,Ethernet4,3,queue_depth,5\n";
  const double t_end = kSamples * 100 + 1500;
  const SeriesData d = Read(csv, t_end);
  const MetricTraces& q = Metric(d, "queue_depth");
  ASSERT_EQ(q.top.size(), 2u);
  const SeriesTrace& busy = q.top[0];
  EXPECT_EQ(busy.rows, static_cast<size_t>(kSamples));
  EXPECT_LE(busy.points.size(), 2000u);
  EXPECT_GE(busy.points.size(), 1000u);
  double top = 0;
  bool dip = false;
  for (size_t i = 0; i < busy.points.size(); ++i) {
    top = std::max(top, busy.points[i].value);
    dip = dip || (busy.points[i].value == 1 && busy.points[i].t_ns == 333300);
    if (i) {
      EXPECT_LT(busy.points[i - 1].t_ns, busy.points[i].t_ns) << i;  // still in time order
    }
  }
  EXPECT_DOUBLE_EQ(top, 9e6);  // the one-sample spike
  EXPECT_TRUE(dip);            // and the one-sample dip
  // 1,500 samples (the interval here is 1 ns, so the first gets a zero before it): all drawn.
  EXPECT_EQ(q.top[1].points.size(), 1501u);
  // A smaller bound holds as well.
  SeriesLimits small;
  small.points = 100;
  EXPECT_LE(Metric(Read(csv, t_end, small), "queue_depth").top[0].points.size(), 100u);
}

// A chart draws the `lines` series with the highest peaks and says how many there were.
TEST(HtmlReport, ChartsKeepTheHighestPeaks) {
  std::string csv = kSeriesHeader;
  for (int port = 0; port < 12; ++port)
    csv += "1000.000,leaf0,Ethernet" + std::to_string(4 * port) + ",,link_util," + std::to_string(0.05 * (port + 1)) + "\n";
  const std::string html = Page(Summary(2000), &csv);
  const auto lines = ChartLines(html, "link_util");
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_EQ(lines.front().first, "leaf0:Ethernet44");  // the highest peak first
  EXPECT_EQ(lines.back().first, "leaf0:Ethernet16");   // the eighth highest
  EXPECT_NE(html.find("The 8 of 12 series with the highest peaks"), std::string::npos);
}

TEST(HtmlReport, FlowLinesAreNamedByTheirFlow) {
  const std::string csv = std::string(kSeriesHeader) + "1000.000,h2,qp0,3,flow_rate,42.5\n1000.000,h2,qp0,3,cc_rate,100\n";
  const std::string html =
      Page(Summary(2000, R"([{"id": 0, "src": "h2", "dst": "h0", "priority": 3, "bytes": 1, "state": "unfinished"}])"), &csv);
  ASSERT_EQ(ChartLines(html, "flow_rate").size(), 1u);
  EXPECT_EQ(ChartLines(html, "flow_rate")[0].first, "flow 0 h2 → h0");
  EXPECT_EQ(ChartLines(html, "cc_rate")[0].first, "flow 0 h2 → h0");
}

// A series.csv with its header only (an idle run): no chart, every metric named as silent.
TEST(HtmlReport, EmptySeriesDrawNoChart) {
  const std::string csv = kSeriesHeader;
  const SeriesData d = Read(csv, 1000);
  EXPECT_EQ(d.rows, 0u);
  for (const MetricTraces& m : d.metrics) EXPECT_TRUE(m.top.empty()) << m.metric;
  const std::string html = Page(Summary(1000), &csv);
  EXPECT_EQ(Occurrences(html, "<svg class=\"chart\""), 0u);
  EXPECT_NE(html.find("No rows in series.csv for queue_depth, pg_occupancy, link_util, flow_rate, cc_rate"),
            std::string::npos);
  EXPECT_NE(html.find("No port was held paused at any sample"), std::string::npos);
}

// Without a telemetry section the page says which series are off and how to turn them on.
TEST(HtmlReport, WithoutTelemetryTheSeriesAreNamedOff) {
  const std::string html = Page(Summary(1000), nullptr);
  EXPECT_NE(html.find("every time series is off: queue_depth, pg_occupancy, link_util, flow_rate, cc_rate, pause_state"),
            std::string::npos);
  EXPECT_NE(html.find("telemetry: {interval: 10us}"), std::string::npos);
  EXPECT_EQ(Occurrences(html, "<svg class=\"chart\""), 0u);
}

// The readings the results rest on are on the page beside them, escaped, each with its key.
TEST(HtmlReport, TheRunsAssumptionsAreOnThePage) {
  std::string summary = Summary(1000);
  summary.insert(summary.find("\"sim_time_ns\""),
                 "\"assumptions\": [{\"key\": \"switch.asic\", \"assumed\": \"none: <generic>\", "
                 "\"alternative\": \"spectrum2\"}], ");
  const std::string html = Page(summary, nullptr);
  EXPECT_NE(html.find("<h3>What the run takes where the sources disagree or say nothing</h3>"), std::string::npos);
  EXPECT_NE(html.find("<td>switch.asic</td><td>none: &lt;generic&gt;</td><td>spectrum2</td>"), std::string::npos) << html;
  EXPECT_EQ(Page(Summary(1000), nullptr).find("sources disagree"), std::string::npos) << "no assumptions, no table";
}

TEST(HtmlReport, BadSeriesAreRefusedWithFileLineAndColumn) {
  const struct {
    std::string csv, message;
  } cases[] = {
      {"t,device\n", "series.csv:1: not a rocelab series.csv"},
      {"", "series.csv: empty"},
      {std::string(kSeriesHeader) + "1000,leaf0,Ethernet0,3,queue_depth,1\nabc,leaf0,Ethernet0,3,queue_depth,1\n",
       "series.csv:3:1: key 't_ns': a number expected, found 'abc'"},
      {std::string(kSeriesHeader) + "1000,leaf0,Ethernet0,9,queue_depth,1\n", "series.csv:2:22: key 'priority': a priority is 0..7"},
      {std::string(kSeriesHeader) + "1000,leaf0,Ethernet0,3,queue_depth\n", "series.csv:2: 6 fields expected"},
      {std::string(kSeriesHeader) + "1000,leaf0,Ethernet0,3,queue_depth,nan\n", "series.csv:2:36: key 'value'"},
      {std::string(kSeriesHeader) + "2000,a,b,,link_util,1\n1000,a,b,,link_util,1\n", "series.csv:3:1: key 't_ns': the rows go back in time"},
  };
  for (const auto& c : cases) {
    try {
      Read(c.csv, 1000);
      ADD_FAILURE() << "accepted: " << c.csv;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

TEST(HtmlReport, BadSummariesAreRefusedWithTheKey) {
  const struct {
    std::string json, message;
  } cases[] = {
      {"{", "summary.json:1: not a rocelab summary.json"},
      {"[1]", "not a rocelab summary.json (no sim_time_ns"},
      {R"({"sim_time_ns": "long"})", "key 'sim_time_ns'"},
      {R"({"sim_time_ns": 1, "flows": [{"src": 3}]})", "key 'flows[0].src': expected a string"},
      {R"({"sim_time_ns": 1, "switches": {"s": {"ports": {"E0": {"SAI_PORT_STAT_PFC_3_TX_PKTS": "x"}}}}})",
       "key 'switches.s.ports.E0.SAI_PORT_STAT_PFC_3_TX_PKTS'"},
  };
  for (const auto& c : cases) {
    try {
      Page(c.json, nullptr);
      ADD_FAILURE() << "accepted: " << c.json;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

// The flows table: the flows that did not finish first, in the summary's order, then the
// finished ones slowest first, equal slowdowns in the summary's order; 50 rows, and a note of
// the rest.
TEST(HtmlReport, FlowsTableListsUnfinishedThenSlowest) {
  std::string flows = "[";
  std::vector<int> want_unfinished, want_finished;
  std::vector<std::pair<double, int>> finished;
  for (int id = 0; id < 130; ++id) {
    const bool done = id % 7 != 3;
    const double slowdown = 1 + (id * 37 % 11);  // ten flows or more share each value
    if (id) flows += ", ";
    flows += "{\"id\": " + std::to_string(id) + ", \"src\": \"h1\", \"dst\": \"h2\", \"state\": \"" +
             (done ? "finished" : "running") + "\", \"slowdown\": " + std::to_string(done ? slowdown : 0) + "}";
    if (done) finished.push_back({slowdown, id});
    else want_unfinished.push_back(id);
  }
  flows += "]";
  std::stable_sort(finished.begin(), finished.end(), [](auto& a, auto& b) { return a.first > b.first; });
  std::vector<int> want = want_unfinished;
  for (const auto& f : finished) want.push_back(f.second);
  want.resize(50);

  const std::string html = Page(Summary(1e6, flows), nullptr);
  const size_t at = html.find("<h3>Flows</h3>");
  ASSERT_NE(at, std::string::npos);
  const std::string table = html.substr(at, html.find("</table>", at) - at);
  std::vector<int> got;
  static const std::regex kRow(R"re(<tr><td class="n">([0-9]+)</td>)re");
  for (std::sregex_iterator it(table.begin(), table.end(), kRow), end; it != end; ++it) got.push_back(std::stoi((*it)[1]));
  EXPECT_EQ(got, want);
  EXPECT_NE(html.find("80 more flows in summary.json."), std::string::npos);
}

TEST(HtmlReport, TimeAxisTicksInTheRunsUnit) {
  const auto ticks = TimeTicks(610617194.846);  // 610 ms
  ASSERT_EQ(ticks.size(), 7u);
  EXPECT_EQ(ticks[1].second, "100 ms");
  EXPECT_DOUBLE_EQ(ticks[6].first, 600e6);
  EXPECT_EQ(TimeTicks(9698)[1].second, "2 µs");  // 9.7 µs: a tick every 2
  EXPECT_EQ(FormatTimeNs(3100000), "3.100 ms");
  EXPECT_EQ(FormatTimeNs(10000, true), "10 µs");
}

// ---- runs ---------------------------------------------------------------------------------------

// A small fabric with a pause storm from h0 and every series sampled: pause spreads up the tree.
std::string StormScenario(const std::string& name = "report-storm") {
  return "name: \"" + name + "\"\n" + R"(duration: 3ms
topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 2,
           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}
workload:
  - {type: flow, src: h2, dst: h0, size: 64MB}
  - {type: flow, src: h3, dst: h1, size: 64MB}
  - {type: flow, src: h2, dst: h3, size: 64MB}
faults:
  - {kind: pfc_storm, target: h0, at: 500us}
telemetry: {interval: 10us}
)";
}

// Runs `yaml` into a fresh folder; returns the folder.
std::string RunInto(const std::string& yaml, const std::string& tag, const std::string& options = "") {
  const std::string dir = TempDir(tag);
  WriteFile(dir + "/scenario.yaml", yaml);
  const CommandResult r = Rocelab("run " + dir + "/scenario.yaml --out " + dir + "/out --quiet " + options);
  EXPECT_EQ(r.status, 0) << r.output;
  return dir + "/out";
}

// The distinct series of `metric` in a series.csv, counted here from the file itself.
size_t SeriesIn(const std::string& csv, const std::string& metric) {
  std::set<std::string> keys;
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (f.size() == 6 && f[4] == metric) keys.insert(f[1] + "," + f[2] + "," + f[3]);
  }
  return keys.size();
}

TEST(HtmlReport, RunWritesThePageAndExportWritesTheSameBytes) {
  const std::string out = RunInto(StormScenario(), "report-run");
  const std::string html = ReadFile(out + "/report.html");
  ASSERT_FALSE(html.empty());
  EXPECT_FALSE(Exists(out + "/report.html.tmp"));
  // The congestion tree: h0 paused leaf0's port toward it, leaf0 paused the spine, and so on up.
  EXPECT_NE(html.find("<path class=\"pause-arrow\" data-from=\"h0\" data-to=\"leaf0\""), std::string::npos);
  EXPECT_NE(html.find("<path class=\"pause-arrow\" data-from=\"leaf0\" data-to=\"spine0\""), std::string::npos);
  EXPECT_EQ(html.find("data-from=\"leaf0\" data-to=\"h0\""), std::string::npos);  // leaf0 never paused h0
  EXPECT_NE(html.find("<circle class=\"fault\" data-place=\"h0\""), std::string::npos);
  // A chart per metric with rows, a line per series up to 8.
  const std::string csv = ReadFile(out + "/series.csv");
  for (const char* m : {"queue_depth", "pg_occupancy", "link_util", "flow_rate", "cc_rate"}) {
    const size_t want = std::min<size_t>(8, SeriesIn(csv, m));
    EXPECT_GT(want, 0u) << m;
    EXPECT_EQ(ChartLines(html, m).size(), want) << m;
  }
  EXPECT_GT(Occurrences(html, "<rect class=\"span\""), 0u);  // the pause timeline
  // The same page from the folder, by `export html`, to another file.
  const CommandResult e = Rocelab("export html " + out + " --out " + out + "/again.html");
  ASSERT_EQ(e.status, 0) << e.output;
  EXPECT_EQ(ReadFile(out + "/again.html"), html);
  // And from its summary.json named directly, over the page itself.
  ASSERT_EQ(Rocelab("export html " + out + "/summary.json").status, 0);
  EXPECT_EQ(ReadFile(out + "/report.html"), html);
}

// A fault's cost is on the page, not only on the terminal: when it was quiet and back, what it
// cost against the run without it, and a flap's moment of being seen as one.
TEST(HtmlReport, TheFaultsCostIsOnThePage) {
  const std::string dir = TempDir("report-cost");
  const CommandResult r = Rocelab("run " + std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/link_flap.yaml --out " + dir +
                                  "/out --quiet");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string html = ReadFile(dir + "/out/report.html");
  EXPECT_NE(html.find("<h3>What each fault cost</h3>"), std::string::npos);
  EXPECT_NE(html.find("Measured against the counterfactual: the same run without its faults, seed 1"), std::string::npos);
  EXPECT_NE(html.find("seen as a flap at 34"), std::string::npos);
  EXPECT_NE(html.find("allreduce iterations&#39; time beyond their time without the fault"), std::string::npos);
}

// Every <svg> of `html` whose class is `svg_class`, whole.
std::vector<std::string> Svgs(const std::string& html, const std::string& svg_class) {
  std::vector<std::string> out;
  const std::string open = "<svg class=\"" + svg_class + "\"";
  for (size_t at = html.find(open); at != std::string::npos; at = html.find(open, at + 1))
    out.push_back(html.substr(at, html.find("</svg>", at) - at));
  return out;
}

// The demo, as shipped, draws its series; every time chart shows where the storm was injected,
// detected and acted on, and where the fabric was back, at the times summary.json gives.
TEST(HtmlReport, TheDemoDrawsItsFaultStoryOnEveryTimeChart) {
  const std::string dir = TempDir("report-demo-marks");
  ASSERT_EQ(Rocelab("demo --out " + dir + " --quiet").status, 0);
  const std::string html = ReadFile(dir + "/report.html");
  const std::vector<std::string> charts = Svgs(html, "chart");
  ASSERT_GE(charts.size(), 4u) << "the demo has time series on";
  std::vector<std::string> pause;
  for (const std::string& svg : Svgs(html, "spans"))
    if (svg.find("data-chart=\"pause_state\"") != std::string::npos) pause.push_back(svg);
  ASSERT_EQ(pause.size(), 1u);
  for (const std::string& svg : charts) {
    const std::string id = svg.substr(0, svg.find('>'));
    EXPECT_EQ(Occurrences(svg, "class=\"marker marker-injected\""), 1u) << id;
    EXPECT_EQ(Occurrences(svg, "class=\"marker marker-detected\""), 1u) << id;
    EXPECT_EQ(Occurrences(svg, "class=\"marker marker-action\""), 2u) << id << ": ignore h0's pause, then isolate h0";
    EXPECT_EQ(Occurrences(svg, "class=\"marker marker-recovered\""), 1u) << id;
    EXPECT_NE(svg.find("<title>3.000 ms pfc_storm on h0: injected</title>"), std::string::npos) << id;
  }
  EXPECT_EQ(Occurrences(pause[0], "class=\"marker marker-injected\""), 1u);
  EXPECT_NE(html.find("Dashed lines: a fault injected (orange)"), std::string::npos);
}

// Workload figures in the units an operator reads: times as times, shares as percent, rates with
// their unit, sizes in bytes, each with its summary.json key; "1 link", not "1 links".
TEST(HtmlReport, WorkloadFiguresAreInHumanUnits) {
  const std::string dir = TempDir("report-units");
  ASSERT_EQ(Rocelab("demo --out " + dir + " --quiet").status, 0);
  const std::string html = ReadFile(dir + "/report.html");
  const std::string table = html.substr(html.find("<h3>allreduce</h3>"));
  EXPECT_NE(table.find("<td>iteration times (iteration_ns)</td><td>4.107 ms, 4.097 ms, 2.334 ms"), std::string::npos) << table;
  EXPECT_NE(table.find("<td>GPU busy (gpu_busy)</td><td class=\"n\">15.7 %</td>"), std::string::npos) << table;
  EXPECT_NE(table.find("<td>host link (host_link_gbps)</td><td class=\"n\">100.00 Gb/s</td>"), std::string::npos) << table;
  EXPECT_NE(table.find("<td>bytes</td><td class=\"n\">16.0 MB</td>"), std::string::npos) << table;
  EXPECT_NE(table.find("<td>slice (slice_bytes)</td><td class=\"n\">1.0 MB</td>"), std::string::npos) << table;
  EXPECT_EQ(table.find("0.1569"), std::string::npos);
  EXPECT_NE(html.find("1 link carried PAUSE frames"), std::string::npos);
  EXPECT_EQ(html.find("1 links"), std::string::npos);
}

// A cell that opens with a figure but goes on as a sentence wraps; a figure with its unit does not.
TEST(HtmlReport, OnlyFiguresKeepToOneLine) {
  HtmlTable t({"a", "b", "c", "d"});
  t.AddRow({"6.2 MB", "38.4 %", "3.100 ms T2: ignore h0's pause at leaf0:Ethernet0", "0.00 USD (512 GPUs × 0 s lost)"});
  const std::string html = t.Html();
  EXPECT_NE(html.find("<td class=\"n\">6.2 MB</td><td class=\"n\">38.4 %</td><td>3.100 ms T2"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>0.00 USD (512"), std::string::npos) << html;
}

// The same scenario and seed, written to two folders: the same bytes.
TEST(HtmlReport, SameRunSameBytes) {
  const std::string a = RunInto(StormScenario(), "report-a");
  const std::string b = RunInto(StormScenario(), "report-b");
  const std::string html = ReadFile(a + "/report.html");
  EXPECT_FALSE(html.empty());
  EXPECT_TRUE(html == ReadFile(b + "/report.html"));
  EXPECT_EQ(html.find("/tmp/"), std::string::npos);  // no folder of the run in it
  const std::string other = RunInto(StormScenario(), "report-c", "--seed 2");
  EXPECT_NE(ReadFile(other + "/report.html").find("seed 2"), std::string::npos);
}

TEST(HtmlReport, NoReportWritesNone) {
  const std::string out = RunInto(StormScenario(), "report-none", "--no-report");
  EXPECT_TRUE(Exists(out + "/summary.json"));
  EXPECT_FALSE(Exists(out + "/report.html"));
}

TEST(HtmlReport, ExportHtmlRefusesWhatIsNotARun) {
  const std::string dir = TempDir("report-bad");
  CommandResult r = Rocelab("export html " + dir);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(dir + "/summary.json: no such file"), std::string::npos) << r.output;
  EXPECT_FALSE(Exists(dir + "/report.html"));
  // A broken series.csv: its line, and nothing written.
  WriteFile(dir + "/summary.json", Summary(1000));
  WriteFile(dir + "/series.csv", std::string(kSeriesHeader) + "1000,a,b,,link_util,x\n");
  r = Rocelab("export html " + dir);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("series.csv:2:21: key 'value'"), std::string::npos) << r.output;
  EXPECT_FALSE(Exists(dir + "/report.html"));
  EXPECT_FALSE(Exists(dir + "/report.html.tmp"));
  // --out into a folder that is not there; another file than a summary.
  r = Rocelab("export html " + dir + " --out " + dir + "/no/such/report.html");
  EXPECT_EQ(r.status, 2) << r.output;
  WriteFile(dir + "/other.json", "{}");
  r = Rocelab("export html " + dir + "/other.json");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("give a run's output folder"), std::string::npos) << r.output;
  EXPECT_EQ(Rocelab("export html --help").status, 0);
}

// ---- headless Chromium ---------------------------------------------------------------------------

// Debian's chromium (scripts/setup.sh installs it). Without it these tests fail: a rendering
// check that quietly does not run checks nothing.
std::string Chromium() {
  std::string path = RunCommand("command -v chromium || command -v chromium-browser");
  path.erase(path.find_last_not_of("\n") + 1);
  return path;
}

struct Rendered {
  std::string dom;      // the document after parsing and layout (--dump-dom)
  std::string console;  // every line of the browser's log that came from the page
};

// Opens `file` in headless Chromium, in a profile of its own (tests may run at once), and
// returns the DOM it built and what the page logged. `screenshot`: also a PNG of the page.
Rendered Render(const std::string& file, const std::string& screenshot = "") {
  Rendered r;
  const std::string chromium = Chromium();
  if (chromium.empty()) {
    ADD_FAILURE() << "chromium not found on PATH: install the Debian package chromium (scripts/setup.sh does)";
    return r;
  }
  const std::string dir = TempDir("chromium");
  const std::string flags = " --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --user-data-dir=" + dir +
                            "/profile --virtual-time-budget=2000 --no-first-run --disable-extensions ";
  int status = -1;
  RunCommand(chromium + flags + "--dump-dom file://" + file + " > " + dir + "/dom.html 2> " + dir + "/log.txt", &status);
  EXPECT_EQ(status, 0) << ReadFile(dir + "/log.txt");
  r.dom = ReadFile(dir + "/dom.html");
  std::istringstream log(ReadFile(dir + "/log.txt"));
  for (std::string line; std::getline(log, line);)
    if (line.find(":CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos ||
        line.find("Content Security Policy") != std::string::npos || line.find("Refused to") != std::string::npos)
      r.console += line + "\n";
  if (!screenshot.empty()) {
    const CommandResult shot = Shell(chromium + flags + "--hide-scrollbars --window-size=1280,2400 --screenshot=" +
                                     screenshot + " file://" + file + " 2>/dev/null");
    EXPECT_EQ(shot.status, 0) << shot.output;
  }
  return r;
}

// The page `file` laid out by Chromium in a window `width` px wide, with a PNG of it taken at
// that width into `screenshot`: what runs past the window's right edge, one line per element
// (the page itself wider than the window, an element whose box ends beyond it, a box that
// scrolls because its content is wider than it: scrollWidth > clientWidth), or "none". A copy of
// the page carries the measuring script; the page itself runs none.
std::string Overflow(const std::string& file, int width, const std::string& screenshot) {
  const std::string chromium = Chromium();
  if (chromium.empty()) {
    ADD_FAILURE() << "chromium not found on PATH: install the Debian package chromium (scripts/setup.sh does)";
    return "";
  }
  std::string page = ReadFile(file);
  const size_t csp = page.find("<meta http-equiv=\"Content-Security-Policy\"");
  if (csp != std::string::npos) page.erase(csp, page.find('>', csp) + 1 - csp);
  const char kProbe[] = R"js(<script>
window.addEventListener('load', () => {
  const bad = [], de = document.documentElement, edge = de.clientWidth + 0.5;
  if (de.scrollWidth > de.clientWidth) bad.push('the page: ' + de.scrollWidth + ' px wide in ' + de.clientWidth);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
    const what = el.tagName.toLowerCase() + ' "' + (el.textContent || '').trim().slice(0, 50) + '"';
    const x = getComputedStyle(el).overflowX;
    if (el.getBoundingClientRect().right > edge) bad.push(what + ' ends at ' + Math.round(el.getBoundingClientRect().right));
    else if ((x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 0.5)
      bad.push(what + ' scrolls: ' + el.scrollWidth + ' > ' + el.clientWidth);
  }
  const out = document.createElement('pre');
  out.id = 'overflow-probe';
  out.textContent = bad.length ? bad.slice(0, 20).join('\n') : 'none';
  document.body.appendChild(out);
});
</script>)js";
  page.insert(page.rfind("</body>"), kProbe);
  const std::string dir = TempDir("chromium-fit");
  WriteFile(dir + "/probe.html", page);
  const std::string flags = " --headless --no-sandbox --disable-gpu --user-data-dir=" + dir +
                            "/profile --virtual-time-budget=2000 --no-first-run --disable-extensions --hide-scrollbars " +
                            "--window-size=" + std::to_string(width) + ",1200 ";
  CommandResult dom;
  dom.output = RunCommand(chromium + flags + "--dump-dom file://" + dir + "/probe.html 2>/dev/null", &dom.status);
  EXPECT_EQ(dom.status, 0);
  const CommandResult shot = Shell(chromium + flags + "--screenshot=" + screenshot + " file://" + file);
  EXPECT_EQ(shot.status, 0) << shot.output;
  // The PNG is as wide as the window: its IHDR width, big-endian at byte 16.
  const std::string png = ReadFile(screenshot);
  EXPECT_GT(png.size(), 24u);
  if (png.size() > 24) {
    const auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(png[i])); };
    EXPECT_EQ(byte(16) << 24 | byte(17) << 16 | byte(18) << 8 | byte(19), static_cast<uint32_t>(width)) << screenshot;
  }
  const size_t at = dom.output.find("<pre id=\"overflow-probe\">");
  if (at == std::string::npos) return "the probe did not run";
  const size_t from = at + std::string("<pre id=\"overflow-probe\">").size();
  return dom.output.substr(from, dom.output.find("</pre>", from) - from);
}

// The pages an operator reads fit a 1000 px window and a 1400 px one: the demo's report, a fault
// scenario's (the Faults table, the cost, "what to do"), and a comparison. Screenshots of each are
// taken at both widths.
TEST(HtmlReportChromium, NothingRunsOffTheEdgeAt1000Or1400Px) {
  const std::string dir = TempDir("chromium-fit-pages");
  ASSERT_EQ(Rocelab("demo --out " + dir + "/demo --quiet").status, 0);
  ASSERT_EQ(Rocelab("run " + std::string(ROCELAB_SOURCE_DIR) + "/scenarios/faults/link_flap.yaml --out " + dir +
                    "/flap --quiet")
                .status,
            0);
  ASSERT_EQ(Rocelab("compare " + dir + "/demo " + dir + "/flap --html " + dir + "/compare.html").status, 0);
  for (const std::string& page : {dir + "/demo/report.html", dir + "/flap/report.html", dir + "/compare.html"})
    for (int width : {1000, 1400})
      EXPECT_EQ(Overflow(page, width, page + "." + std::to_string(width) + ".png"), "none") << page << " at " << width << " px";
}

// A run with telemetry: Chromium builds the charts with every line and point written, the
// drawing and the tables, and the page logs nothing.
TEST(HtmlReportChromium, RunPageRendersItsChartsWithoutAConsoleMessage) {
  const std::string out = RunInto(StormScenario(), "chromium-run");
  const std::string html = ReadFile(out + "/report.html");
  const Rendered r = Render(out + "/report.html");
  EXPECT_EQ(r.console, "");
  ASSERT_FALSE(r.dom.empty());
  EXPECT_EQ(Occurrences(r.dom, "<svg class=\"chart\""), 5u);
  EXPECT_EQ(Occurrences(r.dom, "<svg class=\"spans\""), 2u);  // faults, pauses
  EXPECT_EQ(Occurrences(r.dom, "<svg class=\"topology\""), 1u);
  EXPECT_EQ(Occurrences(r.dom, "<section id="), 8u);
  EXPECT_GE(Occurrences(r.dom, "<table"), 8u);
  // Chromium's lines are the page's: as many, the same names, every point.
  const auto written = Polylines(html);
  const auto rendered = Polylines(r.dom);
  ASSERT_GE(written.size(), 20u);
  EXPECT_EQ(rendered, written);
  for (const auto& [name, points] : rendered) EXPECT_GT(points, 1u) << name;
  EXPECT_EQ(Occurrences(r.dom, "<rect class=\"span\""), Occurrences(html, "<rect class=\"span\""));
  EXPECT_EQ(Occurrences(r.dom, "<path class=\"pause-arrow\""), Occurrences(html, "<path class=\"pause-arrow\""));
  EXPECT_EQ(r.dom.find("<script"), std::string::npos);
}

// A scenario name made to run script, and a summary.json edited to carry markup in its device
// names: Chromium shows the text, runs nothing, loads nothing, logs nothing.
TEST(HtmlReportChromium, HostileNamesRunNothing) {
  const std::string name = "<script>console.error('rocelab-xss')</script><img src=x onerror=console.error('rocelab-img')>";
  // The scenario file holds it in double quotes: escape the ones inside for YAML.
  std::string yaml_name;
  for (char c : name) yaml_name += c == '"' ? std::string("\\\"") : std::string(1, c);
  const std::string out = RunInto(StormScenario(yaml_name), "chromium-xss");
  std::string summary = ReadFile(out + "/summary.json");
  // h3 becomes a name with markup everywhere the summary names it.
  const std::string evil = "<svg onload=console.error('rocelab-svg')>h3";
  std::string edited;
  for (size_t at = 0;;) {
    const size_t next = summary.find("\"h3\"", at);
    edited += summary.substr(at, next == std::string::npos ? std::string::npos : next - at);
    if (next == std::string::npos) break;
    edited += "\"" + evil + "\"";
    at = next + 4;
  }
  ASSERT_NE(edited, summary);
  WriteFile(out + "/summary.json", edited);
  ASSERT_EQ(Rocelab("export html " + out).status, 0);
  const std::string html = ReadFile(out + "/report.html");
  EXPECT_EQ(html.find(name), std::string::npos);
  EXPECT_EQ(html.find(evil), std::string::npos);
  EXPECT_NE(html.find(HtmlEscape(evil)), std::string::npos);
  const Rendered r = Render(out + "/report.html");
  EXPECT_EQ(r.console, "");
  EXPECT_EQ(r.dom.find("rocelab-xss')</script>"), std::string::npos);
  EXPECT_EQ(r.dom.find("<script"), std::string::npos);
  EXPECT_EQ(r.dom.find("<img"), std::string::npos);
  EXPECT_EQ(r.dom.find("<svg onload"), std::string::npos);
  // The names are there, as text.
  EXPECT_NE(r.dom.find("&lt;script&gt;console.error('rocelab-xss')&lt;/script&gt;"), std::string::npos);
}

// The demo without its time series: the page says which series are off, shows the end-of-run figures,
// and renders to a picture with something on it.
TEST(HtmlReportChromium, PageWithoutTelemetryRenders) {
  const std::string dir = TempDir("chromium-demo");
  std::string yaml = DemoScenarioYaml();
  const std::string telemetry = "telemetry: {interval: 50us}\n";
  ASSERT_NE(yaml.find(telemetry), std::string::npos);
  yaml.erase(yaml.find(telemetry), telemetry.size());
  WriteFile(dir + "/demo.yaml", yaml);
  ASSERT_EQ(Rocelab("run " + dir + "/demo.yaml --out " + dir + " --quiet").status, 0);
  const Rendered r = Render(dir + "/report.html", dir + "/report.png");
  EXPECT_EQ(r.console, "");
  EXPECT_NE(r.dom.find("every time series is off: queue_depth"), std::string::npos);
  EXPECT_EQ(Occurrences(r.dom, "<svg class=\"chart\""), 0u);
  EXPECT_NE(r.dom.find("<h3>Egress queues</h3>"), std::string::npos);
  EXPECT_NE(r.dom.find("<h3>PFC at the end of the run</h3>"), std::string::npos);
  EXPECT_NE(r.dom.find("<h3>allreduce</h3>"), std::string::npos);
  EXPECT_NE(r.dom.find("data-from=\"h0\" data-to=\"leaf0\""), std::string::npos);
  // A PNG of text, tables and drawings: a blank page of this size compresses to about 14 KB,
  // this page to some 300 KB.
  const std::string png = ReadFile(dir + "/report.png");
  EXPECT_EQ(png.compare(0, 8, "\x89PNG\r\n\x1a\n"), 0);
  EXPECT_GT(png.size(), 140u * 1024);
}

}  // namespace
}  // namespace rocelab
