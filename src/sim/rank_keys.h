// The rank of each of a handful of keys: how many of the keys are below it. The event queue's
// refill sorts its run this way (sim/due_run.h). Counting takes no branch, unlike comparing and
// moving, whose branches a run in little order mispredicts; and a vector unit counts four keys
// at once.
#ifndef ROCELAB_SIM_RANK_KEYS_H_
#define ROCELAB_SIM_RANK_KEYS_H_

#include <cstddef>
#include <cstdint>

namespace rocelab {

// The most keys RankKeys takes.
inline constexpr size_t kRankKeysMax = 64;

// The number of keys a caller lays out for n: n rounded up to whole groups of four.
inline constexpr size_t RankKeysPadded(size_t n) { return (n + 3) & ~size_t{3}; }

// Sets rank[i] to the number of keys below key[i], for i < n <= kRankKeysMax. The keys are
// distinct. `key` has room for RankKeysPadded(n) of them: the places after the n are set to
// INT64_MAX, which counts for none. Uses AVX2 where the processor has it; the result is the
// same either way.
void RankKeys(int64_t* key, size_t n, uint8_t* rank);

// The same, a key at a time: for processors without AVX2, and to check the other against.
void RankKeysScalar(int64_t* key, size_t n, uint8_t* rank);

}  // namespace rocelab

#endif  // ROCELAB_SIM_RANK_KEYS_H_
