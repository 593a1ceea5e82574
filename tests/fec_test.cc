#include "fault/fec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "sim/packet.h"

namespace rocelab {
namespace {

// The binomial written out directly in long double, independent of the model's
// logs and expm1: symbol error probability and the pmf of X ~ Binomial(n, ps).
long double DirectSymbolError(long double ber) { return 1.0L - std::pow(1.0L - ber, 10); }

std::vector<long double> DirectPmf(long double ber, int n) {
  const long double ps = DirectSymbolError(ber);
  std::vector<long double> pmf(n + 1);
  long double choose = 1;  // C(n, k)
  for (int k = 0; k <= n; ++k) {
    pmf[k] = choose * std::pow(ps, k) * std::pow(1.0L - ps, n - k);
    choose = choose * (n - k) / (k + 1);
  }
  return pmf;
}

long double DirectTail(long double ber, int n, int from) {
  const std::vector<long double> pmf = DirectPmf(ber, n);
  long double sum = 0;
  for (int k = n; k >= from; --k) sum += pmf[k];  // smallest first
  return sum;
}

// Frames a RoCE fabric carries: a minimum frame (ACK, CNP, pause), 1 KiB and
// 4 KiB RDMA WRITE segments, a jumbo frame. Codewords: 1, 2, 7, 15.
const uint32_t kFrames[] = {kMinFrame, DataFrameBytes(1024, false), DataFrameBytes(4096, false),
                            kMaxJumboFrame};

uint32_t Wire(uint32_t frame) { return frame + kWireOverhead; }

uint64_t CodewordsOf(uint32_t frame) {
  return (Wire(frame) + kFecCodewordBytes - 1) / kFecCodewordBytes;
}

// Sends the frame mix until at least `codewords` have crossed.
void RunMix(FecLink* link, uint64_t codewords) {
  uint64_t sent = 0;
  while (sent < codewords) {
    for (uint32_t f : kFrames) {
      link->Frame(f, Wire(f));
      sent += CodewordsOf(f);
    }
  }
}

double StdErr(double p, double trials) { return std::sqrt(p * (1 - p) / trials); }

TEST(Fec, ModesParseAndName) {
  FecMode m = FecMode::kNone;
  ASSERT_TRUE(ParseFecMode("rs544", &m));
  EXPECT_EQ(m, FecMode::kRs544);
  ASSERT_TRUE(ParseFecMode("rs528", &m));
  EXPECT_EQ(m, FecMode::kRs528);
  ASSERT_TRUE(ParseFecMode("none", &m));
  EXPECT_EQ(m, FecMode::kNone);
  EXPECT_FALSE(ParseFecMode("RS544", &m));
  EXPECT_FALSE(ParseFecMode("kp4", &m));
  EXPECT_FALSE(ParseFecMode("", &m));
  EXPECT_STREQ(FecModeName(FecMode::kRs528), "rs528");
  EXPECT_EQ(FecCodewordSymbols(FecMode::kRs528), 528);
  EXPECT_EQ(FecCodewordSymbols(FecMode::kRs544), 544);
  EXPECT_EQ(FecCorrectableSymbols(FecMode::kRs528), 7);
  EXPECT_EQ(FecCorrectableSymbols(FecMode::kRs544), 15);
  // The frame mix's codeword counts, as the comment above them says.
  EXPECT_EQ(CodewordsOf(kFrames[0]), 1u);
  EXPECT_EQ(CodewordsOf(kFrames[1]), 2u);
  EXPECT_EQ(CodewordsOf(kFrames[2]), 7u);
  EXPECT_EQ(CodewordsOf(kFrames[3]), 15u);
}

// It sits in every port's state: plain data, no heap.
static_assert(std::is_trivially_copyable_v<FecLink>, "FecLink is plain data");
static_assert(sizeof(FecLink) <= 320, "FecLink stays small");

TEST(Fec, AnalyticProbabilitiesMatchTheBinomialSummedDirectly) {
  for (double ber : {1e-4, 1e-5, 1e-6}) {
    for (FecMode m : {FecMode::kRs528, FecMode::kRs544}) {
      const int n = FecCodewordSymbols(m), t = FecCorrectableSymbols(m);
      SCOPED_TRACE(std::string(FecModeName(m)) + " ber " + std::to_string(ber));
      const double ps = static_cast<double>(DirectSymbolError(ber));
      EXPECT_NEAR(FecLink::SymbolErrorProbability(ber), ps, 1e-12 * ps);
      const double errored = static_cast<double>(DirectTail(ber, n, 1));
      EXPECT_NEAR(FecLink::CodewordErrorProbability(ber, m), errored, 1e-9 * errored);
      const double uncorrectable = static_cast<double>(DirectTail(ber, n, t + 1));
      ASSERT_GT(uncorrectable, 0);
      EXPECT_NEAR(FecLink::UncorrectableProbability(ber, m), uncorrectable, 1e-9 * uncorrectable);
    }
  }
  // Orders of magnitude worth knowing: at 1e-5 about one codeword in 19 needs
  // correcting; RS(544,514) at 1e-6 loses one in ~1e49.
  EXPECT_NEAR(FecLink::CodewordErrorProbability(1e-5, FecMode::kRs544), 0.0529, 0.0001);
  EXPECT_LT(FecLink::UncorrectableProbability(1e-6, FecMode::kRs544), 1e-45);
  EXPECT_EQ(FecLink::CodewordErrorProbability(1e-5, FecMode::kNone), 0);
  EXPECT_EQ(FecLink::UncorrectableProbability(0, FecMode::kRs528), 0);
}

// Corrected codewords at a BER where they are frequent: their fraction, and
// how many symbols each held.
void CheckCorrected(double ber, FecMode m, uint64_t codewords, uint64_t seed) {
  SCOPED_TRACE(std::string(FecModeName(m)) + " ber " + std::to_string(ber));
  const int n = FecCodewordSymbols(m), t = FecCorrectableSymbols(m);
  FecLink link;
  link.Init(ber, m, 4, Rng(seed, 1));
  ASSERT_TRUE(link.active());
  RunMix(&link, codewords);
  const FecCounters c = link.Counters(0);
  const double cw = static_cast<double>(c.codewords);
  ASSERT_GE(c.codewords, codewords);

  const std::vector<long double> pmf = DirectPmf(ber, n);
  long double corrected = 0, mean = 0, square = 0;
  for (int k = 1; k <= t; ++k) {
    corrected += pmf[k];
    mean += k * pmf[k];
    square += static_cast<long double>(k) * k * pmf[k];
  }
  mean /= corrected;
  const double sd = static_cast<double>(std::sqrt(square / corrected - mean * mean));
  const double p = static_cast<double>(corrected);

  const double fraction = c.corrected_codewords / cw;
  EXPECT_NEAR(fraction, p, 4 * StdErr(p, cw)) << "corrected " << c.corrected_codewords << " of " << c.codewords;
  const double symbols = static_cast<double>(c.corrected_symbols) / c.corrected_codewords;
  EXPECT_NEAR(symbols, static_cast<double>(mean), 4 * sd / std::sqrt(c.corrected_codewords));
  // P(X > t) is below 1e-14 here: none in a few million codewords.
  EXPECT_EQ(c.uncorrectable_codewords, 0u);
  EXPECT_EQ(c.lost_frames, 0u);
  EXPECT_EQ(c.uncorrected_symbols, 0u);
  EXPECT_GE(c.corrected_bits, c.corrected_symbols);
  std::printf("  %s ber %g: %llu codewords, corrected %.5f (expected %.5f), %.5f symbols each (expected %.5f)\n",
              FecModeName(m), ber, static_cast<unsigned long long>(c.codewords), fraction, p, symbols,
              static_cast<double>(mean));
}

TEST(Fec, CorrectedCodewordsAtFrequentSymbolErrors) {
  CheckCorrected(1e-5, FecMode::kRs544, 5000000, 11);
  CheckCorrected(1e-5, FecMode::kRs528, 5000000, 12);
  // Ten times rarer, and still nothing uncorrectable (P(X > 15) is ~1e-50).
  CheckCorrected(1e-6, FecMode::kRs544, 10000000, 13);
}

TEST(Fec, CorrectedBitsPerSymbolAreTheConditionalBinomial) {
  // At 2e-3 an errored symbol has a second wrong bit often enough to see:
  // E[B | B >= 1] = 10 ber / ps = 1.0090 (1 + Binomial(9, ber) would give 1.018).
  const double ber = 2e-3;
  FecLink link;
  link.Init(ber, FecMode::kRs544, 8, Rng(21, 1));
  RunMix(&link, 400000);
  const FecCounters c = link.Counters(0);
  ASSERT_GT(c.corrected_symbols, 3000000u);
  const double ps = static_cast<double>(DirectSymbolError(ber));
  const double mean = 10 * ber / ps;
  // Var(B | B >= 1) = E[B^2 | B >= 1] - mean^2, with E[B^2] = 10 ber (1 - ber) + (10 ber)^2.
  const double var = (10 * ber * (1 - ber) + 100 * ber * ber) / ps - mean * mean;
  const double bits = static_cast<double>(c.corrected_bits) / c.corrected_symbols;
  EXPECT_NEAR(bits, mean, 4 * std::sqrt(var / c.corrected_symbols));
  std::printf("  bits per corrected symbol %.5f (expected %.5f)\n", bits, mean);
}

// Frame loss where codewords are uncorrectable: per frame size, the fraction
// lost against 1 - (1 - P(X > t))^codewords.
std::vector<double> CheckLoss(double ber, FecMode m, int cycles, uint64_t seed) {
  SCOPED_TRACE(std::string(FecModeName(m)) + " ber " + std::to_string(ber));
  const int n = FecCodewordSymbols(m), t = FecCorrectableSymbols(m);
  const double pu = static_cast<double>(DirectTail(ber, n, t + 1));
  FecLink link;
  link.Init(ber, m, 4, Rng(seed, 1));
  constexpr int kSizes = sizeof(kFrames) / sizeof(kFrames[0]);
  uint64_t lost[kSizes] = {};
  for (int i = 0; i < cycles; ++i) {
    for (int s = 0; s < kSizes; ++s) lost[s] += link.Frame(kFrames[s], Wire(kFrames[s]));
  }
  const FecCounters c = link.Counters(0);
  std::vector<double> fractions;
  uint64_t lost_total = 0;
  for (int s = 0; s < kSizes; ++s) {
    const double expected = -std::expm1(static_cast<double>(CodewordsOf(kFrames[s])) * std::log1p(-pu));
    const double fraction = static_cast<double>(lost[s]) / cycles;
    EXPECT_NEAR(fraction, expected, 5 * StdErr(expected, cycles) + 1.0 / cycles) << "frame " << kFrames[s];
    std::printf("  %s ber %g frame %u (%llu codewords): lost %.5f (expected %.5f)\n", FecModeName(m), ber,
                kFrames[s], static_cast<unsigned long long>(CodewordsOf(kFrames[s])), fraction, expected);
    fractions.push_back(fraction);
    lost_total += lost[s];
  }
  EXPECT_EQ(c.lost_frames, lost_total);
  const double cw = static_cast<double>(c.codewords);
  EXPECT_NEAR(c.uncorrectable_codewords / cw, pu, 5 * StdErr(pu, cw));
  EXPECT_NEAR((c.corrected_codewords + c.uncorrectable_codewords) / cw,
              FecLink::CodewordErrorProbability(ber, m),
              5 * StdErr(FecLink::CodewordErrorProbability(ber, m), cw) + 1.0 / cw);
  // Each uncorrectable codeword held more than t wrong symbols.
  EXPECT_GT(c.uncorrected_symbols, (t + 1) * c.uncorrectable_codewords - 1);
  return fractions;
}

TEST(Fec, UncorrectableCodewordsLoseFrames) {
  // ber 2e-3: ps ~0.0198, ~10.5 wrong symbols per codeword. RS(528,514)
  // (t = 7) gives up on most codewords, RS(544,514) (t = 15) on a few percent.
  const std::vector<double> kr4 = CheckLoss(2e-3, FecMode::kRs528, 20000, 31);
  const std::vector<double> kp4 = CheckLoss(2e-3, FecMode::kRs544, 20000, 32);
  for (size_t s = 0; s < kr4.size(); ++s) EXPECT_LT(kp4[s], kr4[s]) << "frame " << kFrames[s];
  // 1e-4 with RS(528,514): P(X > 7) ~ 9e-8, rare enough to check only the
  // mechanics at a BER where a minimum frame is lost about one time in 65.
  CheckLoss(6e-4, FecMode::kRs528, 40000, 33);
}

TEST(Fec, NoFecLosesEveryFrameWithAWrongBit) {
  const double ber = 1e-5;
  FecLink link;
  link.Init(ber, FecMode::kNone, 4, Rng(41, 1));
  ASSERT_TRUE(link.active());
  constexpr int kCycles = 1000000;
  constexpr int kSizes = sizeof(kFrames) / sizeof(kFrames[0]);
  uint64_t lost[kSizes] = {};
  for (int i = 0; i < kCycles; ++i) {
    for (int s = 0; s < kSizes; ++s) lost[s] += link.Frame(kFrames[s], Wire(kFrames[s]));
  }
  uint64_t lost_total = 0;
  for (int s = 0; s < kSizes; ++s) {
    // The frame's own bits: preamble and IFG are not covered by the FCS.
    const double expected = static_cast<double>(1.0L - std::pow(1.0L - ber, 8.0L * kFrames[s]));
    const double fraction = static_cast<double>(lost[s]) / kCycles;
    EXPECT_NEAR(fraction, expected, 4 * StdErr(expected, kCycles)) << "frame " << kFrames[s];
    std::printf("  none ber %g frame %u: lost %.6f (expected %.6f)\n", ber, kFrames[s], fraction, expected);
    lost_total += lost[s];
  }
  const FecCounters c = link.Counters(0);
  EXPECT_EQ(c.lost_frames, lost_total);
  EXPECT_EQ(c.uncorrected_symbols, lost_total);
  EXPECT_EQ(c.codewords, 0u);
  EXPECT_EQ(c.corrected_codewords + c.uncorrectable_codewords + c.corrected_bits, 0u);
}

TEST(Fec, NoErrorsWithoutABitErrorRate) {
  for (FecMode m : {FecMode::kNone, FecMode::kRs528, FecMode::kRs544}) {
    FecLink link;
    link.Init(0, m, 4, Rng(1, 1));
    EXPECT_FALSE(link.active());
    for (int i = 0; i < 1000; ++i) EXPECT_FALSE(link.Frame(kMaxJumboFrame, Wire(kMaxJumboFrame)));
    const FecCounters c = link.Counters(0);
    EXPECT_EQ(c.codewords, m == FecMode::kNone ? 0u : 15000u);
    EXPECT_EQ(c.corrected_codewords + c.uncorrectable_codewords + c.lost_frames, 0u);
  }
}

TEST(Fec, ExtremeBerDrawsSymbolBySymbol) {
  // Past ber ~0.12 the inverse-CDF walk would start from an underflowed term;
  // X is drawn one symbol at a time there. At 0.2: E[X] = 544 ps, ps = 1 - 0.8^10.
  FecLink link;
  link.Init(0.2, FecMode::kRs544, 1, Rng(51, 1));
  for (int i = 0; i < 2000; ++i) EXPECT_TRUE(link.Frame(kMinFrame, Wire(kMinFrame)));
  const FecCounters c = link.Counters(0);
  EXPECT_EQ(c.uncorrectable_codewords, 2000u);
  const double ps = 1 - std::pow(0.8, 10);
  const double mean = static_cast<double>(c.uncorrected_symbols) / 2000;
  EXPECT_NEAR(mean, 544 * ps, 4 * std::sqrt(544 * ps * (1 - ps) / 2000));
}

TEST(Fec, SameSeedSameCounters) {
  auto run = [](uint64_t stream, std::vector<bool>* lost) {
    FecLink link;
    link.Init(2e-4, FecMode::kRs528, 4, Rng(7, stream));
    for (int i = 0; i < 200000; ++i) {
      for (uint32_t f : kFrames) lost->push_back(link.Frame(f, Wire(f)));
    }
    return link.Counters(0);
  };
  std::vector<bool> lost_a, lost_b, lost_c;
  const FecCounters a = run(3, &lost_a), b = run(3, &lost_b), c = run(4, &lost_c);
  EXPECT_GT(a.uncorrectable_codewords, 0u);  // every kind of draw happened
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
  EXPECT_EQ(lost_a, lost_b);
  EXPECT_NE(a.corrected_bits, c.corrected_bits);  // another stream draws otherwise
  EXPECT_NE(lost_a, lost_c);
}

TEST(Fec, CorrectedBitsMoveEveryLane) {
  for (int lanes : {1, 2, 4, 8}) {
    SCOPED_TRACE("lanes " + std::to_string(lanes));
    FecLink link;
    link.Init(1e-5, FecMode::kRs544, lanes, Rng(61, 1));
    RunMix(&link, 2000000);
    const FecCounters c = link.Counters(0);
    uint64_t sum = 0;
    // Codeword i goes to lane i mod lanes, counted across frames: each lane
    // holds about 1/lanes of the bits, whatever the frame sizes.
    const double share = 1.0 / lanes;
    const double total = static_cast<double>(c.corrected_bits);
    for (int l = 0; l < kFecMaxLanes; ++l) {
      const uint64_t bits = c.lane_corrected_bits[l];
      sum += bits;
      if (l >= lanes) {
        EXPECT_EQ(bits, 0u) << "lane " << l;
      } else {
        EXPECT_NEAR(static_cast<double>(bits), total * share, 6 * std::sqrt(total * share * (1 - share)) + 1)
            << "lane " << l;
      }
    }
    EXPECT_EQ(sum, c.corrected_bits);
    EXPECT_GT(c.corrected_bits, 0u);
  }
}

}  // namespace
// The Poisson tail against its sum, where 1 - P(N < k) cannot resolve it and where it is near 1.
TEST(Fec, PoissonTailIsTheSumOfItsTerms) {
  EXPECT_DOUBLE_EQ(PoissonAtLeast(2, 0), 1);
  EXPECT_NEAR(PoissonAtLeast(2, 1), 1 - std::exp(-2.0), 1e-15);
  EXPECT_NEAR(PoissonAtLeast(2, 3), 1 - std::exp(-2.0) * (1 + 2 + 2), 1e-15);
  // P(N >= 30) at mean 2: the first term dominates, 2^30 e^-2 / 30! times about 1.07.
  const double first = std::exp(30 * std::log(2.0) - 2 - std::lgamma(31.0));
  EXPECT_GT(PoissonAtLeast(2, 30), first);
  EXPECT_LT(PoissonAtLeast(2, 30), first * 1.1);
  EXPECT_DOUBLE_EQ(PoissonAtLeast(50000, 418), 1);
  EXPECT_EQ(PoissonAtLeast(0, 1), 0);
}

// When the PCS fails a link (fec.h, PcsFailure), from the standard's thresholds.
TEST(Fec, PcsFailsALinkOnErrorsPastFecNotOnCorrectedOnes) {
  constexpr uint64_t k100G = 100000000000ull, k200G = 200000000000ull, k400G = 400000000000ull;
  // With indication: two uncorrectable codewords (160 invalid 66b headers) in a 500 us window.
  const PcsFailure corrected = PcsFailureFor(1e-5, FecMode::kRs528, k100G, false);
  EXPECT_EQ(corrected.window, 500 * kMicrosecond);
  EXPECT_LT(corrected.p_window, 1e-20) << "a compliant link never fails";
  EXPECT_EQ(corrected.block, 0);
  const double u = FecLink::UncorrectableProbability(2e-4, FecMode::kRs528);
  const double m = 9765.625 * u;  // codewords in a window, 51.2 ns each
  EXPECT_NEAR(PcsFailureFor(2e-4, FecMode::kRs528, k100G, false).p_window, 1 - std::exp(-m) * (1 + m), 1e-12);
  EXPECT_GT(PcsFailureFor(1.2e-3, FecMode::kRs528, k100G, false).p_window, 1 - 1e-12);
  EXPECT_EQ(PcsFailureFor(1e-3, FecMode::kRs528, 40000000000ull, false).window, 1250 * kMicrosecond);
  // No FEC: a sync header is invalid when one of its two bits is; 781,250 headers in 500 us at 100G.
  EXPECT_NEAR(PcsFailureFor(1e-4, FecMode::kNone, k100G, false).p_window, PoissonAtLeast(781250 * 2e-4 * (1 - 1e-4), 97), 1e-12);
  EXPECT_LT(PcsFailureFor(1e-5, FecMode::kNone, k100G, false).p_window, 1e-20);
  // Indication bypassed: symbol errors over K in a block, held 67.1 ms.
  const PcsFailure bypassed = PcsFailureFor(1e-5, FecMode::kRs528, k100G, true);
  EXPECT_EQ(bypassed.p_window, 0);
  EXPECT_EQ(bypassed.block, 8192 * 51200);
  EXPECT_EQ(bypassed.hold, 67100 * kMicrosecond);
  const double mean = 8192.0 * 528 * FecLink::SymbolErrorProbability(1e-5);  // 432.5
  EXPECT_NEAR(bypassed.p_block, PoissonAtLeast(mean, 418), 1e-12);
  EXPECT_NEAR(bypassed.p_block, 0.764, 0.005);
  EXPECT_LT(PcsFailureFor(5e-6, FecMode::kRs528, k100G, true).p_block, 1e-20);
  // RS(544,514): K 6380 in clause 91 (100G), 5560 in clause 119, whose 200G block is 4096 codewords.
  const double ps = FecLink::SymbolErrorProbability(1.2e-4);
  EXPECT_NEAR(PcsFailureFor(1.2e-4, FecMode::kRs544, k100G, true).p_block, PoissonAtLeast(8192.0 * 544 * ps, 6381), 1e-12);
  EXPECT_NEAR(PcsFailureFor(1.2e-4, FecMode::kRs544, k400G, true).p_block, PoissonAtLeast(8192.0 * 544 * ps, 5561), 1e-12);
  EXPECT_EQ(PcsFailureFor(1.2e-4, FecMode::kRs544, k400G, true).block, 8192 * 12800);
  EXPECT_EQ(PcsFailureFor(1.2e-4, FecMode::kRs544, k200G, true).block, 4096 * 25600);
}

// The BER monitor's window at each speed: clause 82's 781,250 blocks (500 us at 100G, 1.25 ms at
// 40G) taken at 25G and 50G too; clause 49's 16 headers in 125 us at 10G.
TEST(Fec, TheBerMonitorsWindowIsItsBlocksAtThePortsSpeed) {
  EXPECT_EQ(HiBerWindow(100000000000ull), 500 * kMicrosecond);
  EXPECT_EQ(HiBerWindow(400000000000ull), 500 * kMicrosecond);
  EXPECT_EQ(HiBerWindow(40000000000ull), 1250 * kMicrosecond);
  EXPECT_EQ(HiBerWindow(25000000000ull), 2000 * kMicrosecond);
  EXPECT_EQ(HiBerWindow(50000000000ull), 1000 * kMicrosecond);
  EXPECT_EQ(HiBerWindow(10000000000ull), 125 * kMicrosecond);
  EXPECT_EQ(HiBerHeaders(10000000000ull), 16);
  EXPECT_EQ(HiBerHeaders(25000000000ull), 97);
  // No FEC at 25G: 781,250 headers in the 2 ms window, 97 of them invalid to fail it.
  const PcsFailure f25 = PcsFailureFor(1e-4, FecMode::kNone, 25000000000ull, false);
  EXPECT_EQ(f25.window, 2000 * kMicrosecond);
  EXPECT_NEAR(f25.p_window, PoissonAtLeast(781250 * 2e-4 * (1 - 1e-4), 97), 1e-12);
  // At 10G: 19,531.25 headers in 125 us, 16 of them.
  EXPECT_NEAR(PcsFailureFor(3e-4, FecMode::kNone, 10000000000ull, false).p_window,
              PoissonAtLeast(19531.25 * 2 * 3e-4 * (1 - 3e-4), 16), 1e-12);
}

// The decoder runs at line rate between frames: an idle link's codewords count, and their
// corrections, at their expected values; a dark link counts none.
TEST(Fec, IdleCodewordsCountAtLineRate) {
  FecLink link;
  const double ber = 1e-5;
  link.Init(ber, FecMode::kRs528, 4, Rng(3, 1), 100000000000ull, 0, true);
  const FecCounters c = link.Counters(1 * kMillisecond);
  EXPECT_EQ(c.codewords, 19531u);  // 1 ms / 51.2 ns
  const double p = FecLink::CodewordErrorProbability(ber, FecMode::kRs528);
  EXPECT_NEAR(static_cast<double>(c.corrected_codewords), 19531 * p, 1.0);
  // Each errored symbol has about one wrong bit at this rate; ps n bits a codeword.
  EXPECT_NEAR(static_cast<double>(c.corrected_bits), 19531 * 5280 * ber, 0.01 * 19531 * 5280 * ber + 1);
  uint64_t lanes = 0;
  for (int i = 0; i < 4; ++i) lanes += c.lane_corrected_bits[i];
  EXPECT_EQ(lanes, c.corrected_bits);
  link.SetDecoding(false, 1 * kMillisecond);
  EXPECT_EQ(link.Counters(5 * kMillisecond).codewords, 19531u) << "no signal, nothing decoded";
  link.SetDecoding(true, 5 * kMillisecond);
  EXPECT_EQ(link.Counters(6 * kMillisecond).codewords, 39062u);
  // Frames take their codewords out of the idle ones: the total follows the clock.
  for (int i = 0; i < 100; ++i) link.Frame(4096, 4178);
  EXPECT_EQ(link.Counters(6 * kMillisecond).codewords, 39062u);
}

}  // namespace rocelab
