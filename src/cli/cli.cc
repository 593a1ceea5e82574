#include "cli/cli.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace rocelab {

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& with_value,
           const std::set<std::string>& flags, const std::string& command)
    : command_(command) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
      std::string name = a, value;
      size_t eq = a.find('=');
      bool inline_value = eq != std::string::npos;
      if (inline_value) {
        name = a.substr(0, eq);
        value = a.substr(eq + 1);
      }
      if (with_value.count(name)) {
        if (!inline_value) {
          if (i + 1 >= argv.size()) throw UsageError(command + ": " + name + " needs a value");
          value = argv[++i];
        }
        values_[name] = value;
      } else if (flags.count(name) && !inline_value) {
        flags_.insert(name);
      } else {
        throw UsageError(command + ": unknown option '" + name + "'");
      }
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError(command + ": unknown option '" + a + "'");
    } else {
      positional_.push_back(a);
    }
  }
}

std::string Args::Get(const std::string& opt, const std::string& fallback) const {
  auto it = values_.find(opt);
  return it == values_.end() ? fallback : it->second;
}

std::string Args::Require(const std::string& opt) const {
  auto it = values_.find(opt);
  if (it == values_.end()) throw UsageError(command_ + ": " + opt + " is required");
  return it->second;
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

}  // namespace rocelab
