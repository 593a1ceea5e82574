#include "net/node.h"

#include <algorithm>
#include <cmath>

namespace rocelab {

Node::Node(SimContext* ctx, std::string name, int num_ports)
    : ctx_(ctx),
      ports_(num_ports),
      out_wires_(num_ports),
      name_(std::move(name)),
      ber_rng_(ctx->seed, NameHash(name_) ^ 0xBE4) {}

void Node::Connect(int port, Node* peer, int peer_port, uint64_t rate_bps, Time delay, double ber) {
  Port& p = ports_[port];
  p.peer = peer;
  p.peer_port = peer_port;
  p.rate_bps = rate_bps;
  p.delay = delay;
  p.ber = ber;
  p.bit_errors = ber > 0;
  p.ps_per_byte = (8000000000000ull % rate_bps == 0) ? static_cast<Time>(8000000000000ull / rate_bps) : 0;
  p.in.Connect(&ctx_->sim, this, kArrive, static_cast<uint32_t>(port));
  p.out = &peer->ports_[peer_port].in;
  out_wires_[port].wire = p.out;
}

inline void Node::Arrive(int port, Packet* pkt) {
  Port& p = ports_[port];
  if (p.faults && !SurvivesFaults(p, pkt)) return;
  if (p.tap) p.tap->Received(*pkt, Now());
  if (pkt->corrupted()) {
    p.counters.crc_errors++;
    CountOther(p, pkt);
    ctx_->pool.Put(pkt);
    return;
  }
  if (pkt->type == PacketType::kPause) {
    CountOther(p, pkt);
    for (int prio = 0; prio < kNumPriorities; ++prio)
      if (pkt->pause_enable & (1u << prio)) p.counters.rx_pause[prio]++;
    if (p.pause_response > 0) {
      ctx_->sim.ScheduleIn(p.pause_response, this, kPauseApply, static_cast<uint32_t>(port), pkt);
    } else {
      ApplyPause(port, pkt);
    }
    return;
  }
  OnFrame(port, pkt);
}

void Node::HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) {
  // Arrivals, most of all events, by a branch the core predicts rather than the switch's jump.
  if (kind == kArrive) {
    Arrive(static_cast<int>(arg), pkt);
    return;
  }
  switch (kind) {
    case kTxDone:
      ports_[arg].txdone_pending = false;
      Kick(static_cast<int>(arg));
      return;
    case kPauseApply:
      ApplyPause(static_cast<int>(arg), pkt);
      return;
    case kPauseExpire: {
      int port = static_cast<int>(arg / kNumPriorities), prio = static_cast<int>(arg % kNumPriorities);
      Port& p = ports_[port];
      if (!p.pause_expiry[prio].Fire(&ctx_->sim, this, kind, arg)) return;
      if (p.paused[prio] && p.paused_until[prio] <= Now()) {
        Resume(port, prio);
        Kick(port);
      }
      return;
    }
    case kPauseRefresh: {
      int port = static_cast<int>(arg / kNumPriorities), prio = static_cast<int>(arg % kNumPriorities);
      Port& p = ports_[port];
      if (!p.refresh[prio].Fire(&ctx_->sim, this, kind, arg)) return;
      if (p.xoff_sent[prio]) {
        SendPauseFrame(port, prio, pause_quanta_);
        p.refresh[prio].Set(&ctx_->sim, Now() + RefreshPeriod(p), this, kPauseRefresh, arg);
      }
      return;
    }
    default:
      OnNodeEvent(kind, arg, pkt);
  }
}

Time Node::QuantaTime(const Port& p, uint32_t quanta) const {
  // One quantum is the time to send 512 bits at the port's speed (802.1Qbb).
  return SerializationTime(static_cast<uint64_t>(quanta) * 64, p.rate_bps);
}

Time Node::RefreshPeriod(const Port& p) const {
  // Half the pause time, so the peer never resumes while we are congested; but never
  // sooner than one maximum frame (9216 B jumbo), so tiny quanta (legal, and flagged by
  // lint) cannot fill the link with PFC frames: they stay under 1 % of the wire.
  const Time max_frame = SerializationTime(kMaxJumboFrame + kEthHeader + kFcs + kWireOverhead, p.rate_bps);
  return std::max(QuantaTime(p, pause_quanta_) / 2, max_frame);
}

void Node::ApplyPause(int port, Packet* pfc) {
  Port& p = ports_[port];
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    if (!(pfc->pause_enable & (1u << prio))) continue;
    if (!(pfc_mask_ & (1u << prio))) continue;  // PFC off for this priority: ignored
    if (p.pause_ignored & (1u << prio)) continue;
    uint16_t q = pfc->pause_quanta[prio];
    if (q == 0) {
      if (p.paused[prio]) Resume(port, prio);
      continue;
    }
    if (!p.paused[prio]) {
      p.paused[prio] = true;
      p.pause_began[prio] = Now();
    }
    if (!pause_expiry_) {
      p.paused_until[prio] = kTimeNever;
      continue;
    }
    p.paused_until[prio] = Now() + QuantaTime(p, q);
    p.pause_expiry[prio].Set(&ctx_->sim, p.paused_until[prio], this, kPauseExpire,
                             static_cast<uint32_t>(port * kNumPriorities + prio));
  }
  ctx_->pool.Put(pfc);
  Kick(port);
}

void Node::Resume(int port, int prio) {
  Port& p = ports_[port];
  p.paused[prio] = false;
  p.counters.rx_pause_duration[prio] += Now() - p.pause_began[prio];
  p.counters.rx_pause_transitions[prio]++;
}

void Node::AssertPause(int port, int prio) {
  Port& p = ports_[port];
  if (p.xoff_sent[prio] || !(pfc_mask_ & (1u << prio))) return;
  p.xoff_sent[prio] = true;
  p.xoff_began[prio] = Now();
  SendPauseFrame(port, prio, pause_quanta_);
  if (!pause_expiry_) return;
  p.refresh[prio].Set(&ctx_->sim, Now() + RefreshPeriod(p), this, kPauseRefresh,
                      static_cast<uint32_t>(port * kNumPriorities + prio));
}

void Node::ReleasePause(int port, int prio) {
  Port& p = ports_[port];
  if (!p.xoff_sent[prio]) return;
  p.xoff_sent[prio] = false;
  p.counters.tx_pause_duration[prio] += Now() - p.xoff_began[prio];
  SendPauseFrame(port, prio, 0);
}

void Node::ChangePfcMask(uint8_t mask) {
  for (int port = 0; port < static_cast<int>(ports_.size()); ++port) {
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      if ((mask >> prio) & 1u) continue;
      ReleasePause(port, prio);
      if (ports_[port].paused[prio]) Resume(port, prio);
    }
  }
  pfc_mask_ = mask;
  for (int port = 0; port < static_cast<int>(ports_.size()); ++port) Kick(port);
}

void Node::SendPauseFrame(int port, int prio, uint16_t quanta) {
  Packet* f = ctx_->pool.Get();
  f->type = PacketType::kPause;
  f->frame_bytes = kPauseFrame;
  f->pause_enable = static_cast<uint8_t>(1u << prio);
  f->pause_quanta[prio] = quanta;
  f->priority = static_cast<uint8_t>(prio);
  Port& p = ports_[port];
  p.counters.tx_pause[prio]++;
  p.control.push(f);
  Kick(port);
}

void Node::Kick(int port) {
  Port& p = ports_[port];
  if (p.txdone_pending || p.choosing || p.out == nullptr) return;
  if (Now() < p.busy_until) {
    // Mid-frame: come back when it ends.
    ScheduleTxDone(port, p);
    return;
  }
  // Choosing, so that a Kick from inside NextFrame (an XON it triggers on this same port)
  // waits for the next frame boundary.
  p.choosing = true;
  Packet* pkt = p.control.empty() ? NextFrame(port) : p.control.pop();
  p.choosing = false;
  if (pkt) Transmit(port, pkt);
}

Time Node::FrameTime(const Port& p, uint32_t wire_bytes) const {
  return RoundDown(p.ps_per_byte ? wire_bytes * p.ps_per_byte : SerializationTime(wire_bytes, p.rate_bps),
                   ctx_->serialization_grain);
}

void Node::Transmit(int port, Packet* pkt) {
  Port& p = ports_[port];
  const uint32_t wire = pkt->frame_bytes + ctx_->wire_overhead;
  const Time ser = FrameTime(p, wire);
  const Time now = Now();
  p.busy_until = now + ser;
  if (p.watched && p.faults && !p.faults->carrier) {
    // The carrier is down: the frame is lost at the PHY, which sends nothing.
    p.faults->counters.tx_link_down_drops++;
    if (pkt->type != PacketType::kPause) p.faults->counters.carrier_lost_bytes += pkt->frame_bytes;
    if (p.tap) p.tap->Lost(*pkt, now);
    ctx_->pool.Put(pkt);
    if (!p.control.empty() || HasBacklog(port)) {
      ScheduleTxDone(port, p);
    }
    return;
  }
  PortCounters& c = p.counters;
  PortCounters::SentTraffic& t = pkt->type != PacketType::kPause ? c.tx_prio[pkt->priority] : c.tx_other;
  if (t.packets == 0 && c.first_tx < 0) c.first_tx = now;  // read once per priority, not per frame
  t.packets++;
  t.bytes += pkt->frame_bytes;
  t.busy += ser;
  t.last_end = now + ser;
  if (p.watched && p.tap) p.tap->Sent(*pkt, now);  // before a bit error can hit it: it leaves intact
  if (p.bit_errors) {
    // P(frame hit) = 1 - (1 - ber)^bits
    double bits = 8.0 * pkt->frame_bytes;
    double p_err = -std::expm1(bits * std::log1p(-p.ber));
    if (ber_rng_.Uniform() < p_err) pkt->flags |= Packet::kFlagCorrupted;
  }
  ++ctx_->packet_hops;
  if (p.watched && p.faults && !p.faults->signal) {
    // No signal, but the port does not know it yet (its debounce): the frame leaves, counted as
    // sent, into a dark fibre.
    if (pkt->type != PacketType::kPause) p.faults->counters.carrier_lost_bytes += pkt->frame_bytes;
    if (p.tap) p.tap->Lost(*pkt, now);
    ctx_->pool.Put(pkt);
  } else if (p.watched && p.faults && p.faults->gray_drop > 0 && pkt->type != PacketType::kPause &&
             p.faults->gray_rng.Uniform() < p.faults->gray_drop) {
    // A gray drop: the frame left (and is counted as sent) but never arrives, and no counter
    // anywhere says so.
    ctx_->pool.Put(pkt);
  } else {
    p.out->Send(now + ser + p.delay, pkt);
    out_wires_[port].last_sent = pkt;
  }
  if (!p.control.empty() || HasBacklog(port)) {
    ScheduleTxDone(port, p);
  }
}

PortFaults& Node::Faults(int port) {
  Port& p = ports_[port];
  if (!p.faults) {
    p.faults = std::make_unique<PortFaults>();
    p.faults->gray_rng = Rng(ctx_->seed, NameHash(name_) ^ (0x6A40000ull + static_cast<uint64_t>(port)));
    p.faults->blackhole_seed = NameHash(name_) ^ (0xB1AC0000ull + static_cast<uint64_t>(port)) ^ ctx_->seed;
    p.watched = true;
  }
  return *p.faults;
}

void Node::SetTap(int port, PortTap* tap) {
  Port& p = ports_[port];
  p.tap = tap;
  p.watched = p.faults || p.tap;
}

bool Node::SurvivesFaults(Port& p, Packet* pkt) {
  PortFaults& f = *p.faults;
  const uint32_t wire = pkt->frame_bytes + ctx_->wire_overhead;
  // Lost in flight: the link was dark at some moment between the frame's first bit leaving
  // the peer and its last bit arriving here.
  const Time sent = Now() - p.delay - FrameTime(p, wire);
  if (!f.carrier || !f.signal || f.dark_at >= sent) {
    if (pkt->type != PacketType::kPause) f.counters.carrier_lost_bytes += pkt->frame_bytes;
    if (p.tap) p.tap->Lost(*pkt, Now());
    ctx_->pool.Put(pkt);
    return false;
  }
  if (f.fec_on && f.fec.Frame(pkt->frame_bytes, wire)) pkt->flags |= Packet::kFlagCorrupted;
  if (f.mtu > 0 && pkt->type != PacketType::kPause && pkt->frame_bytes > f.mtu + kEthHeader + kFcs) {
    CountOther(p, pkt);
    if (p.tap) p.tap->Received(*pkt, Now());
    f.counters.rx_oversize++;
    ctx_->pool.Put(pkt);
    return false;
  }
  return true;
}

void Node::SetCarrier(int port, bool up) {
  PortFaults& f = Faults(port);
  if (f.carrier == up) return;
  f.carrier = up;
  f.counters.carrier_changes++;
  if (f.fec_on) f.fec.SetDecoding(f.Decoding(), Now());
  Port& p = ports_[port];
  if (!up) {
    f.counters.link_down_events++;
    f.dark_at = Now();
    // PFC state is per link: a pause the peer sent ends with the link.
    for (int prio = 0; prio < kNumPriorities; ++prio)
      if (p.paused[prio]) Resume(port, prio);
    Kick(port);
    return;
  }
  for (int prio = 0; prio < kNumPriorities; ++prio)
    if (p.xoff_sent[prio]) SendPauseFrame(port, prio, pause_quanta_);
  Kick(port);
}

void Node::SetSignal(int port, bool present) {
  PortFaults& f = Faults(port);
  if (f.signal == present) return;
  f.signal = present;
  if (!present) f.dark_at = Now();
  if (f.fec_on) f.fec.SetDecoding(f.Decoding(), Now());
}

void Node::SetPcsFault(int port, bool failed) {
  PortFaults& f = Faults(port);
  if (f.pcs_fault == failed) return;
  f.pcs_fault = failed;
  if (f.fec_on) f.fec.SetDecoding(f.Decoding(), Now());
}

void Node::SetPauseIgnored(int port, int prio, bool ignored) {
  Port& p = ports_[port];
  if (ignored) {
    p.pause_ignored |= static_cast<uint8_t>(1u << prio);
    if (p.paused[prio]) Resume(port, prio);
  } else {
    p.pause_ignored &= static_cast<uint8_t>(~(1u << prio));
  }
  Kick(port);
}

void Node::SetLinkErrors(int port, double pre_fec_ber, FecMode mode) {
  PortFaults& f = Faults(port);
  const uint64_t rate = ports_[port].rate_bps;
  // Electrical lanes of the port (IEEE 802.3: 100GBASE-CR4/SR4 and 200G-R4 run 4, 400G-R8 runs 8).
  const int lanes = rate >= 400000000000ull ? 8 : rate >= 100000000000ull ? 4 : rate >= 50000000000ull ? 2 : 1;
  // A second change of the same link keeps its counters and its random stream going.
  if (!f.fec_on) {
    f.fec.Init(pre_fec_ber, mode, lanes, Rng(ctx_->seed, NameHash(name_) ^ (0xFEC0000ull + static_cast<uint64_t>(port))),
               rate, Now(), f.Decoding());
    f.fec_on = true;
  } else {
    f.fec.SetErrorRate(pre_fec_ber, mode, Now());
  }
}

void Node::FinishCounters(Time now) {
  for (Port& p : ports_) {
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      if (p.paused[prio]) {
        p.counters.rx_pause_duration[prio] += now - p.pause_began[prio];
        p.pause_began[prio] = now;
      }
      if (p.xoff_sent[prio]) {
        p.counters.tx_pause_duration[prio] += now - p.xoff_began[prio];
        p.xoff_began[prio] = now;
      }
    }
  }
}

}  // namespace rocelab
