// TIMELY's sender (cc/timely.h) against hand-computed values: one RTT sample at a time.
#include "cc/timely.h"

#include <gtest/gtest.h>

namespace rocelab {

namespace {

constexpr uint64_t k100G = 100000000000ull;
constexpr Time kUs = kMicrosecond;

// A sender whose first sample was `first` (which sets nothing but the reference), each later
// sample in a window of its own.
struct Sender {
  TimelyParams p;
  TimelyRp rp;
  uint32_t psn = 0;
  explicit Sender(Time first) {
    rp.Init(&p, k100G);
    Sample(first);
  }
  void Sample(Time rtt) {
    ++psn;
    rp.OnAck(psn, psn, rtt);  // nothing outstanding beyond it: each ACK ends a window
  }
};

}  // namespace

// The first sample has nothing to differ from: the rate stays at the line.
TEST(Timely, TheFirstSampleOnlySetsTheReference) {
  Sender s(30 * kUs);
  EXPECT_DOUBLE_EQ(s.rp.rate_bps(), 100e9);
  EXPECT_EQ(s.rp.last_rtt(), 30 * kUs);
}

// Above T_high the cut is beta (1 - T_high / RTT), whatever the gradient: at 1000 us, 0.6 x.
// Below T_low the rate rises by delta, the line rate / 1000 (100 Mb/s at 100G).
TEST(Timely, ThresholdsOverrideTheGradient) {
  Sender s(900 * kUs);
  s.Sample(1000 * kUs);
  EXPECT_DOUBLE_EQ(s.rp.rate_bps(), 100e9 * (1 - 0.8 * (1 - 500.0 / 1000)));
  const double cut = s.rp.rate_bps();
  s.Sample(40 * kUs);  // a falling RTT, but below T_low: delta regardless
  EXPECT_DOUBLE_EQ(s.rp.rate_bps(), cut + 100e6);
}

// Between the thresholds the gradient decides: the RTT difference, smoothed with weight 0.875 on
// the newest, over the minimum RTT (20 us). 60 -> 70 us: diff 0.875 x 10 us = 8.75 us, gradient
// 0.4375, cut to 1 - 0.8 x 0.4375 = 0.65 of the rate.
TEST(Timely, ARisingRttCutsByBetaTimesTheGradient) {
  Sender s(60 * kUs);
  s.Sample(70 * kUs);
  EXPECT_DOUBLE_EQ(s.rp.rtt_diff(), 0.875 * 10 * kUs);
  EXPECT_DOUBLE_EQ(s.rp.rate_bps(), 100e9 * 0.65);
  // 70 -> 66 us: diff 0.125 x 8.75 + 0.875 x -4 = -2.40625 us, gradient <= 0: + delta.
  const double before = s.rp.rate_bps();
  s.Sample(66 * kUs);
  EXPECT_DOUBLE_EQ(s.rp.rtt_diff(), 0.125 * 8.75 * kUs + 0.875 * -4.0 * kUs);
  EXPECT_DOUBLE_EQ(s.rp.rate_bps(), before + 100e6);
}

// Five gradient increases in a row: the fifth and the ones after add the hyper step (5 deltas);
// a cut starts the count again.
TEST(Timely, FiveIncreasesInARowBringTheHyperStep) {
  Sender s(400 * kUs);
  s.Sample(450 * kUs);  // a cut, to leave room below the line
  double rate = s.rp.rate_bps();
  Time rtt = 450 * kUs;
  for (int i = 1; i <= 7; ++i) {
    rtt -= 10 * kUs;
    s.Sample(rtt);
    rate += i >= 5 ? 500e6 : 100e6;
    ASSERT_DOUBLE_EQ(s.rp.rate_bps(), rate) << "increase " << i;
  }
  s.Sample(rtt + 30 * kUs);  // rising again: a cut
  EXPECT_LT(s.rp.rate_bps(), rate);
  rate = s.rp.rate_bps();
  // The gradient is still positive until the smoothed difference turns.
  for (int i = 0; i < 3; ++i) s.Sample(rtt);
  EXPECT_LT(s.rp.rate_bps(), rate + 500e6) << "the count started again";
}

// Below T_low the paper's rule adds delta and counts nothing toward the hyper step; the HPCC
// code's (low_rtt_counts, its ns-3 profile with hai_after 6) counts those increases too, and
// the sixth in a row is a hyper step.
TEST(Timely, IncreasesBelowTLowCountOnlyWhereAsked) {
  Sender paper(400 * kUs);
  paper.Sample(450 * kUs);  // a cut, to leave room below the line
  double rate = paper.rp.rate_bps();
  for (int i = 1; i <= 7; ++i) {
    paper.Sample(20 * kUs);
    rate += 100e6;
    ASSERT_DOUBLE_EQ(paper.rp.rate_bps(), rate) << "increase " << i;
  }
  TimelyParams p;
  p.low_rtt_counts = true;
  p.hai_after = 6;
  TimelyRp rp;
  rp.Init(&p, k100G);
  uint32_t psn = 1;
  rp.OnAck(psn, psn, 400 * kUs);
  ++psn;
  rp.OnAck(psn, psn, 450 * kUs);
  rate = rp.rate_bps();
  for (int i = 1; i <= 7; ++i) {
    ++psn;
    rp.OnAck(psn, psn, 20 * kUs);
    rate += i >= 6 ? 500e6 : 100e6;
    ASSERT_DOUBLE_EQ(rp.rate_bps(), rate) << "increase " << i;
  }
}

// Samples inside a window do nothing: one update per window of data.
TEST(Timely, OneUpdatePerWindow) {
  TimelyParams p;
  TimelyRp rp;
  rp.Init(&p, k100G);
  rp.OnAck(1, 10, 60 * kUs);   // the reference; the window runs to PSN 10
  rp.OnAck(5, 12, 200 * kUs);  // inside it: ignored
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 100e9);
  EXPECT_EQ(rp.last_rtt(), 60 * kUs);
  rp.OnAck(11, 20, 70 * kUs);  // past it: 60 -> 70 us, the cut above
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 100e9 * 0.65);
}

// A cut never goes below min_rate, and a gradient past 1 / beta does not make the rate negative.
TEST(Timely, CutsStopAtMinRate) {
  Sender s(60 * kUs);
  s.Sample(200 * kUs);  // gradient 0.875 x 140 / 20 = 6.1: the factor would be negative
  EXPECT_DOUBLE_EQ(s.rp.rate_bps(), 100e6);
}

}  // namespace rocelab
