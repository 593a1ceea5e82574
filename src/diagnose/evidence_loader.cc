// Evidence from each kind of input: a run's summary.json, a bundle that
// `rocelab collect` wrote, or single command outputs. The rules in
// diagnose.cc see only the Evidence these build; the parsers (parsers.cc,
// json_inputs.cc) see only text, this file the folders and files.
#include "diagnose/diagnose.h"

#include <sys/stat.h>

#include <algorithm>

#include "diagnose/parsers.h"
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

// --- simulation output --------------------------------------------------------------------------

void LoadSimulation(const std::string& file, Evidence* ev) { ParseSummaryJson(ReadFile(file), file, ev); }

// --- collected bundle ---------------------------------------------------------------------------

CounterMap ReadCounterFile(const std::string& path) { return ParseCounterList(ReadFile(path), path); }

void LoadBundle(const std::string& dir, Evidence* ev) {
  const BundleManifest m = ParseManifest(ReadFile(dir + "/manifest.json"), dir + "/manifest.json");
  ev->origin = "bundle " + dir;
  ev->interval_s = m.interval_s;
  const int samples = m.samples;
  for (const BundleDevice& d : m.devices) {
    if (!d.counter_files) continue;
    PortEvidence p;
    p.device = m.host;
    p.port = d.rdma_device + "/" + d.netdev;
    p.speed_gbps = d.speed_mbps / 1000.0;
    p.mtu = d.mtu;
    CounterMap first, last;
    for (const std::string& f : *d.counter_files) {
      const std::string last_path = dir + "/sample" + std::to_string(std::max(samples, 1)) + "/" + f;
      if (!IsFile(last_path)) continue;
      for (auto& [k, v] : ReadCounterFile(last_path)) last[k] = v;
      const std::string first_path = dir + "/sample1/" + f;
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
    p.cc_params = d.cc_params;
    if (!d.operstate.empty()) p.oper_up = d.operstate == "up";
    if (!d.mlnx_qos.empty()) {
      const std::string path = dir + "/" + d.mlnx_qos;
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
