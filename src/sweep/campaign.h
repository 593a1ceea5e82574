// A campaign: one base scenario and the runs a sweep makes of it, each the base
// with some of its keys set to other values (docs/sweep.md has the format):
//
//   base: ../incast-15to1.yaml           # or `scenario:` with the scenario itself
//   grid:                                # every combination, the first key slowest
//     switch.ecn.kmin: [50KB, 100KB, 200KB]
//     seed: 1..4
//   list:                                # or these combinations (each times the grid)
//     - {"faults[0].kind": link_down}
//   metrics: [fct_p99_slowdown, pause_frames_tx]   # the columns of `sweep --table`
//
// Overrides are set on the base's YAML tree before the scenario is read, so every key a
// scenario takes can be swept, and every run is checked the way `rocelab run` checks a file.
// A run is named by a hash of its overrides, so a resumed sweep, a shard of one and their
// merge agree on the name of each run however the campaign orders its keys.
#ifndef ROCELAB_SWEEP_CAMPAIGN_H_
#define ROCELAB_SWEEP_CAMPAIGN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sweep/key_path.h"
#include "util/yaml.h"

namespace rocelab {

// More runs than this in one campaign is a mistake (a range or a grid too large), refused.
constexpr uint64_t kMaxSweepRuns = 100000;

// One key of one run set to one value.
struct Override {
  KeyPath path;
  YamlNode value;  // as written in the campaign, with its line there
  int line = 0, column = 0;  // of the value in the campaign file
};

struct SweepRun {
  size_t index = 0;  // in the campaign's order: list entries, then the grid, the last key fastest
  std::string id;    // 16 hex digits: a hash of the overrides (OverridesKey)
  std::vector<Override> overrides;  // list entry's keys, then the grid's, as written
};

struct Campaign {
  std::string file;       // the campaign, as named on the command line
  std::string base_file;  // the base scenario (the campaign itself for an inline `scenario:`)
  YamlNode base;
  std::string base_digest;  // a hash of the base's content: a resumed sweep must have the same
  std::vector<std::string> keys;     // every key path swept, first seen first
  std::vector<std::string> metrics;  // `metrics:`, or empty
  int metrics_line = 0;
  std::vector<SweepRun> runs;
};

// Reads and checks the campaign's own form: its keys, the base scenario's file and syntax, the
// key paths, values and ranges, and that no two runs are the same. Throws ConfigError naming the
// campaign file, the line and the key.
Campaign LoadCampaign(const std::string& path);

// The scenario of run `run`: the base with its overrides set. A bad value, or a combination the
// scenario reader or the fabric builder refuses, throws ConfigError naming the campaign file,
// the override's line, its key and value (or the run's overrides and the scenario's message).
Scenario RunScenario(const Campaign& c, const SweepRun& run);

// Builds every run's scenario and fabric, as `rocelab run` would before it starts, so that a bad
// campaign is refused before the first run; a run estimated to need more than `memory_limit`
// bytes (0: no limit; `limit_what` says whose limit) is refused too. Returns the largest estimate.
uint64_t CheckEveryRun(const Campaign& c, uint64_t memory_limit = 0, const std::string& limit_what = "");

// The overrides as a JSON object in the campaign's order, each value as written
// ({"switch.ecn.kmin": "50KB", "seed": "3"}); what the results database keeps.
std::string OverridesJson(const SweepRun& run);
// The same with the keys sorted: what the run's id hashes.
std::string OverridesKey(const SweepRun& run);
// "switch.ecn.kmin=50KB seed=3": the overrides for a line of text.
std::string OverridesText(const SweepRun& run);

}  // namespace rocelab

#endif  // ROCELAB_SWEEP_CAMPAIGN_H_
