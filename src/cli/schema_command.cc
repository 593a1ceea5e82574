// rocelab schema [--json]
// Every key of the scenario file: unit, range, default and meaning (the README's key table).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli.h"
#include "scenario/options.h"

namespace rocelab {

namespace {

int Schema(const Args& a) {
  std::printf("%s", a.Has("--json") ? SchemaJson().c_str() : SchemaMarkdown().c_str());
  return kExitOk;
}

}  // namespace

void AddSchemaCommand(CLI::App* root) {
  CLI::App* c = AddCommand(root, "schema", "Every scenario key: unit, range, default and meaning", Schema);
  AddFlag(c, "--json", "as JSON instead of a Markdown table");
}

}  // namespace rocelab
