#include "cc/dcqcn.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rocelab {

TEST(Dcqcn, PaperProfileCutsByAlphaHalfAndRecovers) {
  DcqcnParams p = DcqcnPaperProfile();
  DcqcnRp rp;
  rp.Init(&p, 100000000000ull);
  EXPECT_FALSE(rp.limited());
  ASSERT_TRUE(rp.OnCnp(0));
  // alpha starts at 1: R_C = R_C (1 - 1/2)
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 50e9);
  EXPECT_DOUBLE_EQ(rp.target_bps(), 100e9);
  // Five timer periods of fast recovery halve the distance to the target each time.
  Time t = 0;
  double expect = 50e9;
  for (int i = 0; i < 5; ++i) {
    t = rp.timer_due();
    EXPECT_EQ(t, (i + 1) * 55 * kMicrosecond);
    rp.OnTimer(t);
    expect = (100e9 + expect) / 2;
    EXPECT_DOUBLE_EQ(rp.rate_bps(), expect);
  }
  // Then additive increase: the target rises by R_AI (capped at line rate).
  rp.OnTimer(rp.timer_due());
  EXPECT_DOUBLE_EQ(rp.target_bps(), 100e9);
}

TEST(Dcqcn, AlphaDecaysWithoutCnpsAndRisesWithThem) {
  DcqcnParams p = DcqcnPaperProfile();
  DcqcnRp rp;
  rp.Init(&p, 100000000000ull);
  rp.OnCnp(0);
  const double g = 1.0 / 256;
  // The period with the CNP: alpha = (1-g) + g = 1; then 9 quiet periods: (1-g)^9.
  EXPECT_NEAR(rp.alpha(10 * 55 * kMicrosecond), std::pow(1 - g, 9), 1e-12);
}

TEST(Dcqcn, Mlx5ProfileCoalescesCutsAndBoundsThem) {
  DcqcnParams p = DcqcnMlx5Profile();
  DcqcnRp rp;
  rp.Init(&p, 100000000000ull);
  ASSERT_TRUE(rp.OnCnp(0));
  const double after_first = rp.rate_bps();
  // alpha = 1023/1024: cut = alpha/2, bounded below by rpg_min_dec_fac 50 %.
  EXPECT_NEAR(after_first, 100e9 * (1 - (1023.0 / 1024) / 2), 1.0);
  EXPECT_FALSE(rp.OnCnp(2 * kMicrosecond));  // inside rate_reduce_monitor_period (4 us)
  EXPECT_DOUBLE_EQ(rp.rate_bps(), after_first);
  EXPECT_TRUE(rp.OnCnp(4 * kMicrosecond));
  EXPECT_LT(rp.rate_bps(), after_first);
  EXPECT_GE(rp.rate_bps(), after_first * 0.5);
}

TEST(Dcqcn, ByteCounterDrivesIncrease) {
  DcqcnParams p = DcqcnPaperProfile();
  DcqcnRp rp;
  rp.Init(&p, 100000000000ull);
  rp.OnCnp(0);
  const double r0 = rp.rate_bps();
  rp.OnBytesSent(p.byte_counter - 1);
  EXPECT_DOUBLE_EQ(rp.rate_bps(), r0);
  rp.OnBytesSent(1);
  EXPECT_DOUBLE_EQ(rp.rate_bps(), (100e9 + r0) / 2);
}

TEST(Dcqcn, NeverBelowMinRate) {
  DcqcnParams p = DcqcnPaperProfile();
  DcqcnRp rp;
  rp.Init(&p, 100000000000ull);
  for (int i = 0; i < 200; ++i) rp.OnCnp(i * kMicrosecond);
  EXPECT_GE(rp.rate_bps(), static_cast<double>(p.min_rate_bps));
}

}  // namespace rocelab
