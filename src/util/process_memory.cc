#include "util/process_memory.h"

#include <fstream>
#include <sstream>
#include <string>

namespace rocelab {

namespace {

// The figure in KB on the line of `file` that starts with `key` (0: no such line).
uint64_t ProcKb(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) == 0) {
      std::istringstream ss(line.substr(key.size()));
      uint64_t kb = 0;
      ss >> kb;
      return kb;
    }
  }
  return 0;
}

}  // namespace

uint64_t PeakRssKb() { return ProcKb("/proc/self/status", "VmHWM:"); }

uint64_t HugePagesKb() { return ProcKb("/proc/self/smaps_rollup", "AnonHugePages:"); }

bool KernelOffersHugePages() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(in, modes);
  return modes.find("[always]") != std::string::npos || modes.find("[madvise]") != std::string::npos;
}

}  // namespace rocelab
