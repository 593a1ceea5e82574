#include "run/pingmesh.h"

#include <algorithm>

#include "topo/topology.h"

namespace rocelab {

Pingmesh::Pingmesh(Fabric* fabric, Time interval, Time timeout, int fabric_peers, uint8_t dscp)
    : fabric_(fabric), interval_(std::max<Time>(interval, 1)), timeout_(std::max<Time>(timeout, 1)),
      fabric_peers_(fabric_peers), dscp_(dscp) {
  const Topology& topo = fabric_->topology();
  const size_t n = topo.hosts().size();
  rack_.resize(n);
  elsewhere_.resize(n);
  auto tor = [&](size_t h) { return topo.nodes()[topo.hosts()[h]].ports[0].peer_node; };
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b)
      if (a != b) (tor(a) == tor(b) ? rack_ : elsewhere_)[a].push_back(static_cast<uint32_t>(b));
  for (const auto& nic : fabric_->nics()) nic->SetProbeListener(this);
  fabric_->ScheduleAt(fabric_->now(), this, 0);
}

Pingmesh::~Pingmesh() {
  for (const auto& nic : fabric_->nics()) nic->SetProbeListener(nullptr);
}

Pingmesh::Budget Pingmesh::budget() const {
  Budget b;
  for (size_t h = 0; h < rack_.size(); ++h)
    b.pairs += rack_[h].size() + std::min<size_t>(static_cast<size_t>(fabric_peers_), elsewhere_[h].size());
  const double per_s = static_cast<double>(kSecond) / static_cast<double>(interval_);
  b.probes_per_s = static_cast<double>(b.pairs) * per_s;
  // Each host sends its own probes and answers as many: two frames per probe, on the wire.
  const double wire_bits = 8.0 * (kProbeFrameBytes + fabric_->scenario().wire_overhead);
  b.bits_per_s_per_host = rack_.empty() ? 0 : 2 * b.probes_per_s / static_cast<double>(rack_.size()) * wire_bits;
  return b;
}

void Pingmesh::HandleEvent(uint32_t, uint32_t, Packet*) {
  Judge();
  Round();
  fabric_->ScheduleAt(fabric_->now() + interval_, this, 0);
}

void Pingmesh::Round() {
  const Time now = fabric_->now();
  for (uint32_t src = 0; src < rack_.size(); ++src) {
    Nic& nic = *fabric_->nics()[src];
    auto send = [&](uint32_t dst, uint16_t sport) {
      pending_.push_back({PathIndex(src, dst, sport), now, src, dst, sport, false});
      nic.SendProbe(src, dst, sport, dscp_, next_seq_++);
    };
    // Within the rack there is one path: one source port.
    for (uint32_t dst : rack_[src]) send(dst, kFirstSourcePort);
    const std::vector<uint32_t>& far = elsewhere_[src];
    const size_t k = std::min<size_t>(static_cast<size_t>(fabric_peers_), far.size());
    for (size_t j = 0; j < k; ++j) {
      // Host `src` starts its rotation at its own place, so the fabric probes spread evenly.
      const size_t slot = round_ * k + j;
      send(far[(src + slot) % far.size()], static_cast<uint16_t>(kFirstSourcePort + slot % kSourcePorts));
    }
  }
  ++round_;
}

void Pingmesh::Judge() {
  const Time now = fabric_->now();
  while (!pending_.empty() && pending_.front().sent + timeout_ <= now) {
    const Pending& p = pending_.front();
    if (p.answered) {
      // counted when the answer came
    } else if (PathIndex(p.src, p.dst, p.sport) != p.path) {
      ++rerouted_;
    } else {
      paths_[p.path].judged += 1;
      paths_[p.path].lost += 1;
    }
    pending_.pop_front();
    ++first_pending_;
  }
}

void Pingmesh::OnProbeReply(const Packet& reply) {
  const uint32_t seq = reply.psn;
  if (seq < first_pending_ || seq - first_pending_ >= pending_.size()) return;  // judged lost already
  Pending& p = pending_[seq - first_pending_];
  if (p.answered || fabric_->now() - p.sent > timeout_) return;  // late: it is lost at its timeout
  p.answered = true;
  const uint64_t* t = reply.int_hops;
  const double rtt = static_cast<double>((t[Packet::kReplyArrived] - t[Packet::kProbeSent]) -
                                         (t[Packet::kReplySent] - t[Packet::kProbeArrived])) /
                     kNanosecond;
  ProbePath& path = paths_[p.path];
  path.rtt_min_ns = path.judged - path.lost > 0 ? std::min(path.rtt_min_ns, rtt) : rtt;
  path.rtt_max_ns = std::max(path.rtt_max_ns, rtt);
  path.judged += 1;
  path.rtt_sum_ns += rtt;
  if (reply.flags & Packet::kFlagEcnEcho || reply.ecn == kCe) path.ce_marked += 1;
}

std::string Pingmesh::HopName(int node, int port) const {
  auto name = [&](int nd, int pt) {
    const TopoNode& n = fabric_->topology().nodes()[nd];
    return n.name + ":" + (n.is_switch ? SwitchPortAlias(pt) : std::string(kSimHostPort));
  };
  const TopoPort& tp = fabric_->topology().nodes()[node].ports[port];
  return name(node, port) + ">" + name(tp.peer_node, tp.peer_port);
}

uint32_t Pingmesh::PathIndex(uint32_t src, uint32_t dst, uint16_t sport) {
  Packet probe{};
  probe.type = PacketType::kProbe;
  probe.src = src;
  probe.dst = dst;
  probe.udp_sport = sport;
  probe.udp_dport = kRoceUdpPort;
  std::vector<std::pair<int, int>> hops = fabric_->PathOf(probe);
  probe.type = PacketType::kProbeReply;
  std::swap(probe.src, probe.dst);
  const std::vector<std::pair<int, int>> back = fabric_->PathOf(probe);
  // No way there or back: a path of no links, on which tomography places nothing.
  if (back.empty()) hops.clear();
  if (!hops.empty()) hops.insert(hops.end(), back.begin(), back.end());
  std::string key = std::to_string(src) + " " + std::to_string(dst);
  for (const auto& [node, port] : hops) key += " " + std::to_string(node) + ":" + std::to_string(port);
  auto [it, fresh] = path_index_.try_emplace(key, static_cast<uint32_t>(paths_.size()));
  if (!fresh) return it->second;
  const Topology& topo = fabric_->topology();
  ProbePath p;
  p.src = topo.nodes()[topo.hosts()[src]].name;
  p.dst = topo.nodes()[topo.hosts()[dst]].name;
  p.same_rack = std::find(rack_[src].begin(), rack_[src].end(), dst) != rack_[src].end();
  for (const auto& [node, port] : hops) {
    std::string h = HopName(node, port);
    if (std::find(p.hops.begin(), p.hops.end(), h) == p.hops.end()) p.hops.push_back(std::move(h));
  }
  paths_.push_back(std::move(p));
  return it->second;
}

}  // namespace rocelab
