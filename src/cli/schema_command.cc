// rocelab schema [--json]
// Every key of the scenario file: unit, range, default and meaning (the README's key table).
#include <cstdio>

#include "cli/cli.h"
#include "scenario/options.h"

namespace rocelab {

int SchemaCommand(const std::vector<std::string>& argv) {
  Args a(argv, {}, {"--json"}, "schema");
  if (!a.positional().empty()) throw UsageError("schema: unexpected argument '" + a.positional()[0] + "'");
  std::printf("%s", a.Has("--json") ? SchemaJson().c_str() : SchemaMarkdown().c_str());
  return 0;
}

}  // namespace rocelab
