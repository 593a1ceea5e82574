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

TEST(Dcqcn, Mlx5ProfileLatchesCnpsAndCutsOncePerPeriod) {
  DcqcnParams p = DcqcnMlx5Profile();
  DcqcnRp rp;
  rp.Init(&p, 100000000000ull);
  // A CNP is latched; the cut comes at the end of its rate_reduce_monitor_period (4 us).
  EXPECT_FALSE(rp.OnCnp(0));
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 100e9);
  ASSERT_EQ(rp.timer_due(), 4 * kMicrosecond);
  rp.OnTimer(4 * kMicrosecond);
  // alpha at 4 us: 1023/1024 moved toward 1 in the CNP's microsecond, then three quiet ones.
  const double g = 5.0 / 1024;
  const double alpha = ((1 - g) * 1023.0 / 1024 + g) * std::pow(1 - g, 3);
  const double after_first = 100e9 * (1 - alpha / 2);
  EXPECT_NEAR(rp.rate_bps(), after_first, 1.0);
  // Two CNPs inside the next period: one cut, at its end (8 us); none lost, none doubled.
  EXPECT_FALSE(rp.OnCnp(5 * kMicrosecond));
  EXPECT_FALSE(rp.OnCnp(7 * kMicrosecond));
  EXPECT_DOUBLE_EQ(rp.rate_bps(), after_first);
  ASSERT_EQ(rp.timer_due(), 8 * kMicrosecond);
  rp.OnTimer(8 * kMicrosecond);
  EXPECT_LT(rp.rate_bps(), after_first);
  EXPECT_GE(rp.rate_bps(), after_first * 0.5);  // rpg_min_dec_fac 50 %
  // A quiet period: no cut at its end, the increase timer is what comes next.
  EXPECT_EQ(rp.timer_due(), 8 * kMicrosecond + p.rate_increase_period);
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
