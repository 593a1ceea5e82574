#include "cli/cli.h"

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

namespace rocelab {
namespace {

struct CommandEntry {
  CommandFn run = nullptr;
  std::string path;  // "plan headroom"
  std::vector<std::string> positional;
};

// The commands declared so far, by their CLI11 subcommand.
std::map<const CLI::App*, std::unique_ptr<CommandEntry>>& Registry() {
  static std::map<const CLI::App*, std::unique_ptr<CommandEntry>> commands;
  return commands;
}

const CLI::Option* FindOption(const CLI::App* app, const std::string& opt) {
  const CLI::Option* o = app->get_option_no_throw(opt);
  if (!o) throw std::logic_error("command " + app->get_name() + " declares no option " + opt);
  return o;
}

}  // namespace

bool Args::Has(const std::string& opt) const { return FindOption(app_, opt)->count() > 0; }

std::string Args::Get(const std::string& opt, const std::string& fallback) const {
  const CLI::Option* o = FindOption(app_, opt);
  return o->count() && !o->results().empty() ? o->results().front() : fallback;
}

std::string Args::Require(const std::string& opt) const {
  if (!Has(opt)) throw UsageError(command_ + ": " + opt + " is required");
  return Get(opt);
}

CLI::App* AddCommand(CLI::App* parent, const std::string& name, const std::string& about, CommandFn run,
                     const std::string& positional, int min_positional, int max_positional) {
  CLI::App* cmd = parent->add_subcommand(name, about);
  auto entry = std::make_unique<CommandEntry>();
  entry->run = run;
  auto up = Registry().find(parent);
  entry->path = up == Registry().end() ? name : up->second->path + " " + name;
  if (!positional.empty()) {
    CLI::Option* o = cmd->add_option(positional, entry->positional, "")->type_name("");
    o->expected(min_positional, max_positional < 0 ? CLI::detail::expected_max_vector_size : max_positional);
    if (min_positional > 0) o->required();
  }
  if (!run) cmd->require_subcommand(1);
  Registry()[cmd] = std::move(entry);
  return cmd;
}

void AddValue(CLI::App* cmd, const std::string& names, const std::string& kind, const std::string& about) {
  cmd->add_option(names, about)->type_name(kind)->multi_option_policy(CLI::MultiOptionPolicy::Throw);
}

void AddFlag(CLI::App* cmd, const std::string& names, const std::string& about) { cmd->add_flag(names, about); }

int RunGivenCommand(const CLI::App& root) {
  const CLI::App* app = &root;
  while (!app->get_subcommands().empty()) app = app->get_subcommands().front();
  auto it = Registry().find(app);
  if (it == Registry().end() || !it->second->run) throw std::logic_error("no command to run");
  return it->second->run(Args(app, &it->second->positional, it->second->path));
}

bool MakeDirs(const std::string& path, std::string* err) {
  std::string cur;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (!cur.empty() && ::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) {
        *err = cur + ": " + std::strerror(errno);
        return false;
      }
    }
    if (i < path.size()) cur += path[i];
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *err = path + ": not a directory";
    return false;
  }
  return true;
}

void CheckOutputFile(const std::string& path, const std::string& what, const std::string& made_first) {
  namespace fs = std::filesystem;
  if (path.empty()) throw UsageError(what + " needs a file name");
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw UsageError(what + ": " + path + " is a folder; give a file name");
  fs::path folder = fs::path(path).parent_path();
  if (folder.empty()) folder = ".";
  const auto same = [](const fs::path& a, const fs::path& b) {
    return (a.lexically_normal() / "").lexically_normal() == (b.lexically_normal() / "").lexically_normal();
  };
  if (!made_first.empty() && same(folder, made_first)) return;
  if (!fs::is_directory(folder, ec)) throw UsageError(what + ": no folder " + folder.string() + " to write " + path + " in");
  if (::access(folder.c_str(), W_OK) != 0) throw UsageError(what + ": cannot write in " + folder.string());
}

void WriteFileAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw UsageError("cannot write " + tmp);
    out << text;
    if (!out) throw UsageError("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw UsageError("cannot write " + path);
}

std::string RunFileOf(const std::string& given, const std::string& name, const std::string& command, bool* folder) {
  struct stat st;
  if (::stat(given.c_str(), &st) != 0) throw UsageError(command + ": " + given + ": no such folder");
  *folder = S_ISDIR(st.st_mode);
  std::string file = given;
  if (*folder) {
    while (file.size() > 1 && file.back() == '/') file.pop_back();
    file += "/" + name;
  }
  return file;
}

std::string FolderOf(const std::string& path, bool is_folder) {
  if (is_folder) return path;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace rocelab
