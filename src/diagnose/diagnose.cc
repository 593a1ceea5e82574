#include "diagnose/diagnose.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "diagnose/parsers.h"
#include "sim/packet.h"
#include "telemetry/counter_names.h"

namespace rocelab {

namespace {

// The most a frame a pool refused can have found free: the largest frame a switch takes (a jumbo
// MTU with its Ethernet header and FCS) in cells of the largest size switch.cell allows (4 KB).
constexpr double kJumboFrameCells = (kMaxJumboFrame + kEthHeader + kFcs + 4095) / 4096 * 4096;

std::string Fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string Count(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.0f", v);
  std::string s = b, out;
  int n = 0;
  for (auto it = s.rbegin(); it != s.rend(); ++it) {
    if (n && n % 3 == 0 && *it != '-') out.insert(out.begin(), ',');
    out.insert(out.begin(), *it);
    ++n;
  }
  return out;
}

}  // namespace

// The rung of the ladder by rule. Congestion findings (pausing, a hot spot's tree, lossy drops)
// are congestion control's until the pause is traced to a storm or a slow receiver; PFC's own
// faults and a Kmin that lets PFC fire first are the PFC-level agents'; loss, drift and
// deadlock need isolation or rollback.
const char* LadderTier(const std::string& rule) {
  static const char* kT1[] = {"pfc.paused_share", "pfc.congestion_tree", "pfc.pause_received", "pfc.pause_sent",
                              "drop.lossy_queue"};
  static const char* kT2[] = {"pfc.pause_storm", "pfc.slow_receiver", "pfc.watchdog_storm", "pfc.nic_storm_guard",
                              "ecn.pfc_without_ecn"};
  for (const char* r : kT1)
    if (rule == r) return "T1";
  for (const char* r : kT2)
    if (rule == r) return "T2";
  if (rule.compare(0, 4, "app.") == 0 || rule.compare(0, 9, "evidence.") == 0) return "";
  return "T3";
}

double LinkDownsOf(const PortEvidence& p) { return LinkDownsOf(p.is_switch, p.deltas); }

double LinkDownsOf(bool is_switch, const CounterMap& deltas) {
  const Counter& downs = is_switch ? kSonicFlapCount : kLinkDownEventsPhy;
  auto delta = [&](const char* k) {
    auto it = deltas.find(k);
    return it == deltas.end() ? 0.0 : it->second;
  };
  // Every other change of the carrier is a down too (a netdev's carrier also goes with an
  // administrative down or a driver reload, which the PHY's count misses).
  return std::max(delta(downs.name), std::ceil(delta(kCarrierChanges.name) / 2));
}

LinkTrafficCounters LinkTrafficCountersOf(bool is_switch) {
  if (is_switch) return {kSaiPortIfOutUcastPkts, kSaiPortIfInUcastPkts, kSaiPortIfOutOctets, kSaiPortIfInOctets};
  return {kTxPacketsPhy, kRxPacketsPhy, kTxBytesPhy, kRxBytesPhy};
}

LinkPoll LinkPollOf(bool is_switch, const CounterMap& values, double t_s) {
  const LinkTrafficCounters c = LinkTrafficCountersOf(is_switch);
  auto at = [&](const Counter& k, double absent) {
    auto it = values.find(k.name);
    return it == values.end() ? absent : it->second;
  };
  LinkPoll p;
  p.t_s = t_s;
  p.sent_frames = at(c.sent_frames, 0);
  p.got_frames = at(c.got_frames, 0);
  p.sent_bytes = at(c.sent_bytes, -1);
  p.got_bytes = at(c.got_bytes, -1);
  p.downs = LinkDownsOf(is_switch, values);
  return p;
}

std::string LocationDevice(const std::string& location) { return location.substr(0, location.find_first_of(": ")); }

namespace {

// What to do about a root cause, where more than one rule names it (the whole run's rules and the
// run's own account below).
const char* const kStormAction =
    "the host's receive pipeline is stuck (driver hang, PCIe stall): stop its pause (its pause-storm guard, mlx5 "
    "pfc-prevention-tout, or the switch PFC watchdog on the port facing it) so the congestion tree dissolves, then fix "
    "or isolate the host";
const char* const kSlowReceiverAction =
    "look at the host: PCIe bandwidth and errors, memory, CPU/interrupt load, receive WQE starvation; the pause "
    "spreads upstream and stalls other flows unless ECN on the queue feeding it holds its senders to what it drains";
const char* const kDeadlockAction =
    "break it now by draining or resetting one of the queues (the PFC watchdog with action drop does this); then "
    "remove the routes that make lossless traffic turn back (rocelab lint shows the buffer dependency cycle)";
const char* const kGrayDropAction =
    "a gray failure (a faulty ASIC, optic or forwarding entry): take the link out of service so ECMP routes around "
    "it, then test it; the receivers' out_of_sequence counters show the loss end to end";

// The layer a rule reports in (a finding read back from a run's timeline carries only its rule).
std::string LayerOf(const std::string& rule) {
  if (rule.compare(0, 9, "physical.") == 0) return "physical";
  if (rule.compare(0, 10, "transport.") == 0 || rule == "cc.off") return "transport";
  if (rule == "pfc.off_on_hop") return "network";
  if (rule.compare(0, 4, "pfc.") == 0 || rule.compare(0, 5, "link.") == 0 || rule == "config.classification") return "link";
  return "network";
}

// --- rules -----------------------------------------------------------------------------------

class Rules {
 public:
  explicit Rules(const Evidence& ev) : ev_(ev) {
    for (const PortEvidence& p : ev_.ports) {
      by_device_[p.device].push_back(&p);
      if (p.is_switch && !p.peer.empty()) switch_facing_[p.peer] = p.device;
    }
  }

  std::vector<Diagnosis> Run(bool merge_places) {
    Coverage();
    for (const PortEvidence& p : ev_.ports) {
      Configuration(p);
      Physical(p);
      Link(p);
      Network(p);
      Transport(p);
    }
    SwitchWide();
    VanishingFrames();
    ProbeTomography();
    CongestionTree();
    Deadlock();
    Watchdog();
    Application();
    std::stable_sort(out_.begin(), out_.end(), [](const Diagnosis& a, const Diagnosis& b) {
      return Order(a.layer) < Order(b.layer);
    });
    RunAccount();
    return merge_places ? Merge(out_) : out_;
  }

  // --- the run's own account ---------------------------------------------------------------------
  // A summary of a run with faults carries what its monitor found window by window and what its
  // recovery did (Evidence::faults, live). The whole run's totals blur a fault that began mid-run
  // (a host that drained before its pipeline stuck reads as a slow receiver) and lose one that
  // recovery ended (a deadlock broken after two windows); the windows do not. So each fault's own
  // finding, the monitor's detection that localized it, comes first and stands for its place: the
  // totals' finding there of the same rule, or of a rule that names another cause of the same
  // symptom, gives it its whole-run evidence. And a finding that a recovery action caused (the
  // link it shut, the packets sent toward that link before the routes converged, the flows into a
  // host whose pause it ignores) is the action's: said so, as information, not a new fault.
  void RunAccount() {
    if (ev_.windowed || ev_.faults.empty()) return;
    std::vector<Diagnosis> own;
    for (const RunFault& f : ev_.faults) {
      const LiveFinding* l = Localizing(f);
      if (!l) continue;
      const MonitorFinding& m = l->finding;
      Diagnosis d{LayerOf(m.rule), Severity::kError, m.title, m.location,
                  "the run's monitor found it at " + Fmt("%.3f", l->t_s * 1e3) + " ms, " +
                      Fmt("%.3f", (l->t_s - f.injected_s) * 1e3) + " ms after " + f.kind +
                      (f.target.empty() ? "" : " on " + f.target) + " was injected (counters window by window)",
                  RootAction(m.rule), m.rule, m.tier};
      // The places it stands for: where the monitor named it, and for the same rule, either end of
      // the fault's link (a link down shows at both).
      const std::string device = LocationDevice(m.location);
      const std::vector<std::string> ends = LinkEnds(f.target);
      bool whole_run = false;
      for (auto it = out_.begin(); it != out_.end();) {
        const std::string at = LocationDevice(it->location);
        const bool same = it->rule == m.rule && (at == device || std::find(ends.begin(), ends.end(), at) != ends.end());
        if (!same && !(at == device && Rivals(it->rule, m.rule))) {
          ++it;
          continue;
        }
        d.evidence += (whole_run ? "; " : "; over the whole run: ") + (it->rule == m.rule ? "" : it->rule + ", ") +
                      it->evidence + (it->location == m.location ? "" : " at " + it->location);
        whole_run = true;
        if (it->rule == m.rule && d.action.empty()) d.action = it->action;
        it = out_.erase(it);
      }
      std::string acted;
      for (const RunFault::Action& a : f.actions)
        acted += (acted.empty() ? "" : "; ") + Fmt("%.3f", a.t_s * 1e3) + " ms " + a.tier + " " + a.action;
      if (d.action.empty()) d.action = "see the rule " + m.rule + " in docs/faults.md";
      if (!acted.empty()) d.action += ". The run's recovery: " + acted;
      own.push_back(std::move(d));
    }
    for (Diagnosis& d : out_) {
      const std::string why = CausedByAction(d);
      if (why.empty()) continue;
      d.severity = Severity::kInfo;
      d.title = "caused by the recovery: " + d.title;
      d.evidence += "; " + why;
      d.action = "nothing new to fix: it follows from the action, which the fault's own finding explains";
    }
    out_.insert(out_.begin(), own.begin(), own.end());
  }

  // The monitor's detection that localized `f`: at its localization, naming its place; a flap's,
  // once the monitor had counted enough downs to call it one (each before was a link down).
  const LiveFinding* Localizing(const RunFault& f) const {
    if (f.flap_detected_s >= 0)
      for (const LiveFinding& l : ev_.live)
        if (std::fabs(l.t_s - f.flap_detected_s) < 1e-12 && l.finding.rule == "physical.link_flap") return &l;
    if (f.localized_s < 0) return nullptr;
    for (const LiveFinding& l : ev_.live)
      if (std::fabs(l.t_s - f.localized_s) < 1e-12 && l.finding.location == f.localized_to) return &l;
    return nullptr;
  }

  // The two devices a link's name joins ("leaf0-spine1"); none for a device or a port.
  static std::vector<std::string> LinkEnds(const std::string& link) {
    const size_t dash = link.find('-');
    if (dash == std::string::npos) return {};
    return {link.substr(0, dash), link.substr(dash + 1)};
  }

  // Two rules that name different causes of one symptom at one place: a host that pauses.
  static bool Rivals(const std::string& a, const std::string& b) {
    auto host_pause = [](const std::string& r) { return r == "pfc.pause_storm" || r == "pfc.slow_receiver"; };
    return host_pause(a) && host_pause(b);
  }

  static std::string RootAction(const std::string& rule) {
    if (rule == "pfc.pause_storm") return kStormAction;
    if (rule == "pfc.slow_receiver") return kSlowReceiverAction;
    if (rule == "pfc.deadlock") return kDeadlockAction;
    if (rule == "network.gray_drop") return kGrayDropAction;
    return "";
  }

  // Why finding `d` is what a recovery action caused ("" when it is not): a flap at either end of
  // a link the recovery shut (unless the fault was that link's own), ingress discards for want
  // of a route after a shut, and the transport and flow findings of hosts whose every flow runs
  // into a host whose pause the recovery ignores (what goes to it is dropped at its switch port, or
  // at its NIC when forwarded).
  std::string CausedByAction(const Diagnosis& d) const {
    for (const RunFault& f : ev_.faults) {
      for (const RunFault::Action& a : f.actions) {
        const std::string when = Fmt("%.3f", a.t_s * 1e3) + " ms";
        // A link shut on its own, or a stuck host's isolated: its two ends.
        if ((a.kind == "shut_link" || a.kind == "isolate_host") && a.devices.size() == 2) {
          const std::string &end1 = a.devices[0], &end2 = a.devices[1];
          const std::string link = end1 + "-" + end2;
          const std::string dev = LocationDevice(d.location);
          const bool own_link = (f.kind == "link_down" || f.kind == "link_flap") &&
                                (f.target == link || f.target == end2 + "-" + end1);
          // A switch port names its peer ("facing h0"); a host has the one port.
          const bool on_link = d.location.find(" facing ") == std::string::npos ||
                               d.location.find("facing " + end1) != std::string::npos ||
                               d.location.find("facing " + end2) != std::string::npos;
          const bool link_gone =
              d.rule == "physical.link_down" || d.rule == "physical.link_flap" || d.rule == "physical.hi_ber";
          if (link_gone && !own_link && (dev == end1 || dev == end2) && on_link)
            return "the recovery shut the link " + link + " at " + when + " (" + f.kind + " on " + f.target + ")";
          // An isolated host has no route by design: what is still sent to it dies at the first hop.
          if (d.rule == "drop.ingress_discard" && f.no_route_after_shut_bytes > 0)
            return a.kind == "isolate_host"
                       ? Count(f.no_route_after_shut_bytes) + " B sent to " + end2 + " were dropped for want of a route to it: the recovery isolated it at " + when
                       : Count(f.no_route_after_shut_bytes) + " B were dropped for want of a route after the recovery shut " + link +
                             " at " + when + ", until the switches' routes converged";
        }
        // A host's pause ignored at its switch port, or the host isolated: devices are the switch
        // and the host. The isolation, where there is one, is what the flows into it meet now.
        if ((a.kind == "ignore_pause_drop" || a.kind == "ignore_pause_forward") && a.devices.size() == 2) {
          const std::string& host = a.devices[1];
          if (d.layer != "transport" && d.rule != "app.flows_failed") continue;
          if (!FlowsAllInto(host, d)) continue;
          for (const RunFault::Action& later : f.actions)
            if (later.kind == "isolate_host" && later.devices.size() == 2 && later.devices[1] == host)
              return "every flow of it runs into " + host + ", which the recovery isolated at " +
                     Fmt("%.3f", later.t_s * 1e3) + " ms (what is sent to it is dropped at the senders' first hop)";
          return "every flow of it runs into " + host + ", whose pause the recovery ignores from " + when +
                 (a.kind == "ignore_pause_drop" ? " (what goes to it is dropped at its switch port)"
                                                : " (what it cannot take is dropped at its NIC)");
        }
      }
    }
    return "";
  }

  // Whether every flow that `d` speaks of, a host's own (transport) or the failed ones
  // (app.flows_failed), runs to or from `host`.
  bool FlowsAllInto(const std::string& host, const Diagnosis& d) const {
    const std::string dev = LocationDevice(d.location);
    int n = 0;
    for (const FlowRecord& r : ev_.flow_records) {
      const bool relevant = d.rule == "app.flows_failed" ? r.state == "qp_error" : (r.src == dev || r.dst == dev);
      if (!relevant) continue;
      ++n;
      if (r.src != host && r.dst != host) return false;
    }
    return n > 0;
  }

  // The same finding at several places is one finding with a list of places.
  static std::vector<Diagnosis> Merge(const std::vector<Diagnosis>& in) {
    std::vector<Diagnosis> out;
    std::vector<std::vector<std::string>> where;
    for (const Diagnosis& d : in) {
      size_t i = 0;
      for (; i < out.size(); ++i)
        if (out[i].layer == d.layer && out[i].severity == d.severity && out[i].tier == d.tier && out[i].title == d.title &&
            out[i].action == d.action)
          break;
      if (i == out.size()) {
        out.push_back(d);
        where.push_back({d.location});
      } else {
        where[i].push_back(d.location);
      }
    }
    for (size_t i = 0; i < out.size(); ++i) {
      if (where[i].size() == 1) continue;
      std::string loc;
      for (size_t k = 0; k < where[i].size() && k < 4; ++k) loc += (k ? "; " : "") + where[i][k];
      if (where[i].size() > 4) loc += "; and " + std::to_string(where[i].size() - 4) + " more";
      out[i].location = loc;
      out[i].evidence += " (at " + where[i].front() + "; " + std::to_string(where[i].size()) + " places in all)";
    }
    return out;
  }

  // Ports paused by their peers almost all the time, in a cycle of devices: a PFC deadlock.
  void Deadlock() {
    if (ev_.interval_s <= 0) return;
    // The stopped queues: a switch port paused by its peer more than kDeadlockShare of the
    // interval, on one priority.
    struct Queue {
      const PortEvidence* port;
      int prio;
    };
    std::vector<Queue> stopped;
    for (const PortEvidence& p : ev_.ports) {
      if (!p.is_switch || p.peer.empty()) continue;
      for (int prio = 0; prio < 8; ++prio) {
        const double share = D(p, kSaiPortPfcRxPauseDurationUs.Name(prio)) * 1e-6 / ev_.interval_s;
        if (share <= kDeadlockShare) continue;
        // Over a monitor's window a deadlocked queue is also one that transmitted nothing; a
        // congested one paused as long still sends between pauses. Totals since the counters
        // were cleared cannot tell the two apart, so a bundle or a whole run is judged by
        // the pause share alone.
        if (ev_.windowed) {
          auto q = p.queues.find(QueueName(prio));
          if (q != p.queues.end() && At(q->second, kSaiQueuePackets.name) > 0) continue;
        }
        stopped.push_back({&p, prio});
      }
    }
    // Devices in name order, each one's ports as the evidence lists them: the cycle is named
    // from the same place however the evidence was put together.
    std::stable_sort(stopped.begin(), stopped.end(),
                     [](const Queue& a, const Queue& b) { return a.port->device < b.port->device; });
    // The wait-for graph. A stopped queue waits on the peer that pauses it; with the switches'
    // routes, on those of the peer's stopped queues (same priority) that forward what this one
    // sends, so a cycle of pauses whose queues do not feed each other is none. Without routes
    // (a bundle, a summary), on every stopped queue of the peer.
    std::vector<std::vector<size_t>> waits(stopped.size());
    for (size_t a = 0; a < stopped.size(); ++a)
      for (size_t b = 0; b < stopped.size(); ++b) {
        const PortEvidence& from = *stopped[a].port;
        const PortEvidence& to = *stopped[b].port;
        if (to.device != from.peer || stopped[a].prio != stopped[b].prio) continue;
        if (ev_.routes && !ev_.routes->Feeds(from.device, from.port, to.device, to.port)) continue;
        waits[a].push_back(b);
      }
    std::vector<int> color(stopped.size(), 0);
    std::vector<size_t> stack, cycle;
    std::function<bool(size_t)> dfs = [&](size_t u) {
      color[u] = 1;
      stack.push_back(u);
      for (size_t v : waits[u]) {
        if (color[v] == 1) {
          cycle.assign(std::find(stack.begin(), stack.end(), v), stack.end());
          return true;
        }
        if (color[v] == 0 && dfs(v)) return true;
      }
      stack.pop_back();
      color[u] = 2;
      return false;
    };
    for (size_t u = 0; u < stopped.size() && cycle.empty(); ++u)
      if (color[u] == 0) dfs(u);
    if (cycle.empty()) return;
    std::string loop, queues;
    for (size_t q : cycle) {
      loop += stopped[q].port->device + " -> ";
      queues += (queues.empty() ? "" : ", ") + stopped[q].port->device + ":" + stopped[q].port->port + " " +
                QueueName(stopped[q].prio);
    }
    loop += stopped[cycle.front()].port->device;
    Add("pfc.deadlock", "link", Severity::kError, "PFC deadlock: switches pause each other in a cycle", loop,
        "each switch in the cycle is paused by the next more than 80 % of the time (" +
            kSaiPortPfcRxPauseDurationUs.Pattern("N") + ")" +
            (ev_.windowed ? std::string(" and its paused queue sent nothing (") + kSaiQueuePackets.name + " 0)" : "") +
            (ev_.routes ? ", each queue forwarding into the next by the switches' routes" : "") +
            ", and traffic through them stopped: " + queues,
        kDeadlockAction);
  }

 private:
  static int Order(const std::string& layer) {
    // "evidence": what the input cannot show, before anything it does show.
    static const char* kLayers[] = {"evidence", "physical", "link", "network", "transport", "application"};
    for (int i = 0; i < 6; ++i)
      if (layer == kLayers[i]) return i;
    return 6;
  }

  // `rule` names the rule: the same finding from a bundle, a summary or the live monitor has
  // the same id. `tier`: the rung of the ladder that answers it, when the evidence decides it;
  // otherwise the rule's own (LadderTier).
  void Add(const char* rule, const std::string& layer, Severity s, const std::string& title, const std::string& where,
           const std::string& evidence, const std::string& action, const char* tier = nullptr) {
    out_.push_back({layer, s, title, where, evidence, action, rule, tier ? tier : LadderTier(rule)});
  }

  // A counter of the map, 0 when the device does not show it.
  static double At(const CounterMap& m, const std::string& k) {
    auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
  }
  static double D(const PortEvidence& p, const std::string& k) { return At(p.deltas, k); }
  static bool Has(const PortEvidence& p, const std::string& k) { return p.counters.count(k) > 0; }
  // How much a counter grew, as the evidence quotes it: "name +N".
  static std::string Grew(const std::string& name, double delta) { return name + " +" + Count(delta); }

  std::string Where(const PortEvidence& p) const {
    std::string s = p.is_switch ? p.device + ":" + p.port : p.device + " (" + p.port + ")";
    if (!p.peer.empty()) s += " facing " + p.peer;
    return s;
  }

  std::string Rate(double delta) const {
    if (ev_.interval_s <= 0) return "";
    return " (" + Fmt("%.3g", delta / ev_.interval_s) + "/s)";
  }

  bool Lossless(const PortEvidence& p, int prio) const {
    if (p.pfc_enabled) return (*p.pfc_enabled)[prio];
    return Has(p, kRxPrioPauseTransition.Name(prio));
  }

  // A summary.json whose per-device sections hold no counters shows nothing about the devices:
  // say so, rather than let the absence of findings read as a healthy fabric.
  void Coverage() {
    const auto& without = ev_.sections_without_counters;
    if (without.empty()) return;
    const bool hosts = std::count(without.begin(), without.end(), "hosts") > 0;
    const bool switches = std::count(without.begin(), without.end(), "switches") > 0;
    const std::string which = hosts && switches ? "hosts and switches" : hosts ? "hosts" : "switches";
    Add("evidence.no_device_counters", "evidence", Severity::kWarning,
        hosts && switches ? "summary.json has no per-device counters (written with --counters none): nothing to diagnose at "
                            "the device level"
                          : "summary.json has no counters for its " + which + " (written with --counters none?): nothing to "
                            "diagnose on them",
        ev_.origin, "its " + which + (hosts && switches ? " sections are" : " section is") +
                        " absent, empty or without counter blocks; the flow and collective findings still apply",
        "run again with --counters all (or nonzero) to diagnose the NICs and switch ports");
  }

  // What the NIC's QoS and congestion-control configuration says (reported for real hosts).
  void Configuration(const PortEvidence& p) {
    if (p.is_switch || ev_.flows > 0) return;
    std::string on;
    if (p.pfc_enabled)
      for (int i = 0; i < 8; ++i)
        if ((*p.pfc_enabled)[i]) on += (on.empty() ? "" : ",") + std::to_string(i);
    // PFC off on every priority is its own finding (pfc.off_on_nic), which quotes the map.
    if (p.pfc_enabled && !p.trust.empty() && !on.empty()) {
      std::string ev = "trust " + p.trust + "; PFC enabled on priority " + on;
      Severity sev = Severity::kInfo;
      std::string title = "QoS: trust " + p.trust + ", PFC on priority " + on;
      std::string action = "nothing to change";
      if (p.dscp_to_priority) {
        const int r = (*p.dscp_to_priority)[kRoceDscp], c = (*p.dscp_to_priority)[kCnpDscp];
        ev += "; DSCP 26 -> priority " + std::to_string(r) + ", DSCP 48 (CNP) -> priority " + std::to_string(c);
        if (r >= 0 && !(*p.pfc_enabled)[r]) {
          sev = Severity::kError;
          title = "RoCE (DSCP 26) lands on priority " + std::to_string(r) + ", which has no PFC";
          action = "enable PFC on priority " + std::to_string(r) + " or map DSCP 26 to the PFC priority";
        } else {
          title += ": RoCE on DSCP 26 is lossless";
        }
      }
      if (p.trust == "pcp") {
        sev = Severity::kError;
        title = "the NIC trusts PCP: RoCEv2 priority is lost across routed hops";
        action = "mlnx_qos -i IF --trust dscp";
      }
      Add("config.classification", "link", sev, title, Where(p), ev, action);
    }
    if (!p.cc_params.empty() && p.cc_params.count("ROCE_CC_PRIO_MASK_P1")) {
      std::string ev;
      for (const char* k : {"ROCE_CC_PRIO_MASK_P1", "ROCE_CC_ALGORITHM_P1", "DCE_TCP_G_P1", "DCE_TCP_RTT_P1", "RPG_TIME_RESET_P1",
                            "RPG_BYTE_RESET_P1", "RPG_AI_RATE_P1", "RPG_HAI_RATE_P1", "RPG_THRESHOLD_P1", "MIN_TIME_BETWEEN_CNPS_P1",
                            "CNP_DSCP_P1", "CNP_802P_PRIO_P1"})
        if (p.cc_params.count(k)) ev += (ev.empty() ? "" : ", ") + std::string(k) + " " + p.cc_params.at(k);
      const std::string mask = p.cc_params.at("ROCE_CC_PRIO_MASK_P1");
      const bool on = mask != "0";
      Add("config.dcqcn_firmware", "network", on ? Severity::kInfo : Severity::kWarning,
          on ? "DCQCN is enabled in firmware (priority mask " + mask + ")" : "DCQCN is disabled in firmware on port 1", Where(p), ev,
          on ? "these are the ConnectX defaults rocelab's mlx5 profile models (docs/dcqcn.md)"
             : "set ROCE_CC_PRIO_MASK_P1 to include the RoCE priority (mlxconfig set)");
    }
  }

  // A link that went down: once (it is down, or came back), or often enough to be flapping, by
  // the count switches keep for errdisable (5 downs in 10 s: the link-flap defaults of OcNOS and
  // Huawei's port link-flap protection). A monitor counts the downs over that window across its
  // windows (scaled with the run's timers); other evidence counts them over its interval.
  void LinkDowns(const PortEvidence& p) {
    const double downs = LinkDownsOf(p);
    if (downs <= 0) return;
    const double recent = p.downs_in_flap_window >= 0 ? p.downs_in_flap_window : downs;
    // The counter the downs were counted by: the device's own count, or its carrier's changes.
    const Counter& kept = p.is_switch ? kSonicFlapCount : kLinkDownEventsPhy;
    // Codewords FEC could not correct beside the downs: the PCS failed the link on them (fault/fec.h).
    const Counter& uncorrectable = p.is_switch ? kSaiPortIfInFecNotCorrectableFrames : kFecUncorrectableBlocks;
    const bool past_fec = D(p, uncorrectable.name) > 0;
    const std::string grew = (D(p, kept.name) >= downs ? Grew(kept.name, D(p, kept.name))
                                                       : Grew(kCarrierChanges.name, D(p, kCarrierChanges.name))) +
                             (p.oper_up == false ? ", down now" : "") +
                             (past_fec ? ", " + Grew(uncorrectable.name, D(p, uncorrectable.name)) +
                                             ": errors past FEC, which the PCS fails the link on (hi_ber)"
                                       : "");
    const std::string replace =
        "replace the optic or cable (check the peer's transmitter too): errors FEC cannot correct take the link down "
        "and will again once it is back";
    if (recent >= kFlapDowns) {
      Add("physical.link_flap", "physical", Severity::kError, "the link flaps", Where(p),
          grew + (p.downs_in_flap_window >= 0 ? ", " + Count(recent) + " downs in the flap window" : ""),
          past_fec ? "take it out of service and " + replace
                   : "take it out of service (shutdown, or errdisable link-flap) and test the optics and cable at both "
                     "ends: each down loses what was in flight and each return moves the fabric's routes again");
      return;
    }
    if (past_fec) {
      // Not a carrier lost but a link failed on its errors (IEEE 802.3 hi_ber): it comes back
      // and fails again, losing what is in flight each time, until it is taken out of service.
      Add("physical.hi_ber", "physical", Severity::kError, "errors past FEC took the link down (hi_ber)", Where(p), grew,
          "take it out of service (shutdown) and " + replace);
      return;
    }
    if (p.oper_up == false) {
      Add("physical.link_down", "physical", Severity::kError, "the link is down", Where(p), grew,
          "the switches route around it (ECMP pruned, routes converged); test the optics and cable at both "
          "ends before bringing it back; queue pairs whose packets it lost wait out their ACK timeout");
      return;
    }
    Add("physical.link_down", "physical", Severity::kWarning, "the link went down and came back", Where(p), grew,
        "check the link's optics, cabling and the peer port's logs; watch it: " + Count(kFlapDowns) +
            " downs in a flap window make it a flap");
  }

  void Physical(const PortEvidence& p) {
    const Counter& fcs_errors = p.is_switch ? kSaiPortIfInErrors : kRxCrcErrorsPhy;
    const Counter& received = p.is_switch ? kSaiPortIfInUcastPkts : kRxPacketsPhy;
    const double crc = D(p, fcs_errors.name);
    if (crc > 0) {
      const double frames = D(p, received.name);
      Add("physical.crc_errors", "physical", Severity::kError, "bit errors on the link (frames dropped for a bad FCS)", Where(p),
          Grew(fcs_errors.name, crc) + Rate(crc) + (frames > 0 ? ", " + Fmt("%.3g", crc / frames) + " of received frames" : ""),
          "clean or replace the optic/cable of this link (check the peer's transmitter too); each loss costs a "
          "go-back-N retransmission of everything after it");
    }
    for (const char* k : {kRxSymbolErrPhy.name, kRxPcsSymbolErrPhy.name})
      if (D(p, k) > 0)
        Add("physical.symbol_errors", "physical", Severity::kWarning, "symbol errors on the link", Where(p), Grew(k, D(p, k)),
            "a marginal optic or cable: watch " + std::string(kRxCrcErrorsPhy.name) + " and plan a replacement");
    LinkDowns(p);
    // FEC at work: corrected codewords are the warning that comes before lost frames.
    const Counter& corrected = p.is_switch ? kSaiPortIfInFecCorrectableFrames : kFecCorrectedBlocks;
    const Counter& bits = p.is_switch ? kSaiPortIfInFecSymbolErrors : kRxCorrectedBitsPhy;
    const Counter& octets = p.is_switch ? kSaiPortIfInOctets : kRxBytesPhy;
    if (D(p, corrected.name) > 0) {
      // Errored bits over the bits the decoder saw: it decodes idles too, at line rate over the
      // interval, as SONiC's port FEC BER does (sonic-net/SONiC doc/port_fec_ber). Without a speed
      // and an interval, over the bits received. A switch counts symbols: at real error rates one bit each.
      const double line_bits = p.speed_gbps * 1e9 * ev_.interval_s;
      const double ber = line_bits > 0 ? D(p, bits.name) / line_bits
                         : D(p, octets.name) > 0 ? D(p, bits.name) / (8 * D(p, octets.name)) : 0;
      Add("physical.fec_corrected", "physical", Severity::kInfo, "FEC is correcting bit errors on the link (pre-FEC BER about " + Fmt("%.1e", ber) + ")",
          Where(p), Grew(corrected.name, D(p, corrected.name)) + ", " + Grew(bits.name, D(p, bits.name)),
          "harmless while no codeword is uncorrectable; a rising rate is the early sign of a failing optic or cable: "
          "watch the trend and plan a replacement");
    }
    const Counter& oversize = p.is_switch ? kSaiPortEtherRxOversizePkts : kRxOversizePktsPhy;
    if (D(p, oversize.name) > 0)
      Add("link.mtu_oversize", "link", Severity::kError, "frames larger than the port's MTU are dropped", Where(p),
          Grew(oversize.name, D(p, oversize.name)) + Rate(D(p, oversize.name)),
          "set the MTU of this port to 9216 like the rest of the path (a RoCE frame of MTU 4096 is 4174 B)");
  }

  // How far a root's pause spread: the ports held paused because of it, hop by hop upstream (a
  // switch that paused its peers while it was paused itself passes the pause on), and the hosts
  // at the ends of the tree, whose flows stop whether or not they send to the root. The roots: a
  // host that pauses its switch most of the time (a storm or a slow receiver), and each hot spot
  // that heavily paused ports trace to. Ports paused for less than 1 % of the interval are not
  // counted as its tree (a watchdog or guard may have cut the tree short).
  void CongestionTree() {
    if (ev_.interval_s <= 0) return;
    const double min_us = 0.01 * ev_.interval_s * 1e6;
    for (int prio = 0; prio < 8; ++prio) {
      std::vector<PauseRoot> roots;
      for (const PortEvidence& p : ev_.ports) {
        if (p.is_switch || Share(PauseUs(p, prio, true)) < 0.5) continue;
        PauseRoot r;
        r.prio = prio;
        r.port = &p;
        r.share = Share(PauseUs(p, prio, true));
        r.kind = Storming(p, prio, r.share) ? PauseRoot::Kind::kStorm : PauseRoot::Kind::kSlowReceiver;
        roots.push_back(r);
      }
      for (const PortEvidence& p : ev_.ports) {
        if (Share(PauseUs(p, prio, false)) <= 0.5) continue;
        PauseRoot r = TracePause(p, prio);
        bool known = r.kind != PauseRoot::Kind::kHotSpot;
        for (const PauseRoot& o : roots) known = known || o.port == r.port;
        if (!known) roots.push_back(r);
      }
      for (const PauseRoot& root : roots) {
        std::vector<std::string> ports, hosts;
        std::set<std::string> seen{root.port->device};
        std::vector<std::string> frontier{root.port->device};  // devices that paused their peers
        while (!frontier.empty()) {
          const std::string dev = frontier.back();
          frontier.pop_back();
          // The ports facing `dev`, paused by it: a switch's passes the pause on; a host stops.
          for (const PortEvidence& p : ev_.ports) {
            if (PeerDevice(p) != dev || PauseUs(p, prio, false) < min_us) continue;
            if (!p.is_switch) {
              if (seen.insert(p.device).second) hosts.push_back(p.device);
              continue;
            }
            ports.push_back(p.device + ":" + p.port);
            if (seen.insert(p.device).second) frontier.push_back(p.device);
          }
        }
        if (ports.size() < 2 && hosts.empty()) continue;  // no spread beyond its own switch port
        std::string list;
        for (const std::string& x : ports) list += (list.empty() ? "" : ", ") + x;
        std::string hl;
        for (const std::string& h : hosts) hl += (hl.empty() ? "" : ", ") + h;
        const std::string to_hosts = std::to_string(hosts.size()) + (hosts.size() == 1 ? " host" : " hosts");
        const std::string spread = ports.empty()  ? to_hosts
                                   : hosts.empty() ? std::to_string(ports.size()) + " switch ports"
                                                   : std::to_string(ports.size()) + " switch ports to " + to_hosts;
        const std::string tree =
            "paused on priority " + std::to_string(prio) + ": " + (list.empty() ? "no switch port" : list) +
            (hl.empty() ? "" : "; hosts paused: " + hl) + "; the root: " + Describe(root);
        const char* tier = TierOf(root);
        if (root.kind == PauseRoot::Kind::kHotSpot) {
          const bool handled = std::string(tier) == "T1";
          Add("pfc.congestion_tree", "link", handled ? Severity::kInfo : Severity::kWarning,
              "congestion tree of a hot spot at " + root.port->device + ":" + root.port->port + ": its pause reached " + spread,
              Where(*root.port), tree,
              handled ? "congestion control is handling it (the queue marks ECN, CNPs flow): nothing to do unless it lasts"
                      : "the hot spot's queue does not mark ECN: DCQCN cannot slow its senders, PFC does; make it mark "
                        "before PFC fires (ECN on, Kmin below the XOFF point)",
              tier);
          continue;
        }
        Add("pfc.congestion_tree", "link", Severity::kError,
            std::string(root.kind == PauseRoot::Kind::kStorm ? "pause storm" : "slow receiver") + ": pause from " +
                root.port->device + " reached " + spread,
            Where(*root.port), tree,
            "the congestion tree of one host's pause: flows that never touch " + root.port->device +
                " stop with it; fix or isolate " + root.port->device + " (its pause-storm guard, the switch PFC watchdog)",
            tier);
      }
    }
  }

  // The most two ports' deltas can differ by when they were read at different moments: what a
  // link at line rate carries in the gaps between the two reads at the window's start and at
  // its end (the deltas scaled to the window as the monitor scaled them). 0 when both were
  // read at once.
  double PollSkewBytes(const PortEvidence& a, const PortEvidence& b) const {
    if (a.read_s < 0 || b.read_s < 0 || a.span_s <= 0 || b.span_s <= 0) return 0;
    const double gaps = std::abs(a.read_s - b.read_s) + std::abs((a.read_s - a.span_s) - (b.read_s - b.span_s));
    return std::max(a.speed_gbps, b.speed_gbps) * 1e9 / 8 * gaps * ev_.interval_s / std::min(a.span_s, b.span_s);
  }

  // Whether `lost` of `sent` frames is more than were on the wire when the counters were read: a
  // few on a quiet link at the end of a run, hundreds of small ones on a busy link at the end of a
  // short window (a 400G link of 200 m holds 50 KB: 600 minimum-size frames). Where both ends count
  // bytes too (`sent_bytes` >= 0), the lost frames must show as more lost bytes than such a link
  // holds (64 KB). `skew`: bytes the count may miss besides, what the link carried between the
  // two ends' reads.
  static bool Vanished(double lost, double sent, double lost_bytes, double sent_bytes, double skew) {
    const bool bytes = sent_bytes >= 0;
    if (lost <= (bytes ? 8 : 64 + skew / 64) || lost <= 5e-3 * sent) return false;
    return !bytes || (lost_bytes > 64 * 1024 + skew && lost_bytes > 5e-3 * sent_bytes);
  }

  // The two ends' poll ledgers (PortEvidence::link_polls), balanced over the range of polls that
  // proves the most frames lost; "" when none proves a loss. Over the sender's polls i < j, every
  // frame it sent in (t_i, t_j] has arrived by the receiver's first poll at or after t_j, unless it
  // vanished, and the receiver's count since its last poll at or before t_i holds them all and some
  // sent outside the range besides. So sent(i..j) - received(a..b) never exceeds what vanished,
  // however far apart the two ends are polled; what it misses (the frames of the gaps) stays one
  // poll's worth while the range grows, so a steady loss shows once the range holds several times
  // more than a poll. The newest poll of each end is left out: a link that goes dark loses frames
  // before its carrier's change is counted, and only a later poll with no down vouches for the range.
  static std::string LedgerLoss(const PortEvidence& from, const PortEvidence& to, bool bytes) {
    const std::vector<LinkPoll>& s = from.link_polls;
    const std::vector<LinkPoll>& r = to.link_polls;
    if (s.size() < 3 || r.size() < 3) return "";
    const size_t n = s.size() - 1, m = r.size() - 1;
    double best = 0, best_sent = 0, best_got = 0;
    size_t polls = 0;
    for (size_t i = 0; i < n; ++i) {
      size_t a = m;  // the receiver's last poll at or before t_i
      for (size_t k = 0; k < m && r[k].t_s <= s[i].t_s; ++k) a = k;
      if (a == m) continue;
      size_t b = a;  // its first poll at or after t_j
      for (size_t j = i + 1; j < n; ++j) {
        while (b < m && r[b].t_s < s[j].t_s) ++b;
        if (b == m) break;
        const double sent = s[j].sent_frames - s[i].sent_frames, got = r[b].got_frames - r[a].got_frames;
        const double sent_bytes = bytes ? s[j].sent_bytes - s[i].sent_bytes : -1;
        const double got_bytes = bytes ? r[b].got_bytes - r[a].got_bytes : 0;
        if (sent - got > best && Vanished(sent - got, sent, sent_bytes - got_bytes, sent_bytes, 0)) {
          best = sent - got;
          best_sent = sent;
          best_got = got;
          polls = j - i;
        }
      }
    }
    if (best <= 0) return "";
    const LinkTrafficCounters fc = LinkTrafficCountersOf(from.is_switch), tc = LinkTrafficCountersOf(to.is_switch);
    char share[32];
    std::snprintf(share, sizeof share, "%.1f %%", 100 * best / best_sent);
    return std::string(fc.sent_frames.name) + " +" + Count(best_sent) + " at " + from.device + " over " +
           std::to_string(polls) + " of its polls, " + tc.got_frames.name + " +" + Count(best_got) + " at " + to.device +
           " over its polls around them: at least " + Count(best) + " lost (" + share + ")";
  }

  // Frames that leave one end of a link and never arrive at the other, with no counter at
  // either end: a gray failure. Only evidence holding both ends (a simulation's summary, or
  // bundles from both devices) shows it; a link that went down loses its frames in flight, so
  // those are left out.
  void VanishingFrames() {
    std::map<std::string, const PortEvidence*> host_port;
    std::map<std::pair<std::string, std::string>, const PortEvidence*> switch_port;  // (device, peer)
    for (const PortEvidence& p : ev_.ports) {
      if (!p.is_switch) host_port[p.device] = &p;
      else if (!p.peer.empty()) switch_port[{p.device, p.peer}] = &p;
    }
    auto flapped = [&](const PortEvidence& p) { return D(p, kCarrierChanges.name) > 0 || D(p, kSonicFlapCount.name) > 0; };
    auto check = [&](const PortEvidence& from, const PortEvidence& to) {
      const LinkTrafficCounters fc = LinkTrafficCountersOf(from.is_switch), tc = LinkTrafficCountersOf(to.is_switch);
      if (!Has(from, fc.sent_frames.name) || !Has(to, tc.got_frames.name) || flapped(from) || flapped(to)) return;
      const bool bytes = Has(from, fc.sent_bytes.name) && Has(to, tc.got_bytes.name);
      std::string evidence;
      // The window's deltas, where the monitor has a reading of both ends. A monitor that reads the
      // two ends at different moments (each device's own poll: run/counter_db.h) also misses what
      // the link carried between the two reads.
      if (from.span_s >= 0 && to.span_s >= 0) {
        const double sent = D(from, fc.sent_frames.name), lost = sent - D(to, tc.got_frames.name);
        const double sent_bytes = bytes ? D(from, fc.sent_bytes.name) : -1;
        const double lost_bytes = bytes ? sent_bytes - D(to, tc.got_bytes.name) : 0;
        if (Vanished(lost, sent, lost_bytes, sent_bytes, PollSkewBytes(from, to)))
          evidence = std::string(fc.sent_frames.name) + " " + Count(sent) + " at " + from.device + ", " + tc.got_frames.name +
                     " " + Count(D(to, tc.got_frames.name)) + " at " + to.device + ": " + Count(lost) + " lost";
      }
      // Polled far apart, a window's allowance for that hides a loss its ledgers show.
      if (evidence.empty()) evidence = LedgerLoss(from, to, bytes);
      if (evidence.empty()) return;
      Add("network.gray_drop", "network", Severity::kError, "frames vanish on the link " + from.device + " -> " + to.device + " and no device counts them",
          Where(from), evidence, kGrayDropAction);
    };
    for (const auto& [key, p] : switch_port) {
      auto peer_switch = switch_port.find({key.second, key.first});
      auto peer_host = host_port.find(key.second);
      if (peer_switch != switch_port.end()) {
        check(*p, *peer_switch->second);
      } else if (peer_host != host_port.end()) {
        check(*p, *peer_host->second);
        check(*peer_host->second, *p);
      }
    }
  }

  // Probes lost on their way (run/pingmesh.h), placed by tomography over the probing agents'
  // paths: the link that the most unexplained lost probes crossed (either way) is named when
  // probes through it were lost far more often than probes that avoided it; the probes it
  // explains are set aside and the search goes on (a second bad link is a second finding).
  // Each path is what a monitor works out from the probe's 5-tuple, the routes and the
  // documented ECMP hash. Links that the same probes cross cannot be told apart: the finding
  // says so.
  void ProbeTomography() {
    struct Tally {
      double judged = 0, lost = 0, open = 0;
      std::map<std::string, double> lost_sent_by;  // sending port -> lost probes that crossed it
    };
    std::map<std::string, Tally> links;  // "a|b", its two ports in name order
    // A hop "leaf0:Ethernet28>spine1:Ethernet0" -> its link, and its sending port.
    auto link_of = [](const std::string& hop) {
      const size_t gt = hop.find('>');
      const std::string a = hop.substr(0, gt), b = gt == std::string::npos ? "" : hop.substr(gt + 1);
      return std::make_pair(a < b ? a + "|" + b : b + "|" + a, a);
    };
    auto links_of = [&](const ProbePath& p) {
      std::vector<std::string> out;
      for (const std::string& h : p.hops) {
        std::string l = link_of(h).first;
        if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(std::move(l));
      }
      return out;
    };
    double judged = 0, lost = 0;
    std::vector<std::pair<const ProbePath*, std::vector<std::string>>> open;
    for (const ProbePath& p : ev_.probes) {
      if (p.hops.empty()) continue;  // no route: nothing to place it on
      judged += p.judged;
      lost += p.lost;
      std::vector<std::string> ls = links_of(p);
      for (const std::string& l : ls) {
        links[l].judged += p.judged;
        links[l].lost += p.lost;
      }
      for (const std::string& h : p.hops) links[link_of(h).first].lost_sent_by[link_of(h).second] += p.lost;
      if (p.lost > 0) open.push_back({&p, std::move(ls)});
    }
    if (lost < kMinLostProbes) return;
    std::map<std::string, const PortEvidence*> port_of;  // "device:port"
    for (const PortEvidence& p : ev_.ports) port_of[p.device + ":" + p.port] = &p;
    for (int found = 0; found < 4 && !open.empty(); ++found) {
      for (auto& [l, t] : links) t.open = 0;
      for (const auto& [p, ls] : open)
        for (const std::string& l : ls) links[l].open += p->lost;
      // The most unexplained loss, then the highest loss rate, then the name.
      const std::string* best = nullptr;
      const Tally* bt = nullptr;
      for (const auto& [l, t] : links) {
        if (t.open <= 0) continue;
        if (bt && (t.open < bt->open || (t.open == bt->open && t.lost * bt->judged <= bt->lost * t.judged))) continue;
        best = &l;
        bt = &t;
      }
      if (!best || bt->open < kMinLostProbes) return;
      const double rate = bt->lost / bt->judged;
      const double rest_judged = judged - bt->judged, rest = rest_judged > 0 ? (lost - bt->lost) / rest_judged : 0;
      if (rate < 4 * rest) return;
      // Links the same probes cross cannot be told apart: in a fabric of two leaves every probe
      // through a spine crosses one link of each leaf. Then the device they share is named,
      // which no link action fits, or, if none, the first by name with the others said.
      std::string twins;
      std::set<std::string> shared = {Device(Port(*best, 0)), Device(Port(*best, 1))};
      for (const auto& [l, t] : links) {
        if (&l == best || t.judged != bt->judged || t.lost != bt->lost || t.open != bt->open) continue;
        twins += (twins.empty() ? "" : ", ") + Dashed(l);
        std::set<std::string> both;
        for (const std::string& d : {Device(Port(l, 0)), Device(Port(l, 1))})
          if (shared.count(d)) both.insert(d);
        shared.swap(both);
      }
      // Where: a host's port when the link is a host's; else the end that sent more of the lost.
      const PortEvidence* host = nullptr;
      std::string sender;
      double most = -1;
      for (const auto& [port, n] : bt->lost_sent_by) {
        auto it = port_of.find(port);
        if (it != port_of.end() && !it->second->is_switch) host = it->second;
        if (n > most) {
          most = n;
          sender = port;
        }
      }
      auto it = port_of.find(sender);
      const PortEvidence* at = host ? host : it == port_of.end() ? nullptr : it->second;
      std::string where = at ? Where(*at) : sender;
      std::string title, action;
      if (!twins.empty() && shared.size() == 1) {
        where = *shared.begin();
        title = "probes are lost at " + where + ", on one of its links " + Dashed(*best) + ", " + twins +
                " (the probes' paths cannot tell which)";
        action = "probe " + where + "'s links one by one (a traceroute-style probe that stops at it, or its own "
                 "counters) before taking one out of service";
        twins.clear();
      } else if (host) {
        title = "probes to and from " + host->device + " are lost: the host or its link";
        bool rack = false;
        for (const auto& [p, ls] : open) rack |= p->same_rack && (p->src == host->device || p->dst == host->device);
        if (rack) title += " (within its rack too: not the fabric beyond its ToR)";
        action = "check the host's NIC and its cable (ethtool -S, the ToR port's counters); the fabric is not the cause";
      } else {
        title = "probes are lost on the link " + Dashed(*best) + " (tomography over the probes' paths)";
        action = "a gray failure the counters may not show: take the link out of service so ECMP routes around it, "
                 "then test it";
      }
      size_t paths = 0;
      for (const auto& [p, ls] : open) paths += std::find(ls.begin(), ls.end(), *best) != ls.end();
      Add("network.probe_loss", "network", Severity::kError, title, where,
          Count(bt->lost) + " of " + Count(bt->judged) + " probes across it lost (" + Fmt("%.2g", 100 * rate) + " %), " +
              Count(lost - bt->lost) + " of " + Count(rest_judged) + " elsewhere (" + Fmt("%.2g", 100 * rest) + " %); " +
              std::to_string(paths) + " lossy paths cross it" +
              (twins.empty() ? "" : "; the same probes cross " + twins + ": the probes cannot tell them apart"),
          action);
      std::vector<std::pair<const ProbePath*, std::vector<std::string>>> still;
      for (auto& o : open)
        if (std::find(o.second.begin(), o.second.end(), *best) == o.second.end()) still.push_back(std::move(o));
      open.swap(still);
    }
  }
  // A link "leaf0:Ethernet28|spine1:Ethernet0": its end `i`, the device of a port, its name
  // "leaf0-spine1".
  static std::string Port(const std::string& link, int i) {
    const size_t bar = link.find('|');
    return i == 0 ? link.substr(0, bar) : link.substr(bar + 1);
  }
  static std::string Device(const std::string& port) { return port.substr(0, port.find(':')); }
  static std::string Dashed(const std::string& link) { return Device(Port(link, 0)) + "-" + Device(Port(link, 1)); }
  // Fewer lost probes than this is no pattern (a frame in flight when a link went down).
  static constexpr double kMinLostProbes = 2;

  void Link(const PortEvidence& p) {
    if (p.is_switch) {
      for (int prio = 0; prio < 8; ++prio) {
        const std::string k = kSaiPortPfcRxPauseDurationUs.Name(prio);
        PauseShare(p, prio, D(p, k) * 1e-6, k);
        // Frame counts alone (pfcstat / show pfc counters): say which way the pause goes.
        if (Has(p, k)) continue;
        const double rx = D(p, kSaiPortPfcRxPkts.Name(prio)), tx = D(p, kSaiPortPfcTxPkts.Name(prio));
        if (rx > 0)
          Add("pfc.pause_received", "link", Severity::kWarning, "receives pause on priority " + std::to_string(prio), Where(p),
              Grew(kSaiPortPfcRxPkts.Name(prio), rx) + Rate(rx),
              "the device at the other end of " + p.port + " asserts pause: follow it downstream (its Tx pause counters) "
              "to a slow receiver, a pause storm or a congested hot spot");
        if (tx > 0)
          Add("pfc.pause_sent", "link", Severity::kWarning, "sends pause on priority " + std::to_string(prio), Where(p),
              Grew(kSaiPortPfcTxPkts.Name(prio), tx) + Rate(tx),
              "this switch runs out of buffer for traffic arriving on " + p.port + ": look at the egress queues that "
              "traffic feeds (show queue counters) and whether they mark ECN before PFC fires");
      }
      return;
    }
    // mlx5 lists rx_prioN_pause* only for priorities with PFC on; none at all means PFC is off.
    bool any_pfc_counter = false;
    for (int prio = 0; prio < 8; ++prio) any_pfc_counter |= Has(p, kRxPrioPause.Name(prio));
    const bool ethtool_seen = Has(p, kRxPrioBytes.Name(0)) || Has(p, kRxPacketsPhy.name);
    if (p.pfc_enabled) {
      bool any = false;
      for (bool b : *p.pfc_enabled) any |= b;
      std::string map;
      if (p.dscp_to_priority) map = "; DSCP 26 -> priority " + std::to_string((*p.dscp_to_priority)[kRoceDscp]);
      if (!p.trust.empty()) map += "; trust " + p.trust;
      if (!any)
        Add("pfc.off_on_nic", "link", Severity::kError, "PFC is off on every priority: RoCE traffic on this NIC is lossy", Where(p),
            "PFC configuration: enabled 0 0 0 0 0 0 0 0" + map,
            "enable PFC on the RoCE priority (mlnx_qos -i IF --pfc 0,0,0,1,0,0,0,0)");
    } else if (ethtool_seen && !any_pfc_counter) {
      Add("pfc.off_on_nic", "link", Severity::kWarning, "PFC is off on every priority: RoCE traffic on this NIC is lossy", Where(p),
          "ethtool -S has no " + kRxPrioPause.Pattern("N") + " counters (mlx5 shows them only for priorities with PFC enabled)",
          "enable PFC on the RoCE priority (mlnx_qos -i IF --pfc 0,0,0,1,0,0,0,0) and trust DSCP");
    }
    for (int prio = 0; prio < 8; ++prio) {
      const std::string rx_duration = kRxPrioPauseDuration.Name(prio), tx_duration = kTxPrioPauseDuration.Name(prio);
      const std::string tx_pause = kTxPrioPause.Name(prio);
      PauseShare(p, prio, D(p, rx_duration) * 1e-6, rx_duration);
      const double tx_share = ev_.interval_s > 0 ? D(p, tx_duration) * 1e-6 / ev_.interval_s : 0;
      if (tx_share > 0.5) {
        // Storm or slow receiver: a NIC that pauses continuously drains nothing (SONiC's storm
        // test: paused more than 99 % of the poll); one that drains pauses in bursts.
        const double discards = D(p, kRxDiscardsPhy.name) + D(p, kRxOutOfBuffer.name);
        const bool storm = Storming(p, prio, tx_share);
        const std::string evidence =
            tx_duration + " " + Count(D(p, tx_duration)) + " us over " + Fmt("%.3f", ev_.interval_s) + " s; " +
            Grew(tx_pause, D(p, tx_pause)) + "; " + Grew(kRxPrioPackets.Name(prio), D(p, kRxPrioPackets.Name(prio))) +
            (discards > 0 ? "; " + std::string(kRxDiscardsPhy.name) + "/" + kRxOutOfBuffer.name + " +" + Count(discards)
                          : "; no receive discards");
        if (storm)
          Add("pfc.pause_storm", "link", Severity::kError,
              "pause storm: this NIC pauses its switch " + Fmt("%.0f", tx_share * 100) + " % of the time on priority " +
                  std::to_string(prio) + " and drains nothing",
              Where(p), evidence, kStormAction);
        else
          Add("pfc.slow_receiver", "link", tx_share > 0.9 ? Severity::kError : Severity::kWarning,
              "this NIC pauses its switch " + Fmt("%.0f", tx_share * 100) + " % of the time on priority " + std::to_string(prio) +
                  ": the host drains its receive buffer, but slower than the link fills it (slow receiver)",
              Where(p), evidence, kSlowReceiverAction);
      }
    }
    for (const Counter* storm : {&kTxPauseStormErrorEvents, &kTxPauseStormWarningEvents})
      if (D(p, storm->name) > 0)
        Add("pfc.nic_storm_guard", "link", storm == &kTxPauseStormErrorEvents ? Severity::kError : Severity::kWarning,
            "the NIC's pause-storm guard fired: it kept sending pause for too long", Where(p), Grew(storm->name, D(p, storm->name)),
            "the host stopped draining (driver hang, PCIe stall); the NIC stops pausing after pfc-prevention-tout, so drops follow");
  }

  void PauseShare(const PortEvidence& p, int prio, double seconds, const std::string& counter) {
    if (ev_.interval_s <= 0 || seconds <= 0) return;
    const double share = seconds / ev_.interval_s;
    if (share <= 0.5) return;
    const PauseRoot root = TracePause(p, prio);
    const char* tier = TierOf(root);
    const bool handled = std::string(tier) == "T1";
    // What the pause is, and what to do, by where it comes from (a hot spot: handled, or not).
    struct Says {
      const char* what;
      const char* action;
    };
    static const Says kUnknown = {"", "follow the pause upstream to the device that asserts it (its tx pause counters "
                                      "grow): a slow receiver, a congested hot spot, or a PFC deadlock; the PFC watchdog "
                                      "breaks storms"};
    static const Says kHandled = {": congestion that congestion control is handling",
                                  "nothing to do while the hot spot's queue marks ECN and its senders slow down on the "
                                  "CNPs; if it lasts, spread the load (placement, ECMP) or lower the fan-in"};
    static const Says kBlind = {": congestion that ECN does not signal",
                                "make the hot spot's queue mark before PFC fires: ECN on, Kmin below the XOFF point "
                                "(rocelab plan ecn); without marks DCQCN cannot slow the senders and PFC does its work"};
    static const Says kStorm = {": a pause storm", "isolate the storming NIC's pause: its pause-storm guard (mlx5 "
                                                   "pfc-prevention-tout) or the switch PFC watchdog on the port facing "
                                                   "it; then fix the host (driver hang, PCIe stall)"};
    static const Says kSlow = {": a slow receiver", "the host drains below line rate (PCIe, memory, CPU): fix it; meanwhile "
                                                    "ECN on the queue feeding it, marking early, holds its senders to what "
                                                    "it drains so the pause stays off the fabric"};
    static const Says kCycle = {": held in a deadlock's cycle", "break the cycle (drain one of its queues; the PFC watchdog "
                                                                "with action drop does this) and remove the routes that "
                                                                "make lossless traffic turn back"};
    const Says& says = root.kind == PauseRoot::Kind::kHotSpot       ? (handled ? kHandled : kBlind)
                       : root.kind == PauseRoot::Kind::kStorm        ? kStorm
                       : root.kind == PauseRoot::Kind::kSlowReceiver ? kSlow
                       : root.kind == PauseRoot::Kind::kDeadlock     ? kCycle
                                                                      : kUnknown;
    std::string title = "priority " + std::to_string(prio) + " was paused " + Fmt("%.0f", share * 100) +
                        " % of the time by the peer" + says.what;
    if (root.kind == PauseRoot::Kind::kUnknown) title = std::string(share > 0.9 ? "pause storm: " : "heavy pausing: ") + title;
    const std::string action = says.action;
    const std::string from = Describe(root);
    Add("pfc.paused_share", "link", handled ? Severity::kInfo : share > 0.9 ? Severity::kError : Severity::kWarning, title,
        Where(p), counter + " " + Count(seconds * 1e6) + " us over " + Fmt("%.3f", ev_.interval_s) + " s" +
                      (from.empty() ? "" : "; the pause comes from " + from),
        action, tier);
  }

  // --- pause, followed to its root -------------------------------------------------------------

  // Where a port's pause on a priority comes from: the peer that pauses it is followed
  // downstream, device by device, to the port that asserts pause without being paused itself.
  // A host there either pauses continuously (more than kStormShare of the interval, SONiC's
  // storm test) and drains nothing (kDrainedNothing): a storm; or drains and pauses: a slow
  // receiver. A
  // switch there is a hot spot: a congested egress (the queue that marks most, else carries
  // most) with fan-in (the ports it pauses). Coming back to a device already passed, each hop
  // paused more than kDeadlockShare, is a deadlock.
  struct PauseRoot {
    enum class Kind { kUnknown, kHotSpot, kStorm, kSlowReceiver, kDeadlock } kind = Kind::kUnknown;
    int prio = 0;
    const PortEvidence* port = nullptr;  // the host's port, or the hot spot's congested egress port
    double share = 0;                    // how much of the interval the root pauses (host) or is paused (hot spot egress)
    int fan_in = 0;                      // hot spot: the ports its switch pauses
    double marks = 0, carried = 0;       // hot spot: ECN marks and packets of its egress queue
    double cnps = 0;                     // CNPs the hosts sent (np_cnp_sent)
    bool host_evidence = false;          // whether the evidence has any host's counters
    std::string loop;                    // deadlock: the devices, in order
  };
  // A device paused more than this is not the root: the pause is followed through it.
  static constexpr double kFollowShare = 0.1;
  static constexpr double kStormShare = 0.99;
  // Each hop of a cycle paused more than this: a deadlock (pfc.deadlock, and pause traced into it).
  static constexpr double kDeadlockShare = 0.8;
  // A NIC that drains nothing keeps only what was on the wire when it paused: a few frames.
  static constexpr double kDrainedNothing = 64;
  // A NIC that pauses `share` of the interval on `prio`: a storm, or (false) a slow receiver. What
  // it took in and did not discard is what its host drained (and buffered).
  static bool Storming(const PortEvidence& nic, int prio, double share) {
    return share >= kStormShare &&
           D(nic, kRxPrioPackets.Name(prio)) - D(nic, kRxPrioDiscards.Name(prio)) <= kDrainedNothing;
  }

  // Whether a port's queue and PG counters were polled over the span of its port counters, or
  // that span and more (a monitor at production polls reads queues every 10 s, ports every 1 s):
  // only then does a port counter that moved have its queue-side counterpart in hand. Read
  // together (the same poll, or a summary's one interval), they always are.
  static bool QueuesCoverPortSpan(const PortEvidence& p) {
    if (p.queue_span_s == p.span_s && p.queue_read_s == p.read_s) return true;
    return p.span_s > 0 && p.queue_span_s > 0 && p.read_s <= p.queue_read_s &&
           p.read_s - p.span_s >= p.queue_read_s - p.queue_span_s;
  }

  double PauseUs(const PortEvidence& p, int prio, bool sent) const {
    if (p.is_switch) return D(p, (sent ? kSaiPortPfcTxPauseDurationUs : kSaiPortPfcRxPauseDurationUs).Name(prio));
    return D(p, (sent ? kTxPrioPauseDuration : kRxPrioPauseDuration).Name(prio));
  }
  double Share(double us) const { return ev_.interval_s > 0 ? us * 1e-6 / ev_.interval_s : 0; }
  const std::vector<const PortEvidence*>& PortsOf(const std::string& device) const {
    static const std::vector<const PortEvidence*> kNone;
    auto it = by_device_.find(device);
    return it == by_device_.end() ? kNone : it->second;
  }

  // The device at the other end of `p`'s link: as the port says, or for a host (whose summary
  // names no peer), the switch whose port faces it.
  std::string PeerDevice(const PortEvidence& p) const {
    if (!p.peer.empty() || p.is_switch) return p.peer;
    auto it = switch_facing_.find(p.device);
    return it == switch_facing_.end() ? "" : it->second;
  }

  PauseRoot TracePause(const PortEvidence& paused, int prio) const {
    PauseRoot r;
    r.prio = prio;
    for (const PortEvidence& p : ev_.ports)
      if (!p.is_switch) {
        r.host_evidence = true;
        r.cnps += D(p, kNpCnpSent.name);
      }
    std::vector<std::string> path{paused.device};
    std::vector<double> shares{Share(PauseUs(paused, prio, false))};
    const PortEvidence* cur = &paused;
    while (!PeerDevice(*cur).empty()) {
      const std::string dev = PeerDevice(*cur);
      const auto& ports = PortsOf(dev);
      if (ports.empty()) return r;  // the evidence stops here
      auto again = std::find(path.begin(), path.end(), dev);
      if (again != path.end()) {
        const size_t from = static_cast<size_t>(again - path.begin());
        bool stuck = true;
        for (size_t k = from; k < shares.size(); ++k) stuck = stuck && shares[k] > kDeadlockShare;
        if (stuck) {
          r.kind = PauseRoot::Kind::kDeadlock;
          for (size_t k = from; k < path.size(); ++k) r.loop += path[k] + " -> ";
          r.loop += dev;
          return r;
        }
        break;  // a loop of light pausing: the hot spot is where it closed
      }
      if (!ports.front()->is_switch) {
        r.port = ports.front();
        r.share = Share(PauseUs(*r.port, prio, true));
        if (!Has(*r.port, kTxPrioPauseDuration.Name(prio))) r.share = shares.back();  // as its switch saw it
        r.kind = Storming(*r.port, prio, r.share) ? PauseRoot::Kind::kStorm : PauseRoot::Kind::kSlowReceiver;
        return r;
      }
      path.push_back(dev);
      const PortEvidence* most = nullptr;
      for (const PortEvidence* q : ports)
        if (!most || PauseUs(*q, prio, false) > PauseUs(*most, prio, false)) most = q;
      if (Share(PauseUs(*most, prio, false)) <= kFollowShare) break;
      shares.push_back(Share(PauseUs(*most, prio, false)));
      cur = most;
    }
    const std::string root = PeerDevice(*cur);
    if (root.empty() || PortsOf(root).empty() || !PortsOf(root).front()->is_switch) return r;
    // A switch that is not paused itself: its congested egress.
    r.kind = PauseRoot::Kind::kHotSpot;
    const std::string q = QueueName(prio);
    auto count = [&](const PortEvidence& p, const char* k) {
      auto it = p.queues.find(q);
      return it == p.queues.end() ? 0.0 : At(it->second, k);
    };
    for (const PortEvidence* p : PortsOf(root)) {
      if (Share(PauseUs(*p, prio, true)) >= 0.01) ++r.fan_in;
      const double m = count(*p, kSaiQueueWredEcnMarkedPackets.name), n = count(*p, kSaiQueuePackets.name);
      if (!r.port || m > r.marks || (m == r.marks && n > r.carried)) {
        r.port = p;
        r.marks = m;
        r.carried = n;
      }
    }
    r.share = Share(PauseUs(*r.port, prio, false));
    return r;
  }

  // T1 only for a hot spot congestion control is handling: its queue drains and marks ECN, and
  // CNPs flow (or no host's counters say whether they do).
  static const char* TierOf(const PauseRoot& r) {
    switch (r.kind) {
      case PauseRoot::Kind::kHotSpot: return r.marks > 0 && r.carried > 0 && (r.cnps > 0 || !r.host_evidence) ? "T1" : "T2";
      case PauseRoot::Kind::kDeadlock: return "T3";
      default: return "T2";
    }
  }

  std::string Describe(const PauseRoot& r) const {
    switch (r.kind) {
      case PauseRoot::Kind::kHotSpot:
        return "a hot spot, " + Where(*r.port) + " " + QueueName(r.prio) + " (fan-in: " + r.port->device + " pauses " +
               std::to_string(r.fan_in) + " ports; the queue sent " + Count(r.carried) + " packets, " + Count(r.marks) +
               " ECN-marked" + (r.host_evidence ? "; the hosts sent " + Count(r.cnps) + " CNPs" : "") + ")";
      case PauseRoot::Kind::kStorm:
        return "a pause storm at " + Where(*r.port) + ": it pauses " + Fmt("%.0f", r.share * 100) +
               " % of the time and drains nothing";
      case PauseRoot::Kind::kSlowReceiver:
        return "a slow receiver, " + Where(*r.port) + ": it drains, and pauses " + Fmt("%.0f", r.share * 100) + " % of the time";
      case PauseRoot::Kind::kDeadlock: return "a PFC deadlock, " + r.loop;
      case PauseRoot::Kind::kUnknown: return "";
    }
    return "";
  }
  // The port at the other end of `p`'s link, when the evidence has it.
  const PortEvidence* PeerOf(const PortEvidence& p) const {
    for (const PortEvidence& o : ev_.ports)
      if (o.device == p.peer && (!o.is_switch || o.peer == p.device)) return &o;
    return nullptr;
  }

  void Network(const PortEvidence& p) {
    if (p.is_switch) {
      for (const auto& [pg, c] : p.pgs) {
        const double dropped = At(c, kSaiPgDroppedPackets.name);
        if (dropped <= 0) continue;
        // More headroom helps only if the sender stops: not when the peer ignores pause.
        const int prio = pg.size() > 2 ? std::atoi(pg.c_str() + 2) : -1;
        const PortEvidence* peer = PeerOf(p);
        const bool peer_ignores = peer && peer->pfc_enabled && prio >= 0 && prio < 8 && !(*peer->pfc_enabled)[prio];
        // A shared headroom pool refuses a frame once it holds all but less than that frame: it
        // filled, whatever room the PG's own headroom had left.
        const bool pool_full = p.headroom_pool_bytes > 0 && p.headroom_pool_watermark_bytes + kJumboFrameCells >= p.headroom_pool_bytes;
        Add("drop.lossless_pg_headroom", "network", Severity::kError,
            pool_full && !peer_ignores ? "drops in the lossless class: shared headroom pool full" : "drops in the lossless class: PG headroom overflow",
            Where(p) + " " + pg,
            Grew(kSaiPgDroppedPackets.name, dropped) + ", headroom watermark " +
                Count(At(c, kSaiPgXoffRoomWatermarkBytes.name)) + " B" +
                (pool_full ? "; the switch's shared headroom pool reached " + Count(p.headroom_pool_watermark_bytes) + " B of its " +
                                 Count(p.headroom_pool_bytes) + " B"
                           : "") +
                (peer_ignores ? "; " + p.peer + " has PFC off for priority " + std::to_string(prio) : ""),
            peer_ignores ? "the peer " + p.peer + " does not honour pause on priority " + std::to_string(prio) +
                               ", so no headroom is enough: enable PFC for priority " + std::to_string(prio) + " there"
            : pool_full  ? "more of " + p.device + "'s lossless PGs were in headroom at once than its shared headroom pool holds: "
                           "lower the over-subscribe ratio (switch.pfc.over_subscribe_ratio; SONiC `config buffer "
                           "shared-headroom-pool over-subscribe-ratio N`), down to 1, which pools every PG's headroom whole"
                         : "the headroom does not cover this link's cable length and response time: raise it (rocelab "
                           "plan headroom --cable ...) or shorten the cable");
      }
      double in_disc = D(p, kSaiPortIfInDiscards.name);
      double pg_drops = 0;
      for (const auto& [pg, c] : p.pgs) pg_drops += At(c, kSaiPgDroppedPackets.name);
      bool comparable = true;
      if (p.queue_span_s != p.span_s && in_disc > 0) {
        // The port's discards and its priority groups' drops polled apart (a monitor at production
        // polls): a burst of headroom drops is in the port's counters a poll before the priority
        // groups show it. Counted, not scaled, and only over a port span that lies within the
        // groups' span: discards beyond every drop the groups saw over it are not for buffer.
        comparable = QueuesCoverPortSpan(p);
        if (comparable) {
          in_disc *= p.span_s / ev_.interval_s;
          pg_drops *= p.queue_span_s / ev_.interval_s;
        }
      }
      if (comparable && in_disc - pg_drops > 0)
        Add("drop.ingress_discard", "network", Severity::kError, "frames discarded at ingress (not for buffer): MTU too small, no route, or a routing loop",
            Where(p), Grew(kSaiPortIfInDiscards.name, in_disc - pg_drops) + " beyond PG drops",
            "compare this switch's port MTU with the RoCE frame size (MTU + 78 B) and check its routes");
      for (const auto& [q, c] : p.queues) {
        const double dp = At(c, kSaiQueueDroppedPackets.name);
        const double pk = At(c, kSaiQueuePackets.name);
        if (dp <= 0 || q.size() < 3 || q.compare(0, 2, "UC") != 0) continue;
        const int queue = std::atoi(q.c_str() + 2);
        if (queue < 0 || queue > 7) continue;  // UC0..UC7; a summary.json may say anything
        const bool lossless = p.pfc_enabled ? (*p.pfc_enabled)[queue] : (queue == 3 || queue == 4);
        if (lossless) {
          Add("drop.lossless_queue", "network", Severity::kError, "drops in a lossless queue", Where(p) + " " + q,
              Grew(kSaiQueueDroppedPackets.name, dp), "PFC is not protecting this queue: check PFC is enabled on the priority end to end");
        } else if (p.dscp_to_priority ? (*p.dscp_to_priority)[kCnpDscp] == queue : queue == 6) {  // CNPs: DSCP 48, queue 6
          Add("drop.cnp_queue", "network", Severity::kWarning, "CNPs dropped in " + q + ": " + Count(dp) + " of " + Count(pk + dp),
              Where(p) + " " + q, std::string(kSaiQueueDroppedPackets.name) + " " + Count(dp) + " in the CNP queue (DSCP 48)",
              "a dropped CNP leaves its sender at full rate: give the CNP queue strict priority and reserved buffer "
              "(SONiC: scheduler type STRICT for this queue)");
        } else {
          Add("drop.lossy_queue", "network", Severity::kWarning,
              "drops in lossy queue " + q + ": " + Count(dp) + " of " + Count(pk + dp) + " packets (" +
                  Fmt("%.1f", 100.0 * dp / (pk + dp)) + " %)",
              Where(p) + " " + q,
              std::string(kSaiQueueDroppedPackets.name) + " " + Count(dp) + ", " + kSaiQueuePackets.name + " " + Count(pk) +
                  (p.pfc_enabled ? "" : " (SONiC's lossless queues are 3 and 4)"),
              "if RoCE traffic lands in this queue, its DSCP is mapped to a lossy class (SONiC's default map sends DSCP 26 "
              "to TC 1): map the RoCE DSCP to the lossless TC on every hop; otherwise size this class's buffer");
        }
      }
      return;
    }
    double lossless_discards = 0;
    for (int prio = 0; prio < 8; ++prio) {
      const std::string k = kRxPrioDiscards.Name(prio);
      if (D(p, k) > 0 && Lossless(p, prio)) {
        lossless_discards += D(p, k);
        Add("drop.lossless_nic", "network", Severity::kError, "drops in the lossless class at the NIC (receive buffer full)", Where(p),
            k + " +" + Count(D(p, k)), "the NIC's PFC did not stop the sender in time: check its headroom and pause response");
      }
    }
    // The port's own discards beyond the lossless ones (mlx5: received packets dropped for lack of
    // buffer on the physical port): the host does not take in what arrives. A NIC that pauses
    // most of the time has its storm or slow-receiver finding, which quotes them.
    const double port_discards = D(p, kRxDiscardsPhy.name) - lossless_discards;
    bool pausing = false;
    for (int prio = 0; prio < 8; ++prio)
      pausing |= ev_.interval_s > 0 && D(p, kTxPrioPauseDuration.Name(prio)) * 1e-6 / ev_.interval_s > 0.5;
    if (port_discards > 0 && !pausing)
      Add("drop.nic_discards", "network", Severity::kWarning, "the NIC drops received frames for lack of buffer", Where(p),
          Grew(kRxDiscardsPhy.name, D(p, kRxDiscardsPhy.name)) + Rate(D(p, kRxDiscardsPhy.name)) +
              (lossless_discards > 0 ? " (" + Count(lossless_discards) + " of them in the lossless class)" : ""),
          "the host cannot take in what arrives (a busy receive path, PCIe, the NIC's buffer): on the RoCE priority PFC "
          "should pause the sender first (mlnx_qos: --pfc on its priority, --trust dscp); a lossy priority loses them");
    const double marked = D(p, kNpEcnMarkedRocePackets.name), cnp = D(p, kNpCnpSent.name);
    const auto cc = p.cc_params.find("congestion_control");
    if (cc != p.cc_params.end() && cc->second == "none") {
      // Congestion control switched off on purpose is a setting, not a fault: say what it means.
      if (marked > 0)
        Add("cc.off", "transport", Severity::kInfo, "congestion control is off on this NIC: CE marks get no CNPs, PFC alone paces its senders",
            Where(p), "congestion_control none; " + Grew(kNpEcnMarkedRocePackets.name, marked) + ", " + kNpCnpSent.name + " +0",
            "if the fabric is meant to run DCQCN, enable it (nic.cc: dcqcn; on a host: roce_np and roce_rp enable for the "
            "RoCE priority)");
    } else if (marked > 8 && cnp == 0 && (cc == p.cc_params.end() || cc->second == "dcqcn")) {
      // (Only DCQCN sends CNPs: DCTCP's receiver echoes the marks on its ACKs, TIMELY reads RTTs.)
      // A handful of marks may all fall within one CNP interval after the last CNP (mlx5 spaces
      // them 2 us: 6 packets of 4 KB at 100G); a notification point that is off leaves many.
      Add("cc.ecn_without_cnp", "network", Severity::kError, "ECN-marked RoCE packets arrive but no CNPs are sent", Where(p),
          Grew(kNpEcnMarkedRocePackets.name, marked) + ", " + kNpCnpSent.name + " +0",
          "enable the DCQCN notification point for the RoCE priority (/sys/class/net/IF/ecn/roce_np/enable/3)");
    }
    // A few CNPs that arrive after their QP finished are ignored too; a reaction point that is
    // off ignores more than it handles.
    if (D(p, kRpCnpIgnored.name) > 0 && At(p.counters, kRpCnpIgnored.name) > At(p.counters, kRpCnpHandled.name))
      Add("cc.cnp_ignored", "network", Severity::kWarning, "CNPs arrive but the reaction point ignores them", Where(p),
          Grew(kRpCnpIgnored.name, D(p, kRpCnpIgnored.name)) + ", " + Grew(kRpCnpHandled.name, D(p, kRpCnpHandled.name)),
          "enable the DCQCN reaction point for the RoCE priority (/sys/class/net/IF/ecn/roce_rp/enable/3)");
  }

  void Transport(const PortEvidence& p) {
    if (p.is_switch) return;
    const double ooo = D(p, kOutOfSequence.name), seq = D(p, kPacketSeqErr.name);
    if (ooo > 0 || seq > 0)
      Add("transport.sequence_errors", "transport", Severity::kWarning, "packet loss on the RoCE path: go-back-N retransmissions", Where(p),
          Grew(kOutOfSequence.name, ooo) + Rate(ooo) + ", " + Grew(kPacketSeqErr.name, seq) + Rate(seq),
          "find the drop point: CRC errors on a link, drops in a queue, or RoCE in a lossy class; in a lossless fabric "
          "these counters stay at zero");
    if (D(p, kLocalAckTimeoutErr.name) > 0)
      Add("transport.ack_timeouts", "transport", Severity::kWarning, "ACK timeouts: tail loss or a stalled path", Where(p),
          Grew(kLocalAckTimeoutErr.name, D(p, kLocalAckTimeoutErr.name)),
          "a lost last packet or NAK costs a full timeout (4.096 us x 2^timeout): fix the loss; a stalled path "
          "(pause storm, deadlock) shows as timeouts without NAKs");
    if (D(p, kRnrNakRetryErr.name) > 0)
      Add("transport.rnr", "transport", Severity::kWarning, "receiver not ready: receives not posted in time", Where(p),
          Grew(kRnrNakRetryErr.name, D(p, kRnrNakRetryErr.name)), "the application must post receive buffers ahead of SENDs");
    if (D(p, kReqTransportRetriesExceeded.name) > 0)
      Add("transport.retries_exceeded", "transport", Severity::kError, "queue pairs failed: retries exhausted", Where(p),
          Grew(kReqTransportRetriesExceeded.name, D(p, kReqTransportRetriesExceeded.name)),
          "the path lost packets or stalled longer than retry_count x timeout: fix the loss or stall first");
  }

  void SwitchWide() {
    // PFC that fires on a switch whose lossless queues never mark ECN: ECN is off there, or Kmin
    // sits above the XOFF point. In a monitor's window, a port that held its peer paused for less
    // than 1 % of it only let go of a pause (its XON frames count as PFC frames too): a window
    // that begins as congestion ends sees those and no marks, and says nothing of ECN. Nor does a
    // pause its queue counters were not polled over: the marks of that congestion are not read yet.
    std::map<std::string, std::pair<double, double>> per_switch;  // pauses sent, ECN marks
    bool any_marks = false;
    const double min_held_us = 0.01 * ev_.interval_s * 1e6;
    for (const PortEvidence& p : ev_.ports) {
      if (!p.is_switch) continue;
      auto& [pauses, marks] = per_switch[p.device];
      for (int prio = 0; prio < 8; ++prio)
        if (!ev_.windowed || (PauseUs(p, prio, true) >= min_held_us && QueuesCoverPortSpan(p)))
          pauses += D(p, kSaiPortPfcTxPkts.Name(prio));
      for (const auto& [q, c] : p.queues) marks += At(c, kSaiQueueWredEcnMarkedPackets.name);
      any_marks |= marks > 0;
    }
    for (const auto& [sw, pm] : per_switch) {
      const PortEvidence* cfg = nullptr;
      for (const PortEvidence& p : ev_.ports)
        if (p.is_switch && p.device == sw) cfg = &p;
      const bool ecn_off = cfg && cfg->cc_params.count("ecn_enabled") && cfg->cc_params.at("ecn_enabled") == "false";
      const bool ecn_on = cfg && cfg->cc_params.count("ecn_enabled") && cfg->cc_params.at("ecn_enabled") == "true";
      // A switch paused itself passes pause on from downstream: its own queues never build, and
      // the pause's root has its finding (pfc.paused_share, pfc.congestion_tree).
      bool paused_itself = false;
      for (const PortEvidence* p : PortsOf(sw))
        for (int prio = 0; prio < 8; ++prio)
          paused_itself |= PauseUs(*p, prio, false) > 0 || D(*p, kSaiPortPfcRxPkts.Name(prio)) > 0;
      if (pm.first > 0 && pm.second == 0 && (any_marks || ecn_off) && !(ecn_on && paused_itself))
        Add("ecn.pfc_without_ecn", "network", Severity::kError, "PFC fires but ECN never marks on this switch", sw,
            kSaiPortPfcTxPkts.Pattern("*") + " " + Count(pm.first) + ", " + kSaiQueueWredEcnMarkedPackets.name + " 0" +
                (ecn_off ? " (ECN is disabled in its configuration)" : " while other switches mark"),
            ecn_on ? "ECN is on here, yet no queue reached Kmin while PFC fired: Kmin sits above the XOFF point (lower it), "
                     "or the pauses come from downstream (a storm or a slow receiver stops this switch before its queues build)"
                   : "enable ECN on the RoCE queue (WRED_PROFILE ecn_all) with Kmin below the PFC XOFF point",
            ecn_off ? "T3" : "T2");  // ECN switched off is drift to roll back; thresholds, ECN to re-tune
      else if (ecn_off && pm.first > 0)
        // It marked, then its ECN went off (a configuration change during the interval).
        Add("ecn.turned_off", "network", Severity::kError, "ECN is off on this switch and PFC does its work", sw,
            kSaiPortPfcTxPkts.Pattern("*") + " " + Count(pm.first) + ", " + kSaiQueueWredEcnMarkedPackets.name + " " +
                Count(pm.second) + " (all before ECN was disabled: its configuration now has it off)",
            "enable ECN on the RoCE queue again (WRED_PROFILE ecn_all) and find the change that disabled it");
      else if (ecn_off && pm.first == 0) {
        // No pause yet, but RoCE crosses a switch that cannot mark: DCQCN is blind at this hop.
        double roce = 0;
        for (const PortEvidence& p : ev_.ports)
          if (p.is_switch && p.device == sw && p.dscp_to_priority) {
            auto it = p.queues.find(QueueName((*p.dscp_to_priority)[kRoceDscp]));
            if (it != p.queues.end()) roce += At(it->second, kSaiQueuePackets.name);
          }
        if (roce > 0)
          Add("ecn.off", "network", Severity::kWarning, "ECN is off on this switch while RoCE traffic crosses it", sw,
              "ecn_enabled false in its configuration; " + Count(roce) + " RoCE packets through its RoCE queue",
              "enable ECN on the RoCE queue (WRED_PROFILE ecn_all): congestion here reaches the senders only as PFC");
      }
    }
    // RoCE data carried in a queue that is lossy here: the map sends DSCP 26 where the other
    // devices do not (a drifted map), or where they do but PFC is off here (PFC off). The other
    // devices' word: the hosts' maps first, else the other switches' (the most common priority).
    std::map<int, int> host_votes, switch_votes;
    for (const PortEvidence& o : ev_.ports)
      if (o.dscp_to_priority) ++(o.is_switch ? switch_votes : host_votes)[(*o.dscp_to_priority)[kRoceDscp]];
    auto most = [](const std::map<int, int>& votes) {
      int best = -1, n = 0;
      for (const auto& [prio, count] : votes)
        if (count > n) best = prio, n = count;
      return best;
    };
    const int roce_prio = !host_votes.empty() ? most(host_votes) : most(switch_votes);
    std::map<int, std::vector<const PortEvidence*>> pfc_off;  // priority -> ports
    std::map<int, double> pfc_off_packets;
    for (const PortEvidence& p : ev_.ports) {
      if (!p.is_switch || !p.pfc_enabled || !p.dscp_to_priority) continue;
      const int prio = (*p.dscp_to_priority)[kRoceDscp];
      if ((*p.pfc_enabled)[prio]) continue;
      const std::string q = QueueName(prio);
      auto it = p.queues.find(q);
      if (it == p.queues.end() || At(it->second, kSaiQueuePackets.name) <= 0) continue;
      if (prio == roce_prio) {
        pfc_off[prio].push_back(&p);
        pfc_off_packets[prio] += At(it->second, kSaiQueuePackets.name);
        continue;
      }
      Add("qos.roce_in_lossy_queue", "network", Severity::kError, "RoCE traffic (DSCP 26) rides lossy queue " + q + " on " + p.device, Where(p) + " " + q,
          std::string(kSaiQueuePackets.name) + " " + Count(At(it->second, kSaiQueuePackets.name)) + "; DSCP 26 maps to priority " +
              std::to_string(prio) + " here, priority " + std::to_string(roce_prio) + " on the " +
              (host_votes.empty() ? "other switches" : "hosts") + ", and PFC protects only the lossless priorities",
          "fix the DSCP-to-priority map on " + p.device + " so DSCP 26 lands in priority " + std::to_string(roce_prio) +
              ", as on the other hops");
    }
    // PFC off for the RoCE priority: one finding per priority, naming every switch.
    for (const auto& [prio, ports] : pfc_off) {
      std::vector<std::string> devices;
      for (const PortEvidence* p : ports)
        if (std::find(devices.begin(), devices.end(), p->device) == devices.end()) devices.push_back(p->device);
      std::string names, where;
      for (const std::string& d : devices) names += (names.empty() ? "" : ", ") + d;
      for (const PortEvidence* p : ports) where += (where.empty() ? "" : "; ") + Where(*p) + " " + QueueName(prio);
      Add("pfc.off_on_hop", "network", Severity::kError,
          "PFC is off for the RoCE priority " + std::to_string(prio) + " on " + names, where,
          std::string(kSaiQueuePackets.name) + " " + Count(pfc_off_packets.at(prio)) + " of RoCE (DSCP 26) in " +
              QueueName(prio) + ", the priority the " + (host_votes.empty() ? "other switches" : "hosts") +
              " map it to, with no PFC there (no " + kSaiPortPfcTxPkts.prefix + std::to_string(prio) + " counters)",
          "enable PFC for priority " + std::to_string(prio) + " on " + names + " (PORT_QOS_MAP pfc_enable)");
    }
  }

  void Watchdog() {
    for (const WatchdogQueue& q : ev_.watchdog) {
      if (q.storms_detected <= 0 && q.status != "stormed") continue;
      const bool now = q.status == "stormed";
      Add("pfc.watchdog_storm", "link", now ? Severity::kError : Severity::kWarning,
          std::string(now ? "PFC storm in progress" : "PFC storms were detected") + " on " + q.port + " queue " +
              std::to_string(q.queue) + " (the PFC watchdog " + (now ? "is dropping its traffic" : "has restored it") + ")",
          q.port + ":" + std::to_string(q.queue),
          "STATUS " + q.status + ", STORM DETECTED/RESTORED " + Count(q.storms_detected) + "/" + Count(q.storms_restored) +
              ", TX OK/DROP " + Count(q.tx_ok) + "/" + Count(q.tx_drop) + ", RX OK/DROP " + Count(q.rx_ok) + "/" + Count(q.rx_drop) +
              (q.storms_detected > q.storms_restored + 1 || (q.storms_detected > 1) ? " (recurring)" : ""),
          WatchdogAdvice(q, now));
    }
  }

  // What to do about a stormed queue, by what its counters say (cumulative since they were cleared).
  static std::string WatchdogAdvice(const WatchdogQueue& q, bool now) {
    const std::string prio = std::to_string(q.queue);
    std::string s = "the device on the other end of " + q.port + (now ? " is sending" : " sent") + " pause on priority " +
                    prio + " without draining: find its stuck receiver (NIC pause counters, host health)" +
                    (now ? " and isolate it" : "");
    if (q.tx_ok == 0 && q.tx_drop > 0)
      s += "; TX OK 0: nothing has got through this queue since the counters were cleared, the watchdog dropped all " +
           Count(q.tx_drop);
    else if (q.tx_ok > 0 && q.tx_drop > 0)
      s += "; the queue carried " + Count(q.tx_ok) + " frames outside its storms and the watchdog dropped " +
           Count(q.tx_drop) + " in them";
    else if (q.tx_ok > 0)
      s += "; the queue carried " + Count(q.tx_ok) + " frames and the watchdog dropped none (its action forwards, or "
           "nothing was sent in the storm)";
    if (q.storms_detected > 1)
      s += "; storms recur (" + Count(q.storms_detected) + " detected): the peer pauses again after each restore and "
           "stays broken until it is fixed or isolated";
    return s;
  }

  void Application() {
    for (const PerftestRow& r : ev_.perftest) {
      if (r.bandwidth) {
        std::string unit = r.gbits ? "Gb/s" : "MB/s";
        const double gbps = r.gbits ? r.bw_average : r.bw_average * 8 / 1000;
        Add("app.perftest_bandwidth", "application", Severity::kInfo,
            "perftest bandwidth: " + Fmt("%.2f", r.bw_average) + " " + unit + " average at " + Count(r.bytes) + " B messages",
            r.source,
            "#bytes " + Count(r.bytes) + ", #iterations " + Count(r.iterations) + ", BW peak " + Fmt("%.2f", r.bw_peak) +
                ", BW average " + Fmt("%.2f", r.bw_average) + " " + unit + ", MsgRate " + Fmt("%.6f", r.msg_rate_mpps) + " Mpps" +
                (r.link_type.empty() ? "" : ", link " + r.link_type) + (r.mtu ? ", MTU " + std::to_string(r.mtu) : ""),
            r.bytes <= 1024 ? "small messages measure the message rate (" + Fmt("%.2f", r.msg_rate_mpps) +
                                  " Mpps), not the link: " + Fmt("%.2f", gbps) + " Gb/s is expected here; use -a or >= 64 KB "
                                  "messages to test bandwidth"
                            : "compare with the link rate times the wire efficiency MTU/(MTU + 78 B)");
      } else {
        Add("app.perftest_latency", "application", Severity::kInfo, "perftest latency: " + Fmt("%.2f", r.t_typical_us) + " us typical", r.source,
            "#bytes " + Count(r.bytes) + ", t_typical " + Fmt("%.2f", r.t_typical_us) + " us, t_avg " + Fmt("%.2f", r.t_avg_us) + " us",
            "compare with the path's serialization, propagation and NIC latencies");
      }
    }
    for (const CollectiveResult& c : ev_.collectives) {
      const std::string what = std::to_string(c.ranks) + "-rank AllReduce";
      if (c.iterations_done < c.iterations)
        Add("app.allreduce_incomplete", "application", Severity::kError,
            what + " finished " + std::to_string(c.iterations_done) + " of its " + std::to_string(c.iterations) + " iterations",
            ev_.origin, "iterations_done " + std::to_string(c.iterations_done) + ", iterations " + std::to_string(c.iterations),
            "a stalled rank or QP: look for QP errors, pause storms or deadlocks on the ring's links (or a run too short)");
      // NCCL's bus bandwidth approaches the link goodput (4096 of every 4178 B at RoCE MTU 4096).
      const double goodput = c.host_link_gbps * 4096 / 4178;
      if (c.iterations_done > 0 && goodput > 0 && c.busbw_gbps < 0.7 * goodput)
        Add("app.allreduce_busbw", "application", Severity::kWarning,
            what + " bus bandwidth is " + Fmt("%.0f", 100 * c.busbw_gbps / goodput) + " % of what its links carry",
            ev_.origin,
            "busbw " + Fmt("%.1f", c.busbw_gbps) + " Gb/s, host links " + Fmt("%.0f", c.host_link_gbps) + " Gb/s (goodput " +
                Fmt("%.1f", goodput) + ")",
            "find the slow hop: pauses or ECN marks on the ring's links, a slow rank, or cross traffic on shared uplinks");
    }
    if (ev_.flows > 0) {
      const int unfinished = ev_.flows - ev_.flows_finished - ev_.flows_failed;
      if (ev_.flows_failed > 0)
        Add("app.flows_failed", "application", Severity::kError, std::to_string(ev_.flows_failed) + " flows failed (QP error)", ev_.origin,
            std::to_string(ev_.flows_failed) + " of " + std::to_string(ev_.flows) + " flows in state qp_error",
            "see the transport findings for the loss that exhausted the retries");
      if (unfinished > 0)
        Add("app.flows_unfinished", "application", Severity::kWarning, std::to_string(unfinished) + " flows did not finish in the simulated time",
            ev_.origin, std::to_string(unfinished) + " of " + std::to_string(ev_.flows) + " flows unfinished after " +
                Fmt("%.3f", ev_.interval_s * 1e3) + " ms",
            "a stall (pause storm, deadlock, loss with long timeouts) or simply too short a run: look at the link findings");
    }
  }

  const Evidence& ev_;
  std::map<std::string, std::vector<const PortEvidence*>> by_device_;  // each device's ports, in evidence order
  std::map<std::string, std::string> switch_facing_;  // device -> a switch whose port faces it
  std::vector<Diagnosis> out_;
};

}  // namespace

std::vector<Diagnosis> Diagnose(const Evidence& evidence, bool merge_places) {
  return Rules(evidence).Run(merge_places);
}

std::vector<std::string> CausedByRecovery(const std::vector<Diagnosis>& ds, const Evidence& evidence) {
  const Rules rules(evidence);
  std::vector<std::string> out;
  out.reserve(ds.size());
  for (const Diagnosis& d : ds) out.push_back(rules.CausedByAction(d));
  return out;
}

std::string FindingText(const Diagnosis& d) {
  // The response ladder's rung, after the rule id (docs/faults.md).
  const char* tier = d.tier == "T1"   ? " (tier T1: congestion control handles it)"
                     : d.tier == "T2" ? " (tier T2: a PFC-level action)"
                     : d.tier == "T3" ? " (tier T3: isolation or rollback)"
                                      : "";
  char head[64];
  std::snprintf(head, sizeof head, "%-11s %-7s ", d.layer.c_str(), SeverityName(d.severity));
  return head + d.title + "\n            where:    " + d.location + "\n            evidence: " + d.evidence +
         "\n            action:   " + d.action + "\n            rule:     " + d.rule + tier + "\n";
}

}  // namespace rocelab
