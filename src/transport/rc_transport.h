// The RoCEv2 Reliable Connection protocol of one NIC, acting on the queue
// pairs it is an end of. Requester: builds data packets and READ requests
// in PSN order, goes back N on a NAK or on the local ACK timeout
// (4.096 us x 2^timeout, `retry_count` retries), completes on the ACK of a
// message's last PSN. With ConnectX adaptive retransmission the timer starts
// short (its first value drawn per QP) and doubles on each expiry up to the
// ACK timeout; the QP fails when its timer has run, without progress, as long
// as the IBTA timer's retries would have. Responder: accepts in-order
// packets, ACKs them (coalesced), NAKs the first packet of a gap once, answers READ requests
// with a response stream, and generates CNPs for CE-marked packets (or echoes
// CE on the ACK). Reaction point: hands CNPs to the QP's DCQCN, the ACKs'
// echoed marks to its DCTCP or their RTTs to its TIMELY, and re-paces it.
//
// The NIC that carries it keeps everything about the wire: which QP sends
// next, the receive buffer, PFC. The transport reaches it only through
// RcCarrier.
#ifndef ROCELAB_TRANSPORT_RC_TRANSPORT_H_
#define ROCELAB_TRANSPORT_RC_TRANSPORT_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "scenario/scenario.h"
#include "sim/event_queue.h"
#include "sim/packet.h"
#include "telemetry/counters.h"
#include "transport/queue_pair.h"

namespace rocelab {

// The local ACK timeout of a queue pair whose `timeout` exponent is `exponent` (IBTA: 4.096 us x
// 2^exponent; ibv_modify_qp's timeout attribute).
inline Time LocalAckTimeout(int exponent) { return (4096 * kNanosecond) << exponent; }

// What the transport needs from the NIC under it.
class RcCarrier {
 public:
  enum class Timer : uint8_t { kAck, kCc, kResponseCc };
  virtual ~RcCarrier() = default;
  // An ACK, NAK or CNP: it goes ahead of data on its priority.
  virtual void SendControl(Packet* pkt) = 0;
  // Something may be sendable now (a window opened, a go-back, a rate rose).
  virtual void Wake() = 0;
  virtual void ArmTimer(Timer timer, Time at, uint32_t qp) = 0;
  // The QP now owes READ responses.
  virtual void Responding(uint32_t qp) = 0;
  // The QP's flow finished or failed (qp.done or qp.failed is set).
  virtual void Finished(QueuePair& qp) = 0;
};

class RcTransport {
 public:
  RcTransport(const Simulator* clock, PacketPool* pool, const NicSpec* spec, uint32_t wire_overhead,
              std::vector<QueuePair>* qps, RdmaCounters* counters, RcCarrier* carrier);
  // Pacing gaps rounded down to this (SimContext::serialization_grain).
  void set_pacing_grain(Time grain) { pacing_grain_ = grain; }
  // The local ACK timeout runs at this share of its length (timers.scale).
  void set_timer_scale(double scale) { timer_scale_ = scale; }

  // Requester: the next packet of `qp` (data, or a READ request for the rest of a READ).
  Packet* NextRequest(QueuePair& qp);
  // Responder: the next READ response packet `qp` owes.
  Packet* NextReadResponse(QueuePair& qp);
  // A packet for an end of this NIC's queue pairs (after the receive pipeline).
  void Receive(const Packet* pkt);
  // Timer events the carrier armed.
  void OnAckTimer(QueuePair& qp);
  void OnCcTimer(QueuePair& qp);
  void OnResponseCcTimer(QueuePair& qp);
  // The reaction point (rate cuts on CNPs) on or off; the notification point is not affected.
  void set_reaction_point(bool on) { rp_on_ = on; }
  bool reaction_point() const { return rp_on_; }
  // A QP becomes active: its retry budget starts full, its adaptive timeout drawn.
  void Start(QueuePair& qp);
  // The QP fails now as if its retries had run out (its work requests completed in error and
  // flushed), unless it finished or failed already: a lab's healthy twin losing the queue pairs
  // the broken fabric lost (lab/lab_session.h).
  void Fail(QueuePair& qp) {
    if (!qp.done && !qp.failed) Complete(qp, true);
  }
  // Draws come from the run's seed (set before any QP starts).
  void set_seed(uint64_t seed) { seed_ = seed; }
  // How the switches' INT records pack their fields (HPCC, cc/int_hop.h).
  void set_int_format(const IntFormat& f) { int_format_ = f; }

  // The requester's rate of a congestion control the ACKs drive (null: DCQCN's, or none).
  static const AckClockedRate* AckClocked(NicSpec::Cc cc, const QueuePair& qp) {
    switch (cc) {
      case NicSpec::Cc::kDctcp: return &qp.dctcp.rate();
      case NicSpec::Cc::kTimely: return &qp.timely.rate();
      case NicSpec::Cc::kHpcc: return &qp.hpcc.rate();
      default: return nullptr;
    }
  }
  // What `qp` may send at now, under its NIC's congestion control `cc`.
  static double SendingRate(const QueuePair& qp, NicSpec::Cc cc) {
    const AckClockedRate* a = AckClocked(cc, qp);
    return a ? a->rate_bps() : qp.rp.rate_bps();
  }

 private:
  // The headers every packet of `qp` carries; toward the requester for responses and control.
  Packet* NewPacket(const QueuePair& qp, PacketType type, uint8_t opcode, uint32_t psn, bool toward_requester);
  Packet* BuildReadRequest(QueuePair& qp, const Message& m);
  // An ACK or NAK for `psn`; `ecn_echo` carries CE back on it (the ns-3 profile's congestion signal).
  // `data` is the packet it answers (TIMELY echoes its send time, HPCC its INT records).
  void SendAckOrNak(PacketType type, QueuePair& qp, uint32_t psn, bool ecn_echo, const Packet* data);
  void SendCnp(const QueuePair& qp, uint32_t psn, bool toward_requester);
  // The notification point: a CE-marked packet of `qp` arrived; send a CNP toward the sender of
  // that stream unless the echo carries it or one left too recently (per QP, or per port).
  void OnCeMark(const QueuePair& qp, uint32_t psn, Time& qp_last_cnp, bool toward_requester, bool echoed);
  // Whether an out-of-order arrival is NAKed (and the NAK state updated if so).
  bool NakDue(QueuePair& qp);
  void OnData(const Packet* pkt);
  void OnReadRequest(const Packet* pkt);
  void OnReadResponse(const Packet* pkt);
  void OnAck(const Packet* pkt);
  void OnNak(const Packet* pkt);
  void OnCnp(const Packet* pkt);
  // The callers wake the NIC for a windowed flow whose window opened, once any rate change the
  // same packet brings is made.
  void AdvanceUna(QueuePair& qp, uint32_t una);
  // Takes one retry from the QP's budget; false (and the QP in error) when none is left.
  bool ConsumeRetry(QueuePair& qp);
  void ArmAckTimer(QueuePair& qp);
  // The rate changed: arm the next timed step and let a faster rate shorten the current gap.
  // The requester's data and the responder's READ responses each have a reaction point.
  struct Pacing {
    DcqcnRp& rp;
    const AckClockedRate* acked;  // under a congestion control the ACKs drive, the requester's rate (rp idle)
    Time& next_send;
    Time& last_send;
    uint32_t& last_wire;
    Time& timer_at;
    RcCarrier::Timer timer;
  };
  Pacing RequestPacing(QueuePair& qp) const {
    return {qp.rp, AckClocked(spec_->cc, qp), qp.next_send, qp.last_send, qp.last_wire, qp.cc_timer_at,
            RcCarrier::Timer::kCc};
  }
  static Pacing ResponsePacing(QueuePair& qp) {
    return {qp.response_rp, nullptr, qp.response_next_send, qp.response_last_send, qp.response_last_wire,
            qp.response_cc_timer_at, RcCarrier::Timer::kResponseCc};
  }
  static double Rate(const Pacing& pace) { return pace.acked ? pace.acked->rate_bps() : pace.rp.rate_bps(); }
  static bool Limited(const Pacing& pace) { return pace.acked ? pace.acked->limited() : pace.rp.limited(); }
  static Time TimerDue(const Pacing& pace) { return pace.acked ? kTimeNever : pace.rp.timer_due(); }
  void Repace(QueuePair& qp, const Pacing& pace);
  // The requester's window follows its rate (NicSpec::window). Whoever changed the rate wakes
  // the NIC once done: a send chosen in between would be paced by a rate about to change.
  void Rewindow(QueuePair& qp);
  // The gap after the last frame at the reaction point's rate.
  Time PacingGap(const Pacing& pace) const {
    return RoundDown(SerializationTime(pace.last_wire, static_cast<uint64_t>(Rate(pace))), pacing_grain_);
  }
  void Sent(const Pacing& pace, uint32_t frame_bytes);
  void OnCcTimer(QueuePair& qp, const Pacing& pace);
  void Complete(QueuePair& qp, bool failed);
  Time Now() const { return clock_->Now(); }
  Time AckTimeout() const { return ScaledTimer(LocalAckTimeout(spec_->timeout), timer_scale_); }
  // Whether `qp` runs ConnectX adaptive retransmission (a TCP-like flow keeps its own RTO).
  bool Adaptive(const QueuePair& qp) const { return spec_->adaptive_retransmission.enabled && !qp.windowed; }
  // Its timeout now: time_base x 2^n, never longer than the QP's ACK timeout.
  Time AdaptiveTimeout(const QueuePair& qp) const {
    const Time base = spec_->adaptive_retransmission.time_base;
    const int n = qp.adp_exponent;
    return n < 0 || n >= 62 || base > (AckTimeout() >> n) ? AckTimeout() : base << n;
  }
  // The time an adaptive timer may run without progress before the QP fails. The firmware's
  // default (profile 0) is not published; it is kept where the IBTA timer puts it, (retry_count
  // + 1) ACK timeouts of the timer's running, so adaptive retransmission changes how soon a loss
  // is resent, not when a QP gives up.
  Time AdaptiveBudget() const { return AckTimeout() * (spec_->retry_count + 1); }
  Time Timeout(const QueuePair& qp) const {
    if (qp.rto > 0) return qp.rto;
    if (!Adaptive(qp)) return AckTimeout();
    return std::min(AdaptiveTimeout(qp), AdaptiveBudget() - qp.adp_waited);  // the last one ends the budget
  }
  // An adaptive timer expired: the QP fails once its timer has run its whole budget without
  // progress, else resends (false: it failed).
  bool AdaptiveExpiry(QueuePair& qp);
  // A positive ACK or an in-order read response: the path delivers again. The retry budget
  // refills, the timeout goes back to the first one, slow restart ends.
  void Progressed(QueuePair& qp);
  bool CcOn() const { return spec_->cc != NicSpec::Cc::kNone; }
  bool Dcqcn() const { return spec_->cc == NicSpec::Cc::kDcqcn; }
  bool Dctcp() const { return spec_->cc == NicSpec::Cc::kDctcp; }
  bool Timely() const { return spec_->cc == NicSpec::Cc::kTimely; }
  bool Hpcc() const { return spec_->cc == NicSpec::Cc::kHpcc; }
  // The sender of a congestion control the ACKs drive: an ACK or NAK newly acknowledging
  // `newly_acked` packets, with the marks (DCTCP), the send time (TIMELY) or the INT records
  // (HPCC) it brings back.
  void OnAckFeedback(QueuePair& qp, const Packet* pkt, uint32_t newly_acked);
  bool RpOn() const { return CcOn() && rp_on_; }

  const Simulator* clock_;
  PacketPool* pool_;
  const NicSpec* spec_;
  bool rp_on_ = true;
  uint32_t wire_overhead_;
  Time pacing_grain_ = 0;
  double timer_scale_ = 1;
  std::vector<QueuePair>* qps_;
  RdmaCounters* rdma_;
  RcCarrier* carrier_;
  Time last_port_cnp_ = -1;  // the port's last CNP (cnp_moderation: port)
  uint64_t seed_ = 0;
  IntFormat int_format_;
};

}  // namespace rocelab

#endif  // ROCELAB_TRANSPORT_RC_TRANSPORT_H_
