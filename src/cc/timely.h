// TIMELY's sender (Mittal et al., "TIMELY: RTT-based Congestion Control for the Datacenter",
// SIGCOMM 2015, Algorithm 1): the rate follows the gradient of the RTT. Once per window of data
// (the paper's completion event) the newest RTT sample is compared with the last one; the
// difference is smoothed (EWMA weight alpha) and normalised by the fabric's minimum RTT:
//   RTT < T_low:   rate + delta
//   RTT > T_high:  rate x (1 - beta (1 - T_high / RTT))
//   gradient <= 0: rate + delta, or + the hyper step after hai_after such windows in a row
//   gradient > 0:  rate x (1 - beta x gradient)
// RTTs come from the ACKs: each echoes the send time of the data packet it answers.
#ifndef ROCELAB_CC_TIMELY_H_
#define ROCELAB_CC_TIMELY_H_

#include <cstdint>

#include "cc/ack_clocked_rate.h"
#include "sim/time.h"

namespace rocelab {

// The defaults are the HPCC ns-3 code base's (rdma-hw.cc: TimelyAlpha 0.875, TimelyBeta 0.8,
// TimelyTLow 50 us, TimelyTHigh 500 us, TimelyMinRtt 20 us), which take the paper's beta and
// thresholds. The steps are the paper's delta, 10 Mb/s on its 10 Gb/s links, and its N = 5 (a
// hyper step of five deltas after five increases in a row), scaled with the line rate as that
// code base's runs scale them (run.py: ai = 10 x bw / 10 Mb/s, hai = 50 x bw / 10).
struct TimelyParams {
  double alpha = 0.875;                 // weight of the newest RTT difference in the EWMA
  double beta = 0.8;                    // multiplicative decrease factor
  Time t_low = 50 * kMicrosecond;       // below it, always increase
  Time t_high = 500 * kMicrosecond;     // above it, always decrease
  Time min_rtt = 20 * kMicrosecond;     // normalises the gradient
  uint64_t rate_ai_bps = 0;   // delta (0: the line rate / 1000)
  uint64_t rate_hai_bps = 0;  // the hyper step (0: 5 deltas)
  int hai_after = 5;                    // increases in a row before the hyper step
  // Whether an increase below t_low counts toward the hyper step (and may be one). The paper's
  // Algorithm 1 steps by delta there and counts nothing; the HPCC code's UpdateRateTimely
  // counts it (the ns-3 profile's choice).
  bool low_rtt_counts = false;
  uint64_t min_rate_bps = 100000000ull; // a cut keeps at least this (the HPCC code base's MIN_RATE)
};

class TimelyRp {
 public:
  void Init(const TimelyParams* params, uint64_t line_rate_bps) {
    p_ = params;
    rate_.Init(line_rate_bps);
    ai_ = params->rate_ai_bps ? static_cast<double>(params->rate_ai_bps) : static_cast<double>(line_rate_bps) / 1000;
    hai_ = params->rate_hai_bps ? static_cast<double>(params->rate_hai_bps) : 5 * ai_;
  }

  // An ACK whose data packet took `rtt` there and back: `una` is one past the highest PSN it
  // acknowledges, `snd_nxt` the next PSN to send. The first sample and the end of each window
  // after it update the rate; the samples between do not.
  void OnAck(uint32_t una, uint32_t snd_nxt, Time rtt);

  const AckClockedRate& rate() const { return rate_; }
  double rate_bps() const { return rate_.rate_bps(); }
  double rtt_diff() const { return rtt_diff_; }  // the smoothed RTT difference (ps)
  Time last_rtt() const { return last_rtt_; }    // the sample the last update took (-1: none yet)

 private:
  const TimelyParams* p_ = nullptr;
  AckClockedRate rate_;
  double ai_ = 0, hai_ = 0;  // the steps, in b/s
  Time last_rtt_ = -1;
  double rtt_diff_ = 0;
  int increases_ = 0;          // gradient increases in a row
  uint32_t window_end_ = 0;    // the next update comes with an ACK past this PSN
};

}  // namespace rocelab

#endif  // ROCELAB_CC_TIMELY_H_
