#include "sweep/key_figures.h"

#include "sweep/key_path.h"
#include "util/config_error.h"

namespace rocelab {

const std::vector<KeyFigure>& KeyFigures() {
  static const std::vector<KeyFigure> kFigures = {
      {"fct_p50_slowdown", "fct_slowdown[all].p50", false, "median FCT slowdown of the finished flows", "× the ideal FCT"},
      {"fct_p95_slowdown", "fct_slowdown[all].p95", false, "95th percentile FCT slowdown", "× the ideal FCT"},
      {"fct_p99_slowdown", "fct_slowdown[all].p99", false, "99th percentile FCT slowdown", "× the ideal FCT"},
      {"pause_frames_tx", "totals.pause_frames_tx", true, "PFC pause frames sent, every device", "frames"},
      {"ecn_marked", "totals.ecn_marked", true, "packets marked CE by the switches", "packets"},
      {"cnp_sent", "totals.cnp_sent", true, "CNPs the receivers sent", "CNPs"},
      {"drops_lossless", "totals.drops_lossless", true, "frames dropped in lossless priorities", "frames"},
      {"drops_lossy", "totals.drops_lossy", true, "frames dropped in lossy priorities", "frames"},
      {"qp_errors", "totals.qp_errors", true, "queue pairs that ran out of retries", "queue pairs"},
      {"allreduce_busbw_gbps", "workloads[allreduce].busbw_gbps", false, "the first AllReduce's bus bandwidth", "Gb/s"},
      {"sim_time_ns", "sim_time_ns", false, "simulated time at the end of the run", "ns"},
      {"events", "engine.events", true, "events the engine handled", "events"},
      {"wall_s", "engine.wall_s", false, "wall-clock seconds the run took (differs from machine to machine)", "s"},
  };
  return kFigures;
}

std::string MetricUnit(const std::string& metric) {
  for (const KeyFigure& f : KeyFigures())
    if (metric == f.name) return f.unit;
  // The last name of the path, less an entry's index: workloads[0].iteration_ns[3] -> iteration_ns.
  std::string name = metric;
  while (!name.empty() && name.back() == ']' && name.rfind('[') != std::string::npos) name.erase(name.rfind('['));
  auto ends = [&](const std::string& tail) {
    return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends("_ns")) return "ns";
  if (ends("_gbps")) return "Gb/s";
  if (ends("_GBps")) return "GB/s";
  if (ends("_bytes") || ends("bytes_delivered")) return "bytes";
  if (name.find("slowdown") != std::string::npos) return "× the ideal FCT";
  return "";
}

std::vector<std::string> DefaultMetrics() {
  std::vector<std::string> m;
  for (const KeyFigure& f : KeyFigures())
    if (std::string(f.name) != "wall_s") m.push_back(f.name);
  return m;
}

namespace {

// The entry of `list` that `item` names: by number, or the first whose members hold the text.
const JsonDocument* Entry(const JsonDocument& list, const KeyPath::Step& step) {
  size_t index;
  if (step.Index(&index)) return index < list.size() ? &list[index] : nullptr;
  for (const JsonDocument& e : list) {
    if (!e.is_object()) continue;
    for (const auto& m : e.items())
      if (m.value().is_string() && m.value().get<std::string>() == step.item) return &e;
  }
  return nullptr;
}

}  // namespace

const JsonDocument* MetricValue(const JsonDocument& summary, const std::string& metric, const std::string& file) {
  std::string path = metric;
  for (const KeyFigure& f : KeyFigures())
    if (metric == f.name) path = f.path;
  KeyPath p;
  std::string err;
  if (!ParseKeyPath(path, &p, &err)) throw ConfigError(file, 0, "", "metric '" + metric + "': " + err);
  const JsonDocument* at = &summary;
  for (const KeyPath::Step& s : p.steps) {
    if (s.is_item) at = at->is_array() ? Entry(*at, s) : nullptr;
    else at = at->is_object() && at->contains(s.key) ? &(*at)[s.key] : nullptr;
    if (!at || at->is_null()) return nullptr;
  }
  return at;
}

std::string CellText(const JsonDocument* value) {
  if (!value || value->is_null()) return "";
  if (value->is_string()) return value->get<std::string>();
  return value->dump();
}

}  // namespace rocelab
