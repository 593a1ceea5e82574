// rocelab compare A B [--json] [--html FILE]
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/cli.h"
#include "report/compare.h"
#include "report/html_report.h"

namespace rocelab {
namespace {

int CompareCommand(const Args& a) {
  // A side that is neither a run nor a bundle throws ConfigError: main() names it, exit status 2.
  const Comparison c = Compare(a.positional()[0], a.positional()[1]);
  if (a.Has("--html")) {
    const std::string html = a.Get("--html");
    CheckOutputFile(html, "compare: --html");
    // Run B's own page with the comparison after it; a bundle has no page: the comparison alone.
    std::string page;
    if (c.b.kind == "run") {
      bool folder = false;
      RunFileOf(c.b.path, "summary.json", "compare", &folder);
      page = RunReportOfFolder(FolderOf(c.b.path, folder), {CompareHtmlSection(c)});
    } else {
      page = HtmlDocument("rocelab compare", c.a.path + " → " + c.b.path, {CompareHtmlSection(c)});
    }
    WriteFileAtomically(html, page);
  }
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
  AddValue(c, "--html", "FILE", "also write it as a page: run B's report.html with the comparison as its last section");
}

}  // namespace rocelab
