// DCTCP's sender as a rate controller (Alizadeh et al., "Data Center TCP", SIGCOMM 2010), in
// the form RDMA NICs run it: the rate, not a window, is cut by alpha/2 (the HPCC code base's
// CC_MODE 8). The receiver echoes the CE marks of the packets each ACK covers; alpha is an EWMA,
// once per window of data, of the share of the packets acknowledged that came back marked;
// a marked ACK cuts the rate at most once per window (the sender's CWR state, RFC 3168 §6.1.2);
// each window that ends without a cut adds rate_ai.
#ifndef ROCELAB_CC_DCTCP_H_
#define ROCELAB_CC_DCTCP_H_

#include <cstdint>

#include "cc/ack_clocked_rate.h"

namespace rocelab {

struct DctcpParams {
  // The EWMA gain: the paper's g = 1/16 (§3.4 derives g < 1.386 / sqrt(2 (C x RTT + K)); Linux's
  // tcp_dctcp dctcp_shift_g is 4, the same 1/16). The HPCC code base's runs use its EWMA_GAIN, 1/256.
  double g = 1.0 / 16;
  // Alpha before the first window ends: 1, as Linux's dctcp_alpha_on_init (a first mark halves).
  double initial_alpha = 1.0;
  // Added once per window without a cut: the HPCC code base's DCTCP_RATE_AI, 1000 Mb/s.
  uint64_t rate_ai_bps = 1000000000ull;
  // A cut keeps at least this: the HPCC code base's MIN_RATE, 100 Mb/s.
  uint64_t min_rate_bps = 100000000ull;
};

class DctcpRp {
 public:
  void Init(const DctcpParams* params, uint64_t line_rate_bps) {
    p_ = params;
    rate_.Init(line_rate_bps);
    alpha_ = params->initial_alpha;
  }

  const AckClockedRate& rate() const { return rate_; }
  double rate_bps() const { return rate_.rate_bps(); }
  bool limited() const { return rate_.limited(); }
  double alpha() const { return alpha_; }
  bool in_cwr() const { return cwr_; }

  // An ACK or NAK: `una` is one past the highest PSN it acknowledges, `snd_nxt` the next PSN
  // the sender will send, `acked` the packets it newly acknowledges and `ce` how many of the
  // packets it covers arrived CE-marked.
  void OnAck(uint32_t una, uint32_t snd_nxt, uint32_t acked, uint32_t ce);

 private:
  const DctcpParams* p_ = nullptr;
  AckClockedRate rate_;
  double alpha_ = 1;
  uint32_t window_end_ = 0;       // the window ends when an ACK passes this PSN
  uint32_t window_acked_ = 0;     // packets acknowledged in the window so far
  uint32_t window_ce_ = 0;        // ...of which came back marked
  bool cwr_ = false;              // cut in this window: no other cut until an ACK passes cwr_end_
  uint32_t cwr_end_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_CC_DCTCP_H_
