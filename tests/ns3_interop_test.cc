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
#include "net/switch.h"
#include "run/experiment.h"
#include "file_util.h"

namespace rocelab {

namespace {

const std::string kData = std::string(ROCELAB_SHARED_DATA) + "/ns3-rdma/";
// That simulator's HPCC, DCTCP and TIMELY modes on the same inputs (docs/ns3-interop.md).
const std::string kModes = std::string(ROCELAB_SOURCE_DIR) + "/tests/data/ns3-cc-modes/";

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
  std::map<std::pair<int, int>, double> paused_us;  // (switch node id, port) -> time paused, us
  std::vector<double> flow_error;  // per flow: |our FCT / its FCT - 1|
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
      if (uint64_t n = s->port(p).counters.rx_pause[3]) {
        r.pfc_received[{std::stoi(s->name().substr(1)), p}] = n;
        r.paused_us[{std::stoi(s->name().substr(1)), p}] = static_cast<double>(s->port(p).RxPauseTime(3, x.fabric().now())) / 1e6;
      }
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
    r.flow_error.push_back(std::fabs(static_cast<double>(o.fct) / static_cast<double>(it->second->fct) - 1));
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
// 500 flows. `waived` names the (bucket, percentile) pairs that sit on a step of the distribution
// (docs/ns3-interop.md), where one flow more or less above it moves the value several-fold:
// those are gated by rank instead: the share of our flows slower than that simulator's value
// there is the percentile's own share within one point (or two flows, in a small bucket).
void Gate(const SideBySide& r, const std::vector<std::string>& buckets, const std::vector<std::string>& waived = {}) {
  for (const std::string& b : buckets)
    for (int i = 0; i < 3; ++i) {
      const std::string id = b + " p" + std::to_string(static_cast<int>(kPs[i] * 100));
      const std::vector<double>& ours = r.ours.at(b);
      if (i == 2 && ours.size() < 500) continue;
      const double theirs = Percentile(r.theirs.at(b), kPs[i]);
      if (std::find(waived.begin(), waived.end(), id) != waived.end()) {
        const double above = static_cast<double>(std::count_if(ours.begin(), ours.end(), [&](double s) { return s > theirs; })) /
                             static_cast<double>(ours.size());
        EXPECT_LE(std::fabs(above - (1 - kPs[i])), std::max(0.01, 2.0 / static_cast<double>(ours.size())))
            << id << ": " << above * 100 << " % of our flows are slower than ns-3's " << theirs;
        continue;
      }
      EXPECT_LE(std::fabs(r.Error(b, i)), kLimits[i]) << id << ": ours " << Percentile(ours, kPs[i]) << ", ns-3 " << theirs;
    }
}

// Flow by flow: with the same paths (Ns3Interop.FlowsTakeThatSimulatorsPaths) most flows finish
// within a few per cent of the time they take there. Half of them within `median` of it, and
// at least `share` of them within 5 %.
void ExpectFlowByFlow(SideBySide r, double median, double share) {
  std::sort(r.flow_error.begin(), r.flow_error.end());
  ASSERT_FALSE(r.flow_error.empty());
  const double mid = r.flow_error[r.flow_error.size() / 2];
  const double within = static_cast<double>(std::count_if(r.flow_error.begin(), r.flow_error.end(),
                                                          [](double e) { return e <= 0.05; })) /
                        static_cast<double>(r.flow_error.size());
  ::testing::Test::RecordProperty("flow_by_flow", "median error " + std::to_string(mid) + ", within 5 %: " + std::to_string(within));
  EXPECT_LE(mid, median);
  EXPECT_GE(within, share);
}

// Its PFC log (one line per PFC frame a device received: time, node, type 1 = switch,
// interface, pause/resume) against the PFC frames rocelab's switches received: about as many
// (within 30 %), on the same switches.
void ExpectPausesLikeItsLog(const SideBySide& r, const std::string& log_file) {
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
  // Flows take that simulator's paths, so the congestion trees are the same.
  std::set<int> both, either = ours_switches;
  for (int sw : theirs_switches) (ours_switches.count(sw) ? both : either).insert(sw);
  ::testing::Test::RecordProperty("paused_switches_in_common", std::to_string(both.size()) + " of " + std::to_string(either.size()));
  EXPECT_EQ(ours_switches, theirs_switches) << "paused switches in common: " << both.size() << " of " << either.size();
}

// Time paused per switch port in that simulator's PFC log: from each pause to the next resume.
std::map<std::pair<int, int>, double> PausedUsInItsLog(const std::string& log_file) {
  std::map<std::pair<int, int>, double> paused;
  std::map<std::pair<int, int>, uint64_t> since;
  std::istringstream log(Read(log_file));
  uint64_t t;
  int node, type, iface, pause;
  while (log >> t >> node >> type >> iface >> pause) {
    if (type != 1) continue;
    const std::pair<int, int> port{node, iface - 1};
    if (pause) {
      since.emplace(port, t);
    } else if (auto it = since.find(port); it != since.end()) {
      paused[port] += static_cast<double>(t - it->second) / 1e3;
      since.erase(it);
    }
  }
  return paused;
}

// That simulator's slowdown at percentile index i of `bucket` in one of its FCT files.
double ItsPercentile(const std::string& fct_file, const std::string& bucket, int i) {
  std::vector<double> slowdowns;
  for (const Bucket& b : kBuckets)
    if (b.name == bucket)
      for (const FctLine& l : ParseFct(Read(fct_file)))
        if (b.holds(l.size)) slowdowns.push_back(static_cast<double>(l.fct) / static_cast<double>(l.standalone));
  EXPECT_FALSE(slowdowns.empty()) << fct_file << " " << bucket;
  return slowdowns.empty() ? 0 : Percentile(slowdowns, kPs[i]);
}

// Where one run of that simulator is not a single answer, its own seeds (RngRun 1, 2, 3 of the
// same input) give the range rocelab must fall in, widened by the gate's limit at `i`.
void ExpectWithinItsSeeds(const SideBySide& r, const std::string& bucket, int i, const std::vector<std::string>& fct_files) {
  const double ours = Percentile(r.ours.at(bucket), kPs[i]);
  double lo = Percentile(r.theirs.at(bucket), kPs[i]), hi = lo;
  for (const std::string& f : fct_files) {
    const double v = ItsPercentile(f, bucket, i);
    lo = std::min(lo, v), hi = std::max(hi, v);
  }
  ::testing::Test::RecordProperty(bucket + "_p" + std::to_string(static_cast<int>(kPs[i] * 100)) + "_its_seeds",
                                  std::to_string(lo) + " to " + std::to_string(hi));
  EXPECT_GE(ours, lo * (1 - kLimits[i])) << bucket << " p" << kPs[i] * 100 << ": ours " << ours << ", its seeds " << lo << " to " << hi;
  EXPECT_LE(ours, hi * (1 + kLimits[i])) << bucket << " p" << kPs[i] * 100 << ": ours " << ours << ", its seeds " << lo << " to " << hi;
}

// Each switch port that one of that simulator's seeds keeps paused for more than 100 us is
// paused in rocelab for a time within the range of its seeds, give or take 10 %.
void ExpectPauseTimesWithinItsSeeds(const SideBySide& r, const std::vector<std::string>& pfc_logs) {
  std::vector<std::map<std::pair<int, int>, double>> seeds;
  std::set<std::pair<int, int>> ports;
  for (const std::string& f : pfc_logs) {
    seeds.push_back(PausedUsInItsLog(f));
    for (const auto& [port, us] : seeds.back()) ports.insert(port);
  }
  std::map<std::pair<int, int>, std::pair<double, double>> range;  // port -> (least, most) paused us
  for (const auto& port : ports) {
    std::vector<double> us;
    for (const auto& seed : seeds) us.push_back(seed.count(port) ? seed.at(port) : 0.0);
    range[port] = {*std::min_element(us.begin(), us.end()), *std::max_element(us.begin(), us.end())};
  }
  int checked = 0;
  for (const auto& [port, lh] : range) {
    if (lh.second < 100) continue;
    ++checked;
    const auto it = r.paused_us.find(port);
    const double ours = it == r.paused_us.end() ? 0 : it->second;
    EXPECT_GE(ours, lh.first * 0.9) << "s" << port.first << " port " << port.second << ": ours " << ours << " us, its seeds "
                                    << lh.first << " to " << lh.second;
    EXPECT_LE(ours, lh.second * 1.1) << "s" << port.first << " port " << port.second << ": ours " << ours << " us, its seeds "
                                     << lh.first << " to " << lh.second;
  }
  EXPECT_GT(checked, 0);
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
  ExpectFlowByFlow(r, 0.01, 0.9);
}

// The same 405 flows under that simulator's other congestion controls, each as its run.py sets
// it for 100G (tests/data/ns3-cc-modes/): HPCC (CC_MODE 3: INT records in its units, a window
// scaled with the rate), DCTCP (8: a window, marking at 300 KB) and TIMELY (7). Neither simulator
// pauses; the slowdowns agree within the DCQCN profile's gates, and flow by flow (measured: every
// percentile within 1 %).
void ExpectModeSideBySide(const std::string& mode, NicSpec::Cc cc) {
  const std::string dir = kModes + "websearch30-1ms/" + mode + "/";
  EXPECT_EQ(LoadNs3Config(dir + "config.txt").scenario.nic.cc, cc);
  SideBySide r = RunSideBySide(dir, 405);
  EXPECT_EQ(r.lossless_drops, 0u);
  EXPECT_TRUE(r.pfc_received.empty());
  EXPECT_EQ(r.off_data_queue, 0u);
  for (int i = 0; i < 3; ++i) EXPECT_LE(std::fabs(r.Error("all", i)), kLimits[i]) << mode << ": all p" << kPs[i] * 100;
  Gate(r, {"<100KB", "100KB-1MB", ">=1MB"});
  ExpectFlowByFlow(r, 0.01, 0.9);
}

TEST(Ns3Interop, HpccModeSideBySide) { ExpectModeSideBySide("hpcc", NicSpec::Cc::kHpcc); }
TEST(Ns3Interop, DctcpModeSideBySide) { ExpectModeSideBySide("dctcp", NicSpec::Cc::kDctcp); }
TEST(Ns3Interop, TimelyModeSideBySide) { ExpectModeSideBySide("timely", NicSpec::Cc::kTimely); }

// The same modes on the 1 ms run with its two 60-to-1 incasts of 500 KB (525 flows), where the
// algorithms meet contention: the same gates (p99 on the 525 flows overall). Under HPCC and
// DCTCP neither simulator pauses; under TIMELY both do, as often and on the same switches.
// Not gated, as for DCQCN (fewer than 500 flows): HPCC's long flows' p99 is 5.53 against 4.03
// there, the second slowest of 121.
SideBySide ExpectIncastModeSideBySide(const std::string& mode) {
  const std::string dir = kModes + "websearch30-1ms-incast/" + mode + "/";
  SideBySide r = RunSideBySide(dir, 525);
  EXPECT_EQ(r.lossless_drops, 0u);
  Gate(r, {"all", "<100KB", "100KB-1MB", ">=1MB"});
  ExpectFlowByFlow(r, 0.01, 0.9);
  return r;
}

TEST(Ns3Interop, HpccModeIncastSideBySide) { EXPECT_TRUE(ExpectIncastModeSideBySide("hpcc").pfc_received.empty()); }
TEST(Ns3Interop, DctcpModeIncastSideBySide) { EXPECT_TRUE(ExpectIncastModeSideBySide("dctcp").pfc_received.empty()); }
TEST(Ns3Interop, TimelyModeIncastSideBySide) {
  const SideBySide r = ExpectIncastModeSideBySide("timely");
  ExpectPausesLikeItsLog(r, kModes + "websearch30-1ms-incast/timely/ns3-pfc.txt");
}

// The same 1 ms plus two 60-to-1 incasts of 500 KB: where PFC acts. That simulator loses no
// lossless packet, nor may rocelab; pauses land on the same tier of switches, as often.
TEST(Ns3Interop, IncastRunSideBySide) {
  const std::string dir = kData + "dcqcn-websearch30-1ms-incast/";
  SideBySide r = RunSideBySide(dir, 525);
  EXPECT_EQ(r.lossless_drops, 0u);
  ExpectPausesLikeItsLog(r, dir + "ns3-pfc.txt");
  Gate(r, {"all", "<100KB", "100KB-1MB"});
  // 121 flows of 1 MB or more: the p95 is the seventh slowest, on a step from 4.4 to 3.3 in
  // that simulator's run (3.74, 3.57, 3.55 for rocelab's seeds 1, 2, 3 against its 3.30).
  Gate(r, {">=1MB"}, {">=1MB p95"});
  ExpectFlowByFlow(r, 0.01, 0.9);
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
  ExpectFlowByFlow(r, 0.01, 0.75);
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
  ExpectPausesLikeItsLog(r, dir + "ns3-pfc.txt");
  // The short flows' p95 falls on the step between those that cross a paused link (slowdown
  // above 20) and the rest: 681 of that simulator's 14,290 are above 20 and the p95 is the 715th
  // slowest, so 11 flows more above 20 (692 in rocelab's run) move it from 13.7 to 19.0. Which
  // short flows get ahead of a pause is decided by a few microseconds, and that simulator's own
  // seeds give 13.7, 18.0 and 15.7 (rocelab's seeds 1, 2, 3: 19.0, 16.1, 15.5). Gated by rank
  // against its first seed, within the range of its three, and their mean slowdown too.
  Gate(r, {"all", "100KB-1MB", ">=1MB"});
  Gate(r, {"<100KB"}, {"<100KB p95"});
  ExpectWithinItsSeeds(r, "<100KB", 1, {dir + "ns3-fct-rngrun2.txt", dir + "ns3-fct-rngrun3.txt"});
  ExpectPauseTimesWithinItsSeeds(r, {dir + "ns3-pfc.txt", dir + "ns3-pfc-rngrun2.txt", dir + "ns3-pfc-rngrun3.txt"});
  EXPECT_LE(std::fabs(r.MeanError("<100KB")), 0.20) << "<100KB mean: ours " << SideBySide::Mean(r.ours.at("<100KB"))
                                                     << ", ns-3 " << SideBySide::Mean(r.theirs.at("<100KB"));
  ExpectFlowByFlow(r, 0.01, 0.75);
}

// Every flow takes the path it takes in that simulator: the same switches and egress ports for
// its data and for its ACKs, read from that simulator's packet trace of 400 one-packet flows
// over the same fat-tree (tests/data/ns3-ecmp-paths/, docs/ns3-interop.md). It holds only when
// the hash, its key and seed, the hosts' addresses, the source ports and the order of each
// switch's next hops are all that simulator's.
TEST(Ns3Interop, FlowsTakeThatSimulatorsPaths) {
  const std::string dir = std::string(ROCELAB_SOURCE_DIR) + "/tests/data/ns3-ecmp-paths/";
  Ns3Run run = LoadNs3Config(dir + "config.txt");
  Experiment x(run.scenario);
  const Fabric& f = x.fabric();
  const Topology& topo = f.topology();
  std::map<uint32_t, uint32_t> host_of_ip;
  for (size_t h = 0; h < run.host_node_ids.size(); ++h)
    host_of_ip[Ns3HostIpv4(static_cast<uint32_t>(run.host_node_ids[h]))] = static_cast<uint32_t>(h);
  std::istringstream in(Read(dir + "ns3-paths.txt"));
  std::string line;
  int checked = 0, multipath = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream l(line);
    std::string kind, sip, dip, hop, theirs, ours;
    unsigned sport = 0, dport = 0;
    l >> kind >> sip >> dip >> sport >> dport;
    while (l >> hop) theirs += " " + hop;
    Packet probe{};
    probe.type = kind == "U" ? PacketType::kData : PacketType::kAck;
    probe.src = host_of_ip.at(static_cast<uint32_t>(std::stoul(sip, nullptr, 16)));
    probe.dst = host_of_ip.at(static_cast<uint32_t>(std::stoul(dip, nullptr, 16)));
    // A data packet carries the flow's ports as they are; an ACK carries them swapped.
    probe.udp_sport = static_cast<uint16_t>(kind == "U" ? sport : dport);
    probe.udp_dport = static_cast<uint16_t>(kind == "U" ? dport : sport);
    int node = topo.hosts()[probe.src], port = 0;
    for (int hops = 0; hops < 16; ++hops) {
      node = topo.nodes()[node].ports[port].peer_node;
      if (!topo.nodes()[node].is_switch) break;
      const Switch& s = static_cast<const Switch&>(f.device(node));
      if (topo.NextHops(node, static_cast<int>(probe.dst)).size > 1) ++multipath;
      port = s.Route(&probe);
      ASSERT_GE(port, 0) << line;
      ours += " " + s.name().substr(1) + ":" + std::to_string(port);
    }
    EXPECT_EQ(ours, theirs) << kind << " " << sip << " -> " << dip << " sport " << sport;
    ++checked;
  }
  EXPECT_EQ(checked, 800);       // 400 flows, each with its ACK
  EXPECT_GT(multipath, 1000);  // most hops had a choice to make
  // The flow file's numbering: a second flow between the same hosts takes the next port.
  EXPECT_EQ(f.qps()[0].udp_sport, 10000);
  EXPECT_EQ(f.qps()[10].udp_sport, 10001);
}

// summary.json's ideal FCT counts frames as the profile's NIC does (48 B of headers, 60 B ACKs,
// no preamble or gap): a flow alone in the fabric finishes at its ideal FCT, to within the
// nanosecond truncation of each transmission time.
TEST(Ns3Interop, ALoneFlowFinishesAtItsIdealFct) {
  Ns3Run run = LoadNs3Config(kData + "dcqcn-websearch30-1ms/config.txt");
  for (uint64_t size : {1000u, 2000u, 3000u, 5000u, 10000u, 24375u, 100000u, 1000000u}) {
    Scenario sc = run.scenario;
    sc.flows.resize(1);
    sc.flows[0].size = size;
    Experiment x(sc);
    x.Run();
    const QueuePair& qp = x.fabric().qps()[0];
    ASSERT_TRUE(qp.done);
    const double fct = static_cast<double>(qp.finish - qp.start), ideal = static_cast<double>(qp.ideal_fct);
    EXPECT_EQ(fct, ideal) << size << " B: FCT " << fct / kNanosecond << " ns, ideal " << ideal / kNanosecond;
  }
}

TEST(Ns3Interop, BadInputsAreClearErrors) {
  const std::string dir = TempDir("ns3");
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
  // HPCC mode: its per-hop rates (MULTI_RATE 1, that simulator's default) are refused by name.
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 3\n";
  try {
    LoadNs3Config(dir + "/config.txt");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "MULTI_RATE");
  }
  // ...and with one rate per QP, run.py's settings for `--cc hp` at 100G.
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 3\nMULTI_RATE 0\n"
                                        "U_TARGET 0.9\nMI_THRESH 0\nFAST_REACT 1\nSAMPLE_FEEDBACK 1\nINT_MULTI 4\n"
                                        "HAS_WIN 1\nVAR_WIN 1\nGLOBAL_T 0\nRATE_AI 40Mb/s\nRATE_BOUND 1\n";
  const Ns3Run hpcc = LoadNs3Config(dir + "/config.txt");
  const NicSpec& hn = hpcc.scenario.nic;
  EXPECT_EQ(hn.cc, NicSpec::Cc::kHpcc);
  EXPECT_DOUBLE_EQ(hn.hpcc.eta, 0.9);
  EXPECT_EQ(hn.hpcc.max_stage, 0);
  EXPECT_TRUE(hn.hpcc.fast_react);
  EXPECT_TRUE(hn.hpcc.sample_feedback);
  EXPECT_EQ(hn.hpcc.int_multi, 4u);
  EXPECT_EQ(hn.hpcc.int_format, IntFormat::Kind::kNs3);
  EXPECT_EQ(hn.hpcc.rate_ai_bps, 40000000ull);
  EXPECT_TRUE(hn.window.enabled);
  EXPECT_TRUE(hn.window.scale_with_rate);
  EXPECT_FALSE(hn.window.longest_base_rtt);
  EXPECT_EQ(hn.data_header_bytes + kIntHeaderBytes, 90u) << "its data header, 48 B, and the INT header";
  EXPECT_EQ(hn.ack_bytes + kIntHeaderBytes, 88u) << "its ACK: 14 + 20 + 12 B and the INT header";
  {
    Experiment run(hpcc.scenario);
    run.Run();
    ASSERT_TRUE(run.fabric().qps()[0].done);
    EXPECT_EQ(run.fabric().qps()[0].window_bdp, 2 * (2000 + 80) * 100 / 8u)
        << "the path's base RTT (1 us each way on two links, plus 1000 B at 100G on each) at 100G";
  }
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 1\nRATE_BOUND 0\n";
  EXPECT_THROW(LoadNs3Config(dir + "/config.txt"), ConfigError);
  // DCTCP mode: its gain, additive step and floor, its switches marking.
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 8\nEWMA_GAIN 0.0625\n"
                                        "DCTCP_RATE_AI 2000Mb/s\nMIN_RATE 50Mb/s\n";
  const Ns3Run dctcp = LoadNs3Config(dir + "/config.txt");
  EXPECT_EQ(dctcp.scenario.nic.cc, NicSpec::Cc::kDctcp);
  EXPECT_DOUBLE_EQ(dctcp.scenario.nic.dctcp.g, 0.0625);
  EXPECT_EQ(dctcp.scenario.nic.dctcp.rate_ai_bps, 2000000000ull);
  EXPECT_EQ(dctcp.scenario.nic.dctcp.min_rate_bps, 50000000ull);
  EXPECT_TRUE(dctcp.scenario.sw.ecn.enabled);
  // TIMELY mode: its steps; its per-ACK reaction is not modelled, so FAST_REACT 1 is refused.
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 7\nFAST_REACT 0\n"
                                        "RATE_AI 1000Mb/s\nRATE_HAI 5000Mb/s\n";
  const Ns3Run timely = LoadNs3Config(dir + "/config.txt");
  EXPECT_EQ(timely.scenario.nic.cc, NicSpec::Cc::kTimely);
  EXPECT_EQ(timely.scenario.nic.timely.rate_ai_bps, 1000000000ull);
  EXPECT_EQ(timely.scenario.nic.timely.rate_hai_bps, 5000000000ull);
  std::ofstream(dir + "/config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flows.txt\nCC_MODE 7\nFAST_REACT 1\n";
  EXPECT_THROW(LoadNs3Config(dir + "/config.txt"), ConfigError);
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
