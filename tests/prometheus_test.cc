// The Prometheus exposition of a run: Prometheus's own checker (promtool) accepts it, every
// counter of summary.json appears once with its value (durations in seconds), the names follow
// the scheme, label values are escaped, and `export prom` and `run --prom` keep the command
// line's conventions.
#include "report/prometheus.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"
#include "util/config_error.h"

#include "cli/demo_scenario.h"
#include "file_util.h"

namespace rocelab {
namespace {

using Json = nlohmann::ordered_json;

// `promtool check metrics`: exit status 0 and nothing printed, or what it said.
::testing::AssertionResult PromtoolAccepts(const std::string& exposition) {
  const std::string promtool = Promtool();
  if (promtool.empty())
    return ::testing::AssertionFailure() << "promtool not found: install Debian's prometheus package (scripts/setup.sh)";
  const std::string file = TempDir("prom") + "/metrics.prom";
  WriteFile(file, exposition);
  const CommandResult r = Shell(promtool + " check metrics < " + file);
  if (r.status == 0 && r.output.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "promtool check metrics: exit " << r.status << "\n" << r.output;
}

// One sample line, read back.
struct Sample {
  std::string name;
  std::map<std::string, std::string> labels;
  std::string value;
};

struct Exposition {
  std::vector<Sample> samples;
  std::map<std::string, std::string> types;  // family name -> counter, gauge, untyped
  int help_lines = 0;
};

Exposition Parse(const std::string& text) {
  Exposition e;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# HELP ", 0) == 0) {
      ++e.help_lines;
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      const std::string rest = line.substr(7);
      e.types[rest.substr(0, rest.find(' '))] = rest.substr(rest.find(' ') + 1);
      continue;
    }
    // Read with bounds: a broken line must fail the test, not run off the end.
    Sample s;
    size_t i = 0;
    auto at = [&](size_t k) { return k < line.size() ? line[k] : '\0'; };
    while (i < line.size() && line[i] != '{' && line[i] != ' ') s.name += line[i++];
    if (at(i) == '{') {
      ++i;
      while (i < line.size() && line[i] != '}') {
        std::string key, value;
        while (i < line.size() && line[i] != '=') key += line[i++];
        i += 2;  // ="
        for (; i < line.size() && line[i] != '"'; ++i) {
          if (line[i] == '\\') {
            const char c = at(++i);
            value += c == 'n' ? '\n' : c;
          } else {
            value += line[i];
          }
        }
        ++i;  // closing quote
        if (at(i) == ',') ++i;
        s.labels[key] = value;
      }
      ++i;
    }
    if (at(i) != ' ') ADD_FAILURE() << "not a sample line: " << line;
    s.value = i < line.size() ? line.substr(i + 1) : "";
    e.samples.push_back(s);
  }
  return e;
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// What one count of a summary.json counter is in seconds, judged from its name alone: the
// devices' durations are microseconds, rocelab's busy times nanoseconds.
double DivisorOfName(const std::string& counter) {
  if (EndsWith(counter, "_ns")) return 1e9;
  if (EndsWith(counter, "_duration") || EndsWith(counter, "_DURATION_US")) return 1e6;
  return 1;
}

std::string Value(const Exposition& e, const std::string& name, const std::map<std::string, std::string>& labels);

// Every number summary.json keeps for a device or in its totals appears in exactly one sample,
// found by device, port, queue or priority group and counter name, with its value: exact for
// counts, divided into seconds for durations. Returns how many were checked.
int ExpectEveryCounterExported(const std::string& summary, const Exposition& e) {
  std::map<std::vector<std::string>, std::vector<const Sample*>> by_key;
  for (const Sample& s : e.samples) {
    if (!s.labels.count("counter")) continue;
    auto get = [&](const char* k) { return s.labels.count(k) ? s.labels.at(k) : std::string(); };
    by_key[{get("device"), get("port"), get("queue"), get("pg"), get("counter")}].push_back(&s);
  }
  int checked = 0;
  auto expect = [&](const std::vector<std::string>& key, const Json& v) {
    const auto it = by_key.find(key);
    const std::string where = key[0] + " " + key[1] + " " + key[2] + " " + key[3] + " " + key[4];
    if (it == by_key.end() || it->second.size() != 1) {
      ADD_FAILURE() << where << ": " << (it == by_key.end() ? 0 : it->second.size()) << " samples";
      return;
    }
    const Sample& s = *it->second[0];
    const double divisor = DivisorOfName(key[4]);
    if (divisor == 1) {
      EXPECT_EQ(s.value, v.dump()) << where;
    } else {
      EXPECT_EQ(std::strtod(s.value.c_str(), nullptr), v.get<double>() / divisor) << where << " " << s.value;
      EXPECT_NE(s.name.find("_seconds"), std::string::npos) << s.name;
    }
    ++checked;
  };
  Json doc = Json::parse(summary);
  for (auto& [host, h] : doc["hosts"].items())
    for (const char* block : {"ethtool", "hw_counters", "rocelab", "sysfs", "fec"})
      if (h.contains(block))
        for (const auto& [k, v] : h[block].items())
          if (v.is_number()) expect({host, h["netdev"].get<std::string>(), "", "", k}, v);
  for (auto& [sw, s] : doc["switches"].items()) {
    for (const auto& [k, v] : s.items())
      if (v.is_number()) expect({sw, "", "", "", k}, v);
    for (const auto& [k, v] : s["buffer"].items()) expect({sw, "", "", "", k}, v);
    for (auto& [port, p] : s["ports"].items()) {
      for (const auto& [k, v] : p.items())
        if (v.is_number() && k != "speed") expect({sw, port, "", "", k}, v);
      // The port's speed is a setting, a gauge of its own in bytes per second.
      if (p.contains("speed")) {
        EXPECT_EQ(Value(e, "rocelab_switch_port_speed_bytes", {{"device", sw}, {"port", port}}),
                  std::to_string(p["speed"].get<uint64_t>() * 125000));
      }
      for (const auto& [q, counters] : p["queues"].items())
        for (const auto& [k, v] : counters.items()) expect({sw, port, q.substr(2), "", k}, v);
      for (const auto& [pg, counters] : p["priority_groups"].items())
        for (const auto& [k, v] : counters.items()) expect({sw, port, "", pg.substr(2), k}, v);
      if (p.contains("pfcwd"))
        for (const auto& [q, stats] : p["pfcwd"].items())
          for (const auto& [k, v] : stats.items())
            if (v.is_number()) expect({sw, port, q.substr(2), "", k}, v);
    }
  }
  for (const auto& [k, v] : doc["totals"].items()) expect({"", "", "", "", k}, v);
  return checked;
}

// The value of the one sample of `name` whose labels include `labels`.
std::string Value(const Exposition& e, const std::string& name, const std::map<std::string, std::string>& labels) {
  std::string found = "(none)";
  int n = 0;
  for (const Sample& s : e.samples) {
    if (s.name != name) continue;
    bool all = true;
    for (const auto& [k, v] : labels) all &= s.labels.count(k) && s.labels.at(k) == v;
    if (all) {
      found = s.value;
      ++n;
    }
  }
  return n == 1 ? found : "(" + std::to_string(n) + " samples)";
}

// 7 -> 1 incast with PFC and DCQCN into a host that drains at half line rate: the NIC and the
// switches pause, queues mark ECN, CNPs flow. The name holds what a label value must escape.
const char* kIncast =
    "name: \"prom \\\"incast\\\" \\\\ one\\ntwo\"\n"
    "duration: 5ms\n"
    "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4,\n"
    "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}\n"
    "switch:\n"
    "  lossless_priorities: [3]\n"
    "  pfc: {enabled: true}\n"
    "  ecn: {enabled: true, kmin: 20KB, kmax: 200KB, pmax: 0.2}\n"
    "nic: {mtu: 4096, cc: dcqcn}\n"
    "devices: {h0: {rx_drain_rate: 50G}}\n"
    "workload:\n"
    "  - {type: incast, senders: [h1, h2, h3, h4, h5, h6, h7], dst: h0, size: 512KB, priority: 3}\n";

// Bit errors before FEC on a fabric link and a host link.
const char* kLinkErrors =
    "name: link-errors\n"
    "duration: 2ms\n"
    "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 2,\n"
    "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}\n"
    "switch: {lossless_priorities: [3], pfc: {enabled: true}}\n"
    "nic: {mtu: 4096, cc: dcqcn}\n"
    "faults:\n"
    "  - {kind: link_errors, target: leaf0-spine0, at: 0s, pre_fec_ber: 1e-5}\n"
    "  - {kind: link_errors, target: h0-leaf0, at: 0s, pre_fec_ber: 1e-4}\n"
    "workload:\n"
    "  - {type: flow, src: h0, dst: h2, size: 1MB, priority: 3}\n"
    "  - {type: flow, src: h1, dst: h3, size: 256KB, priority: 3}\n";

std::string SummaryOf(const char* yaml) { return SummaryJson(*RunYaml(yaml).run); }

TEST(Prometheus, LabelValuesAndHelpTextsAreEscaped) {
  EXPECT_EQ(PrometheusLabelValue("h\"x\\y"), "h\\\"x\\\\y");
  EXPECT_EQ(PrometheusLabelValue("one\ntwo"), "one\\ntwo");
  EXPECT_EQ(PrometheusLabelValue("\\\"\n"), "\\\\\\\"\\n");
  EXPECT_EQ(PrometheusLabelValue("leaf0:Ethernet8/3 {a=b}"), "leaf0:Ethernet8/3 {a=b}");
  EXPECT_EQ(PrometheusHelpText("a \"quoted\" \\ line\nand more"), "a \"quoted\" \\\\ line\\nand more");

  // The scenario's names never hold such characters, but a summary.json may come from anywhere:
  // a hostile device name reaches the exposition only escaped, and promtool reads it back.
  const std::string hostile = "h\"x\\y\nz";
  const Json doc = {{"sim_time_ns", 1000},
                    {"hosts", {{hostile, {{"netdev", "eth0"}, {"ethtool", {{"rx_prio3_pause", 5}}}}}}},
                    {"switches", {{"leaf\"0", {{"ports", {{"Ethernet0\n", {{"peer", hostile}}}}}}}}}};
  const std::string text = PrometheusText(doc.dump(), "hostile.json");
  EXPECT_NE(text.find("rocelab_nic_rx_pause_frames_total{device=\"h\\\"x\\\\y\\nz\",port=\"eth0\",priority=\"3\","
                      "counter=\"rx_prio3_pause\"} 5\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("rocelab_switch_port_info{device=\"leaf\\\"0\",port=\"Ethernet0\\n\",peer=\"h\\\"x\\\\y\\nz\"} 1\n"),
            std::string::npos)
      << text;
  EXPECT_TRUE(PromtoolAccepts(text));
  const Exposition e = Parse(text);
  EXPECT_EQ(Value(e, "rocelab_nic_rx_pause_frames_total", {{"device", hostile}}), "5");

  // A byte that is not UTF-8 (a Latin-1 name) becomes '?': the format requires UTF-8.
  const std::string latin1 = "{\"sim_time_ns\": 1, \"scenario\": \"caf\xe9\"}";
  const std::string mended = PrometheusText(latin1, "latin1.json");
  EXPECT_NE(mended.find("scenario=\"caf?\""), std::string::npos) << mended;
  EXPECT_TRUE(PromtoolAccepts(mended));
}

TEST(Prometheus, IncastCountersAreSummaryJsonsValues) {
  const std::string summary = SummaryOf(kIncast);
  const std::string text = PrometheusText(summary, "summary.json");
  ASSERT_TRUE(PromtoolAccepts(text));
  const Exposition e = Parse(text);
  EXPECT_GT(ExpectEveryCounterExported(summary, e), 500);
  Json doc = Json::parse(summary);

  // The NIC that drains slowly pauses its leaf: one family, the priority a label, the device's
  // own name kept as `counter`.
  const Json& h0 = doc["hosts"]["h0"]["ethtool"];
  ASSERT_GT(h0["tx_prio3_pause"].get<uint64_t>(), 0u);
  EXPECT_EQ(Value(e, "rocelab_nic_tx_pause_frames_total",
                  {{"device", "h0"}, {"port", "eth0"}, {"priority", "3"}, {"counter", "tx_prio3_pause"}}),
            std::to_string(h0["tx_prio3_pause"].get<uint64_t>()));
  const Json& leaf = doc["switches"]["leaf0"]["ports"]["Ethernet0"];
  ASSERT_GT(leaf["SAI_PORT_STAT_PFC_3_RX_PKTS"].get<uint64_t>(), 0u);
  EXPECT_EQ(Value(e, "rocelab_switch_port_pfc_rx_packets_total",
                  {{"device", "leaf0"}, {"port", "Ethernet0"}, {"priority", "3"}}),
            std::to_string(leaf["SAI_PORT_STAT_PFC_3_RX_PKTS"].get<uint64_t>()));

  // Durations in seconds: microseconds and nanoseconds divided, to the last digit.
  const uint64_t paused_us = h0["tx_prio3_pause_duration"].get<uint64_t>();
  ASSERT_GT(paused_us, 0u);
  EXPECT_EQ(std::strtod(Value(e, "rocelab_nic_tx_pause_duration_seconds_total", {{"device", "h0"}, {"priority", "3"}}).c_str(),
                        nullptr),
            static_cast<double>(paused_us) / 1e6);
  const uint64_t busy_ns = doc["hosts"]["h1"]["rocelab"]["tx_busy_ns"].get<uint64_t>();
  EXPECT_EQ(std::strtod(Value(e, "rocelab_nic_tx_busy_seconds_total", {{"device", "h1"}}).c_str(), nullptr),
            static_cast<double>(busy_ns) / 1e9);
  EXPECT_EQ(std::strtod(Value(e, "rocelab_run_simulated_seconds", {}).c_str(), nullptr),
            doc["sim_time_ns"].get<double>() / 1e9);

  // ECN marks and CNPs moved, and the totals say so.
  EXPECT_NE(Value(e, "rocelab_fabric_ecn_marked_packets_total", {}), "0");
  EXPECT_EQ(Value(e, "rocelab_fabric_cnp_sent_total", {}), doc["totals"]["cnp_sent"].dump());
  EXPECT_NE(Value(e, "rocelab_rdma_np_cnp_sent_total", {{"device", "h0"}}), "0");

  // Settings and watermarks are gauges; counters end in _total.
  EXPECT_EQ(e.types.at("rocelab_switch_port_headroom_bytes"), "gauge");
  EXPECT_EQ(e.types.at("rocelab_switch_queue_watermark_bytes"), "gauge");
  EXPECT_EQ(e.types.at("rocelab_nic_rx_xoff_threshold_bytes"), "gauge");
  EXPECT_EQ(e.types.at("rocelab_switch_ecn_kmin_bytes"), "gauge");
  EXPECT_EQ(Value(e, "rocelab_switch_ecn_kmin_bytes", {{"device", "leaf0"}}), "20480");
  EXPECT_EQ(Value(e, "rocelab_switch_pfc_enabled", {{"device", "leaf0"}, {"priority", "3"}}), "1");
  EXPECT_EQ(Value(e, "rocelab_switch_pfc_enabled", {{"device", "leaf0"}, {"priority", "2"}}), "0");
  for (const auto& [name, type] : e.types) EXPECT_EQ(EndsWith(name, "_total"), type == "counter") << name;

  // Flows and the slowdown table as gauges.
  EXPECT_EQ(Value(e, "rocelab_flow_state", {{"flow", "0"}, {"state", "finished"}}), "1");
  EXPECT_EQ(std::strtod(Value(e, "rocelab_flow_fct_seconds", {{"flow", "0"}}).c_str(), nullptr),
            doc["flows"][0]["fct_ns"].get<double>() / 1e9);
  EXPECT_EQ(Value(e, "rocelab_fct_slowdown_ratio", {{"bucket", "all"}, {"percentile", "p99"}}),
            doc["fct_slowdown"][0]["p99"].dump());
  EXPECT_EQ(Value(e, "rocelab_fct_slowdown_flows", {{"bucket", "all"}}), "7");

  // The scenario's name, quotes, backslash and line feed included, survives the trip.
  EXPECT_EQ(Value(e, "rocelab_run_info", {}), "1");
  EXPECT_NE(text.find("scenario=\"prom \\\"incast\\\" \\\\ one\\ntwo\""), std::string::npos);

  // Every counter the model produces has a metric of its own.
  for (const auto& [name, type] : e.types) EXPECT_FALSE(EndsWith(name, "_other")) << name;
  // One HELP and one TYPE per family.
  EXPECT_EQ(e.help_lines, static_cast<int>(e.types.size()));
}

TEST(Prometheus, LinkErrorsShowInFecCounters) {
  const std::string summary = SummaryOf(kLinkErrors);
  const std::string text = PrometheusText(summary, "summary.json");
  ASSERT_TRUE(PromtoolAccepts(text));
  const Exposition e = Parse(text);
  ExpectEveryCounterExported(summary, e);
  Json doc = Json::parse(summary);
  const Json& fec = doc["hosts"]["h0"]["fec"];
  ASSERT_GT(fec["corrected_blocks"].get<uint64_t>(), 0u);
  EXPECT_EQ(Value(e, "rocelab_nic_fec_corrected_codewords_total", {{"device", "h0"}}), fec["corrected_blocks"].dump());
  EXPECT_EQ(Value(e, "rocelab_nic_fec_info", {{"device", "h0"}, {"code", fec["code"].get<std::string>()}}), "1");
  EXPECT_EQ(Value(e, "rocelab_nic_rx_lane_corrected_bit_errors_total",
                  {{"device", "h0"}, {"lane", "0"}, {"counter", "rx_err_lane_0_phy"}}),
            doc["hosts"]["h0"]["ethtool"]["rx_err_lane_0_phy"].dump());
  // The fabric link's ends: SAI counts codewords under a name that says frames.
  const Json& spine_side = doc["switches"]["leaf0"]["ports"]["Ethernet8"];
  ASSERT_EQ(spine_side["peer"], "spine0");
  EXPECT_NE(spine_side["SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES"].get<uint64_t>(), 0u);
  EXPECT_EQ(Value(e, "rocelab_switch_port_in_fec_correctable_codewords_total", {{"device", "leaf0"}, {"port", "Ethernet8"}}),
            spine_side["SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES"].dump());
  EXPECT_EQ(Value(e, "rocelab_switch_port_info", {{"device", "leaf0"}, {"port", "Ethernet8"}, {"peer", "spine0"}}), "1");
  EXPECT_EQ(Value(e, "rocelab_switch_port_oper_up", {{"device", "leaf0"}, {"port", "Ethernet8"}}), "1");
  EXPECT_EQ(Value(e, "rocelab_nic_oper_up", {{"device", "h0"}}), "1");
  EXPECT_EQ(Value(e, "rocelab_fault_injected_seconds", {{"fault", "0"}, {"kind", "link_errors"}, {"target", "leaf0-spine0"}}),
            "0");
  for (const auto& [name, type] : e.types) EXPECT_FALSE(EndsWith(name, "_other")) << name;
}

// The demo's storm without its recovery, so the switch PFC watchdog acts, through the command
// line: the watchdog's figures, `run --prom` and `export prom` agreeing.
TEST(Prometheus, WatchdogAndBothCommandsWriteTheSameBytes) {
  const std::string dir = TempDir("prom");
  std::string yaml = DemoScenarioYaml();
  const std::string recovery = "recovery: {mode: auto}\n";
  ASSERT_NE(yaml.find(recovery), std::string::npos);
  yaml.erase(yaml.find(recovery), recovery.size());
  const std::string scenario = WriteFile(dir + "/storm.yaml", yaml);
  const CommandResult run = Rocelab("run " + scenario + " --out " + dir + "/demo --prom " + dir + "/demo/rocelab.prom");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("wrote " + dir + "/demo/summary.json and " + dir + "/demo/rocelab.prom"), std::string::npos)
      << run.output;
  const std::string from_run = ReadFile(dir + "/demo/rocelab.prom");
  ASSERT_TRUE(PromtoolAccepts(from_run));
  const Exposition e = Parse(from_run);
  ExpectEveryCounterExported(ReadFile(dir + "/demo/summary.json"), e);
  EXPECT_EQ(Value(e, "rocelab_switch_pfcwd_stormed", {{"device", "leaf0"}, {"port", "Ethernet0"}, {"queue", "3"}}), "1");
  EXPECT_NE(Value(e, "rocelab_switch_pfcwd_tx_dropped_packets_total", {{"device", "leaf0"}, {"queue", "3"}}), "0");
  EXPECT_EQ(Value(e, "rocelab_switch_pfcwd_storms_detected_total", {{"device", "leaf0"}, {"queue", "3"}}), "1");
  EXPECT_EQ(Value(e, "rocelab_fault_injected_seconds", {{"kind", "pfc_storm"}, {"target", "h0"}}), "0.003");

  const CommandResult to_stdout = Rocelab("export prom " + dir + "/demo");
  ASSERT_EQ(to_stdout.status, 0) << to_stdout.output;
  EXPECT_EQ(to_stdout.output, from_run);
  const CommandResult to_file = Rocelab("export prom " + dir + "/demo/summary.json --out " + dir + "/exported.prom");
  ASSERT_EQ(to_file.status, 0) << to_file.output;
  EXPECT_EQ(to_file.output, "");
  EXPECT_EQ(ReadFile(dir + "/exported.prom"), from_run);
  EXPECT_FALSE(Exists(dir + "/exported.prom.tmp"));
}

// The engine block is the only difference between two runs of a scenario; the exposition
// leaves it out, so the same scenario and seed give the same bytes.
TEST(Prometheus, SameScenarioSameBytes) {
  const std::string a = SummaryOf(kIncast), b = SummaryOf(kIncast);
  EXPECT_EQ(PrometheusText(a, "a.json"), PrometheusText(b, "b.json"));
  EXPECT_EQ(PrometheusText(a, "a.json").find("wall"), std::string::npos);
}

TEST(Prometheus, NamesFollowTheScheme) {
  const std::regex valid("[a-zA-Z_:][a-zA-Z0-9_:]*");
  std::set<std::string> names, patterns;
  const std::vector<PrometheusCounterMetric> metrics = PrometheusCounterMetrics();
  ASSERT_GT(metrics.size(), 90u);
  for (const PrometheusCounterMetric& m : metrics) {
    EXPECT_TRUE(std::regex_match(m.metric, valid)) << m.metric;
    EXPECT_EQ(m.metric.rfind("rocelab_", 0), 0u) << m.metric;
    EXPECT_EQ(m.metric.find(':'), std::string::npos) << m.metric;  // colons are for recording rules
    EXPECT_EQ(EndsWith(m.metric, "_total"), m.is_counter) << m.metric;
    // Units: a duration is in seconds and nothing else is; bytes say so.
    const bool duration = m.unit == "us" || m.unit == "ns";
    EXPECT_EQ(duration, m.metric.find("_seconds") != std::string::npos) << m.metric << " (" << m.unit << ")";
    if (m.unit == "bytes") {
      EXPECT_NE(m.metric.find("_bytes"), std::string::npos) << m.metric;
    }
    // Prometheus's base units only: no bits, no abbreviations.
    EXPECT_EQ(m.metric.find("_bits"), std::string::npos) << m.metric;
    for (const char* abbreviation : {"_us", "_ns", "_ms", "_sec", "_kb", "_mb", "_pkts"})
      EXPECT_FALSE(m.metric.find(std::string(abbreviation) + "_") != std::string::npos || EndsWith(m.metric, abbreviation))
          << m.metric;
    EXPECT_TRUE(names.insert(m.metric).second) << "two counters share " << m.metric;
    EXPECT_TRUE(patterns.insert(m.block + "." + m.counter).second) << m.block << "." << m.counter;
  }
  // The vocabulary's per-priority counters are one family each, with a priority label.
  EXPECT_TRUE(patterns.count("ethtool.rx_prio<N>_pause"));
  EXPECT_TRUE(patterns.count("ports.SAI_PORT_STAT_PFC_<N>_RX_PAUSE_DURATION_US"));
}

// The checker this suite trusts does catch what the writer must not do.
TEST(Prometheus, PromtoolRefusesABrokenExposition) {
  const std::string good = "# HELP x_frames_total Frames.\n# TYPE x_frames_total counter\nx_frames_total 1\n";
  EXPECT_TRUE(PromtoolAccepts(good));
  EXPECT_FALSE(PromtoolAccepts("# HELP x_frames Frames.\n# TYPE x_frames counter\nx_frames 1\n"));  // no _total
  EXPECT_FALSE(PromtoolAccepts(good + good));                                                    // a family twice
  EXPECT_FALSE(PromtoolAccepts("# HELP x_us Time.\n# TYPE x_us gauge\nx_us 1\n"));                // an abbreviated unit
  EXPECT_FALSE(PromtoolAccepts("# TYPE x_total counter\nx_total{a=\"b\"c\"} 1\n"));              // an unescaped quote
}

TEST(Prometheus, RunPromWritesTheFileOrNothing) {
  const std::string dir = TempDir("prom");
  const std::string scenario = dir + "/incast.yaml";
  WriteFile(scenario, kIncast);
  // Into the --out folder the run creates.
  CommandResult r = Rocelab("run " + scenario + " --out " + dir + "/a --prom " + dir + "/a/metrics.prom --quiet");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(ReadFile(dir + "/a/metrics.prom"), PrometheusText(ReadFile(dir + "/a/summary.json"), "summary.json"));
  EXPECT_TRUE(PromtoolAccepts(ReadFile(dir + "/a/metrics.prom")));
  // --counters none: flows and totals only, still a valid exposition.
  r = Rocelab("run " + scenario + " --out " + dir + "/b --counters none --prom=" + dir + "/b.prom --quiet");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string none = ReadFile(dir + "/b.prom");
  EXPECT_TRUE(PromtoolAccepts(none));
  EXPECT_EQ(none.find("rocelab_nic_"), std::string::npos);
  EXPECT_NE(none.find("rocelab_fabric_tx_pause_frames_total"), std::string::npos);
  // A file that cannot be written is refused before the run: nothing is written.
  for (const std::string& bad : {dir + "/no-such-folder/x.prom", dir, std::string()}) {
    r = Rocelab("run " + scenario + " --out " + dir + "/c --prom=" + bad);
    EXPECT_EQ(r.status, 2) << bad << "\n" << r.output;
    EXPECT_NE(r.output.find("run: --prom"), std::string::npos) << r.output;
    EXPECT_FALSE(Exists(dir + "/c")) << bad;
  }
}

TEST(Prometheus, ExportRefusesWhatIsNotARunAndWritesNothing) {
  const std::string dir = TempDir("prom");
  const std::string out = dir + "/out.prom";
  mkdir((dir + "/empty").c_str(), 0755);
  mkdir((dir + "/other").c_str(), 0755);
  WriteFile(dir + "/other/summary.json", "{\"name\": \"not a run\"}\n");
  mkdir((dir + "/garbled").c_str(), 0755);
  WriteFile(dir + "/garbled/summary.json", "{\"sim_time_ns\": 1,\n \"hosts\": {\n");
  mkdir((dir + "/typed").c_str(), 0755);
  WriteFile(dir + "/typed/summary.json", "{\"sim_time_ns\": 1, \"hosts\": {\"h0\": {\"ethtool\": {\"rx_prio3_pause\": \"many\"}}}}");
  mkdir((dir + "/negative").c_str(), 0755);
  WriteFile(dir + "/negative/summary.json", "{\"sim_time_ns\": 1, \"totals\": {\"drops_lossless\": -1}}");
  mkdir((dir + "/twice").c_str(), 0755);
  WriteFile(dir + "/twice/summary.json", "{\"sim_time_ns\": 1, \"flows\": [{\"id\": 1, \"bytes\": 2}, {\"id\": 1, \"bytes\": 2}]}");
  mkdir((dir + "/queue").c_str(), 0755);
  WriteFile(dir + "/queue/summary.json",
        "{\"sim_time_ns\": 1, \"switches\": {\"s\": {\"ports\": {\"Ethernet0\": {\"queues\": {\"Q9\": {}}}}}}}");
  struct Case {
    std::string dir, says;
  };
  const std::vector<Case> cases = {
      {dir + "/missing", dir + "/missing: no such folder"},
      {dir + "/empty", dir + "/empty/summary.json: no such file (is " + dir + "/empty a run's --out folder?)"},
      {dir + "/other", dir + "/other/summary.json: not a rocelab summary.json"},
      {dir + "/garbled", dir + "/garbled/summary.json:3: not a rocelab summary.json: syntax error"},
      {dir + "/typed", "key 'hosts.h0.ethtool.rx_prio3_pause': expected a number, found string"},
      {dir + "/negative", "key 'totals.drops_lossless': a counter cannot be negative"},
      {dir + "/twice", "two samples of rocelab_flow_size_bytes{flow=\"1\",src=\"\",dst=\"\",priority=\"\"}"},
      {dir + "/queue", "key 'switches.s.ports.Ethernet0.queues.Q9': not a name from UC0 to UC7"},
  };
  for (const Case& c : cases) {
    const CommandResult r = Rocelab("export prom " + c.dir + " --out " + out);
    EXPECT_EQ(r.status, 2) << c.dir << "\n" << r.output;
    EXPECT_EQ(r.output.rfind("rocelab: export prom: ", 0), 0u) << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("\nsee: rocelab export prom --help\n"), std::string::npos) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 2) << r.output;
    EXPECT_FALSE(Exists(out)) << c.dir;
    EXPECT_FALSE(Exists(out + ".tmp")) << c.dir;
    // To standard output: the error, and not a line of exposition.
    const CommandResult piped = Rocelab("export prom " + c.dir);
    EXPECT_EQ(piped.status, 2);
    EXPECT_EQ(piped.output.find("# HELP"), std::string::npos) << piped.output;
  }
  // An --out that cannot be written is refused before anything is read.
  const CommandResult r = Rocelab("export prom " + dir + "/other --out " + dir + "/no-such-folder/out.prom");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("export prom: --out: no folder " + dir + "/no-such-folder"), std::string::npos) << r.output;
  EXPECT_EQ(Rocelab("export prom").status, 2);
  EXPECT_EQ(Rocelab("export").status, 2);
}

// The fault lifecycle of the demo (storm detected, ignored, recovered; its cost) as metrics equal
// to summary.json's figures, which promtool accepts.
TEST(Prometheus, FaultLifecycleIsSummaryJsonsFigures) {
  const std::string dir = TempDir("prom");
  ASSERT_EQ(Rocelab("demo --out " + dir + " --quiet").status, 0);
  const std::string summary = ReadFile(dir + "/summary.json");
  const std::string text = PrometheusText(summary, "summary.json");
  EXPECT_TRUE(PromtoolAccepts(text));
  const Exposition e = Parse(text);
  const Json f = Json::parse(summary)["faults"][0];
  const std::map<std::string, std::string> at = {{"fault", "0"}, {"kind", "pfc_storm"}, {"target", "h0"}};
  auto seconds = [&](const std::string& name, const std::map<std::string, std::string>& labels, const char* key) {
    EXPECT_DOUBLE_EQ(std::strtod(Value(e, name, labels).c_str(), nullptr), f[key].get<double>() / 1e9) << name;
  };
  auto with = [&](std::map<std::string, std::string> l, const std::string& k, const std::string& v) {
    l[k] = v;
    return l;
  };
  seconds("rocelab_fault_detected_seconds",
          with(with(with(at, "rule", f["detected_by"]), "tier", f["detected_tier"]), "location", f["detected_at"]),
          "detected_ns");
  seconds("rocelab_fault_mttd_seconds", at, "mttd_ns");
  seconds("rocelab_fault_localized_seconds", with(at, "location", f["localized_to"]), "localized_ns");
  seconds("rocelab_fault_recovered_seconds", at, "recovered_ns");
  seconds("rocelab_fault_mttr_seconds", at, "mttr_ns");
  seconds("rocelab_fault_lost_seconds", at, "lost_ns");
  for (const char* tier : {"T2", "T3"}) {
    size_t n = 0;
    for (const auto& a : f["actions"]) n += a["tier"] == tier;
    EXPECT_EQ(Value(e, "rocelab_fault_actions_total", with(at, "tier", tier)), std::to_string(n)) << tier;
  }
  EXPECT_EQ(Value(e, "rocelab_fault_flows_failed", at), f["flows_failed"].dump());
  EXPECT_EQ(Value(e, "rocelab_fault_action_dropped_bytes_total", with(at, "agent", "pfc_watchdog")),
            f["dropped_by"]["pfc_watchdog"].dump());
  EXPECT_DOUBLE_EQ(std::strtod(Value(e, "rocelab_fault_cost", with(at, "currency", "USD")).c_str(), nullptr),
                   f["cost"]["amount"].get<double>());
}

// docs/prometheus.md names every family a run can produce.
TEST(Prometheus, DocsNameEveryFamily) {
  const std::string docs = ReadFile(std::string(ROCELAB_SOURCE_DIR) + "/docs/prometheus.md");
  ASSERT_FALSE(docs.empty());
  std::set<std::string> families;
  for (const PrometheusCounterMetric& m : PrometheusCounterMetrics()) families.insert(m.metric);
  for (const char* yaml : {kIncast, kLinkErrors})
    for (const auto& [name, type] : Parse(PrometheusText(SummaryOf(yaml), "summary.json")).types) families.insert(name);
  const std::string dir = TempDir("prom");
  ASSERT_EQ(Rocelab("demo --out " + dir + " --quiet").status, 0);
  for (const auto& [name, type] : Parse(PrometheusText(ReadFile(dir + "/summary.json"), "summary.json")).types)
    families.insert(name);
  for (const std::string& f : families) EXPECT_NE(docs.find("`" + f + "`"), std::string::npos) << f;
  EXPECT_NE(docs.find("`rocelab_switch_port_other`"), std::string::npos);
}

}  // namespace
}  // namespace rocelab
