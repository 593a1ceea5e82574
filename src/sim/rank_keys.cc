#include "sim/rank_keys.h"

#include <cstring>

namespace rocelab {
namespace {

// Four keys in a 256-bit register. A comparison gives -1 in each lane where it holds.
using Lanes = int64_t __attribute__((vector_size(32)));

// Fills the places after the n keys up to a whole group of four; returns the keys' count with them.
size_t Pad(int64_t* key, size_t n) {
  const size_t padded = RankKeysPadded(n);
  for (size_t i = n; i < padded; ++i) key[i] = INT64_MAX;
  return padded;
}

__attribute__((target("avx2"))) void RankKeysAvx2(int64_t* key, size_t n, uint8_t* rank) {
  const size_t padded = Pad(key, n);
  for (size_t i = 0; i < n; ++i) {
    const Lanes k = {key[i], key[i], key[i], key[i]};
    Lanes below = {};
    for (size_t j = 0; j < padded; j += 4) {
      Lanes four;
      std::memcpy(&four, key + j, sizeof four);
      below += four < k;
    }
    rank[i] = static_cast<uint8_t>(-(below[0] + below[1] + below[2] + below[3]));
  }
}

bool HasAvx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

}  // namespace

void RankKeysScalar(int64_t* key, size_t n, uint8_t* rank) {
  const size_t padded = Pad(key, n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t k = key[i];
    // Four counts at once, as one would wait on each addition.
    uint32_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    for (size_t j = 0; j < padded; j += 4) {
      r0 += key[j] < k;
      r1 += key[j + 1] < k;
      r2 += key[j + 2] < k;
      r3 += key[j + 3] < k;
    }
    rank[i] = static_cast<uint8_t>(r0 + r1 + r2 + r3);
  }
}

void RankKeys(int64_t* key, size_t n, uint8_t* rank) {
  static const bool avx2 = HasAvx2();
  if (avx2) RankKeysAvx2(key, n, rank);
  else RankKeysScalar(key, n, rank);
}

}  // namespace rocelab
