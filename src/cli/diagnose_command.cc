// rocelab collect --out BUNDLE [--root DIR] [--interval 1s]
// rocelab diagnose BUNDLE | RUN_OUT | FILE... [--json]
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli.h"
#include "collect/collect.h"
#include "diagnose/diagnose.h"
#include "diagnose/parsers.h"
#include "util/json_writer.h"
#include "util/units.h"

namespace rocelab {
namespace {

int Collect(const Args& a) {
  CollectOptions o;
  o.out = a.Require("--out");
  o.root = a.Get("--root", "/");
  if (a.Has("--interval")) {
    Time t;
    std::string err;
    if (!ParseTime(a.Get("--interval"), &t, &err) || t > 600 * kSecond) throw UsageError("collect: --interval: " + (err.empty() ? "at most 600s" : err));
    o.interval_s = static_cast<double>(t) / kSecond;
  }
  CollectSummary s;
  try {
    s = rocelab::Collect(o);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("collect: ") + e.what());
  }
  std::printf("collected %d RDMA device port(s) into %s\n", s.devices, o.out.c_str());
  for (const std::string& t : s.tools) std::printf("  %s\n", t.c_str());
  return kExitOk;
}

int Diagnose(const Args& a) {
  Evidence ev;
  try {
    ev = LoadEvidence(a.positional());
  } catch (const ParseError& e) {
    throw UsageError(std::string("diagnose: ") + e.what());
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("diagnose: ") + e.what());
  }
  std::vector<Diagnosis> ds = rocelab::Diagnose(ev);
  int errors = 0, warnings = 0;
  for (const Diagnosis& d : ds) {
    errors += d.severity == Severity::kError;
    warnings += d.severity == Severity::kWarning;
  }
  if (a.Has("--json")) {
    JsonWriter w;
    w.BeginObject();
    w.String("origin", ev.origin).Double("interval_s", ev.interval_s, 6).Int("errors", errors).Int("warnings", warnings);
    w.BeginArray("findings");
    for (const Diagnosis& d : ds) {
      w.BeginObject();
      w.String("rule", d.rule).String("layer", d.layer).String("severity", SeverityName(d.severity)).String("title", d.title);
      if (d.tier.empty()) w.Null("tier");
      else w.String("tier", d.tier);
      w.String("location", d.location).String("evidence", d.evidence).String("action", d.action);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    std::printf("%s", w.str().c_str());
  } else {
    std::printf("%s: %zu port(s)%s\n", ev.origin.c_str(), ev.ports.size(),
                ev.interval_s > 0 ? (", over " + std::to_string(ev.interval_s) + " s").c_str() : "");
    for (const Diagnosis& d : ds) std::printf("%s", FindingText(d).c_str());
    if (!errors && !warnings) std::printf("nothing wrong found\n");
    else std::printf("%d error(s), %d warning(s)\n", errors, warnings);
  }
  return errors ? kExitFound : kExitOk;
}

}  // namespace

void AddCollectCommand(CLI::App* root) {
  CLI::App* c = AddCommand(root, "collect", "Gather RDMA evidence on this Linux host into a bundle", Collect);
  AddValue(c, "--out", "BUNDLE", "the bundle folder to write (required)");
  AddValue(c, "--root", "DIR", "read /sys and /proc under DIR instead of / (a copied host tree)");
  AddValue(c, "--interval", "TIME", "sample counters twice, this far apart (e.g. 1s; at most 600s)");
}

void AddDiagnoseCommand(CLI::App* root) {
  CLI::App* c = AddCommand(root, "diagnose", "Find what is wrong from a bundle, a run's output or command outputs",
                           Diagnose, "BUNDLE|RUN_OUT_DIR|FILE", 1, -1);
  AddFlag(c, "--json", "findings as JSON");
}

}  // namespace rocelab
