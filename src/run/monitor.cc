#include "run/monitor.h"

#include <algorithm>

#include "diagnose/diagnose.h"
#include "diagnose/parsers.h"
#include "report/summary.h"
#include "run/experiment.h"
#include "telemetry/sampler.h"
#include "sim/rng.h"

namespace rocelab {

namespace {

// `now - before`, counter by counter (a counter absent before counts from zero).
void Subtract(const CounterMap& before, CounterMap* now) {
  for (auto& [k, v] : *now) {
    auto it = before.find(k);
    if (it != before.end()) v -= it->second;
  }
}

}  // namespace

bool FabricRoutes::Feeds(const std::string& device, const std::string& port, const std::string& peer,
                         const std::string& peer_port) const {
  const Topology& topo = fabric_->topology();
  const int s = topo.FindNode(device), n = topo.FindNode(peer);
  if (s < 0 || n < 0 || !topo.nodes()[s].is_switch || !topo.nodes()[n].is_switch) return false;
  const int p = ResolvePort(topo, s, port), q = ResolvePort(topo, n, peer_port);
  if (p < 0 || q < 0 || topo.nodes()[s].ports[p].peer_node != n) return false;
  for (int h = 0; h < static_cast<int>(topo.hosts().size()); ++h)
    if (Routes(s, h, p) && Routes(n, h, q)) return true;
  return false;
}

bool FabricRoutes::Routes(int node, int host, int port) const {
  const Topology::Span hops = fabric_->topology().NextHops(node, host);
  if (std::find(hops.begin, hops.begin + hops.size, port) != hops.begin + hops.size) return true;
  auto it = heard_.find({node, host});
  return it != heard_.end() && std::find(it->second.begin(), it->second.end(), port) != it->second.end();
}

void FabricRoutes::Heard(int node, int host, const std::vector<uint16_t>& ports) {
  std::vector<uint16_t>& all = heard_[{node, host}];
  for (uint16_t p : ports)
    if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
}

Monitor::Monitor(Experiment* x)
    : x_(x),
      routes_(&x->fabric()),
      window_(ScaledTimer(x->fabric().scenario().monitor_interval, x->fabric().scenario().timer_scale)) {
  if (window_ < 1) window_ = 1;
  const Scenario& sc = x->fabric().scenario();
  phase_ = ScaledTimer(sc.monitor_phase, sc.timer_scale);
  // A collector whose clock nothing lines up with the run's: the first window ends anywhere in
  // the first interval, by the seed (its own stream, so the rest of the run draws as before).
  if (sc.monitor_phase_random) phase_ = 1 + static_cast<Time>(Rng(sc.seed, NameHash("monitor.phase")).Uniform() * static_cast<double>(window_ - 1));
  flap_window_ = ScaledTimer(static_cast<Time>(kFlapWindowSeconds * kSecond), sc.timer_scale);
  x_->fabric().mutable_topology().SetRouteObserver(
      [this](int node, int host, const std::vector<uint16_t>& ports) { routes_.Heard(node, host, ports); });
  // The counters as the devices' polls wrote them (run/counter_db.h), each host read at its own
  // moment in each window.
  const Scenario::Counterpoll& cp = sc.counterpoll;
  CounterDb::Periods periods;
  if (!cp.instant())
    periods = {std::max<Time>(1, ScaledTimer(cp.port, sc.timer_scale)), std::max<Time>(1, ScaledTimer(cp.queue, sc.timer_scale)),
               std::max<Time>(1, ScaledTimer(cp.watermark, sc.timer_scale)), window_};
  auto poll = [this](const std::string& device) {
    Evidence ev;
    ParseSummaryJson(DeviceCountersJson(*x_, device), "monitor", &ev);
    return ev;
  };
  db_ = std::make_unique<CounterDb>(poll, [this] { return x_->fabric().now(); }, periods,
                                    &x_->fabric().sampler(), sc.seed);
  prev_ = Snapshot();
  prev_t_ = x_->fabric().now();
  seen_polls_.resize(prev_.ports.size());
  ledgers_.resize(prev_.ports.size());
  for (size_t i = 0; i < prev_.ports.size(); ++i)
    for (int g = 0; g < kCounterGroups; ++g) seen_polls_[i][g] = db_->Latest(i, static_cast<CounterGroup>(g));
  x_->fabric().sampler().Every(window_, [this] { Window(); }, phase_);
}

Monitor::~Monitor() { x_->fabric().mutable_topology().SetRouteObserver(nullptr); }

Evidence Monitor::Snapshot() const {
  Evidence ev;
  ParseSummaryJson(SummaryJson(*x_, DeviceCounters::kAll), "monitor", &ev);
  return ev;
}

Time Monitor::QuietAfter(Time t, const std::vector<std::string>& devices) const {
  for (const auto& [end, named] : named_) {
    if (end <= t) continue;
    bool quiet = true;
    for (const std::string& d : devices) quiet = quiet && !named.count(d);
    if (quiet) return end;
  }
  return -1;
}

void Monitor::Window() {
  const Time now = x_->fabric().now();
  Evidence current = Snapshot();
  // The window's evidence: what changed since the last sample, over the time between them.
  Evidence w = current;
  w.origin = "monitor";
  w.windowed = true;
  w.routes = &routes_;
  w.interval_s = static_cast<double>(now - prev_t_) / kSecond;
  if (db_->instant()) db_->PollAll(current, now);
  for (size_t i = 0; i < w.ports.size() && i < seen_polls_.size(); ++i) {
    PortEvidence& p = w.ports[i];
    // Each group's counters over the polls the collector read: those since its last read, or,
    // where the device has not polled since, the last two polls (a stepped counter's rate); its
    // deltas are scaled to the window's span, so every rule reads one. A watermark is a level.
    // A group not polled since the collector began has no deltas yet (a rule reads none).
    CounterDb::Groups values, deltas;
    const CounterGroup own = p.is_switch ? CounterGroup::kPort : CounterGroup::kHost;
    double downs_now = 0;
    for (int g = 0; g < kCounterGroups; ++g) {
      const CounterGroup group = static_cast<CounterGroup>(g);
      const CounterPoll& latest = db_->Latest(i, group);
      CounterPoll& seen = seen_polls_[i][g];
      const CounterPoll& from = latest.t > seen.t ? seen : db_->Previous(i, group);
      values[g] = latest.values;
      deltas[g] = latest.values;
      if (from.t < 0 || from.t >= latest.t) {
        deltas[g].clear();  // not polled since the collector began: no reading yet, not zero
        if (group == own) p.span_s = -1;
        if (group == CounterGroup::kQueue) p.queue_span_s = -1;
      } else {
        Subtract(from.values, &deltas[g]);
        const double scale = group == CounterGroup::kWatermark
                                 ? 1.0
                                 : static_cast<double>(now - prev_t_) / static_cast<double>(latest.t - from.t);
        if (group == own) {
          p.read_s = static_cast<double>(latest.t) / kSecond;
          p.span_s = static_cast<double>(latest.t - from.t) / kSecond;
        } else if (group == CounterGroup::kQueue) {
          p.queue_read_s = static_cast<double>(latest.t) / kSecond;
          p.queue_span_s = static_cast<double>(latest.t - from.t) / kSecond;
        }
        if (&from == &seen && group == own)  // the link's downs count once, in the window that read them
          downs_now = LinkDownsOf(p.is_switch, deltas[g]);
        if (scale != 1.0)
          for (auto& [k, v] : deltas[g]) v *= scale;
      }
      seen = latest;
    }
    CounterDb::Join(values, deltas, &p);
    if (!db_->instant()) {
      const CounterPoll& own_poll = db_->Latest(i, own);
      std::vector<LinkPoll>& ledger = ledgers_[i];
      const double t_s = static_cast<double>(own_poll.t) / kSecond;
      if (own_poll.t >= 0 && (ledger.empty() || t_s > ledger.back().t_s)) {
        const LinkPoll poll = LinkPollOf(p.is_switch, own_poll.values, t_s);
        if (!ledger.empty() && (poll.downs != ledger.back().downs || poll.sent_frames < ledger.back().sent_frames ||
                                poll.got_frames < ledger.back().got_frames))
          ledger.clear();
        ledger.push_back(poll);
        if (ledger.size() > kLedgerPolls) ledger.erase(ledger.begin());
      }
      p.link_polls = ledger;
    }
    // The downs of the flap window: this window's and those of the windows that ended within it.
    std::deque<std::pair<Time, double>>& downs = downs_[p.device + ":" + p.port];
    if (downs_now > 0) downs.push_back({now, downs_now});
    while (!downs.empty() && downs.front().first <= now - flap_window_) downs.pop_front();
    p.downs_in_flap_window = 0;
    for (const auto& [t, n] : downs) p.downs_in_flap_window += n;
  }
  // The PFC watchdog's storms: those detected and restored in the window (a storm restored
  // long ago is history, not a finding of this window); its frame counts stay as `show pfcwd
  // stats` prints them, since the counters were cleared.
  for (WatchdogQueue& q : w.watchdog)
    for (const WatchdogQueue& before : prev_.watchdog)
      if (before.port == q.port && before.queue == q.queue) {
        q.storms_detected -= before.storms_detected;
        q.storms_restored -= before.storms_restored;
      }
  // Probes: what was judged in the window, path by path (a path not seen before counts whole;
  // the run-long extremes of its round trips stay as they are).
  auto key = [](const ProbePath& p) {
    std::string k = p.src + " " + p.dst;
    for (const std::string& h : p.hops) k += " " + h;
    return k;
  };
  std::map<std::string, const ProbePath*> before_probe;
  for (const ProbePath& p : prev_.probes) before_probe[key(p)] = &p;
  std::vector<ProbePath> judged;
  for (ProbePath p : w.probes) {
    auto it = before_probe.find(key(p));
    if (it != before_probe.end()) {
      p.judged -= it->second->judged;
      p.lost -= it->second->lost;
      p.rtt_sum_ns -= it->second->rtt_sum_ns;
      p.ce_marked -= it->second->ce_marked;
    }
    if (p.judged > 0) judged.push_back(std::move(p));
  }
  w.probes = std::move(judged);
  // A monitor sees devices, not applications.
  w.flows = w.flows_finished = w.flows_failed = 0;
  w.collectives.clear();
  w.perftest.clear();
  ++windows_;
  named_.push_back({now, {}});
  std::vector<Diagnosis> findings = Diagnose(w, /*merge_places=*/false);
  const auto found = std::find_if(findings.begin(), findings.end(), [](const Diagnosis& d) { return d.rule == "pfc.deadlock"; });
  std::optional<Diagnosis> cycle;
  if (found != findings.end()) cycle = *found;
  deadlock_windows_ = cycle ? deadlock_windows_ + 1 : 0;
  // A cycle held through one window whose queue the PFC watchdog then found stormed (paused
  // without sending for its detection time, longer than a window) is one the watchdog broke
  // before a second window could show it: the watchdog is the second witness.
  if (!cycle && last_cycle_) {
    const bool broken = std::any_of(findings.begin(), findings.end(), [&](const Diagnosis& d) {
      return d.rule == "pfc.watchdog_storm" &&
             (" " + last_cycle_->location + " ").find(" " + LocationDevice(d.location) + " ") != std::string::npos;
    });
    if (broken) {
      findings.push_back(*last_cycle_);
      deadlock_windows_ = kDeadlockWindows;
    }
  }
  last_cycle_ = cycle;
  // What recovery has done so far: a finding its actions caused is labelled theirs.
  w.faults = x_->RecoveryAccount();
  const std::vector<std::string> causes =
      w.faults.empty() ? std::vector<std::string>(findings.size()) : CausedByRecovery(findings, w);
  for (size_t i = 0; i < findings.size(); ++i) {
    const Diagnosis& d = findings[i];
    if (d.tier.empty() || (d.severity == Severity::kInfo && d.tier != "T1") || d.layer == "application" ||
        d.layer == "evidence")
      continue;
    if (d.rule == "pfc.deadlock" && deadlock_windows_ < kDeadlockWindows) continue;
    const std::string device = LocationDevice(d.location);
    const std::string caused_by = d.tier != "T1" ? causes[i] : std::string();
    if (d.tier != "T1" && caused_by.empty() && !expected_.count({d.rule, device})) named_.back().second.insert(device);
    auto [it, fresh] = seen_.try_emplace(std::make_pair(d.rule, d.location), windows_);
    const bool quiet_before = fresh || windows_ - it->second > kQuiet;
    it->second = windows_;
    if (!quiet_before) continue;
    detections_.push_back({now, d.rule, d.location, d.title, d.tier, caused_by});
    const Detection& det = detections_.back();
    const char* event = !caused_by.empty() ? "recovery_effect" : det.fault() ? "detected" : "congestion";
    x_->fabric().timeline().Add(now, "monitor", "", -1, event,
                                MonitorDetail({d.tier, d.rule, d.location, caused_by.empty() ? d.title : d.title + "; " + caused_by}));
    if (on_detection_ && caused_by.empty()) on_detection_(det);
  }
  if (on_window_) on_window_(w);
  prev_ = std::move(current);
  prev_t_ = now;
}

}  // namespace rocelab
