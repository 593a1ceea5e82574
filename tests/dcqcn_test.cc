#include "cc/dcqcn.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

namespace rocelab {

TEST(Dcqcn, PaperProfileCutsByAlphaHalfAndRecovers) {
  // The paper's constants, written out so a wrong profile fails too: T = 55 us, F = 5,
  // B = 10 MB (read as MiB), R_AI = 40 Mb/s, R_HAI = 10 R_AI (docs/dcqcn.md).
  const Time kT = 55 * kMicrosecond;
  const uint64_t kB = 10ull * 1024 * 1024;
  const double kRai = 40e6, kRhai = 400e6;
  DcqcnParams p = DcqcnPaperProfile();
  DcqcnRp rp;
  rp.Init(&p, 100000000000ull);
  EXPECT_FALSE(rp.limited());
  ASSERT_TRUE(rp.OnCnp(0));
  // alpha starts at 1: R_C = R_C (1 - 1/2); R_T keeps the rate before the cut.
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 50e9);
  EXPECT_DOUBLE_EQ(rp.target_bps(), 100e9);
  // A second CNP 1 us later, inside the first 55 us alpha period (alpha still 1): the paper
  // cuts on every CNP and clamps R_T = R_C first, so R_T = 50G and R_C = 25G. From here on
  // R_T is below the line rate and every increase of it shows.
  ASSERT_TRUE(rp.OnCnp(kMicrosecond));
  double rt = 50e9, rc = 25e9;
  EXPECT_DOUBLE_EQ(rp.target_bps(), rt);
  EXPECT_DOUBLE_EQ(rp.rate_bps(), rc);
  Time t = kMicrosecond;
  // Timer stages T = 1..5 (= F): fast recovery, R_C = (R_T + R_C) / 2 with R_T fixed.
  // Timer stages T = 6..8 with no byte stage (BC = 0 <= F): additive, R_T += R_AI each.
  for (int stage = 1; stage <= 8; ++stage) {
    ASSERT_EQ(rp.timer_due(), t + kT) << "timer stage " << stage;
    t += kT;
    rp.OnTimer(t);
    if (stage > 5) rt += kRai;
    rc = (rt + rc) / 2;
    EXPECT_DOUBLE_EQ(rp.target_bps(), rt) << "timer stage " << stage;
    EXPECT_DOUBLE_EQ(rp.rate_bps(), rc) << "timer stage " << stage;
  }
  EXPECT_DOUBLE_EQ(rp.target_bps(), 50e9 + 3 * kRai);
  // Byte stages with T = 8: BC = 1..5 (min(T, BC) <= F) are additive; BC = 6 and 7 are
  // hyper increase, R_T += (min(T, BC) - F) R_HAI = 1 R_HAI, then 2 R_HAI.
  for (int bc = 1; bc <= 7; ++bc) {
    rp.OnBytesSent(kB);
    rt += bc <= 5 ? kRai : (bc - 5) * kRhai;
    rc = (rt + rc) / 2;
    EXPECT_DOUBLE_EQ(rp.target_bps(), rt) << "byte stage " << bc;
    EXPECT_DOUBLE_EQ(rp.rate_bps(), rc) << "byte stage " << bc;
  }
  EXPECT_DOUBLE_EQ(rp.target_bps(), 50e9 + 8 * kRai + 3 * kRhai);
  // Timer stage T = 9 with BC = 7: hyper increase by (min(9, 7) - 5) R_HAI = 2 R_HAI.
  ASSERT_EQ(rp.timer_due(), t + kT);
  t += kT;
  rp.OnTimer(t);
  rt += 2 * kRhai;
  rc = (rt + rc) / 2;
  EXPECT_DOUBLE_EQ(rp.target_bps(), rt);
  EXPECT_DOUBLE_EQ(rp.rate_bps(), rc);
  EXPECT_TRUE(rp.limited());
}

TEST(Dcqcn, AlphaDecaysWithoutCnpsAndRisesWithThem) {
  // Paper: g = 1/256 once per K = 55 us; alpha = (1 - g) alpha + g after a period with a CNP,
  // (1 - g) alpha after one without; R_C = R_C (1 - alpha / 2) at each CNP (no coalescing).
  const double g = 1.0 / 256;
  const Time kK = 55 * kMicrosecond;
  DcqcnParams p = DcqcnPaperProfile();
  DcqcnRp rp;
  rp.Init(&p, 100000000000ull);
  rp.OnCnp(0);
  double rc = 50e9;  // alpha starts at 1
  // The period with the CNP: alpha = (1 - g) + g = 1; then 9 quiet periods: (1 - g)^9.
  double a = std::pow(1 - g, 9);
  EXPECT_NEAR(rp.alpha(10 * kK), a, 1e-12);
  EXPECT_NEAR(rp.alpha(10 * kK + kMicrosecond), a, 1e-12);  // no period ended since
  // Three CNPs in period 10 and one in period 11: each cuts by the alpha of its moment, and
  // each of the two periods raises alpha once, however many CNPs it held.
  for (Time at : {10 * kK + kMicrosecond, 10 * kK + 2 * kMicrosecond, 10 * kK + 3 * kMicrosecond}) {
    ASSERT_TRUE(rp.OnCnp(at));
    rc *= 1 - a / 2;
    EXPECT_DOUBLE_EQ(rp.rate_bps(), rc);
  }
  ASSERT_TRUE(rp.OnCnp(11 * kK + kMicrosecond));
  a = (1 - g) * a + g;  // period 10 had CNPs
  rc *= 1 - a / 2;
  EXPECT_DOUBLE_EQ(rp.rate_bps(), rc);
  const double risen = (1 - g) * a + g;  // period 11 had one too
  EXPECT_NEAR(rp.alpha(12 * kK), risen, 1e-12);
  EXPECT_GT(risen, std::pow(1 - g, 9));  // it rose: each period with CNPs adds g (1 - alpha)
  // A quiet period decays it again, and the next cut uses that alpha.
  a = (1 - g) * risen;
  EXPECT_NEAR(rp.alpha(13 * kK), a, 1e-12);
  ASSERT_TRUE(rp.OnCnp(13 * kK + kMicrosecond));
  rc *= 1 - a / 2;
  EXPECT_DOUBLE_EQ(rp.rate_bps(), rc);
}

TEST(Dcqcn, Mlx5ProfileLatchesCnpsAndCutsOncePerPeriod) {
  // mlx5 defaults: alpha in 1/1024 units, initial 1023; dce_tcp_g 1019 per dce_tcp_rtt 1 us,
  // so g = 5/1024; rpg_gd 11: cut = alpha / 2; rate_reduce_monitor_period 4 us, a CNP latched
  // and the cut made at the end of its period; rpg_min_dec_fac 50 %; clamp_tgt_rate 0,
  // clamp_tgt_rate_after_time_inc 1; rpg_time_reset 300 us.
  const double g = 5.0 / 1024, a0 = 1023.0 / 1024;
  const Time us = kMicrosecond;
  DcqcnParams p = DcqcnMlx5Profile();
  DcqcnRp rp;
  rp.Init(&p, 100000000000ull);
  EXPECT_FALSE(rp.OnCnp(0));        // latched: no cut yet
  EXPECT_FALSE(rp.OnCnp(2 * us));   // the same period: still one cut to come
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 100e9);
  ASSERT_EQ(rp.timer_due(), 4 * us);
  rp.OnTimer(4 * us);
  // Both CNPs count for alpha. Periods of 1 us: [0,1) CNP, [1,2) quiet, [2,3) CNP, [3,4) quiet.
  double a = ((1 - g) * a0 + g) * (1 - g);
  a = ((1 - g) * a + g) * (1 - g);
  EXPECT_NEAR(rp.alpha(4 * us), a, 1e-12);
  const double after_first = 100e9 * (1 - a / 2);
  EXPECT_DOUBLE_EQ(rp.rate_bps(), after_first);
  EXPECT_DOUBLE_EQ(rp.target_bps(), 100e9);  // the rate before the episode
  // Two CNPs in the next period: one cut at its end (8 us), by the alpha of that moment.
  EXPECT_FALSE(rp.OnCnp(5 * us));
  EXPECT_FALSE(rp.OnCnp(7 * us));
  ASSERT_EQ(rp.timer_due(), 8 * us);
  rp.OnTimer(8 * us);
  a = ((1 - g) * a * (1 - g) + g) * (1 - g);  // [4,5) quiet, [5,6) CNP, [6,7) quiet
  a = (1 - g) * a + g;                         // [7,8) CNP
  const double after_second = after_first * (1 - a / 2);
  EXPECT_DOUBLE_EQ(rp.rate_bps(), after_second);
  EXPECT_GE(rp.rate_bps(), after_first * 0.5);  // rpg_min_dec_fac 50 %
  // clamp_tgt_rate 0: no increase since the last cut, so R_T stays where it was.
  EXPECT_DOUBLE_EQ(rp.target_bps(), 100e9);
  // A quiet period ends with no cut: the increase timer is what comes next. One timer stage
  // (F = 1: fast recovery) 300 us after the cut; then a CNP: the timer raised the rate since
  // the last cut, so R_T = R_C before the cut at the end of that CNP's period (312 us).
  ASSERT_EQ(rp.timer_due(), 308 * us);
  rp.OnTimer(308 * us);
  const double recovered = (100e9 + after_second) / 2;
  EXPECT_DOUBLE_EQ(rp.rate_bps(), recovered);
  EXPECT_FALSE(rp.OnCnp(309 * us));
  ASSERT_EQ(rp.timer_due(), 312 * us);
  rp.OnTimer(312 * us);
  EXPECT_DOUBLE_EQ(rp.target_bps(), recovered);
  EXPECT_LT(rp.rate_bps(), recovered);

  // rpg_min_dec_fac bounds a cut only when alpha / 2^shift can exceed one half: with
  // rpg_gd 10 (cut = alpha, shift 0) a cut with alpha near 1 would leave a thousandth of the
  // rate; the floor keeps exactly 50 % at each cut.
  DcqcnParams deep = DcqcnMlx5Profile();
  deep.alpha_to_rate_shift = 0;
  DcqcnRp d;
  d.Init(&deep, 100000000000ull);
  d.OnCnp(0);
  d.OnTimer(4 * us);
  EXPECT_DOUBLE_EQ(d.rate_bps(), 50e9);
  d.OnCnp(5 * us);
  d.OnTimer(8 * us);
  EXPECT_DOUBLE_EQ(d.rate_bps(), 25e9);
  // Without the factor the first cut takes the rate to 100G (1 - alpha(4 us)).
  deep.min_dec_factor = 0;
  DcqcnRp u;
  u.Init(&deep, 100000000000ull);
  u.OnCnp(0);
  u.OnTimer(4 * us);
  EXPECT_DOUBLE_EQ(u.rate_bps(), 100e9 * (1 - ((1 - g) * a0 + g) * std::pow(1 - g, 3)));
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

// The mlx5 driver's files read back the ConnectX-5 defaults (mlxconfig_q_cx5_dcqcn_defaults.txt)
// in its units from the SI values, and a value written reads back as written.
TEST(Dcqcn, Mlx5FilesReadTheFirmwareIntegers) {
  const DcqcnParams p = DcqcnMlx5Profile();
  EXPECT_DOUBLE_EQ(p.g, 5.0 / 1024);
  EXPECT_EQ(p.byte_counter, 32767u * 64);
  EXPECT_EQ(p.rate_increase_period, 300 * kMicrosecond);
  EXPECT_DOUBLE_EQ(p.min_dec_factor, 0.5);
  const std::map<std::string, int64_t> firmware = {
      {"roce_rp/dce_tcp_g", 1019}, {"roce_rp/rpg_time_reset", 300}, {"roce_rp/rpg_byte_reset", 32767},
      {"roce_rp/rpg_ai_rate", 5},  {"roce_rp/rpg_hai_rate", 50},    {"roce_rp/rpg_gd", 11},
      {"roce_rp/rpg_min_dec_fac", 50}, {"roce_rp/initial_alpha_value", 1023}, {"roce_np/min_time_between_cnps", 2}};
  for (const auto& [file, value] : firmware) {
    const Mlx5DcqcnParam* param = FindMlx5DcqcnParam(file);
    ASSERT_NE(param, nullptr) << file;
    EXPECT_EQ(param->get(p), value) << file;
  }
  EXPECT_EQ(FindMlx5DcqcnParam("roce_rp/enable"), nullptr);
  for (const Mlx5DcqcnParam& param : Mlx5DcqcnParams()) {
    for (int64_t v : {int64_t{0}, int64_t{1}, param.max}) {
      DcqcnParams q = p;
      param.set(&q, v);
      EXPECT_EQ(param.get(q), v) << param.file;
    }
  }
}

}  // namespace rocelab
