#include "lab/lab_session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "diagnose/diagnose.h"
#include "diagnose/parsers.h"
#include "lab/device_views.h"
#include "net/nic.h"
#include "net/pfc_watchdog.h"
#include "report/html_page.h"
#include "net/switch.h"
#include "report/summary.h"
#include "run/cost.h"
#include "telemetry/counter_names.h"
#include "run/rollback.h"
#include "topo/convergence.h"
#include "topo/topology.h"
#include "util/config_error.h"
#include "util/text_lines.h"
#include "util/units.h"

namespace rocelab {
namespace {

// "12.000 ms", "850.000 us": a simulated time as the lab prints it.
std::string At(Time t) { return FormatTimeNs(static_cast<double>(t) / kNanosecond); }

constexpr char kHelp[] =
    "The lab:\n"
    "  briefing                          the ticket again\n"
    "  run DURATION                      let the fabric run (run 2ms)\n"
    "  pace RATIO | pause | resume       let it run on its own, RATIO simulated seconds a wall second\n"
    "  time                              the simulated time\n"
    "  devices                           the switches, the hosts and their links\n"
    "  on DEVICE [COMMAND]               send the next commands to DEVICE, or one command\n"
    "  diagnose                          rocelab's rules on every device's counters over the last run\n"
    "  timeline [all]                    the fabric's events and the monitor's alerts (the last 30, or all)\n"
    "  pingmesh                          the hosts' probes (R-Pingmesh): the paths that lost some, most first\n"
    "  check                             run the verification window and say which checks hold\n"
    "  review                            the fault's lifecycle, what you did, the time and money lost\n"
    "  quit\n"
    "On a switch (SONiC):\n"
    "  show interfaces counters | show pfc counters | show queue counters [PORT]\n"
    "  show priority-group drop counters | show priority-group watermark shared|headroom\n"
    "  show headroom-pool watermark      (a switch with a shared headroom pool)\n"
    "  show pfcwd stats | show pfcwd config | show ecn\n"
    "  sonic-cfggen -d --var-json DSCP_TO_TC_MAP|CABLE_LENGTH | mmuconfig -l\n"
    "  show ip route | config route del prefix A.B.C.D/32\n"
    "  config interface shutdown|startup PORT | config interface cable-length PORT LENGTH\n"
    "  config qos reload\n"
    "  config pfcwd start_default | config pfcwd start --action drop ports all detection-time MS [--restoration-time MS]\n"
    "  config ecn -profile AZURE_LOSSLESS [-gmin BYTES] [-gmax BYTES] [-gdrop PERCENT]\n"
    "On a host (mlx5):\n"
    "  ethtool -S eth0 | rdma statistic | mlnx_qos -i eth0\n"
    "  mlnx_qos -i eth0 [--trust pcp|dscp] [--pfc 0,0,0,1,0,0,0,0]\n"
    "  devlink dev show | devlink dev reload pci/0000:08:00.0   (the driver reloaded: its queue pairs to error)\n"
    "  cat /sys/class/infiniband/mlx5_0/ports/1/hw_counters/NAME\n"
    "  cat /sys/class/net/eth0/ecn/roce_rp/enable/PRIO\n"
    "  echo 0|1 > /sys/class/net/eth0/ecn/roce_rp/enable/PRIO\n"
    "  cat /sys/class/net/eth0/ecn/FILE | echo N > /sys/class/net/eth0/ecn/FILE  (DCQCN's parameters, FILE:\n";

const std::vector<std::string> kCommands = {"briefing", "run", "pace", "pause", "resume", "pingmesh", "time", "devices", "on", "diagnose", "timeline", "check",
                                            "review", "quit", "help", "show", "config", "sonic-cfggen", "ethtool",
                                            "rdma", "mlnx_qos", "devlink", "cat", "echo"};

std::string Join(const std::vector<std::string>& w, size_t from) {
  std::string s;
  for (size_t i = from; i < w.size(); ++i) s += (i > from ? " " : "") + w[i];
  return s;
}

bool Is(const std::vector<std::string>& w, std::initializer_list<const char*> words) {
  if (w.size() != words.size()) return false;
  size_t i = 0;
  for (const char* x : words)
    if (w[i++] != x) return false;
  return true;
}

std::string Usage(const std::string& what) { return "usage: " + what + "\n"; }

const JsonDocument& Child(const JsonDocument& o, const std::string& key) {
  static const JsonDocument kNull;
  if (!o.is_object()) return kNull;
  auto it = o.find(key);
  return it != o.end() ? *it : kNull;
}

constexpr char kEcnPath[] = "/sys/class/net/eth0/ecn/";
constexpr char kRpPath[] = "/sys/class/net/eth0/ecn/roce_rp/enable/";

// Host `index`'s address, as `show ip route` lists it: 10.0.0.0/32 for h0 (the fabric has no
// addressing of its own; these stand for the hosts' loopbacks).
std::string HostAddress(int index) {
  return "10." + std::to_string((index >> 16) & 255) + "." + std::to_string((index >> 8) & 255) + "." +
         std::to_string(index & 255) + "/32";
}

// A port's counters: a switch keeps what it receives in its priority groups (Switch::port_counters).
PortCounters CountersOf(const Node& dev, bool is_switch, int port) {
  return is_switch ? static_cast<const Switch&>(dev).port_counters(port) : dev.port(port).counters;
}

// The index of switch `name` among the fabric's switches, as Experiment::watchdog and
// StartWatchdog count them.
size_t SwitchIndex(const Fabric& f, const std::string& name) {
  size_t i = 0;
  while (f.switches()[i]->name() != name) ++i;
  return i;
}

// A switch's ports grouped as `show ecn` and `mmuconfig -l` list them: the ports whose setting
// (`setting(port)`) is the same by `same` share a group, in the order of their first port, each
// group with its ports' names.
template <class SettingOf, class Same>
auto GroupPorts(int num_ports, SettingOf setting, Same same) {
  using Setting = decltype(setting(0));
  std::vector<std::pair<Setting, std::string>> groups;
  for (int p = 0; p < num_ports; ++p) {
    const Setting s = setting(p);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return same(g.first, s); });
    if (it == groups.end()) groups.push_back({s, SwitchPortAlias(p)});
    else it->second += " " + SwitchPortAlias(p);
  }
  return groups;
}

}  // namespace

LabSession::LabSession(const Lab& lab) : lab_(lab) {
  sc_ = ParseScenarioText(lab.scenario_yaml, lab.scenario_label);
  // The engineer is the recovery; nothing writes series a lab does not read.
  sc_.recovery_auto = sc_.recovery_runbook = false;
  sc_.telemetry.enabled = false;
  Scenario twin = sc_;
  twin.faults.clear();
  // The twin carries the same traffic: the hosts' probes too, which need the monitor; without
  // probes it needs no monitor (a monitor only reads).
  if (!twin.probes.on) twin.monitor_interval = 0;
  x_ = std::make_unique<Experiment>(sc_);
  twin_ = std::make_unique<Experiment>(twin);
  before_ = JsonDocument::parse(DeviceCountersJson(*x_));
  Advance(std::min(lab.paged, sc_.duration));
}

LabSession::~LabSession() = default;

std::string LabSession::Welcome() const {
  return "Lab " + lab_.name + ": " + lab_.title + "\n\nTicket: " + lab_.briefing + "\n\nIt is " + At(x_->fabric().now()) +
         " into the run. Type help for the commands, `on DEVICE` to pick a switch or a host, `check` when you think it "
         "is fixed.\n";
}

std::string LabSession::Prompt() const {
  return (device_.empty() ? std::string("lab") : device_) + " " + At(x_->fabric().now()) + "> ";
}

void LabSession::Advance(Time t) {
  t = std::min(t, sc_.duration);
  const Time t0 = x_->fabric().now();
  if (t <= t0) return;
  const uint64_t lab0 = RingBytes(*x_), twin0 = RingBytes(*twin_);
  x_->fabric().RunUntil(t);
  // The twin loses the queue pairs the broken fabric lost, when it lost them: the same
  // workloads stay alive in both, so the job's pace is compared on the same traffic.
  std::vector<std::pair<Time, uint32_t>> failed;
  for (const QueuePair& qp : x_->fabric().qps())
    if (qp.failed && !twin_->fabric().qps()[qp.id].failed && !twin_->fabric().qps()[qp.id].done)
      failed.push_back({std::max(qp.finish, twin_->fabric().now()), qp.id});
  std::sort(failed.begin(), failed.end());
  for (const auto& [when, id] : failed) {
    twin_->fabric().RunUntil(when);
    const QueuePair& qp = twin_->fabric().qps()[id];
    const Topology& topo = twin_->fabric().topology();
    twin_->fabric().nic(topo.nodes()[topo.hosts()[qp.src]].name).FailQp(id);
  }
  twin_->fabric().RunUntil(t);
  const double lab = static_cast<double>(RingBytes(*x_) - lab0), healthy = static_cast<double>(RingBytes(*twin_) - twin0);
  if (healthy > 0) lost_s_ += static_cast<double>(t - t0) / kSecond * std::max(0.0, 1.0 - lab / healthy);
}

bool LabSession::Tick(double wall_s) {
  if (pace_ <= 0 || paused_ || x_->fabric().now() >= sc_.duration) return false;
  owed_s_ += wall_s * pace_;
  const Time step = static_cast<Time>(owed_s_ * kSecond / kNanosecond) * kNanosecond;
  if (step <= 0) return false;
  owed_s_ -= static_cast<double>(step) / kSecond;
  Advance(x_->fabric().now() + step);
  return true;
}

uint64_t LabSession::RingBytes(const Experiment& x) const {
  if (sc_.allreduces.empty()) return 0;
  uint64_t n = 0;
  for (const auto& rank : x.allreduce(0).ring_qps())
    for (uint32_t id : rank) n += x.fabric().qps()[id].delivered;
  return n;
}

JsonDocument LabSession::DeviceBlock(const std::string& device) const {
  JsonDocument all = JsonDocument::parse(DeviceCountersJson(*x_, device));
  if (all["switches"].contains(device)) return all["switches"][device];
  return all["hosts"][device];
}

void LabSession::Did(const std::string& device, const std::string& command) {
  steps_.push_back({x_->fabric().now(), device, command});
  x_->fabric().timeline().Add(x_->fabric().now(), device, "", -1, "operator", "you: " + command);
}

std::string LabSession::Execute(const std::string& line) {
  const std::vector<std::string> w = Words(line);
  if (w.empty()) return "";
  const std::string& c = w[0];
  if (c == "help" || c == "?") {
    std::string files;
    for (const Mlx5DcqcnParam& p : Mlx5DcqcnParams()) files += std::string(files.empty() ? "" : " ") + p.file;
    std::string out = kHelp, line = "   ";
    std::istringstream words(files + ")");
    for (std::string word; words >> word;) {
      if (line.size() + 1 + word.size() > 100) out += line + "\n", line = "   ";
      line += " " + word;
    }
    return out + line + "\n";
  }
  if (c == "quit" || c == "exit") {
    quit_ = true;
    return "";
  }
  if (c == "briefing") return "Ticket: " + lab_.briefing + "\n";
  if (c == "pace") {
    double ratio = 0;
    std::string err;
    if (w.size() != 2 || !ParseNumber(w[1], &ratio, &err) || ratio < 0 || ratio > 1)
      return Usage("pace RATIO (simulated seconds per wall second, 0 to 1; 0: only `run` moves time)");
    pace_ = ratio;
    paused_ = false;
    return "";
  }
  if (c == "pause" || c == "resume") {
    if (w.size() != 1) return Usage(c);
    if (pace_ == 0) return "the fabric moves only with `run`: `pace RATIO` lets it run on its own\n";
    paused_ = c == "pause";
    return std::string(paused_ ? "paused" : "running") + " at " + At(x_->fabric().now()) + "\n";
  }
  if (c == "time") return At(x_->fabric().now()) + " into the run (it ends at " + At(sc_.duration) + ")\n";
  if (c == "devices") return Devices();
  if (c == "run") return Run(w);
  if (c == "diagnose") return w.size() == 1 ? Diagnose() : Usage("diagnose");
  if (c == "timeline") {
    if (w.size() > 2 || (w.size() == 2 && w[1] != "all")) return Usage("timeline [all]");
    if (w.size() == 2) {
      std::string out;
      for (const TimelineEvent& e : x_->fabric().timeline().events())
        if (e.event.compare(0, 6, "fault_") != 0)
          out += At(e.t) + "  " + e.device + (e.port.empty() ? "" : ":" + e.port) + "  " + e.event + "  " + e.detail + "\n";
      return out.empty() ? "nothing happened yet\n" : out;
    }
    return Timeline();
  }
  if (c == "check") return w.size() == 1 ? Check() : Usage("check");
  if (c == "pingmesh") return w.size() == 1 ? Pingmesh() : Usage("pingmesh");
  if (c == "review") return w.size() == 1 ? Review() : Usage("review");
  std::string device = device_;
  std::vector<std::string> rest = w;
  if (c == "on") {
    if (w.size() < 2) return Usage("on DEVICE [COMMAND]");
    if (x_->fabric().topology().FindNode(w[1]) < 0) return "no device " + w[1] + ": type devices for the list\n";
    if (w.size() == 2) {
      device_ = w[1];
      return "";
    }
    device = w[1];
    rest.assign(w.begin() + 2, w.end());
  }
  if (device.empty()) return "unknown command '" + c + "': type help, or `on DEVICE` first for a device's commands\n";
  const std::string cmd = Join(rest, 0);
  const int node = x_->fabric().topology().FindNode(device);
  return x_->fabric().topology().nodes()[node].is_switch ? OnSwitch(device, rest, cmd) : OnHost(device, rest, cmd);
}

std::string LabSession::Run(const std::vector<std::string>& w) {
  Time d = 0;
  std::string err;
  if (w.size() != 2 || !ParseTime(w[1], &d, &err) || d <= 0) return Usage("run DURATION (e.g. run 2ms)");
  if (x_->fabric().now() >= sc_.duration) return "the fabric ran to its end (" + At(sc_.duration) + "): review\n";
  before_ = JsonDocument::parse(DeviceCountersJson(*x_));
  before_t_ = x_->fabric().now();
  size_t done0 = sc_.allreduces.empty() ? 0 : x_->allreduce(0).iteration_times().size();
  Advance(before_t_ + d);
  std::string out = "ran " + At(x_->fabric().now() - before_t_) + ": now " + At(x_->fabric().now()) + "\n";
  if (x_->fabric().now() < std::min(before_t_ + d, sc_.duration))
    out += "the fabric stopped: every queue pair finished or failed (timeline)\n";
  if (!sc_.allreduces.empty()) {
    const std::vector<Time>& times = x_->allreduce(0).iteration_times();
    Time sum = 0;
    for (size_t i = done0; i < times.size(); ++i) sum += times[i];
    const size_t n = times.size() - done0;
    out += "the training job finished " + std::to_string(n) + " iteration" + (n == 1 ? "" : "s") +
           (n ? ", " + At(sum / static_cast<Time>(n)) + " each on average" : std::string()) + "\n";
  }
  return out;
}

std::string LabSession::Devices() const {
  const Topology& topo = x_->fabric().topology();
  std::string sw, hosts;
  for (const TopoNode& n : topo.nodes()) (n.is_switch ? sw : hosts) += (n.is_switch ? sw : hosts).empty() ? n.name : " " + n.name;
  std::string out = "switches: " + sw + "\nhosts:    " + hosts + "\nlinks:\n";
  for (const TopoNode& n : topo.nodes()) {
    if (!n.is_switch) continue;
    out += "  " + n.name + ":";
    for (size_t p = 0; p < n.ports.size(); ++p)
      out += " " + SwitchPortAlias(static_cast<int>(p)) + "=" + topo.nodes()[n.ports[p].peer_node].name;
    out += "\n";
  }
  return out + "a host's port is eth0 (RDMA device mlx5_0, port 1)\n";
}

// A switch's commands: what it shows (SONiC's `show`, `sonic-cfggen`, `mmuconfig`), and what
// changes it (`config ...`), each kind by its second word.
std::string LabSession::OnSwitch(const std::string& device, const std::vector<std::string>& w, const std::string& line) {
  const SwitchCommand c{device, x_->fabric().topology().FindNode(device), w, line};
  if (w.empty() || w[0] != "config") return SwitchShow(c);
  using Action = std::string (LabSession::*)(const SwitchCommand&);
  static const std::pair<const char*, Action> kActions[] = {
      {"route", &LabSession::ConfigRoute},   {"interface", &LabSession::ConfigInterface},
      {"qos", &LabSession::ConfigQosReload}, {"ecn", &LabSession::ConfigEcn},
      {"pfcwd", &LabSession::ConfigPfcwd},
  };
  for (const auto& [word, action] : kActions)
    if (w.size() >= 2 && w[1] == word) return (this->*action)(c);
  return Usage("config interface shutdown|startup PORT | config qos reload | config ecn -profile ... | config pfcwd start_default");
}

std::string LabSession::SwitchShow(const SwitchCommand& c) {
  Fabric& f = x_->fabric();
  const std::string& device = c.device;
  const std::vector<std::string>& w = c.w;
  const int node = c.node;
  Switch& sw = static_cast<Switch&>(f.device(node));
  if (Is(w, {"show", "interfaces", "counters"})) {
    const double span = static_cast<double>(f.now() - before_t_) / kSecond;
    return ShowInterfacesCounters(DeviceBlock(device), Child(Child(before_, "switches"), device), span);
  }
  if (Is(w, {"show", "pfc", "counters"})) return ShowPfcCounters(DeviceBlock(device));
  if (w.size() >= 3 && w[0] == "show" && w[1] == "queue" && w[2] == "counters") {
    if (w.size() > 4) return Usage("show queue counters [PORT]");
    if (w.size() == 4 && ResolvePort(f.topology(), node, w[3]) < 0) return "no port " + w[3] + " on " + device + "\n";
    return ShowQueueCounters(DeviceBlock(device), w.size() == 4 ? SwitchPortAlias(ResolvePort(f.topology(), node, w[3])) : "");
  }
  if (Is(w, {"show", "priority-group", "drop", "counters"}))
    return ShowPriorityGroupCounter(DeviceBlock(device), kSaiPgDroppedPackets.name, "Ingress PG dropped packets:");
  // Watermarks since the run began (the lab clears none).
  if (Is(w, {"show", "priority-group", "watermark", "shared"}))
    return ShowPriorityGroupCounter(DeviceBlock(device), kSaiPgSharedWatermarkBytes.name, "Ingress shared pool occupancy per PG:");
  if (Is(w, {"show", "priority-group", "watermark", "headroom"}))
    return ShowPriorityGroupCounter(DeviceBlock(device), kSaiPgXoffRoomWatermarkBytes.name, "Ingress headroom per PG:");
  if (Is(w, {"show", "headroom-pool", "watermark"})) return ShowHeadroomPoolWatermark(DeviceBlock(device), device);
  if (Is(w, {"show", "pfcwd", "stats"})) return ShowPfcwdStats(DeviceBlock(device));
  if (Is(w, {"show", "pfcwd", "config"})) {
    const PfcWatchdog* wd = x_->watchdog(SwitchIndex(f, device));
    std::vector<std::vector<std::string>> rows;
    if (wd)
      for (int p = 0; p < sw.num_ports(); ++p)
        rows.push_back({SwitchPortAlias(p), wd->spec().action,
                        std::to_string(static_cast<long long>(wd->spec().detection_time / sc_.timer_scale / kMillisecond)),
                        std::to_string(static_cast<long long>(wd->spec().restoration_time / sc_.timer_scale / kMillisecond))});
    return Tabulate({"PORT", "ACTION", "DETECTION TIME", "RESTORATION TIME"}, rows) +
           (wd ? "" : "(the PFC watchdog is not running on " + device + ")\n");
  }
  if (Is(w, {"show", "ecn"})) {
    // One profile per ECN setting in force, with the ports it is on when they differ.
    const auto groups = GroupPorts(sw.num_ports(), [&](int p) { return sw.port_ecn(p); }, SameEcn);
    std::string out;
    for (const auto& [e, ports] : groups) {
      if (groups.size() > 1) out += "On " + ports + ":\n";
      out += ShowEcn({e.enabled, e.kmin, e.kmax, e.pmax});
    }
    return out;
  }
  if (Is(w, {"sonic-cfggen", "-d", "--var-json", "DSCP_TO_TC_MAP"})) return ShowDscpToTcMap(DeviceBlock(device));
  if (Is(w, {"sonic-cfggen", "-d", "--var-json", "CABLE_LENGTH"})) {
    std::vector<std::pair<std::string, double>> cables;
    for (int p = 0; p < sw.num_ports(); ++p) cables.push_back({SwitchPortAlias(p), CableMeters(sw.profile_cable(p))});
    return ShowCableLength(cables);
  }
  if (Is(w, {"show", "ip", "route"})) {
    // FRR's layout (vtysh `show ip route`): a host route per host, connected, static or learnt
    // (BGP, its ECMP next hops on the lines below), each next hop by the device it faces.
    const Topology& topo = f.topology();
    const RouteConvergence& conv = f.control_plane().convergence();
    std::string out =
        "Codes: K - kernel route, C - connected, S - static, B - BGP,\n"
        "       > - selected route, * - FIB route, q - queued, r - rejected, b - backup\n\n";
    for (int h = 0; h < static_cast<int>(topo.hosts().size()); ++h) {
      const Topology::Span hops = topo.NextHops(node, h);
      const std::string host = topo.nodes()[topo.hosts()[h]].name;
      if (hops.size == 0) {
        out += "   " + HostAddress(h) + " unreachable (" + host + ")\n";
        continue;
      }
      const int first = hops.begin[0];
      if (topo.nodes()[node].ports[first].peer_node == topo.hosts()[h]) {
        out += "C>* " + HostAddress(h) + " is directly connected, " + SwitchPortAlias(first) + " (" + host + ")\n";
        continue;
      }
      const bool fixed = conv.IsStatic(node, h);
      const std::string head = std::string(fixed ? "S" : "B") + ">* " + HostAddress(h) + (fixed ? " [1/0]" : " [20/0]");
      for (uint32_t i = 0; i < hops.size; ++i) {
        const int p = hops.begin[i];
        out += (i == 0 ? head : "  *" + std::string(head.size() - 3, ' ')) + " via " +
               topo.nodes()[topo.nodes()[node].ports[p].peer_node].name + ", " + SwitchPortAlias(p) +
               (i == 0 ? " (" + host + ")" : "") + "\n";
      }
    }
    return out;
  }
  if (Is(w, {"mmuconfig", "-l"})) {
    // The ingress lossless pool, and one lossless PG profile per headroom in force with the ports
    // that have it (a port whose headroom drifted stands out beside its neighbours).
    // A profile is named for its speed and the cable it was sized for (CABLE_LENGTH).
    std::vector<MmuProfileView> views;
    const auto profile = [&](int p) {
      return MmuProfileView{sw.port(p).rate_bps, CableMeters(sw.profile_cable(p)), sw.headroom(p), sw.spec().pfc.alpha, ""};
    };
    const auto same = [](const MmuProfileView& a, const MmuProfileView& b) {
      return a.headroom == b.headroom && a.rate_bps == b.rate_bps && a.cable_m == b.cable_m;
    };
    for (auto& [view, ports] : GroupPorts(sw.num_ports(), profile, same)) {
      view.ports = ports;
      views.push_back(view);
    }
    return ShowMmuConfig(sw.shared_pool(), sw.headroom_pool(), views);
  }
  if (w.size() >= 1 && w[0] == "show") return Usage("show interfaces counters | pfc counters | queue counters [PORT] | priority-group drop counters|watermark shared|headroom | headroom-pool watermark | pfcwd stats|config | ecn");
  return device + " is a switch: '" + c.line + "' is none of its commands (type help)\n";
}

// `config route del prefix A.B.C.D/32 [nexthop NEXTHOP]`: a static route removed.
std::string LabSession::ConfigRoute(const SwitchCommand& c) {
  Fabric& f = x_->fabric();
  const std::string& device = c.device;
  const std::vector<std::string>& w = c.w;
  const int node = c.node;
  if (!(w.size() == 5 || w.size() == 7) || w[2] != "del" || w[3] != "prefix" || (w.size() == 7 && w[5] != "nexthop"))
    return Usage("config route del prefix A.B.C.D/32 [nexthop NEXTHOP]");
  const Topology& topo = f.topology();
  int host = -1;
  for (int h = 0; h < static_cast<int>(topo.hosts().size()); ++h)
    if (HostAddress(h) == w[4]) host = h;
  if (host < 0) return "no route to " + w[4] + " on " + device + " (show ip route)\n";
  if (!f.control_plane().convergence().IsStatic(node, host)) return "no static route to " + w[4] + " on " + device + "\n";
  for (Experiment* e : {x_.get(), twin_.get()}) {
    Fabric& ef = e->fabric();
    if (!ef.control_plane().convergence().IsStatic(node, host)) continue;
    ef.mutable_topology().ClearRoute(node, host);
    ef.control_plane().convergence().UnmarkStatic(node, host);
  }
  Did(device, c.line);
  return "";
}

// `config interface cable-length PORT LENGTH` and `config interface shutdown|startup PORT`.
std::string LabSession::ConfigInterface(const SwitchCommand& c) {
  Fabric& f = x_->fabric();
  const std::string& device = c.device;
  const std::vector<std::string>& w = c.w;
  const int node = c.node;
  if (w.size() >= 3 && w[2] == "cable-length") {
    // SONiC's `config interface cable-length PORT LENGTH`: the port's CABLE_LENGTH entry, from
    // which the buffer manager sizes its lossless profile again (its headroom now what the
    // scenario's auto headroom gives for that cable).
    const std::string usage = "config interface cable-length PORT LENGTH (e.g. 40m)";
    if (w.size() != 5) return Usage(usage);
    const int port = ResolvePort(f.topology(), node, w[3]);
    if (port < 0) return "no port " + w[3] + " on " + device + "\n";
    double meters = 0;
    std::string err;
    if (!ParseLength(w[4], &meters, &err) || meters <= 0 || meters > 100000) return Usage(usage);
    const Time delay = CableDelay(meters);
    for (Experiment* e : {x_.get(), twin_.get()}) {
      Switch& s = static_cast<Switch&>(e->fabric().device(node));
      s.SetProfileCable(port, delay);
      s.SetHeadroom(port, e->fabric().AutoHeadroom(node, port, delay));
    }
    Did(device, c.line);
    return "";
  }
  if (w.size() != 4 || (w[2] != "shutdown" && w[2] != "startup")) return Usage("config interface shutdown|startup PORT");
  const int port = ResolvePort(f.topology(), node, w[3]);
  if (port < 0) return "no port " + w[3] + " on " + device + "\n";
  bool changed = true;
  for (Experiment* e : {x_.get(), twin_.get()}) {
    if (w[2] == "shutdown") e->fabric().HoldLinkDown(node, port);
    else if (!e->fabric().ReleaseLink(node, port) && e == x_.get()) changed = false;
  }
  if (!changed) return SwitchPortAlias(port) + " on " + device + " is not shut down\n";
  Did(device, c.line);
  return "";
}

// `config qos reload`: the switch's buffers, QoS maps, PFC and WRED/ECN profiles as configured.
std::string LabSession::ConfigQosReload(const SwitchCommand& c) {
  const std::string& device = c.device;
  const int node = c.node;
  if (!Is(c.w, {"config", "qos", "reload"})) return Usage("config qos reload");
  bool changed = false;
  for (Experiment* e : {x_.get(), twin_.get()}) {
    const bool reapplied =
        RollBackEcn(e->fabric(), node) | RollBackQos(e->fabric(), node) | RollBackHeadroom(e->fabric(), node);
    if (e == x_.get()) changed = reapplied;
  }
  Did(device, c.line);
  return changed ? "Running command: config qos reload: buffers, QoS maps, PFC and WRED/ECN profiles reapplied\n"
                 : "Running command: config qos reload: nothing differed from the configuration\n";
}

// `config ecn -profile AZURE_LOSSLESS [-gmin B] [-gmax B] [-gdrop PERCENT]` on every port.
std::string LabSession::ConfigEcn(const SwitchCommand& c) {
  const std::string& device = c.device;
  const std::vector<std::string>& w = c.w;
  const int node = c.node;
  const std::string usage = "config ecn -profile AZURE_LOSSLESS [-gmin BYTES] [-gmax BYTES] [-gdrop PERCENT]";
  if (w.size() < 4 || w.size() % 2 != 0 || w[2] != "-profile") return Usage(usage);
  if (w[3] != "AZURE_LOSSLESS") return "no WRED profile " + w[3] + " on " + device + " (it has AZURE_LOSSLESS)\n";
  std::map<std::string, double> set;
  for (size_t i = 4; i + 1 < w.size(); i += 2) {
    double v = 0;
    std::string err;
    if ((w[i] != "-gmin" && w[i] != "-gmax" && w[i] != "-gdrop") || !ParseNumber(w[i + 1], &v, &err) || v < 0 ||
        (w[i] == "-gdrop" && v > 100))
      return Usage(usage);
    set[w[i]] = v;
  }
  for (Experiment* e : {x_.get(), twin_.get()}) {
    Switch& s = static_cast<Switch&>(e->fabric().device(node));
    for (int p = 0; p < s.num_ports(); ++p) {
      EcnSpec ecn = s.port_ecn(p);
      if (set.count("-gmin")) ecn.kmin = static_cast<uint64_t>(set["-gmin"]);
      if (set.count("-gmax")) ecn.kmax = static_cast<uint64_t>(set["-gmax"]);
      if (set.count("-gdrop")) ecn.pmax = set["-gdrop"] / 100.0;
      s.SetPortEcn(p, ecn);
    }
  }
  Did(device, c.line);
  return "";
}

// `config pfcwd start [--action drop|forward|alert] [--restoration-time MS] ports all
// detection-time MS`, or `start_default` (sonic-utilities pfcwd/main.py): production
// milliseconds, the run scales them.
std::string LabSession::ConfigPfcwd(const SwitchCommand& c) {
  const std::string& device = c.device;
  const std::vector<std::string>& w = c.w;
  const std::string usage =
      "config pfcwd start_default | config pfcwd start --action drop|forward|alert ports all detection-time MS "
      "[--restoration-time MS]";
  PfcWatchdogSpec spec;  // start_default: drop, 200 ms, 200 ms
  spec.enabled = true;
  if (!Is(w, {"config", "pfcwd", "start_default"})) {
    if (w.size() < 3 || w[2] != "start") return Usage(usage);
    bool ports = false, detection = false;
    for (size_t i = 3; i < w.size(); ++i) {
      Time ms = 0;
      auto millis = [&](size_t at) {
        double v = 0;
        std::string err;
        if (at >= w.size() || !ParseNumber(w[at], &v, &err) || v < 100 || v > 60000) return false;
        ms = static_cast<Time>(v) * kMillisecond;
        return true;
      };
      if (w[i] == "--action" && i + 1 < w.size() && (w[i + 1] == "drop" || w[i + 1] == "forward" || w[i + 1] == "alert")) {
        spec.action = w[++i];
      } else if (w[i] == "--restoration-time" && millis(i + 1)) {
        spec.restoration_time = ms, ++i;
      } else if (w[i] == "ports" && i + 1 < w.size() && w[i + 1] == "all") {
        ports = true, ++i;
      } else if (w[i] == "detection-time" && millis(i + 1)) {
        spec.detection_time = ms, detection = true, ++i;
      } else {
        return Usage(usage);
      }
    }
    if (!ports || !detection) return Usage(usage);
  }
  const size_t index = SwitchIndex(x_->fabric(), device);
  bool started = false;
  for (Experiment* e : {x_.get(), twin_.get()}) started = e->StartWatchdog(index, spec) || started;
  if (!started) return "the PFC watchdog already runs on " + device + " (or its PFC is off)\n";
  Did(device, c.line);
  return "";
}

std::string LabSession::OnHost(const std::string& device, const std::vector<std::string>& w, const std::string& line) {
  Nic& nic = x_->fabric().nic(device);
  if (w.size() >= 1 && w[0] == "ethtool") {
    if (!Is(w, {"ethtool", "-S", "eth0"})) return Usage("ethtool -S eth0");
    return EthtoolS(DeviceBlock(device));
  }
  if (w.size() >= 1 && w[0] == "rdma") {
    if (!Is(w, {"rdma", "statistic"}) && !Is(w, {"rdma", "statistic", "show"}) &&
        !Is(w, {"rdma", "statistic", "show", "link", "mlx5_0/1"}))
      return Usage("rdma statistic [show [link mlx5_0/1]]");
    return RdmaStatistic(DeviceBlock(device));
  }
  if (w.size() >= 1 && w[0] == "mlnx_qos") {
    // mlnx_qos -i eth0 [--trust pcp|dscp] [--pfc 0,0,0,1,0,0,0,0] (NVIDIA's mlnx-tools): shows the
    // port's QoS, or sets its trust mode and the priorities PFC is enabled on.
    const std::string usage = "mlnx_qos -i eth0 [--trust pcp|dscp] [--pfc B,B,B,B,B,B,B,B (8 of 0|1)]";
    if (w.size() < 3 || w[1] != "-i" || w[2] != "eth0") return Usage(usage);
    if (w.size() == 3) return MlnxQos(DeviceBlock(device));
    bool trust = nic.spec().trust_dscp;
    uint8_t pfc = nic.spec().pfc_enabled ? nic.spec().lossless_mask : 0;
    for (size_t i = 3; i < w.size(); i += 2) {
      if (i + 1 >= w.size()) return Usage(usage);
      if (w[i] == "--trust" && (w[i + 1] == "pcp" || w[i + 1] == "dscp")) {
        trust = w[i + 1] == "dscp";
      } else if (w[i] == "--pfc" && w[i + 1].size() == 15) {
        pfc = 0;
        for (int p = 0; p < 8; ++p) {
          const char b = w[i + 1][2 * p];
          if ((b != '0' && b != '1') || (p < 7 && w[i + 1][2 * p + 1] != ',')) return Usage(usage);
          if (b == '1') pfc |= static_cast<uint8_t>(1u << p);
        }
      } else {
        return Usage(usage);
      }
    }
    for (Experiment* e : {x_.get(), twin_.get()}) e->fabric().nic(device).SetQos(trust, pfc);
    Did(device, line);
    return MlnxQos(DeviceBlock(device));
  }
  if (w.size() >= 1 && w[0] == "devlink") {
    // The NIC's one PCI function, as `devlink dev show` lists an mlx5 port. A reload's default
    // action is driver_reinit (iproute2 devlink(8)): what the firmware holds stays.
    const std::string pci = "pci/0000:08:00.0";
    if (Is(w, {"devlink", "dev", "show"})) return pci + "\n";
    if (!Is(w, {"devlink", "dev", "reload", pci.c_str()}) && !Is(w, {"devlink", "dev", "reload", pci.c_str(), "action", "driver_reinit"}))
      return Usage("devlink dev show | devlink dev reload " + pci + " [action driver_reinit]");
    for (Experiment* e : {x_.get(), twin_.get()}) e->fabric().ReloadNic(device);
    Did(device, line);
    return "reload_actions_performed:\n  driver_reinit\n";
  }
  const std::string hw = "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/";
  if (w.size() == 2 && w[0] == "cat" && w[1].compare(0, hw.size(), hw) == 0) {
    const JsonDocument block = DeviceBlock(device);
    const JsonDocument& v = Child(Child(block, "hw_counters"), w[1].substr(hw.size()));
    if (!v.is_number()) return "cat: " + w[1] + ": No such file or directory\n";
    return std::to_string(static_cast<unsigned long long>(v.get<double>())) + "\n";
  }
  auto rp_priority = [&](const std::string& path) {
    if (path.compare(0, std::string(kRpPath).size(), kRpPath) != 0) return -1;
    const std::string p = path.substr(std::string(kRpPath).size());
    return p.size() == 1 && p[0] >= '0' && p[0] <= '7' ? p[0] - '0' : -1;
  };
  if (w.size() == 2 && w[0] == "cat" && rp_priority(w[1]) >= 0) return std::string(nic.reaction_point() ? "1" : "0") + "\n";
  // DCQCN's parameters, in the driver's units (cc/dcqcn_params.h).
  auto dcqcn_param = [&](const std::string& path) -> const Mlx5DcqcnParam* {
    const std::string ecn = kEcnPath;
    return path.compare(0, ecn.size(), ecn) == 0 ? FindMlx5DcqcnParam(path.substr(ecn.size())) : nullptr;
  };
  if (w.size() == 2 && w[0] == "cat" && dcqcn_param(w[1])) return std::to_string(dcqcn_param(w[1])->get(nic.spec().dcqcn)) + "\n";
  if (w.size() == 4 && w[0] == "echo" && w[2] == ">" && dcqcn_param(w[3])) {
    const Mlx5DcqcnParam& param = *dcqcn_param(w[3]);
    double v = -1;
    std::string err;
    if (!ParseNumber(w[1], &v, &err) || v < 0 || v > static_cast<double>(param.max) || v != std::floor(v))
      return "echo: write error: Invalid argument (" + w[3] + " takes an integer from 0 to " + std::to_string(param.max) + ")\n";
    for (Experiment* e : {x_.get(), twin_.get()}) {
      Nic& n = e->fabric().nic(device);
      DcqcnParams p = n.spec().dcqcn;
      param.set(&p, static_cast<int64_t>(v));
      n.SetDcqcn(p);
    }
    Did(device, line);
    return "";
  }
  if (w.size() >= 1 && w[0] == "cat") return "cat: " + (w.size() > 1 ? w[1] : std::string()) + ": No such file or directory\n";
  if (w.size() >= 1 && w[0] == "echo") {
    if (w.size() != 4 || (w[1] != "0" && w[1] != "1") || w[2] != ">" || rp_priority(w[3]) < 0)
      return Usage(std::string("echo 0|1 > ") + kRpPath + "PRIO");
    for (Experiment* e : {x_.get(), twin_.get()}) e->fabric().nic(device).SetReactionPoint(w[1] == "1");
    Did(device, line);
    return "";
  }
  return device + " is a host: '" + line + "' is none of its commands (type help)\n";
}

std::string LabSession::Diagnose() {
  // The counters over the last run, as a bundle of two samples would give them.
  Evidence before, now;
  ReadSummaryJson(before_, "lab", &before);
  ParseSummaryJson(DeviceCountersJson(*x_), "lab", &now);
  const double span = static_cast<double>(x_->fabric().now() - before_t_) / kSecond;
  if (span <= 0) return "diagnose: run the fabric first (run 2ms): it reads what changed over the last run\n";
  now.origin = "lab";
  now.windowed = true;
  now.interval_s = span;
  FabricRoutes routes(&x_->fabric());
  now.routes = &routes;
  for (size_t i = 0; i < now.ports.size() && i < before.ports.size(); ++i) {
    PortEvidence& p = now.ports[i];
    const PortEvidence& b = before.ports[i];
    for (auto& [k, v] : p.deltas) v = p.counters[k] - (b.counters.count(k) ? b.counters.at(k) : 0);
    for (auto& [q, m] : p.queues)
      for (auto& [k, v] : m)
        if (b.queues.count(q) && b.queues.at(q).count(k) && k.find("WATERMARK") == std::string::npos) v -= b.queues.at(q).at(k);
    for (auto& [g, m] : p.pgs)
      for (auto& [k, v] : m)
        if (b.pgs.count(g) && b.pgs.at(g).count(k) && k.find("WATERMARK") == std::string::npos) v -= b.pgs.at(g).at(k);
  }
  now.flow_records.clear();
  now.collectives.clear();
  std::string out = "the counters of " + std::to_string(now.ports.size()) + " ports over the last " + At(x_->fabric().now() - before_t_) + "\n";
  int shown = 0;
  for (const Diagnosis& d : rocelab::Diagnose(now)) {
    if (d.layer == "application") continue;
    out += FindingText(d);
    ++shown;
  }
  return out + (shown ? "" : "nothing wrong found\n");
}

std::string LabSession::Pingmesh() const {
  const rocelab::Pingmesh* mesh = x_->pingmesh();
  if (!mesh) return "no probing in this fabric (monitor.probes is off)\n";
  // The paths with losses first, most lost first; then how many answered every probe.
  std::vector<const ProbePath*> lossy;
  size_t clean = 0;
  for (const ProbePath& p : mesh->paths()) {
    if (p.lost > 0) lossy.push_back(&p);
    else if (p.judged > 0) ++clean;
  }
  std::stable_sort(lossy.begin(), lossy.end(),
                   [](const ProbePath* a, const ProbePath* b) { return a->lost / a->judged > b->lost / b->judged; });
  // The links the lossy paths have in common (either way across), against the clean paths that
  // cross them too: Pingmesh's tomography, by hand.
  std::map<std::string, std::pair<size_t, size_t>> links;  // link -> lossy paths, clean paths
  for (const ProbePath& p : mesh->paths()) {
    if (p.judged == 0) continue;
    std::set<std::string> crossed;
    for (const std::string& hop : p.hops) {
      const size_t gt = hop.find('>');
      const std::string a = hop.substr(0, gt), b = gt == std::string::npos ? "" : hop.substr(gt + 1);
      crossed.insert(a < b ? a + " - " + b : b + " - " + a);
    }
    for (const std::string& l : crossed) (p.lost > 0 ? links[l].first : links[l].second)++;
  }
  std::vector<std::pair<std::string, std::pair<size_t, size_t>>> ranked(links.begin(), links.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < lossy.size() && i < 10; ++i) {
    const ProbePath& p = *lossy[i];
    std::string hops;
    for (const std::string& h : p.hops) hops += (hops.empty() ? "" : " ") + h;
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", 100 * p.lost / p.judged);
    rows.push_back({p.src + " -> " + p.dst, Thousands(p.judged), Thousands(p.lost), share, hops});
  }
  std::string out = "probes every " + At(mesh->interval()) + ", lost after " + At(mesh->timeout()) + ": " +
                    std::to_string(lossy.size()) + " paths lost probes, " + std::to_string(clean) + " answered every one\n";
  if (rows.empty()) return out;
  out += Tabulate({"PAIR", "PROBES", "LOST", "LOSS", "PATH (sending port>receiving port)"}, rows);
  std::vector<std::vector<std::string>> common;
  for (size_t i = 0; i < ranked.size() && i < 3; ++i)
    common.push_back({ranked[i].first, std::to_string(ranked[i].second.first) + " of " + std::to_string(lossy.size()),
                      std::to_string(ranked[i].second.second) + " of " + std::to_string(clean)});
  return out + "\nThe links most lossy paths cross:\n" + Tabulate({"LINK", "LOSSY PATHS", "CLEAN PATHS"}, common);
}

std::string LabSession::Timeline() const {
  std::vector<const TimelineEvent*> shown;
  for (const TimelineEvent& e : x_->fabric().timeline().events())
    if (e.event.compare(0, 6, "fault_") != 0) shown.push_back(&e);
  if (shown.empty()) return "nothing happened yet\n";
  std::string out;
  const size_t from = shown.size() > 30 ? shown.size() - 30 : 0;
  if (from) out += "(" + std::to_string(from) + " earlier events: timeline all)\n";
  for (size_t i = from; i < shown.size(); ++i) {
    const TimelineEvent& e = *shown[i];
    out += At(e.t) + "  " + e.device + (e.port.empty() ? "" : ":" + e.port) + "  " + e.event + "  " + e.detail + "\n";
  }
  return out;
}

std::string LabSession::Check() {
  Fabric& f = x_->fabric();
  if (f.now() >= sc_.duration) return "the fabric ran to its end (" + At(sc_.duration) + "): review\n";
  const Topology& topo = f.topology();
  struct Tally {
    uint64_t ring = 0, healthy = 0, drops = 0, fcs = 0;
    std::vector<uint64_t> delivered;  // per queue pair
    std::map<std::string, std::pair<uint64_t, uint64_t>> links;  // "a:port>b:port" -> frames sent, received
    std::map<std::string, Time> host_pause;  // switch port facing a host -> time held paused
  };
  auto tally = [&]() {
    Tally t;
    t.ring = RingBytes(*x_);
    t.healthy = RingBytes(*twin_);
    for (const QueuePair& qp : f.qps()) t.delivered.push_back(qp.delivered);
    for (const auto& s : f.switches()) t.drops += s->lossless_drops() + s->lossy_drops();
    for (const TopoNode& n : topo.nodes()) {
      const Node& dev = f.device(topo.FindNode(n.name));
      for (size_t p = 0; p < n.ports.size(); ++p) {
        t.fcs += dev.port(static_cast<int>(p)).counters.crc_errors;
        // Frames sent into the link here and received whole or not at its other end.
        const TopoPort& tp = n.ports[p];
        const Node& peer = f.device(tp.peer_node);
        t.links[n.name + ":" + (n.is_switch ? SwitchPortAlias(static_cast<int>(p)) : "eth0") + " to " +
                topo.nodes()[tp.peer_node].name] = {CountersOf(dev, n.is_switch, static_cast<int>(p)).Sent().packets,
                                                     CountersOf(peer, topo.nodes()[tp.peer_node].is_switch, tp.peer_port)
                                                         .Received()
                                                         .packets};
        if (!n.is_switch || topo.nodes()[n.ports[p].peer_node].is_switch) continue;
        Time paused = 0;
        for (int prio = 0; prio < kNumPriorities; ++prio) paused = std::max(paused, dev.port(static_cast<int>(p)).RxPauseTime(prio, f.now()));
        t.host_pause[n.name + ":" + SwitchPortAlias(static_cast<int>(p)) + " (" + topo.nodes()[n.ports[p].peer_node].name + ")"] = paused;
      }
    }
    return t;
  };
  before_ = JsonDocument::parse(DeviceCountersJson(*x_));
  before_t_ = f.now();
  const Tally a = tally();
  Advance(f.now() + lab_.verify);
  const Tally b = tally();
  const Time window = f.now() - before_t_;
  if (window <= 0)
    return "nothing left to verify: every queue pair of the fabric finished or failed by " + At(f.now()) +
           " (timeline): the job is down. not fixed.\n";
  std::string out = "verified over " + At(window) + " (" + At(before_t_) + " to " + At(f.now()) + "):\n";
  bool all = true;
  for (LabCheck c : lab_.checks) {
    bool ok = true;
    std::string why;
    switch (c) {
      case LabCheck::kRingPace: {
        if (sc_.allreduces.empty()) {
          why = "no AllReduce in this scenario";
          break;
        }
        const double lab = static_cast<double>(b.ring - a.ring), healthy = static_cast<double>(b.healthy - a.healthy);
        ok = healthy > 0 && lab >= 0.95 * healthy;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%.1f Gb/s against %.1f Gb/s without the fault (%.0f %%)", lab * 8 / (static_cast<double>(window) / kSecond) / 1e9,
                      healthy * 8 / (static_cast<double>(window) / kSecond) / 1e9, healthy > 0 ? 100 * lab / healthy : 0.0);
        why = buf;
        break;
      }
      case LabCheck::kNoDrops:
        ok = b.drops == a.drops;
        why = Thousands(static_cast<double>(b.drops - a.drops)) + " frames dropped";
        break;
      case LabCheck::kNoFrameVanishes: {
        // What is in flight at either end of the window aside: a link of 100G and 1 us holds
        // about 12 frames of 1 KB; a link that loses a share of what it carries loses thousands.
        std::string worst;
        uint64_t most = 0;
        for (const auto& [link, sr] : b.links) {
          const auto& [s0, r0] = a.links.at(link);
          const uint64_t sent = sr.first - s0, received = sr.second - r0;
          const uint64_t lost = sent > received ? sent - received : 0;
          if (lost > 200 && lost * 100 > sent && lost > most) most = lost, worst = link;
        }
        ok = worst.empty();
        why = ok ? "every link delivered what was sent into it" : worst + ": " + Thousands(static_cast<double>(most)) + " frames sent never arrived";
        break;
      }
      case LabCheck::kEveryFlowMoves: {
        std::string starved;
        size_t n = 0;
        for (const QueuePair& qp : f.qps()) {
          if (!qp.started || qp.done || b.delivered[qp.id] > a.delivered[qp.id]) continue;
          if (++n <= 3)
            starved += (starved.empty() ? "" : ", ") + topo.nodes()[topo.hosts()[qp.src]].name + " -> " +
                       topo.nodes()[topo.hosts()[qp.dst]].name + (qp.failed ? " (failed)" : "");
        }
        ok = n == 0;
        why = ok ? "every open flow moved data" : std::to_string(n) + " delivered nothing (" + starved + (n > 3 ? ", ..." : "") + ")";
        break;
      }
      case LabCheck::kRoutesAsConfigured: {
        for (int node : topo.switches())
          for (int h : StrayStaticRoutes(f, node)) {
            ok = false;
            why += (why.empty() ? "" : "; ") + topo.nodes()[node].name + " " + HostAddress(h) + " (" +
                   topo.nodes()[topo.hosts()[h]].name + ")";
          }
        why = ok ? "only the configured ones" : "static routes no configuration asks for: " + why;
        break;
      }
      case LabCheck::kWatchdogOn:
        for (size_t i = 0; i < f.switches().size(); ++i)
          if (!x_->watchdog(i) && f.switches()[i]->pfc_mask()) {
            ok = false;
            why += (why.empty() ? "off on " : ", ") + f.switches()[i]->name();
          }
        if (ok) why = "on everywhere";
        break;
      case LabCheck::kNoHostPause: {
        std::string worst;
        Time most = 0;
        for (const auto& [port, t] : b.host_pause) {
          const Time held = t - (a.host_pause.count(port) ? a.host_pause.at(port) : 0);
          if (held > most) most = held, worst = port;
        }
        ok = most * 10 <= window;
        why = worst.empty() ? "no host paused its switch port" : worst + " held paused " + At(most);
        break;
      }
      case LabCheck::kEcnAsConfigured:
      case LabCheck::kQosAsConfigured: {
        for (int node : topo.switches()) {
          const std::string drift = c == LabCheck::kEcnAsConfigured ? EcnDrift(f, node) : QosDrift(f, node);
          if (!drift.empty()) {
            ok = false;
            why += (why.empty() ? "" : "; ") + topo.nodes()[node].name + " " + drift;
          }
        }
        if (ok) why = "every switch as configured";
        break;
      }
      case LabCheck::kNoFcsErrors:
        ok = b.fcs == a.fcs;
        why = Thousands(static_cast<double>(b.fcs - a.fcs)) + " frames with a bad FCS";
        break;
    }
    all = all && ok;
    out += std::string(ok ? "  PASS  " : "  FAIL  ") + LabCheckText(c) + ": " + why + "\n";
  }
  if (all && fixed_at_ < 0) {
    fixed_at_ = f.now();
    fix_steps_ = steps_.size();  // every change so far was made before the window began
  }
  return out + (all ? "all checks hold: the fabric is fixed. Type review for the story.\n"
                    : "not fixed yet.\n");
}

std::string LabSession::Review() const {
  std::string out = "Review of lab " + lab_.name + " (" + lab_.title + ")\n";
  Time injected = -1;
  for (size_t i = 0; i < sc_.faults.size(); ++i) {
    const FaultSpec& fs = sc_.faults[i];
    if (injected < 0 || fs.at < injected) injected = fs.at;
    out += "  the fault:    " + fs.kind_name + (fs.target.name.empty() ? "" : " on " + fs.target.name) + ", injected at " +
           At(fs.at) + "\n";
    if (const Monitor::Detection* d = x_->FaultDetection(i))
      out += "  first alert:  " + At(d->t) + " " + d->tier + " " + d->rule + " at " + d->location + "\n";
    if (const Monitor::Detection* d = x_->FaultLocalization(i))
      out += "  localized:    " + At(d->t) + " at " + d->location + " by " + d->rule + "\n";
  }
  out += "  you were paged at " + At(std::min(lab_.paged, sc_.duration)) + "\n";
  if (steps_.empty()) out += "  you changed nothing\n";
  for (const Step& s : steps_) out += "  " + At(s.t) + "  on " + s.device + ": " + s.command + "\n";
  if (fixed_at_ >= 0 && fix_steps_ > 0 && injected >= 0) {
    const Time fixed = steps_[fix_steps_ - 1].t;
    out += "  recovered:    your last change before the passing check, at " + At(fixed) + ": " + At(fixed - injected) +
           " after the fault began; verified by " + At(fixed_at_) + "\n";
  } else if (fixed_at_ >= 0) {
    out += "  recovered:    the checks held by " + At(fixed_at_) + " with no change of yours: the fabric got over it alone\n";
  } else {
    out += "  recovered:    not yet (no check has passed)\n";
  }
  const Time lost = static_cast<Time>(lost_s_ * kSecond);
  out += "  time lost:    the training job lost " + At(lost) + " against the same fabric without the fault\n";
  if (sc_.cost.given) {
    out += "  cost:         " + PriceOf(sc_.cost, lost).arithmetic + "\n";
    if (sc_.timer_scale < 1) {
      // Production's timers are 1/scale as long: detection, retries and convergence, and with
      // them the time lost (a person's response to the page comes on top).
      out += "                at production time (timers x " + FormatSeconds(1 / sc_.timer_scale) + "): " +
             PriceOf(sc_.cost, static_cast<Time>(static_cast<double>(lost) / sc_.timer_scale)).arithmetic + "\n";
    }
  }
  return out;
}

std::vector<std::string> LabSession::Complete(const std::string& line) const {
  const std::vector<std::string> w = Words(line);
  const bool fresh = line.empty() || line.back() == ' ';
  const std::string word = fresh || w.empty() ? "" : w.back();
  const size_t index = fresh ? w.size() : w.size() - 1;
  std::vector<std::string> pool;
  const Topology& topo = x_->fabric().topology();
  if (index == 0) pool = kCommands;
  else if (index == 1 && w[0] == "on")
    for (const TopoNode& n : topo.nodes()) pool.push_back(n.name);
  else {
    for (const TopoNode& n : topo.nodes()) pool.push_back(n.name);
    for (const char* x : {"interfaces", "counters", "pfc", "queue", "pfcwd", "stats", "ecn", "interface", "shutdown",
                          "startup", "qos", "reload", "priority-group", "headroom-pool", "watermark", "drop", "statistic", "eth0"})
      pool.push_back(x);
    const int node = topo.FindNode(w.size() > 1 && w[0] == "on" ? w[1] : device_);
    if (node >= 0 && topo.nodes()[node].is_switch)
      for (size_t p = 0; p < topo.nodes()[node].ports.size(); ++p) pool.push_back(SwitchPortAlias(static_cast<int>(p)));
  }
  std::vector<std::string> out;
  for (const std::string& p : pool)
    if (p.compare(0, word.size(), word) == 0) out.push_back(p);
  return out;
}

}  // namespace rocelab
