// The JSON inputs of `rocelab diagnose`: a run's summary.json and a bundle's
// manifest.json, read through JsonValue (util/json_value.h), which trusts
// nothing in them.
#include <cstdlib>
#include <algorithm>
#include <cmath>
#include <limits>

#include "diagnose/parsers.h"
#include "telemetry/counter_names.h"
#include "util/json_value.h"

namespace rocelab {

namespace {

[[noreturn]] void ThrowParseError(const std::string& file, int line, const std::string& key, const std::string& what) {
  throw ParseError(file, line, key.empty() ? what : "key '" + key + "': " + what);
}

JsonDocument ParseDocument(const std::string& text, const std::string& file) {
  return ParseJsonDocument(text, file, ThrowParseError);
}

using Node = JsonValue;

// --- summary.json -------------------------------------------------------------------------------

int DscpOf(const std::string& key) {
  if (key.empty() || key.size() > 2 || !std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  const int d = std::stoi(key);
  return d <= 63 ? d : -1;
}

// The QoS configuration summary.json keeps beside a device's counters.
void ReadConfig(const Node& cfg, PortEvidence* p) {
  if (!cfg.present()) return;
  std::array<bool, 8> pfc{};
  for (const Node& x : cfg["pfc_priorities"].Items()) pfc[x.Int(0, 7)] = true;
  p->pfc_enabled = pfc;
  p->trust = cfg["trust"].String();
  std::array<int, 64> map{};
  for (const auto& [k, v] : cfg["dscp_to_priority"].Members()) {
    const int d = DscpOf(k);
    if (d < 0) v.Fail("not a DSCP (0 to 63)");
    map[d] = v.Int(0, 7);
  }
  p->dscp_to_priority = map;
  if (const Node e = cfg["ecn_enabled"]; e.present()) p->cc_params["ecn_enabled"] = e.Bool() ? "true" : "false";
  if (const Node e = cfg["ecn_kmin"]; e.present()) p->cc_params["ecn_kmin"] = e.Text();
  if (const Node c = cfg["congestion_control"]; c.present()) p->cc_params["congestion_control"] = c.String();
}

void ReadCounters(const Node& block, CounterMap* into) {
  for (const auto& [k, v] : block.Members())
    if (v.present()) (*into)[k] = v.Number();
}

// summary.json writes a priority's counters as a group: for each priority with PFC on, and for
// any other that carried traffic or pause. `--counters nonzero` leaves out the zeros of a
// group; put them back, so that a rule asking whether a counter is shown at all (mlx5 and SAI
// show the pause rows only for PFC priorities) sees what the full summary would show.
void CompleteGroups(PortEvidence* p, std::initializer_list<const PriorityCounter*> group, const PriorityCounter* pfc_only) {
  for (int prio = 0; prio < 8; ++prio) {
    const bool pfc = p->pfc_enabled && (*p->pfc_enabled)[prio];
    bool shown = pfc;
    for (const PriorityCounter* c : group) shown |= p->counters.count(c->Name(prio)) > 0;
    if (!shown) continue;
    for (const PriorityCounter* c : group) p->counters.emplace(c->Name(prio), 0.0);
    if (pfc && pfc_only) p->counters.emplace(pfc_only->Name(prio), 0.0);
  }
}

}  // namespace

void ParseSummaryJson(const std::string& text, const std::string& file, Evidence* ev) {
  ReadSummaryJson(ParseDocument(text, file), file, ev);
}

void ReadSummaryJson(const JsonDocument& doc, const std::string& file, Evidence* ev) {
  if (!doc.is_object() || !(doc.contains("sim_time_ns") || doc.contains("hosts") || doc.contains("switches")))
    throw ParseError(file, 0, "not a rocelab summary.json (no sim_time_ns, hosts or switches)");
  const Node root(&doc, file, "", ThrowParseError);
  ev->origin = "simulation " + file;
  ev->interval_s = root["sim_time_ns"].Number() * 1e-9;
  for (const Node& f : root["flows"].Items()) {
    ++ev->flows;
    const std::string state = f["state"].String();
    if (state == "finished") ++ev->flows_finished;
    if (state == "qp_error") ++ev->flows_failed;
    ev->flow_records.push_back({f["src"].String(), f["dst"].String(), state});
  }
  // The run's faults, what its monitor found and what its recovery did (diagnose.cc, "the run's
  // own account").
  for (const Node& f : root["faults"].Items()) {
    RunFault rf;
    rf.kind = f["kind"].String();
    rf.target = f["target"].String();
    if (!f["injected_ns"].present()) continue;  // not injected in the run
    rf.injected_s = f["injected_ns"].Number() * 1e-9;
    if (f["localized_to"].present() && f["localized_ns"].present()) {
      rf.localized_to = f["localized_to"].String();
      rf.localized_s = f["localized_ns"].Number() * 1e-9;
    }
    if (f["flap_detected_ns"].IsNumber()) rf.flap_detected_s = f["flap_detected_ns"].Number() * 1e-9;
    for (const Node& a : f["actions"].Items()) {
      RunFault::Action action{a["t_ns"].Number() * 1e-9, a["tier"].String(), a["action"].String(), a["kind"].String(), {}};
      for (const Node& d : a["devices"].Items()) action.devices.push_back(d.String());
      rf.actions.push_back(std::move(action));
    }
    if (f["dropped_by"]["no_route_after_shut"].present()) rf.no_route_after_shut_bytes = f["dropped_by"]["no_route_after_shut"].Number();
    ev->faults.push_back(std::move(rf));
  }
  for (const Node& e : root["timeline"].Items()) {
    if (e["event"].String() != "detected" || e["device"].String() != "monitor") continue;
    LiveFinding l;
    l.t_s = e["t_ns"].Number() * 1e-9;
    if (ParseMonitorDetail(e["detail"].String(), &l.finding)) ev->live.push_back(std::move(l));
  }
  constexpr int kMaxInt = std::numeric_limits<int>::max();
  for (const Node& w : root["workloads"].Items()) {
    if (w["type"].String() != "allreduce") continue;
    CollectiveResult c;
    c.ranks = w["ranks"].Int(0, kMaxInt);
    c.iterations = w["iterations"].Int(0, kMaxInt);
    c.iterations_done = w["iterations_done"].Int(0, kMaxInt);
    c.busbw_gbps = w["busbw_gbps"].Number();
    c.host_link_gbps = w["host_link_gbps"].Number();
    ev->collectives.push_back(c);
  }

  // The probing agents' paths (run/pingmesh.h).
  for (const Node& n : root["probes"]["paths"].Items()) {
    ProbePath p;
    p.src = n["src"].String();
    p.dst = n["dst"].String();
    p.same_rack = n["same_rack"].Bool();
    for (const Node& h : n["hops"].Items()) p.hops.push_back(h.String());
    p.judged = n["judged"].Number();
    p.lost = n["lost"].Number();
    if (p.lost > p.judged) n["lost"].Fail("more probes lost than judged");
    p.ce_marked = n["ce_marked"].Number();
    p.rtt_sum_ns = n["rtt_sum_ns"].Number();
    p.rtt_min_ns = n["rtt_min_ns"].Number();
    p.rtt_max_ns = n["rtt_max_ns"].Number();
    ev->probes.push_back(std::move(p));
  }

  bool host_counters = false, switch_counters = false;
  for (const auto& [host, h] : root["hosts"].Members()) {
    PortEvidence p;
    p.device = host;
    p.port = kSimHostPort;
    p.speed_gbps = h["speed_mbps"].Number() / 1000;
    for (const char* block : {kEthtoolBlock, kHwCountersBlock}) ReadCounters(h[block], &p.counters);
    // The link's state and FEC blocks hold words (operstate, the code) beside their counters.
    for (const char* block : {kSysfsBlock, kFecBlock})
      for (const auto& [k, v] : h[block].Members())
        if (v.IsNumber()) p.counters[k] = v.Number();
    if (h[kSysfsBlock]["operstate"].present()) p.oper_up = h[kSysfsBlock]["operstate"].String() == "up";
    // Counters at all? The rocelab block counts too: its receive thresholds are never zero.
    host_counters |= !p.counters.empty() || !h[kRocelabBlock].Members().empty();
    ReadConfig(h["config"], &p);
    CompleteGroups(&p,
                   {&kRxPrioBytes, &kRxPrioPackets, &kTxPrioBytes, &kTxPrioPackets, &kRxPrioDiscards, &kRxPrioPause,
                    &kRxPrioPauseDuration, &kTxPrioPause, &kTxPrioPauseDuration},
                   &kRxPrioPauseTransition);
    p.deltas = p.counters;
    p.sources.push_back(file);
    ev->ports.push_back(std::move(p));
  }
  for (const auto& [sw, s] : root["switches"].Members()) {
    for (const auto& [name, port] : s["ports"].Members()) {
      PortEvidence p;
      p.device = sw;
      p.port = name;
      p.is_switch = true;
      p.peer = port["peer"].String();
      if (port["oper_status"].present()) p.oper_up = port["oper_status"].String() == "up";
      // The port's own counters are its numbers; peer, queues and priority groups are not.
      for (const auto& [k, v] : port.Members())
        if (v.IsNumber()) p.counters[k] = v.Number();
      p.speed_gbps = p.counters["speed"] / 1000;  // a setting, not a counter
      p.counters.erase("speed");
      if (const Node pool = s["buffer"]; pool[kHeadroomPoolBytes.name].present()) {
        p.headroom_pool_bytes = pool[kHeadroomPoolBytes.name].Number();
        p.headroom_pool_watermark_bytes = pool[kSaiBufferPoolXoffRoomWatermarkBytes.name].Number();
      }
      for (const auto& [block, into] : {std::pair{kQueuesBlock, &p.queues}, std::pair{kPriorityGroupsBlock, &p.pgs}})
        for (const auto& [q, m] : port[block].Members()) ReadCounters(m, &(*into)[q]);
      // The PFC watchdog's queues, as `show pfcwd stats` shows them.
      for (const auto& [q, m] : port[kPfcwdBlock].Members()) {
        WatchdogQueue w;
        w.port = sw + ":" + name;
        w.queue = q.size() > 2 && q.compare(0, 2, "UC") == 0 ? std::atoi(q.c_str() + 2) : -1;
        if (w.queue < 0 || w.queue > 7) m.Fail("not a queue name (UC0 to UC7)");
        w.status = m["status"].String();
        w.storms_detected = m[kPfcwdStormDetected.name].Number();
        w.storms_restored = m[kPfcwdStormRestored.name].Number();
        w.tx_ok = m[kPfcwdTxOk.name].Number();
        w.tx_drop = m[kPfcwdTxDrop.name].Number();
        w.rx_ok = m[kPfcwdRxOk.name].Number();
        w.rx_drop = m[kPfcwdRxDrop.name].Number();
        w.source = file;
        ev->watchdog.push_back(w);
      }
      switch_counters |= !p.counters.empty() || !p.queues.empty() || !p.pgs.empty();
      ReadConfig(s["config"], &p);
      CompleteGroups(&p, {&kSaiPortPfcRxPkts, &kSaiPortPfcTxPkts, &kSaiPortPfcRxPauseDurationUs, &kSaiPortPfcTxPauseDurationUs},
                     nullptr);
      p.deltas = p.counters;
      p.sources.push_back(file);
      ev->ports.push_back(std::move(p));
    }
  }
  if (!host_counters) ev->sections_without_counters.push_back("hosts");
  if (!switch_counters) ev->sections_without_counters.push_back("switches");
}

// --- manifest.json ------------------------------------------------------------------------------

namespace {

// A file the manifest names must lie inside the bundle: a relative path without "..".
std::string FileInBundle(const Node& n) {
  const std::string f = n.String();
  bool up = false;
  for (size_t a = 0; a <= f.size();) {
    const size_t b = std::min(f.find('/', a), f.size());
    up |= f.compare(a, b - a, "..") == 0 && b - a == 2;
    a = b + 1;
  }
  if (f.empty() || f[0] == '/' || up) n.Fail("'" + f + "' is not a file inside the bundle");
  return f;
}

}  // namespace

BundleManifest ParseManifest(const std::string& text, const std::string& file) {
  const JsonDocument doc = ParseDocument(text, file);
  if (!doc.is_object()) throw ParseError(file, 0, "not a bundle manifest (expected a JSON object)");
  const Node root(&doc, file, "", ThrowParseError);
  BundleManifest m;
  if (const Node host = root["host"]; host.present()) m.host = host.String();
  m.interval_s = root["interval_s"].Number();
  m.samples = root["samples"].Int(0, 1000000);
  const Node devices = root["devices"];
  if (!devices.present()) throw ParseError(file, 0, "no devices in the manifest");
  for (const Node& d : devices.Items()) {
    BundleDevice b;
    if (const Node r = d["rdma_device"]; r.present()) b.rdma_device = r.String();
    if (const Node n = d["netdev"]; n.present()) b.netdev = n.String();
    b.speed_mbps = d["speed_mbps"].Number();
    if (d["operstate"].present()) b.operstate = d["operstate"].String();
    b.mtu = d["mtu"].Int(0, 1000000);
    if (const Node files = d["counter_files"]; files.present()) {
      b.counter_files.emplace();
      for (const Node& f : files.Items()) b.counter_files->push_back(FileInBundle(f));
    }
    for (const auto& [k, v] : d["cc_params"].Members()) b.cc_params[k] = v.Text();
    if (const Node q = d["mlnx_qos"]; q.present()) b.mlnx_qos = FileInBundle(q);
    m.devices.push_back(std::move(b));
  }
  return m;
}

}  // namespace rocelab
