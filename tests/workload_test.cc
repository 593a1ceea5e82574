// Workloads: incast, all-to-all and CDF traces, and the FCT slowdown they are judged by.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>

#include "test_util.h"
#include "workload/flow_size_cdf.h"
#include "topo/ideal_fct.h"
#include "workload/allreduce.h"
#include "workload/generators.h"
#include "workload/storage.h"
#include "file_util.h"

namespace rocelab {

namespace {
std::string Cdf(const char* name) { return std::string(ROCELAB_SHARED_DATA) + "/cdf/" + name; }

ConfigError ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return ConfigError("", 0, "", "");
}

std::string FatTreeTrace(double load, const std::string& extra = "") {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "seed: 3\nduration: 50ms\n"
                "topology: {type: fat-tree, k: 4, link: {rate: 100G, delay: 1us}}\n"
                "nic: {mtu: 4096, cc: dcqcn}\n"
                "workload:\n  - {type: trace, cdf: %s, load: %.2f, duration: 5ms%s}\n",
                Cdf("WebSearch_distribution.txt").c_str(), load, extra.c_str());
  return buf;
}
}  // namespace

TEST(FlowSizeCdf, LoadsTheReferenceDistributions) {
  FlowSizeCdf ws = FlowSizeCdf::Load(Cdf("WebSearch_distribution.txt"));
  FlowSizeCdf fb = FlowSizeCdf::Load(Cdf("FbHdp_distribution.txt"));
  EXPECT_GT(ws.MeanBytes(), 1e6);  // WebSearch is heavy-tailed: about 1.6 MB on average
  EXPECT_LT(fb.MeanBytes(), ws.MeanBytes());
  // The sample mean converges to the distribution's mean.
  Rng rng(1, 2);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += static_cast<double>(ws.Sample(rng));
  EXPECT_NEAR(sum / n / ws.MeanBytes(), 1.0, 0.03);
}

TEST(FlowSizeCdf, BadFilesNameTheLine) {
  ConfigError a = ErrorOf([] { FlowSizeCdf::Parse("0 0\n100 50\n90 60\n200 100\n", "c.txt"); });
  EXPECT_EQ(a.line(), 3);
  EXPECT_NE(std::string(a.what()).find("not monotone"), std::string::npos);
  ConfigError b = ErrorOf([] { FlowSizeCdf::Parse("0 0\n100 50\n", "c.txt"); });
  EXPECT_NE(std::string(b.what()).find("100 percent"), std::string::npos);
  ConfigError c = ErrorOf([] { FlowSizeCdf::Parse("0 0\n100 fifty\n", "c.txt"); });
  EXPECT_EQ(c.line(), 2);
  ConfigError d = ErrorOf([] { FlowSizeCdf::Load("/nonexistent/cdf.txt"); });
  EXPECT_EQ(d.file(), "/nonexistent/cdf.txt");
}

TEST(Workload, LoneFlowFctEqualsTheIdealFct) {
  for (const char* size : {"1KB", "5000B", "100KB", "3MB", "3000001B"}) {
    auto f = RunYaml("duration: 10ms\n" + ExampleFabric() + "workload:\n  - {type: flow, src: h0, dst: h9, size: " + size + "}\n");
    const QueuePair& qp = f->qps()[0];
    ASSERT_TRUE(qp.done);
    EXPECT_EQ(qp.finish - qp.start, qp.ideal_fct) << size;
  }
}

TEST(Workload, IncastAndAllToAll) {
  auto f = RunYaml("duration: 50ms\n" + ExampleFabric("  pfc: {enabled: true}\n") +
                   "workload:\n"
                   "  - {type: incast, senders: 15, dst: h0, size: 256KB, start: 10us, jitter: 5us}\n"
                   "  - {type: all-to-all, hosts: [h2, h9, h12], size: 64KB, start: 1ms}\n");
  ASSERT_EQ(f->qps().size(), 15u + 6u);
  for (size_t i = 0; i < 15; ++i) {
    const QueuePair& qp = f->qps()[i];
    EXPECT_EQ(qp.dst, 0u);
    EXPECT_GE(qp.start, 10 * kMicrosecond);
    EXPECT_LE(qp.start, 15 * kMicrosecond);
    EXPECT_TRUE(qp.done);
  }
  Totals t = ComputeTotals(*f);
  EXPECT_EQ(t.bytes_delivered, 15u * 256 * 1024 + 6u * 64 * 1024);
  EXPECT_EQ(t.drops_lossless, 0u);
}

// 3 senders with 32 queue pairs each into one receiver: the receiver's link carries all of it
// at line rate, and each sender's NIC shares its link among its queue pairs round robin, so
// they all finish together near the end instead of one after another.
TEST(Workload, IncastQueuePairsShareTheirSendersLink) {
  auto f = RunYaml("duration: 50ms\n" +
                   ExampleFabric("  pfc: {enabled: true}\n  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n",
                                 "{mtu: 4096, cc: dcqcn}") +
                   "workload:\n  - {type: incast, senders: 3, qps: 32, dst: h0, size: 128KB}\n");
  ASSERT_EQ(f->qps().size(), 96u);
  Time last = 0, first = kTimeNever;
  for (const QueuePair& qp : f->qps()) {
    ASSERT_TRUE(qp.done);
    EXPECT_EQ(qp.src, 1 + qp.id / 32);
    last = std::max(last, qp.finish - qp.start);
    first = std::min(first, qp.finish - qp.start);
  }
  Totals t = ComputeTotals(*f);
  EXPECT_EQ(t.bytes_delivered, 96u * 128 * 1024);
  EXPECT_EQ(t.drops_lossless, 0u);
  // Every payload byte crosses the receiver's 100G link: 1,006.6 us at the least.
  const Time bound = static_cast<Time>(96.0 * 128 * 1024 * 8 / 100e9 * kSecond);
  EXPECT_GE(last, bound);
  EXPECT_LE(last, bound * 105 / 100);
  EXPECT_GE(first, last * 9 / 10) << "a queue pair finished long before the others";
}

TEST(Workload, TraceArrivalsMatchTheLoad) {
  Scenario sc = ParseScenarioText(FatTreeTrace(0.3), "t.yaml");
  Topology topo = Topology::Build(sc.topology);
  std::vector<FlowRequest> flows = GenerateFlows(sc, topo);
  const double mean = FlowSizeCdf::Load(Cdf("WebSearch_distribution.txt")).MeanBytes();
  const double expected = 0.3 * 100e9 * 5e-3 * 16 / (8 * mean);  // flows = load x rate x time x hosts / size
  EXPECT_NEAR(static_cast<double>(flows.size()), expected, 4 * std::sqrt(expected));
  double bytes = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    EXPECT_NE(flows[i].src, flows[i].dst);
    EXPECT_LT(flows[i].start, 5 * kMillisecond);
    if (i) {
      EXPECT_GE(flows[i].start, flows[i - 1].start);
    }
    bytes += static_cast<double>(flows[i].size);
  }
  EXPECT_NEAR(bytes * 8 / (16 * 100e9 * 5e-3), 0.3, 0.12);  // offered load
}

TEST(Workload, SlowdownGrowsWithLoadAndSmallFlowsStayNearOne) {
  auto low = RunYaml(FatTreeTrace(0.3));
  auto high = RunYaml(FatTreeTrace(0.6));
  std::vector<SlowdownRow> a = SlowdownTable(*low), b = SlowdownTable(*high);
  ASSERT_EQ(a[0].bucket, "all");
  ASSERT_EQ(a[1].bucket, "<10KB");
  EXPECT_GT(a[0].count, 100u);
  EXPECT_LT(a[1].p50, 1.5) << "small flows at 30 % load";
  EXPECT_GE(a[1].p50, 1.0);
  EXPECT_GT(b[0].p50, a[0].p50) << "median slowdown grows with load";
  EXPECT_GT(b[0].p95, a[0].p95);
  const std::string json = SummaryJson(*low.run);
  EXPECT_NE(json.find("\"fct_slowdown\""), std::string::npos);
  EXPECT_NE(json.find("\"bucket\": \">=1MB\""), std::string::npos);
}

TEST(Workload, BadInputIsAClearError) {
  ConfigError a = ErrorOf([] {
    ParseScenarioText("topology: {type: fat-tree, k: 4}\nworkload:\n  - {type: trace, cdf: x.txt, load: 0.3, duration: 1ms, hosts: [h0, h99]}\n", "w.yaml");
  });
  EXPECT_EQ(a.line(), 3);
  EXPECT_NE(std::string(a.what()).find("h99"), std::string::npos);
  ConfigError b = ErrorOf([] {
    ParseScenarioText("topology: {type: fat-tree, k: 4}\nworkload:\n  - {type: incast, senders: [h1, h0], dst: h0, size: 1MB}\n", "w.yaml");
  });
  EXPECT_NE(std::string(b.what()).find("receiver cannot also be a sender"), std::string::npos);
  // A CDF path is resolved next to the scenario, and its own errors name the CDF file and line.
  const std::string dir = TempDir("wl");
  std::ofstream(dir + "/bad.cdf") << "0 0\n500 70\n400 80\n1000 100\n";
  std::ofstream(dir + "/s.yaml") << "topology: {type: fat-tree, k: 4}\nworkload:\n  - {type: trace, cdf: bad.cdf, load: 0.3, duration: 1ms}\n";
  ConfigError c = ErrorOf([&] {
    Scenario sc = LoadScenarioFile(dir + "/s.yaml");
    Experiment x(sc);
  });
  EXPECT_EQ(c.file(), dir + "/bad.cdf");
  EXPECT_EQ(c.line(), 3);
}

}  // namespace rocelab

namespace rocelab {

TEST(Allreduce, RingTimeAndBusBandwidthMatchTheLinkGoodput) {
  auto f = RunYaml(
      "duration: 1s\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 8, host_link: {rate: 100G, delay: 1us}}\n"
      "nic: {mtu: 4096, cc: dcqcn}\n"
      "workload:\n"
      "  - {type: allreduce, hosts: [h0, h1, h2, h3, h4, h5, h6, h7], size: 64MB, slice: 1MB, iterations: 2, compute: 500us}\n");
  ASSERT_EQ(f.run->drivers().size(), 1u);
  const auto& a = dynamic_cast<const AllreduceDriver&>(*f.run->drivers()[0]);
  ASSERT_EQ(a.iteration_times().size(), 2u);
  const double n = 8, bytes = 64.0 * 1024 * 1024;
  // Link goodput: 4096 B of payload in every 4178 B on the wire (headers 62, preamble and IFG 20).
  const double goodput_Bps = 100e9 / 8 * 4096 / 4178;
  const double analytic_s = 2 * (n - 1) / n * bytes / goodput_Bps;  // plus latency terms of microseconds
  for (Time t : a.iteration_times()) {
    const double s = static_cast<double>(t) / kSecond;
    EXPECT_GE(s, analytic_s);
    EXPECT_LE(s, 1.05 * analytic_s) << "iteration " << s * 1e3 << " ms, analytic " << analytic_s * 1e3 << " ms";
  }
  EXPECT_NEAR(a.BusBwBytesPerSecond() / goodput_Bps, 1.0, 0.05);
  EXPECT_NEAR(a.AlgBwBytesPerSecond() * 2 * (n - 1) / n, a.BusBwBytesPerSecond(), 1.0);
  const double comm = static_cast<double>(a.iteration_times()[0] + a.iteration_times()[1]);
  EXPECT_NEAR(a.GpuBusy(), 2 * 500e6 / (2 * 500e6 + comm), 1e-9);
  EXPECT_EQ(ComputeTotals(*f).drops_lossless, 0u);
  const std::string json = SummaryJson(*f.run);
  EXPECT_NE(json.find("\"busbw_GBps\""), std::string::npos);
  EXPECT_EQ(json.find("\"state\": \"unfinished\""), std::string::npos);  // driver QPs are not flows
  // The terminal line prints the mean time beside the algbw of that same mean (nccl-tests).
  const std::string line = a.ReportLine();
  double mean_us = 0, lo = 0, hi = 0, algbw = 0;
  ASSERT_EQ(std::sscanf(line.substr(line.find("time mean")).c_str(), "time mean %lf us (min %lf, max %lf), algbw %lf", &mean_us,
                        &lo, &hi, &algbw),
            4)
      << line;
  EXPECT_NEAR(mean_us, (static_cast<double>(a.iteration_times()[0] + a.iteration_times()[1]) / 2) / kMicrosecond, 0.05);
  EXPECT_NEAR(bytes / (mean_us * 1e-6) / 1e9, algbw, 0.01) << line;
  EXPECT_LE(lo, mean_us);
  EXPECT_GE(hi, mean_us);
}

// A ring whose queue pairs fail has ended its own work, not the run: a flow beside it goes on.
// h1's MTU drops to 1500, the ring's 4 KB frames through it are dropped and its queue pairs
// exhaust their retries (4.096 us x 2^10 x 2) at about 8.5 ms; h3 -> h4's 200 MB take 17 ms.
TEST(Allreduce, AFailedRingEndsItsWorkNotTheFlowsBesideIt) {
  TestRun f = RunYaml(
      "duration: 50ms\ntopology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 5}\n"
      "nic: {timeout: 10, retry_count: 1}\nlifecycle: {counterfactual: false}\n"
      "workload:\n  - {type: allreduce, hosts: [h0, h1, h2], size: 1MB, iterations: 1000}\n"
      "  - {type: flow, src: h3, dst: h4, size: 200MB}\n"
      "faults:\n  - {kind: mtu, target: h1, at: 100us, mtu: 1500}\n");
  int failed = 0;
  Time last_failure = 0;
  for (const QueuePair& qp : f->qps())
    if (qp.failed) ++failed, last_failure = std::max(last_failure, qp.finish);
  EXPECT_GE(failed, 1) << "the ring's queue pairs through h1 fail";
  const QueuePair& flow = f->qps()[0];
  ASSERT_TRUE(flow.done) << "the flow beside the failed ring finishes";
  EXPECT_GT(flow.finish, last_failure);
  EXPECT_NEAR(static_cast<double>(flow.finish) / static_cast<double>(kMillisecond), 17.1, 0.5);
}

TEST(Allreduce, RingWithTheSameHostTwiceIsAnError) {
  try {
    ParseScenarioText("topology: {type: fat-tree, k: 4}\nworkload:\n  - {type: allreduce, hosts: [h0, h1, h0], size: 1MB}\n", "a.yaml");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("twice"), std::string::npos);
  }
}

}  // namespace rocelab

namespace rocelab {

TEST(Storage, IopsRisesWithQueueDepthUntilTheTargetSaturates) {
  std::vector<double> iops;
  for (int qd : {1, 4, 16, 64, 256}) {
    auto f = RunYaml("duration: 1s\n"
                     "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 4, host_link: {rate: 100G, delay: 1us}}\n"
                     "workload:\n  - {type: storage, clients: [h0], targets: [h1], queue_depth: " + std::to_string(qd) +
                     ", service_time: 80us, parallelism: 32, duration: 20ms}\n");
    ASSERT_EQ(f.run->drivers().size(), 1u);
    const auto& s = dynamic_cast<const StorageDriver&>(*f.run->drivers()[0]);
    iops.push_back(s.Iops());
    EXPECT_GT(s.LatencyPercentileUs(0.99), s.LatencyPercentileUs(0.5));
    EXPECT_GE(s.LatencyPercentileUs(0.999), s.LatencyPercentileUs(0.99));
  }
  for (size_t i = 1; i < 4; ++i) EXPECT_GT(iops[i], 1.5 * iops[i - 1]) << "queue depth step " << i;
  // The device serves 32 I/Os at a time for 80 us on average: at most 400,000 IOPS.
  EXPECT_NEAR(iops[3] / 400000.0, 1.0, 0.1);
  EXPECT_NEAR(iops[4] / iops[3], 1.0, 0.05) << "saturated";
  // At depth 1 an I/O is one service time plus a few microseconds of network.
  EXPECT_NEAR(iops[0], 1e6 / (80 + 6), 1e6 / (80 + 6) * 0.15);
}

}  // namespace rocelab

namespace rocelab {

TEST(Background, EtsSharesTheLinkBetweenRoceAndALossyTcpLikeClass) {
  auto f = RunYaml(
      "duration: 20ms\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 3, host_link: {rate: 100G, delay: 1us}}\n"
      "switch: {buffer: 4MB}\n"
      "nic: {mtu: 4096, cc: none}\n"
      "workload:\n"
      "  - {type: flow, src: h0, dst: h2, size: 4GB}\n"
      "  - {type: background, src: h1, dst: h2, size: 4GB, rto: 1ms}\n");
  const double roce = static_cast<double>(f->qps()[0].delivered), tcp = static_cast<double>(f->qps()[1].delivered);
  // ETS: queue 3 (RoCE) has weight 40, queue 0 (best effort) 10 -> 80 % / 20 % while both are backlogged.
  EXPECT_NEAR(roce / (roce + tcp), 0.8, 0.05) << roce << " / " << tcp;
  EXPECT_GT((roce + tcp) * 8 / 20e-3 / 1e9, 90.0);  // the receiver's link stays full
  Totals t = ComputeTotals(*f);
  EXPECT_EQ(t.drops_lossless, 0u);
  EXPECT_GT(t.drops_lossy, 0u);  // the TCP-like class probes the buffer and loses packets
  EXPECT_GT(f->nic("h1").rdma().retransmitted_packets, 0u);
  EXPECT_EQ(f->nic("h0").rdma().retransmitted_packets, 0u);
  EXPECT_NE(SummaryJson(*f.run).find("\"transport\": \"tcp-like\""), std::string::npos);
}

}  // namespace rocelab
