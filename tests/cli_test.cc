// The rocelab command: exit statuses, error text, and no partial output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "file_util.h"

namespace {

using rocelab::CommandResult;

CommandResult RunCli(const std::string& args) { return rocelab::Rocelab(args); }

// Where a run is told to write: a path inside a fresh folder, not yet made.
std::string OutDir(const std::string& tag) { return rocelab::TempDir("cli") + "/" + tag; }

using rocelab::Exists;

std::string WriteScenario(const std::string& dir, const std::string& text) {
  std::string path = dir + ".yaml";
  std::ofstream(path) << text;
  return path;
}

const char* kGood =
    "name: two-hosts\n"
    "duration: 1ms\n"
    "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2,\n"
    "           host_link: {rate: 100G, delay: 1us}}\n"
    "workload:\n"
    "  - {type: flow, src: h0, dst: h1, size: 64KB}\n";

}  // namespace

TEST(Cli, RunWritesSummary) {
  std::string dir = OutDir("out");
  std::string file = WriteScenario(dir, kGood);
  CommandResult r = RunCli("run " + file + " --out " + dir);
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(dir + "/summary.json");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string json = ss.str();
  for (const char* key : {"\"scenario\": \"two-hosts\"", "\"sim_time_ns\"", "\"engine\"", "\"packet_hops\"", "\"flows\"",
                          "\"fct_ns\"", "\"goodput_gbps\"", "\"totals\"", "\"drops_lossless\"", "\"hosts\"",
                          "\"switches\"", "\"tx_prio3_pause\"", "\"SAI_PORT_STAT_PFC_3_TX_PKTS\"", "\"np_cnp_sent\""})
    EXPECT_NE(json.find(key), std::string::npos) << key;
  EXPECT_FALSE(Exists(dir + "/summary.json.tmp"));
}

TEST(Cli, BadInputExitsTwoNamesTheSpotAndWritesNothing) {
  std::string dir = OutDir("out");
  std::string text = kGood;
  text.replace(text.find("size: 64KB"), 10, "size: 64");
  std::string file = WriteScenario(dir, text);
  CommandResult r = RunCli("run " + file + " --out " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find(file + ":6:36: key 'workload[0].size': "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no unit"), std::string::npos) << r.output;
  EXPECT_FALSE(Exists(dir));
}

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(RunCli("").status, 2);
  EXPECT_EQ(RunCli("frobnicate").status, 2);
  EXPECT_EQ(RunCli("run").status, 2);
  EXPECT_EQ(RunCli("run /nonexistent/file.yaml --out /tmp/x-never").status, 2);
  EXPECT_EQ(RunCli("demo").status, 2);  // --out missing
  EXPECT_EQ(RunCli("demo --out /tmp/x --seed abc").status, 2);
  EXPECT_EQ(RunCli("version").status, 0);
}

TEST(Cli, GarbageFilesNeverCrash) {
  std::string dir = OutDir("out");
  const char* inputs[] = {"", "\x01\x02\x03", "- - - -\n", "{", "a: [1, 2", "topology: 5\n", "::::\n",
                          "topology: {type: fat-tree, k: 3}\n", "topology: {type: fat-tree, k: 200}\n",
                          "workload: {a: 1}\ntopology: {type: spine-leaf}\n"};
  int i = 0;
  for (const char* in : inputs) {
    std::string file = WriteScenario(dir + std::to_string(i++), in);
    CommandResult r = RunCli("run " + file + " --out " + dir);
    EXPECT_EQ(r.status, 2) << "input: " << in << "\n" << r.output;
    EXPECT_NE(r.output.find(file), std::string::npos) << r.output;
  }
  EXPECT_FALSE(Exists(dir));
}

TEST(Cli, DemoRuns) {
  std::string dir = OutDir("demo");
  CommandResult r = RunCli("demo --out " + dir);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("packet-hops/s"), std::string::npos);
  EXPECT_TRUE(Exists(dir + "/summary.json"));
  // The story: the storm, detected and localized at h0, the T2 action on the port facing h0,
  // recovery and its MTTR, the ring's lost time and its price.
  EXPECT_NE(r.output.find("fault_injected   pfc_storm on h0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fault pfc_storm on h0: injected at 3.000 ms, detected at 3.100 ms by pfc.pause_storm at h0"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  action at 3.100 ms: T2 ignore h0's pause at leaf0:Ethernet0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("leaf0:Ethernet0      recovery_action  T2 ignore h0's pause"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  recovered at "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" (MTTR "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  cost: 512 GPUs × "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("allreduce: 6 ranks, 16777216 B, 10 iteration(s)"), std::string::npos) << r.output;
  // The closing diagnosis is the storm the monitor found; the flows into h0 that ran out of
  // retries are what the action caused (tests/run_account_test.cc).
  EXPECT_NE(r.output.find("diagnosis: T2 pfc.pause_storm at h0 (mlx5_0/eth0): pause storm: this NIC pauses its switch 100 %"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("diagnosis: and 5 findings the recovery caused (rocelab diagnose " + dir + ")"), std::string::npos)
      << r.output;
}

namespace rocelab {

// The shipped scenarios say what they show: dcqcn-two-flows prints the two flows' converged
// shares (their rates over the last fifth of the run), each near half of the 100G link.
TEST(Cli, TwoFlowScenarioPrintsItsConvergedShares) {
  CommandResult r = RunCli("run " + std::string(ROCELAB_SOURCE_DIR) + "/scenarios/dcqcn-two-flows.yaml --out " + OutDir("two"));
  ASSERT_EQ(r.status, 0) << r.output;
  double total = 0;
  int flows = 0;
  for (size_t at = r.output.find("still running: "); at != std::string::npos; at = r.output.find("still running: ", at + 1)) {
    const double gbps = std::atof(r.output.c_str() + at + 15);
    EXPECT_NEAR(gbps, 48.8, 4.0) << r.output;
    total += gbps;
    ++flows;
  }
  EXPECT_EQ(flows, 2) << r.output;
  EXPECT_GT(total, 95.0) << r.output;
}

// plan ecn states what it assumed and uses it: a longer cable needs a larger lossless profile.
TEST(Cli, PlanEcnTakesCableAndAsic) {
  CommandResult five = RunCli("plan ecn --speed 100G --rtt 10us --ports 1 --json");
  CommandResult forty = RunCli("plan ecn --speed 100G --rtt 10us --ports 1 --cable 40m --asic spectrum1 --json");
  ASSERT_EQ(five.status, 0) << five.output;
  ASSERT_EQ(forty.status, 0) << forty.output;
  EXPECT_NE(five.output.find("5m of cable on spectrum2"), std::string::npos) << five.output;
  EXPECT_NE(forty.output.find("40m of cable on spectrum1"), std::string::npos) << forty.output;
  EXPECT_NE(forty.output.find("pg_lossless_100000_40m_profile"), std::string::npos);
  EXPECT_NE(five.output, forty.output);
  EXPECT_EQ(RunCli("plan ecn --speed 100G --rtt 10us --asic tomahawk").status, 2);
}

// plan ecn reads in a screen: a line per table of what the switch gets, the whole config_db
// only when asked.
TEST(Cli, PlanEcnIsAShortSummaryUnlessTheConfigDbIsAskedFor) {
  CommandResult brief = RunCli("plan ecn --speed 100G --rtt 10us");
  ASSERT_EQ(brief.status, 0) << brief.output;
  EXPECT_LT(std::count(brief.output.begin(), brief.output.end(), '\n'), 40) << brief.output;
  EXPECT_EQ(brief.output.find("\"BUFFER_PG\""), std::string::npos);
  EXPECT_NE(brief.output.find("green_min_threshold 62500, green_max_threshold 250000"), std::string::npos) << brief.output;
  EXPECT_NE(brief.output.find("PFC_WD: detection 200 ms, restoration 200 ms, action drop; POLL_INTERVAL 100 ms"),
            std::string::npos)
      << brief.output;
  CommandResult full = RunCli("plan ecn --speed 100G --rtt 10us --config-db");
  ASSERT_EQ(full.status, 0);
  EXPECT_NE(full.output.find("\"BUFFER_PG\""), std::string::npos);
  EXPECT_NE(full.output.find("\"POLL_INTERVAL\": \"100\""), std::string::npos);
}

// The lossless pool is sized from the ASIC's buffer less the headroom every lossless PG
// reserves, not as the sum of the headroom profiles (which leaves nothing shared); a pool that
// does not fit, an ASIC whose buffer is not published, and headroom beyond the buffer are refused.
TEST(Cli, PlanEcnSizesTheLosslessPoolFromTheAsicsBuffer) {
  auto pool = [](const std::string& args) -> long long {
    CommandResult r = RunCli("plan ecn --speed 100G --rtt 10us --json " + args);
    EXPECT_EQ(r.status, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(r.output);
    return std::stoll(j["config_db"]["BUFFER_POOL"]["ingress_lossless_pool"]["size"].get<std::string>());
  };
  const long long profile = 67584;  // pg_lossless_100000_5m_profile on Spectrum-2 (plan headroom)
  EXPECT_EQ(pool(""), (42ll << 20) - 32 * profile);
  EXPECT_NE(pool(""), 32 * profile);
  EXPECT_EQ(pool("--asic spectrum1 --ports 8"), (16ll << 20) - 8 * 63488) << "Spectrum-1's 16 MB, its own profile";
  EXPECT_EQ(pool("--asic spectrum4 --buffer 160MB --ports 4"), (160ll << 20) - 4 * 68608);
  EXPECT_EQ(pool("--lossless-pool 20MB"), 20ll << 20);
  CommandResult brief = RunCli("plan ecn --speed 100G --rtt 10us");
  EXPECT_NE(brief.output.find("BUFFER_POOL ingress_lossless_pool: size 41877504 (the 42.0 MB buffer less 32 ports x 1 PG x "
                              "67584 B of headroom)"),
            std::string::npos)
      << brief.output;
  for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
           {"--asic spectrum4", "not published: give it with --buffer"},
           {"--lossless-pool 50MB", "more than the 41877504 B the buffer"},
           {"--asic spectrum1 --ports 512 --cable 300m", "does not fit the 16777216 B buffer"}}) {
    CommandResult r = RunCli("plan ecn --speed 100G --rtt 10us " + args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.output.find(says), std::string::npos) << r.output;
  }
}

// plan headroom says what its small-packet share is: of the packets (the option), the mean
// packet it makes with the lossless MTU, the share SONiC counts at the worst case, and why.
TEST(Cli, PlanHeadroomExplainsTheSmallPacketShare) {
  const std::string base = "plan headroom --speed 100G --cable 100m --mtu 4096 --model sonic-mellanox";
  CommandResult half = RunCli(base);
  ASSERT_EQ(half.status, 0) << half.output;
  for (const char* says : {"50 % of packets are 64 B (--small-packet-percentage), the rest the 1024 B lossless MTU",
                           "a mean packet of 544.0 B", "s = 100 x 64 / 544.0 = 11.7647 %",
                           "3 times over (a 64 B packet fills a whole 144 B cell", "(100 - s + 3 s) / 100 = 1.235294"})
    EXPECT_NE(half.output.find(says), std::string::npos) << says << "\n" << half.output;
  CommandResult all = RunCli(base + " --small-packet-percentage 100 --asic spectrum1");
  ASSERT_EQ(all.status, 0) << all.output;
  EXPECT_NE(all.output.find("s = 100 x 64 / 64.0 = 100.0000 %"), std::string::npos) << all.output;
  EXPECT_NE(all.output.find("a whole 96 B cell"), std::string::npos) << all.output;
}

// The 802.1Qbb plan takes the share of 64 B frames as the switch's auto headroom does
// (switch.pfc.small_packet_percentage): at 100 it is the switch's 209,920 B for 100G over 200 m of
// cable (1 us) with 256 B cells, and covers the burst it warns of at 0.
TEST(Cli, PlanHeadroomIeeeTakesTheSwitchsShareOfSmallFrames) {
  const std::string base = "plan headroom --speed 100G --cable 200m --mtu 9234 --cell 256B --roce-mtu 4096 --json";
  CommandResult data = RunCli(base), small = RunCli(base + " --small-packet-percentage 100");
  ASSERT_EQ(data.status, 0) << data.output;
  ASSERT_EQ(small.status, 0) << small.output;
  const nlohmann::json d = nlohmann::json::parse(data.output), s = nlohmann::json::parse(small.output);
  EXPECT_EQ(d["xoff"], 72192);
  EXPECT_EQ(d["small_frame_burst"]["overflows"], true);
  EXPECT_EQ(s["xoff"], 209920);
  EXPECT_EQ(s["small_packet_percentage"], 100);
  EXPECT_EQ(s["small_frame_burst"]["overflows"], false);
  EXPECT_EQ(RunCli(base + " --small-packet-percentage 101").status, 2);
}

}  // namespace rocelab
