#include "run/recovery.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "run/experiment.h"
#include "run/rollback.h"
#include "telemetry/counter_names.h"
#include "topo/naming.h"
#include "util/units.h"

namespace rocelab {
namespace {

// Frames dropped for a stuck host in one window, as a share of the MTU frames its link carries in
// one, past which its senders are flooding the fabric and the host is isolated (a judgement: a
// few frames in flight at the action are not a flood; line-rate senders are ten times this).
constexpr double kIsolateShare = 0.1;

// The share of their line rate a link's ECMP siblings may be asked to carry once it is shut: what
// it and they carried in the last window, over their capacity. ECMP hashes flows, not bytes, so
// siblings at this load already collide; past it, shutting a link that still carries costs more
// than the frames it loses (a judgement in the spirit of CorrOpt's capacity constraint, which
// keeps a share of each ToR's uplinks in service: Zhuo et al., SIGCOMM 2017).
constexpr double kSiblingShare = 0.75;

// A link that loses this share of its frames or more is shut whatever its siblings carry: go-back-N
// flows over it lose more than a crowded sibling costs them (measured on scenarios/faults, seeds
// 1..8: a leaf uplink losing 2 % of its frames under a ring that fills the uplinks cost 2.9 ms
// kept and 3.1 ms shut; losing 12 %, 8.9 ms kept and 4.0 ms shut).
constexpr double kSevereLoss = 0.05;

// Frames a switch port dropped in drop mode, both ways, every priority.
uint64_t StormDrops(const Switch& sw, int port) {
  uint64_t n = 0;
  for (int prio = 0; prio < kNumPriorities; ++prio) n += sw.storm_tx_drops(port, prio) + sw.storm_rx_drops(port, prio);
  return n;
}

// The PFC watchdog's actions on `port`'s lossless priorities, begun (`on`) or ended: its peer's
// pause ignored and, with `drop`, what goes to or comes from the port on them dropped.
void WatchdogAction(Switch& sw, int port, bool on, bool drop) {
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    if (!(sw.pfc_mask() & (1u << prio))) continue;
    sw.SetPauseIgnored(port, prio, on);
    if (drop) sw.SetStormDrop(port, prio, on);
  }
}

// "leaf1 -> spine0 -> leaf1" (a deadlock's location) -> {leaf1, spine0, leaf1}.
std::vector<std::string> CycleDevices(const std::string& loop) {
  std::vector<std::string> out;
  for (size_t a = 0; a <= loop.size();) {
    const size_t b = std::min(loop.find(" -> ", a), loop.size());
    out.push_back(loop.substr(a, b - a));
    a = b + 4;
  }
  return out;
}

}  // namespace

// Whether every host still reaches every other over the links that are up, `node`:`port`'s
// link left out: an automation that isolates a link must not partition the fabric.
bool Recovery::StillConnectedWithout(int node, int port) const {
  Fabric& f = x_->fabric();
  const Topology& topo = f.topology();
  const auto& nodes = topo.nodes();
  const TopoPort& cut = nodes[node].ports[port];
  std::vector<char> seen(nodes.size(), 0);
  std::vector<int> stack{topo.hosts().front()};
  seen[stack.back()] = 1;
  size_t hosts = 1;
  while (!stack.empty()) {
    const int x = stack.back();
    stack.pop_back();
    if (!nodes[x].is_switch && x != topo.hosts().front()) continue;  // hosts do not forward
    for (size_t p = 0; p < nodes[x].ports.size(); ++p) {
      const TopoPort& tp = nodes[x].ports[p];
      if ((x == node && static_cast<int>(p) == port) || (tp.peer_node == node && tp.peer_port == port) ||
          (x == cut.peer_node && static_cast<int>(p) == cut.peer_port))
        continue;
      if (!f.device(x).Carrier(static_cast<int>(p)) || seen[tp.peer_node]) continue;
      seen[tp.peer_node] = 1;
      if (!nodes[tp.peer_node].is_switch) ++hosts;
      stack.push_back(tp.peer_node);
    }
  }
  return hosts == topo.hosts().size();
}

void Recovery::Act(const std::string& tier, const std::string& kind, const std::string& rule, const std::string& what,
                   std::vector<std::string> devices, const std::string& port) {
  Fabric& f = x_->fabric();
  f.timeline().Add(f.now(), devices.front(), port, -1, "recovery_action", tier + " " + what);
  actions_.push_back({f.now(), tier, what, std::move(devices), kind, rule, port});
}

namespace {

// What a switch port sent and received since the run began.
Recovery::PortTally Tally(const Fabric& f, int node, int port) {
  const PortCounters c = static_cast<const Switch&>(f.device(node)).port_counters(port);
  return {c.Sent().bytes, c.Received().bytes, c.Sent().packets, c.Received().packets, c.crc_errors};
}

}  // namespace

void Recovery::NoteTallies() {
  Fabric& f = x_->fabric();
  const Topology& topo = f.topology();
  std::vector<std::vector<PortTally>> now(topo.nodes().size());
  for (int node : topo.switches())
    for (int p = 0; p < f.device(node).num_ports(); ++p) now[node].push_back(Tally(f, node, p));
  tallies_ = std::move(now);
  tallies_at_ = f.now();
}

Recovery::PortTally Recovery::Since(int node, int port) const {
  PortTally t = Tally(x_->fabric(), node, port);
  if (!tallies_.empty()) {
    const PortTally& b = tallies_[node][port];
    t = {t.tx - b.tx, t.rx - b.rx, t.tx_frames - b.tx_frames, t.rx_frames - b.rx_frames, t.crc_errors - b.crc_errors};
  }
  return t;
}

double Recovery::LossShare(int node, int port) const {
  const Topology& topo = x_->fabric().topology();
  const TopoPort& tp = topo.nodes()[node].ports[port];
  if (!topo.nodes()[tp.peer_node].is_switch || !topo.nodes()[node].is_switch) return 0;
  const PortTally a = Since(node, port), b = Since(tp.peer_node, tp.peer_port);
  auto lost = [](const PortTally& from, const PortTally& to) {
    const uint64_t whole = to.rx_frames - std::min(to.rx_frames, to.crc_errors);
    return from.tx_frames > whole ? static_cast<double>(from.tx_frames - whole) / static_cast<double>(from.tx_frames) : 0.0;
  };
  return std::max(lost(a, b), lost(b, a));
}

std::string Recovery::KeepInService(int node, int port) const {
  Fabric& f = x_->fabric();
  const Topology& topo = f.topology();
  const Time window = f.now() - tallies_at_;
  const double loss = LossShare(node, port);
  if (window <= 0 || loss >= kSevereLoss) return "";
  const int hosts = static_cast<int>(topo.hosts().size());
  // Each end in turn: its siblings are the ports that share an ECMP group with the link's port
  // (a leaf's other uplinks); an end with none (a spine's one link to a leaf) has no say.
  const TopoPort& tp = topo.nodes()[node].ports[port];
  for (const auto& [n, p] : {std::pair<int, int>{node, port}, std::pair<int, int>{tp.peer_node, tp.peer_port}}) {
    if (!topo.nodes()[n].is_switch) continue;
    std::set<int> siblings;
    for (int h = 0; h < hosts; ++h) {
      const Topology::Span hops = topo.NextHops(n, h);
      if (std::find(hops.begin, hops.begin + hops.size, p) == hops.begin + hops.size) continue;
      for (size_t i = 0; i < hops.size; ++i)
        if (hops.begin[i] != p && f.device(n).Carrier(hops.begin[i])) siblings.insert(hops.begin[i]);
    }
    if (siblings.empty()) continue;
    PortTally load = Since(n, p);
    double capacity = 0;
    for (int q : siblings) {
      const PortTally t = Since(n, q);
      load.tx += t.tx;
      load.rx += t.rx;
      capacity += static_cast<double>(f.device(n).port(q).rate_bps) / 8 * (static_cast<double>(window) / kSecond);
    }
    const double share = static_cast<double>(std::max(load.tx, load.rx)) / capacity;
    if (share > kSiblingShare) {
      char lost[32];
      std::snprintf(lost, sizeof lost, "%.1f", 100 * loss);
      return std::string("it loses ") + lost + " % of its frames, and its " + std::to_string(siblings.size()) +
             " ECMP sibling" + (siblings.size() > 1 ? "s" : "") + " at " + topo.nodes()[n].name +
             " would have to carry " + std::to_string(std::lround(100 * share)) +
             " % of their line rate (what it and they carried in the last " + FormatTime(window) + ")";
    }
  }
  return "";
}

// A kept link is one link, whichever end it was named by.
bool Recovery::SameLink(const Kept& k, int node, int port) const {
  const TopoPort& tp = x_->fabric().topology().nodes()[node].ports[port];
  return (k.node == node && k.port == port) || (k.node == tp.peer_node && k.port == tp.peer_port);
}

bool Recovery::IsKept(int node, int port) const {
  return std::any_of(kept_.begin(), kept_.end(), [&](const Kept& k) { return SameLink(k, node, port); });
}

void Recovery::ForgetKept(int node, int port) {
  kept_.erase(std::remove_if(kept_.begin(), kept_.end(), [&](const Kept& k) { return SameLink(k, node, port); }), kept_.end());
}

void Recovery::ShutLink(const Monitor::Detection& d, const std::string& why, bool capacity, bool again) {
  Fabric& f = x_->fabric();
  const Topology& topo = f.topology();
  // "leaf0:Ethernet16 facing spine0", or a host "h3 (mlx5_0/eth0)" (its one link).
  const std::string device = LocationDevice(d.location);
  const int node = topo.FindNode(device);
  if (node < 0) return;
  int port = 0;
  if (topo.nodes()[node].is_switch) {
    const size_t colon = d.location.find(':'), space = d.location.find(' ');
    if (colon == std::string::npos) return;
    port = ResolvePort(topo, node, d.location.substr(0, space));
    if (port < 0) return;
  }
  const int peer = topo.nodes()[node].ports[port].peer_node;
  const std::string link = LinkName(device, topo.nodes()[peer].name);
  // One link, whichever end the finding named.
  const std::string key = device < topo.nodes()[peer].name ? link : LinkName(topo.nodes()[peer].name, device);
  if (!done_.insert(key).second) return;
  if (!StillConnectedWithout(node, port)) {
    f.timeline().Add(f.now(), device, TimelinePortName(topo, node, port), -1, "recovery_skipped",
                     d.tier + " shut link " + link + " not taken: hosts would be cut off from each other (" + why + ")");
    return;
  }
  if (const std::string over = capacity && f.device(node).Carrier(port) ? KeepInService(node, port) : "";
      !over.empty()) {
    done_.erase(key);  // reconsidered every window (OnWindow)
    if (again || IsKept(node, port)) return;
    kept_.push_back({d, why, node, port});
    f.timeline().Add(f.now(), device, TimelinePortName(topo, node, port), -1, "recovery_skipped",
                     d.tier + " shut link " + link + " not taken: " + over +
                         "; it stays in service for repair, reconsidered every window (" + why + ")");
    return;
  }
  if (again) ForgetKept(node, port);
  Act(d.tier, "shut_link", d.rule,
      "shut link " + link + ": " + why + (again ? " (kept in service before; its siblings can take its load now)" : "") +
          "; the fabric routes around it",
      {device, topo.nodes()[peer].name}, TimelinePortName(topo, node, port));
  f.HoldLinkDown(node, port);
}

// The link of host `host` (its one port: the switch port at its other end is peer_node and
// peer_port), the first time an action under `key` asks for it; nullptr if `host` is no host.
const TopoPort* Recovery::HostSwitchPort(const std::string& host, const std::string& key) {
  const Topology& topo = x_->fabric().topology();
  const int node = topo.FindNode(host);
  if (node < 0 || topo.nodes()[node].is_switch || !done_.insert(key + host).second) return nullptr;
  return &topo.nodes()[node].ports[0];
}

// The switch port facing the host ignores its pause on every lossless priority, as the PFC
// watchdog does once it declares a storm, so the congestion tree the pause holds dissolves. A
// storming host drains nothing: its traffic is dropped at the switch (the drop action, before
// any buffer is charged, so no queue builds for it there). A slow receiver still drains: its
// traffic goes on (the forward action) and what it cannot take its NIC discards.
void Recovery::IgnorePause(const Monitor::Detection& d, bool drop) {
  const std::string host = LocationDevice(d.location);
  // Read first as a slow receiver (at a production scrape a window can mix the storm with what the
  // host took in before it), then as a storm: it drains nothing, so what goes to it is dropped at
  // its port, and counted, where it could otherwise only be dropped at its NIC; isolation follows
  // if its senders go on (OnWindow).
  for (Ignored& ig : ignored_) {
    if (ig.host != host) continue;
    if (drop && !ig.drop && !ig.isolated) {
      Switch& sw = static_cast<Switch&>(x_->fabric().device(ig.sw));
      WatchdogAction(sw, ig.port, true, true);
      ig.drop = true;
      ig.dropped_before = ig.dropped_seen = StormDrops(sw, ig.port);
      Act(d.tier, "ignore_pause_drop", d.rule,
          "drop what goes to " + host + " at " + sw.name() + ":" + SwitchPortAlias(ig.port) + " (" + d.rule +
              "): it drains nothing, it is not slow; counted",
          {sw.name(), host}, SwitchPortAlias(ig.port));
    }
    return;
  }
  const TopoPort* facing = HostSwitchPort(host, "pause@");
  if (!facing) return;
  const TopoPort& tp = *facing;
  Switch& sw = static_cast<Switch&>(x_->fabric().device(tp.peer_node));
  WatchdogAction(sw, tp.peer_port, true, drop);
  const uint64_t drops = StormDrops(sw, tp.peer_port);
  ignored_.push_back({tp.peer_node, tp.peer_port, host, drop, drops, drops});
  ignored_.back().since = x_->fabric().now();
  // The host stays broken: its own pausing and the frames its NIC discards are what was meant.
  for (const char* rule : {"pfc.pause_storm", "pfc.slow_receiver", "drop.lossless_nic", "transport.sequence_errors"})
    monitor_->Expect(rule, host);
  const std::string where = sw.name() + ":" + SwitchPortAlias(tp.peer_port);
  Act(d.tier, drop ? "ignore_pause_drop" : "ignore_pause_forward", d.rule,
      "ignore " + host + "'s pause at " + where + " (" + d.rule + "): its pause no longer spreads; " +
          (drop ? "what goes to it is dropped there (the PFC watchdog's drop action), counted"
                : "what it cannot take is dropped at its NIC (the PFC watchdog's forward action), counted"),
      {sw.name(), host}, SwitchPortAlias(tp.peer_port));
}

// The stuck host's link shut and held down: its switch port and its NIC go dark, the switch
// withdraws the host's route, and once the others' routes converge what its senders still send
// is dropped at their first hop instead of crossing the fabric's uplinks.
void Recovery::IsolateHost(Ignored* ig, const std::string& rule, const std::string& why) {
  Fabric& f = x_->fabric();
  const Topology& topo = f.topology();
  const int node = topo.FindNode(ig->host);
  if (node < 0 || !done_.insert("isolate@" + ig->host).second) return;
  ig->isolated = true;
  const std::string sw = topo.nodes()[ig->sw].name;
  done_.insert(LinkName(sw, ig->host));  // the link is shut: a flap detection there asks nothing more
  done_.insert(LinkName(ig->host, sw));
  // The shut's flap at both ends is the action's, not a new fault.
  for (const std::string& dev : {ig->host, sw}) monitor_->Expect("physical.link_down", dev);
  Act("T3", "isolate_host", rule,
      "isolate " + ig->host + ": shut its link " + LinkName(sw, ig->host) + " and withdraw its route (" + why +
          "); the other switches drop what is sent to it at their first hop",
      {sw, ig->host}, SwitchPortAlias(ig->port));
  f.HoldLinkDown(node, 0);
}

uint64_t Recovery::LostInWindow(Ignored* ig, const Evidence& w) {
  if (ig->drop) {
    const uint64_t drops = StormDrops(static_cast<Switch&>(x_->fabric().device(ig->sw)), ig->port);
    const uint64_t in_window = drops - ig->dropped_seen;
    ig->dropped_seen = drops;
    return in_window;
  }
  // Forwarded only from this window's end: what its NIC discarded in it was under its pause.
  if (ig->since == x_->fabric().now()) return 0;
  for (const PortEvidence& p : w.ports) {
    if (p.is_switch || p.device != ig->host) continue;
    auto c = p.deltas.find(kRxDiscardsPhy.name);
    return c == p.deltas.end() || c->second < 0 ? 0 : static_cast<uint64_t>(c->second);
  }
  return 0;
}

// The queue feeding a slow receiver marks ECN at a quarter of the depth its profile does: DCQCN
// holds the receiver's senders near what it drains before that queue holds enough to pause the
// ports that feed it, so its pause stays at its own port. (A re-tune, not a computed optimum.)
void Recovery::RetuneEcnFacing(const Monitor::Detection& d) {
  const std::string host = LocationDevice(d.location);
  const TopoPort* facing = HostSwitchPort(host, "retune@");
  if (!facing) return;
  const TopoPort& tp = *facing;
  Switch& sw = static_cast<Switch&>(x_->fabric().device(tp.peer_node));
  EcnSpec e = sw.port_ecn(tp.peer_port);
  if (!e.enabled) return;  // ECN off is drift of its own (ecn.off)
  e.kmin = std::max<uint64_t>(e.kmin / 4, 4 * 1024);
  e.kmax = std::max(e.kmax / 4, e.kmin);
  sw.SetPortEcn(tp.peer_port, e);
  monitor_->Expect(d.rule, host);  // the host stays slow: only its owner can fix it
  Act(d.tier, "retune_ecn", d.rule,
      "re-tune ECN on " + sw.name() + ":" + SwitchPortAlias(tp.peer_port) + ", the queue feeding " + host + " (" + d.rule +
          "): kmin " + std::to_string(e.kmin) + " B, kmax " + std::to_string(e.kmax) +
          " B, so its senders slow to what it drains before its pause spreads",
      {sw.name(), host}, SwitchPortAlias(tp.peer_port));
}

// One queue of the cycle drained for one window (the PFC watchdog's drop action), and the
// routes that made lossless traffic turn back rolled back: the deadlock cannot re-form.
void Recovery::BreakDeadlock(const Monitor::Detection& d) {
  Fabric& f = x_->fabric();
  const Topology& topo = f.topology();
  const std::vector<std::string> cycle = CycleDevices(d.location);
  std::vector<int> nodes;
  for (const std::string& n : cycle) nodes.push_back(topo.FindNode(n));
  if (nodes.size() < 2 || nodes[0] < 0 || nodes[1] < 0 || !done_.insert("deadlock@" + cycle[0]).second) return;
  std::vector<std::string> devices(cycle.begin(), cycle.end() - 1);
  RollBackRoutes(d, d.rule);
  const int port = ResolvePort(topo, nodes[0], cycle[1]);
  if (port < 0) return;
  Switch& sw = static_cast<Switch&>(f.device(nodes[0]));
  drained_.push_back({nodes[0], port, f.now(), StormDrops(sw, port)});
  WatchdogAction(sw, port, true, true);
  Act("T3", "drain_queue", d.rule,
      "break the deadlock " + d.location + ": drain " + cycle[0] + ":" + SwitchPortAlias(port) +
          "'s lossless queues for one window (the PFC watchdog's drop action; its drops counted)",
      devices, SwitchPortAlias(port));
}

// A PFC watchdog storm on a port between two switches: no host pauses there, so the pause came round
// a cycle, a deadlock the watchdog broke before the monitor saw it hold (at a scrape of a second the
// watchdog's 200 ms always comes first). The cycle re-forms while the routes that made lossless
// traffic turn back stay: they are rolled back, as the deadlock's own action does. Nothing else is
// done where there are none (a host's storm spreading upstream trips watchdogs between switches too).
void Recovery::RollBackLoopRoutes(const Monitor::Detection& d) {
  const Topology& topo = x_->fabric().topology();
  const std::string device = LocationDevice(d.location);
  const int node = topo.FindNode(device);
  const size_t priority = d.location.rfind(':');  // "spine0:Ethernet4:3"
  if (node < 0 || !topo.nodes()[node].is_switch || priority == std::string::npos) return;
  const int port = ResolvePort(topo, node, d.location.substr(0, priority));
  if (port < 0 || !topo.nodes()[topo.nodes()[node].ports[port].peer_node].is_switch) return;
  RollBackRoutes(d, d.rule + " at " + d.location + ", between two switches: the sign of a deadlock");
}

// Static routes that no configuration asks for (the scenario's `routes`), on every switch: a
// loop may run through switches the deadlock's cycle does not show. One action, if any changed.
void Recovery::RollBackRoutes(const Monitor::Detection& d, const std::string& why) {
  Fabric& f = x_->fabric();
  std::vector<std::string> changed;
  std::string on;
  for (int node : f.topology().switches())
    if (RollBackStaticRoutes(f, node)) {
      changed.push_back(f.topology().nodes()[node].name);
      on += (on.empty() ? "" : ", ") + changed.back();
    }
  if (!changed.empty())
    Act("T3", "rollback_routes", d.rule, "roll back the static routes no configuration asks for, on " + on + " (" + why + ")", changed, "");
}

void Recovery::OnDetection(const Monitor::Detection& d) {
  if (!d.fault()) return;  // congestion control is handling it
  Fabric& f = x_->fabric();
  const std::string device = LocationDevice(d.location);
  if (d.rule == "network.gray_drop") return ShutLink(d, "frames vanish on it", true);
  if (d.rule == "network.probe_loss") return ShutLink(d, "probes through it are lost", false);
  if (d.rule == "physical.crc_errors") return ShutLink(d, "frames lost to bit errors", true);
  if (d.rule == "physical.link_flap") return ShutLink(d, "it flaps; held down until someone tests it (errdisable)", true);
  if (d.rule == "physical.hi_ber") return ShutLink(d, "errors past FEC take it down, and will again once it is back", true);
  // A link down is out of the fabric already: the switches route around it on their own, and it
  // rejoins when it comes back up. Only a flap (downs counted over the flap window) is shut.
  if (d.rule == "physical.link_down") return;
  if (d.rule == "pfc.deadlock") return BreakDeadlock(d);
  if (d.rule == "pfc.watchdog_storm") return RollBackLoopRoutes(d);
  const int node = f.topology().FindNode(device);
  if (node < 0) return;
  const bool is_switch = f.topology().nodes()[node].is_switch;
  if (d.rule == "pfc.pause_storm") return IgnorePause(d, /*drop=*/true);
  if (d.rule == "pfc.slow_receiver") return RetuneEcnFacing(d);
  // A slow receiver's pause that spreads even so: up the ladder, its pause is ignored as a storm's.
  if (d.rule == "pfc.congestion_tree" && !is_switch && done_.count("retune@" + device)) return IgnorePause(d, false);
  const bool ecn = d.rule == "ecn.off" || d.rule == "ecn.turned_off" || d.rule == "ecn.pfc_without_ecn" ||
                   (d.rule == "pfc.congestion_tree" && is_switch);
  const std::map<std::string, bool (*)(Fabric&, int)> rollbacks = {
      {"qos.roce_in_lossy_queue", &RollBackQos}, {"pfc.off_on_hop", &RollBackQos},
      {"link.mtu_oversize", &RollBackMtu}, {"drop.lossless_pg_headroom", &RollBackHeadroom}};
  std::string what, kind;
  if (ecn && is_switch) {
    if (!done_.insert("ecn@" + device).second || !RollBackEcn(f, node)) return;
    kind = d.tier == "T2" ? "retune_ecn" : "rollback_ecn";
    what = d.tier == "T2" ? "re-tune ECN on " + device + " to its configured profile: its queues mark before PFC fires"
                          : "roll back ECN on " + device + " to its configured profile";
  } else if (auto it = rollbacks.find(d.rule); it != rollbacks.end() && (is_switch || d.rule == "link.mtu_oversize")) {
    if (!done_.insert(d.rule + "@" + device).second || !it->second(f, node)) return;
    kind = d.rule == "link.mtu_oversize" ? "rollback_mtu" : d.rule == "drop.lossless_pg_headroom" ? "rollback_headroom" : "rollback_qos";
    what = d.rule == "link.mtu_oversize"          ? "roll back the MTU of " + device + " to its configured one"
           : d.rule == "drop.lossless_pg_headroom" ? "roll back the headroom of " + device + " to its configured profile"
                                                   : "roll back the classification and PFC priorities of " + device;
  } else if (d.rule == "cc.cnp_ignored" && !is_switch) {
    if (!done_.insert(d.rule + "@" + device).second || static_cast<Nic&>(f.device(node)).reaction_point()) return;
    static_cast<Nic&>(f.device(node)).SetReactionPoint(true);
    kind = "restore_reaction_point";
    what = "re-enable the DCQCN reaction point of " + device;
  } else {
    return;
  }
  Act(d.tier, kind, d.rule, what + " (" + d.rule + ")", {device}, "");
}

void Recovery::OnWindow(const Evidence& w) {
  Fabric& f = x_->fabric();
  const Topology& topo = f.topology();
  // Lossy links kept in service: shut once their siblings can take their load; forgotten once
  // they carry frames and lose none.
  for (const Kept& k : std::vector<Kept>(kept_)) {
    const TopoPort& tp = topo.nodes()[k.node].ports[k.port];
    const bool carried = Since(k.node, k.port).tx_frames + Since(tp.peer_node, tp.peer_port).tx_frames > 0;
    if (LossShare(k.node, k.port) > 0) {
      ShutLink(k.d, k.why, true, /*again=*/true);
    } else if (carried) {
      ForgetKept(k.node, k.port);
    }
  }
  // A queue drained to break a deadlock: one window is enough.
  for (auto it = drained_.begin(); it != drained_.end();) {
    if (it->since == f.now()) {  // drained at this window's end: the next one ends it
      ++it;
      continue;
    }
    Switch& sw = static_cast<Switch&>(f.device(it->sw));
    WatchdogAction(sw, it->port, false, true);
    const std::string name = topo.nodes()[it->sw].name;
    Act("T3", "stop_draining", "",
        "stop draining " + name + ":" + SwitchPortAlias(it->port) + ": the cycle is broken (" +
            std::to_string(StormDrops(sw, it->port) - it->dropped_before) + " frames dropped)",
        {name}, SwitchPortAlias(it->port));
    done_.erase("deadlock@" + name);
    it = drained_.erase(it);
  }
  // A host whose pause is ignored and whose senders go on sending what it cannot take: isolated
  // (recovery.h). A storm's frames are dropped at its switch port (`show pfcwd stats` counts
  // them); a slow receiver's, forwarded, are discarded at its NIC (`rx_discards_phy`). A tenth of
  // the link's MTU frames in a window is traffic the senders would not send if CNPs reached them.
  const Time window = monitor_->window();
  for (Ignored& ig : ignored_) {
    if (ig.isolated || ig.isolation_due) continue;
    const uint64_t in_window = LostInWindow(&ig, w);
    const Switch& sw = static_cast<const Switch&>(f.device(ig.sw));
    const NicSpec& nic = NicSpecFor(f.scenario(), ig.host);
    const double frames = static_cast<double>(sw.port(ig.port).rate_bps) * static_cast<double>(window) / kSecond / 8 /
                          (nic.mtu + kRoceHeaders + kWireOverhead);
    if (static_cast<double>(in_window) <= kIsolateShare * frames) continue;
    const std::string rule = ig.drop ? "pfc.pause_storm" : "pfc.slow_receiver";
    const std::string why =
        ig.drop ? std::to_string(in_window) + " frames for it dropped at " + sw.name() + ":" + SwitchPortAlias(ig.port) +
                      " in the last " + FormatTime(window) + ": its senders get no CNPs and go on at line rate"
                : std::to_string(in_window) + " frames for it discarded at its NIC (" + kRxDiscardsPhy.name + ") in the last " +
                      FormatTime(window) + ": with its pause ignored no queue marks for it, so its senders get no CNPs and " +
                      "are not slowed to what it takes in";
    if (!defer_) {
      IsolateHost(&ig, rule, why);
      continue;
    }
    // A runbook's operator isolates the host when the ticket comes due, unless its pause has been
    // honoured again by then (the storm over: the entry gone) or it is isolated already.
    ig.isolation_due = true;
    const Monitor::Detection d{f.now(), rule, ig.host + " (mlx5_0/eth0)", why + "; isolate it", "T3", ""};
    defer_(d, [this, host = ig.host, rule, why] {
      for (Ignored& due : ignored_)
        if (due.host == host && !due.isolated) IsolateHost(&due, rule, why);
    });
  }
  // A host whose pause was ignored and that paused nothing in the whole window: honoured again.
  for (auto it = ignored_.begin(); it != ignored_.end();) {
    if (it->isolated) {
      ++it;
      continue;
    }
    const PortEvidence* host = nullptr;
    for (const PortEvidence& p : w.ports)
      if (!p.is_switch && p.device == it->host) host = &p;
    double paused = 1;
    if (host) {
      paused = 0;
      for (int prio = 0; prio < kNumPriorities; ++prio) {
        auto c = host->deltas.find(kTxPrioPauseDuration.Name(prio));
        if (c != host->deltas.end()) paused += c->second;
      }
    }
    if (paused > 0) {
      ++it;
      continue;
    }
    Switch& sw = static_cast<Switch&>(f.device(it->sw));
    WatchdogAction(sw, it->port, false, it->drop);
    const std::string where = sw.name() + ":" + SwitchPortAlias(it->port);
    Act("T2", "honour_pause", "",
        "honour " + it->host + "'s pause again at " + where + ": it paused nothing for a window" +
            (it->drop ? " (" + std::to_string(StormDrops(sw, it->port) - it->dropped_before) + " frames dropped meanwhile)"
                      : ""),
        {sw.name(), it->host}, SwitchPortAlias(it->port));
    done_.erase("pause@" + it->host);
    it = ignored_.erase(it);
  }
  NoteTallies();
}

std::string Recovery::ActionTier(const Monitor::Detection& d) {
  static const char* const kActedOn[] = {
      "network.gray_drop",  "network.probe_loss", "physical.crc_errors",       "physical.link_flap", "physical.hi_ber",
      "pfc.deadlock",
      "pfc.pause_storm",    "pfc.slow_receiver",         "pfc.congestion_tree", "ecn.off",
      "ecn.turned_off",     "ecn.pfc_without_ecn",       "qos.roce_in_lossy_queue", "pfc.off_on_hop",
      "link.mtu_oversize",  "drop.lossless_pg_headroom", "cc.cnp_ignored"};
  if (!d.fault()) return "";
  for (const char* r : kActedOn)
    if (d.rule == r) return d.tier;
  return "";
}

}  // namespace rocelab
