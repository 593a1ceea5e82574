// Simulated time. One integer type, picoseconds, so that every serialization
// time at 10G..800G is exact enough and sums never drift with floating point.
#ifndef ROCELAB_SIM_TIME_H_
#define ROCELAB_SIM_TIME_H_

#include <cstdint>

namespace rocelab {

using Time = int64_t;  // picoseconds

constexpr Time kPicosecond = 1;
constexpr Time kNanosecond = 1000;
constexpr Time kMicrosecond = 1000 * kNanosecond;
constexpr Time kMillisecond = 1000 * kMicrosecond;
constexpr Time kSecond = 1000 * kMillisecond;
constexpr Time kTimeNever = INT64_MAX;

// Time to put `bytes` on a wire of `rate_bps`, rounded up to the picosecond.
inline Time SerializationTime(uint64_t bytes, uint64_t rate_bps) {
  const unsigned __int128 bits_ps = static_cast<unsigned __int128>(bytes) * 8u * 1000000000000ull;
  return static_cast<Time>((bits_ps + rate_bps - 1) / rate_bps);
}

// `t` rounded down to a whole number of `grain`s (0: as it is), but never to nothing. The ns-3
// profile rounds to its clock's nanosecond: that simulator truncates every transmission time.
inline Time RoundDown(Time t, Time grain) { return grain > 0 && t >= grain ? t - t % grain : t; }

// A production timer run at `scale` of its length (timers.scale): the story of a scaled scenario
// is production's, faster.
inline Time ScaledTimer(Time t, double scale) { return static_cast<Time>(static_cast<double>(t) * scale); }

inline double ToMicroseconds(Time t) { return static_cast<double>(t) / kMicrosecond; }
inline double ToNanoseconds(Time t) { return static_cast<double>(t) / kNanosecond; }

}  // namespace rocelab

#endif  // ROCELAB_SIM_TIME_H_
