// rocelab compare: two real runs of one incast with PFC on and off show the setting that
// differs and the pauses that went with it; the same run twice shows nothing; bundles of
// `rocelab collect` compare by their NIC counters and settings, with a run too; and what is
// neither a run nor a bundle is refused with the file named, exit status 2, nothing written.
#include "report/compare.h"
#include "report/html_page.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "collect/collect.h"
#include "file_util.h"
#include "util/config_error.h"

namespace rocelab {
namespace {

using Json = nlohmann::json;

// Five senders into h0 through a 1 MB buffer, ECN off, beside a 4-rank ring AllReduce across
// both leaves. With PFC the switches pause the senders; without it the buffer overflows.
std::string Incast(bool pfc) {
  return std::string("name: incast-ar\nseed: 3\nduration: 5ms\n") +
         "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4,\n"
         "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}\n"
         "switch:\n  buffer: 1MB\n  lossless_priorities: [3]\n"
         "  pfc: {enabled: " + (pfc ? "true" : "false") + ", headroom: auto}\n"
         "  ecn: {enabled: false}\n"
         "nic: {mtu: 4096, cc: dcqcn}\n"
         "workload:\n"
         "  - {type: incast, dst: h0, senders: [h1, h4, h5, h6, h7], size: 512KB, priority: 3}\n"
         "  - {type: allreduce, hosts: [h2, h5, h3, h6], size: 1MB, iterations: 3}\n"
         "telemetry: {interval: 10us}\n";
}

// Runs `yaml` into DIR/name and returns the folder.
std::string RunInto(const std::string& dir, const std::string& name, const std::string& yaml) {
  WriteFile(dir + "/" + name + ".yaml", yaml);
  const CommandResult r = Rocelab("run " + dir + "/" + name + ".yaml --out " + dir + "/" + name + " --quiet");
  EXPECT_EQ(r.status, 0) << r.output;
  return dir + "/" + name;
}

const FigureChange* FindFigure(const Comparison& c, const std::string& section, const std::string& name) {
  for (const FigureChange& f : c.figures)
    if (f.section == section && f.name == name) return &f;
  return nullptr;
}

// The figure's two values, or a failure naming it.
std::pair<double, double> AB(const Comparison& c, const std::string& section, const std::string& name) {
  const FigureChange* f = FindFigure(c, section, name);
  if (!f || !f->a || !f->b) {
    ADD_FAILURE() << section << " / " << name << (f ? ": a value is missing" : ": no such figure");
    return {-1, -1};
  }
  return {*f->a, *f->b};
}

// Sum of a summary's per-port pause durations (µs): NIC rx_prio<N>_pause_duration and switch
// SAI_PORT_STAT_PFC_<N>_RX_PAUSE_DURATION_US.
double TimePausedUs(const Json& s) {
  double sum = 0;
  for (const auto& [host, h] : s["hosts"].items())
    for (const auto& [k, v] : h["ethtool"].items())
      if (k.find("_pause_duration") != std::string::npos && k.rfind("rx_prio", 0) == 0) sum += v.get<double>();
  for (const auto& [sw, x] : s["switches"].items())
    for (const auto& [port, p] : x["ports"].items())
      for (const auto& [k, v] : p.items())
        if (k.find("_RX_PAUSE_DURATION_US") != std::string::npos) sum += v.get<double>();
  return sum;
}

TEST(Compare, PfcOnAndOffShowsThePauseDifferenceAndTheSetting) {
  const std::string dir = TempDir("compare");
  const std::string on = RunInto(dir, "on", Incast(true)), off = RunInto(dir, "off", Incast(false));
  const Json a = Json::parse(ReadFile(on + "/summary.json")), b = Json::parse(ReadFile(off + "/summary.json"));
  ASSERT_GT(a["totals"]["pause_frames_tx"].get<double>(), 0);
  ASSERT_EQ(b["totals"]["pause_frames_tx"].get<double>(), 0);
  ASSERT_GT(b["totals"]["drops_lossy"].get<double>(), 0);  // without PFC priority 3 is a lossy class

  const Comparison c = Compare(on, off);
  EXPECT_EQ(c.a.kind, "run");
  EXPECT_EQ(c.b.kind, "run");
  // The one setting that differs: PFC's priorities, on every host and switch.
  ASSERT_EQ(c.settings.size(), 12u);  // 8 hosts, 4 switches
  for (const SettingChange& s : c.settings) {
    EXPECT_EQ(s.key, "pfc_priorities") << s.device;
    EXPECT_EQ(s.a, "[3]") << s.device;
    EXPECT_EQ(s.b, "[]") << s.device;
  }
  EXPECT_EQ(c.settings[0].device, "h0");
  EXPECT_EQ(c.settings.back().device, "spine1");
  EXPECT_TRUE(c.devices_only_in_a.empty());

  // The pauses, from the totals and summed over the ports.
  EXPECT_EQ(AB(c, "PFC", "pause frames sent"), std::make_pair(a["totals"]["pause_frames_tx"].get<double>(), 0.0));
  EXPECT_EQ(AB(c, "PFC", "pause frames received"), std::make_pair(a["totals"]["pause_frames_rx"].get<double>(), 0.0));
  const double paused = TimePausedUs(a);
  EXPECT_GT(paused, 0);
  EXPECT_EQ(AB(c, "PFC", "time paused (sum over ports)"), std::make_pair(paused, 0.0));
  EXPECT_EQ(*FindFigure(c, "PFC", "pause frames sent")->change_pct(), -100);
  // The loss PFC prevented: the drops of priority 3 in B.
  const double lossy = b["totals"]["drops_lossy"].get<double>();
  EXPECT_EQ(AB(c, "Drops", "lossy classes"), std::make_pair(0.0, lossy));
  EXPECT_EQ(AB(c, "Drops", "lossless classes"), std::make_pair(0.0, 0.0));
  EXPECT_EQ(AB(c, "Drops", "priority 3"), std::make_pair(0.0, lossy));
  EXPECT_EQ(FindFigure(c, "Drops", "priority 0"), nullptr);  // zero on both sides: left out
  EXPECT_EQ(AB(c, "Transport", "retransmitted packets").second, b["totals"]["retransmitted_packets"].get<double>());

  // AllReduce: busbw as summary.json says, the mean of the iteration times.
  const Json& ar = a["workloads"][0];
  double sum = 0;
  for (const Json& t : ar["iteration_ns"]) sum += t.get<double>();
  EXPECT_EQ(AB(c, "AllReduce", "busbw").first, ar["busbw_gbps"].get<double>());
  EXPECT_DOUBLE_EQ(AB(c, "AllReduce", "iteration time (mean)").first, sum / 3 / 1e3);
  EXPECT_EQ(AB(c, "FCT slowdown", "all flows p99").first, a["fct_slowdown"][0]["p99"].get<double>());
  EXPECT_EQ(AB(c, "Flows", "finished"), std::make_pair(5.0, 4.0));  // one flow of B never finished

  // ECMP: leaf0's uplinks are Ethernet16 (spine0) and Ethernet20 (spine1); the busiest and the
  // least loaded, as their busy time over the run.
  const double sim = a["sim_time_ns"].get<double>();
  const double u16 = a["switches"]["leaf0"]["ports"]["Ethernet16"]["rocelab_tx_busy_ns"].get<double>() / sim * 100;
  const double u20 = a["switches"]["leaf0"]["ports"]["Ethernet20"]["rocelab_tx_busy_ns"].get<double>() / sim * 100;
  ASSERT_NE(u16, u20);
  const FigureChange* busiest = FindFigure(c, "Uplink utilization", "leaf0 busiest uplink");
  const FigureChange* least = FindFigure(c, "Uplink utilization", "leaf0 least loaded uplink");
  ASSERT_NE(busiest, nullptr);
  ASSERT_NE(least, nullptr);
  EXPECT_DOUBLE_EQ(*busiest->a, std::max(u16, u20));
  EXPECT_DOUBLE_EQ(*least->a, std::min(u16, u20));
  EXPECT_EQ(busiest->a_detail, u20 > u16 ? "Ethernet20 → spine1" : "Ethernet16 → spine0");
  // Spines have no uplinks in a two-tier fabric.
  for (const FigureChange& f : c.figures) EXPECT_EQ(f.name.find("spine"), std::string::npos) << f.name;

  // The verdict weighs loss first, then the service (flows finished), then tails: B is worse, and
  // its fewer pauses are no gain.
  EXPECT_EQ(c.verdict, "B is worse: drops in lossy classes 0 → " + std::to_string(static_cast<int>(lossy)));
  ASSERT_EQ(c.also.size(), 2u);
  EXPECT_EQ(c.also[0], "flows finished -20 % (5 → 4), worse");
  for (const std::string& line : c.also) {
    if (line.find("pause frames") != std::string::npos) {
      EXPECT_NE(line.find("only in name: it came with the loss above"), std::string::npos) << line;
    }
    if (line.find("FCT slowdown") != std::string::npos) {
      EXPECT_NE(line.find("(over the flows that finished: 5 in A, 4 in B)"), std::string::npos) << line;
    }
  }

  // The command: the table and JSON say the same.
  const CommandResult text = Rocelab("compare " + on + " " + off);
  ASSERT_EQ(text.status, 0) << text.output;
  EXPECT_EQ(text.output.substr(0, text.output.find('\n')), c.verdict);
  EXPECT_NE(text.output.find("h0..h7, leaf0, leaf1, spine0, spine1: pfc_priorities [3] → []"), std::string::npos)
      << text.output;
  // The pause row: A's count, B's 0, the change and -100 %.
  const std::string frames = a["totals"]["pause_frames_tx"].dump();
  const size_t at = text.output.find("\n  pause frames sent ");
  ASSERT_NE(at, std::string::npos) << text.output;
  const std::string line = text.output.substr(at + 1, text.output.find('\n', at + 1) - at - 1);
  EXPECT_NE(line.find(" " + frames + " "), std::string::npos) << line;
  EXPECT_NE(line.find(" 0 "), std::string::npos) << line;
  EXPECT_NE(line.find("-" + frames + "  -100 %"), std::string::npos) << line;
  const CommandResult json = Rocelab("compare " + on + " " + off + " --json");
  ASSERT_EQ(json.status, 0) << json.output;
  const Json j = Json::parse(json.output);
  EXPECT_EQ(j["verdict"], c.verdict);
  EXPECT_EQ(j["settings"].size(), 12u);
  EXPECT_EQ(j["settings"][0]["a"], "[3]");
  bool found = false;
  for (const Json& f : j["figures"])
    if (f["name"] == "pause frames sent") {
      found = true;
      EXPECT_EQ(f["a"], a["totals"]["pause_frames_tx"]);
      EXPECT_EQ(f["b"], 0);
      EXPECT_EQ(f["change_pct"], -100);
      EXPECT_EQ(f["better"], "lower");
    }
  EXPECT_TRUE(found);

  // As a page: the comparison first, the rows that got worse marked, then A and B on the same
  // time charts (B solid, A dashed); the terminal says the same as without it.
  const CommandResult html = Rocelab("compare " + on + " " + off + " --html " + dir + "/compare.html");
  ASSERT_EQ(html.status, 0) << html.output;
  EXPECT_EQ(html.output, text.output);
  const std::string page = ReadFile(dir + "/compare.html");
  const size_t section = page.find("<section id=\"compare\">\n<h2>Compared with " + on + "</h2>");
  ASSERT_NE(section, std::string::npos) << page.substr(0, 2000);
  EXPECT_NE(page.find("<a href=\"#compare\">"), std::string::npos);             // in the contents
  EXPECT_LT(section, 4000u) << "the comparison opens the page";
  EXPECT_EQ(page.find("<h2>Pause timeline</h2>"), std::string::npos) << "not run B's own page";
  const size_t overlay = page.find("<section id=\"overlay\">");
  ASSERT_NE(overlay, std::string::npos);
  EXPECT_LT(section, overlay);
  const size_t q = page.find("data-chart=\"overlay_queue_depth\"", overlay);
  ASSERT_NE(q, std::string::npos);
  const std::string chart = page.substr(q, page.find("</svg>", q) - q);
  const size_t a_lines = Occurrences(chart, "<polyline class=\"line\" data-name=\"A · ");
  EXPECT_GT(a_lines, 0u);
  EXPECT_GT(Occurrences(chart, "<polyline class=\"line\" data-name=\"B · "), 0u);
  EXPECT_EQ(Occurrences(chart, "points=\"") , a_lines + Occurrences(chart, "<polyline class=\"line\" data-name=\"B · "));
  // A's lines, and only they, are dashed (each polyline and its legend entry).
  EXPECT_EQ(Occurrences(chart, "stroke-dasharray=\"6 3\""), 2 * a_lines);
  // The same queue in both runs is one colour: leaf0's queue to h0 is among each run's highest.
  const std::regex line_re(R"re(<polyline class="line" data-name="([AB]) · ([^"]*)" stroke="([^"]*)")re");
  std::map<std::string, std::set<std::string>> colours;  // element -> colours
  std::map<std::string, int> sides;
  for (std::sregex_iterator it(chart.begin(), chart.end(), line_re), end; it != end; ++it) {
    colours[(*it)[2]].insert((*it)[3]);
    ++sides[(*it)[2]];
  }
  bool shared = false;
  for (const auto& [element, n] : sides)
    if (n == 2) {
      shared = true;
      EXPECT_EQ(colours[element].size(), 1u) << element;
    }
  EXPECT_TRUE(shared) << chart.substr(0, 3000);
  EXPECT_NE(page.find(HtmlEscape(c.verdict), section), std::string::npos);
  EXPECT_NE(page.find("<td>pfc_priorities</td><td>[3]</td><td>[]</td>", section), std::string::npos);
  const size_t row = page.find("<td>pause frames sent</td>", section);
  ASSERT_NE(row, std::string::npos);
  EXPECT_NE(page.substr(row, page.find("</tr>", row) - row).find(">-100 %<"), std::string::npos);
  EXPECT_EQ(page.substr(page.rfind("<tr", row), 4), "<tr>") << "fewer pauses: better, not marked";
  const size_t lossy_row = page.rfind("<tr", page.find("<td>lossy classes</td>", section));
  EXPECT_EQ(page.substr(lossy_row, 18), "<tr class=\"error\">") << page.substr(lossy_row, 200);
  EXPECT_NE(Rocelab("compare " + on + " " + off + " --html " + dir).status, 0);  // a folder is no page
}

// The run's own settings are settings too: what acts on the monitor (recovery.mode), the
// monitor's window and the faults scheduled.
TEST(Compare, RecoveryModeAndFaultsAreSettingsThatDiffer) {
  const std::string dir = TempDir("compare");
  const std::string base = Incast(true) + "monitor: {refresh: instant, interval: 200us}\n"
                           "faults:\n  - {kind: ecn_off, target: leaf0, at: 1ms}\n";
  std::string other = base;
  other.replace(other.find("target: leaf0"), 13, "target: leaf1");
  const std::string a = RunInto(dir, "auto", base + "recovery: {mode: auto}\n");
  const std::string b = RunInto(dir, "off", other + "recovery: {mode: off}\n");
  const Comparison c = Compare(a, b);
  auto find = [&](const std::string& key) -> const SettingChange* {
    for (const SettingChange& s : c.settings)
      if (s.device.empty() && s.key == key) return &s;
    return nullptr;
  };
  const SettingChange* mode = find("recovery_mode");
  ASSERT_NE(mode, nullptr);
  EXPECT_EQ(mode->a, "auto");
  EXPECT_EQ(mode->b, "off");
  const SettingChange* target = find("faults[0].target");
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(target->a, "leaf0");
  EXPECT_EQ(target->b, "leaf1");
  EXPECT_EQ(find("monitor_window_ns"), nullptr) << "the same window on both sides";
}

// Two runs apart in one DCQCN parameter (the byte counter's disputed reading) say which, and no other.
TEST(Compare, ADcqcnParameterIsASettingThatDiffers) {
  const std::string dir = TempDir("compare");
  std::string other = Incast(true);
  other.replace(other.find("cc: dcqcn}"), 10, "cc: dcqcn, dcqcn: {byte_counter: 32KB}}");
  const Comparison c = Compare(RunInto(dir, "blocks", Incast(true)), RunInto(dir, "bytes", other));
  int dcqcn = 0;
  for (const SettingChange& s : c.settings) {
    if (s.key.rfind("dcqcn.", 0) != 0) continue;
    ++dcqcn;
    EXPECT_EQ(s.key, "dcqcn.byte_counter_bytes");
    EXPECT_EQ(s.a, "2097088");
    EXPECT_EQ(s.b, "32768");
  }
  EXPECT_EQ(dcqcn, 1);
}

TEST(Compare, TheSameRunTwiceDiffersNowhere) {
  const std::string dir = TempDir("compare");
  const std::string one = RunInto(dir, "one", Incast(true)), two = RunInto(dir, "two", Incast(true));
  const Comparison c = Compare(one, two);
  EXPECT_TRUE(c.settings.empty());
  EXPECT_TRUE(c.devices_only_in_a.empty() && c.devices_only_in_b.empty());
  ASSERT_GT(c.figures.size(), 20u);
  for (const FigureChange& f : c.figures) {
    ASSERT_TRUE(f.a && f.b) << f.label;
    EXPECT_EQ(*f.change(), 0) << f.label;
  }
  EXPECT_EQ(c.verdict, "No difference: the same settings and the same figures");
  EXPECT_TRUE(c.also.empty());
  const CommandResult r = Rocelab("compare " + one + " " + two + "/summary.json");  // the file itself is fine
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("Settings that differ (A → B): none"), std::string::npos) << r.output;
}

// A captured host tree (as `collect --root` reads it): one ConnectX port, the mlnx_qos sample
// (trust DSCP, PFC on priority 3) with PFC on priority 3 or off, and ethtool counters.
std::string Bundle(const std::string& dir, const std::string& name, bool pfc, const std::string& ethtool) {
  const std::string root = dir + "/" + name + "-root";
  const std::string ib = root + "/sys/class/infiniband/mlx5_0";
  WriteFile(ib + "/ports/1/counters/port_rcv_data", "123456789\n");
  WriteFile(ib + "/ports/1/hw_counters/np_ecn_marked_roce_packets", "5000\n");
  WriteFile(ib + "/ports/1/hw_counters/np_cnp_sent", "70\n");
  WriteFile(ib + "/device/net/eth0/ifindex", "2\n");
  WriteFile(root + "/sys/class/net/eth0/mtu", "9000\n");
  WriteFile(root + "/sys/class/net/eth0/speed", "100000\n");
  WriteFile(root + "/sys/class/net/eth0/ecn/roce_np/enable/3", pfc ? "1\n" : "0\n");
  WriteFile(root + "/proc/sys/kernel/hostname", "gpu-node-17\n");
  WriteFile(root + "/proc/version", "Linux version 6.1.0\n");
  std::string qos = ReadFile(std::string(ROCELAB_SHARED_DATA) + "/samples/mlnx_qos_trust_dscp_pfc3.txt");
  qos = qos.substr(qos.find('\n') + 1);  // the SOURCE line
  const std::string row = "enabled     0   0   0   1";
  EXPECT_NE(qos.find(row), std::string::npos);
  if (!pfc) qos.replace(qos.find(row), row.size(), "enabled     0   0   0   0");
  WriteFile(root + "/commands/mlnx_qos.eth0.txt", qos);
  WriteFile(root + "/commands/ethtool_S.eth0.txt", ethtool);
  CollectOptions o;
  o.root = root;
  o.out = dir + "/" + name;
  o.interval_s = 0;
  Collect(o);
  return o.out;
}

TEST(Compare, BundlesCompareByTheirNicCountersAndSettings) {
  const std::string dir = TempDir("compare");
  const std::string before =
      Bundle(dir, "before", true, "rx_prio3_pause: 10\ntx_prio3_pause: 4\nrx_prio3_pause_duration: 120\n");
  const std::string after = Bundle(dir, "after", false, "rx_prio3_pause: 0\ntx_prio3_pause: 0\nrx_prio3_discards: 77\n");
  const Comparison c = Compare(before, after);
  EXPECT_EQ(c.a.kind, "bundle");
  EXPECT_EQ(c.a.title, "bundle of gpu-node-17, 1 port, one sample: counters since they were cleared");
  ASSERT_EQ(c.settings.size(), 2u);
  EXPECT_EQ(c.settings[0].device, "gpu-node-17:mlx5_0/eth0");
  EXPECT_EQ(c.settings[0].key, "pfc_priorities");
  EXPECT_EQ(c.settings[0].a, "[3]");
  EXPECT_EQ(c.settings[0].b, "[]");
  EXPECT_EQ(c.settings[1].key, "roce_np/enable/3");
  EXPECT_EQ(AB(c, "PFC", "pause frames sent"), std::make_pair(4.0, 0.0));
  EXPECT_EQ(AB(c, "PFC", "pause frames received"), std::make_pair(10.0, 0.0));
  EXPECT_EQ(AB(c, "PFC", "time paused (sum over ports)"), std::make_pair(120.0, 0.0));
  EXPECT_EQ(AB(c, "ECN and DCQCN", "ECN-marked packets"), std::make_pair(5000.0, 5000.0));
  EXPECT_EQ(AB(c, "ECN and DCQCN", "CNPs sent"), std::make_pair(70.0, 70.0));
  // PFC off on priority 3 makes its discards a lossy class's.
  EXPECT_EQ(AB(c, "Drops", "lossy classes"), std::make_pair(0.0, 77.0));
  // A bundle has no report of its own: the page is the comparison alone.
  const CommandResult r = Rocelab("compare " + before + " " + after + " --html " + dir + "/bundles.html");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string page = ReadFile(dir + "/bundles.html");
  EXPECT_NE(page.find("<h1>rocelab compare</h1>"), std::string::npos) << page.substr(0, 1500);
  EXPECT_NE(page.find("<td>gpu-node-17:mlx5_0/eth0</td><td>pfc_priorities</td><td>[3]</td><td>[]</td>"), std::string::npos);
  EXPECT_EQ(AB(c, "Drops", "priority 3"), std::make_pair(0.0, 77.0));
  // No flows in a bundle: no FCT, AllReduce or uplink figures.
  for (const FigureChange& f : c.figures) {
    EXPECT_NE(f.section, "FCT slowdown");
    EXPECT_NE(f.section, "Uplink utilization");
  }
  EXPECT_EQ(c.verdict, "B is worse: drops in lossy classes 0 → 77");
  ASSERT_FALSE(c.also.empty());
  EXPECT_EQ(c.also[0].rfind("pause frames sent -100 %", 0), 0u) << c.also[0];
  EXPECT_NE(c.also[0].find(", better only in name: it came with the loss above"), std::string::npos) << c.also[0];
}

TEST(Compare, ABundleOverAnIntervalShowsItsLinkUtilization) {
  // Two samples a second apart: 1.25 GB sent on a 100 Gb/s port is 10 % of it.
  const std::string dir = TempDir("compare");
  const std::string manifest =
      R"({"host": "gpu-node-17", "samples": 2, "interval_s": 1.0, "devices": [{"rdma_device": "mlx5_0",
         "netdev": "eth0", "speed_mbps": 100000, "mtu": 9000, "counter_files": ["eth0.ethtool_S.txt"]}]})";
  for (const char* name : {"b1", "b2"}) {
    WriteFile(dir + "/" + name + "/manifest.json", manifest);
    WriteFile(dir + "/" + name + "/sample1/eth0.ethtool_S.txt", "tx_bytes_phy: 1000\nrx_bytes_phy: 0\ntx_prio3_pause: 100\n");
  }
  WriteFile(dir + "/b1/sample2/eth0.ethtool_S.txt", "tx_bytes_phy: 1250001000\nrx_bytes_phy: 0\ntx_prio3_pause: 150\n");
  WriteFile(dir + "/b2/sample2/eth0.ethtool_S.txt", "tx_bytes_phy: 2500001000\nrx_bytes_phy: 0\ntx_prio3_pause: 100\n");
  const Comparison c = Compare(dir + "/b1", dir + "/b2");
  EXPECT_EQ(c.a.seconds, 1.0);
  EXPECT_EQ(AB(c, "Host link utilization", "gpu-node-17:mlx5_0/eth0 transmit"), std::make_pair(10.0, 20.0));
  EXPECT_EQ(AB(c, "PFC", "pause frames sent"), std::make_pair(50.0, 0.0));  // between the samples
  EXPECT_TRUE(c.notes.empty());
}

TEST(Compare, ARunAgainstABundleComparesWhatBothHave) {
  const std::string dir = TempDir("compare");
  const std::string run = RunInto(dir, "on", Incast(true));
  const std::string bundle = Bundle(dir, "host", true, "tx_prio3_pause: 4\n");
  const Comparison c = Compare(run, bundle);
  EXPECT_EQ(c.b.kind, "bundle");
  EXPECT_TRUE(c.settings.empty());  // no device in both, and a run's settings are not a bundle's
  EXPECT_EQ(c.devices_only_in_a.size(), 12u);
  EXPECT_EQ(c.devices_only_in_b, std::vector<std::string>{"gpu-node-17:mlx5_0/eth0"});
  ASSERT_EQ(c.notes.size(), 2u);
  EXPECT_NE(c.notes[0].find("A is a run and B a bundle"), std::string::npos);
  EXPECT_NE(c.notes[1].find("no device is in both"), std::string::npos);
  // Both have pauses; only the run has AllReduce figures.
  EXPECT_EQ(AB(c, "PFC", "pause frames sent").second, 4);
  const FigureChange* busbw = FindFigure(c, "AllReduce", "busbw");
  ASSERT_NE(busbw, nullptr);
  EXPECT_TRUE(busbw->a && !busbw->b);
  EXPECT_FALSE(busbw->change());
  const CommandResult r = Rocelab("compare " + run + " " + bundle + " --json");
  ASSERT_EQ(r.status, 0) << r.output;
  const Json j = Json::parse(r.output);
  for (const Json& f : j["figures"])
    if (f["name"] == "busbw") {
      EXPECT_TRUE(f["b"].is_null() && f["change"].is_null());
    }
}

TEST(Compare, WhatIsNeitherARunNorABundleIsRefused) {
  const std::string dir = TempDir("compare");
  const std::string run = RunInto(dir, "on", Incast(true));
  std::string summary = ReadFile(run + "/summary.json");
  WriteFile(dir + "/empty/.keep", "");
  WriteFile(dir + "/truncated/summary.json", summary.substr(0, summary.size() / 2));
  const std::string key = "\"pause_frames_tx\": ";
  summary.replace(summary.find(key) + key.size(), 0, "\"many\", \"was\": ");
  WriteFile(dir + "/typed/summary.json", summary);
  WriteFile(dir + "/badbundle/manifest.json", "{\"samples\": 1, \"devices\": [{\"counter_files\": [\"../x\"]}]}");
  WriteFile(dir + "/notjson.txt", "hello\n");
  struct Case {
    std::string args, says;
  };
  const std::vector<Case> cases = {
      {run + " " + dir + "/none", dir + "/none: no such folder or file"},
      {run + " " + dir + "/empty",
       dir + "/empty: neither a run's output folder (no summary.json) nor a bundle of rocelab collect (no manifest.json)"},
      {dir + "/truncated " + run, dir + "/truncated/summary.json:"},
      {run + " " + dir + "/typed", dir + "/typed/summary.json: key 'totals.pause_frames_tx': expected a number"},
      {run + " " + dir + "/badbundle", dir + "/badbundle/manifest.json: key 'devices[0].counter_files[0]'"},
      {run + " " + dir + "/notjson.txt", dir + "/notjson.txt:1: not a rocelab summary.json"},
      {run, "rocelab compare: A B: 2 needed, 1 given"},
      {run + " " + run + " " + run, "rocelab compare: A B: 2 at most: unexpected extra arguments"},
  };
  for (const Case& c : cases) {
    for (const char* json : {"", " --json"}) {
      int status = 0;
      const std::string out = RunCommand(std::string(ROCELAB_BINARY) + " compare " + c.args + json + " 2>/dev/null", &status);
      EXPECT_EQ(status, 2) << c.args;
      EXPECT_EQ(out, "") << c.args;  // nothing on standard output
      const CommandResult r = Rocelab("compare " + c.args + json);
      EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
    }
  }
  const CommandResult help = Rocelab("compare --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.output.find("--json"), std::string::npos);
}

TEST(Compare, DeviceNamesAreListedShort) {
  EXPECT_EQ(CompactDeviceNames({"h0", "h1", "h2", "h3", "leaf0", "leaf1", "spine0"}), "h0..h3, leaf0, leaf1, spine0");
  EXPECT_EQ(CompactDeviceNames({"h0", "h2", "h3", "h4", "core", "h10", "h11", "h12"}), "h0, h2..h4, core, h10..h12");
  EXPECT_EQ(CompactDeviceNames({"h01", "h02", "h03"}), "h01, h02, h03");  // leading zeros stay as written
  EXPECT_EQ(CompactDeviceNames({}), "");
}

}  // namespace
}  // namespace rocelab
