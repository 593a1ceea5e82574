// `rocelab sweep merge OUT SHARD_DIR...`: the shards of one campaign (each run
// with --shard i/N, by a job array say) combined into one sweep folder, the same
// database a single sweep would have written. A run found twice with the same
// result (its summary but the wall-clock `engine` block) is kept once; with
// another result, nothing is merged.
#ifndef ROCELAB_SWEEP_MERGE_H_
#define ROCELAB_SWEEP_MERGE_H_

#include <string>
#include <vector>

namespace rocelab {

struct MergeCount {
  size_t added = 0;       // runs recorded in OUT
  size_t duplicates = 0;  // found again with the same result
};

// Merges the shards' results (and copies their runs/ folders) into `out`, made if missing or a
// sweep of the same base. Throws ConfigError naming the folder and run for shards of different
// campaigns or a run with two results; OUT is then left as it was.
MergeCount MergeSweeps(const std::string& out, const std::vector<std::string>& shards);

// DIR/results.sqlite.
std::string ResultsPath(const std::string& dir);

// Whether two summaries are the same result: the same text but the `engine` block.
bool SameResult(const std::string& a, const std::string& b);

}  // namespace rocelab

#endif  // ROCELAB_SWEEP_MERGE_H_
