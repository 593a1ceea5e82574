// What every rocelab subcommand shares: one exit-status contract, the way its
// options reach it, usage errors and atomic writes.
//
// Each command declares its options on a CLI11 subcommand (the Add*Command
// functions) and names the function that runs it; main() parses the whole line
// once and calls that function with what was given. Values stay text here: the
// commands check them with the same unit parsers the scenario reader uses, so
// "100G" or "2us" mean the same on the command line as in a file.
#ifndef ROCELAB_CLI_CLI_H_
#define ROCELAB_CLI_CLI_H_

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace rocelab {

// The exit status of every command (README, "Exit status").
enum ExitStatus : int {
  kExitOk = 0,        // success, or nothing found
  kExitFound = 1,     // the command worked and found problems (lint or diagnose errors, a plan that does not fit)
  kExitBadInput = 2,  // bad input or usage; nothing written
  kExitInternal = 3,  // a bug in rocelab
};

// Bad command-line use: exit status 2, nothing written.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The options one command was given, as text.
class Args {
 public:
  Args(const CLI::App* app, const std::vector<std::string>* positional, std::string command)
      : app_(app), positional_(positional), command_(std::move(command)) {}
  bool Has(const std::string& opt) const;
  std::string Get(const std::string& opt, const std::string& fallback = "") const;
  std::string Require(const std::string& opt) const;
  const std::vector<std::string>& positional() const { return *positional_; }
  const std::string& command() const { return command_; }  // "plan headroom"

 private:
  const CLI::App* app_;
  const std::vector<std::string>* positional_;
  std::string command_;
};

using CommandFn = int (*)(const Args&);

// Adds subcommand `name` under `parent`, run by `run` (nullptr for a group such as `plan`,
// whose own subcommands run). `positional` names its positional arguments in the help ("" if
// it takes none); `min_positional` of them are required, `max_positional` at most (-1: any).
CLI::App* AddCommand(CLI::App* parent, const std::string& name, const std::string& about, CommandFn run,
                     const std::string& positional = "", int min_positional = 0, int max_positional = 0);
// After the command line is parsed: runs the command it names (the deepest subcommand given).
int RunGivenCommand(const CLI::App& root);

// An option taking a value, shown as `--name KIND` in the help.
void AddValue(CLI::App* cmd, const std::string& names, const std::string& kind, const std::string& about);
// A switch: given or not.
void AddFlag(CLI::App* cmd, const std::string& names, const std::string& about);

// The commands, each declared in its own file.
void AddRunCommands(CLI::App* root);  // run, demo
void AddPlanCommand(CLI::App* root);
void AddLintCommand(CLI::App* root);
void AddCollectCommand(CLI::App* root);
void AddDiagnoseCommand(CLI::App* root);
void AddPerftestCommand(CLI::App* root);
void AddSchemaCommand(CLI::App* root);
void AddExportCommand(CLI::App* root);  // export prom
void AddExportOpenMetricsCommand(CLI::App* export_group);
void AddCompareCommand(CLI::App* root);
void AddSweepCommand(CLI::App* root);   // sweep, sweep merge
void AddLabCommand(CLI::App* root);     // lab list, lab start

// Writes via a temporary file and a rename: never a half-written file.
void WriteFileAtomically(const std::string& path, const std::string& text);
bool MakeDirs(const std::string& path, std::string* err);
// Refuses, before anything is written, a file the command could not write at the end: `what`
// ("run: --prom") begins the message. Its folder must exist or be `made_first`, a folder the
// command creates before it writes (run's --out).
void CheckOutputFile(const std::string& path, const std::string& what, const std::string& made_first = "");

// The file `name` (summary.json, series.csv) of `given`: a run's output folder, or the file named
// directly; `*folder` says which was given. A path that does not exist is a UsageError that
// `command` ("export prom") begins.
std::string RunFileOf(const std::string& given, const std::string& name, const std::string& command, bool* folder);
// The folder of a path: the path itself when `is_folder`, else the folder of the file it names
// ("." for a bare file name, "/" for a file at the root).
std::string FolderOf(const std::string& path, bool is_folder);

}  // namespace rocelab

#endif  // ROCELAB_CLI_CLI_H_
