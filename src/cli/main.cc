// rocelab: the command line. `rocelab --help` lists the commands and `rocelab CMD --help`
// a command's options. Exit status, for every command: 0 success or nothing found, 1 the
// command worked and found problems, 2 bad input or usage (nothing written), 3 internal error.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/huge_pages.h"
#include "util/config_error.h"

namespace rocelab {
namespace {

CLI::App* Root() {
  static CLI::App* root = [] {
    auto* app = new CLI::App("rocelab: a lab for lossless RoCEv2 fabrics", "rocelab");
    app->set_version_flag("--version", "rocelab 0.1.0");
    app->require_subcommand(1);
    AddRunCommands(app);
    AddPlanCommand(app);
    AddLintCommand(app);
    AddSchemaCommand(app);
    AddPerftestCommand(app);
    AddCollectCommand(app);
    AddDiagnoseCommand(app);
    AddExportCommand(app);
    AddCompareCommand(app);
    AddSweepCommand(app);
    AddLabCommand(app);
    AddCommand(app, "version", "Print the version", [](const Args&) {
      std::printf("rocelab 0.1.0\n");
      return static_cast<int>(kExitOk);
    });
    return app;
  }();
  return root;
}

std::vector<const CLI::App*> Subcommands(const CLI::App* app) {
  return app->get_subcommands(std::function<bool(const CLI::App*)>());
}

// The command the words of a command line name ("plan headroom"), as far as they name one.
struct GivenCommand {
  const CLI::App* app;
  std::string path;
  std::string unknown;  // the first word that should have named a command and does not
};

GivenCommand FindCommand(const std::vector<std::string>& args) {
  GivenCommand g{Root(), "", ""};
  for (const std::string& a : args) {
    if (!a.empty() && a[0] == '-') break;
    if (Subcommands(g.app).empty()) break;  // a command that runs: the rest are its arguments
    const CLI::App* sub = nullptr;
    for (const CLI::App* s : Subcommands(g.app))
      if (s->get_name() == a) sub = s;
    if (!sub) {
      // A command that runs itself and has commands under it too (sweep, sweep merge): its argument.
      if (g.app->get_require_subcommand_min() == 0) break;
      g.unknown = a;
      break;
    }
    g.app = sub;
    g.path += (g.path.empty() ? "" : " ") + a;
  }
  return g;
}

// CLI11's words for an error, in ours: one line that names the option.
std::string Explain(const CLI::ParseError& e) {
  std::string m = e.what();
  size_t at = m.find(": At Most ");
  const size_t most = at == std::string::npos ? at : m.find(" required but received", at);
  if (most != std::string::npos) {
    const std::string name = m.substr(0, at);
    const std::string n = m.substr(at + 10, most - at - 10);
    if (name[0] == '-') return name + " is given more than once";
    return (n == "1" ? "one " + name + " only" : name + ": " + n + " at most") + ": unexpected extra arguments";
  }
  at = m.find(": At least ");
  const size_t least = at == std::string::npos ? at : m.find(" required but received ", at);
  if (least != std::string::npos)
    return m.substr(0, at) + ": " + m.substr(at + 11, least - at - 11) + " needed, " + m.substr(least + 23) + " given";
  at = m.find(": 1 required");
  if (at != std::string::npos && m.find("missing") != std::string::npos) return m.substr(0, at) + " needs a value";
  const std::string extra = "was not expected: ", extras = "were not expected: ";
  at = m.find(extra);
  size_t len = extra.size();
  if (at == std::string::npos) {
    at = m.find(extras);
    len = extras.size();
  }
  if (at != std::string::npos) {
    std::string what = m.substr(at + len);
    const size_t space = what.find(' ');
    if (space != std::string::npos) what.resize(space);
    return (!what.empty() && what[0] == '-' ? "unknown option '" : "unexpected argument '") + what + "'";
  }
  return m;
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  CLI::App* root = Root();
  const GivenCommand given = FindCommand(args);
  const std::string& path = given.path;
  const std::string hint = "see: rocelab " + (path.empty() ? "" : path + " ") + "--help";
  if (!args.empty() && args[0] == "help") {
    std::printf("%s", root->help().c_str());
    return kExitOk;
  }
  if (!given.unknown.empty()) {
    std::fprintf(stderr, "rocelab: unknown command '%s%s'\n%s\n", path.empty() ? "" : (path + " ").c_str(),
                 given.unknown.c_str(), hint.c_str());
    return kExitBadInput;
  }
  try {
    root->parse(argc, argv);
  } catch (const CLI::Success& e) {
    return root->exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    std::string m = Explain(e);
    // CLI11 checks the positional count before it reports options it does not know: an
    // unknown option is the likelier mistake, so it is named first.
    for (const std::string& a : args)
      if (a.size() > 2 && a.compare(0, 2, "--") == 0 && a != "--help" &&
          !given.app->get_option_no_throw(a.substr(0, a.find('='))))
        m = "unknown option '" + a.substr(0, a.find('=')) + "'";
    if (m == "A subcommand is required") {
      m = "which command? ";
      for (const CLI::App* s : Subcommands(given.app)) m += s->get_name() + (s == Subcommands(given.app).back() ? "" : ", ");
    }
    std::fprintf(stderr, "rocelab%s%s: %s\n%s\n", path.empty() ? "" : " ", path.c_str(), m.c_str(), hint.c_str());
    return kExitBadInput;
  }
  try {
    return RunGivenCommand(*root);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "rocelab: %s\n%s\n", e.what(), hint.c_str());
    return kExitBadInput;
  }
}

}  // namespace
}  // namespace rocelab

int main(int argc, char** argv) {
  rocelab::RestartWithHugePages(argv);
  try {
    return rocelab::Main(argc, argv);
  } catch (const rocelab::ConfigError& e) {
    std::fprintf(stderr, "rocelab: error: %s\n", e.what());
    return rocelab::kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "rocelab: out of memory (is the fabric or workload too large? see --max-memory)\n");
    return rocelab::kExitInternal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rocelab: internal error: %s\n", e.what());
    return rocelab::kExitInternal;
  }
}
