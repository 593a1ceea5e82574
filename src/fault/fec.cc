#include "fault/fec.h"

#include <algorithm>
#include <cmath>

namespace rocelab {

bool ParseFecMode(const std::string& word, FecMode* out) {
  for (FecMode m : {FecMode::kNone, FecMode::kRs528, FecMode::kRs544}) {
    if (word == FecModeName(m)) {
      *out = m;
      return true;
    }
  }
  return false;
}

const char* FecModeName(FecMode m) {
  switch (m) {
    case FecMode::kNone: return "none";
    case FecMode::kRs528: return "rs528";
    case FecMode::kRs544: return "rs544";
  }
  return "none";
}

int FecCodewordSymbols(FecMode m) {
  return m == FecMode::kRs528 ? 528 : m == FecMode::kRs544 ? 544 : 0;
}

int FecCorrectableSymbols(FecMode m) {
  // t = (n - k) / 2 for a Reed-Solomon code of n symbols, k of them message.
  return m == FecMode::kNone ? 0 : (FecCodewordSymbols(m) - 514) / 2;
}

double FecLink::SymbolErrorProbability(double ber) {
  if (!(ber > 0)) return 0;
  if (ber >= 1) return 1;
  return -std::expm1(kFecSymbolBits * std::log1p(-ber));
}

double FecLink::CodewordErrorProbability(double ber, FecMode m) {
  if (m == FecMode::kNone || !(ber > 0)) return 0;
  if (ber >= 1) return 1;
  // 1 - (1 - ps)^n with (1 - ps) = (1 - ber)^10: exact for the smallest BER.
  return -std::expm1(FecCodewordSymbols(m) * kFecSymbolBits * std::log1p(-ber));
}

double FecLink::UncorrectableProbability(double ber, FecMode m) {
  if (m == FecMode::kNone || !(ber > 0)) return 0;
  if (ber >= 1) return 1;
  const int n = FecCodewordSymbols(m), t = FecCorrectableSymbols(m);
  const double log_p = std::log(SymbolErrorProbability(ber));
  const double log_q = kFecSymbolBits * std::log1p(-ber);  // log(1 - ps)
  // Each term in logs: P(X > t) is far below what 1 - P(X <= t) can resolve
  // at a real BER (around 1e-50 for RS(544,514) at 1e-6).
  double upper = 0, lower = 0;
  for (int k = 0; k <= n; ++k) {
    const double log_term = std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                            k * log_p + (n - k) * log_q;
    (k > t ? upper : lower) += std::exp(log_term);
  }
  return upper <= 0.5 ? upper : 1 - lower;
}

void FecLink::Init(double pre_fec_ber, FecMode mode, int lanes, Rng rng, uint64_t rate_bps, Time now,
                   bool decoding) {
  rng_ = rng;
  counters_ = FecCounters{};
  lanes_ = static_cast<uint8_t>(std::clamp(lanes, 1, kFecMaxLanes));
  codeword_time_ = rate_bps ? static_cast<Time>(8.0 * kFecCodewordBytes * 1e12 / static_cast<double>(rate_bps)) : 0;
  decoded_ = 0;
  decoding_since_ = decoding ? now : -1;
  frame_codewords_ = 0;
  InitErrors(pre_fec_ber, mode);
}

void FecLink::InitErrors(double pre_fec_ber, FecMode mode) {
  // A BER above 1/2 is a link that inverts; the walks below assume ber/(1-ber) <= 1.
  const double ber = pre_fec_ber > 0 ? std::min(pre_fec_ber, 0.5) : 0;
  mode_ = mode;
  idle_ = PerCodeword{};
  n_ = static_cast<uint16_t>(FecCodewordSymbols(mode));
  t_ = static_cast<uint16_t>(FecCorrectableSymbols(mode));
  log_clean_ = 0;
  x_first_ = x_ratio_ = b_first_ = b_ratio_ = ps_ = 0;
  symbol_by_symbol_ = false;
  countdown_ = 0;
  if (ber == 0) return;
  const double log_bit_clean = std::log1p(-ber);
  if (mode == FecMode::kNone) {
    log_clean_ = log_bit_clean;
  } else {
    ps_ = SymbolErrorProbability(ber);
    log_clean_ = n_ * kFecSymbolBits * log_bit_clean;
    const double p_errored = -std::expm1(log_clean_);
    // P(X = 1 | X >= 1) = n ps (1 - ps)^(n-1) / P(X >= 1).
    const double log_x_first = std::log(static_cast<double>(n_)) + std::log(ps_) +
                               (n_ - 1) * kFecSymbolBits * log_bit_clean - std::log(p_errored);
    x_first_ = std::exp(log_x_first);
    x_ratio_ = ps_ / (1 - ps_);
    // Past ber ~0.12 the walk's first term underflows: X is drawn symbol by symbol there.
    symbol_by_symbol_ = log_x_first < -700;
    // P(B = 1 | B >= 1) = 10 ber (1 - ber)^9 / ps.
    b_first_ = kFecSymbolBits * ber * std::exp((kFecSymbolBits - 1) * log_bit_clean) / ps_;
    b_ratio_ = ber / (1 - ber);
    // An idle codeword's expected counts, over the pmf of X ~ Binomial(n, ps) in logs.
    const double log_p = std::log(ps_), log_q = kFecSymbolBits * log_bit_clean;
    for (int k = 1; k <= n_; ++k) {
      const double pk = std::exp(std::lgamma(n_ + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n_ - k + 1.0) + k * log_p +
                                 (n_ - k) * log_q);
      if (k <= t_) {
        idle_.corrected += pk;
        idle_.corrected_symbols += k * pk;
      } else {
        idle_.uncorrectable += pk;
        idle_.uncorrected_symbols += k * pk;
      }
    }
    idle_.corrected_bits = idle_.corrected_symbols * kFecSymbolBits * ber / ps_;  // E[B | B >= 1] = 10 ber / ps
  }
  countdown_ = DrawCountdown();
}

uint64_t FecLink::DrawCountdown() { return rng_.Geometric(log_clean_); }

int FecLink::DrawErroredSymbols() {
  if (symbol_by_symbol_) {
    int x = 0;
    while (x == 0) {
      for (int i = 0; i < n_; ++i) x += rng_.Uniform() < ps_;
    }
    return x;
  }
  // Inverse CDF of X given X >= 1, walking the pmf with
  // P(k+1) = P(k) (n - k) / (k + 1) ps / (1 - ps); one step at a low BER.
  const double u = rng_.Uniform();
  double term = x_first_, cdf = term;
  int k = 1;
  while (u >= cdf && k < n_) {
    term *= x_ratio_ * (n_ - k) / (k + 1);
    ++k;
    cdf += term;
  }
  return k;
}

int FecLink::DrawErroredBits() {
  const double u = rng_.Uniform();
  double term = b_first_, cdf = term;
  int b = 1;
  while (u >= cdf && b < kFecSymbolBits) {
    term *= b_ratio_ * (kFecSymbolBits - b) / (b + 1);
    ++b;
    cdf += term;
  }
  return b;
}

bool FecLink::Frame(uint32_t frame_bytes, uint32_t wire_bytes) {
  if (mode_ == FecMode::kNone) {
    if (!active()) return false;
    const uint64_t bits = 8ull * frame_bytes;
    if (countdown_ >= bits) {
      countdown_ -= bits;
      return false;
    }
    // The next wrong bit is in this frame; more wrong bits in it change nothing,
    // and the geometric distribution is memoryless, so the next countdown starts
    // at the frame's end.
    countdown_ = DrawCountdown();
    counters_.lost_frames++;
    counters_.uncorrected_symbols++;
    return true;
  }
  const uint64_t codewords = (uint64_t{wire_bytes} + kFecCodewordBytes - 1) / kFecCodewordBytes;
  const uint64_t first = counters_.codewords;
  counters_.codewords += codewords;
  frame_codewords_ += codewords;
  if (!active()) return false;
  bool lost = false;
  uint64_t done = 0;  // this frame's codewords already decided
  while (countdown_ < codewords - done) {
    done += countdown_;
    const uint64_t index = first + done;  // the errored codeword
    ++done;
    const int x = DrawErroredSymbols();
    if (x <= t_) {
      int bits = 0;
      for (int i = 0; i < x; ++i) bits += DrawErroredBits();
      counters_.corrected_codewords++;
      counters_.corrected_symbols += x;
      counters_.corrected_bits += bits;
      counters_.lane_corrected_bits[index % lanes_] += bits;
    } else {
      counters_.uncorrectable_codewords++;
      counters_.uncorrected_symbols += x;
      lost = true;
    }
    countdown_ = DrawCountdown();
  }
  countdown_ -= codewords - done;
  if (lost) counters_.lost_frames++;
  return lost;
}

void FecLink::SetErrorRate(double pre_fec_ber, FecMode mode, Time now) {
  FoldIdle(now);
  InitErrors(pre_fec_ber, mode);
}

void FecLink::SetDecoding(bool on, Time now) {
  if (on == (decoding_since_ >= 0)) return;
  if (on) {
    decoding_since_ = now;
  } else {
    decoded_ += now - decoding_since_;
    decoding_since_ = -1;
  }
}

FecCounters FecLink::Counters(Time now) const {
  FecCounters c = counters_;
  if (mode_ == FecMode::kNone || codeword_time_ <= 0) return c;
  const Time decoded = decoded_ + (decoding_since_ >= 0 ? now - decoding_since_ : 0);
  const uint64_t all = static_cast<uint64_t>(decoded / codeword_time_);
  if (all <= frame_codewords_) return c;
  const double idle = static_cast<double>(all - frame_codewords_);
  c.codewords += all - frame_codewords_;
  c.corrected_codewords += static_cast<uint64_t>(idle * idle_.corrected);
  c.corrected_symbols += static_cast<uint64_t>(idle * idle_.corrected_symbols);
  const uint64_t bits = static_cast<uint64_t>(idle * idle_.corrected_bits);
  c.corrected_bits += bits;
  for (int lane = 0; lane < lanes_; ++lane) c.lane_corrected_bits[lane] += bits / lanes_ + (lane < static_cast<int>(bits % lanes_));
  c.uncorrectable_codewords += static_cast<uint64_t>(idle * idle_.uncorrectable);
  c.uncorrected_symbols += static_cast<uint64_t>(idle * idle_.uncorrected_symbols);
  return c;
}

void FecLink::FoldIdle(Time now) {
  counters_ = Counters(now);
  decoded_ = 0;
  if (decoding_since_ >= 0) decoding_since_ = now;
  frame_codewords_ = 0;
}

double PoissonAtLeast(double mean, int k) {
  if (k <= 0) return 1;
  if (!(mean > 0)) return 0;
  auto log_pmf = [&](int i) { return -mean + i * std::log(mean) - std::lgamma(i + 1.0); };
  double sum = 0;
  if (mean < k) {
    // The upper tail summed directly: its terms fall away fast past the mean.
    for (int i = k;; ++i) {
      const double term = std::exp(log_pmf(i));
      sum += term;
      if (term <= 1e-17 * sum || i > k + 100000) break;
    }
    return std::min(sum, 1.0);
  }
  for (int i = 0; i < k; ++i) sum += std::exp(log_pmf(i));
  return std::max(0.0, 1 - sum);
}

int HiBerHeaders(uint64_t rate_bps) { return rate_bps <= 10000000000ull ? 16 : 97; }

Time HiBerWindow(uint64_t rate_bps) {
  if (rate_bps <= 10000000000ull) return 125 * kMicrosecond;
  if (rate_bps >= 100000000000ull) return 500 * kMicrosecond;
  // 781,250 blocks of 64 bits at the port's rate: 1.25 ms at 40G, 2 ms at 25G, 1 ms at 50G.
  return static_cast<Time>(781250.0 * 64 / static_cast<double>(rate_bps) * kSecond + 0.5);
}

PcsFailure PcsFailureFor(double pre_fec_ber, FecMode mode, uint64_t rate_bps, bool bypass_indication) {
  PcsFailure f;
  const double ber = pre_fec_ber > 0 ? std::min(pre_fec_ber, 0.5) : 0;
  if (ber == 0 || rate_bps == 0) return f;
  const double rate = static_cast<double>(rate_bps);
  // The BER monitor (fec.h): 97 invalid sync headers in 781,250 blocks, 500 us at 100G and up.
  const int hi_ber_headers = HiBerHeaders(rate_bps);
  f.window = HiBerWindow(rate_bps);
  const double window_s = static_cast<double>(f.window) / kSecond;
  const double codeword_s = 8.0 * kFecCodewordBytes / rate;
  if (mode == FecMode::kNone) {
    const double blocks = rate * window_s / 64;  // a 66b block carries 64 bits
    f.p_window = PoissonAtLeast(blocks * 2 * ber * (1 - ber), hi_ber_headers);
    return f;
  }
  if (!bypass_indication) {
    constexpr int kBlocksPerCodeword = 80;  // twenty 257b blocks of four 66b blocks, every one marked
    const double uncorrectable = FecLink::UncorrectableProbability(ber, mode);
    f.p_window = PoissonAtLeast(window_s / codeword_s * uncorrectable,
                                (hi_ber_headers + kBlocksPerCodeword - 1) / kBlocksPerCodeword);
    return f;
  }
  const bool clause119 = mode == FecMode::kRs544 && rate_bps >= 200000000000ull;
  const int codewords = clause119 && rate_bps < 400000000000ull ? 4096 : 8192;
  const int k = mode == FecMode::kRs528 ? 417 : clause119 ? 5560 : 6380;
  f.block = static_cast<Time>(codewords * codeword_s * kSecond);
  f.p_block = PoissonAtLeast(codewords * FecCodewordSymbols(mode) * FecLink::SymbolErrorProbability(ber), k + 1);
  f.hold = 67100 * kMicrosecond;
  return f;
}

}  // namespace rocelab
