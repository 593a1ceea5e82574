// rocelab compare A B [--json]
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/cli.h"
#include "report/compare.h"

namespace rocelab {
namespace {

int CompareCommand(const Args& a) {
  // A side that is neither a run nor a bundle throws ConfigError: main() names it, exit status 2.
  const Comparison c = Compare(a.positional()[0], a.positional()[1]);
  const std::string out = a.Has("--json") ? CompareJson(c) : CompareText(c);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace

void AddCompareCommand(CLI::App* root) {
  CLI::App* c = AddCommand(root, "compare",
                           "Before and after: two runs' --out folders or two bundles of collect, side by side: the "
                           "settings that differ and how every figure moved (docs/compare.md)",
                           CompareCommand, "A B", 2, 2);
  AddFlag(c, "--json", "the comparison as JSON");
}

}  // namespace rocelab
