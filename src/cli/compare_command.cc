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
    // The comparison first, then the two runs on the same charts; a bundle has no series: the
    // comparison alone.
    std::string page;
    if (c.a.kind == "run" && c.b.kind == "run") {
      bool folder_a = false, folder_b = false;
      RunFileOf(c.a.path, "summary.json", "compare", &folder_a);
      RunFileOf(c.b.path, "summary.json", "compare", &folder_b);
      page = CompareReportOfFolders(FolderOf(c.a.path, folder_a), FolderOf(c.b.path, folder_b), CompareHtmlSection(c),
                                    c.a.path + " → " + c.b.path);
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
  AddValue(c, "--html", "FILE", "also write it as a page: the comparison, then A and B overlaid on the same time charts");
}

}  // namespace rocelab
