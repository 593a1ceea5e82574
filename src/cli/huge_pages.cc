#include "cli/huge_pages.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "util/process_memory.h"

namespace rocelab {
namespace {

constexpr char kTunable[] = "glibc.malloc.hugetlb=1";
// Set in the restarted process's environment: what GLIBC_TUNABLES was before ("-": unset).
constexpr char kSaved[] = "ROCELAB_GLIBC_TUNABLES_WAS";

bool Sanitized() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

}  // namespace

void RestartWithHugePages(char** argv) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
  if (const char* was = std::getenv(kSaved)) {
    // The restarted process: the tunables are read, and the environment is the user's again.
    if (std::strcmp(was, "-") == 0) unsetenv("GLIBC_TUNABLES");
    else setenv("GLIBC_TUNABLES", was, 1);
    unsetenv(kSaved);
    return;
  }
  if (Sanitized()) return;
  if (const char* off = std::getenv("ROCELAB_HUGE_PAGES"); off && std::strcmp(off, "0") == 0) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "glibc.malloc.hugetlb")) return;
  // valgrind preloads its own malloc; a restart would also leave valgrind behind.
  if (const char* preload = std::getenv("LD_PRELOAD"); preload && std::strstr(preload, "vgpreload")) return;
  if (!KernelOffersHugePages()) return;
  const std::string with = tunables && *tunables ? std::string(tunables) + ":" + kTunable : std::string(kTunable);
  setenv(kSaved, tunables ? tunables : "-", 1);
  setenv("GLIBC_TUNABLES", with.c_str(), 1);
  execv("/proc/self/exe", argv);
  // Not restarted: on with small pages, and the environment as it was.
  if (tunables) setenv("GLIBC_TUNABLES", tunables, 1);
  else unsetenv("GLIBC_TUNABLES");
  unsetenv(kSaved);
#else
  (void)argv;
#endif
}

}  // namespace rocelab
