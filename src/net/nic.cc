#include "net/nic.h"

#include <algorithm>

namespace rocelab {

Nic::Nic(SimContext* ctx, const std::string& name, uint32_t host, const NicSpec& spec, std::vector<QueuePair>* qps,
         FlowTracker* tracker)
    : Node(ctx, name, 1), spec_(spec), host_(host), qps_(qps), tracker_(tracker) {
  set_pfc_mask(spec_.pfc_enabled ? spec_.lossless_mask : 0);
}

void Nic::SetRxThresholds(uint64_t headroom_bytes) {
  const uint64_t frame = DataFrameBytes(spec_.mtu, true);
  rx_xoff_ = spec_.rx_xoff ? spec_.rx_xoff
                           : (spec_.rx_buffer > headroom_bytes + frame ? spec_.rx_buffer - headroom_bytes : frame);
  rx_xon_ = spec_.rx_xon ? spec_.rx_xon : (rx_xoff_ > 2 * frame ? rx_xoff_ - 2 * frame : 0);
}

void Nic::ScheduleFlow(uint32_t qp) { ctx_->sim.Schedule((*qps_)[qp].start, this, kFlowStart, qp); }

void Nic::Activate(uint32_t qp) {
  QueuePair& q = (*qps_)[qp];
  if (!q.started) {
    q.started = true;
    q.retries_left = spec_.retry_count;
    active_.push_back(qp);
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
      Packet* p = rx_buf_.pop();
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
      OnQpTimer((*qps_)[arg]);
      return;
    case kCcTimer: {
      QueuePair& qp = (*qps_)[arg];
      if (qp.rp.timer_due() != Now()) return;
      qp.rp.OnTimer(Now());
      ScheduleCcTimer(qp);
      Kick(0);
      return;
    }
    default:
      return;
  }
}

bool Nic::HasBacklog(int) const {
  for (const PacketFifo& c : control_)
    if (!c.empty()) return true;
  return !active_.empty() || !responding_.empty();
}

Packet* Nic::NextFrame(int) {
  for (int prio = kNumPriorities - 1; prio >= 0; --prio)
    if (!control_[prio].empty() && !Paused(0, prio)) return control_[prio].pop();
  // READ responses this NIC owes, round robin over the queue pairs asking.
  for (size_t i = 0; i < responding_.size(); ++i) {
    const size_t idx = (respond_rr_ + i) % responding_.size();
    QueuePair& qp = (*qps_)[responding_[idx]];
    if (Paused(0, spec_.dscp_to_priority[qp.dscp & 63])) continue;
    Packet* p = BuildReadResponse(qp);
    if (qp.read_jobs.empty()) {
      responding_.erase(responding_.begin() + static_cast<long>(idx));
      respond_rr_ = responding_.empty() ? 0 : idx % responding_.size();
    } else {
      respond_rr_ = (idx + 1) % responding_.size();
    }
    return p;
  }
  const size_t n = active_.size();
  Time earliest = kTimeNever;
  const Time now = Now();
  for (size_t i = 0; i < n; ++i) {
    size_t idx = (rr_ + i) % n;
    QueuePair& qp = (*qps_)[active_[idx]];
    if (!qp.HasDataToSend() || Paused(0, qp.priority)) continue;
    if (qp.next_send > now) {
      earliest = std::min(earliest, qp.next_send);
      continue;
    }
    rr_ = (idx + 1) % n;
    return BuildData(qp);
  }
  if (earliest != kTimeNever && earliest < wake_at_) {
    wake_at_ = earliest;
    ctx_->sim.Schedule(earliest, this, kWake);
  }
  return nullptr;
}

Packet* Nic::BuildReadRequest(QueuePair& qp, const Message& m) {
  // One request asks for the rest of the message from snd_nxt and consumes its PSNs.
  const uint32_t psn = qp.snd_nxt;
  const uint32_t done = psn - m.first_psn;
  Packet* p = ctx_->pool.Get();
  p->type = PacketType::kReadRequest;
  p->opcode = kOpReadRequest;
  p->qp = qp.id;
  p->psn = psn;
  p->src = qp.src;
  p->dst = qp.dst;
  p->read_bytes = static_cast<uint32_t>(m.size - static_cast<uint64_t>(done) * qp.mtu);
  p->frame_bytes = static_cast<uint16_t>(std::max<uint32_t>(kMinFrame, spec_.data_header_bytes + spec_.reth_bytes));
  p->udp_sport = qp.udp_sport;
  p->dscp = qp.dscp;
  p->ecn = kEct0;
  p->ttl = 64;
  p->priority = qp.priority;
  qp.snd_nxt = m.first_psn + m.packets;
  if (psn < qp.max_sent) rdma_.retransmitted_packets++;
  else qp.max_sent = qp.snd_nxt;
  if (psn == qp.snd_una) qp.last_progress = Now();
  ArmTimer(qp);
  return p;
}

Packet* Nic::BuildReadResponse(QueuePair& qp) {
  QueuePair::ReadJob& job = qp.read_jobs[qp.read_head];
  const uint32_t i = qp.read_sent++;
  const bool first = i == 0, last = i + 1 == job.packets;
  const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(qp.mtu, job.bytes - static_cast<uint64_t>(i) * qp.mtu));
  Packet* p = ctx_->pool.Get();
  p->type = PacketType::kReadResponse;
  p->opcode = job.packets == 1 ? kOpReadResponseOnly : first ? kOpReadResponseFirst : last ? kOpReadResponseLast
                                                                                           : kOpReadResponseMiddle;
  p->qp = qp.id;
  p->psn = job.psn + i;
  p->src = qp.dst;
  p->dst = qp.src;
  p->payload = payload;
  const uint32_t aeth = (first || last) ? kAeth : 0;
  p->frame_bytes = static_cast<uint16_t>(std::max<uint32_t>(spec_.data_header_bytes == kRoceHeaders ? kMinFrame : 0,
                                                            spec_.data_header_bytes + payload + aeth));
  p->udp_sport = qp.udp_sport;
  p->dscp = qp.dscp;
  p->ecn = kNotEct;
  p->ttl = 64;
  p->priority = spec_.dscp_to_priority[qp.dscp & 63];
  p->flags = last ? Packet::kFlagLast : 0;
  if (last) {
    qp.read_sent = 0;
    if (++qp.read_head == qp.read_jobs.size()) {
      qp.read_jobs.clear();
      qp.read_head = 0;
    }
  }
  return p;
}

Packet* Nic::BuildData(QueuePair& qp) {
  const Message& msg = qp.MessageOf(qp.snd_nxt);
  if (msg.verb == Verb::kRead) return BuildReadRequest(qp, msg);
  const uint32_t psn = qp.snd_nxt++;
  const uint32_t payload = qp.PayloadOf(psn);
  const bool last = qp.LastOfMessage(psn);
  uint8_t opcode = 0;
  uint32_t extra = 0;
  qp.OpcodeOf(psn, &opcode, &extra);
  Packet* p = ctx_->pool.Get();
  p->type = PacketType::kData;
  p->opcode = opcode;
  p->qp = qp.id;
  p->psn = psn;
  p->src = qp.src;
  p->dst = qp.dst;
  p->payload = payload;
  // RETH and ImmDt sizes follow the profile's accounting (the ns-3 profile counts neither).
  if (extra >= kReth) extra = extra - kReth + spec_.reth_bytes;
  p->frame_bytes = static_cast<uint16_t>(std::max<uint32_t>(spec_.data_header_bytes == kRoceHeaders ? kMinFrame : 0,
                                                            spec_.data_header_bytes + payload + extra));
  p->udp_sport = qp.udp_sport;
  p->dscp = qp.dscp;
  p->ecn = kEct0;  // RoCEv2 data is ECN-capable
  p->ttl = 64;
  p->priority = qp.priority;
  p->flags = last ? Packet::kFlagLast : 0;
  if (psn < qp.max_sent) rdma_.retransmitted_packets++;
  else qp.max_sent = psn + 1;
  if (psn == qp.snd_una) qp.last_progress = Now();  // the timer runs from the oldest outstanding packet
  ArmTimer(qp);
  if (CcOn()) {
    qp.rp.OnBytesSent(p->frame_bytes);
    qp.last_send = Now();
    qp.last_wire = p->frame_bytes + ctx_->wire_overhead;
    if (qp.rp.limited())
      qp.next_send = Now() + SerializationTime(qp.last_wire, static_cast<uint64_t>(qp.rp.rate_bps()));
  }
  return p;
}

void Nic::ArmTimer(QueuePair& qp) {
  if (qp.timer_pending) return;
  qp.timer_pending = true;
  ctx_->sim.Schedule(qp.last_progress + Timeout(qp), this, kQpTimer, qp.id);
}

void Nic::OnQpTimer(QueuePair& qp) {
  qp.timer_pending = false;
  if (qp.done || qp.failed || qp.snd_una >= qp.snd_nxt) return;
  const Time deadline = qp.last_progress + Timeout(qp);
  if (Now() < deadline) {
    qp.timer_pending = true;
    ctx_->sim.Schedule(deadline, this, kQpTimer, qp.id);
    return;
  }
  rdma_.local_ack_timeout_err++;
  if (qp.retries_left == 0) {
    rdma_.req_transport_retries_exceeded++;
    Complete(qp, true);
    return;
  }
  if (!qp.windowed) --qp.retries_left;  // a TCP-like flow retries until it gets through
  qp.snd_nxt = qp.snd_una;  // go back to the oldest unacknowledged PSN
  // ...or to its chunk's start: the receiver may have reset to it behind a lost NAK.
  if (spec_.back_to_chunk) qp.snd_nxt = qp.snd_una / spec_.back_to_chunk * spec_.back_to_chunk;
  qp.OnWindowLoss(true);
  qp.last_progress = Now();
  Kick(0);
}

void Nic::OnFrame(int, Packet* pkt) {
  const int prio = spec_.trust_dscp ? spec_.dscp_to_priority[pkt->dscp & 63] : pkt->priority;
  pkt->priority = static_cast<uint8_t>(prio);
  PortCounters& c = port(0).counters;
  c.rx_prio_packets[prio]++;
  c.rx_prio_bytes[prio] += pkt->frame_bytes;
  if (spec_.rx_drain_rate == 0) {
    if (spec_.processing_delay > 0) ctx_->sim.ScheduleIn(spec_.processing_delay, this, kRxProcess, 0, pkt);
    else Process(pkt);
    return;
  }
  if (rx_buf_.bytes() + pkt->frame_bytes > spec_.rx_buffer) {
    c.rx_discards++;  // rx_discards_phy: no receive buffer
    c.rx_prio_discards[prio]++;
    ctx_->pool.Put(pkt);
    return;
  }
  rx_buf_.push(pkt);
  if (rx_buf_.bytes() >= rx_xoff_) AssertPause(0, prio);
  if (!draining_) StartDrain();
}

void Nic::StartDrain() {
  draining_ = true;
  ctx_->sim.ScheduleIn(SerializationTime(rx_buf_.front()->frame_bytes, spec_.rx_drain_rate), this, kRxDrained);
}

void Nic::Process(Packet* pkt) {
  switch (pkt->type) {
    case PacketType::kData: OnData(pkt); break;
    case PacketType::kReadRequest: OnReadRequest(pkt); break;
    case PacketType::kReadResponse: OnReadResponse(pkt); break;
    case PacketType::kAck: OnAck(pkt); break;
    case PacketType::kNak: OnNak(pkt); break;
    case PacketType::kCnp: OnCnp(pkt); break;
    case PacketType::kPause: break;
  }
  ctx_->pool.Put(pkt);
}

void Nic::SendControl(PacketType type, const QueuePair& qp, uint32_t psn) {
  Packet* p = ctx_->pool.Get();
  p->type = type;
  p->qp = qp.id;
  p->psn = psn;
  p->src = host_;
  p->dst = qp.src;
  p->udp_sport = qp.udp_sport;
  p->ecn = kNotEct;
  p->ttl = 64;
  if (type == PacketType::kCnp) {
    p->opcode = kOpCnp;
    p->frame_bytes = static_cast<uint16_t>(spec_.cnp_bytes);
    p->dscp = spec_.cnp_dscp;
  } else {
    p->opcode = kOpAcknowledge;
    p->frame_bytes = static_cast<uint16_t>(spec_.ack_bytes);
    p->dscp = qp.dscp;
  }
  if (type != PacketType::kCnp) {
    if (spec_.ack_high_priority) p->dscp = spec_.cnp_dscp;
    if (echo_) p->flags |= Packet::kFlagEcnEcho;
  }
  p->priority = spec_.dscp_to_priority[p->dscp & 63];
  control_[p->priority].push(p);
  Kick(0);
}

void Nic::OnData(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  // With cnp_on_ack the congestion signal rides the ACK of this very packet.
  echo_ = pkt->ecn == kCe && spec_.cnp_on_ack && CcOn();
  if (pkt->ecn == kCe) {
    rdma_.np_ecn_marked_roce_packets++;
    if (echo_) {
      rdma_.np_cnp_sent++;
    } else if (CcOn() && (qp.last_cnp < 0 || Now() - qp.last_cnp >= spec_.dcqcn.min_time_between_cnps)) {
      qp.last_cnp = Now();
      rdma_.np_cnp_sent++;
      SendControl(PacketType::kCnp, qp, pkt->psn);
    }
  }
  if (pkt->psn == qp.expected_psn) {
    ++qp.expected_psn;
    if (pkt->psn >= qp.delivered_psn) {  // counted once, even when a chunk is sent again
      qp.delivered_psn = pkt->psn + 1;
      qp.delivered += pkt->payload;
      rdma_.bytes_delivered += pkt->payload;
    }
    if (pkt->opcode == kOpWriteFirst || pkt->opcode == kOpWriteOnly || pkt->opcode == kOpWriteOnlyImm)
      rdma_.rx_write_requests++;
    qp.nak_outstanding = false;
    if (++qp.unacked >= static_cast<uint32_t>(spec_.ack_every) || pkt->last()) {
      qp.unacked = 0;
      SendControl(PacketType::kAck, qp, pkt->psn);
    }
    if (pkt->last() && qp.listener) qp.listener->OnReceiveComplete(qp.id, pkt->opcode, Now());
  } else if (pkt->psn > qp.expected_psn) {
    rdma_.out_of_sequence++;
    if (!qp.nak_outstanding) {
      qp.nak_outstanding = true;
      // Go-back-to-chunk (the HPCC code base's L2_BACK_TO_ZERO 1): expect the chunk again.
      if (spec_.back_to_chunk) qp.expected_psn = qp.expected_psn / spec_.back_to_chunk * spec_.back_to_chunk;
      SendControl(PacketType::kNak, qp, qp.expected_psn);
    }
  } else {
    rdma_.duplicate_request++;
    SendControl(PacketType::kAck, qp, qp.expected_psn - 1);
  }
}

void Nic::OnAck(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  if (pkt->flags & Packet::kFlagEcnEcho) OnCnp(pkt);
  if (qp.done || qp.failed) return;
  const uint32_t acked = pkt->psn + 1;
  if (acked <= qp.snd_una) return;
  AdvanceUna(qp, acked);
}

void Nic::AdvanceUna(QueuePair& qp, uint32_t una) {
  qp.OnWindowAck(una - qp.snd_una);
  qp.snd_una = una;
  qp.retries_left = spec_.retry_count;
  qp.last_progress = Now();
  if (qp.snd_nxt < qp.snd_una) qp.snd_nxt = qp.snd_una;
  while (qp.completed < qp.messages.size()) {
    const Message& m = qp.messages[qp.completed];
    if (qp.snd_una < m.first_psn + m.packets) break;
    ++qp.completed;
    if (qp.listener) qp.listener->OnSendComplete(qp.id, m, Now());
  }
  if (!qp.open && qp.snd_una >= qp.num_packets) Complete(qp, false);
  else if (qp.windowed) Kick(0);  // the window opened
}

void Nic::OnReadRequest(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  if (pkt->psn > qp.expected_psn) {
    rdma_.out_of_sequence++;
    if (!qp.nak_outstanding) {
      qp.nak_outstanding = true;
      SendControl(PacketType::kNak, qp, qp.expected_psn);
    }
    return;
  }
  const uint32_t packets = static_cast<uint32_t>(std::max<uint64_t>(1, (pkt->read_bytes + qp.mtu - 1) / qp.mtu));
  if (pkt->psn == qp.expected_psn) {
    qp.expected_psn += packets;
    qp.nak_outstanding = false;
    rdma_.rx_read_requests++;
  } else {
    rdma_.duplicate_request++;  // a re-read after lost responses: answer it again
  }
  qp.read_jobs.push_back({pkt->psn, packets, pkt->read_bytes});
  if (std::find(responding_.begin(), responding_.end(), qp.id) == responding_.end()) responding_.push_back(qp.id);
  Kick(0);
}

void Nic::OnReadResponse(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  if (qp.done || qp.failed) return;
  if (pkt->psn == qp.snd_una) {
    qp.read_rewound = false;
    qp.delivered += pkt->payload;
    rdma_.bytes_delivered += pkt->payload;
    AdvanceUna(qp, pkt->psn + 1);
  } else if (pkt->psn > qp.snd_una) {
    // A response is missing: ask again from the first missing PSN, once per gap.
    rdma_.implied_nak_seq_err++;
    if (!qp.read_rewound) {
      qp.read_rewound = true;
      qp.snd_nxt = qp.snd_una;
      qp.last_progress = Now();
      Kick(0);
    }
  }
}

void Nic::OnNak(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  if (pkt->flags & Packet::kFlagEcnEcho) OnCnp(pkt);
  rdma_.packet_seq_err++;
  if (qp.done || qp.failed) return;
  if (spec_.back_to_chunk && pkt->psn < qp.snd_una) {
    qp.snd_nxt = pkt->psn;  // back to the chunk's start, though part of it was acknowledged
    qp.OnWindowLoss(false);
    qp.last_progress = Now();
    Kick(0);
    return;
  }
  if (pkt->psn < qp.snd_una) return;
  if (pkt->psn > qp.snd_una) {
    qp.snd_una = pkt->psn;  // a NAK acknowledges everything before it
    qp.retries_left = spec_.retry_count;
  }
  qp.snd_nxt = qp.snd_una;  // go-back-N from the NAKed PSN
  qp.OnWindowLoss(false);
  qp.last_progress = Now();
  Kick(0);
}

void Nic::OnCnp(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  if (!CcOn() || qp.done || qp.failed) {
    rdma_.rp_cnp_ignored++;
    return;
  }
  rdma_.rp_cnp_handled++;
  qp.rp.OnCnp(Now());
  ScheduleCcTimer(qp);
}

void Nic::ScheduleCcTimer(QueuePair& qp) {
  const Time due = qp.rp.timer_due();
  if (due != kTimeNever && due != qp.cc_timer_at) {
    qp.cc_timer_at = due;
    ctx_->sim.Schedule(due, this, kCcTimer, qp.id);
  }
  // A rate that rose (or stopped limiting) must not wait out a gap computed at a lower rate.
  if (!qp.rp.limited()) {
    qp.next_send = std::min(qp.next_send, Now());
  } else if (qp.last_wire) {
    qp.next_send = std::min(qp.next_send, qp.last_send + SerializationTime(qp.last_wire, static_cast<uint64_t>(qp.rp.rate_bps())));
  }
}

void Nic::Complete(QueuePair& qp, bool failed) {
  if (failed) qp.failed = true;
  else qp.done = true;
  qp.finish = Now();
  auto it = std::find(active_.begin(), active_.end(), qp.id);
  if (it != active_.end()) {
    size_t idx = static_cast<size_t>(it - active_.begin());
    active_.erase(it);
    if (rr_ > idx) --rr_;
    if (rr_ >= active_.size()) rr_ = 0;
  }
  if (--tracker_->remaining == 0) ctx_->sim.Stop();
}

}  // namespace rocelab
