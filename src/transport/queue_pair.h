// An RC queue pair carrying one message (a flow): the requester's state at the
// source NIC and the responder's at the destination NIC. Requester: PSNs,
// go-back-N on NAK or on the local ACK timeout, retry counter, completion on
// the ACK of the last PSN. Responder: expected PSN, ACK coalescing, one NAK per
// gap, CNPs for CE-marked packets at most every min_time_between_cnps.
#ifndef ROCELAB_TRANSPORT_QUEUE_PAIR_H_
#define ROCELAB_TRANSPORT_QUEUE_PAIR_H_

#include <cstdint>

#include "cc/dcqcn.h"
#include "sim/time.h"

namespace rocelab {

struct QueuePair {
  uint32_t id = 0;
  uint32_t src = 0, dst = 0;  // host indices
  uint8_t dscp = 26;
  uint8_t priority = 3;       // at the requester NIC
  uint16_t udp_sport = 0;
  uint64_t size = 0;
  uint32_t mtu = 4096;
  uint32_t num_packets = 0;
  Time start = 0;
  Time ideal_fct = 0;  // the same message alone on an idle path

  // Requester.
  bool started = false, done = false, failed = false;
  uint32_t snd_nxt = 0;   // next PSN to send
  uint32_t snd_una = 0;   // oldest unacknowledged PSN
  uint32_t max_sent = 0;  // one past the highest PSN ever sent
  int retries_left = 7;
  Time last_progress = 0;
  Time timer_deadline = kTimeNever;
  bool timer_pending = false;
  Time next_send = 0;     // rate limiter: earliest time of the next packet
  Time finish = -1;
  DcqcnRp rp;
  Time cc_timer_at = kTimeNever;  // when the pending rate-increase event fires

  // Responder.
  uint32_t expected_psn = 0;
  bool nak_outstanding = false;
  uint32_t unacked = 0;
  Time last_cnp = -1;
  uint64_t delivered = 0;

  bool HasDataToSend() const { return started && !done && !failed && snd_nxt < num_packets; }
  uint32_t PayloadOf(uint32_t psn) const {
    return psn + 1 < num_packets ? mtu : static_cast<uint32_t>(size - static_cast<uint64_t>(psn) * mtu);
  }
};

}  // namespace rocelab

#endif  // ROCELAB_TRANSPORT_QUEUE_PAIR_H_
