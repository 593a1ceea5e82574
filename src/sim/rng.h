// Seeded random streams. Every component that makes a random choice owns one
// stream derived from the scenario seed and a fixed stream id, so adding a
// component never shifts the draws of another (determinism across versions of
// a scenario, not only across runs).
#ifndef ROCELAB_SIM_RNG_H_
#define ROCELAB_SIM_RNG_H_

#include <cmath>
#include <cstdint>
#include <string>

namespace rocelab {

inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A stream id from a component's name (FNV-1a), so a device's draws follow its name.
inline uint64_t NameHash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// xoshiro256** (Blackman & Vigna): small state, fast, good statistical quality.
class Rng {
 public:
  Rng() : Rng(1, 0) {}
  Rng(uint64_t seed, uint64_t stream) {
    uint64_t x = SplitMix64(seed ^ SplitMix64(stream + 0x51ed27ull));
    for (auto& s : s_) {
      x = SplitMix64(x);
      s = x;
    }
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1), 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // Failures before the first success, each trial failing with probability exp(log_fail):
  // geometric on {0, 1, ...} by inversion, floor(log U / log_fail) with U in (0, 1] so log U
  // is finite. log_fail = -inf (a sure success) gives 0; a count past 2^64 saturates.
  uint64_t Geometric(double log_fail) {
    const double u = static_cast<double>((Next() >> 11) + 1) * 0x1.0p-53;
    const double g = std::floor(std::log(u) / log_fail);
    return g >= 0x1.0p64 ? UINT64_MAX : static_cast<uint64_t>(g);
  }

  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift, bias < 2^-64 * n).
  uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >> 64);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_RNG_H_
