// rocelab lint FABRIC_OR_SCENARIO.yaml [--json] [--no-failures]
// Exit status: 0 no errors (warnings allowed), 1 errors found, 2 bad input.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli.h"
#include "plan/lint.h"
#include "util/json_writer.h"

namespace rocelab {
namespace {

int Lint(const Args& a) {
  Scenario sc = LoadScenarioFile(a.positional()[0]);
  LintOptions o;
  o.single_link_failures = !a.Has("--no-failures");
  LintReport r = LintFabric(sc, o);
  if (a.Has("--json")) {
    JsonWriter w;
    w.BeginObject();
    w.String("file", sc.file).Int("errors", r.errors).Int("warnings", r.warnings);
    w.Int("link_failures_checked", r.links_failed_and_checked);
    w.BeginArray("findings");
    for (const Finding& f : r.findings) {
      w.BeginObject();
      w.String("severity", SeverityName(f.severity)).String("check", f.check).String("device", f.device);
      w.String("port", f.port).String("key", f.key).String("evidence", f.evidence).String("fix", f.fix);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    std::printf("%s", w.str().c_str());
  } else {
    for (const Finding& f : r.findings) {
      std::printf("%-7s %-20s %s%s%s  [%s]\n", SeverityName(f.severity), f.check.c_str(), f.device.c_str(),
                  f.port.empty() ? "" : ":", f.port.c_str(), f.key.c_str());
      std::printf("        %s\n        fix: %s\n", f.evidence.c_str(), f.fix.c_str());
    }
    std::printf("%s: %d error(s), %d warning(s); routing checked for cycles as configured", sc.file.c_str(), r.errors,
                r.warnings);
    if (o.single_link_failures) std::printf(" and under %d single link failures\n", r.links_failed_and_checked);
    else std::printf(" (single link failures not checked: --no-failures)\n");
  }
  return r.errors ? kExitFound : kExitOk;
}

}  // namespace

void AddLintCommand(CLI::App* root) {
  CLI::App* c = AddCommand(root, "lint", "Review a fabric's configuration: buffers, headroom, PFC, ECN, routing", Lint,
                           "FABRIC_OR_SCENARIO.yaml", 1, 1);
  AddFlag(c, "--json", "findings as JSON");
  AddFlag(c, "--no-failures", "skip the routing check under every single link failure (large fabrics)");
}

}  // namespace rocelab
