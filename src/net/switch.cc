#include "net/switch.h"

#include <algorithm>

#include "cc/int_hop.h"
#include "net/ecmp_hash.h"
#include "net/flow_paths.h"
#include "plan/headroom.h"

namespace rocelab {

Switch::Switch(SimContext* ctx, const std::string& name, int num_ports, int topo_node, const Topology* topo,
               const SwitchSpec& spec)
    : Node(ctx, name, num_ports),
      ingress_(num_ports),
      profile_cable_(num_ports, -1),
      port_state_(new PortState[num_ports]()),
      pgs_(new std::array<PriorityGroup, kNumPriorities>[num_ports]()),
      queues_(new std::array<EgressQueue, kNumPriorities>[num_ports]()),
      topo_(topo),
      topo_node_(topo_node),
      ecmp_seed_(SplitMix64(ctx->seed ^ SplitMix64(static_cast<uint64_t>(topo_node) + 0xEC3Bull))),
      spec_(spec),
      ecn_rng_(ctx->seed, 0xEC00000ull + static_cast<uint64_t>(topo_node)),
      buffer_cells_bytes_(spec.buffer / spec.cell * spec.cell) {
  // Quanta scale so the lightest queue still sends one maximum frame per round.
  uint32_t min_w = UINT32_MAX;
  for (int q = 0; q < kNumPriorities; ++q)
    if (!(spec_.strict_mask & (1u << q)) && spec_.ets_weights[q] > 0) min_w = std::min(min_w, spec_.ets_weights[q]);
  for (int q = 0; q < kNumPriorities; ++q)
    quantum_[q] = static_cast<int32_t>(std::max<uint32_t>(spec_.ets_weights[q], 1) * kMaxJumboFrame /
                                       (min_w == UINT32_MAX ? 1 : min_w));
  set_pause_quanta(spec_.pfc.quanta);
  set_pause_expiry(spec_.pfc.expiry);
  SyncFrameConfig();
}

void Switch::SyncFrameConfig() {
  frame_.cell = spec_.cell;
  frame_.mtu = spec_.mtu;
  frame_.lossless = spec_.pfc.enabled ? spec_.lossless_mask : 0;
  set_pfc_mask(frame_.lossless);  // the node's PFC (net/node.h): the same priorities
  frame_.ecn_mask = spec_.ecn_mask;
  frame_.strict_mask = spec_.strict_mask;
  frame_.trust_dscp = spec_.trust_dscp;
  frame_.ns3_mmu = spec_.mmu == SwitchSpec::Mmu::kNs3Hpcc;
  frame_.mark_on_dequeue = spec_.ecn.mark_on_dequeue;
  frame_.pipeline_latency = spec_.pipeline_latency;
  dscp_priority_nibbles_.fill(0);
  for (int d = 0; d < 64; ++d)
    dscp_priority_nibbles_[d >> 1] |= static_cast<uint8_t>((spec_.dscp_to_priority[d] & 0xF) << ((d & 1) * 4));
  pfc_alpha_ = spec_.pfc.alpha;
  lossy_alpha_ = spec_.lossy_alpha;
  egress_lossy_alpha_ = spec_.egress_lossy_alpha;
}

void Switch::SetQos(const std::array<uint8_t, 64>& dscp_to_priority, bool trust_dscp, uint8_t lossless_mask,
                    uint8_t ecn_mask) {
  spec_.dscp_to_priority = dscp_to_priority;
  spec_.trust_dscp = trust_dscp;
  spec_.lossless_mask = lossless_mask;
  spec_.ecn_mask = ecn_mask;
  SyncFrameConfig();
  // A priority leaving the lossless set stops being paused and pausing now: its XOFFs toward the
  // upstream ports end with an XON, pauses it honoured are dropped.
  ChangePfcMask(frame_.lossless);
}

void Switch::SetStormDrop(int port, int prio, bool drop) {
  if (!storm_drops_) storm_drops_.reset(new StormDrops[ports_.size()]());
  StormDrops& d = storm_drops_[port];
  if (!drop) {
    d.mask &= static_cast<uint8_t>(~(1u << prio));
    return;
  }
  d.mask |= static_cast<uint8_t>(1u << prio);
  // What the queue holds goes too (SONiC's zero-size buffer profile), its buffer freed, so
  // the ports that fed it may resume.
  EgressQueue& q = queues_[port][prio];
  while (!q.fifo.empty()) {
    Packet* pkt = q.fifo.pop();
    --port_state_[port].queued;
    d.Count(d.tx, prio, pkt->frame_bytes);
    Release(pkt);
    ctx_->pool.Put(pkt);
  }
  port_state_[port].backlogged &= static_cast<uint8_t>(~(1u << prio));
}

PortCounters Switch::port_counters(int port) const {
  PortCounters c = ports_[port].counters;
  for (int prio = 0; prio < kNumPriorities; ++prio) c.rx_prio[prio] = received(port, prio);
  return c;
}

void Switch::SetHeadroom(int port, uint64_t bytes) {
  ingress_[port].headroom = (bytes + spec_.cell - 1) / spec_.cell * spec_.cell;
}

void Switch::FinishSetup() {
  uint64_t reserved = 0;
  int lossless_pgs = 0;
  for (int p = 0; p < kNumPriorities; ++p)
    if (Lossless(p)) ++lossless_pgs;
  for (const PortIngress& p : ingress_) reserved += p.headroom * lossless_pgs;
  headroom_pool_limit_ = kNoHeadroomPool;
  if (spec_.pfc.over_subscribe_ratio > 0 && spec_.mmu != SwitchSpec::Mmu::kNs3Hpcc) {
    reserved = ReservedHeadroom(reserved, spec_.pfc.over_subscribe_ratio, spec_.cell);
    headroom_pool_limit_ = reserved;
  }
  shared_size_ = reserved < buffer_cells_bytes_ ? buffer_cells_bytes_ - reserved : 0;
  if (spec_.mmu == SwitchSpec::Mmu::kNs3Hpcc) {
    // third.cc: headroom once per port, one reserve per port, and alpha 1/8 at the NIC rate
    // doubling with each doubling of the port's rate (its pfc_a_shift).
    uint64_t headroom = 0;
    for (const PortIngress& p : ingress_) headroom += p.headroom;
    const uint64_t reserves = ports_.size() * kNs3Reserve;
    ns3_free_base_ = spec_.buffer > headroom + reserves ? spec_.buffer - headroom - reserves : 0;
    for (size_t p = 0; p < ports_.size(); ++p) {
      uint64_t rate = ports_[p].rate_bps;
      uint8_t& shift = ingress_[p].ns3_shift;
      for (shift = 3; rate > spec_.mmu_nic_rate_bps && shift > 0; rate /= 2) --shift;
    }
  }
  SetEcnFrom(spec_);
}

void Switch::SetEcnFrom(const SwitchSpec& spec) {
  spec_.ecn = spec.ecn;
  SyncFrameConfig();
  port_ecn_.assign(ports_.size(), spec.ecn);
  for (size_t p = 0; p < ports_.size(); ++p)
    for (const EcnSpec& e : spec.ecn_by_rate)
      if (e.rate_bps == ports_[p].rate_bps) port_ecn_[p] = e;
  for (size_t p = 0; p < ports_.size(); ++p) SyncEcn(static_cast<int>(p));
}

void Switch::SetPortEcn(int port, const EcnSpec& e) {
  port_ecn_[port] = e;
  SyncEcn(port);
}

void Switch::SyncEcn(int port) {
  const EcnSpec& e = port_ecn_[port];
  PortState& s = port_state_[port];
  s.ecn = e.enabled;
  s.kmin = e.kmin;
  s.kmax = e.kmax;
  s.pmax = e.pmax;
}

namespace {

// Whether a blackholed port's corrupted entry catches this packet's flow: a share of the
// 5-tuples, each always or never.
bool Blackholed(const PortFaults& f, const Packet& pkt) {
  const uint64_t key = (static_cast<uint64_t>(pkt.src) << 32) ^ pkt.dst ^ (static_cast<uint64_t>(pkt.udp_sport) << 48) ^
                       (static_cast<uint64_t>(pkt.udp_dport) << 16);
  return static_cast<double>(SplitMix64(key ^ f.blackhole_seed) >> 11) * 0x1.0p-53 < f.blackhole;
}

}  // namespace

int Switch::Route(const Packet* pkt) const {
  Topology::Span hops = topo_->NextHops(topo_node_, static_cast<int>(pkt->dst));
  if (hops.size == 1) return hops.begin[0];
  if (hops.size == 0) return -1;
  if (ns3_host_ipv4_) {
    const bool forward = pkt->type == PacketType::kData || pkt->type == PacketType::kReadRequest;
    const std::vector<uint32_t>& ip = *ns3_host_ipv4_;
    return hops.begin[Ns3EcmpHash(ip[pkt->src], ip[pkt->dst], pkt->udp_sport, pkt->udp_dport, forward, ns3_seed_) %
                      hops.size];
  }
  // 5-tuple: source and destination address, protocol UDP, source port (QP
  // entropy) and the RoCEv2 destination port 4791, mixed with this switch's seed.
  uint64_t key = (static_cast<uint64_t>(pkt->src) << 32) ^ pkt->dst ^
                 (static_cast<uint64_t>(pkt->udp_sport) << 48) ^ (static_cast<uint64_t>(kRoceUdpPort) << 20) ^ 17;
  uint64_t h = SplitMix64(key ^ ecmp_seed_);
  return hops.begin[(h >> 32) % hops.size];
}

void Switch::OnFrame(int in_port, Packet* pkt) {
  // DSCP trust classifies by the IP header; PCP trust by the 802.1p bits the previous hop sent.
  const int prio = frame_.trust_dscp ? PriorityOfDscp(pkt->dscp) : pkt->priority;
  pkt->priority = static_cast<uint8_t>(prio);
  Port& ip = ports_[in_port];
  // Received, counted once: in the PG's line, which admission writes anyway (port_counters).
  PriorityGroup& pg = pgs_[in_port][prio];
  pg.counters.packets++;
  pg.counters.bytes += pkt->frame_bytes;

  // A stamped packet carries this switch's choice, made under the routes in force unless they
  // have changed since (net/flow_paths.h).
  const unsigned hop = kSendTtl - pkt->ttl;
  const int out = hop < pkt->path_hops && ctx_->flow_paths->Current() ? pkt->path[hop] : Route(pkt);
  if (storm_drops_) {
    // A PFC watchdog in drop mode: what comes from, or goes to, a storming queue is dropped
    // here, before it is charged to any buffer, so nothing upstream is paused for it.
    StormDrops& from = storm_drops_[in_port];
    if (from.Drops(prio)) {
      from.Count(from.rx, prio, pkt->frame_bytes);
      ctx_->pool.Put(pkt);
      return;
    }
    if (out >= 0 && storm_drops_[out].Drops(prio)) {
      storm_drops_[out].Count(storm_drops_[out].tx, prio, pkt->frame_bytes);
      ctx_->pool.Put(pkt);
      return;
    }
  }
  if (pkt->ttl <= 1) {
    // A routing loop: the packet would circle until its TTL runs out.
    ++ttl_expired_;
    ip.counters.rx_discards++;
    ctx_->pool.Put(pkt);
    return;
  }
  --pkt->ttl;
  if (out < 0 || pkt->frame_bytes > frame_.mtu + 18) {
    // No route, or larger than the port MTU: discarded at ingress.
    ip.counters.rx_discards++;
    if (out < 0) no_route_drop_bytes_ += pkt->frame_bytes;
    ctx_->pool.Put(pkt);
    return;
  }
  if (const Port& op = ports_[out];
      op.watched && op.faults && op.faults->blackhole > 0 && Blackholed(*op.faults, *pkt)) {
    // A corrupted forwarding entry: the packet was taken in and counted, and goes nowhere.
    ctx_->pool.Put(pkt);
    return;
  }
  const uint64_t bytes = Cells(pkt->frame_bytes);
  const bool admitted = frame_.ns3_mmu ? AdmitNs3(in_port, prio, bytes) : AdmitShared(in_port, prio, out, bytes);
  if (!admitted) {
    if (Lossless(prio)) {
      // Headroom overflow on a lossless PG (its own, or the shared headroom pool it draws on)
      // is the only way a lossless class loses data.
      lossless_drops_++;
      pg.counters.dropped_packets++;
      if (headroom_pool_limit_ != kNoHeadroomPool && pg.headroom + bytes <= ingress_[in_port].headroom)
        headroom_pool_drops_++;
      ip.counters.rx_discards++;
      ip.counters.rx_prio_discards[prio]++;
    } else {
      EgressQueue& q = queues_[out][prio];
      lossy_drops_++;
      q.counters.dropped_packets++;
      q.counters.dropped_bytes += pkt->frame_bytes;
    }
    ctx_->pool.Put(pkt);
    if (Lossless(prio) && !frame_.ns3_mmu) Xoff(in_port, prio);
    return;
  }
  pkt->in_port = static_cast<uint16_t>(in_port);
  if (frame_.pipeline_latency > 0) {
    // In the pipeline: charged to the buffer, not yet in a queue (the order of frames is kept,
    // each taking the same time).
    ctx_->sim.Schedule(Now() + frame_.pipeline_latency, this, kPipelineExit,
                       static_cast<uint32_t>(out) * kNumPriorities + static_cast<uint32_t>(prio), pkt);
    return;
  }
  Enqueue(out, prio, pkt);
}

void Switch::OnNodeEvent(uint32_t kind, uint32_t arg, Packet* pkt) {
  if (kind != kPipelineExit) return;
  const int out = static_cast<int>(arg / kNumPriorities), prio = static_cast<int>(arg % kNumPriorities);
  if (storm_drops_ && storm_drops_[out].Drops(prio)) {
    // The watchdog started dropping for that queue while the frame was in the pipeline.
    storm_drops_[out].Count(storm_drops_[out].tx, prio, pkt->frame_bytes);
    Release(pkt);
    ctx_->pool.Put(pkt);
    return;
  }
  Enqueue(out, prio, pkt);
}

void Switch::Enqueue(int out, int prio, Packet* pkt) {
  EgressQueue& q = queues_[out][prio];
  if (!frame_.mark_on_dequeue) MaybeMarkEcn(out, q, prio, pkt, false);
  q.fifo.push(pkt);
  PortState& os = port_state_[out];
  ++os.queued;
  os.backlogged |= static_cast<uint8_t>(1u << prio);
  q.counters.watermark_bytes = std::max(q.counters.watermark_bytes, q.fifo.bytes());
  Kick(out);
}

void Switch::PrefetchFrame(int in_port, const Packet* pkt) const {
  // The lines OnFrame reads or writes for a frame that is forwarded: the in-port's PG, and,
  // where the packet carries its path, the out-port, its state, its queue, its counters and the
  // wire it sends on.
  const int prio = frame_.trust_dscp ? PriorityOfDscp(pkt->dscp) : pkt->priority & 7;
  __builtin_prefetch(&pgs_[in_port][prio], 1);
  const unsigned hop = kSendTtl - pkt->ttl;
  if (hop >= pkt->path_hops || pkt->path[hop] >= ports_.size()) return;
  const int out = pkt->path[hop];
  PrefetchSendingPort(out);
  PrefetchSendingQueue(out, prio);
}

uint32_t Switch::HotLines() const {
  // The node's first line (its ports and wires), and the two of the per-frame members.
  const auto line = [this](const void* member) {
    return 1u << ((static_cast<const char*>(member) - reinterpret_cast<const char*>(this)) / 64);
  };
  return 1u | line(&port_state_) | line(&dscp_priority_nibbles_);
}

void Switch::PrefetchSendingPort(int port) const {
  __builtin_prefetch(&ports_[port].out, 1);
  __builtin_prefetch(&port_state_[port], 1);
  const OutWire& w = out_wires_[port];
  __builtin_prefetch(w.wire, 1);  // where the frame goes next: the peer port's wire
  __builtin_prefetch(w.last_sent, 1);  // the frame ahead on it, which the send links the frame to
}

void Switch::PrefetchSendingQueue(int port, int prio) const {
  __builtin_prefetch(&queues_[port][prio], 1);
  __builtin_prefetch(&ports_[port].counters.tx_prio[prio], 1);
}

const Packet* Switch::LikelyNext(int port) const {
  // The highest strict-priority queue with a frame, else the queue at the round-robin position
  // if it has one, else the first that has.
  const PortState& ps = port_state_[port];
  const uint32_t backlogged = ps.backlogged;
  if (!backlogged) return nullptr;
  int q = __builtin_ctz(backlogged);
  if (const uint32_t strict = backlogged & frame_.strict_mask) q = 31 - __builtin_clz(strict);
  else if (backlogged & (1u << ps.rr)) q = ps.rr;
  return queues_[port][q].fifo.front();
}

void Switch::PrefetchSend(int port, const Packet* likely) const {
  // The lines Kick, NextFrame and Transmit read for the port: its sending line, its state and
  // the wire it sends on; and for the frame it will likely send, that frame's queue, the port's
  // counters for its priority and the PG it leaves.
  PrefetchSendingPort(port);
  if (!likely) return;
  const int prio = likely->priority & 7;
  PrefetchSendingQueue(port, prio);
  if (likely->in_port < ports_.size()) __builtin_prefetch(&pgs_[likely->in_port][prio], 1);
}

void Switch::MaybeMarkEcn(int port, EgressQueue& q, int prio, Packet* pkt, bool departing) {
  const PortState& e = port_state_[port];
  if (!e.ecn || !(frame_.ecn_mask & (1u << prio)) || pkt->ecn == kNotEct || pkt->ecn == kCe) return;
  // RED on the instantaneous queue length (DCQCN's marking profile). The HPCC code measures
  // the queue behind a departing packet; rocelab counts the packet itself.
  uint64_t len = q.fifo.bytes();
  if (departing && frame_.ns3_mmu) len -= pkt->frame_bytes;
  bool mark;
  if (len <= e.kmin) {
    mark = false;
  } else if (len >= e.kmax) {
    mark = true;
  } else {
    double p = e.pmax * static_cast<double>(len - e.kmin) / static_cast<double>(e.kmax - e.kmin);
    mark = ecn_rng_.Uniform() < p;
  }
  if (mark) {
    pkt->ecn = kCe;
    q.counters.ecn_marked++;
    ecn_marked_++;
  }
}

bool Switch::AdmitShared(int in_port, int prio, int out, uint64_t bytes) {
  PriorityGroup& pg = pgs_[in_port][prio];
  const bool lossless = Lossless(prio);
  // A lossy packet must also fit its egress queue's share (SONiC's q_lossy_profile): in an
  // incast the queue, not any one ingress PG, is what fills.
  if (!lossless && queues_[out][prio].fifo.bytes() + bytes > DynamicLimit(egress_lossy_alpha_)) return false;
  const uint64_t limit = DynamicLimit(lossless ? pfc_alpha_ : lossy_alpha_);
  const bool fits_shared = pg.shared + bytes <= limit && shared_used_ + bytes <= shared_size_;
  const bool in_headroom = !fits_shared && lossless && pg.headroom + bytes <= ingress_[in_port].headroom &&
                           headroom_used_ + bytes <= headroom_pool_limit_;
  if (!fits_shared && !in_headroom) return false;
  if (in_headroom) {
    pg.headroom += bytes;
    pg.counters.headroom_watermark_bytes = std::max(pg.counters.headroom_watermark_bytes, pg.headroom);
    headroom_used_ += bytes;
    headroom_pool_watermark_ = std::max(headroom_pool_watermark_, headroom_used_);
  } else {
    pg.shared += bytes;
    shared_used_ += bytes;
    shared_watermark_ = std::max(shared_watermark_, shared_used_);
    pg.counters.shared_watermark_bytes = std::max(pg.counters.shared_watermark_bytes, pg.shared);
  }
  if (lossless && (in_headroom || pg.shared >= DynamicLimit(pfc_alpha_))) Xoff(in_port, prio);
  return true;
}

void Switch::ReleaseShared(int in, int prio, uint64_t bytes) {
  PriorityGroup& pg = pgs_[in][prio];
  // The PG's occupancy above its XOFF point is headroom use, so a departure frees
  // headroom first, whichever packet it is.
  const uint64_t from_headroom = std::min(pg.headroom, bytes);
  pg.headroom -= from_headroom;
  if (from_headroom) headroom_used_ -= from_headroom;  // a cold line: most departures free none
  pg.shared -= bytes - from_headroom;
  shared_used_ -= bytes - from_headroom;
  // XON once the occupancy is xon_offset below the XOFF point (the dynamic threshold), or at
  // the static XON if that is higher: SAI resumes at usage <= max(XON_TH, limit - XON_OFFSET_TH)
  // (saibuffer.h, SAI_BUFFER_PROFILE_ATTR_XON_TH and _XON_OFFSET_TH; SONiC's `xon` and
  // `xon_offset`). The headroom is empty then, so the next pause round trip finds all of it free.
  if (pg.xoff && pg.headroom == 0) {
    const uint64_t limit = DynamicLimit(pfc_alpha_);
    const uint64_t resume = std::max(spec_.pfc.xon, limit > spec_.pfc.xon_offset ? limit - spec_.pfc.xon_offset : 0);
    if (pg.shared == 0 || pg.shared <= resume) Xon(in, prio);
  }
}

// The HPCC ns-3 code's switch-mmu.cc (CheckIngressAdmission, UpdateIngressAdmission,
// CheckShouldPause): reserve first, then the shared pool under its threshold, a packet that
// would cross the threshold goes whole into headroom; dropped only when it fits neither.
// Only lossless traffic is accounted: its control queue (ACKs, CNPs) bypasses the MMU.
bool Switch::AdmitNs3(int in_port, int prio, uint64_t bytes) {
  if (!Lossless(prio)) return true;
  PriorityGroup& pg = pgs_[in_port][prio];
  const uint64_t threshold = Ns3Threshold(in_port);
  if (bytes + pg.headroom > ingress_[in_port].headroom && bytes + Ns3SharedPart(pg) > threshold) return false;
  const uint64_t after = pg.shared + bytes;
  if (after > kNs3Reserve && after - kNs3Reserve > threshold) {
    pg.headroom += bytes;
    pg.counters.headroom_watermark_bytes = std::max(pg.counters.headroom_watermark_bytes, pg.headroom);
  } else {
    if (after > kNs3Reserve) shared_used_ += std::min(bytes, after - kNs3Reserve);
    pg.shared = after;
    shared_watermark_ = std::max(shared_watermark_, shared_used_);
    pg.counters.shared_watermark_bytes = std::max(pg.counters.shared_watermark_bytes, pg.shared);
  }
  if (pg.headroom > 0 || Ns3SharedPart(pg) >= Ns3Threshold(in_port)) Xoff(in_port, prio);
  return true;
}

// RemoveFromIngressAdmission and CheckShouldResume: headroom drains first, then shared, then
// the reserve; XON when no headroom is in use and the shared part is xon_offset (3 KB) under
// the threshold, checked when a packet of that PG leaves.
void Switch::ReleaseNs3(int in, int prio, uint64_t bytes) {
  if (!Lossless(prio)) return;
  PriorityGroup& pg = pgs_[in][prio];
  const uint64_t from_headroom = std::min(pg.headroom, bytes);
  const uint64_t from_shared = std::min(bytes - from_headroom, Ns3SharedPart(pg));
  pg.headroom -= from_headroom;
  pg.shared -= bytes - from_headroom;
  shared_used_ -= from_shared;
  const uint64_t shared_part = Ns3SharedPart(pg);
  if (pg.xoff && pg.headroom == 0 &&
      (shared_part == 0 || shared_part + spec_.pfc.xon_offset <= Ns3Threshold(in)))
    Xon(in, prio);
}

Packet* Switch::NextFrame(int port) {
  // The queues that have a frame and may send it, from one byte per port: the scan below
  // touches no queue that cannot send.
  PortState& ps = port_state_[port];
  uint32_t ready = ps.backlogged;
  for (uint32_t b = ready; b; b &= b - 1)
    if (Paused(port, __builtin_ctz(b))) ready &= ~(b & -b);
  if (!ready) return nullptr;
  auto& qs = queues_[port];
  int pick = -1;
  if (const uint32_t strict = ready & frame_.strict_mask) pick = 31 - __builtin_clz(strict);  // the highest
  if (pick < 0) {
    const uint32_t drr = ready & ~frame_.strict_mask;
    if (!drr) return nullptr;
    // Deficit round robin: a queue earns its quantum once per visit.
    int32_t* deficit = ps.deficit;
    for (;;) {
      const int q = ps.rr;
      if (!(drr & (1u << q))) {
        if (!(ps.backlogged & (1u << q))) deficit[q] = 0;
        ps.rr = static_cast<uint8_t>((q + 1) % kNumPriorities);
        ps.rr_fresh = 1;
        continue;
      }
      if (ps.rr_fresh) {
        deficit[q] += quantum_[q];
        ps.rr_fresh = 0;
      }
      if (deficit[q] >= qs[q].fifo.front()->frame_bytes) {
        deficit[q] -= qs[q].fifo.front()->frame_bytes;
        pick = q;
        break;
      }
      ps.rr = static_cast<uint8_t>((q + 1) % kNumPriorities);
      ps.rr_fresh = 1;
    }
  }
  EgressQueue& q = qs[pick];
  if (frame_.mark_on_dequeue) MaybeMarkEcn(port, q, pick, q.fifo.front(), true);
  Packet* pkt = q.fifo.pop();
  --ps.queued;
  if (q.fifo.empty()) ps.backlogged &= static_cast<uint8_t>(~(1u << pick));
  q.counters.packets++;
  q.counters.bytes += pkt->frame_bytes;
  Release(pkt);
  if (pkt->flags & Packet::kFlagInt) StampInt(port, pkt);
  return pkt;
}

void Switch::StampInt(int port, Packet* pkt) const {
  const Port& p = ports_[port];
  uint64_t sent = 0;
  for (const PortCounters::SentTraffic& t : p.counters.tx_prio) sent += t.bytes + t.packets * ctx_->wire_overhead;
  uint64_t queued = 0;
  for (const EgressQueue& q : queues_[port]) queued += q.fifo.bytes();
  uint64_t rate = 0;
  IntHop::RateCode(p.rate_bps, &rate);  // the fabric refuses HPCC on a rate a record cannot name
  // Past five hops the header is full; the count goes on, and the sender knows the records are
  // not the path's (the HPCC code's header does the same).
  if (pkt->int_count < kMaxIntHops)
    pkt->int_hops[pkt->int_count] = IntHop::Stamp(ctx_->int_format, Now(), sent, queued, rate);
  if (pkt->int_count < 255) ++pkt->int_count;
}

}  // namespace rocelab
