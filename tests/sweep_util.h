// What the sweep tests share: a small base scenario, campaigns written beside
// it, and a look into a sweep's folder.
#ifndef ROCELAB_TESTS_SWEEP_UTIL_H_
#define ROCELAB_TESTS_SWEEP_UTIL_H_

#include <set>
#include <string>

#include "file_util.h"
#include "sweep/merge.h"
#include "sweep/results_db.h"

namespace rocelab {

// Six senders to one host across two leaves: a run takes some 10 ms in a release build.
inline std::string TinyBase(const std::string& size = "256KB", const std::string& kmin = "100KB") {
  return "name: tiny\n"
         "seed: 1\n"
         "duration: 5ms\n"
         "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 4,\n"
         "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}\n"
         "switch:\n"
         "  ecn: {enabled: true, kmin: " + kmin + ", kmax: 400KB, pmax: 0.2}\n"
         "workload:\n"
         "  - {type: incast, senders: 6, dst: h0, size: " + size + ", jitter: 5us}\n";
}

// The campaign of the example: 3 ECN thresholds times 4 seeds, 12 runs.
inline std::string TwelveRuns(const std::string& base = "base.yaml") {
  return "base: " + base + "\n"
         "grid:\n"
         "  switch.ecn.kmin: [50KB, 100KB, 200KB]\n"
         "  seed: 1..4\n"
         "metrics: [fct_p99_slowdown, pause_frames_tx, ecn_marked, cnp_sent]\n";
}

// A folder with base.yaml (`base`) and camp.yaml (`campaign`); returns the folder.
inline std::string CampaignDir(const std::string& tag, const std::string& campaign, const std::string& base = TinyBase()) {
  const std::string dir = TempDir(tag);
  WriteFile(dir + "/base.yaml", base);
  WriteFile(dir + "/camp.yaml", campaign);
  return dir;
}

// The runs recorded in a sweep's folder (0 where there is no database yet).
inline size_t RecordedRuns(const std::string& dir) {
  try {
    return ResultsDb::Open(ResultsPath(dir))->Count();
  } catch (const std::exception&) {
    return 0;
  }
}

inline std::set<std::string> RecordedIds(const std::string& dir) { return ResultsDb::Open(ResultsPath(dir))->Ids(); }

}  // namespace rocelab

#endif  // ROCELAB_TESTS_SWEEP_UTIL_H_
