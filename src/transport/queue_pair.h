// An RC queue pair: the work requests posted on it (messages, in PSN order)
// and the state of both ends — the requester's at the source NIC (PSNs, retry
// budget, timers, congestion control) and the responder's at the destination NIC
// (expected PSN, ACK coalescing, NAK and CNP state, READ responses owed).
// A flow is a QP with one message; workload drivers keep QPs open and post
// many. The protocol acting on this state is transport/rc_transport.h.
#ifndef ROCELAB_TRANSPORT_QUEUE_PAIR_H_
#define ROCELAB_TRANSPORT_QUEUE_PAIR_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/timer.h"
#include "cc/dcqcn.h"
#include "cc/dctcp.h"
#include "cc/hpcc.h"
#include "cc/timely.h"
#include "sim/packet.h"
#include "sim/time.h"

namespace rocelab {

// The verb a work request carries.
enum class Verb : uint8_t { kWrite, kWriteImm, kSend, kRead };

// One posted work request: a message occupying PSNs [first_psn, first_psn + packets).
struct Message {
  Verb verb = Verb::kWrite;
  uint64_t size = 0;
  uint32_t first_psn = 0;
  uint32_t packets = 0;
  Time posted = 0;
  uint64_t tag = 0;  // the poster's cookie, returned with the completion
};

// Told about completions of the queue pairs it drives (perftest, collectives, storage).
class MessageListener {
 public:
  virtual ~MessageListener() = default;
  // The requester saw the ACK of the message's last packet.
  virtual void OnSendComplete(uint32_t qp, const Message& m, Time now) = 0;
  // The responder accepted the last packet of a message (in order); `opcode` is that packet's
  // BTH opcode (a SEND or WRITE with immediate consumes a receive; a plain WRITE does not, but
  // a poller of the target memory sees it land).
  virtual void OnReceiveComplete(uint32_t qp, uint8_t opcode, Time now) = 0;
  // The QP went to the error state: each work request not yet completed completes in error,
  // the oldest with "retry count exceeded" (IBV_WC_RETRY_EXC_ERR) and the rest flushed
  // (IBV_WC_WR_FLUSH_ERR), in posting order.
  enum class Error : uint8_t { kRetryExceeded, kFlushed };
  virtual void OnSendError(uint32_t qp, const Message& m, Error error, Time now) = 0;
};

// The fields are laid out by when they are read, so that a packet costs a QP few cache lines
// on a large fabric, where its lines are seldom still in cache: the first line holds what names
// the QP (both ends read it to build a packet) and what the responder reads for each data
// packet; the next two hold what the requester reads for each packet it sends (its scheduler,
// PSNs and rate limiter, the messages, the hot head of its DCQCN state); the rest is read on
// ACKs, timers, completions and READs.
struct alignas(64) QueuePair {
  // The NIC schedulers' view of it (net/qp_scheduler.h).
  enum SchedState : uint8_t { kSchedIdle, kSchedCandidate, kSchedPaced };

  // ---- Identity, and the responder's per-packet state.
  uint32_t id = 0;
  uint32_t src = 0, dst = 0;  // host indices
  uint8_t dscp = kRoceDscp;
  uint8_t priority = 3;       // at the requester NIC
  uint16_t udp_sport = 0;
  uint16_t udp_dport = kRoceUdpPort;
  bool nak_outstanding = false;  // responder: a NAK for the current gap was sent
  uint32_t mtu = 4096;
  uint32_t expected_psn = 0;   // responder: the next PSN in order
  uint32_t delivered_psn = 0;  // responder: one past the highest PSN whose payload was counted
  uint32_t unacked = 0;        // responder: packets accepted since the last ACK
  uint32_t ce_unacked = 0;     // responder: ...of which arrived CE-marked (DCTCP's echo)
  uint64_t delivered = 0;      // responder: payload bytes delivered in order
  Time last_cnp = -1;          // responder: its last CNP for this QP
  MessageListener* listener = nullptr;  // set when a driver keeps the QP open

  // ---- Requester, per packet sent: its place in its NIC's rotation (and what the scheduler
  // last found it to be), PSNs, ACK timer and rate limiter.
  bool started = false, done = false, failed = false;
  bool windowed = false;  // see cwnd below
  bool timer_pending = false;
  uint8_t sched_state = kSchedIdle;
  uint32_t sched_slot = UINT32_MAX;
  uint32_t snd_nxt = 0;   // next PSN to send
  uint32_t snd_una = 0;   // oldest unacknowledged PSN
  uint32_t num_packets = 0;
  uint32_t max_sent = 0;  // one past the highest PSN ever sent
  int16_t retries_left = 7;
  // The packets in flight the congestion control's window allows (HPCC's; 0: no window).
  uint16_t window_packets = 0;
  Time next_send = 0;     // rate limiter: earliest time of the next packet
  Time last_progress = 0;
  Time last_send = 0;     // when the last data packet left, and its size on the wire:
  uint32_t last_wire = 0; // the limiter re-derives next_send from them when the rate rises

  // Work requests in PSN order; the ones before `completed` have completed.
  std::vector<Message> messages;
  // A TCP-like window (NewReno-style AIMD in packets) for the lossy background class
  // (`windowed`); RDMA QPs have none and are paced by their rate alone.
  double cwnd = 10;
  DcqcnRp rp;

  // ---- The rest of the requester.
  uint64_t size = 0;
  Time start = 0;
  Time ideal_fct = 0;  // the same message alone on an idle path
  Time timer_deadline = kTimeNever;
  Time finish = -1;
  Time cc_timer_at = kTimeNever;  // when the pending rate-increase event fires
  Timer cc_timer;                  // ...and the event waiting for it
  bool read_rewound = false;       // a gap in READ responses was seen and the request re-issued
  bool open = false;  // driven by a listener: stays up when its messages complete
  size_t completed = 0;
  double ssthresh = 1e9;
  Time rto = 0;  // retransmission timeout for a windowed flow (0: the NIC's ACK timeout)
  // Adaptive retransmission (nic.adaptive_retransmission): the timeout's exponent n (time_base x
  // 2^n), drawn when the QP starts and back to that draw on progress; how long the timer has run
  // since the last progress, expiry by expiry.
  int8_t adp_exponent = -1, adp_initial = -1;
  bool adp_slowed = false;  // slow restart in force since the last progress
  Time adp_waited = 0;
  Time last_response_cnp = -1;  // its last CNP about the READ responses
  // The requester's rate under nic.cc dctcp, timely or hpcc (rp then stays idle).
  DctcpRp dctcp;
  TimelyRp timely;
  HpccRp hpcc;
  // The sending window's bytes at line rate, and that rate (NicSpec::window; 0: no window).
  uint64_t window_bdp = 0;
  uint64_t line_rate_bps = 0;

  // ---- The rest of the responder.
  // Its ACK still waiting in the NIC for the wire (nic.coalesce_acks): a newer one replaces it.
  Packet* ack_waiting = nullptr;
  uint32_t last_nak_psn = UINT32_MAX;  // with nic.nak_interval: the PSN last NAKed and when
  Time next_nak = 0;                   // the same PSN may be NAKed again
  struct ReadJob {
    uint32_t psn, packets;
    uint64_t bytes;
  };
  std::vector<ReadJob> read_jobs;  // READ responses still to send, oldest first
  size_t read_head = 0;
  uint32_t read_sent = 0;          // packets of read_jobs[read_head] already sent
  // The responder NIC's rotation of READ responses owed (net/qp_scheduler.h), as for the
  // requester's above, and the priority the responses go on at that NIC.
  uint32_t response_slot = UINT32_MAX;
  uint8_t response_state = kSchedIdle;
  uint8_t response_priority = 3;
  // The response stream is paced by its own DCQCN reaction point: CNPs for CE-marked responses
  // come back to the responder.
  Time response_next_send = 0, response_last_send = 0;
  uint32_t response_last_wire = 0;
  Time response_cc_timer_at = kTimeNever;
  DcqcnRp response_rp;
  Timer response_cc_timer;

  bool HasDataToSend() const {
    return started && !done && !failed && snd_nxt < num_packets &&
           (!windowed || static_cast<double>(snd_nxt - snd_una) < cwnd) &&
           (window_packets == 0 || snd_nxt - snd_una < window_packets);
  }
  // The congestion control's window of `bytes` in flight (0: none), in packets: what is in
  // flight grows a packet at a time, and a packet may leave while less than the window is out.
  void SetWindow(uint64_t bytes) {
    window_packets = static_cast<uint16_t>(bytes == 0 ? 0 : std::min<uint64_t>(65535, (bytes + mtu - 1) / mtu));
  }
  void OnWindowAck(uint32_t newly_acked) {
    if (!windowed) return;
    for (uint32_t i = 0; i < newly_acked; ++i) cwnd += cwnd < ssthresh ? 1.0 : 1.0 / cwnd;
  }
  void OnWindowLoss(bool timeout) {
    if (!windowed) return;
    ssthresh = std::max(cwnd / 2, 2.0);
    cwnd = timeout ? 1.0 : ssthresh;
  }

  // Appends a message: its PSNs follow the previous message's.
  void Post(Verb verb, uint64_t bytes, Time now, uint64_t tag) {
    Message m;
    m.verb = verb;
    m.size = bytes;
    m.first_psn = num_packets;
    m.packets = static_cast<uint32_t>(bytes == 0 ? 1 : (bytes + mtu - 1) / mtu);
    m.posted = now;
    m.tag = tag;
    messages.push_back(m);
    num_packets += m.packets;
    size += bytes;
  }

  const Message& MessageOf(uint32_t psn) const {
    auto it = std::upper_bound(messages.begin(), messages.end(), psn,
                               [](uint32_t p, const Message& m) { return p < m.first_psn; });
    return *(it - 1);
  }

  uint32_t PayloadOf(uint32_t psn) const {
    const Message& m = MessageOf(psn);
    const uint32_t i = psn - m.first_psn;
    return i + 1 < m.packets ? mtu : static_cast<uint32_t>(m.size - static_cast<uint64_t>(i) * mtu);
  }

  // BTH opcode and extra header bytes (RETH on a WRITE's first packet, ImmDt on the last with immediate).
  void OpcodeOf(uint32_t psn, uint8_t* opcode, uint32_t* extra) const {
    const Message& m = MessageOf(psn);
    const uint32_t i = psn - m.first_psn;
    const bool first = i == 0, last = i + 1 == m.packets, only = first && last;
    *extra = 0;
    switch (m.verb) {
      case Verb::kWrite:
        *opcode = only ? kOpWriteOnly : first ? kOpWriteFirst : last ? kOpWriteLast : kOpWriteMiddle;
        if (first) *extra += kReth;
        break;
      case Verb::kWriteImm:
        *opcode = only ? kOpWriteOnlyImm : first ? kOpWriteFirst : last ? kOpWriteLastImm : kOpWriteMiddle;
        if (first) *extra += kReth;
        if (last) *extra += kImmDt;
        break;
      case Verb::kSend:
        *opcode = only ? kOpSendOnly : first ? kOpSendFirst : last ? kOpSendLast : kOpSendMiddle;
        break;
      case Verb::kRead:
        *opcode = kOpReadRequest;
        *extra = kReth;
        break;
    }
  }

  bool LastOfMessage(uint32_t psn) const {
    const Message& m = MessageOf(psn);
    return psn + 1 == m.first_psn + m.packets;
  }
};

// The layout above, held: a data packet reads line 0 of its QP at the responder, and lines 0 to 2
// at the requester.
static_assert(offsetof(QueuePair, listener) + sizeof(MessageListener*) <= 64,
              "the responder's per-packet fields are on line 0");
static_assert(offsetof(QueuePair, started) >= 64 && offsetof(QueuePair, last_wire) + sizeof(uint32_t) <= 128,
              "the requester's per-packet fields are on line 1");
static_assert(offsetof(QueuePair, messages) >= 128 && offsetof(QueuePair, rp) + DcqcnRp::kPerPacketBytes <= 192,
              "the messages and the head of the rate limiter are on line 2");

}  // namespace rocelab

#endif  // ROCELAB_TRANSPORT_QUEUE_PAIR_H_
