// DCTCP's sender (cc/dctcp.h) against hand-computed values: one signal at a time.
#include "cc/dctcp.h"

#include <gtest/gtest.h>

namespace rocelab {

namespace {

constexpr uint64_t k100G = 100000000000ull;

}  // namespace

// The first marked ACK: the window (nothing sent before it) ends, alpha stays 1 (15/16 x 1 +
// 1/16 x 1/1), the rate halves, and the sender enters CWR up to what it had sent.
TEST(Dctcp, AMarkedAckCutsByHalfAlpha) {
  DctcpParams p;
  DctcpRp rp;
  rp.Init(&p, k100G);
  EXPECT_FALSE(rp.limited());
  rp.OnAck(/*una=*/1, /*snd_nxt=*/10, /*acked=*/1, /*ce=*/1);
  EXPECT_DOUBLE_EQ(rp.alpha(), 1.0);
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 50e9);
  EXPECT_TRUE(rp.in_cwr());
  EXPECT_TRUE(rp.limited());
}

// Within CWR a mark does not cut again; the window's marks and packets add up; when an ACK passes
// the window's end, alpha = 15/16 x alpha + 1/16 x marked/acked, CWR ends, and a window without
// a cut adds rate_ai.
TEST(Dctcp, AlphaLearnsTheWindowsShareOfMarks) {
  DctcpParams p;
  DctcpRp rp;
  rp.Init(&p, k100G);
  rp.OnAck(1, 10, 1, 1);  // cut to 50 G, window and CWR up to PSN 10
  rp.OnAck(5, 12, 4, 1);  // inside both: no cut, alpha unchanged
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 50e9);
  EXPECT_DOUBLE_EQ(rp.alpha(), 1.0);
  rp.OnAck(11, 20, 6, 0);  // ends the window: 1 mark in 10 packets
  const double alpha = 15.0 / 16 + (1.0 / 16) * 0.1;
  EXPECT_DOUBLE_EQ(rp.alpha(), alpha);
  EXPECT_FALSE(rp.in_cwr());
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 51e9);
  // The next mark cuts by alpha / 2.
  rp.OnAck(12, 21, 1, 1);
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 51e9 * (1 - alpha / 2));
}

// Windows without marks: alpha decays by 15/16 each and the rate climbs by rate_ai up to the line.
TEST(Dctcp, UnmarkedWindowsDecayAlphaAndAddRate) {
  DctcpParams p;
  DctcpRp rp;
  rp.Init(&p, k100G);
  rp.OnAck(1, 2, 1, 1);  // 50 G
  uint32_t una = 2;
  double alpha = 1.0;
  for (int w = 1; w <= 60; ++w) {
    rp.OnAck(una + 1, una + 1, 1, 0);
    una += 1;
    alpha *= 15.0 / 16;
    ASSERT_NEAR(rp.alpha(), alpha, 1e-12) << "window " << w;
  }
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 100e9) << "50 windows of 1 Gb/s, then the line";
  EXPECT_FALSE(rp.limited());
}

// Cuts never go below min_rate.
TEST(Dctcp, CutsStopAtMinRate) {
  DctcpParams p;
  p.min_rate_bps = 10000000000ull;
  DctcpRp rp;
  rp.Init(&p, k100G);
  uint32_t una = 0;
  for (int i = 0; i < 20; ++i) {
    rp.OnAck(una + 1, una + 1, 1, 1);  // each ACK ends CWR (nothing beyond it outstanding)
    una += 1;
  }
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 10e9);
}

}  // namespace rocelab
