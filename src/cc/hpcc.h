// HPCC's sender (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019, Algorithm
// 1), as the HPCC ns-3 code base runs it (rdma-hw.cc UpdateRateHp, CC_MODE 3). Switches stamp
// each data packet with an INT record per hop (cc/int_hop.h); the ACK brings the records back.
// For each hop, against that hop's previous record:
//   u = txRate / B + min(qlen, previous qlen) / (B x T)
// the largest u of the path is smoothed over the base RTT T (weight tau / T for a sample tau
// apart), and the rate W/T follows it:
//   U >= eta, or max_stage increases done:  R = Rc / (U / eta) + R_AI   (and the stage back to 0)
//   else:                                   R = Rc + R_AI               (one stage more)
// Rc, the reference rate, moves once per round trip (an ACK past the PSN that was next when it
// last moved); with fast_react the ACKs in between set R from Rc as well, without moving it.
// A sending window (NicSpec::window, on by default under HPCC) bounds what is in flight.
#ifndef ROCELAB_CC_HPCC_H_
#define ROCELAB_CC_HPCC_H_

#include <cstdint>

#include "cc/ack_clocked_rate.h"
#include "cc/int_hop.h"
#include "sim/packet.h"
#include "sim/time.h"

namespace rocelab {

// The defaults are the HPCC code base's run.py for `--cc hp` (the runs behind the paper's
// figures): U_TARGET 0.95, MI_THRESH 0, FAST_REACT 1, RATE_AI 10 x bw/25 Mb/s (40 Mb/s at
// 100G), INT_MULTI bw/25, MIN_RATE 100 Mb/s (run.py writes 1000 Mb/s, for every mode),
// SAMPLE_FEEDBACK 0, MULTI_RATE 0.
// The records' format is not that code's unless asked for (cc/int_hop.h says why).
struct HpccParams {
  double eta = 0.95;        // target utilization (U_TARGET)
  int max_stage = 0;        // additive-only updates before a multiplicative one (MI_THRESH)
  uint64_t rate_ai_bps = 0; // R_AI (0: the line rate / 2500)
  bool fast_react = true;   // every ACK sets the rate, not only one a round trip (FAST_REACT)
  bool sample_feedback = false;  // fast reactions skip hops with an empty queue (SAMPLE_FEEDBACK)
  uint64_t min_rate_bps = 100000000ull;  // MIN_RATE
  uint32_t int_multi = 0;   // INT_MULTI, the ns3 format's units (0: the fastest link's rate / 25 Gb/s)
  // How a record packs its fields (cc/int_hop.h): fine, or the ns-3 code's coarser units.
  IntFormat::Kind int_format = IntFormat::Kind::kFine;
};

class HpccRp {
 public:
  // `base_rtt` is T, the path's round trip with one packet's serialization per hop;
  // `bdp_bytes` T's bytes at the path's slowest rate, which the queue term is measured in.
  void Init(const HpccParams* params, uint64_t line_rate_bps, Time base_rtt, uint64_t bdp_bytes) {
    p_ = params;
    rate_.Init(line_rate_bps);
    line_rate_ = static_cast<double>(line_rate_bps);
    base_rtt_ = base_rtt;
    bdp_ = bdp_bytes;
    rc_ = line_rate_;
    ai_ = params->rate_ai_bps ? static_cast<double>(params->rate_ai_bps) : line_rate_ / 2500;
  }

  // An ACK or NAK that brings back `count` INT records (the path's hops in order); `una` is
  // one past the highest PSN it acknowledges, `snd_nxt` the next PSN to send.
  void OnAck(uint32_t una, uint32_t snd_nxt, const uint64_t* hops, int count, const IntFormat& f);

  const AckClockedRate& rate() const { return rate_; }
  double rate_bps() const { return rate_.rate_bps(); }
  double reference_rate_bps() const { return rc_; }
  double utilization() const { return u_; }  // U, smoothed
  int stage() const { return stage_; }

 private:
  // One update from the records: the new rate from Rc, and (unless `fast`) Rc moved to it.
  void Update(const uint64_t* hops, int count, const IntFormat& f, bool fast);

  const HpccParams* p_ = nullptr;
  AckClockedRate rate_;
  double line_rate_ = 0, rc_ = 0, ai_ = 0;
  double u_ = 1;  // the code base starts U at 1
  int stage_ = 0;
  Time base_rtt_ = 0;
  uint64_t bdp_ = 0;
  bool started_ = false;        // the first ACK's records are the reference for the next
  uint32_t update_end_ = 0;     // Rc moves with an ACK past this PSN
  uint64_t last_[kMaxIntHops] = {};  // the previous record of each hop
};

}  // namespace rocelab

#endif  // ROCELAB_CC_HPCC_H_
