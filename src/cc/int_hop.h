// One switch hop's in-band telemetry record, as HPCC reads it (Li et al., "HPCC: High Precision
// Congestion Control", SIGCOMM 2019, §3.2): when the packet started leaving the egress port,
// the bytes the port had sent by then, the bytes still queued there, and the port's line rate.
//
// A record is 8 bytes on the wire: 24 bits of nanoseconds, the transmitted bytes, the queue and
// 3 bits naming the rate. How the middle 37 bits are split is the format (IntFormat):
//  - ns3: the HPCC ns-3 code base's (int-header.h): 20 bits of bytes in units of 128 B x multi
//    and 17 bits of queue in units of 80 B x multi, multi being its INT_MULTI (its runs set the
//    line rate / 25 Gb/s). At 100G a byte count moves in 512 B steps, a few per packet gap, and
//    that rounding is not even between flows: two flows into one port settle at 43/57 and stay
//    there (docs/congestion-control.md), since HPCC's additive step, 0.04 % of the line rate,
//    is all that pulls them together. The queue's steps do the same once they are coarse: at
//    1,280 B (multi 16, a fabric with 400G links) the same two flows settle at 57/43.
//  - fine: 26 bits of bytes to the byte (they wrap after 64 MB, 670 us at 800G) and 11 bits of
//    queue in units of 80 B, saturating at 164 KB: past it the queue term only says "more than
//    enough to cut hard" (164 KB is 2.8 base RTTs at 100G over 4.7 us).
// Time and bytes wrap; a difference between two records of the same port is taken modulo the
// field.
#ifndef ROCELAB_CC_INT_HOP_H_
#define ROCELAB_CC_INT_HOP_H_

#include <cstdint>

#include "sim/time.h"

namespace rocelab {

// The INT header a packet carries under HPCC: five hop records and a hop count (int-header.h:
// maxHop 5, 5 x 8 + 2 bytes), on data packets and on the ACKs that bring the records back.
constexpr uint32_t kIntHeaderBytes = 42;

struct IntFormat {
  enum class Kind { kFine, kNs3 };
  static IntFormat Of(Kind kind, uint32_t multi) {
    return kind == Kind::kNs3 ? IntFormat{20, 17, 128ull * multi, 80ull * multi} : IntFormat{26, 11, 1, 80};
  }
  int bytes_bits = 26, qlen_bits = 11;
  uint64_t byte_unit = 1, qlen_unit = 80;
};

class IntHop {
 public:
  static constexpr int kTimeBits = 24, kRateBits = 3;
  static constexpr uint64_t kRates = 8;
  static constexpr uint64_t kRateValues[kRates] = {25000000000ull,  50000000000ull,  100000000000ull, 200000000000ull,
                                                   400000000000ull, 10000000000ull,  40000000000ull,  800000000000ull};
  // The rates a record can name (3 bits): false for any other.
  static bool RateCode(uint64_t rate_bps, uint64_t* code) {
    for (uint64_t i = 0; i < kRates; ++i)
      if (kRateValues[i] == rate_bps) {
        *code = i;
        return true;
      }
    return false;
  }

  // The record a port stamps at `now`, having sent `tx_bytes` with `qlen` bytes queued. A queue
  // longer than the field holds reads as the longest it can say.
  static uint64_t Stamp(const IntFormat& f, Time now, uint64_t tx_bytes, uint64_t qlen, uint64_t rate_code) {
    const uint64_t time = static_cast<uint64_t>(now / kNanosecond) & Mask(kTimeBits);
    const uint64_t bytes = tx_bytes / f.byte_unit & Mask(f.bytes_bits);
    uint64_t q = qlen / f.qlen_unit;
    if (q > Mask(f.qlen_bits)) q = Mask(f.qlen_bits);
    return rate_code << (kTimeBits + f.bytes_bits + f.qlen_bits) | time << (f.bytes_bits + f.qlen_bits) |
           bytes << f.qlen_bits | q;
  }

  IntHop(uint64_t word, const IntFormat& f) : word_(word), f_(f) {}

  uint64_t rate_bps() const { return kRateValues[word_ >> (kTimeBits + f_.bytes_bits + f_.qlen_bits)]; }
  uint64_t qlen() const { return (word_ & Mask(f_.qlen_bits)) * f_.qlen_unit; }
  // Nanoseconds and bytes sent between `older` (the same port's earlier record) and this one.
  uint64_t NsSince(const IntHop& older) const {
    const int shift = f_.bytes_bits + f_.qlen_bits;
    return (Field(kTimeBits, shift) - older.Field(kTimeBits, shift)) & Mask(kTimeBits);
  }
  uint64_t BytesSince(const IntHop& older) const {
    return ((Field(f_.bytes_bits, f_.qlen_bits) - older.Field(f_.bytes_bits, f_.qlen_bits)) & Mask(f_.bytes_bits)) *
           f_.byte_unit;
  }

 private:
  static constexpr uint64_t Mask(int bits) { return (uint64_t{1} << bits) - 1; }
  uint64_t Field(int bits, int shift) const { return word_ >> shift & Mask(bits); }
  uint64_t word_;
  const IntFormat& f_;
};

}  // namespace rocelab

#endif  // ROCELAB_CC_INT_HOP_H_
