#include "transport/rc_transport.h"

#include <algorithm>

#include "sim/rng.h"

namespace rocelab {

RcTransport::RcTransport(const Simulator* clock, PacketPool* pool, const NicSpec* spec, uint32_t wire_overhead,
                         std::vector<QueuePair>* qps, RdmaCounters* counters, RcCarrier* carrier)
    : clock_(clock), pool_(pool), spec_(spec), wire_overhead_(wire_overhead), qps_(qps), rdma_(counters),
      carrier_(carrier) {}

Packet* RcTransport::NewPacket(const QueuePair& qp, PacketType type, uint8_t opcode, uint32_t psn,
                               bool toward_requester) {
  Packet* p = pool_->Get();
  p->type = type;
  p->opcode = opcode;
  p->qp = qp.id;
  p->psn = psn;
  p->src = toward_requester ? qp.dst : qp.src;
  p->dst = toward_requester ? qp.src : qp.dst;
  p->udp_sport = qp.udp_sport;  // RoCEv2: per-QP entropy for ECMP, the same both ways
  p->udp_dport = qp.udp_dport;
  p->dscp = qp.dscp;
  p->ttl = kSendTtl;
  return p;
}

// ---- Requester ----

Packet* RcTransport::NextRequest(QueuePair& qp) {
  const Message& msg = qp.MessageOf(qp.snd_nxt);
  if (msg.verb == Verb::kRead) return BuildReadRequest(qp, msg);
  const uint32_t psn = qp.snd_nxt++;
  const uint32_t payload = qp.PayloadOf(psn);
  uint8_t opcode = 0;
  uint32_t extra = 0;
  qp.OpcodeOf(psn, &opcode, &extra);
  Packet* p = NewPacket(qp, PacketType::kData, opcode, psn, false);
  p->payload = payload;
  // RETH and ImmDt sizes follow the profile's accounting (the ns-3 profile counts neither).
  if (extra >= kReth) extra = extra - kReth + spec_->reth_bytes;
  p->frame_bytes = static_cast<uint16_t>(FrameBytes(spec_->data_header_bytes, payload, extra));
  p->ecn = kEct0;  // RoCEv2 data is ECN-capable
  p->priority = qp.priority;
  p->flags = qp.LastOfMessage(psn) ? Packet::kFlagLast : 0;
  if (Timely()) p->sent_at = Now();
  if (Hpcc()) {
    // The switches on the way stamp their records into its INT header (net/switch.h).
    p->flags |= Packet::kFlagInt;
    p->frame_bytes = static_cast<uint16_t>(p->frame_bytes + kIntHeaderBytes);
  }
  if (psn < qp.max_sent) rdma_->retransmitted_packets++;
  else qp.max_sent = psn + 1;
  if (psn == qp.snd_una) qp.last_progress = Now();  // the timer runs from the oldest outstanding packet
  ArmAckTimer(qp);
  if (RpOn()) {
    Sent(RequestPacing(qp), p->frame_bytes);
    if (qp.window_bdp && Dcqcn()) Rewindow(qp);  // DCQCN's byte counter may have raised the rate
  }
  return p;
}

void RcTransport::Sent(const Pacing& pace, uint32_t frame_bytes) {
  if (!pace.acked) pace.rp.OnBytesSent(frame_bytes);
  pace.last_send = Now();
  pace.last_wire = frame_bytes + wire_overhead_;
  if (Limited(pace))
    pace.next_send = Now() + PacingGap(pace);
}

Packet* RcTransport::BuildReadRequest(QueuePair& qp, const Message& m) {
  // One request asks for the rest of the message from snd_nxt and consumes its PSNs.
  const uint32_t psn = qp.snd_nxt;
  const uint32_t done = psn - m.first_psn;
  Packet* p = NewPacket(qp, PacketType::kReadRequest, kOpReadRequest, psn, false);
  p->read_bytes = static_cast<uint32_t>(m.size - static_cast<uint64_t>(done) * qp.mtu);
  p->frame_bytes = static_cast<uint16_t>(std::max<uint32_t>(kMinFrame, spec_->data_header_bytes + spec_->reth_bytes));
  p->ecn = kEct0;
  p->priority = qp.priority;
  qp.snd_nxt = m.first_psn + m.packets;
  if (psn < qp.max_sent) rdma_->retransmitted_packets++;
  else qp.max_sent = qp.snd_nxt;
  if (psn == qp.snd_una) qp.last_progress = Now();
  ArmAckTimer(qp);
  return p;
}

void RcTransport::ArmAckTimer(QueuePair& qp) {
  if (qp.timer_pending) return;
  qp.timer_pending = true;
  carrier_->ArmTimer(RcCarrier::Timer::kAck, qp.last_progress + Timeout(qp), qp.id);
}

void RcTransport::Start(QueuePair& qp) {
  qp.retries_left = static_cast<int16_t>(spec_->retry_count);
  if (!Adaptive(qp)) return;
  // "Initial timeout is randomized to prevent multiple QPs from starting with the same value."
  const NicSpec::AdaptiveRetransmission& adp = spec_->adaptive_retransmission;
  const uint64_t n = Rng(seed_, NameHash("adaptive_retransmission") ^ qp.id).Below(static_cast<uint64_t>(adp.initial_range));
  qp.adp_initial = static_cast<int8_t>(adp.initial_low + static_cast<int>(n));
  qp.adp_exponent = qp.adp_initial;
}

bool RcTransport::AdaptiveExpiry(QueuePair& qp) {
  qp.adp_waited += Timeout(qp);
  if (qp.adp_waited >= AdaptiveBudget()) {
    rdma_->req_transport_retries_exceeded++;
    Complete(qp, true);
    return false;
  }
  rdma_->roce_adp_retrans++;
  if (AdaptiveTimeout(qp) >= AckTimeout()) rdma_->roce_adp_retrans_to++;
  if (qp.adp_exponent < 62) ++qp.adp_exponent;  // doubled, up to the ACK timeout
  // Slow restart: the resend starts at a cut rate, as a CNP would cut it (the firmware's
  // slow-restart rate is not published).
  // (DCQCN's: under the others the resend keeps its rate, as the ns-3 code base's has no slow restart.)
  if (spec_->adaptive_retransmission.slow_restart && RpOn() && Dcqcn()) {
    if (!qp.adp_slowed) rdma_->roce_slow_restart_trans++;
    qp.adp_slowed = true;
    rdma_->roce_slow_restart++;
    const Pacing pace = RequestPacing(qp);
    pace.rp.OnCnp(Now());
    Repace(qp, pace);
  }
  return true;
}

void RcTransport::Progressed(QueuePair& qp) {
  qp.retries_left = static_cast<int16_t>(spec_->retry_count);
  qp.adp_waited = 0;
  qp.adp_slowed = false;
  qp.adp_exponent = qp.adp_initial;
}

void RcTransport::OnAckTimer(QueuePair& qp) {
  qp.timer_pending = false;
  if (qp.done || qp.failed || qp.snd_una >= qp.snd_nxt) return;
  const Time deadline = qp.last_progress + Timeout(qp);
  if (Now() < deadline) {
    qp.timer_pending = true;
    carrier_->ArmTimer(RcCarrier::Timer::kAck, deadline, qp.id);
    return;
  }
  if (Adaptive(qp) ? !AdaptiveExpiry(qp) : !ConsumeRetry(qp)) return;
  // mlx5 counts the expiries that did not exhaust the retries; the last is the QP's error.
  rdma_->local_ack_timeout_err++;
  qp.snd_nxt = qp.snd_una;  // go back to the oldest unacknowledged PSN
  // ...or to its chunk's start: the receiver may have reset to it behind a lost NAK.
  if (spec_->back_to_chunk) qp.snd_nxt = qp.snd_una / spec_->back_to_chunk * spec_->back_to_chunk;
  qp.OnWindowLoss(true);
  qp.last_progress = Now();
  carrier_->Wake();
}

bool RcTransport::ConsumeRetry(QueuePair& qp) {
  if (qp.windowed) return true;  // a TCP-like flow retries until it gets through
  if (qp.retries_left == 0) {
    rdma_->req_transport_retries_exceeded++;
    Complete(qp, true);
    return false;
  }
  --qp.retries_left;
  return true;
}

void RcTransport::OnAck(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  if (pkt->flags & Packet::kFlagEcnEcho) OnCnp(pkt);
  if (qp.done || qp.failed) return;
  // Any positive ACK shows the path delivers again, including one for a packet sent again
  // inside a chunk whose start was acknowledged before (go-back-to-chunk): it refills the
  // retry budget even when it acknowledges nothing new.
  Progressed(qp);
  const uint32_t acked = pkt->psn + 1;
  const uint32_t newly = acked > qp.snd_una ? acked - qp.snd_una : 0;
  if (newly > 0) AdvanceUna(qp, acked);
  OnAckFeedback(qp, pkt, newly);
  // The window moved on, at the rate the ACK left: the NIC may send again (as the HPCC code
  // base's ReceiveAck ends by triggering the device). Only now: a send chosen while the ACK was
  // still changing the rate would be paced by the rate before it, and its turn at the NIC would
  // go stale (a TCP-like flow under TIMELY stalled at 0 Gb/s for good so).
  if (qp.window_packets || (qp.windowed && newly > 0 && !qp.done)) carrier_->Wake();
}

void RcTransport::AdvanceUna(QueuePair& qp, uint32_t una) {
  qp.OnWindowAck(una - qp.snd_una);
  qp.snd_una = una;
  qp.last_progress = Now();
  if (qp.snd_nxt < qp.snd_una) qp.snd_nxt = qp.snd_una;
  while (qp.completed < qp.messages.size()) {
    const Message& m = qp.messages[qp.completed];
    if (qp.snd_una < m.first_psn + m.packets) break;
    ++qp.completed;
    if (qp.listener) qp.listener->OnSendComplete(qp.id, m, Now());
  }
  if (!qp.open && qp.snd_una >= qp.num_packets) Complete(qp, false);
}

void RcTransport::OnNak(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  if (pkt->flags & Packet::kFlagEcnEcho) OnCnp(pkt);
  rdma_->packet_seq_err++;
  if (qp.done || qp.failed) return;
  OnAckFeedback(qp, pkt, 0);
  // Back to the chunk's start, though part of it was acknowledged (go-back-to-chunk).
  const bool to_chunk = spec_->back_to_chunk && pkt->psn < qp.snd_una;
  if (pkt->psn < qp.snd_una && !to_chunk) return;  // older than what is acknowledged: stale
  // A sequence-error NAK is a retry like a timeout (IBA 9.7.5.2.2; Linux rxe completes it
  // through COMPST_ERROR_RETRY), and only a positive ACK refills the budget.
  if (!ConsumeRetry(qp)) return;
  if (to_chunk) {
    qp.snd_nxt = pkt->psn;
  } else {
    qp.snd_una = pkt->psn;  // a NAK acknowledges everything before it
    qp.snd_nxt = qp.snd_una;  // go-back-N from the NAKed PSN
  }
  qp.OnWindowLoss(false);
  qp.last_progress = Now();
  carrier_->Wake();
}

void RcTransport::OnReadResponse(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  // The requester is the notification point of the response stream.
  if (pkt->ecn == kCe) OnCeMark(qp, pkt->psn, qp.last_response_cnp, false, false);
  if (qp.done || qp.failed) return;
  if (pkt->psn == qp.snd_una) {
    qp.read_rewound = false;
    qp.delivered += pkt->payload;
    rdma_->bytes_delivered += pkt->payload;
    Progressed(qp);
    AdvanceUna(qp, pkt->psn + 1);
    if (qp.windowed && !qp.done) carrier_->Wake();  // the window opened
  } else if (pkt->psn > qp.snd_una) {
    // A response is missing: ask again from the first missing PSN, once per gap. The implied
    // NAK is a sequence error and its retry comes from the same budget (Linux rxe's check_psn
    // sends it to COMPST_ERROR_RETRY, as a NAK).
    rdma_->implied_nak_seq_err++;
    if (!qp.read_rewound) {
      if (!ConsumeRetry(qp)) return;
      qp.read_rewound = true;
      qp.snd_nxt = qp.snd_una;
      qp.last_progress = Now();
      carrier_->Wake();
    }
  }
}

void RcTransport::Complete(QueuePair& qp, bool failed) {
  if (failed) {
    qp.failed = true;
    // The work request in error completes with an error, every one behind it flushed.
    rdma_->req_cqe_error++;
    if (qp.messages.size() > qp.completed + 1) rdma_->req_cqe_flush_error += qp.messages.size() - qp.completed - 1;
  } else {
    qp.done = true;
  }
  qp.finish = Now();
  if (failed && qp.listener)
    for (size_t i = qp.completed; i < qp.messages.size(); ++i)
      qp.listener->OnSendError(qp.id, qp.messages[i],
                               i == qp.completed ? MessageListener::Error::kRetryExceeded : MessageListener::Error::kFlushed,
                               Now());
  carrier_->Finished(qp);
}

// ---- Reaction point ----

void RcTransport::OnCnp(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  // A CNP that reaches the responder is about its READ response stream.
  const bool responses = pkt->dst == qp.dst;
  // (Only DCQCN's sender reacts to CNPs.)
  if (!RpOn() || !Dcqcn() || (!responses && (qp.done || qp.failed))) {
    rdma_->rp_cnp_ignored++;
    return;
  }
  rdma_->rp_cnp_handled++;
  const Pacing pace = responses ? ResponsePacing(qp) : RequestPacing(qp);
  pace.rp.OnCnp(Now());
  Repace(qp, pace);
}

void RcTransport::OnAckFeedback(QueuePair& qp, const Packet* pkt, uint32_t newly_acked) {
  if (!rp_on_ || qp.done || qp.failed) return;
  if (Dctcp()) qp.dctcp.OnAck(qp.snd_una, qp.snd_nxt, newly_acked, pkt->ce_echoed);
  else if (Timely()) qp.timely.OnAck(qp.snd_una, qp.snd_nxt, Now() - pkt->sent_at);
  else if (Hpcc()) qp.hpcc.OnAck(qp.snd_una, qp.snd_nxt, pkt->int_hops, pkt->int_count, int_format_);
  else return;
  Repace(qp, RequestPacing(qp));
}

void RcTransport::OnCcTimer(QueuePair& qp) { OnCcTimer(qp, RequestPacing(qp)); }
void RcTransport::OnResponseCcTimer(QueuePair& qp) { OnCcTimer(qp, ResponsePacing(qp)); }

void RcTransport::OnCcTimer(QueuePair& qp, const Pacing& pace) {
  if (pace.rp.timer_due() != Now()) return;  // superseded by a later cut
  pace.rp.OnTimer(Now());
  Repace(qp, pace);
  carrier_->Wake();
}

void RcTransport::Rewindow(QueuePair& qp) {
  if (qp.window_bdp == 0) return;
  double w = static_cast<double>(qp.window_bdp);
  if (spec_->window.scale_with_rate) w = w * SendingRate(qp, spec_->cc) / static_cast<double>(qp.line_rate_bps);
  qp.SetWindow(std::max<uint64_t>(1, static_cast<uint64_t>(w)));
}

void RcTransport::Repace(QueuePair& qp, const Pacing& pace) {
  const Time due = TimerDue(pace);
  if (due != kTimeNever && due != pace.timer_at) {
    pace.timer_at = due;
    carrier_->ArmTimer(pace.timer, due, qp.id);
  }
  // A rate that rose (or stopped limiting) must not wait out a gap computed at a lower rate.
  if (!Limited(pace)) {
    pace.next_send = std::min(pace.next_send, Now());
  } else if (pace.last_wire) {
    pace.next_send = std::min(pace.next_send, pace.last_send + PacingGap(pace));
  }
  if (pace.timer == RcCarrier::Timer::kCc) Rewindow(qp);
}

// ---- Responder ----

void RcTransport::Receive(const Packet* pkt) {
  switch (pkt->type) {
    case PacketType::kData: OnData(pkt); break;
    case PacketType::kReadRequest: OnReadRequest(pkt); break;
    case PacketType::kReadResponse: OnReadResponse(pkt); break;
    case PacketType::kAck: OnAck(pkt); break;
    case PacketType::kNak: OnNak(pkt); break;
    case PacketType::kCnp: OnCnp(pkt); break;
    case PacketType::kPause:
    case PacketType::kProbe:
    case PacketType::kProbeReply: break;  // not the transport's (net/nic.h)
  }
}

void RcTransport::SendAckOrNak(PacketType type, QueuePair& qp, uint32_t psn, bool ecn_echo, const Packet* data) {
  Packet* p = NewPacket(qp, type, kOpAcknowledge, psn, true);
  p->frame_bytes = static_cast<uint16_t>(spec_->ack_bytes);
  if (Dctcp()) {
    p->ce_echoed = qp.ce_unacked;
    qp.ce_unacked = 0;
  } else if (Timely()) {
    p->sent_at = data ? data->sent_at : Now();
  } else if (Hpcc()) {
    if (data) {
      p->int_count = data->int_count;
      std::copy(data->int_hops, data->int_hops + kMaxIntHops, p->int_hops);
    }
    p->frame_bytes = static_cast<uint16_t>(p->frame_bytes + kIntHeaderBytes);
  }
  if (ecn_echo) {
    p->flags |= Packet::kFlagEcnEcho;
    rdma_->np_cnp_sent++;  // the echo is this profile's CNP: counted when it leaves
  }
  p->ecn = kNotEct;
  p->priority = spec_->dscp_to_priority[p->dscp & 63];
  carrier_->SendControl(p);
}

void RcTransport::SendCnp(const QueuePair& qp, uint32_t psn, bool toward_requester) {
  Packet* p = NewPacket(qp, PacketType::kCnp, kOpCnp, psn, toward_requester);
  p->frame_bytes = static_cast<uint16_t>(spec_->cnp_bytes);
  p->dscp = spec_->cnp_dscp;
  p->ecn = kNotEct;
  p->priority = spec_->dscp_to_priority[p->dscp & 63];
  rdma_->np_cnp_sent++;
  carrier_->SendControl(p);
}

void RcTransport::OnData(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  // With cnp_on_ack the congestion signal rides the ACK of this very packet; under DCTCP every
  // mark is counted onto the next ACK.
  const bool ce = pkt->ecn == kCe;
  const bool echo = ce && spec_->cnp_on_ack && Dcqcn();
  if (ce) {
    if (Dctcp()) ++qp.ce_unacked;
    OnCeMark(qp, pkt->psn, qp.last_cnp, true, echo);
  }
  if (pkt->psn == qp.expected_psn) {
    ++qp.expected_psn;
    if (pkt->psn >= qp.delivered_psn) {  // counted once, even when a chunk is sent again
      qp.delivered_psn = pkt->psn + 1;
      qp.delivered += pkt->payload;
      rdma_->bytes_delivered += pkt->payload;
    }
    if (pkt->opcode == kOpWriteFirst || pkt->opcode == kOpWriteOnly || pkt->opcode == kOpWriteOnlyImm)
      rdma_->rx_write_requests++;
    qp.nak_outstanding = false;
    if (++qp.unacked >= static_cast<uint32_t>(spec_->ack_every) || pkt->last()) {
      qp.unacked = 0;
      SendAckOrNak(PacketType::kAck, qp, pkt->psn, echo, pkt);
    }
    if (pkt->last() && qp.listener) qp.listener->OnReceiveComplete(qp.id, pkt->opcode, Now());
  } else if (pkt->psn > qp.expected_psn) {
    rdma_->out_of_sequence++;
    if (NakDue(qp)) {
      // Go-back-to-chunk (the HPCC code base's L2_BACK_TO_ZERO 1): expect the chunk again.
      if (spec_->back_to_chunk) qp.expected_psn = qp.expected_psn / spec_->back_to_chunk * spec_->back_to_chunk;
      SendAckOrNak(PacketType::kNak, qp, qp.expected_psn, echo, pkt);
    }
  } else {
    rdma_->duplicate_request++;
    SendAckOrNak(PacketType::kAck, qp, qp.expected_psn - 1, echo, pkt);
  }
}

void RcTransport::OnCeMark(const QueuePair& qp, uint32_t psn, Time& qp_last_cnp, bool toward_requester, bool echoed) {
  rdma_->np_ecn_marked_roce_packets++;
  if (echoed || !Dcqcn()) return;  // an echo rides the ACK instead; only DCQCN has CNPs
  Time& last_cnp = spec_->dcqcn.cnp_per_port ? last_port_cnp_ : qp_last_cnp;
  if (last_cnp >= 0 && Now() - last_cnp < spec_->dcqcn.min_time_between_cnps) return;
  last_cnp = Now();
  SendCnp(qp, psn, toward_requester);
}

bool RcTransport::NakDue(QueuePair& qp) {
  if (spec_->nak_interval > 0) {
    // The HPCC code's ReceiverCheckSeq: a NAK for a new expected PSN at once; the same one
    // again only for an out-of-order packet that comes nak_interval after the last NAK.
    if (qp.last_nak_psn == qp.expected_psn && Now() < qp.next_nak) return false;
    qp.last_nak_psn = qp.expected_psn;
    qp.next_nak = Now() + spec_->nak_interval;
    return true;
  }
  // One NAK per gap: the next one only after an in-order packet closed it.
  if (qp.nak_outstanding) return false;
  qp.nak_outstanding = true;
  return true;
}

void RcTransport::OnReadRequest(const Packet* pkt) {
  QueuePair& qp = (*qps_)[pkt->qp];
  if (pkt->psn > qp.expected_psn) {
    rdma_->out_of_sequence++;
    if (!qp.nak_outstanding) {
      qp.nak_outstanding = true;
      SendAckOrNak(PacketType::kNak, qp, qp.expected_psn, false, nullptr);
    }
    return;
  }
  const uint32_t packets = static_cast<uint32_t>(std::max<uint64_t>(1, (pkt->read_bytes + qp.mtu - 1) / qp.mtu));
  if (pkt->psn == qp.expected_psn) {
    qp.expected_psn += packets;
    qp.nak_outstanding = false;
    rdma_->rx_read_requests++;
  } else {
    rdma_->duplicate_request++;  // a re-read after lost responses: answer it again
  }
  qp.read_jobs.push_back({pkt->psn, packets, pkt->read_bytes});
  carrier_->Responding(qp.id);
}

Packet* RcTransport::NextReadResponse(QueuePair& qp) {
  QueuePair::ReadJob& job = qp.read_jobs[qp.read_head];
  const uint32_t i = qp.read_sent++;
  const bool first = i == 0, last = i + 1 == job.packets;
  const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(qp.mtu, job.bytes - static_cast<uint64_t>(i) * qp.mtu));
  const uint8_t opcode = job.packets == 1 ? kOpReadResponseOnly
                         : first          ? kOpReadResponseFirst
                         : last           ? kOpReadResponseLast
                                          : kOpReadResponseMiddle;
  Packet* p = NewPacket(qp, PacketType::kReadResponse, opcode, job.psn + i, true);
  p->payload = payload;
  const uint32_t aeth = (first || last) ? kAeth : 0;
  p->frame_bytes = static_cast<uint16_t>(FrameBytes(spec_->data_header_bytes, payload, aeth));
  p->ecn = kEct0;  // RoCEv2 READ responses are ECN-capable data
  p->priority = spec_->dscp_to_priority[qp.dscp & 63];
  p->flags = last ? Packet::kFlagLast : 0;
  if (RpOn()) Sent(ResponsePacing(qp), p->frame_bytes);
  if (last) {
    qp.read_sent = 0;
    if (++qp.read_head == qp.read_jobs.size()) {
      qp.read_jobs.clear();
      qp.read_head = 0;
    }
  }
  return p;
}

}  // namespace rocelab
