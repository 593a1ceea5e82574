#include "net/fabric.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <utility>

#include "plan/headroom.h"
#include "topo/ideal_fct.h"
#include "topo/naming.h"
#include "util/config_error.h"
#include "util/process_memory.h"
#include "util/units.h"

namespace rocelab {

namespace {

Topology BuildTopology(const Scenario& sc) {
  try {
    return Topology::Build(sc.topology);
  } catch (const ConfigError& e) {
    if (!e.file().empty()) throw;
    std::string msg = e.what();
    size_t cut = msg.find("': ");
    throw ConfigError(sc.file, e.line(), e.column(), e.key(), cut == std::string::npos ? msg : msg.substr(cut + 3));
  }
}

}  // namespace

IntFormat Fabric::IntFormatOf() const {
  const auto& nodes = topo_.nodes();
  const HpccParams* hpcc = nullptr;
  for (int id : topo_.hosts()) {
    const NicSpec& nic = NicSpecFor(sc_, nodes[id].name);
    if (nic.cc == NicSpec::Cc::kHpcc) hpcc = &nic.hpcc;
  }
  if (!hpcc) return {};
  uint64_t fastest = 0;
  for (const TopoNode& n : nodes)
    for (const TopoPort& p : n.ports) {
      uint64_t code;
      if (!IntHop::RateCode(p.link.rate_bps, &code))
        throw ConfigError(sc_.file, 0, "nic.cc",
                          "hpcc: the link " + n.name + " - " + nodes[p.peer_node].name + " runs at " +
                              FormatRate(p.link.rate_bps) +
                              ", a rate no INT record names (10G, 25G, 40G, 50G, 100G, 200G, 400G or 800G)");
      fastest = std::max(fastest, p.link.rate_bps);
    }
  const uint64_t multi = hpcc->int_multi ? hpcc->int_multi : std::max<uint64_t>(1, fastest / 25000000000ull);
  return IntFormat::Of(hpcc->int_format, static_cast<uint32_t>(multi));
}

bool Fabric::WantLookahead() const {
  if (const char* force = std::getenv("ROCELAB_LOOKAHEAD"); force && *force) return std::string(force) != "0";
  // Far past what the caches hold (8 MB on the reference machine: docs/performance.md), most of
  // the reads of a hop go to memory and looking ahead pays; below, the hints cost more than they
  // save.
  size_t bytes = 0;
  for (const Node* dev : by_node_) bytes += dev->StateBytes();
  return bytes > kLookaheadBytes;
}

Fabric::Fabric(const Scenario& sc) : sc_(sc), topo_(BuildTopology(sc)) {
  ctx_.seed = sc.seed;
  ctx_.timer_scale = sc.timer_scale;
  for (int id : topo_.hosts()) ctx_.host_names.push_back(topo_.nodes()[id].name);
  ctx_.wire_overhead = sc.wire_overhead;
  ctx_.serialization_grain = sc.serialization_grain;
  ctx_.int_format = IntFormatOf();
  for (const StaticRoute& r : ResolveRoutes(topo_, sc_)) topo_.OverrideRoute(r.node, r.host, r.port);
  const auto& nodes = topo_.nodes();
  by_node_.assign(nodes.size(), nullptr);
  for (int id : topo_.hosts()) {
    const TopoNode& n = nodes[id];
    if (n.ports.size() != 1) throw ConfigError(sc_.file, 0, "topology", "host '" + n.name + "' must have exactly one link");
    nics_.push_back(std::make_unique<Nic>(&ctx_, n.name, NicSpecFor(sc_, n.name),
                                          &qps_, &tracker_));
    by_node_[id] = nics_.back().get();
  }
  for (int id : topo_.switches()) {
    const TopoNode& n = nodes[id];
    switches_.push_back(std::make_unique<Switch>(&ctx_, n.name, static_cast<int>(n.ports.size()), id, &topo_,
                                                 SwitchSpecFor(sc_, n.name)));
    by_node_[id] = switches_.back().get();
  }
  if (sc_.ecmp.hash == EcmpSpec::Hash::kNs3Hpcc)
    for (size_t s = 0; s < switches_.size(); ++s) switches_[s]->UseNs3Ecmp(sc_.ecmp.switch_seed.at(s), &sc_.ecmp.host_ipv4);
  for (size_t id = 0; id < nodes.size(); ++id) {
    Node* dev = by_node_[id];
    for (size_t p = 0; p < nodes[id].ports.size(); ++p) {
      const TopoPort& tp = nodes[id].ports[p];
      dev->Connect(static_cast<int>(p), by_node_[tp.peer_node], tp.peer_port, tp.link.rate_bps, tp.link.delay, tp.link.ber);
    }
  }
  ctx_.sim.SetLookahead(WantLookahead());
  // Headroom, pause response and receive thresholds follow each port's speed and cable.
  for (auto& s : switches_) {
    const SwitchSpec& spec = s->spec();
    for (int p = 0; p < s->num_ports(); ++p) {
      Port& port = s->port(p);
      port.pause_response = spec.pfc.response_time >= 0 ? spec.pfc.response_time : PeerResponseTime(port.rate_bps);
      s->SetHeadroom(p, PortHeadroom(spec, port.rate_bps, port.delay, WorstCellFillFrame(sc_, spec.cell)));
    }
    s->FinishSetup();
    pipelines_ |= spec.pipeline_latency > 0;
  }
  std::vector<Time> detection(nodes.size(), 0), convergence(nodes.size(), 0);
  for (int id : topo_.switches()) {
    const SwitchSpec& spec = static_cast<Switch*>(by_node_[id])->spec();
    detection[id] = ScaledTimer(spec.link_down_detection, sc_.timer_scale);
    convergence[id] = ScaledTimer(spec.route_convergence, sc_.timer_scale);
  }
  control_plane_ = std::make_unique<ControlPlane>(&ctx_, &topo_, std::move(detection), std::move(convergence));
  for (const StaticRoute& r : ResolveRoutes(topo_, sc_)) control_plane_->convergence().MarkStatic(r.node, r.host);
  for (auto& n : nics_) {
    Port& port = n->port(0);
    port.pause_response = n->spec().pause_response >= 0 ? n->spec().pause_response : PeerResponseTime(port.rate_bps);
    n->SetRxThresholds(Ieee8021QbbHeadroom(port.rate_bps, port.delay, DataFrameBytes(n->spec().mtu, true), 1,
                                           PeerResponseQuanta(port.rate_bps)).total);
  }
  flow_paths_ = std::make_unique<FlowPaths>(this, &topo_, &ctx_.pool);
  ctx_.flow_paths = flow_paths_.get();
  link_phy_ = std::make_unique<LinkPhy>(this);
}

void Fabric::SetLinkUp(int node, int port, bool up) {
  if (up && held_down_.count({node, port})) return;
  const TopoPort& tp = topo_.nodes()[node].ports[port];
  const std::string link = LinkName(topo_.nodes()[node].name, topo_.nodes()[tp.peer_node].name);
  bool changed = false;
  for (const auto& [n, p] : {std::pair{node, port}, std::pair{tp.peer_node, tp.peer_port}}) {
    if (by_node_[n]->Carrier(p) == up) continue;
    by_node_[n]->SetCarrier(p, up);
    changed = true;
    ctx_.timeline.Add(now(), topo_.nodes()[n].name, TimelinePortName(topo_, n, p), -1, up ? "carrier_up" : "carrier_down",
                      link + (up ? " is up" : " is down"));
  }
  if (changed) control_plane_->LinkChanged(node, port, up);
}

int Fabric::ReloadNic(const std::string& host) {
  const int index = topo_.nodes()[topo_.FindNode(host)].kind_index;
  int failed = 0;
  for (const QueuePair& qp : qps_) {
    if ((static_cast<int>(qp.src) != index && static_cast<int>(qp.dst) != index) || qp.done || qp.failed) continue;
    nic(topo_.nodes()[topo_.hosts()[qp.src]].name).FailQp(qp.id);
    ++failed;
  }
  nic(host).ReloadDriver();
  timeline().Add(now(), host, "eth0", -1, "nic_reload",
                 "driver reloaded: " + std::to_string(failed) + " queue pairs to error, the receive pipeline started again");
  return failed;
}

void Fabric::HoldLinkDown(int node, int port) {
  const TopoPort& tp = topo_.nodes()[node].ports[port];
  held_down_.insert({node, port});
  held_down_.insert({tp.peer_node, tp.peer_port});
  SetLinkUp(node, port, false);
  // A shut port decodes nothing, whatever its PCS was doing.
  by_node_[node]->SetPcsFault(port, false);
  by_node_[tp.peer_node]->SetPcsFault(tp.peer_port, false);
}

bool Fabric::ReleaseLink(int node, int port) {
  const TopoPort& tp = topo_.nodes()[node].ports[port];
  if (!held_down_.erase({node, port})) return false;
  held_down_.erase({tp.peer_node, tp.peer_port});
  link_phy_->AdminUp(node, port);
  return true;
}

void Fabric::StartWithLinkDown(int node, int port) {
  const TopoPort& tp = topo_.nodes()[node].ports[port];
  for (const auto& [n, p] : {std::pair{node, port}, std::pair{tp.peer_node, tp.peer_port}}) {
    held_down_.insert({n, p});
    by_node_[n]->SetCarrier(p, false);
    if (topo_.nodes()[n].is_switch) topo_.SetPortUp(n, p, false);
  }
  control_plane_->convergence().Converge(topo_.switches());
}

uint64_t Fabric::ConfiguredHeadroom(int node, int port) const {
  const Switch& s = *static_cast<const Switch*>(by_node_[node]);
  return PortHeadroom(s.spec(), s.port(port).rate_bps, s.port(port).delay, WorstCellFillFrame(sc_, s.spec().cell));
}

uint64_t Fabric::AutoHeadroom(int node, int port, Time delay) const {
  const Switch& s = *static_cast<const Switch*>(by_node_[node]);
  SwitchSpec spec = s.spec();
  spec.pfc.headroom_auto = true;  // the profile a cable length gives, whatever the switch was set to
  return PortHeadroom(spec, s.port(port).rate_bps, delay, WorstCellFillFrame(sc_, spec.cell));
}

Time Fabric::PathPipelineLatency(int src, int dst) const {
  Time sum = 0;
  for (int node : topo_.PathSwitches(src, dst)) sum += static_cast<const Switch*>(by_node_[node])->spec().pipeline_latency;
  return sum;
}

QueuePair& Fabric::AddFlow(int src, int dst, uint64_t size, Time start, uint8_t dscp) {
  QueuePair qp;
  qp.id = static_cast<uint32_t>(qps_.size());
  qp.src = static_cast<uint32_t>(src);
  qp.dst = static_cast<uint32_t>(dst);
  qp.dscp = dscp;
  const Nic& nic = *nics_[src];
  qp.priority = nic.spec().dscp_to_priority[dscp & 63];
  // RoCEv2 puts per-QP entropy in the UDP source port (49152..65535).
  qp.udp_sport = static_cast<uint16_t>(49152 + (SplitMix64(sc_.seed * 0x9E37ull + qp.id) % 16384));
  qp.mtu = nic.spec().mtu;
  qp.Post(Verb::kWrite, size, start, 0);
  qp.start = start;
  qp.ideal_fct = IdealFct(topo_, src, dst, size, nic.spec(), sc_.wire_overhead, sc_.serialization_grain);
  if (pipelines_ && qp.ideal_fct > 0) qp.ideal_fct += 2 * PathPipelineLatency(src, dst);
  qp.rp.Init(&nic.spec().dcqcn, nic.port(0).rate_bps);
  qp.dctcp.Init(&nic.spec().dctcp, nic.port(0).rate_bps);
  qp.timely.Init(&nic.spec().timely, nic.port(0).rate_bps);
  // HPCC and a sending window both measure the path by its base RTT.
  const NicSpec& spec = nic.spec();
  if (spec.cc == NicSpec::Cc::kHpcc || spec.window.enabled) {
    if (spec.window.longest_base_rtt && longest_base_rtt_.rtt == 0)
      longest_base_rtt_ = LongestBaseRtt(topo_, qp.mtu, sc_.serialization_grain);
    const BaseRtt t = spec.window.longest_base_rtt ? longest_base_rtt_
                                                    : PathBaseRtt(topo_, src, dst, qp.mtu, sc_.serialization_grain);
    if (spec.cc == NicSpec::Cc::kHpcc) qp.hpcc.Init(&spec.hpcc, nic.port(0).rate_bps, t.rtt, t.bdp_bytes);
    if (spec.window.enabled) {
      qp.window_bdp = t.bdp_bytes;
      qp.line_rate_bps = nic.port(0).rate_bps;
      qp.SetWindow(t.bdp_bytes);  // at line rate
    }
  }
  const Nic& responder = *nics_[dst];
  qp.response_rp.Init(&responder.spec().dcqcn, responder.port(0).rate_bps);
  qps_.push_back(qp);
  return qps_.back();
}

void Fabric::StartFlows() {
  tracker_.remaining = static_cast<int64_t>(qps_.size());
  for (const QueuePair& qp : qps_) nics_[qp.src]->ScheduleFlow(qp.id);
}

uint32_t Fabric::OpenQueuePair(int src, int dst, uint8_t dscp, MessageListener* listener) {
  AddFlow(src, dst, 0, ctx_.sim.Now(), dscp);
  QueuePair& qp = qps_.back();
  qp.messages.clear();
  qp.num_packets = 0;
  qp.size = 0;
  qp.open = true;
  qp.listener = listener;
  return qp.id;
}

void Fabric::PostMessage(uint32_t qp, Verb verb, uint64_t bytes, uint64_t tag) {
  QueuePair& q = qps_[qp];
  q.Post(verb, bytes, ctx_.sim.Now(), tag);
  nics_[q.src]->Activate(qp);
}

void Fabric::WorkDone() {
  if (tracker_.Done()) ctx_.sim.Stop();
}

int Fabric::HostIndex(const std::string& name) const {
  int id = topo_.FindNode(name);
  if (id < 0 || topo_.nodes()[id].is_switch) return -1;
  return topo_.nodes()[id].kind_index;
}

const Nic& Fabric::nic(const std::string& host) const {
  return *nics_.at(topo_.nodes().at(topo_.FindNode(host)).kind_index);
}
Nic& Fabric::nic(const std::string& host) { return const_cast<Nic&>(std::as_const(*this).nic(host)); }

const Switch& Fabric::sw(const std::string& name) const {
  return *switches_.at(topo_.nodes().at(topo_.FindNode(name)).kind_index);
}
Switch& Fabric::sw(const std::string& name) { return const_cast<Switch&>(std::as_const(*this).sw(name)); }

void Fabric::RunUntil(Time t) {
  auto t0 = std::chrono::steady_clock::now();
  if (tracker_.Running()) ctx_.sim.RunUntil(std::min(t, sc_.duration));
  engine_.wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void Fabric::Run() {
  RunUntil(sc_.duration);
  Finish();
}

void Fabric::Finish() {
  if (finished_) return;
  finished_ = true;
  for (auto& n : nics_) n->FinishCounters(ctx_.sim.Now());
  for (auto& s : switches_) s->FinishCounters(ctx_.sim.Now());
  engine_.events = ctx_.sim.EventsProcessed();
  engine_.packet_hops = ctx_.packet_hops;
  engine_.peak_packets = ctx_.pool.PeakInUse();
  engine_.bytes_per_packet =
      engine_.peak_packets
          ? static_cast<double>(ctx_.pool.AllocatedBytes() + ctx_.sim.QueueBytes()) /
                static_cast<double>(engine_.peak_packets)
          : 0.0;
  engine_.peak_rss_kb = PeakRssKb();
  engine_.huge_pages_kb = HugePagesKb();
}

std::vector<std::pair<int, int>> Fabric::PathOf(const Packet& headers) const {
  std::vector<std::pair<int, int>> path;
  int node = topo_.hosts()[headers.src];
  int port = 0;
  for (int hop = 0; hop < 64; ++hop) {
    path.push_back({node, port});
    node = topo_.nodes()[node].ports[port].peer_node;
    if (!topo_.nodes()[node].is_switch) break;
    port = static_cast<const Switch&>(*by_node_[node]).Route(&headers);
    if (port < 0) return {};
  }
  if (node != topo_.hosts()[headers.dst]) return {};
  return path;
}

}  // namespace rocelab
