// What the rocelab subcommands share: usage errors, option parsing, atomic writes.
#ifndef ROCELAB_CLI_CLI_H_
#define ROCELAB_CLI_CLI_H_

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace rocelab {

// Bad command-line use: exit status 2, nothing written.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// --name value options, --flag switches and positional arguments.
class Args {
 public:
  // `with_value` and `flags` list the options this command accepts.
  Args(const std::vector<std::string>& argv, const std::set<std::string>& with_value,
       const std::set<std::string>& flags, const std::string& command);
  bool Has(const std::string& opt) const { return values_.count(opt) || flags_.count(opt); }
  std::string Get(const std::string& opt, const std::string& fallback = "") const;
  std::string Require(const std::string& opt) const;
  const std::vector<std::string>& positional() const { return positional_; }
  const std::string& command() const { return command_; }

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
  std::string command_;
};

// Writes via a temporary file and a rename: never a half-written file.
void WriteFileAtomically(const std::string& path, const std::string& text);
bool MakeDirs(const std::string& path, std::string* err);

int PlanCommand(const std::vector<std::string>& args);
int LintCommand(const std::vector<std::string>& args);
int CollectCommand(const std::vector<std::string>& args);
int DiagnoseCommand(const std::vector<std::string>& args);
int PerftestCommand(const std::vector<std::string>& args);
int SchemaCommand(const std::vector<std::string>& args);

}  // namespace rocelab

#endif  // ROCELAB_CLI_CLI_H_
