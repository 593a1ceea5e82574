#include "cli/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace rocelab {
namespace {

// What the restarted process finds: the tunable added to the user's GLIBC_TUNABLES, and the
// user's own value (or "-" for none) saved beside it. It must put the user's environment back,
// so that the tools it runs (collect's ethtool and rdma) and the ranks mpirun starts from it see
// GLIBC_TUNABLES as the user left it, and must not restart again.
std::string RestoredFrom(const char* saved, const char* with_tunable) {
  setenv("ROCELAB_GLIBC_TUNABLES_WAS", saved, 1);
  setenv("GLIBC_TUNABLES", with_tunable, 1);
  char name[] = "rocelab";
  char* argv[] = {name, nullptr};
  RestartWithHugePages(argv);  // returns: the saved value says this process is the restarted one
  EXPECT_EQ(std::getenv("ROCELAB_GLIBC_TUNABLES_WAS"), nullptr) << "left for the tools it runs";
  const char* now = std::getenv("GLIBC_TUNABLES");
  return now ? now : "(unset)";
}

TEST(HugePages, TheRestartedProcessPutsTheUsersTunablesBack) {
#if !defined(__GLIBC__) || __GLIBC__ < 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 35)
  GTEST_SKIP() << "glibc before 2.35 has no huge-page tunable: rocelab does not restart";
#endif
  EXPECT_EQ(RestoredFrom("-", "glibc.malloc.hugetlb=1"), "(unset)");
  EXPECT_EQ(RestoredFrom("glibc.malloc.tcache_count=5", "glibc.malloc.tcache_count=5:glibc.malloc.hugetlb=1"),
            "glibc.malloc.tcache_count=5");
  EXPECT_EQ(RestoredFrom("", "glibc.malloc.hugetlb=1"), "") << "set but empty stays set";
}

}  // namespace
}  // namespace rocelab
