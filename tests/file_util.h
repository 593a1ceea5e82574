// Files and commands for the tests that run the rocelab binary or a real tool
// (tshark, promtool, chromium) and look at what it wrote.
#ifndef ROCELAB_TESTS_FILE_UTIL_H_
#define ROCELAB_TESTS_FILE_UTIL_H_

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace rocelab {

// The folders TempDir made in this process, removed when it exits: a suite of a few hundred
// test programs would otherwise leave thousands in /tmp. Set ROCELAB_KEEP_TEST_FILES to keep
// them, to look at what a failing test wrote.
inline std::vector<std::string>& TempDirsMade() {
  static std::vector<std::string> dirs;
  return dirs;
}

// The process that made the first folder: a forked child that exits must not remove them.
inline pid_t TempDirOwner() {
  static const pid_t owner = getpid();
  return owner;
}

inline void RemoveTempDirs() {
  if (getpid() != TempDirOwner() || std::getenv("ROCELAB_KEEP_TEST_FILES")) return;
  std::error_code ignored;
  for (const std::string& dir : TempDirsMade()) std::filesystem::remove_all(dir, ignored);
}

// A fresh folder under /tmp: /tmp/rocelab-<tag>-XXXXXX, removed at exit.
inline std::string TempDir(const std::string& tag = "test") {
  std::string tmpl = "/tmp/rocelab-" + tag + "-XXXXXX";
  if (!mkdtemp(tmpl.data())) {
    std::perror(tmpl.c_str());
    std::abort();
  }
  if (TempDirsMade().empty()) {
    TempDirOwner();
    std::atexit(RemoveTempDirs);
  }
  TempDirsMade().push_back(tmpl);
  return tmpl;
}

inline bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes `text` to `path`, making the folders on the way; returns the path.
inline std::string WriteFile(const std::string& path, const std::string& text) {
  for (size_t i = 1; i < path.size(); ++i)
    if (path[i] == '/') ::mkdir(path.substr(0, i).c_str(), 0755);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// What a command printed on stdout; its exit status in `status` (-1: it did not exit).
inline std::string RunCommand(const std::string& cmd, int* status = nullptr) {
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  if (status) *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

struct CommandResult {
  int status;
  std::string output;  // stdout and stderr
};

inline CommandResult Shell(const std::string& cmd) {
  CommandResult r;
  r.output = RunCommand(cmd + " 2>&1", &r.status);
  return r;
}

// promtool from Debian's prometheus package (scripts/setup.sh installs it), "" when there is
// none. Tests that need it fail without it: a format check that quietly does not run checks nothing.
inline std::string Promtool() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(std::string(path ? path : "") + ":/usr/bin:/usr/local/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && ::access((dir + "/promtool").c_str(), X_OK) == 0) return dir + "/promtool";
  return "";
}

// The number of times `needle` occurs in `hay`, not overlapping.
inline size_t Occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size())) ++n;
  return n;
}

#ifdef ROCELAB_BINARY
// `rocelab ARGS` from the build tree.
inline CommandResult Rocelab(const std::string& args) { return Shell(std::string(ROCELAB_BINARY) + " " + args); }
#endif

}  // namespace rocelab

#endif  // ROCELAB_TESTS_FILE_UTIL_H_
