// Forward error correction on one receiving direction of a link: which frames
// the Reed-Solomon decoder corrects, which it gives up on, and the counters a
// NIC keeps for both.
//
// The codes (IEEE 802.3; 10-bit symbols over GF(2^10), 514 message symbols):
//   RS(528,514), "KR4": clause 91 (100GBASE-R; also clause 108, 25GBASE-R).
//     14 parity symbols correct t = 7 errored symbols per codeword.
//   RS(544,514), "KP4": clause 91 (100GBASE-KP4), clause 134 (50GBASE-R),
//     clause 119 (200GBASE-R, 400GBASE-R). 30 parity symbols, t = 15. PAM4
//     lanes need the stronger code: every 200G and 400G link runs it.
// The 514 message symbols (5140 bits) are twenty 257-bit blocks of the
// 256b/257b transcoder, each four 64b/66b blocks without their sync headers,
// so a codeword carries 5120 bits = 640 bytes of the MAC's stream. Errors hit
// all n symbols, parity included.
//
// The model, and what it assumes:
// - Bits err independently at the pre-FEC bit error rate `ber`. Real links
//   err in bursts (a PAM4 receiver's equalizer propagates one wrong decision
//   into the next), and RS corrects per symbol, so a burst inside one symbol
//   costs one; the model has no bursts.
// - A symbol is wrong with ps = 1 - (1 - ber)^10. A codeword's errored symbols
//   X ~ Binomial(n, ps): X = 0 clean; 1 <= X <= t corrected; X > t
//   uncorrectable: the decoder marks the codeword's blocks as errors, so the
//   frame in it arrives with a bad FCS and is dropped.
// - An errored symbol has B wrong bits, drawn from Binomial(10, ber) given
//   B >= 1 (exact under independent bits; it is 1 + O(ber) at any real BER).
// - The codewords run back to back, and in reality their boundaries do not
//   align with frames. The model charges each frame ceil(W / 640) whole
//   codewords of its own for its W wire bytes (frame, preamble and IFG), so a
//   64-byte frame costs a whole codeword: corrected-codeword counts on a
//   direction of small frames (acknowledgements) read high. Idle time carries
//   no codewords here; a real link decodes its idles too.
// - Lanes: codeword i's corrected bits count on lane i mod lanes. Real RS-FEC
//   deals each codeword's symbols round robin over all lanes; the model only
//   keeps the per-lane counters' total right and makes every lane move.
// - No FEC: a frame is lost when any bit of it is wrong, destination address
//   through FCS (the FCS covers those; preamble and IFG are not counted),
//   P = 1 - (1 - ber)^(8 frame bytes). There are no RS symbols then: each
//   lost frame counts one uncorrected symbol error.
//
// Cost: O(1) amortized per frame while errors are rare. A countdown of clean
// codewords (bits, with no FEC) before the next errored one is drawn from the
// geometric distribution; only an errored codeword draws anything more.
#ifndef ROCELAB_FAULT_FEC_H_
#define ROCELAB_FAULT_FEC_H_

#include <cstdint>
#include <string>

#include "sim/rng.h"

namespace rocelab {

enum class FecMode : uint8_t { kNone, kRs528, kRs544 };

// "none", "rs528", "rs544" (the names FecModeName gives). False for anything else.
bool ParseFecMode(const std::string& word, FecMode* out);
const char* FecModeName(FecMode m);

constexpr int kFecSymbolBits = 10;
constexpr uint32_t kFecCodewordBytes = 640;  // MAC bytes per codeword, both codes
constexpr int kFecMaxLanes = 8;
int FecCodewordSymbols(FecMode m);     // n: 528, 544 (0 for kNone)
int FecCorrectableSymbols(FecMode m);  // t: 7, 15 (0 for kNone)

// What the receiver counts, with the mlx5 / ethtool names they feed.
struct FecCounters {
  uint64_t codewords = 0;                // decoded (0 with no FEC)
  uint64_t corrected_codewords = 0;      // 1..t errored symbols; ethtool FEC corrected_blocks
  uint64_t uncorrectable_codewords = 0;  // > t; ethtool FEC uncorrectable_blocks
  uint64_t corrected_symbols = 0;
  uint64_t corrected_bits = 0;           // rx_corrected_bits_phy
  // Symbols in uncorrectable codewords, or with no FEC one per lost frame:
  // rx_pcs_symbol_err_phy, "not corrected by FEC, or FEC was not active".
  uint64_t uncorrected_symbols = 0;
  uint64_t lost_frames = 0;              // arrive with a bad FCS: rx_crc_errors_phy
  uint64_t lane_corrected_bits[kFecMaxLanes] = {};  // rx_err_lane_<N>_phy
};

// One receiving direction. Plain data: no heap, copyable, about 200 bytes.
class FecLink {
 public:
  // 0 <= pre_fec_ber <= 0.5 (values outside are clamped; NaN reads as 0); lanes
  // 1, 2, 4 or 8 (clamped to 1..8). `rng` is this direction's own stream.
  void Init(double pre_fec_ber, FecMode mode, int lanes, Rng rng);
  // A new error rate (or code) on the same link: the counters and the random stream go on.
  void SetErrorRate(double pre_fec_ber, FecMode mode);

  // False when no bit can be wrong (ber 0): Frame() then only counts codewords,
  // and a caller may skip it.
  bool active() const { return log_clean_ < 0; }
  FecMode mode() const { return mode_; }
  int lanes() const { return lanes_; }

  // A frame crosses the link: `frame_bytes` from the destination address
  // through the FCS, `wire_bytes` with preamble and IFG added. Updates the
  // counters; true when the frame is lost (it arrives with a bad FCS).
  bool Frame(uint32_t frame_bytes, uint32_t wire_bytes);

  const FecCounters& counters() const { return counters_; }

  // Analytic values, for tests and documentation. For kNone both are 0.
  static double SymbolErrorProbability(double ber);               // ps
  static double CodewordErrorProbability(double ber, FecMode m);  // P(X >= 1)
  static double UncorrectableProbability(double ber, FecMode m);  // P(X > t)

 private:
  uint64_t DrawCountdown();
  int DrawErroredSymbols();  // X given X >= 1
  int DrawErroredBits();     // B given B >= 1

  Rng rng_;
  FecCounters counters_;
  // Clean codewords (bits, with no FEC) before the next errored one.
  uint64_t countdown_ = 0;
  // log P(a codeword is clean), or log(1 - ber) with no FEC; 0 when inactive.
  double log_clean_ = 0;
  // Inverse-CDF walks: P(X = 1 | X >= 1) and the pmf ratio ps / (1 - ps);
  // P(B = 1 | B >= 1) and ber / (1 - ber).
  double x_first_ = 0, x_ratio_ = 0;
  double b_first_ = 0, b_ratio_ = 0;
  double ps_ = 0;
  FecMode mode_ = FecMode::kNone;
  uint8_t lanes_ = 1;
  uint16_t n_ = 0, t_ = 0;
  bool symbol_by_symbol_ = false;  // ps so high that the X walk underflows
};

}  // namespace rocelab

#endif  // ROCELAB_FAULT_FEC_H_
