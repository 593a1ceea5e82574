#include "report/compare_inputs.h"

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <deque>
#include <map>
#include <set>

#include "diagnose/diagnose.h"
#include "diagnose/parsers.h"
#include "report/html_page.h"
#include "telemetry/counter_names.h"
#include "util/config_error.h"
#include "util/json_value.h"
#include "util/text_file.h"

namespace rocelab {
namespace {

using Node = JsonValue;

[[noreturn]] void ThrowConfigError(const std::string& file, int line, const std::string& key, const std::string& what) {
  throw ConfigError(file, line, key, what);
}

// diagnose's readers throw ParseError ("file:line: what"); compare's callers expect ConfigError.
[[noreturn]] void Rethrow(const ParseError& e) {
  std::string what = e.what();
  const std::string head = e.file() + (e.line() > 0 ? ":" + std::to_string(e.line()) : "") + ": ";
  if (what.compare(0, head.size(), head) == 0) what = what.substr(head.size());
  throw ConfigError(e.file(), e.line(), "", what);
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// ---- figures of both kinds -------------------------------------------------------------------

class Figures {
 public:
  explicit Figures(CompareSide* side) : side_(side) {}
  // The figures added next belong to `name`; alone, each is called `prefix` + its name.
  void Section(const std::string& name, const std::string& prefix) {
    section_ = name;
    prefix_ = prefix;
  }
  void Section(const std::string& name) { Section(name, name + " "); }
  void Add(const std::string& name, double value, const char* unit, Better better, Weight weight = Weight::kNone,
           const std::string& detail = "") {
    side_->figures.push_back({section_, name, prefix_ + name, unit, value, detail, better, weight, false});
  }
  void AddIfNonzero(const std::string& name, double value, const char* unit, Better better) {
    Add(name, value, unit, better);
    side_->figures.back().only_if_nonzero = true;
  }

 private:
  CompareSide* side_;
  std::string section_, prefix_;
};

double Counter(const CounterMap& m, const std::string& name) {
  const auto it = m.find(name);
  return it == m.end() ? 0 : it->second;
}

// Sums over every port of the evidence (its deltas: the whole run, or between a bundle's samples).
struct PortSums {
  double pause_tx = 0, pause_rx = 0, paused_us = 0;
  double ecn_marked = 0, cnp_sent = 0, cnp_handled = 0;
  double lossless_drops = 0, lossy_drops = 0;
  double drops[8] = {};  // by priority
  double out_of_sequence = 0, ack_timeouts = 0;
};

PortSums SumPorts(const Evidence& ev) {
  PortSums s;
  for (const PortEvidence& p : ev.ports) {
    const CounterMap& c = p.deltas;
    for (int prio = 0; prio < 8; ++prio) {
      const bool lossless = p.pfc_enabled && (*p.pfc_enabled)[prio];
      if (p.is_switch) {
        s.pause_tx += Counter(c, kSaiPortPfcTxPkts.Name(prio));
        s.pause_rx += Counter(c, kSaiPortPfcRxPkts.Name(prio));
        s.paused_us += Counter(c, kSaiPortPfcRxPauseDurationUs.Name(prio));
        // A PG drops what its headroom cannot take (the loss of a lossless class), a queue what
        // its admission refuses (a lossy class's).
        const auto q = p.queues.find(QueueName(prio));
        const double queue_drops = q == p.queues.end() ? 0 : Counter(q->second, kSaiQueueDroppedPackets.name);
        const auto g = p.pgs.find(PriorityGroupName(prio));
        const double pg_drops = g == p.pgs.end() ? 0 : Counter(g->second, kSaiPgDroppedPackets.name);
        s.lossy_drops += queue_drops;
        s.lossless_drops += pg_drops;
        s.drops[prio] += queue_drops + pg_drops;
      } else {
        s.pause_tx += Counter(c, kTxPrioPause.Name(prio));
        s.pause_rx += Counter(c, kRxPrioPause.Name(prio));
        s.paused_us += Counter(c, kRxPrioPauseDuration.Name(prio));
        const double discards = Counter(c, kRxPrioDiscards.Name(prio));
        (lossless ? s.lossless_drops : s.lossy_drops) += discards;
        s.drops[prio] += discards;
      }
    }
    s.ecn_marked += Counter(c, kNpEcnMarkedRocePackets.name);
    s.cnp_sent += Counter(c, kNpCnpSent.name);
    s.cnp_handled += Counter(c, kRpCnpHandled.name);
    s.out_of_sequence += Counter(c, kOutOfSequence.name);
    s.ack_timeouts += Counter(c, kLocalAckTimeoutErr.name);
  }
  return s;
}

void AddDropsByPriority(Figures& f, const PortSums& s) {
  for (int prio = 0; prio < 8; ++prio) f.AddIfNonzero("priority " + std::to_string(prio), s.drops[prio], "", Better::kLower);
  f.Section("Transport", "");
}

// ---- a run -----------------------------------------------------------------------------------

// A device's setting as JSON writes it, objects opened into dotted keys: one changed DSCP of a
// map is one line, not the whole map.
void Flatten(const std::string& device, const std::string& key, const Node& v, std::vector<Setting>* out) {
  const JsonDocument* raw = v.raw();
  if (!raw) return;
  if (raw->is_object()) {
    for (const auto& [k, child] : v.Members()) Flatten(device, key.empty() ? k : key + "." + k, child, out);
    return;
  }
  out->push_back({device, key, raw->is_string() ? raw->get<std::string>() : raw->dump()});
}

// The settings each workload type writes beside its results (workload/*.cc WriteSummary).
const std::map<std::string, std::vector<const char*>>& WorkloadSettings() {
  static const std::map<std::string, std::vector<const char*>> m = {
      {"allreduce", {"ranks", "bytes", "slice_bytes", "qps_per_neighbour", "iterations"}},
      {"storage", {"clients", "targets", "queue_depth", "io_size"}},
  };
  return m;
}

// "AllReduce", then "AllReduce #2", ... for the k-th workload of a type.
std::string Numbered(const std::string& name, int k) { return k == 1 ? name : name + " #" + std::to_string(k); }

void AddWorkloads(const Node& root, CompareSide* side, Figures& f) {
  int allreduce = 0, storage = 0;
  for (const Node& w : root["workloads"].Items()) {
    const std::string type = w["type"].String();
    const std::string at = w.key().substr(w.key().find('['));  // "[1]"
    side->settings.push_back({"", "workloads" + at + ".type", type});
    const auto known = WorkloadSettings().find(type);
    if (known != WorkloadSettings().end())
      for (const char* k : known->second)
        if (w[k].present()) side->settings.push_back({"", "workloads" + at + "." + k, w[k].Text()});
    if (type == "allreduce") {
      f.Section(Numbered("AllReduce", ++allreduce));
      f.Add("busbw", w["busbw_gbps"].Number(), "Gb/s", Better::kHigher, Weight::kService);
      const std::vector<Node> times = w["iteration_ns"].Items();
      if (!times.empty()) {
        double sum = 0, max = 0;
        for (const Node& t : times) {
          sum += t.Number();
          max = std::max(max, t.Number());
        }
        f.Add("iteration time (mean)", sum / static_cast<double>(times.size()) / 1e3, "µs", Better::kLower, Weight::kService);
        f.Add("iteration time (max)", max / 1e3, "µs", Better::kLower);
      }
      f.Add("iterations done", w["iterations_done"].Number(), "", Better::kHigher);
    } else if (type == "storage") {
      f.Section(Numbered("Storage", ++storage));
      f.Add("IOPS", w["iops"].Number(), "", Better::kHigher, Weight::kService);
      f.Add("latency p50", w["latency_us"]["p50"].Number(), "µs", Better::kLower);
      f.Add("latency p99", w["latency_us"]["p99"].Number(), "µs", Better::kLower, Weight::kTails);
      f.Add("latency p99.9", w["latency_us"]["p99.9"].Number(), "µs", Better::kLower);
    }
  }
}

// Switches by their distance from the hosts (1: a leaf or edge switch, 2: a spine or
// aggregation switch, ...): a port towards a farther switch is an uplink, the ports ECMP
// spreads a leaf's traffic over.
std::map<std::string, int> SwitchTiers(const Evidence& ev) {
  std::map<std::string, int> tier;
  std::map<std::string, std::vector<std::string>> next;
  std::set<std::string> switches;
  for (const PortEvidence& p : ev.ports)
    if (p.is_switch) switches.insert(p.device);
  std::deque<std::string> todo;
  for (const PortEvidence& p : ev.ports) {
    if (!p.is_switch) continue;
    if (switches.count(p.peer)) next[p.device].push_back(p.peer);
    else if (!p.peer.empty() && !tier.count(p.device)) {
      tier[p.device] = 1;
      todo.push_back(p.device);
    }
  }
  while (!todo.empty()) {
    const std::string s = todo.front();
    todo.pop_front();
    for (const std::string& n : next[s])
      if (!tier.count(n)) {
        tier[n] = tier[s] + 1;
        todo.push_back(n);
      }
  }
  return tier;
}

void AddUplinks(const Evidence& ev, double sim_ns, Figures& f) {
  if (sim_ns <= 0) return;
  const std::map<std::string, int> tier = SwitchTiers(ev);
  struct Load {
    double util;
    std::string where;
  };
  std::vector<std::string> order;
  std::map<std::string, std::vector<Load>> uplinks;
  for (const PortEvidence& p : ev.ports) {
    if (!p.is_switch) continue;
    const auto self = tier.find(p.device), peer = tier.find(p.peer);
    if (self == tier.end() || peer == tier.end() || peer->second <= self->second) continue;
    if (!uplinks.count(p.device)) order.push_back(p.device);
    uplinks[p.device].push_back({Counter(p.deltas, kRocelabTxBusyNs.name) / sim_ns * 100, p.port + " → " + p.peer});
  }
  f.Section("Uplink utilization", "");
  for (const std::string& sw : order) {
    const std::vector<Load>& l = uplinks[sw];
    auto busiest = l.begin(), least = l.begin();
    for (auto it = l.begin(); it != l.end(); ++it) {
      if (it->util > busiest->util) busiest = it;
      if (it->util < least->util) least = it;
    }
    if (l.size() == 1) {
      f.Add(sw + " uplink", busiest->util, "%", Better::kNeither, Weight::kNone, busiest->where);
      continue;
    }
    f.Add(sw + " busiest uplink", busiest->util, "%", Better::kNeither, Weight::kNone, busiest->where);
    f.Add(sw + " least loaded uplink", least->util, "%", Better::kNeither, Weight::kNone, least->where);
  }
}

CompareSide ReadRun(const std::string& path, const std::string& file) {
  std::string text, err;
  if (!ReadTextFile(file, &text, &err)) throw ConfigError(file, 0, "", err);
  const JsonDocument doc = ParseJsonDocument(text, file, ThrowConfigError, "not a rocelab summary.json: ");
  if (!doc.is_object() || !(doc.contains("sim_time_ns") || doc.contains("hosts") || doc.contains("switches")))
    throw ConfigError(file, 0, "", "not a rocelab summary.json (no sim_time_ns, hosts or switches)");
  const Node root(&doc, file, "", ThrowConfigError);
  Evidence ev;
  try {
    ParseSummaryJson(text, file, &ev);
  } catch (const ParseError& e) {
    Rethrow(e);
  }
  CompareSide side;
  const double sim_ns = root["sim_time_ns"].Number();
  side.input = {path, "run",
                "run " + root["scenario"].Text() + ", seed " + root["seed"].Text() + ", " + Fixed(sim_ns / 1e3, 1) +
                    " µs simulated",
                sim_ns * 1e-9};

  for (const char* k :
       {"scenario", "seed", "timer_scale", "device_counters", "monitor_window_ns", "monitor_phase_ns", "recovery_mode"})
    if (root[k].present()) side.settings.push_back({"", k, root[k].Text()});
  // The NICs' DCQCN parameters (nic.dcqcn), one key each.
  for (const auto& [k, v] : root["dcqcn"].Members()) side.settings.push_back({"", "dcqcn." + k, v.Text()});
  // The faults the run injected, as scheduled.
  for (const Node& fault : root["faults"].Items()) {
    const std::string at = fault.key().substr(fault.key().find('['));  // "[0]"
    for (const char* k : {"kind", "target"})
      if (fault[k].present()) side.settings.push_back({"", "faults" + at + "." + k, fault[k].Text()});
    if (fault["injected_ns"].present()) side.settings.push_back({"", "faults" + at + ".injected_ns", fault["injected_ns"].Text()});
  }
  const std::vector<Node> flows = root["flows"].Items();
  side.settings.push_back({"", "flows", std::to_string(flows.size())});
  Figures f(&side);
  f.Section("Run", "");
  f.Add("simulated time", sim_ns / 1e3, "µs", Better::kNeither);
  // The flows: what a workload of single flows measures.
  if (!flows.empty()) {
    double finished = 0, failed = 0;
    for (const Node& fl : flows) {
      const std::string state = fl["state"].String();
      finished += state == "finished";
      failed += state == "qp_error";
    }
    f.Section("Flows", "flows ");
    f.Add("finished", finished, "", Better::kHigher, Weight::kService);
    f.Add("failed (QP error)", failed, "", Better::kLower, Weight::kLoss);
    f.Add("unfinished", static_cast<double>(flows.size()) - finished - failed, "", Better::kLower);
    f.Section("FCT slowdown");
    for (const Node& r : root["fct_slowdown"].Items()) {
      if (r["flows"].Int(0, INT_MAX) == 0) continue;
      const std::string bucket = r["bucket"].String() == "all" ? "all flows" : r["bucket"].String();
      for (const char* p : {"p50", "p95", "p99"})
        f.Add(bucket + " " + p, r[p].Number(), "×", Better::kLower,
              bucket == "all flows" && p != std::string("p95") ? Weight::kTails : Weight::kNone);
    }
  }
  AddWorkloads(root, &side, f);
  for (const auto& [host, h] : root["hosts"].Members()) {
    side.devices.push_back(host);
    Flatten(host, "", h["config"], &side.settings);
  }
  for (const auto& [sw, s] : root["switches"].Members()) {
    side.devices.push_back(sw);
    Flatten(sw, "", s["config"], &side.settings);
    for (const char* key : {"size_bytes", kHeadroomPoolBytes.name})
      if (s["buffer"][key].present()) side.settings.push_back({sw, std::string("buffer.") + key, s["buffer"][key].Text()});
  }

  const Node totals = root["totals"];
  const bool counters = ev.sections_without_counters.size() < 2;
  const PortSums s = SumPorts(ev);
  f.Section("PFC", "");
  f.Add("pause frames sent", totals["pause_frames_tx"].Number(), "", Better::kLower, Weight::kMechanism);
  f.Add("pause frames received", totals["pause_frames_rx"].Number(), "", Better::kLower);
  if (counters) f.Add("time paused (sum over ports)", s.paused_us, "µs", Better::kLower, Weight::kMechanism);
  f.Section("ECN and DCQCN", "");
  f.Add("ECN-marked packets", totals["ecn_marked"].Number(), "", Better::kNeither);
  f.Add("CNPs sent", totals["cnp_sent"].Number(), "", Better::kNeither);
  f.Add("CNPs handled", totals["cnp_handled"].Number(), "", Better::kNeither);
  f.Section("Drops", "drops in ");
  f.Add("lossless classes", totals["drops_lossless"].Number(), "", Better::kLower, Weight::kLoss);
  f.Add("lossy classes", totals["drops_lossy"].Number(), "", Better::kLower, Weight::kLoss);
  if (counters) AddDropsByPriority(f, s);
  else f.Section("Transport", "");
  f.Add("retransmitted packets", totals["retransmitted_packets"].Number(), "", Better::kLower);
  if (counters) {
    f.Add("out-of-sequence packets", s.out_of_sequence, "", Better::kLower);
    f.Add("ACK timeouts", s.ack_timeouts, "", Better::kLower);
    AddUplinks(ev, sim_ns, f);
  } else {
    side.notes.push_back(path + " has no device counters (run --counters none): no time paused, drops by priority "
                                "or uplink utilization");
  }
  if (root["device_counters"].present() && root["device_counters"].String() == "nonzero")
    side.notes.push_back(path + " keeps only ports that carried traffic (run --counters nonzero): an idle uplink is "
                                "missing, so a switch's least loaded uplink may read higher than it was");
  return side;
}

// ---- a bundle --------------------------------------------------------------------------------

CompareSide ReadBundle(const std::string& path, const std::string& dir) {
  Evidence ev;
  try {
    ev = LoadEvidence({dir});
  } catch (const ParseError& e) {
    Rethrow(e);
  } catch (const std::runtime_error& e) {
    throw ConfigError(dir + "/manifest.json", 0, "", e.what());
  }
  CompareSide side;
  std::string host = ev.ports.empty() ? "?" : ev.ports[0].device;
  side.input = {path, "bundle",
                "bundle of " + host + ", " + FormatCountOf(static_cast<double>(ev.ports.size()), "port") +
                    (ev.interval_s > 0 ? ", counted over " + Fixed(ev.interval_s, 3) + " s"
                                       : ", one sample: counters since they were cleared"),
                ev.interval_s};
  side.settings.push_back({"", "interval_s", Fixed(ev.interval_s, 3)});
  for (const PortEvidence& p : ev.ports) {
    const std::string dev = p.device + ":" + p.port;
    side.devices.push_back(dev);
    if (p.pfc_enabled) {
      std::string list = "[";
      for (int prio = 0; prio < 8; ++prio)
        if ((*p.pfc_enabled)[prio]) list += (list.size() > 1 ? "," : "") + std::to_string(prio);
      side.settings.push_back({dev, "pfc_priorities", list + "]"});
    }
    if (!p.trust.empty()) side.settings.push_back({dev, "trust", p.trust});
    if (p.dscp_to_priority)
      for (int d = 0; d < 64; ++d)
        side.settings.push_back({dev, "dscp_to_priority." + std::to_string(d), std::to_string((*p.dscp_to_priority)[d])});
    for (const auto& [k, v] : p.cc_params) side.settings.push_back({dev, k, v});
    if (p.mtu > 0) side.settings.push_back({dev, "mtu", std::to_string(p.mtu)});
    if (p.speed_gbps > 0) side.settings.push_back({dev, "speed_gbps", Fixed(p.speed_gbps, 0)});
  }
  const PortSums s = SumPorts(ev);
  Figures f(&side);
  f.Section("PFC", "");
  f.Add("pause frames sent", s.pause_tx, "", Better::kLower, Weight::kMechanism);
  f.Add("pause frames received", s.pause_rx, "", Better::kLower);
  f.Add("time paused (sum over ports)", s.paused_us, "µs", Better::kLower, Weight::kMechanism);
  f.Section("ECN and DCQCN", "");
  f.Add("ECN-marked packets", s.ecn_marked, "", Better::kNeither);
  f.Add("CNPs sent", s.cnp_sent, "", Better::kNeither);
  f.Add("CNPs handled", s.cnp_handled, "", Better::kNeither);
  f.Section("Drops", "drops in ");
  f.Add("lossless classes", s.lossless_drops, "", Better::kLower, Weight::kLoss);
  f.Add("lossy classes", s.lossy_drops, "", Better::kLower, Weight::kLoss);
  AddDropsByPriority(f, s);
  f.Add("out-of-sequence packets", s.out_of_sequence, "", Better::kLower);
  f.Add("ACK timeouts", s.ack_timeouts, "", Better::kLower);
  if (ev.interval_s > 0) {
    f.Section("Host link utilization", "");
    for (const PortEvidence& p : ev.ports) {
      if (p.speed_gbps <= 0) continue;
      const double capacity_bytes = p.speed_gbps * 1e9 / 8 * ev.interval_s;
      f.Add(p.device + ":" + p.port + " transmit", Counter(p.deltas, kTxBytesPhy.name) / capacity_bytes * 100, "%",
            Better::kNeither);
      f.Add(p.device + ":" + p.port + " receive", Counter(p.deltas, kRxBytesPhy.name) / capacity_bytes * 100, "%",
            Better::kNeither);
    }
  }
  return side;
}

bool IsFile(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

CompareSide ReadCompareSide(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw ConfigError(path, 0, "", "no such folder or file");
  std::string dir = path;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (S_ISDIR(st.st_mode)) {
    if (IsFile(dir + "/summary.json")) return ReadRun(path, dir + "/summary.json");
    if (IsFile(dir + "/manifest.json")) return ReadBundle(path, dir);
    throw ConfigError(path, 0, "",
                      "neither a run's output folder (no summary.json) nor a bundle of rocelab collect (no "
                      "manifest.json)");
  }
  const size_t slash = dir.rfind('/');
  const std::string name = slash == std::string::npos ? dir : dir.substr(slash + 1);
  if (name == "manifest.json") return ReadBundle(path, slash == std::string::npos ? "." : dir.substr(0, slash));
  return ReadRun(path, dir);  // summary.json, or a file that must prove to be one
}

}  // namespace rocelab
