#include "report/html_report.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "diagnose/parsers.h"
#include "report/fabric_drawing.h"
#include "report/svg_chart.h"
#include "report/timeline_story.h"
#include "run/cost.h"
#include "run/memory_estimate.h"
#include "telemetry/counter_names.h"
#include "util/config_error.h"
#include "util/json_value.h"
#include "util/text_file.h"

namespace rocelab {
namespace {

using Node = JsonValue;

// Rows a table shows at most: the largest (or worst) first, the count of the rest said.
constexpr size_t kTableRows = 50;
constexpr size_t kTimelineRows = 200;
constexpr size_t kTimelineMarks = 1000;

[[noreturn]] void ThrowConfigError(const std::string& file, int line, const std::string& key, const std::string& what) {
  throw ConfigError(file, line, key, what);
}

std::string Count(double v) { return FormatCount(v); }
std::string Bytes(double v) { return FormatBytes(static_cast<uint64_t>(std::max(0.0, v))); }

// "leaf0:Ethernet0/3", "h2:eth0": a port (and priority) as the timeline and the naming rules write it.
std::string Where(const std::string& device, const std::string& port, int priority = -1) {
  std::string s = device;
  if (!port.empty()) s += ":" + port;
  if (priority >= 0) s += "/" + std::to_string(priority);
  return s;
}

// A sentence under a table that left rows out.
std::string MoreRows(size_t shown, size_t all, const std::string& what) {
  if (all <= shown) return "";
  return HtmlParagraph(Count(static_cast<double>(all - shown)) + " more " + what + " in summary.json.", "note");
}

// ---- the summary, read once ------------------------------------------------------------------

// A port's PFC on one priority, from the side of the device that owns the port.
struct PortPause {
  std::string device, port, peer;
  int priority;
  double sent = 0, received = 0;  // PAUSE frames
  double paused_ns = 0;           // the port's transmitter held paused by the peer
};

struct Run {
  const Node& root;
  double t_end_ns;
  std::map<uint64_t, std::pair<std::string, std::string>> flows;  // id -> (src, dst)
  std::map<std::string, std::string> host_switch;                  // the switch a host hangs from
  std::vector<PortPause> pauses;
};

// The host's port name (its netdev) as the summary gives it.
std::string HostPort(const Node& h) { return h["netdev"].present() ? h["netdev"].String() : "eth0"; }

// The PFC of every port with a priority that sent or received PAUSE frames.
std::vector<PortPause> ReadPauses(const Node& root, const std::map<std::string, std::string>& host_switch) {
  std::vector<PortPause> out;
  for (const auto& [host, h] : root["hosts"].Members()) {
    const Node eth = h[kEthtoolBlock];
    const auto sw = host_switch.find(host);
    for (int prio = 0; prio < 8; ++prio) {
      PortPause pp{host, HostPort(h), sw == host_switch.end() ? "" : sw->second, prio};
      pp.sent = eth[kTxPrioPause.Name(prio)].Number();
      pp.received = eth[kRxPrioPause.Name(prio)].Number();
      pp.paused_ns = eth[kRxPrioPauseDuration.Name(prio)].Number() * 1e3;
      if (pp.sent > 0 || pp.received > 0) out.push_back(pp);
    }
  }
  for (const auto& [sw, s] : root["switches"].Members())
    for (const auto& [port, p] : s["ports"].Members())
      for (int prio = 0; prio < 8; ++prio) {
        PortPause pp{sw, port, p["peer"].present() ? p["peer"].String() : "", prio};
        pp.sent = p[kSaiPortPfcTxPkts.Name(prio)].Number();
        pp.received = p[kSaiPortPfcRxPkts.Name(prio)].Number();
        pp.paused_ns = p[kSaiPortPfcRxPauseDurationUs.Name(prio)].Number() * 1e3;
        if (pp.sent > 0 || pp.received > 0) out.push_back(pp);
      }
  return out;
}

std::string FlowName(const Run& run, const std::string& sender, const std::string& qp) {
  if (qp.rfind("qp", 0) == 0) {
    const std::string digits = qp.substr(2);
    if (!digits.empty() && digits.size() < 19 && digits.find_first_not_of("0123456789") == std::string::npos) {
      auto it = run.flows.find(std::stoull(digits));
      if (it != run.flows.end() && it->second.first == sender)
        return "flow " + digits + " " + it->second.first + " → " + it->second.second;
    }
  }
  return sender + " " + qp;
}

// ---- sections ----------------------------------------------------------------------------------

HtmlSection RunSection(const Run& run, const SeriesData* series) {
  const Node& r = run.root;
  HtmlTable facts({});
  facts.AddRow({"scenario", r["scenario"].Text()});
  facts.AddRow({"seed", r["seed"].Text()});
  facts.AddRow({"simulated time", FormatTimeNs(run.t_end_ns)});
  if (r["timer_scale"].present() && r["timer_scale"].Number() != 1)
    facts.AddRow({"timer scale", r["timer_scale"].Text() + " of production's (the PFC agents', the ACK timeout, link detection, route convergence, the monitor)"});
  facts.AddRow({"device counters", r["device_counters"].Text()});
  std::map<std::string, size_t> states;
  const std::vector<Node> flows = r["flows"].Items();
  for (const Node& f : flows) ++states[f["state"].String()];
  std::string flow_text = Count(static_cast<double>(flows.size()));
  for (const auto& [state, n] : states) flow_text += ", " + state + " " + Count(static_cast<double>(n));
  facts.AddRow({"flows", flow_text});
  facts.AddRow({"workloads", Count(static_cast<double>(r["workloads"].Items().size()))});
  facts.AddRow({"time series", series ? "series.csv: " + Count(static_cast<double>(series->rows)) +
                                            " rows, sampled every " + FormatTimeNs(series->interval_ns, true)
                                      : "off (no telemetry section)"});
  std::string body = facts.Html();
  const std::vector<std::pair<std::string, Node>> totals = r["totals"].Members();
  if (!totals.empty()) {
    HtmlTable t({"total over the fabric", "value"});
    for (const auto& [key, v] : totals) t.AddRow({key, key == "bytes_delivered" ? Count(v.Number()) + " B (" + Bytes(v.Number()) + ")" : Count(v.Number())});
    body += "<h3>Totals</h3>\n" + t.Html();
  }
  // What the results rest on where the sources disagree or say nothing (run/assumptions.h).
  const std::vector<Node> assumed = r["assumptions"].Items();
  if (!assumed.empty()) {
    HtmlTable t({"key", "this run takes", "or, one key away"}, "keyed");  // keys unbroken
    for (const Node& a : assumed) t.AddRow({a["key"].String(), a["assumed"].String(), a["alternative"].String()});
    body += "<h3>What the run takes where the sources disagree or say nothing</h3>\n" + t.Html();
  }
  return {"run", "Run", body};
}

HtmlSection FindingsSection(const RunReportInput& in) {
  std::string body;
  if (!in.findings_error.empty())
    return {"findings", "Findings", HtmlParagraph("diagnose could not read this run: " + in.findings_error, "note")};
  int problems = 0;
  HtmlTable t({"severity", "layer", "finding", "where", "evidence", "what to do"});
  for (const Diagnosis& d : in.findings) {
    if (d.severity != Severity::kInfo) ++problems;
    const std::string sev = SeverityName(d.severity);
    t.AddRow({sev, d.layer, d.title, d.location, d.evidence, d.action}, sev);
  }
  body += HtmlParagraph(problems ? Count(problems) + (problems == 1 ? " problem" : " problems") +
                                       " found by rocelab diagnose on this folder, in layer order (physical, link, "
                                       "network, transport, application)."
                                 : "diagnose found nothing wrong.");
  if (t.rows()) body += t.Html();
  return {"findings", "Findings", body};
}

HtmlSection TopologySection(const Run& run) {
  const Node& r = run.root;
  FabricDrawing f;
  std::set<std::string> listed;
  auto add = [&](const std::string& name, bool is_switch) {
    if (listed.insert(name).second) f.devices.push_back({name, is_switch});
  };
  const std::vector<std::pair<std::string, Node>> switches = r["switches"].Members();
  for (const auto& [name, s] : switches) add(name, true);
  std::map<std::string, std::string> host_port;
  for (const auto& [name, h] : r["hosts"].Members()) add(name, false), host_port[name] = HostPort(h);
  // Every switch port by its peer: (switch, peer) -> port. Two links never join the same two
  // devices, so the pair names one link.
  std::map<std::pair<std::string, std::string>, std::string> port_to;
  for (const auto& [sw, s] : switches)
    for (const auto& [port, p] : s["ports"].Members())
      if (p["peer"].present()) port_to.emplace(std::make_pair(sw, p["peer"].String()), port);
  // The PAUSE each port sent and the time it was held paused, over its priorities.
  std::map<std::pair<std::string, std::string>, DrawnLinkEnd> ends;
  for (const PortPause& p : run.pauses) {
    DrawnLinkEnd& e = ends[{p.device, p.port}];
    e.paused_ns = std::max(e.paused_ns, p.paused_ns);
    if (p.sent > 0) {
      e.pause_sent += static_cast<uint64_t>(p.sent);
      e.pause_priorities += (e.pause_priorities.empty() ? "" : ", ") + std::to_string(p.priority);
    }
  }
  auto end_of = [&](const std::string& device, const std::string& port) {
    auto it = ends.find({device, port});
    DrawnLinkEnd e = it == ends.end() ? DrawnLinkEnd{} : it->second;
    e.device = device;
    e.port = port;
    return e;
  };
  std::set<std::pair<std::string, std::string>> linked;
  for (const auto& [key, port] : port_to) {
    const auto& [sw, peer] = key;
    if (!linked.insert(std::minmax(sw, peer)).second) continue;
    std::string peer_port;
    if (listed.count(peer) && !host_port.count(peer)) {
      auto back = port_to.find({peer, sw});
      if (back == port_to.end()) continue;  // the peer switch lists no port back (a hand-made summary)
      peer_port = back->second;
    } else {
      add(peer, false);  // a host the summary left out (--counters nonzero)
      peer_port = host_port.count(peer) ? host_port[peer] : "eth0";
    }
    f.links.push_back({end_of(sw, port), end_of(peer, peer_port)});
  }
  for (const Node& fault : r["faults"].Items()) {
    if (fault["target"].present() && !fault["target"].String().empty()) f.fault_targets.push_back(fault["target"].String());
    if (fault["localized_to"].present()) f.localized.push_back(fault["localized_to"].String());
  }
  std::string body;
  if (f.devices.empty()) {
    body = HtmlParagraph("This summary.json holds no devices (device_counters: " + r["device_counters"].Text() +
                             "): run with --counters all (the default) or nonzero to draw the fabric.",
                         "note");
  } else {
    size_t paused_links = 0;
    for (const DrawnLink& l : f.links) paused_links += (l.a.pause_sent || l.b.pause_sent) ? 1 : 0;
    body = HtmlParagraph(FormatCountOf(static_cast<double>(f.devices.size()), "device") + ", " +
                         FormatCountOf(static_cast<double>(f.links.size()), "link") + "; " +
                         FormatCountOf(static_cast<double>(paused_links), "link") + " carried PAUSE frames" +
                         (r["device_counters"].Text() == "nonzero" ? " (device_counters: nonzero: idle devices and ports are not drawn)" : "") +
                         ".") +
           SvgFabric(f);
  }
  return {"topology", "Topology and congestion tree", body};
}

// What each fault cost, as `rocelab run` prints it under the fault: when its spread stopped (the
// monitor quiet about it) and when every workload was back, the degraded period and the time lost,
// the flows it slowed without touching them, what the actions dropped, the price; then what the
// figures were measured against (the counterfactual).
std::string FaultCostTable(const Node& r) {
  HtmlTable t({"fault", "quiet after", "full service after", "degraded", "lost", "victim flows", "dropped by actions",
               "QP errors", "cost"});
  bool any = false;
  for (const Node& f : r["faults"].Items()) {
    if (!f["injected_ns"].present() || !f["lost_ns"].IsNumber()) continue;
    any = true;
    const double injected = f["injected_ns"].Number();
    auto after = [&](const char* key) {
      return f[key].IsNumber() ? FormatTimeNs(f[key].Number() - injected) : std::string("not by the end of the run");
    };
    std::string degraded = f["degraded_ns"].IsNumber() ? FormatTimeNs(f["degraded_ns"].Number()) : "—";
    if (f["degraded_to_end"].present() && f["degraded_to_end"].Bool()) degraded += " (to the end, at least)";
    std::string lost = FormatTimeNs(f["lost_ns"].Number());
    if (f["lost_from"].present()) lost += " (" + f["lost_from"].String() + ")";
    const std::string victims = f["victim_flows"].present() ? Count(static_cast<double>(f["victim_flows"].Items().size())) : "— (no counterfactual)";
    std::string cost = "—";
    if (f["cost"].present()) {
      const Node c = f["cost"];
      cost = FormatMoney(c["amount"].Number()) + " " + c["currency"].String() + " (" + c["arithmetic"].String() + ")";
      if (c["at_production"].present())
        cost += "; at production time " + FormatMoney(c["at_production"]["amount"].Number()) + " " + c["currency"].String() +
                " (" + c["at_production"]["arithmetic"].String() + ")";
    }
    t.AddRow({f["kind"].String() + (f["target"].String().empty() ? "" : " on " + f["target"].String()),
              f["actions"].Items().empty() && !f["quiet_ns"].IsNumber() ? "—" : after("quiet_ns"),
              after("mttr_ns"), degraded, lost, victims, Count(f["bytes_dropped_by_actions"].Number()) + " B",
              Count(f["flows_failed"].Number()), cost});
  }
  if (!any) return "";
  std::string out = "<h3>What each fault cost</h3>\n" + t.Html();
  const Node cf = r["counterfactual"];
  if (cf["run"].present() && cf["run"].Bool())
    out += HtmlParagraph("Measured against the counterfactual: the same run without its faults, seed " + cf["seed"].Text() + ", " +
                         FormatTimeNs(cf["sim_time_ns"].Number()) + " simulated, " + Count(cf["flows_finished"].Number()) +
                         " of " + Count(cf["flows"].Number()) + " flows finished, " + Count(cf["bytes_delivered"].Number()) +
                         " B delivered.");
  else if (cf["why"].present())
    out += HtmlParagraph("No counterfactual: " + cf["why"].String() + ".");
  return out;
}

HtmlSection FaultsSection(const Run& run) {
  const Node& r = run.root;
  const std::vector<Node> faults = r["faults"].Items();
  const std::vector<Node> timeline = r["timeline"].Items();
  std::string body;
  if (faults.empty() && timeline.empty())
    return {"faults", "Faults and timeline", HtmlParagraph("No faults and no timeline events.")};
  SpanChart chart;
  chart.id = "faults";
  chart.title = "Fault timeline";
  chart.t_end_ns = run.t_end_ns;
  HtmlTable t({"fault", "target", "injected", "cleared", "detected", "by", "localized to", "MTTD", "actions",
               "recovered", "MTTR"});
  auto time_or_dash = [](const Node& v) { return v.present() ? FormatTimeNs(v.Number()) : std::string("—"); };
  for (const Node& f : faults) {
    const std::string kind = f["kind"].String(), target = f["target"].String();
    SpanRow row;
    row.name = kind + (target.empty() ? "" : " on " + target);
    row.span_class = "fault-span";
    std::string actions;
    if (f["injected_ns"].present()) {
      const double from = f["injected_ns"].Number();
      const double to = f["cleared_ns"].present() ? f["cleared_ns"].Number() : run.t_end_ns;
      row.spans.push_back({from, to, row.name + ": in force from " + FormatTimeNs(from) +
                                         (f["cleared_ns"].present() ? " to " + FormatTimeNs(to) : " to the end of the run")});
    }
    if (f["detected_ns"].present())
      row.marks.push_back({f["detected_ns"].Number(), "detected",
                           "detected at " + FormatTimeNs(f["detected_ns"].Number()) + " by " + f["detected_by"].String() +
                               " at " + f["detected_at"].String()});
    if (f["localized_ns"].present() && f["localized_to"].present())
      row.marks.push_back({f["localized_ns"].Number(), "detected",
                           "localized at " + FormatTimeNs(f["localized_ns"].Number()) + " to " + f["localized_to"].String()});
    for (const Node& a : f["actions"].Items()) {
      const std::string what = a["tier"].String() + ": " + a["action"].String();
      row.marks.push_back({a["t_ns"].Number(), "action", FormatTimeNs(a["t_ns"].Number()) + " " + what});
      actions += (actions.empty() ? "" : "; ") + FormatTimeNs(a["t_ns"].Number()) + " " + what;
    }
    if (f["flap_detected_ns"].present())
      row.marks.push_back({f["flap_detected_ns"].Number(), "detected",
                           "seen as a flap at " + FormatTimeNs(f["flap_detected_ns"].Number()) + " (physical.link_flap)"});
    if (f["recovered_ns"].present())
      row.marks.push_back({f["recovered_ns"].Number(), "recovered", "recovered at " + FormatTimeNs(f["recovered_ns"].Number())});
    chart.rows.push_back(std::move(row));
    t.AddRow({kind, target.empty() ? "the routes" : target, time_or_dash(f["injected_ns"]), time_or_dash(f["cleared_ns"]),
              time_or_dash(f["detected_ns"]), f["detected_by"].present() ? f["detected_by"].String() : "—",
              f["localized_to"].present() ? f["localized_to"].String() : "—", time_or_dash(f["mttd_ns"]),
              actions.empty() ? "—" : actions, time_or_dash(f["recovered_ns"]), time_or_dash(f["mttr_ns"])});
  }
  // The events as the terminal tells them: a finding detected again and again is one line.
  std::vector<TimelineEvent> read;
  read.reserve(timeline.size());
  for (const Node& e : timeline)
    read.push_back({static_cast<Time>(std::llround(e["t_ns"].Number() * kNanosecond)), e["device"].String(), e["port"].String(),
                    e["priority"].present() ? e["priority"].Int(0, 7) : -1, e["event"].String(), e["detail"].String()});
  const std::vector<StoryLine> story = TellTimeline(read);
  SpanRow events;
  events.name = "timeline events";
  HtmlTable tl({"time", "where", "event", "detail"});
  for (size_t i = 0; i < story.size(); ++i) {
    const TimelineEvent& e = story[i].event;
    const std::string where = Where(e.device, e.port, e.priority);
    const double t_ns = static_cast<double>(e.t) / kNanosecond;
    const std::string detail = e.detail + RepeatNote(story[i], FormatTimeNs(static_cast<double>(story[i].last) / kNanosecond));
    if (i < kTimelineMarks) events.marks.push_back({t_ns, "event", FormatTimeNs(t_ns) + " " + where + " " + e.event + ": " + detail});
    if (i < kTimelineRows) tl.AddRow({FormatTimeNs(t_ns), where, e.event, detail});
  }
  if (!events.marks.empty()) chart.rows.push_back(std::move(events));
  chart.note = "Orange: a fault in force. Marks: detected (blue), recovery actions (purple), recovered (green), "
               "timeline events (grey" +
               std::string(story.size() > kTimelineMarks ? ", the first " + Count(kTimelineMarks) : "") +
               "). Hover a bar or a mark for its text.";
  body += SvgSpanChart(chart);
  if (!faults.empty()) body += "<h3>Faults</h3>\n" + t.Html() + FaultCostTable(r);
  if (!story.empty())
    body += "<h3>Timeline</h3>\n" + tl.Html() + MoreRows(std::min(story.size(), kTimelineRows), story.size(), "lines") +
            (story.size() < timeline.size() ? HtmlParagraph(Count(timeline.size()) + " events in " + Count(story.size()) +
                                                            " lines: a finding the monitor made again and again is one "
                                                            "line; summary.json has every event.")
                                            : "");
  return {"faults", "Faults and timeline", body};
}

struct MetricLook {
  const char* metric;
  const char* title;
  ChartUnit unit;
};
const MetricLook kLooks[] = {
    {"queue_depth", "Egress queue depth", ChartUnit::kBytes},
    {"pg_occupancy", "Ingress priority-group occupancy (shared and headroom)", ChartUnit::kBytes},
    {"link_util", "Link utilization (share of each interval the port sent)", ChartUnit::kShare},
    {"flow_rate", "Per-flow throughput (payload delivered in order)", ChartUnit::kGbps},
    {"cc_rate", "DCQCN rate of each queue pair", ChartUnit::kGbps},
};

// Titles a chart of `metric` and gives it its unit: a known metric's look, or its bare name.
void ApplyLook(const std::string& metric, LineChart* c) {
  c->title = metric;
  for (const MetricLook& look : kLooks)
    if (metric == look.metric) c->title = std::string(look.title) + " (" + metric + ")", c->unit = look.unit;
}

std::string LineName(const Run& run, const std::string& metric, const SeriesTrace& t) {
  if (metric == "queue_depth") return Where(t.device, t.port) + " " + QueueName(t.priority);
  if (metric == "pg_occupancy") return Where(t.device, t.port) + " " + PriorityGroupName(t.priority);
  if (metric == "flow_rate" || metric == "cc_rate") return FlowName(run, t.device, t.port);
  return Where(t.device, t.port, t.priority);
}

// Where the run's fault story happened, for every time chart: each fault's injection,
// detection, actions and recovery.
std::vector<ChartMark> FaultMarks(const Run& run) {
  std::vector<ChartMark> marks;
  for (const Node& f : run.root["faults"].Items()) {
    const std::string name = f["kind"].String() + (f["target"].String().empty() ? "" : " on " + f["target"].String());
    auto mark = [&](const char* key, const char* kind, const std::string& what) {
      if (f[key].IsNumber()) marks.push_back({f[key].Number(), kind, FormatTimeNs(f[key].Number()) + " " + name + ": " + what});
    };
    mark("injected_ns", "injected", "injected");
    mark("detected_ns", "detected",
         "detected by " + f["detected_by"].String() + (f["detected_at"].present() ? " at " + f["detected_at"].String() : ""));
    for (const Node& a : f["actions"].Items())
      marks.push_back({a["t_ns"].Number(), "action",
                       FormatTimeNs(a["t_ns"].Number()) + " " + name + ": " + a["tier"].String() + " " + a["action"].String()});
    mark("recovered_ns", "recovered", "recovered");
  }
  return marks;
}

std::string MarksNote(const std::vector<ChartMark>& marks) {
  if (marks.empty()) return "";
  return " Dashed lines: a fault injected (orange), detected (blue), acted on (purple), recovered (green); hover one for "
         "its text.";
}

std::string OffNote() {
  std::string names;
  for (const std::string& m : SeriesMetricNames()) names += (names.empty() ? "" : ", ") + m;
  return "This run had no telemetry section, so every time series is off: " + names +
         ". Add `telemetry: {interval: 10us}` to the scenario for all of them (docs/telemetry.md); the figures "
         "below are the counters at the end of the run.";
}

HtmlSection SeriesSection(const Run& run, const SeriesData* series, const SeriesLimits& limits) {
  if (!series) return {"series", "Time series", HtmlParagraph(OffNote(), "note")};
  std::string body;
  std::vector<std::string> silent;
  const std::vector<ChartMark> marks = FaultMarks(run);
  for (const MetricTraces& mt : series->metrics) {
    if (mt.metric == "pause_state") continue;
    if (mt.series == 0) {
      silent.push_back(mt.metric);
      continue;
    }
    LineChart c;
    c.id = mt.metric;
    ApplyLook(mt.metric, &c);
    c.t_end_ns = std::max(run.t_end_ns, series->last_t_ns);
    c.marks = marks;
    bool thinned = false;
    for (const SeriesTrace& t : mt.top) {
      c.lines.push_back({LineName(run, mt.metric, t), t.points});
      thinned = thinned || t.rows > limits.points;
    }
    c.note = (mt.top.size() < mt.series ? "The " + Count(static_cast<double>(mt.top.size())) + " of " +
                                              Count(static_cast<double>(mt.series)) + " series with the highest peaks"
                                        : "All " + Count(static_cast<double>(mt.series)) + " series") +
             " (" + Count(static_cast<double>(mt.rows)) + " rows, sampled every " + FormatTimeNs(series->interval_ns, true) + ")." +
             (thinned ? " Lines with more than " + Count(static_cast<double>(limits.points)) + " samples show the lowest and "
                        "highest sample of each 1/" + Count(static_cast<double>(limits.points / 2)) + " of the run."
                      : "") +
             MarksNote(c.marks);
    body += SvgLineChart(c);
  }
  if (!silent.empty()) {
    std::string names;
    for (const std::string& m : silent) names += (names.empty() ? "" : ", ") + m;
    body += HtmlParagraph("No rows in series.csv for " + names +
                              ": off in the scenario's telemetry.series, or zero throughout the run (a row is written only "
                              "while a value is not zero).",
                          "note");
  }
  return {"series", "Time series", body};
}

HtmlSection PauseSection(const Run& run, const SeriesData* series) {
  std::string body;
  const MetricTraces* pause = nullptr;
  if (series)
    for (const MetricTraces& mt : series->metrics)
      if (mt.metric == "pause_state") pause = &mt;
  if (!series) {
    body += HtmlParagraph("No pause timeline: pause_state is off (no telemetry section). The PAUSE counters of the "
                          "end of the run follow.",
                          "note");
  } else if (!pause || pause->top.empty()) {
    body += HtmlParagraph("No port was held paused at any sample of series.csv (or pause_state is off in "
                          "telemetry.series).",
                          "note");
  } else {
    SpanChart c;
    c.id = "pause_state";
    c.title = "Ports held paused, per priority";
    c.t_end_ns = std::max(run.t_end_ns, series->last_t_ns);
    c.marks = FaultMarks(run);
    for (const SeriesTrace& t : pause->top) {
      SpanRow row;
      std::string peer;
      for (const PortPause& p : run.pauses)
        if (p.device == t.device && p.port == t.port) peer = p.peer;
      row.name = Where(t.device, t.port, t.priority) + (peer.empty() ? "" : " (by " + peer + ")");
      for (ChartSpan s : t.spans) {
        s.title = row.name + " paused " + FormatTimeNs(s.from_ns) + " to " + FormatTimeNs(s.to_ns) + " (" +
                  FormatTimeNs(s.to_ns - s.from_ns) + ")";
        row.spans.push_back(std::move(s));
      }
      c.rows.push_back(std::move(row));
    }
    c.note = (pause->top.size() < pause->series
                  ? "The " + Count(static_cast<double>(pause->top.size())) + " port/priority pairs held paused longest, of " +
                        Count(static_cast<double>(pause->series))
                  : "Every port/priority pair held paused: " + Count(static_cast<double>(pause->top.size()))) +
             ". A bar is a time the port's transmitter was held paused by its peer (pause_state, sampled every " +
             FormatTimeNs(series->interval_ns, true) + "); pauses less than 1/1000 of the run apart are one bar." +
             MarksNote(c.marks);
    body += SvgSpanChart(c);
  }
  std::vector<const PortPause*> rows;
  for (const PortPause& p : run.pauses) rows.push_back(&p);
  std::stable_sort(rows.begin(), rows.end(), [](const PortPause* a, const PortPause* b) {
    return a->paused_ns != b->paused_ns ? a->paused_ns > b->paused_ns : a->sent > b->sent;
  });
  if (rows.empty()) {
    body += HtmlParagraph(run.root["hosts"].present() || run.root["switches"].present()
                              ? "No port sent or received a PAUSE frame."
                              : "No device counters in this summary (device_counters: none).");
  } else {
    HtmlTable t({"port/priority", "peer", "PAUSE sent", "PAUSE received", "held paused", "share of the run"});
    for (size_t i = 0; i < rows.size() && i < kTableRows; ++i) {
      const PortPause& p = *rows[i];
      t.AddRow({Where(p.device, p.port, p.priority), p.peer, Count(p.sent), Count(p.received), FormatTimeNs(p.paused_ns),
                run.t_end_ns > 0 ? FormatShare(p.paused_ns / run.t_end_ns) : "—"});
    }
    body += "<h3>PFC at the end of the run</h3>\n" +
            HtmlParagraph("Per port and priority, from the counters (tx/rx_prioN_pause, SAI_PORT_STAT_PFC_N_*): "
                          "held paused longest first.",
                          "note") +
            t.Html() + MoreRows(std::min(rows.size(), kTableRows), rows.size(), "ports");
  }
  return {"pauses", "Pause timeline", body};
}

HtmlSection EndOfRunSection(const Run& run) {
  const Node& r = run.root;
  std::string body;
  if (!r["hosts"].present() && !r["switches"].present())
    return {"end-of-run", "End-of-run figures",
            HtmlParagraph("No device counters in this summary (device_counters: none): run with --counters all or "
                          "nonzero for them.",
                          "note")};
  // Egress queues, by their highest fill.
  struct QueueRow {
    std::vector<std::string> cells;
    double key;
  };
  std::vector<QueueRow> queues, pgs, busy;
  std::vector<std::vector<std::string>> buffers, pfcwd;
  // A shared headroom pool's columns, when any switch has one.
  bool headroom_pools = false;
  for (const auto& [sw, s] : r["switches"].Members()) headroom_pools |= s["buffer"][kHeadroomPoolBytes.name].present();
  for (const auto& [sw, s] : r["switches"].Members()) {
    const Node b = s["buffer"];
    if (b.present()) {
      buffers.push_back({sw, Bytes(b["size_bytes"].Number()), Bytes(b["shared_pool_bytes"].Number()),
                         Bytes(b["shared_watermark_bytes"].Number()),
                         b["shared_pool_bytes"].Number() > 0
                             ? FormatShare(b["shared_watermark_bytes"].Number() / b["shared_pool_bytes"].Number())
                             : "—"});
      if (headroom_pools) {
        const bool pooled = b[kHeadroomPoolBytes.name].present();
        buffers.back().push_back(pooled ? Bytes(b[kHeadroomPoolBytes.name].Number()) : "—");
        buffers.back().push_back(pooled ? Bytes(b[kSaiBufferPoolXoffRoomWatermarkBytes.name].Number()) : "—");
        buffers.back().push_back(pooled ? Count(b[kRocelabHeadroomPoolDrops.name].Number()) : "—");
      }
    }
    for (const auto& [port, p] : s["ports"].Members()) {
      for (const auto& [q, c] : p[kQueuesBlock].Members()) {
        const double wm = c[kSaiQueueWatermarkBytes.name].Number();
        queues.push_back({{Where(sw, port) + " " + q, p["peer"].String(), Bytes(wm), Count(c[kSaiQueuePackets.name].Number()),
                           Count(c[kSaiQueueDroppedPackets.name].Number()), Count(c[kSaiQueueWredEcnMarkedPackets.name].Number())},
                          wm});
      }
      for (const auto& [pg, c] : p[kPriorityGroupsBlock].Members()) {
        const double shared = c[kSaiPgSharedWatermarkBytes.name].Number();
        const double xoff = c[kSaiPgXoffRoomWatermarkBytes.name].Number();
        pgs.push_back({{Where(sw, port) + " " + pg, p["peer"].String(), Bytes(shared), Bytes(xoff),
                        p[kHeadroomBytes.name].present() ? Bytes(p[kHeadroomBytes.name].Number()) : "—",
                        Count(c[kSaiPgDroppedPackets.name].Number())},
                       shared + xoff});
      }
      if (p[kRocelabTxBusyNs.name].present() && run.t_end_ns > 0) {
        const double share = p[kRocelabTxBusyNs.name].Number() / run.t_end_ns;
        busy.push_back({{Where(sw, port), p["peer"].String(), FormatShare(share)}, share});
      }
      for (const auto& [q, st] : p[kPfcwdBlock].Members())
        pfcwd.push_back({Where(sw, port) + " " + q, st["status"].String(), Count(st[kPfcwdStormDetected.name].Number()),
                         Count(st[kPfcwdStormRestored.name].Number()), Count(st[kPfcwdTxDrop.name].Number()),
                         Count(st[kPfcwdRxDrop.name].Number())});
    }
  }
  for (const auto& [host, h] : r["hosts"].Members()) {
    const Node own = h[kRocelabBlock];
    if (own[kTxBusyNs.name].present() && run.t_end_ns > 0) {
      const double share = own[kTxBusyNs.name].Number() / run.t_end_ns;
      const auto sw = run.host_switch.find(host);
      busy.push_back({{Where(host, HostPort(h)), sw == run.host_switch.end() ? "" : sw->second, FormatShare(share)}, share});
    }
  }
  auto table = [&](std::vector<QueueRow>& rows, std::vector<std::string> header, const std::string& title,
                   const std::string& note, const std::string& what) {
    if (rows.empty()) return;
    std::stable_sort(rows.begin(), rows.end(), [](const QueueRow& a, const QueueRow& b) { return a.key > b.key; });
    HtmlTable t(std::move(header));
    for (size_t i = 0; i < rows.size() && i < kTableRows; ++i) t.AddRow(rows[i].cells);
    body += "<h3>" + HtmlEscape(title) + "</h3>\n" + HtmlParagraph(note, "note") + t.Html() +
            MoreRows(std::min(rows.size(), kTableRows), rows.size(), what);
  };
  table(queues, {"queue", "toward", "watermark", "packets", "dropped", "ECN marked"}, "Egress queues",
        "SAI queue statistics, highest watermark first.", "queues");
  table(pgs, {"priority group", "from", "shared watermark", "headroom watermark", "headroom", "dropped"},
        "Ingress priority groups", "SAI ingress priority-group statistics, fullest first.", "priority groups");
  table(busy, {"port", "toward", "busy sending"}, "Link utilization over the run",
        "The share of the run each port spent sending (rocelab_tx_busy_ns, tx_busy_ns), busiest first.", "ports");
  if (!buffers.empty()) {
    std::vector<std::string> columns = {"switch", "buffer", "shared pool", "shared watermark", "of the pool"};
    if (headroom_pools) columns.insert(columns.end(), {"headroom pool", "its watermark", "its drops"});
    HtmlTable t(columns);
    for (auto& row : buffers) t.AddRow(std::move(row));
    body += "<h3>Switch buffers</h3>\n" + t.Html();
  }
  if (!pfcwd.empty()) {
    HtmlTable t({"queue", "status", "storms detected", "storms restored", "tx dropped", "rx dropped"});
    for (auto& row : pfcwd) t.AddRow(std::move(row));
    body += "<h3>PFC watchdog</h3>\n" + HtmlParagraph("The queues where the watchdog declared a storm (show pfcwd stats).", "note") +
            t.Html();
  }
  if (body.empty()) body = HtmlParagraph("No device in this summary counted anything.", "note");
  return {"end-of-run", "End-of-run figures", body};
}

// A workload figure's name and value as an operator reads them, in the unit its summary.json key
// names (the key itself after the name): "iteration times (iteration_ns)" in ms or µs, "GPU
// busy (gpu_busy)" in %, bytes in B/KB/MB, rates in Gb/s or GB/s.
struct WorkloadFigure {
  const char* suffix;  // of the key ("_ns"), or the whole key ("gpu_busy")
  const char* name;    // what the figure is called, "" for the key less its suffix
  std::string (*text)(double);
};
const WorkloadFigure kWorkloadFigures[] = {
    {"gpu_busy", "GPU busy", [](double v) { return FormatFixed(v * 100, 1) + " %"; }},
    {"iteration_ns", "iteration times", [](double v) { return FormatTimeNs(v); }},
    {"_ns", "", [](double v) { return FormatTimeNs(v); }},
    {"_GBps", "", [](double v) { return FormatFixed(v, 3) + " GB/s"; }},
    {"_gbps", "", [](double v) { return FormatFixed(v, 2) + " Gb/s"; }},
    {"_us", "", [](double v) { return FormatFixed(v, 1) + " µs"; }},
    {"bytes", "", [](double v) { return Bytes(v); }},
    {"io_size", "I/O size", [](double v) { return Bytes(v); }},
    {"iops", "IOPS", [](double v) { return Count(v); }},
};

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The figure's row: its name, and its value (a list or a map of them: each in the unit).
std::vector<std::string> WorkloadRow(const std::string& key, const Node& v) {
  const WorkloadFigure* figure = nullptr;
  for (const WorkloadFigure& f : kWorkloadFigures)
    if (EndsWith(key, f.suffix)) {
      figure = &f;
      break;
    }
  std::string name = figure && *figure->name ? figure->name
                     : figure && key != figure->suffix ? key.substr(0, key.size() - std::string(figure->suffix).size())
                                                       : key;
  while (!name.empty() && name.back() == '_') name.pop_back();
  for (char& c : name) c = c == '_' ? ' ' : c;
  if (name != key) name += " (" + key + ")";
  const JsonDocument* raw = v.raw();
  if (!raw) return {name, "—"};
  auto one = [&](const JsonDocument& x) -> std::string {
    if (x.is_number()) {
      const double d = x.get<double>();
      if (figure) return figure->text(d);
      return x.is_number_integer() || x.is_number_unsigned() ? Count(d) : x.dump();
    }
    if (x.is_string()) return x.get<std::string>();
    return x.dump();
  };
  std::string s;
  if (raw->is_array()) {
    size_t n = 0;
    for (const JsonDocument& x : *raw) {
      if (n++ == 20) {
        s += ", … (" + Count(static_cast<double>(raw->size())) + " in all)";
        break;
      }
      s += (s.empty() ? "" : ", ") + one(x);
    }
  } else if (raw->is_object()) {
    for (const auto& [k, x] : raw->items()) s += (s.empty() ? "" : ", ") + k + " " + one(x);
  } else {
    s = one(*raw);
  }
  return {name, s};
}

HtmlSection WorkloadSection(const Run& run) {
  const Node& r = run.root;
  std::string body;
  // FCT slowdown per size bucket.
  HtmlTable slow({"flow size", "finished flows", "p50", "p95", "p99"});
  for (const Node& b : r["fct_slowdown"].Items()) {
    const bool any = b["flows"].Number() > 0;
    slow.AddRow({b["bucket"].String(), Count(b["flows"].Number()), any ? FormatFixed(b["p50"].Number(), 3) : "—",
                 any ? FormatFixed(b["p95"].Number(), 3) : "—", any ? FormatFixed(b["p99"].Number(), 3) : "—"});
  }
  if (slow.rows())
    body += "<h3>FCT slowdown</h3>\n" +
            HtmlParagraph("Flow completion time over the ideal (alone on an idle path), nearest-rank percentiles of the "
                          "finished flows.",
                          "note") +
            slow.Html();
  // The flows: the ones that did not finish, then the slowest.
  const std::vector<Node> flows = r["flows"].Items();
  if (!flows.empty()) {
    // The table's rows: each flow's place read once, and only the rows shown put in order (an
    // all-to-all has hundreds of thousands of flows). The index keeps the order of the summary
    // among equals.
    struct Place {
      bool finished;
      double slowdown;
      size_t index;
      bool operator<(const Place& o) const {
        if (finished != o.finished) return !finished;
        if (slowdown != o.slowdown) return slowdown > o.slowdown;
        return index < o.index;
      }
    };
    std::vector<Place> order;
    order.reserve(flows.size());
    for (size_t i = 0; i < flows.size(); ++i)
      order.push_back({flows[i]["state"].String() == "finished", flows[i]["slowdown"].Number(), i});
    const size_t shown = std::min(flows.size(), kTableRows);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end());
    HtmlTable t({"flow", "from → to", "priority", "size", "state", "start", "FCT", "ideal FCT", "slowdown", "goodput",
                 "delivered"});
    for (size_t i = 0; i < shown; ++i) {
      const Node& f = flows[order[i].index];
      const bool done = f["fct_ns"].present();
      t.AddRow({f["id"].Text(), f["src"].String() + " → " + f["dst"].String(), f["priority"].Text(), Bytes(f["bytes"].Number()),
                f["state"].String(), FormatTimeNs(f["start_ns"].Number()), done ? FormatTimeNs(f["fct_ns"].Number()) : "—",
                FormatTimeNs(f["ideal_fct_ns"].Number()), done ? FormatFixed(f["slowdown"].Number(), 3) : "—",
                done ? FormatFixed(f["goodput_gbps"].Number(), 2) + " Gb/s" : "—", Bytes(f["bytes_delivered"].Number())});
    }
    body += "<h3>Flows</h3>\n" +
            HtmlParagraph(flows.size() > kTableRows ? "The flows that did not finish, then the slowest finished ones."
                                                    : "The flows that did not finish, then the finished ones, slowest first.",
                          "note") +
            t.Html() + MoreRows(shown, flows.size(), "flows");
  }
  // The workload drivers: AllReduce, storage, and whatever else a summary carries.
  for (const Node& w : r["workloads"].Items()) {
    const std::string type = w["type"].present() ? w["type"].Text() : "workload";
    body += "<h3>" + HtmlEscape(type) + "</h3>\n";
    if (type == "allreduce" && w["busbw_GBps"].present())
      body += HtmlParagraph("Bus bandwidth " + FormatFixed(w["busbw_GBps"].Number(), 3) + " GB/s (" +
                            FormatFixed(w["busbw_gbps"].Number(), 2) + " Gb/s) over " + w["ranks"].Text() + " ranks, " +
                            w["iterations_done"].Text() + " of " + w["iterations"].Text() + " iterations done.");
    HtmlTable t({});
    for (const auto& [key, v] : w.Members())
      if (key != "type") t.AddRow(WorkloadRow(key, v));
    body += t.Html();
  }
  if (body.empty()) body = HtmlParagraph("No flows and no workloads.");
  return {"workloads", "Workload results", body};
}

// The summary, parsed; ConfigError for one that is not JSON, or not rocelab's.
JsonDocument ParseSummary(const std::string& text, const std::string& file) {
  JsonDocument doc = ParseJsonDocument(text, file, ThrowConfigError, "not a rocelab summary.json: ");
  if (!doc.is_object() || !(doc.contains("sim_time_ns") || doc.contains("hosts") || doc.contains("switches")))
    throw ConfigError(file, 0, "", "not a rocelab summary.json (no sim_time_ns, hosts or switches)");
  return doc;
}

// The sections, and the page's title and subtitle, from one reading of the summary (`doc`,
// parsed from in.summary_json).
// The run as the sections read it: its flows' ends, which switch each host hangs from, its pauses.
Run MakeRun(const Node& root) {
  Run run{root, std::max(0.0, root["sim_time_ns"].Number()), {}, {}, {}};
  for (const Node& f : root["flows"].Items())
    run.flows[static_cast<uint64_t>(std::max(0.0, f["id"].Number()))] = {f["src"].String(), f["dst"].String()};
  // A host hangs from the switch whose port names it as its peer.
  std::set<std::string> hosts;
  for (const auto& [name, h] : root["hosts"].Members()) hosts.insert(name);
  for (const auto& [sw, s] : root["switches"].Members())
    for (const auto& [port, p] : s["ports"].Members())
      if (p["peer"].present() && hosts.count(p["peer"].String())) run.host_switch.emplace(p["peer"].String(), sw);
  run.pauses = ReadPauses(root, run.host_switch);
  return run;
}

std::vector<HtmlSection> Build(const JsonDocument& doc, const RunReportInput& in, std::string* title,
                               std::string* subtitle) {
  const Node root(&doc, in.summary_file, "", ThrowConfigError);
  const Run run = MakeRun(root);
  std::unique_ptr<SeriesData> series;
  if (in.series) series = std::make_unique<SeriesData>(ReadSeries(*in.series, in.series_file, run.t_end_ns, in.limits));
  if (title) *title = "rocelab run: " + root["scenario"].Text();
  if (subtitle) *subtitle = "seed " + root["seed"].Text() + " · simulated " + FormatTimeNs(run.t_end_ns);
  return {RunSection(run, series.get()),
          FindingsSection(in),
          TopologySection(run),
          FaultsSection(run),
          SeriesSection(run, series.get(), in.limits),
          PauseSection(run, series.get()),
          EndOfRunSection(run),
          WorkloadSection(run)};
}

}  // namespace

std::vector<HtmlSection> RunReportSections(const RunReportInput& in) {
  return Build(ParseSummary(in.summary_json, in.summary_file), in, nullptr, nullptr);
}

namespace {

std::string Page(const JsonDocument& doc, const RunReportInput& in, const std::vector<HtmlSection>& more) {
  std::string title, subtitle;
  std::vector<HtmlSection> sections = Build(doc, in, &title, &subtitle);
  sections.insert(sections.end(), more.begin(), more.end());
  return HtmlDocument(title, subtitle, sections);
}

}  // namespace

std::string RunReportHtml(const RunReportInput& in, const std::vector<HtmlSection>& more) {
  return Page(ParseSummary(in.summary_json, in.summary_file), in, more);
}

namespace {

// DIR/series.csv, opened into `file` when the run wrote one (false: it has none).
bool OpenSeries(const std::string& dir, std::ifstream* series, std::string* file) {
  struct stat st;
  *file = dir + "/series.csv";
  if (::stat(file->c_str(), &st) != 0) return false;
  if (!S_ISREG(st.st_mode)) throw ConfigError(*file, 0, "", "not a regular file");
  series->open(*file, std::ios::binary);
  if (!*series) throw ConfigError(*file, 0, "", "cannot open the file");
  return true;
}

// One side of a comparison: its summary, the run read from it, its series if it has them.
struct Side {
  std::string name;  // "A" or "B"
  JsonDocument doc;
  std::unique_ptr<Node> root;
  std::unique_ptr<Run> run;
  std::unique_ptr<SeriesData> series;
};

void ReadSide(const std::string& dir, const SeriesLimits& limits, Side* side) {
  const std::string file = dir + "/summary.json";
  std::string text, err;
  if (!ReadTextFile(file, &text, &err)) throw ConfigError(file, 0, "", err);
  side->doc = ParseSummary(text, file);
  side->root = std::make_unique<Node>(&side->doc, file, "", ThrowConfigError);
  side->run = std::make_unique<Run>(MakeRun(*side->root));
  std::ifstream in;
  std::string series_file;
  if (OpenSeries(dir, &in, &series_file))
    side->series = std::make_unique<SeriesData>(ReadSeries(in, series_file, side->run->t_end_ns, limits));
}

const MetricTraces* MetricOf(const Side& side, const std::string& metric) {
  if (!side.series) return nullptr;
  for (const MetricTraces& mt : side.series->metrics)
    if (mt.metric == metric) return &mt;
  return nullptr;
}

// A and B on the same charts: per metric, the series of each with the highest peaks, B's solid
// and A's dashed, one element in one colour in both; each run's fault story as its marks.
HtmlSection OverlaySection(const Side& a, const Side& b, const SeriesLimits& limits) {
  if (!a.series && !b.series)
    return {"overlay", "A and B over time",
            HtmlParagraph("Neither run has time series (no telemetry section): add `telemetry: {interval: 10us}` to both "
                          "scenarios to see them on the same charts (docs/telemetry.md).",
                          "note")};
  std::string body;
  if (!a.series || !b.series)
    body += HtmlParagraph(std::string("Only run ") + (a.series ? "A" : "B") + " has time series: the other had no telemetry "
                          "section.", "note");
  const double t_end = std::max({a.run->t_end_ns, b.run->t_end_ns, a.series ? a.series->last_t_ns : 0.0,
                                 b.series ? b.series->last_t_ns : 0.0});
  std::vector<ChartMark> marks;
  for (const Side* side : {&a, &b})
    for (ChartMark m : FaultMarks(*side->run)) {
      m.title = side->name + ": " + m.title;
      marks.push_back(std::move(m));
    }
  for (const std::string& metric : SeriesMetricNames()) {
    const MetricTraces* ma = MetricOf(a, metric);
    const MetricTraces* mb = MetricOf(b, metric);
    if ((!ma || ma->top.empty()) && (!mb || mb->top.empty())) continue;
    if (metric == "pause_state") {
      SpanChart c;
      c.id = "overlay_pause_state";
      c.title = "Ports held paused, A and B";
      c.t_end_ns = t_end;
      for (const Side* side : {&a, &b})
        if (const MetricTraces* mt = side == &a ? ma : mb)
          for (const SeriesTrace& t : mt->top) {
            SpanRow row;
            row.name = side->name + " · " + Where(t.device, t.port, t.priority);
            row.span_class = side == &a ? "fault-span" : "span";
            for (ChartSpan sp : t.spans) {
              sp.title = row.name + " paused " + FormatTimeNs(sp.from_ns) + " to " + FormatTimeNs(sp.to_ns);
              row.spans.push_back(std::move(sp));
            }
            c.rows.push_back(std::move(row));
          }
      c.note = "A's ports in orange, B's in red: the port/priority pairs each run held paused longest.";
      body += SvgSpanChart(c);
      continue;
    }
    LineChart c;
    c.id = "overlay_" + metric;
    ApplyLook(metric, &c);
    c.t_end_ns = t_end;
    // B's lines first, each taking the next colour; A's line of the same element takes its colour.
    std::map<std::string, int> colour;
    int next = 0;
    const size_t each = std::max<size_t>(1, limits.lines / 2);
    for (const Side* side : {&b, &a}) {
      const MetricTraces* mt = side == &a ? ma : mb;
      if (!mt) continue;
      for (size_t i = 0; i < mt->top.size() && i < each; ++i) {
        const std::string name = LineName(*side->run, metric, mt->top[i]);
        const auto [it, fresh] = colour.emplace(name, next);
        if (fresh) ++next;
        ChartLine line{side->name + " · " + name, mt->top[i].points, it->second, side == &a};
        c.lines.push_back(std::move(line));
      }
    }
    c.marks = marks;
    c.note = "Each run's " + Count(static_cast<double>(each)) + " series with the highest peaks.";
    body += SvgLineChart(c);
  }
  const std::string key = "B's lines solid, A's dashed; one element (a queue, a port, a flow) keeps one colour in both. "
                          "Dashed vertical lines: a fault injected (orange), detected (blue), acted on (purple), recovered "
                          "(green); hover one for its time, its run and its text.";
  return {"overlay", "A and B over time", HtmlParagraph(key, "note") + body};
}

}  // namespace

std::string CompareReportOfFolders(const std::string& dir_a, const std::string& dir_b, const HtmlSection& comparison,
                                   const std::string& subtitle) {
  const SeriesLimits limits;
  Side a, b;
  a.name = "A";
  b.name = "B";
  ReadSide(dir_a, limits, &a);
  ReadSide(dir_b, limits, &b);
  return HtmlDocument("rocelab compare", subtitle, {comparison, OverlaySection(a, b, limits)});
}

std::string RunReportOfFolder(const std::string& dir, const std::vector<HtmlSection>& more) {
  RunReportInput in;
  in.summary_file = dir + "/summary.json";
  std::string err;
  if (!ReadTextFile(in.summary_file, &in.summary_json, &err)) throw ConfigError(in.summary_file, 0, "", err);
  std::ifstream series;
  if (OpenSeries(dir, &series, &in.series_file)) in.series = &series;
  // One parse serves the page and the diagnosis: a summary of a large run is tens of megabytes.
  const JsonDocument doc = ParseSummary(in.summary_json, in.summary_file);
  std::string().swap(in.summary_json);
  try {
    Evidence evidence;
    ReadSummaryJson(doc, in.summary_file, &evidence);
    in.findings = Diagnose(evidence);
  } catch (const std::exception& e) {
    in.findings_error = e.what();
  }
  // A finding names the file it read; without the folder, the page is the same wherever the run
  // was written.
  const std::string prefix = dir + "/";
  for (Diagnosis& d : in.findings)
    for (std::string* s : {&d.title, &d.location, &d.evidence, &d.action})
      for (size_t at; (at = s->find(prefix)) != std::string::npos;) s->erase(at, prefix.size());
  return Page(doc, in, more);
}

}  // namespace rocelab
