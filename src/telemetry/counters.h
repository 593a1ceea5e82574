// Counters as devices keep them. The fields are plain integers updated on the
// hot path; telemetry/counter_names.h names the real-device counter each one
// is exported as (mlx5 ethtool -S, RDMA hw_counters, SAI statistics), and
// docs/counters.md the exact point where it is counted.
#ifndef ROCELAB_TELEMETRY_COUNTERS_H_
#define ROCELAB_TELEMETRY_COUNTERS_H_

#include <cstdint>

#include "sim/packet.h"
#include "sim/time.h"

namespace rocelab {

// One side of a link: a switch port or a NIC port.
struct PortCounters {
  // Frames of one priority received: a frame adds to one line, not to two arrays.
  struct PriorityTraffic {
    uint64_t packets = 0, bytes = 0;
  };
  // Frames of one priority sent, with their wire time: everything a frame sent counts is in one
  // line (the entries are 32-byte aligned), so that sending writes no line of totals.
  struct alignas(32) SentTraffic {
    uint64_t packets = 0, bytes = 0;
    Time busy = 0;      // wire time of these frames
    Time last_end = 0;  // the end of the last of them on the wire
  };
  SentTraffic tx_prio[kNumPriorities];
  SentTraffic tx_other;  // PFC frames, which no priority counts
  // Good frames received, by the priority the device gave them. A switch keeps these in its
  // priority groups instead, and fills them in when asked (Switch::port_counters).
  PriorityTraffic rx_prio[kNumPriorities];
  // Frames received that no priority counts: PFC frames, frames with a bad FCS, frames over the
  // port's MTU. A good frame counts in its priority alone, so that a frame's arrival writes one
  // line of the counters.
  PriorityTraffic rx_other;
  Time first_tx = -1;  // the start of the first frame sent

  // The port's totals, added up when they are read: every frame received, and every frame sent
  // (busy: the wire time of them all; last_end: the end of the last).
  PriorityTraffic Received() const {
    PriorityTraffic all = rx_other;
    for (const PriorityTraffic& t : rx_prio) {
      all.packets += t.packets;
      all.bytes += t.bytes;
    }
    return all;
  }
  SentTraffic Sent() const {
    SentTraffic all = tx_other;
    for (const SentTraffic& t : tx_prio) {
      all.packets += t.packets;
      all.bytes += t.bytes;
      all.busy += t.busy;
      all.last_end = t.last_end > all.last_end ? t.last_end : all.last_end;
    }
    return all;
  }
  uint64_t tx_pause[kNumPriorities] = {};            // PFC frames sent (XOFF and XON)
  uint64_t rx_pause[kNumPriorities] = {};            // PFC frames received
  uint64_t rx_pause_transitions[kNumPriorities] = {};  // paused -> running
  Time tx_pause_duration[kNumPriorities] = {};       // time this port held its peer paused
  Time rx_pause_duration[kNumPriorities] = {};       // time this port was paused by its peer
  uint64_t crc_errors = 0;                           // frames dropped for a bad FCS
  uint64_t rx_discards = 0;                          // frames dropped for lack of buffer
  uint64_t rx_prio_discards[kNumPriorities] = {};
};

// The physical layer of a port a fault touched (its FEC counters are in fault/fec.h).
struct LinkCounters {
  uint64_t carrier_changes = 0;     // each down and each up (Linux sysfs carrier_changes)
  uint64_t link_down_events = 0;    // each down (mlx5 link_down_events_phy; SONiC flap_count)
  uint64_t tx_link_down_drops = 0;  // frames sent while the carrier was down: lost at the PHY
  uint64_t rx_oversize = 0;         // frames over the port's MTU, dropped as they arrived
  // Frame bytes (PFC frames aside) the carrier lost: sent while it was down (at the sender) and
  // in flight when it went down (at the receiver). rocelab's own figure: what shutting a link
  // cost (run/lifecycle.h); no device reports it and summary.json does not write it.
  uint64_t carrier_lost_bytes = 0;
};

// RDMA transport counters of a NIC (mlx5 hw_counters names in docs/counters.md).
struct RdmaCounters {
  uint64_t np_cnp_sent = 0;
  uint64_t np_ecn_marked_roce_packets = 0;
  uint64_t rp_cnp_handled = 0;
  uint64_t rp_cnp_ignored = 0;
  uint64_t out_of_sequence = 0;
  uint64_t duplicate_request = 0;
  uint64_t packet_seq_err = 0;
  uint64_t local_ack_timeout_err = 0;
  uint64_t req_transport_retries_exceeded = 0;
  uint64_t req_cqe_error = 0;        // work requests completed in error
  uint64_t req_cqe_flush_error = 0;  // work requests flushed behind one
  uint64_t rx_write_requests = 0;
  uint64_t rx_read_requests = 0;
  uint64_t implied_nak_seq_err = 0;
  uint64_t roce_adp_retrans = 0;         // adaptive retransmissions (timer expiries that resent)
  uint64_t roce_adp_retrans_to = 0;      // ...of those, with the timeout grown to the QP's ACK timeout
  uint64_t roce_slow_restart = 0;        // resends at a slow-restart rate
  uint64_t roce_slow_restart_trans = 0;  // QPs that went into slow restart
  uint64_t retransmitted_packets = 0;  // rocelab extension: data packets sent again
  uint64_t bytes_delivered = 0;        // rocelab extension: payload accepted in order
};

struct QueueCounters {
  // What a frame through the queue updates first, what a drop updates after: a switch keeps the
  // first four on one cache line with the queue itself (net/switch.h).
  uint64_t packets = 0, bytes = 0;
  uint64_t ecn_marked = 0;
  uint64_t watermark_bytes = 0;
  uint64_t dropped_packets = 0, dropped_bytes = 0;
};

struct PriorityGroupCounters {
  uint64_t packets = 0, bytes = 0;
  uint64_t dropped_packets = 0;
  uint64_t shared_watermark_bytes = 0;
  uint64_t headroom_watermark_bytes = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_TELEMETRY_COUNTERS_H_
