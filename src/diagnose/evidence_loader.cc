// Evidence from each kind of input: a run's summary.json, a bundle that
// `rocelab collect` wrote, or single command outputs. The rules in
// diagnose.cc see only the Evidence these build.
#include "diagnose/diagnose.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "diagnose/parsers.h"
#include "telemetry/counter_names.h"
#include "util/json_reader.h"
#include "util/text_file.h"

namespace rocelab {

namespace {

std::string ReadFile(const std::string& path) {
  std::string text, err;
  if (!ReadTextFile(path, &text, &err)) throw std::runtime_error(path + ": " + err);
  return text;
}

bool IsDir(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IsFile(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

double Num(const JsonValue* v) { return v && v->IsNumber() ? v->number : 0; }

// --- simulation output --------------------------------------------------------------------------

void LoadSimulation(const std::string& file, Evidence* ev) {
  JsonValue root;
  try {
    root = ParseJson(ReadFile(file));
  } catch (const JsonError& e) {
    throw ParseError(file, e.line(), e.what());
  }
  if (!root.IsObject() || !root.Get("hosts") || !root.Get("switches"))
    throw ParseError(file, 1, "not a rocelab summary.json (no hosts and switches)");
  ev->origin = "simulation " + file;
  ev->interval_s = Num(root.Get("sim_time_ns")) * 1e-9;
  if (const JsonValue* flows = root.Get("flows")) {
    for (const JsonValue& f : flows->items) {
      ++ev->flows;
      const JsonValue* st = f.Get("state");
      if (st && st->text == "finished") ++ev->flows_finished;
      if (st && st->text == "qp_error") ++ev->flows_failed;
    }
  }
  if (const JsonValue* ws = root.Get("workloads"))
    for (const JsonValue& w : ws->items) {
      const JsonValue* type = w.Get("type");
      if (!type || type->text != "allreduce") continue;
      CollectiveResult c;
      c.ranks = static_cast<int>(Num(w.Get("ranks")));
      c.iterations = static_cast<int>(Num(w.Get("iterations")));
      c.iterations_done = static_cast<int>(Num(w.Get("iterations_done")));
      c.busbw_gbps = Num(w.Get("busbw_gbps"));
      c.host_link_gbps = Num(w.Get("host_link_gbps"));
      ev->collectives.push_back(c);
    }
  auto read_config = [](const JsonValue* cfg, PortEvidence* p) {
    if (!cfg) return;
    std::array<bool, 8> pfc{};
    if (const JsonValue* pr = cfg->Get("pfc_priorities"))
      for (const JsonValue& x : pr->items)
        if (x.number >= 0 && x.number < 8) pfc[static_cast<int>(x.number)] = true;
    p->pfc_enabled = pfc;
    if (const JsonValue* t = cfg->Get("trust")) p->trust = t->text;
    std::array<int, 64> map{};
    if (const JsonValue* m = cfg->Get("dscp_to_priority"))
      for (const auto& [k, v] : m->members) {
        int d = std::atoi(k.c_str());
        if (d >= 0 && d < 64) map[d] = static_cast<int>(v.number);
      }
    p->dscp_to_priority = map;
    if (const JsonValue* e = cfg->Get("ecn_enabled")) p->cc_params["ecn_enabled"] = e->boolean ? "true" : "false";
    if (const JsonValue* e = cfg->Get("ecn_kmin")) p->cc_params["ecn_kmin"] = e->text;
    if (const JsonValue* c = cfg->Get("congestion_control")) p->cc_params["congestion_control"] = c->text;
  };
  for (const auto& [host, h] : root.Get("hosts")->members) {
    PortEvidence p;
    p.device = host;
    p.port = "mlx5_0/eth0";
    for (const char* block : {kEthtoolBlock, kHwCountersBlock})
      if (const JsonValue* b = h.Get(block))
        for (const auto& [k, v] : b->members) p.counters[k] = v.number;
    read_config(h.Get("config"), &p);
    p.deltas = p.counters;
    p.sources.push_back(file);
    ev->ports.push_back(std::move(p));
  }
  for (const auto& [sw, s] : root.Get("switches")->members) {
    const JsonValue* ports = s.Get("ports");
    if (!ports) continue;
    for (const auto& [name, port] : ports->members) {
      PortEvidence p;
      p.device = sw;
      p.port = name;
      p.is_switch = true;
      if (const JsonValue* peer = port.Get("peer")) p.peer = peer->text;
      for (const auto& [k, v] : port.members)
        if (v.IsNumber()) p.counters[k] = v.number;
      for (const auto& [block, into] : {std::pair{kQueuesBlock, &p.queues}, std::pair{kPriorityGroupsBlock, &p.pgs}})
        if (const JsonValue* b = port.Get(block))
          for (const auto& [q, m] : b->members)
            for (const auto& [k, v] : m.members) (*into)[q][k] = v.number;
      read_config(s.Get("config"), &p);
      p.deltas = p.counters;
      p.sources.push_back(file);
      ev->ports.push_back(std::move(p));
    }
  }
}

// --- collected bundle ---------------------------------------------------------------------------

CounterMap ReadCounterFile(const std::string& path) { return ParseCounterList(ReadFile(path), path); }

void LoadBundle(const std::string& dir, Evidence* ev) {
  const std::string manifest_path = dir + "/manifest.json";
  JsonValue m;
  try {
    m = ParseJson(ReadFile(manifest_path));
  } catch (const JsonError& e) {
    throw ParseError(manifest_path, e.line(), e.what());
  }
  ev->origin = "bundle " + dir;
  ev->interval_s = Num(m.Get("interval_s"));
  const int samples = static_cast<int>(Num(m.Get("samples")));
  const JsonValue* devices = m.Get("devices");
  if (!devices) throw ParseError(manifest_path, 1, "no devices in the manifest");
  for (const JsonValue& d : devices->items) {
    PortEvidence p;
    const JsonValue* host = m.Get("host");
    p.device = host ? host->text : "host";
    const JsonValue* rdma = d.Get("rdma_device");
    const JsonValue* net = d.Get("netdev");
    p.port = (rdma ? rdma->text : "?") + "/" + (net ? net->text : "?");
    p.speed_gbps = Num(d.Get("speed_mbps")) / 1000.0;
    p.mtu = static_cast<int>(Num(d.Get("mtu")));
    const JsonValue* files = d.Get("counter_files");
    if (!files) continue;
    CounterMap first, last;
    for (const JsonValue& f : files->items) {
      const std::string last_path = dir + "/sample" + std::to_string(std::max(samples, 1)) + "/" + f.text;
      if (!IsFile(last_path)) continue;
      for (auto& [k, v] : ReadCounterFile(last_path)) last[k] = v;
      const std::string first_path = dir + "/sample1/" + f.text;
      if (samples > 1 && IsFile(first_path))
        for (auto& [k, v] : ReadCounterFile(first_path)) first[k] = v;
      p.sources.push_back(last_path);
    }
    p.counters = last;
    if (samples > 1 && ev->interval_s > 0) {
      for (auto& [k, v] : last) p.deltas[k] = v - (first.count(k) ? first[k] : 0);
    } else {
      p.deltas = last;  // one sample: totals since the counters were cleared
    }
    if (const JsonValue* params = d.Get("cc_params"))
      for (const auto& [k, v] : params->members) p.cc_params[k] = v.text;
    if (const JsonValue* q = d.Get("mlnx_qos")) {
      const std::string path = dir + "/" + q->text;
      if (IsFile(path)) ParseMlnxQos(ReadFile(path), path, &p);
    }
    ev->ports.push_back(std::move(p));
  }
  if (samples <= 1 || ev->interval_s <= 0) ev->interval_s = 0;
}

// --- single command outputs ---------------------------------------------------------------------

std::string Stem(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.rfind('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

// A single command output stands for a device named after its file.
PortEvidence FilePort(const std::string& path, const char* port) {
  PortEvidence p;
  p.device = Stem(path);
  p.port = port;
  return p;
}

void LoadFile(const std::string& path, Evidence* ev) {
  const std::string text = ReadFile(path);
  if (path.size() >= 12 && path.compare(path.size() - 12, 12, "summary.json") == 0) {
    LoadSimulation(path, ev);
    return;
  }
  if (ev->origin.empty()) ev->origin = "files";
  switch (DetectOutputKind(text)) {
    case OutputKind::kEthtoolS:
    case OutputKind::kNameValue: {
      PortEvidence p = FilePort(path, "netdev");
      p.counters = ParseCounterList(text, path);
      p.deltas = p.counters;
      p.sources.push_back(path);
      ev->ports.push_back(std::move(p));
      return;
    }
    case OutputKind::kMlnxQos: {
      PortEvidence p = FilePort(path, "netdev");
      ParseMlnxQos(text, path, &p);
      ev->ports.push_back(std::move(p));
      return;
    }
    case OutputKind::kMlxconfig: {
      PortEvidence p = FilePort(path, "firmware");
      ParseMlxconfig(text, path, &p);
      ev->ports.push_back(std::move(p));
      return;
    }
    case OutputKind::kPfcwdStats:
      for (auto& q : ParsePfcwdStats(text, path)) ev->watchdog.push_back(q);
      return;
    case OutputKind::kQueueCounters:
      for (auto& p : ParseQueueCounters(text, path)) {
        p.device = Stem(path);
        p.deltas = p.counters;
        ev->ports.push_back(std::move(p));
      }
      return;
    case OutputKind::kPfcCounters:
      for (auto& p : ParsePfcCounters(text, path)) {
        p.device = Stem(path);
        ev->ports.push_back(std::move(p));
      }
      return;
    case OutputKind::kRdmaStatistic:
      for (auto& p : ParseRdmaStatistic(text, path)) ev->ports.push_back(std::move(p));
      return;
    case OutputKind::kPerftest:
      for (auto& r : ParsePerftest(text, path)) ev->perftest.push_back(r);
      return;
    case OutputKind::kUnknown:
      break;
  }
  // Name the first line that did not fit any known format.
  ParseCounterList(text, path);
  throw ParseError(path, 1, "not a recognised command output");
}

}  // namespace

Evidence LoadEvidence(const std::vector<std::string>& paths) {
  if (paths.empty()) throw std::runtime_error("nothing to diagnose: give a bundle, a run's output folder or command outputs");
  Evidence ev;
  for (const std::string& path : paths) {
    if (IsDir(path)) {
      if (IsFile(path + "/manifest.json")) LoadBundle(path, &ev);
      else if (IsFile(path + "/summary.json")) LoadSimulation(path + "/summary.json", &ev);
      else throw std::runtime_error(path + ": neither a bundle (manifest.json) nor a run's output (summary.json)");
    } else if (IsFile(path)) {
      LoadFile(path, &ev);
    } else {
      struct stat st;
      throw std::runtime_error(path + (::stat(path.c_str(), &st) == 0 ? ": not a regular file or a folder" : ": no such file or folder"));
    }
  }
  return ev;
}

}  // namespace rocelab
