// Every ready scenario in scenarios/ runs, and the release build agrees byte
// for byte with the sanitizer build (when one is configured).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "test_util.h"
#include "file_util.h"

namespace rocelab {
namespace {

const char* kScenarios[] = {"incast-15to1", "slow-receiver", "dcqcn-two-flows", "fat-tree-k8-permutation", "websearch-k4"};

std::string ScenarioPath(const std::string& name) {
  return std::string(ROCELAB_SOURCE_DIR) + "/scenarios/" + name + ".yaml";
}

std::string RunBinary(const std::string& binary, const std::string& scenario, const std::string& out) {
  std::string cmd = binary + " run " + scenario + " --out " + out + " --quiet";
  int st = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << cmd;
  std::ifstream in(out + "/summary.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(Scenarios, AllReadyScenariosRunAndDeliver) {
  for (const char* name : kScenarios) {
    Experiment x(LoadScenarioFile(ScenarioPath(name)));
    x.Run();
    const Fabric& f = x.fabric();
    Totals t = ComputeTotals(f);
    EXPECT_EQ(t.drops_lossless, 0u) << name;
    EXPECT_GT(t.bytes_delivered, 0u) << name;
    EXPECT_GT(f.engine().packet_hops, 0u) << name;
  }
}

TEST(Scenarios, ReleaseAndSanitizerBuildsWriteIdenticalSummaries) {
  const std::string reference = ROCELAB_REFERENCE_BINARY;
  if (reference.empty()) GTEST_SKIP() << "no reference build configured (ROCELAB_REFERENCE_BINARY)";
  const std::string dir = TempDir("cmp");
  for (const char* name : {"incast-15to1", "slow-receiver", "dcqcn-two-flows"}) {
    std::string a = RunBinary(ROCELAB_BINARY, ScenarioPath(name), dir + "/a-" + name);
    std::string b = RunBinary(reference, ScenarioPath(name), dir + "/b-" + name);
    ASSERT_FALSE(a.empty());
    EXPECT_EQ(WithoutEngine(a), WithoutEngine(b)) << name;
  }
}

}  // namespace rocelab
