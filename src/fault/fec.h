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
//   direction of small frames (acknowledgements) read high.
// - The decoder runs at line rate whether frames cross or not: between frames
//   it decodes idles, and its counters move on an idle link too. The idle
//   codewords (the decoding time at line rate less the frames' codewords) add
//   their expected counts, so what the frames' draws decide is the same
//   whenever the counters are read.
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
#include "sim/time.h"

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

// One receiving direction. Plain data: no heap, copyable, about 300 bytes.
class FecLink {
 public:
  // 0 <= pre_fec_ber <= 0.5 (values outside are clamped; NaN reads as 0); lanes
  // 1, 2, 4 or 8 (clamped to 1..8). `rng` is this direction's own stream. The
  // decoder runs from `now` on if `decoding`, at `rate_bps` of MAC bits.
  void Init(double pre_fec_ber, FecMode mode, int lanes, Rng rng, uint64_t rate_bps = 0, Time now = 0,
            bool decoding = false);
  // A new error rate (or code) on the same link: the counters and the random stream go on.
  void SetErrorRate(double pre_fec_ber, FecMode mode, Time now);
  // The link has its signal and carrier (the decoder runs), or not.
  void SetDecoding(bool on, Time now);

  // False when no bit can be wrong (ber 0): Frame() then only counts codewords,
  // and a caller may skip it.
  bool active() const { return log_clean_ < 0; }
  FecMode mode() const { return mode_; }
  int lanes() const { return lanes_; }

  // A frame crosses the link: `frame_bytes` from the destination address
  // through the FCS, `wire_bytes` with preamble and IFG added. Updates the
  // counters; true when the frame is lost (it arrives with a bad FCS).
  bool Frame(uint32_t frame_bytes, uint32_t wire_bytes);

  // The counters as read at `now`: the frames' codewords as they were drawn, and
  // the idle codewords the decoder ran through between them at their expected counts.
  FecCounters Counters(Time now) const;

  // Analytic values, for tests and documentation. For kNone both are 0.
  static double SymbolErrorProbability(double ber);               // ps
  static double CodewordErrorProbability(double ber, FecMode m);  // P(X >= 1)
  static double UncorrectableProbability(double ber, FecMode m);  // P(X > t)

 private:
  // Idle codewords' counts so far at the current rate move into counters_; the
  // idle accounting starts again at `now`.
  void FoldIdle(Time now);
  void InitErrors(double pre_fec_ber, FecMode mode);
  uint64_t DrawCountdown();
  int DrawErroredSymbols();  // X given X >= 1
  int DrawErroredBits();     // B given B >= 1

  Rng rng_;
  FecCounters counters_;
  // What one idle codeword adds, in expectation, at the current error rate.
  struct PerCodeword {
    double corrected = 0, corrected_symbols = 0, corrected_bits = 0;
    double uncorrectable = 0, uncorrected_symbols = 0;
  } idle_;
  Time codeword_time_ = 0;     // one codeword's 5120 MAC bits at line rate
  Time decoded_ = 0;           // decoding time since the last fold, up to decoding_since_
  Time decoding_since_ = -1;   // the decoder runs since (-1: it does not)
  uint64_t frame_codewords_ = 0;  // the frames' codewords since the last fold
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

// Errors FEC leaves make the PCS fail the link rather than carry them (IEEE 802.3 clauses 82, 91
// and 119; the vendors' documents that describe them are cited in docs/faults.md):
// - With error indication (the standard's default) the decoder invalidates the 66b blocks of an
//   uncorrectable codeword, all 80 of them (Intel's RS-FEC: "deliberately invalidated"), and the
//   PCS's BER monitor declares hi_ber when enough sync headers in one window are invalid
//   (HiBerHeaders, HiBerWindow). In hi_ber the receiver takes no frame (a local fault: the link
//   is down) until a window ends with fewer. With no FEC a sync header is invalid when either of
//   its two bits is wrong.
// - With error indication bypassed, an uncorrectable codeword passes unmarked (its frame fails
//   the FCS) and the decoder counts symbol errors in blocks of 8192 codewords (4096 at 200G):
//   over K (417 for RS(528,514), 6380 for RS(544,514) in clause 91, 5560 at 200G and 400G) it
//   invalidates every sync header for 60 to 75 ms (hi_ser; the AMD IP holds 67.1 ms).
// Errors are independent between windows, so the number of windows before the next failure is
// geometric: an event per failure, none per window.
// The BER monitor's window: clause 82 counts 97 invalid headers over 781,250 blocks, 500 us at
// 100G and 1.25 ms at 40G (Intel's PCS BER monitor, document 683114; CESNET's ber_mon.vhd counts
// HDR_CNT_MAX = 781250 blocks); the same count gives 2 ms at 25G and 1 ms at 50G, whose clauses
// (107, 133) we have not read. Ports of 100G and up keep 500 us. Clause 49 (10G): 16 in 125 us
// (Viavi; Efinix's 10GBASE-KR guide).
int HiBerHeaders(uint64_t rate_bps);
Time HiBerWindow(uint64_t rate_bps);

struct PcsFailure {
  Time window = 0;      // hi_ber's window
  double p_window = 0;  // P(a window has HiBerHeaders invalid sync headers)
  Time block = 0;       // hi_ser's block of codewords (0: no hi_ser)
  double p_block = 0;   // P(a block's symbol errors exceed K)
  Time hold = 0;        // hi_ser invalidates the sync headers this long (production time)
  bool Fails() const { return p_window > 0 || p_block > 0; }
};
PcsFailure PcsFailureFor(double pre_fec_ber, FecMode mode, uint64_t rate_bps, bool bypass_indication);

// P(N >= k) for N ~ Poisson(mean), accurate in the far tails both ways.
double PoissonAtLeast(double mean, int k);

}  // namespace rocelab

#endif  // ROCELAB_FAULT_FEC_H_
