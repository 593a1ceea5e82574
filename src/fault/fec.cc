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

void FecLink::Init(double pre_fec_ber, FecMode mode, int lanes, Rng rng) {
  // A BER above 1/2 is a link that inverts; the walks below assume ber/(1-ber) <= 1.
  const double ber = pre_fec_ber > 0 ? std::min(pre_fec_ber, 0.5) : 0;
  rng_ = rng;
  counters_ = FecCounters{};
  mode_ = mode;
  lanes_ = static_cast<uint8_t>(std::clamp(lanes, 1, kFecMaxLanes));
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
  }
  countdown_ = DrawCountdown();
}

uint64_t FecLink::DrawCountdown() {
  // Geometric on {0, 1, ...} by inversion: floor(log U / log(1 - p)), U in (0, 1]
  // so log U is finite. p == 1 gives log(1 - p) = -inf and a countdown of 0.
  const double u = static_cast<double>((rng_.Next() >> 11) + 1) * 0x1.0p-53;
  const double g = std::floor(std::log(u) / log_clean_);
  if (g >= 0x1.0p64) return UINT64_MAX;  // p so small that no run reaches it
  return static_cast<uint64_t>(g);
}

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

void FecLink::SetErrorRate(double pre_fec_ber, FecMode mode) {
  const FecCounters kept = counters_;
  Init(pre_fec_ber, mode, lanes_, rng_);
  counters_ = kept;
}

}  // namespace rocelab
