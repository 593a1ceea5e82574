#include "net/nic.h"

#include <algorithm>

#include "net/flow_paths.h"
#include "util/units.h"

namespace rocelab {

Nic::Nic(SimContext* ctx, const std::string& name, const NicSpec& spec, std::vector<QueuePair>* qps,
         FlowTracker* tracker)
    : Node(ctx, name, 1),
      scheduler_(qps),
      rc_(&ctx->sim, &ctx->pool, &spec_, ctx->wire_overhead, qps, &rdma_, this),
      spec_(spec),
      responders_(qps),
      qps_(qps),
      tracker_(tracker) {
  set_pfc_mask(spec_.pfc_enabled ? spec_.lossless_mask : 0);
  set_pause_expiry(spec_.pause_expiry);
  rc_.set_pacing_grain(ctx->serialization_grain);
  rc_.set_timer_scale(ctx->timer_scale);
  rc_.set_seed(ctx->seed);
  rc_.set_int_format(ctx->int_format);
}

void Nic::SetRxThresholds(uint64_t headroom_bytes) {
  const uint64_t frame = DataFrameBytes(spec_.mtu, true);
  rx_xoff_ = spec_.rx_xoff ? spec_.rx_xoff
                           : (spec_.rx_buffer > headroom_bytes + frame ? spec_.rx_buffer - headroom_bytes : frame);
  rx_xon_ = spec_.rx_xon ? spec_.rx_xon : (rx_xoff_ > 2 * frame ? rx_xoff_ - 2 * frame : 0);
}

void Nic::SetReactionPoint(bool on) {
  rc_.set_reaction_point(on);
  scheduler_.TouchAll();
  responders_.TouchAll();
  if (!on) {
    scheduler_.ForEachActive([&](uint32_t id) { (*qps_)[id].next_send = std::min((*qps_)[id].next_send, Now()); });
    responders_.ForEachActive(
        [&](uint32_t id) { (*qps_)[id].response_next_send = std::min((*qps_)[id].response_next_send, Now()); });
  }
  Kick(0);
}

void Nic::ScheduleFlow(uint32_t qp) { ctx_->sim.Schedule((*qps_)[qp].start, this, kFlowStart, qp); }

void Nic::Activate(uint32_t qp) {
  QueuePair& q = (*qps_)[qp];
  if (!q.started) {
    q.started = true;
    rc_.Start(q);
    scheduler_.Add(qp);
  } else {
    scheduler_.Touch(qp);  // a message was posted on it
  }
  Kick(0);
}

void Nic::OnNodeEvent(uint32_t kind, uint32_t arg, Packet* pkt) {
  switch (kind) {
    case kFlowStart:
      Activate(arg);
      return;
    case kWake:
      if (wake_at_ == Now()) wake_at_ = kTimeNever;
      Kick(0);
      return;
    case kRxDrained: {
      if (rx_stalled_) {  // the pipeline stopped while this frame was on its way out
        draining_ = false;
        return;
      }
      Packet* p = rx_buf_.pop();
      Drained();
      for (int prio = 0; prio < kNumPriorities; ++prio)
        if (port(0).xoff_sent[prio] && rx_buf_.bytes() <= rx_xon_) ReleasePause(0, prio);
      draining_ = false;
      if (!rx_buf_.empty()) StartDrain();
      if (spec_.processing_delay > 0) ctx_->sim.ScheduleIn(spec_.processing_delay, this, kRxProcess, 0, p);
      else Process(p);
      return;
    }
    case kRxProcess:
      Process(pkt);
      return;
    case kQpTimer:
      scheduler_.Touch(arg);
      rc_.OnAckTimer((*qps_)[arg]);
      return;
    case kCcTimer:
      if ((*qps_)[arg].cc_timer.Fire(&ctx_->sim, this, kind, arg)) {
        scheduler_.Touch(arg);
        rc_.OnCcTimer((*qps_)[arg]);
      }
      return;
    case kResponseCcTimer:
      if ((*qps_)[arg].response_cc_timer.Fire(&ctx_->sim, this, kind, arg)) {
        responders_.Touch(arg);
        rc_.OnResponseCcTimer((*qps_)[arg]);
      }
      return;
    case kStormGuard:
      if (guard_timer_.Fire(&ctx_->sim, this, kind, arg)) CheckStall();
      return;
    default:
      return;
  }
}

bool Nic::HasBacklog(int) const {
  return control_waiting_ != 0 || probes_waiting_ || responding_ || !scheduler_.empty();
}

Packet* Nic::NextFrame(int) {
  Packet* p = ChooseFrame();
  if (p && ctx_->flow_paths) ctx_->flow_paths->Stamp(p);
  return p;
}

Packet* Nic::ChooseFrame() {
  // ns-3's ACK_HIGH_PRIO: its NIC sends ACKs and NAKs from a queue that no pause stops, though
  // they carry the data's priority (its switches queue them with the data).
  for (unsigned waiting = control_waiting_; waiting != 0;) {
    const int prio = 31 - __builtin_clz(waiting);  // the highest priority first
    waiting &= ~(1u << prio);
    if (Paused(0, prio) && !spec_.ack_high_priority) continue;
    Packet* p = control_[prio].pop();
    if (control_[prio].empty()) control_waiting_ &= static_cast<uint8_t>(~(1u << prio));
    if (p->type == PacketType::kAck && p->qp != Packet::kNoQp && (*qps_)[p->qp].ack_waiting == p)
      (*qps_)[p->qp].ack_waiting = nullptr;
    return p;
  }
  const Time now = Now();
  if (probes_waiting_ && !Paused(0, probes_.front()->priority)) {
    Packet* p = probes_.pop();
    probes_waiting_ = !probes_.empty();
    p->int_hops[p->type == PacketType::kProbe ? Packet::kProbeSent : Packet::kReplySent] = static_cast<uint64_t>(now);
    return p;
  }
  uint8_t paused = 0;
  for (int prio = 0; prio < kNumPriorities; ++prio)
    if (Paused(0, prio)) paused |= static_cast<uint8_t>(1u << prio);
  // READ responses this NIC owes, round robin over the queue pairs asking, each paced by its
  // response stream's DCQCN rate; a queue pair leaves the rotation with its last response.
  Time earliest = kTimeNever;
  if (responding_) {
    if (QueuePair* qp = responders_.Next(now, paused, &earliest)) {
      Packet* p = rc_.NextReadResponse(*qp);
      if (qp->read_jobs.empty()) {
        responders_.Remove(qp->id);
        responding_ = !responders_.empty();
      }
      return p;
    }
  }
  Time paced = kTimeNever;
  if (QueuePair* qp = scheduler_.Next(now, paused, &paced)) return rc_.NextRequest(*qp);
  earliest = std::min(earliest, paced);
  if (earliest != kTimeNever && earliest < wake_at_) {
    wake_at_ = earliest;
    ctx_->sim.Schedule(earliest, this, kWake);
  }
  return nullptr;
}

void Nic::OnFrame(int, Packet* pkt) {
  const int prio = spec_.trust_dscp ? spec_.dscp_to_priority[pkt->dscp & 63] : pkt->priority;
  pkt->priority = static_cast<uint8_t>(prio);
  if (pkt->type == PacketType::kProbe) pkt->int_hops[Packet::kProbeArrived] = static_cast<uint64_t>(Now());
  if (pkt->type == PacketType::kProbeReply) pkt->int_hops[Packet::kReplyArrived] = static_cast<uint64_t>(Now());
  PortCounters& c = port(0).counters;
  c.rx_prio[prio].packets++;
  c.rx_prio[prio].bytes += pkt->frame_bytes;
  if (spec_.rx_drain_rate == 0 && !rx_stalled_) {
    if (spec_.processing_delay > 0) ctx_->sim.ScheduleIn(spec_.processing_delay, this, kRxProcess, 0, pkt);
    else Process(pkt);
    return;
  }
  if (rx_buf_.bytes() + pkt->frame_bytes > spec_.rx_buffer) {
    c.rx_discards++;  // rx_discards_phy: no receive buffer
    c.rx_prio_discards[prio]++;
    if (guard_active_) guard_discard_bytes_ += pkt->frame_bytes;
    ctx_->pool.Put(pkt);
    return;
  }
  rx_buf_.push(pkt);
  if (rx_buf_.bytes() >= rx_xoff_) PauseForBuffer(prio);
  if (!draining_ && !rx_stalled_) StartDrain();
}

void Nic::PauseForBuffer(int prio) {
  if (guard_active_) return;  // the storm guard has given up pausing until the pipeline moves
  AssertPause(0, prio);
  if (spec_.pfc_prevention_tout > 0 && port(0).xoff_sent[prio] && !guard_timer_.armed()) CheckStall();
}

void Nic::Drained() {
  last_drain_ = Now();
  if (!guard_active_) return;
  guard_active_ = false;
  ctx_->timeline.Add(Now(), name(), "eth0", -1, "pause_storm_guard_cleared",
                     "the receive pipeline drains again: PFC works as configured");
}

// mlx5 pfc-prevention-tout (ethtool tunable; firmware default 8 s, auto 100 ms): a receive
// pipeline stalled while the NIC pauses counts a warning past the minor watermark, max(80 ms,
// 85 % of the timeout), and at the timeout stops pausing; both events are device-wide.
void Nic::CheckStall() {
  const Port& p = port(0);
  Time since = kTimeNever;
  for (int prio = 0; prio < kNumPriorities; ++prio)
    if (p.xoff_sent[prio]) since = std::min(since, p.xoff_began[prio]);
  if (since == kTimeNever || spec_.pfc_prevention_tout == 0 || guard_active_) return;
  const double scale = ctx_->timer_scale;
  const Time timeout = ScaledTimer(spec_.pfc_prevention_tout, scale);
  const Time warning = ScaledTimer(std::max<Time>(80 * kMillisecond, spec_.pfc_prevention_tout / 100 * 85), scale);
  const Time stall_start = std::max(last_drain_, since);
  const Time stalled = Now() - stall_start;
  if (stalled >= timeout) {
    ++storm_errors_;
    guard_active_ = true;
    for (int prio = 0; prio < kNumPriorities; ++prio) ReleasePause(0, prio);
    ctx_->timeline.Add(Now(), name(), "eth0", -1, "pause_storm_guard",
                       "receive pipeline stalled " + FormatTime(stalled) +
                           " while pausing: the NIC stops sending pause and drops what arrives (tx_pause_storm_error_events)");
    return;
  }
  if (stalled >= warning && warned_stall_ != stall_start) {
    ++storm_warnings_;
    warned_stall_ = stall_start;
    ctx_->timeline.Add(Now(), name(), "eth0", -1, "pause_storm_warning",
                       "receive pipeline stalled " + FormatTime(stalled) + " while pausing (tx_pause_storm_warning_events)");
  }
  guard_timer_.Set(&ctx_->sim, stall_start + (stalled >= warning ? timeout : warning), this, kStormGuard, 0);
}

void Nic::SetRxStalled(bool stalled) {
  rx_stalled_ = stalled;
  if (stalled) {
    // A stuck receive pipeline: the NIC pauses every lossless priority and keeps pausing.
    for (int prio = 0; prio < kNumPriorities; ++prio)
      if (pfc_mask() & (1u << prio)) PauseForBuffer(prio);
    return;
  }
  if (spec_.rx_drain_rate == 0) FlushRxBuffer();
  else if (!draining_ && !rx_buf_.empty()) StartDrain();
}

void Nic::ReloadDriver() {
  guard_timer_.Cancel();
  guard_active_ = false;
  warned_stall_ = -1;
  last_drain_ = Now();
  SetRxStalled(false);
}

void Nic::SetQos(bool trust_dscp, uint8_t pfc_priorities) {
  spec_.trust_dscp = trust_dscp;
  spec_.pfc_enabled = pfc_priorities != 0;
  if (pfc_priorities != 0) spec_.lossless_mask = pfc_priorities;
  ChangePfcMask(pfc_priorities);
}

void Nic::SetDrainRate(uint64_t bps) {
  spec_.rx_drain_rate = bps;
  if (bps == 0 && !rx_stalled_) FlushRxBuffer();
}

void Nic::FlushRxBuffer() {
  // As fast as the link fills it: everything buffered goes to the host now.
  while (!rx_buf_.empty()) {
    Packet* p = rx_buf_.pop();
    Drained();
    if (spec_.processing_delay > 0) ctx_->sim.ScheduleIn(spec_.processing_delay, this, kRxProcess, 0, p);
    else Process(p);
  }
  for (int prio = 0; prio < kNumPriorities; ++prio) ReleasePause(0, prio);
}

void Nic::StartDrain() {
  draining_ = true;
  ctx_->sim.ScheduleIn(SerializationTime(rx_buf_.front()->frame_bytes, spec_.rx_drain_rate), this, kRxDrained);
}

void Nic::Process(Packet* pkt) {
  if (pkt->type == PacketType::kProbe) {
    // The answer goes back as the same frame, its source and destination swapped; a CE mark
    // the probe met rides back as a flag, the reply itself ECN-capable again.
    std::swap(pkt->src, pkt->dst);
    pkt->type = PacketType::kProbeReply;
    if (pkt->ecn == kCe) pkt->flags |= Packet::kFlagEcnEcho;
    QueueProbe(pkt);
    return;
  }
  if (pkt->type == PacketType::kProbeReply) {
    if (probe_listener_) probe_listener_->OnProbeReply(*pkt);
  } else {
    // Before the transport acts, the rotation that sends for the queue pair looks at it again:
    // what the packet brings may wake the port at once. Data and READ requests come to the
    // responder, whose rotation of responses a READ request joins (Responding); the rest come
    // to the requester, but for a CNP about READ responses, which comes to the responder.
    switch (pkt->type) {
      case PacketType::kData:
      case PacketType::kReadRequest:
        break;
      case PacketType::kCnp:
        scheduler_.Touch(pkt->qp);
        responders_.Touch(pkt->qp);
        break;
      default:
        scheduler_.Touch(pkt->qp);
    }
    rc_.Receive(pkt);
  }
  ctx_->pool.Put(pkt);
}

void Nic::SendProbe(uint32_t src, uint32_t dst, uint16_t sport, uint8_t dscp, uint32_t seq) {
  Packet* p = ctx_->pool.Get();
  p->type = PacketType::kProbe;
  p->opcode = kOpUdSendOnly;
  p->qp = Packet::kNoQp;
  p->psn = seq;
  p->src = src;
  p->dst = dst;
  p->udp_sport = sport;
  p->udp_dport = kRoceUdpPort;
  p->dscp = dscp;
  p->payload = kProbePayload;
  QueueProbe(p);
}

void Nic::QueueProbe(Packet* pkt) {
  pkt->frame_bytes = static_cast<uint16_t>(kProbeFrameBytes);
  pkt->ecn = kEct0;  // marked like the RoCE traffic it stands for
  pkt->ttl = kSendTtl;
  pkt->priority = spec_.dscp_to_priority[pkt->dscp & 63];
  probes_.push(pkt);
  probes_waiting_ = true;
  Kick(0);
}

void Nic::SendControl(Packet* pkt) {
  if (pkt->type == PacketType::kAck && pkt->qp != Packet::kNoQp && spec_.coalesce_acks) {
    Packet*& waiting = (*qps_)[pkt->qp].ack_waiting;
    if (waiting && waiting->frame_bytes == pkt->frame_bytes) {
      // An RC ACK is cumulative: the newer one says all the waiting one says, and more (the
      // IBTA lets a responder coalesce ACKs). It takes the waiting one's place in line.
      Packet* const next = waiting->next;
      const uint32_t echoed = waiting->ce_echoed;
      const uint8_t echo = waiting->flags & Packet::kFlagEcnEcho;
      *waiting = *pkt;
      waiting->next = next;
      waiting->ce_echoed += echoed;
      waiting->flags |= echo;
      ctx_->pool.Put(pkt);
      return;
    }
    waiting = pkt;
  }
  control_[pkt->priority].push(pkt);
  control_waiting_ |= static_cast<uint8_t>(1u << pkt->priority);
  Kick(0);
}

void Nic::ArmTimer(Timer timer, Time at, uint32_t qp) {
  switch (timer) {
    case Timer::kAck:
      ctx_->sim.Schedule(at, this, kQpTimer, qp);
      return;
    case Timer::kCc:
      (*qps_)[qp].cc_timer.Set(&ctx_->sim, at, this, kCcTimer, qp);
      return;
    case Timer::kResponseCc:
      (*qps_)[qp].response_cc_timer.Set(&ctx_->sim, at, this, kResponseCcTimer, qp);
      return;
  }
}

void Nic::Responding(uint32_t qp) {
  QueuePair& q = (*qps_)[qp];
  if (!responders_.Has(qp)) {  // owing no responses until now: it joins the rotation, last
    q.response_priority = spec_.dscp_to_priority[q.dscp & 63];
    responders_.Add(qp);
    responding_ = true;
  } else {
    responders_.Touch(qp);
  }
  Kick(0);
}

void Nic::Finished(QueuePair& qp) {
  scheduler_.Remove(qp.id);
  if (qp.failed)
    ctx_->timeline.Add(Now(), name(), "eth0", -1, "qp_error",
                       "QP " + std::to_string(qp.id) + " (" + ctx_->host_names[qp.src] + " -> " + ctx_->host_names[qp.dst] +
                           "): transport retries exceeded, work requests flushed");
  // A driver's queue pair (open) is not a flow: its driver counts its own work (Fabric::WorkDone),
  // so a ring's failed queue pair must not also end the run for the flows still going.
  if (!qp.open && tracker_->Done()) ctx_->sim.Stop();
}

}  // namespace rocelab
