// The command line's conventions: --help on every command, both option forms, one-line
// errors that name the option, the exit-status contract, the progress line on a terminal,
// the memory refusal and the options that keep large fabrics practical.
#include <gtest/gtest.h>
#include <pty.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "file_util.h"
#include "test_util.h"
#include "util/process_memory.h"

namespace rocelab {
namespace {

int Lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

const char* kTwoHosts =
    "name: two-hosts\n"
    "duration: 1ms\n"
    "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2, host_link: {rate: 100G, delay: 1us}}\n"
    "workload:\n"
    "  - {type: flow, src: h0, dst: h1, size: 64KB}\n";

// One flow across a k=8 fat-tree: 80 switches, 128 hosts, two of which see traffic.
const char* kFatTreeOneFlow =
    "name: one-flow\n"
    "duration: 1ms\n"
    "topology: {type: fat-tree, k: 8, link: {rate: 100G, delay: 1us}}\n"
    "workload:\n"
    "  - {type: flow, src: h0, dst: h127, size: 64KB}\n";

}  // namespace

TEST(CommandLine, EveryCommandAnswersHelp) {
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"run", "--out"},          {"demo", "--out"},       {"plan", "headroom"},       {"plan headroom", "--speed"},
      {"plan buffer", "--json"}, {"plan ecn", "--rtt"},   {"lint", "--no-failures"},  {"schema", "--json"},
      {"perftest", "--size"},    {"collect", "--root"},   {"diagnose", "--json"},     {"", "diagnose"},
      {"export", "prom"},        {"export prom", "--out"}, {"", "export"},            {"run", "--prom"}};
  for (const auto& [cmd, option] : commands) {
    CommandResult r = Rocelab(cmd + " --help");
    EXPECT_EQ(r.status, 0) << cmd << "\n" << r.output;
    EXPECT_NE(r.output.find("Usage: rocelab" + (cmd.empty() ? "" : " " + cmd)), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(option), std::string::npos) << cmd << " lists " << option << "\n" << r.output;
  }
  EXPECT_EQ(Rocelab("help").status, 0);
  EXPECT_EQ(Rocelab("--version").output, "rocelab 0.1.0\n");
}

TEST(CommandLine, OptionsTakeTheirValueWithOrWithoutEquals) {
  const std::string dir = TempDir("cmd");
  const std::string file = WriteFile(dir + "/s.yaml", kTwoHosts);
  CommandResult spaced = Rocelab("run " + file + " --out " + dir + "/a --seed 3 --quiet");
  CommandResult equals = Rocelab("run " + file + " --out=" + dir + "/b --seed=3 --quiet");
  ASSERT_EQ(spaced.status, 0) << spaced.output;
  ASSERT_EQ(equals.status, 0) << equals.output;
  // The same run either way: summaries equal but for the wall-clock figures.
  auto strip = [](std::string s) { return s.erase(s.find("\"engine\""), s.find("\"flows\"") - s.find("\"engine\"")); };
  EXPECT_EQ(strip(ReadFile(dir + "/a/summary.json")), strip(ReadFile(dir + "/b/summary.json")));
  EXPECT_NE(ReadFile(dir + "/a/summary.json").find("\"seed\": 3"), std::string::npos);
  CommandResult pt = Rocelab("perftest write_bw --size=4096 --iters=20 -q 2");
  EXPECT_EQ(pt.status, 0) << pt.output;
  EXPECT_NE(pt.output.find(" 4096 "), std::string::npos) << pt.output;
}

// Every usage error: one line that names what is wrong, then where to look. No usage dump.
TEST(CommandLine, UsageErrorsAreOneLineWithAHint) {
  const std::string dir = TempDir("cmd");
  const std::string file = WriteFile(dir + "/s.yaml", kTwoHosts);
  const std::string dctcp = WriteFile(dir + "/dctcp.yaml", std::string(kTwoHosts) + "nic: {cc: dctcp}\n");
  struct Case {
    std::string args, says, hint;
  };
  const std::vector<Case> cases = {
      {"run " + file + " --out", "--out needs a value", "see: rocelab run --help"},
      {"run " + file + " --out a --out b", "--out is given more than once", "see: rocelab run --help"},
      {"run " + file + " --out a --outt b", "unknown option '--outt'", "see: rocelab run --help"},
      {"run " + file + " " + file + " --out a", "unexpected extra arguments", "see: rocelab run --help"},
      {"frobnicate", "unknown command 'frobnicate'", "see: rocelab --help"},
      {"plan frob --speed 100G", "unknown command 'plan frob'", "see: rocelab plan --help"},
      {"plan", "which command? headroom, buffer, ecn", "see: rocelab plan --help"},
      {"", "which command? run, demo", "see: rocelab --help"},
      {"plan headroom --speed 100G --cable 10m", "--mtu is required", "see: rocelab plan headroom --help"},
      {"plan headroom --speed fast --cable 10m --mtu 9216", "--speed", "see: rocelab plan headroom --help"},
      {"lint", "FABRIC_OR_SCENARIO.yaml is required", "see: rocelab lint --help"},
      {"run " + file + " --out a --counters some", "--counters is all, nonzero or none", "see: rocelab run --help"},
      {"perftest write_bw --size", "--size needs a value", "see: rocelab perftest --help"},
      {"perftest read_bw --scenario " + dctcp, "READ responses get no ACKs to echo their marks or times on", "see: rocelab perftest --help"},
      {"export", "which command? prom", "see: rocelab export --help"},
      {"export prom", "RUN_OUT_DIR is required", "see: rocelab export prom --help"},
      {"export prom " + dir + " --out", "--out needs a value", "see: rocelab export prom --help"},
      {"export prom " + dir + " --format x", "unknown option '--format'", "see: rocelab export prom --help"},
      {"export prom " + dir + " " + dir, "unexpected extra arguments", "see: rocelab export prom --help"},
      {"export prom " + dir, "summary.json: no such file", "see: rocelab export prom --help"},
      {"run " + file + " --out a --prom", "--prom needs a value", "see: rocelab run --help"},
  };
  for (const Case& c : cases) {
    CommandResult r = Rocelab(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.output;
    EXPECT_EQ(Lines(r.output), 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.hint), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_EQ(r.output.find("Usage"), std::string::npos) << c.args << "\n" << r.output;
  }
  EXPECT_FALSE(Exists("a"));
}

// 0 success or nothing found, 1 the command worked and found problems, 2 bad input.
TEST(CommandLine, ExitStatusContract) {
  const std::string dir = TempDir("cmd");
  const std::string good = WriteFile(dir + "/good.yaml", kTwoHosts);
  std::string bad_text = kTwoHosts;
  bad_text += "switch: {pfc: {enabled: false}}\n";  // RoCE on a lossy priority: a lint error
  const std::string lossy = WriteFile(dir + "/lossy.yaml", bad_text);
  const std::string tight = WriteFile(dir + "/tight.yaml", std::string(kTwoHosts) + "switch: {buffer: 64KB}\n");
  const std::string missing = dir + "/missing.yaml";
  const std::string samples = std::string(ROCELAB_SHARED_DATA) + "/samples/";
  struct Case {
    std::string args;
    int status;
  };
  const std::vector<Case> cases = {
      {"run " + good + " --out " + dir + "/run --quiet", 0},
      {"run " + missing + " --out " + dir + "/never", 2},
      {"lint " + good, 0},
      {"lint " + lossy, 1},
      {"lint " + missing, 2},
      {"plan buffer " + good, 0},
      {"plan buffer " + tight, 1},
      {"plan buffer " + missing, 2},
      {"plan headroom --speed 100G --cable 10m --mtu 9216", 0},
      {"plan headroom --speed 100G --cable 10m --mtu 9216 --model other", 2},
      {"plan ecn --speed 100G --rtt 10us", 0},
      {"plan ecn --speed 100G --rtt -1us", 2},
      {"diagnose " + dir + "/run", 0},
      {"diagnose " + samples + "sonic_pfcwd_show_stats_storm_z9332.txt", 1},
      {"diagnose " + missing, 2},
      {"perftest write_bw --size 4096 --iters 20", 0},
      {"perftest write_everything", 2},
      {"collect --out " + dir + "/bundle --root " + dir + "/no-such-root", 2},
      {"schema", 0},
      {"version", 0},
      {"export prom " + dir + "/run", 0},
      {"export prom " + dir + "/never", 2},
  };
  for (const Case& c : cases) {
    CommandResult r = Rocelab(c.args);
    EXPECT_EQ(r.status, c.status) << c.args << "\n" << r.output;
  }
  EXPECT_FALSE(Exists(dir + "/never"));
  EXPECT_FALSE(Exists(dir + "/bundle"));
}

// What a command prints on a terminal (a pty) until it has printed `until` or `seconds` pass.
std::string OnATerminal(const std::vector<std::string>& args, const std::string& until, int seconds) {
  int fd = -1;
  const pid_t pid = forkpty(&fd, nullptr, nullptr, nullptr);
  if (pid < 0) return "forkpty failed";
  if (pid == 0) {
    std::vector<char*> argv{const_cast<char*>(ROCELAB_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(ROCELAB_BINARY, argv.data());
    _exit(127);
  }
  std::string seen;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (seen.find(until) == std::string::npos && std::chrono::steady_clock::now() < give_up) {
    fd_set set;
    FD_ZERO(&set);
    FD_SET(fd, &set);
    timeval tv{0, 200000};
    if (select(fd + 1, &set, nullptr, nullptr, &tv) <= 0) continue;
    char buf[512];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    seen.append(buf, static_cast<size_t>(n));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  close(fd);
  return seen;
}

// A long run on a terminal says how far it has come; piped or --quiet, it does not.
TEST(CommandLine, ProgressOnATerminalOnly) {
  const std::string dir = TempDir("cmd");
  // One long flow: many seconds of work, of which the test watches the first few.
  const std::string file = WriteFile(dir + "/long.yaml",
                                 "name: long\nduration: 20s\n"
                                 "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2, "
                                 "host_link: {rate: 100G, delay: 1us}}\n"
                                 "workload:\n  - {type: flow, src: h0, dst: h1, size: 200GB}\n");
  const std::string seen = OnATerminal({"run", file, "--out", dir + "/out"}, "ETA", 60);
  EXPECT_NE(seen.find("simulated "), std::string::npos) << seen;
  EXPECT_NE(seen.find(" of 20000.000 ms"), std::string::npos) << seen;
  EXPECT_NE(seen.find("M events/s"), std::string::npos) << seen;
  EXPECT_NE(seen.find("ETA"), std::string::npos) << seen;

  const std::string quiet = OnATerminal({"run", file, "--out", dir + "/quiet", "--quiet"}, "ETA", 4);
  EXPECT_EQ(quiet.find("ETA"), std::string::npos) << quiet;
  // Piped, for as long: nothing but what a report would print.
  CommandResult piped = Rocelab("run " + file + " --out " + dir + "/piped 2>&1 & sleep 4; kill $!");
  EXPECT_EQ(piped.output.find("ETA"), std::string::npos) << piped.output;
  EXPECT_EQ(piped.output.find('\r'), std::string::npos) << piped.output;
}

// A fabric larger than the memory allowed is refused before anything is built or written,
// naming the estimate.
TEST(CommandLine, RefusesAFabricThatWouldNotFitInMemory) {
  const std::string dir = TempDir("cmd");
  const std::string file =
      WriteFile(dir + "/k16.yaml", "name: k16\ntopology: {type: fat-tree, k: 16, link: {rate: 100G, delay: 1us}}\n"
                               "workload:\n  - {type: flow, src: h0, dst: h1, size: 64KB}\n");
  CommandResult r = Rocelab("run " + file + " --out " + dir + "/out --max-memory 4MB");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("needs an estimated "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("routes "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("more than --max-memory 4.0 MB"), std::string::npos) << r.output;
  EXPECT_FALSE(Exists(dir + "/out"));
  // With room enough, it runs.
  CommandResult ok = Rocelab("run " + file + " --out " + dir + "/out --max-memory 1GB --quiet");
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_EQ(Rocelab("run " + file + " --out " + dir + "/out --max-memory lots").status, 2);
}

TEST(CommandLine, CountersAllNonzeroOrNone) {
  const std::string dir = TempDir("cmd");
  const std::string file = WriteFile(dir + "/ft.yaml", kFatTreeOneFlow);
  for (const char* mode : {"all", "nonzero", "none"})
    ASSERT_EQ(Rocelab("run " + file + " --quiet --counters " + mode + " --out " + dir + "/" + mode).status, 0) << mode;
  const std::string all = ReadFile(dir + "/all/summary.json"), nonzero = ReadFile(dir + "/nonzero/summary.json"),
                    none = ReadFile(dir + "/none/summary.json");
  EXPECT_NE(all.find("\"device_counters\": \"all\""), std::string::npos);
  EXPECT_NE(nonzero.find("\"device_counters\": \"nonzero\""), std::string::npos);
  EXPECT_NE(none.find("\"device_counters\": \"none\""), std::string::npos);
  // all: every host and switch; nonzero: the two hosts of the flow and the switches on its path.
  EXPECT_NE(all.find("\"h5\": {"), std::string::npos);
  EXPECT_NE(all.find("\"core3\": {"), std::string::npos);
  EXPECT_NE(nonzero.find("\"h0\": {"), std::string::npos);
  EXPECT_NE(nonzero.find("\"h127\": {"), std::string::npos);
  EXPECT_EQ(nonzero.find("\"h5\": {"), std::string::npos);
  EXPECT_NE(nonzero.find("\"edge0\": {"), std::string::npos);
  EXPECT_EQ(nonzero.find("\"edge1\": {"), std::string::npos);
  EXPECT_EQ(none.find("\"hosts\""), std::string::npos);
  EXPECT_EQ(none.find("\"switches\""), std::string::npos);
  EXPECT_LT(nonzero.size() * 10, all.size());
  // The flows and totals are the same in all three.
  auto from_flows = [](const std::string& s) { return s.substr(s.find("\"flows\""), s.find("\"device_counters\"") - s.find("\"flows\"")); };
  EXPECT_EQ(from_flows(all), from_flows(nonzero));
  EXPECT_EQ(from_flows(all), from_flows(none));
}

// diagnose reads a nonzero summary as the full one, and says when there are no counters.
TEST(CommandLine, DiagnoseFollowsTheCountersOption) {
  const std::string dir = TempDir("cmd");
  const std::string incast = std::string(ROCELAB_SOURCE_DIR) + "/scenarios/incast-15to1.yaml";
  for (const char* mode : {"all", "nonzero", "none"})
    ASSERT_EQ(Rocelab("run " + incast + " --quiet --counters " + mode + " --out " + dir + "/" + mode).status, 0);
  auto findings = [](std::string s) { return s.substr(s.find('\n')); };  // past the line naming the file
  const CommandResult all = Rocelab("diagnose " + dir + "/all"), nonzero = Rocelab("diagnose " + dir + "/nonzero");
  EXPECT_EQ(findings(all.output), findings(nonzero.output));
  EXPECT_EQ(all.status, nonzero.status);
  const CommandResult none = Rocelab("diagnose " + dir + "/none");
  EXPECT_NE(none.output.find("no per-device counters (written with --counters none)"), std::string::npos) << none.output;
  EXPECT_EQ(none.output.find("nothing wrong found"), std::string::npos) << none.output;
}

// Each finding says its tier on the response ladder; a healthy incast's pausing is T1, info:
// nothing wrong, exit status 0.
TEST(CommandLine, DiagnoseSaysEachFindingsTier) {
  const std::string dir = TempDir("cmd");
  std::string yaml = "duration: 20ms\ntopology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 17}\nworkload:\n";
  for (int h = 1; h <= 16; ++h) yaml += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 8MB}\n";
  ASSERT_EQ(Rocelab("run " + WriteFile(dir + "/incast.yaml", yaml) + " --quiet --out " + dir + "/run").status, 0);
  const CommandResult text = Rocelab("diagnose " + dir + "/run"), json = Rocelab("diagnose --json " + dir + "/run");
  EXPECT_EQ(text.status, 0) << text.output;
  EXPECT_NE(text.output.find("rule:     pfc.paused_share (tier T1: congestion control handles it)"), std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("nothing wrong found"), std::string::npos) << text.output;
  EXPECT_NE(json.output.find("\"rule\": \"pfc.paused_share\""), std::string::npos) << json.output;
  EXPECT_NE(json.output.find("\"tier\": \"T1\""), std::string::npos) << json.output;
  EXPECT_EQ(json.output.find("\"severity\": \"warning\""), std::string::npos) << json.output;
}

TEST(CommandLine, LintNoFailuresSkipsTheLinkFailureAnalysis) {
  const std::string dir = TempDir("cmd");
  const std::string file = WriteFile(dir + "/ft.yaml", kFatTreeOneFlow);
  CommandResult full = Rocelab("lint --json " + file), quick = Rocelab("lint --json --no-failures " + file);
  ASSERT_EQ(full.status, 0) << full.output;
  ASSERT_EQ(quick.status, 0) << quick.output;
  EXPECT_NE(full.output.find("\"link_failures_checked\": 256"), std::string::npos) << full.output;
  EXPECT_NE(quick.output.find("\"link_failures_checked\": 0"), std::string::npos) << quick.output;
  CommandResult text = Rocelab("lint --no-failures " + file);
  EXPECT_NE(text.output.find("single link failures not checked: --no-failures"), std::string::npos) << text.output;
}

namespace {

// summary.json's engine.huge_pages_kb.
uint64_t HugePagesKbOf(const std::string& summary) {
  const size_t at = summary.find("\"huge_pages_kb\": ");
  EXPECT_NE(at, std::string::npos);
  return at == std::string::npos ? 0 : std::stoull(summary.substr(at + 17));
}

// summary.json's engine.lookahead.
bool LookaheadOf(const std::string& summary) {
  EXPECT_NE(summary.find("\"lookahead\": "), std::string::npos);
  return summary.find("\"lookahead\": true") != std::string::npos;
}

// The summary of the k=8 permutation run in `dir`/`out` with `env` before the command.
std::string K8PermutationSummary(const std::string& dir, const std::string& env, const std::string& out,
                                 const std::string& counters) {
  const std::string command = env + " " + ROCELAB_BINARY + " run " + ROCELAB_SOURCE_DIR +
                              "/scenarios/fat-tree-k8-permutation.yaml --quiet --counters " + counters + " --out " + dir + "/" + out;
  EXPECT_EQ(Shell(command).status, 0) << command;
  return ReadFile(dir + "/" + out + "/summary.json");
}

}  // namespace

// The event loop looks ahead only where the devices' state is larger than the caches, and
// looking ahead changes nothing the run computes: the same summary on or off.
TEST(CommandLine, LookaheadChangesNothingTheRunComputes) {
  const std::string dir = TempDir("cmd");
  auto run = [&](const std::string& env, const std::string& out) { return K8PermutationSummary(dir, env, out, "all"); };
  const std::string chosen = run("", "auto");
  const std::string on = run("ROCELAB_LOOKAHEAD=1", "on");
  const std::string off = run("ROCELAB_LOOKAHEAD=0", "off");
  EXPECT_FALSE(LookaheadOf(chosen)) << "a k=8 fabric's devices fit the caches";
  EXPECT_TRUE(LookaheadOf(on));
  EXPECT_FALSE(LookaheadOf(off));
  EXPECT_EQ(WithoutEngine(on), WithoutEngine(off));
  EXPECT_EQ(WithoutEngine(on), WithoutEngine(chosen));
}

// A run's heap is on transparent huge pages (src/cli/huge_pages.h) unless the user says
// otherwise, and the pages change nothing the run computes.
TEST(CommandLine, RunsOnHugePagesUnlessTold) {
#ifdef ROCELAB_SANITIZED
  GTEST_SKIP() << "a sanitizer brings its own allocator";
#endif
  if (!KernelOffersHugePages()) GTEST_SKIP() << "the kernel has transparent huge pages off";
  const std::string dir = TempDir("cmd");
  auto run = [&](const std::string& env, const std::string& out) { return K8PermutationSummary(dir, env, out, "none"); };
  const std::string huge = run("", "huge");
  const std::string off = run("ROCELAB_HUGE_PAGES=0", "off");
  const std::string users = run("GLIBC_TUNABLES=glibc.malloc.hugetlb=0", "users");
  // A k=8 fabric's heap is a dozen megabytes: several 2 MB pages of it.
  EXPECT_GE(HugePagesKbOf(huge), 2048u);
  EXPECT_EQ(HugePagesKbOf(off), 0u);
  EXPECT_EQ(HugePagesKbOf(users), 0u);  // the user's own setting of the tunable stands
  EXPECT_EQ(WithoutEngine(huge), WithoutEngine(off));
  EXPECT_EQ(WithoutEngine(huge), WithoutEngine(users));
}

}  // namespace rocelab
