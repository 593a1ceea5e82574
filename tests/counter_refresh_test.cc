// The monitor reads counters as production collectors do: each switch's
// counter groups as its last poll wrote them, each device on its own clock
// (run/counter_db.h), and the rules hold up on a healthy fabric read that way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "run/monitor.h"
#include "util/config_error.h"
#include "test_util.h"

namespace rocelab {
namespace {

// A healthy k=4 fat-tree under WebSearch at `load`; production polls and scrape, all timers at
// 1/100 (10 s of production in 100 ms).
std::string HealthyWebSearch(double load, const std::string& monitor) {
  return "duration: 100ms\nseed: 7\ntimers: {scale: 0.01}\nmonitor: " + monitor +
         "\n"
         "topology: {type: fat-tree, k: 4, link: {rate: 100G, delay: 1us}}\n"
         "nic: {mtu: 4096, cc: dcqcn}\n"
         "workload:\n  - {type: trace, cdf: " + std::string(ROCELAB_SHARED_DATA) +
         "/cdf/WebSearch_distribution.txt, load: " + std::to_string(load) + ", duration: 100ms}\n";
}

// Every window's evidence, as the monitor handed it on.
std::vector<std::pair<Time, Evidence>> Windows(TestRun& f) {
  std::vector<std::pair<Time, Evidence>> out;
  f.run->monitor()->SetOnWindow([&](const Evidence& ev) { out.push_back({f->now(), ev}); });
  f.run->Run();
  return out;
}

TEST(CounterRefresh, EachSwitchIsReadAsItsLastPortPollWroteIt) {
  TestRun f = StartYaml(HealthyWebSearch(0.3, "{}"));
  const Time window = f.run->monitor()->window();
  EXPECT_EQ(window, 10 * kMillisecond) << "the default scrape is the port poll, 1 s scaled";
  const std::vector<std::pair<Time, Evidence>> windows = Windows(f);
  ASSERT_GE(windows.size(), 9u);
  std::map<std::string, std::set<double>> lag;  // device -> how long before the window end it was read
  for (const auto& [end, ev] : windows)
    for (const PortEvidence& p : ev.ports) {
      const double end_s = static_cast<double>(end) / kSecond;
      ASSERT_GE(p.read_s, 0) << p.device;
      EXPECT_LE(p.read_s, end_s + 1e-12) << p.device;
      EXPECT_GT(p.read_s, end_s - 0.010 - 1e-12) << p.device << " read within one poll of the scrape";
      lag[p.device].insert(std::round((end_s - p.read_s) * 1e9));
    }
  // A device's polls keep their phase; nothing lines two devices up.
  std::set<double> lags;
  for (const auto& [device, l] : lag) {
    EXPECT_EQ(l.size(), 1u) << device << " polls on its own steady clock";
    lags.insert(*l.begin());
  }
  EXPECT_GE(lags.size(), lag.size() - 1) << "the devices' polls are not lined up";
  EXPECT_GT(*lags.rbegin(), 1e6) << "some device was read more than 1 ms (100 ms of production) before the scrape";
}

TEST(CounterRefresh, AQueueCounterHoldsItsLastPollBetweenPolls) {
  TestRun f = StartYaml(HealthyWebSearch(0.5, "{counterpoll: {queue: 5s}}"));
  const std::vector<std::pair<Time, Evidence>> windows = Windows(f);
  // A switch's queue counters move once in 50 ms (5 s scaled): between two polls the monitor
  // carries the last polls' rate, so the queue's packets per window change only at a poll.
  const std::string port = "edge0";
  std::vector<double> packets;
  for (const auto& [end, ev] : windows)
    for (const PortEvidence& p : ev.ports)
      if (p.device == port && p.is_switch && p.queues.count("UC3") && p.peer == "agg0")
        packets.push_back(p.queues.at("UC3").at("SAI_QUEUE_STAT_PACKETS"));
  ASSERT_GE(packets.size(), 8u);
  int changes = 0;
  for (size_t i = 1; i < packets.size(); ++i) changes += packets[i] != packets[i - 1];
  EXPECT_LE(changes, 2) << "two polls at most in 100 ms";
  EXPECT_GT(*std::max_element(packets.begin(), packets.end()), 0);
}

// The rules survive production reads: no finding above T1 in 10 s of a healthy fabric at 30 % and
// 50 % load, though each end of a busy link is read up to a port poll apart (frames "sent" but not
// yet "received" by the counters' clocks).
TEST(CounterRefresh, AHealthyFabricRaisesNothingAboveT1AtProductionScrape) {
  for (double load : {0.3, 0.5}) {
    TestRun f = RunYaml(HealthyWebSearch(load, "{}"));
    for (const Monitor::Detection& d : f.run->monitor()->detections()) {
      EXPECT_FALSE(d.fault()) << "load " << load << ": " << d.tier << " " << d.rule << " at " << d.location << ": "
                              << d.title;
    }
    EXPECT_GT(f->engine().packet_hops, 1000000u) << "a busy fabric";
  }
}

TEST(CounterRefresh, AScrapeFasterThanThePortPollIsRefused) {
  const std::string base = "topology: {type: spine-leaf}\n";
  try {
    ParseScenarioText(base + "monitor: {interval: 100ms}\n", "t.yaml");
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("monitor.interval"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("port counter poll"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ParseScenarioText(base + "monitor: {refresh: instant, counterpoll: {port: 1s}}\n", "t.yaml"), ConfigError);
  EXPECT_NO_THROW(ParseScenarioText(base + "monitor: {refresh: instant, interval: 100ms}\n", "t.yaml"));
  EXPECT_NO_THROW(ParseScenarioText(base + "monitor: {interval: 100ms, counterpoll: {port: 100ms}}\n", "t.yaml"));
  const Scenario sc = ParseScenarioText(base + "monitor: {}\n", "t.yaml");
  EXPECT_EQ(sc.monitor_interval, kSecond);
  EXPECT_EQ(sc.counterpoll.queue, 10 * kSecond);
  EXPECT_EQ(sc.counterpoll.watermark, 60 * kSecond);
}

}  // namespace
}  // namespace rocelab
