// Feeds arbitrary bytes to the scenario reader, the fabric builder and lint. Any
// input must end in a Scenario or a ConfigError: never a crash, a hang or a
// sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string>

#include "run/experiment.h"
#include "plan/lint.h"
#include "scenario/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    rocelab::Scenario sc = rocelab::ParseScenarioText(text, "fuzz.yaml");
    // Building resolves names and routes; keep fabrics small so one input stays fast.
    const auto& t = sc.topology;
    long nodes = t.type == rocelab::TopologySpec::Type::kFatTree ? 5L * t.k * t.k / 4 + t.k * t.k * t.k / 4
                 : t.type == rocelab::TopologySpec::Type::kSpineLeaf
                     ? static_cast<long>(t.spines) + t.leaves + static_cast<long>(t.leaves) * t.hosts_per_leaf
                     : static_cast<long>(t.nodes.size());
    if (nodes <= 512 && sc.permutations.size() < 4) rocelab::Experiment run(sc);
    // Lint re-checks the routing under every link failure: keep it to fabrics that take
    // milliseconds even in this instrumented build.
    if (nodes <= 128) rocelab::LintFabric(sc);
  } catch (const rocelab::ConfigError&) {
  }
  return 0;
}
