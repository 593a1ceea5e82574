// The monitor reads counters as production collectors do: each switch's
// counter groups as its last poll wrote them, each device on its own clock
// (run/counter_db.h), and the rules hold up on a healthy fabric read that way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "diagnose/diagnose.h"
#include "run/monitor.h"
#include "telemetry/counter_names.h"
#include "util/config_error.h"
#include "test_util.h"

namespace rocelab {
namespace {

// A healthy k=4 fat-tree under WebSearch at `load`; production polls and scrape, all timers at
// 1/100 (10 s of production in 100 ms). Its queue pairs take NCCL's timeouts (4.3 s, 43 ms
// scaled): the verbs default's 67 ms would be 671 us here, shorter than the pauses this load
// holds a queue pair up for, and a timeout production never sees would resend data not lost and
// feed the congestion (at 50 %, seeds 3 and 4 of 1..8 then fail queue pairs; with NCCL's, none).
std::string HealthyWebSearch(double load, const std::string& monitor) {
  return "duration: 100ms\nseed: 7\ntimers: {scale: 0.01}\nmonitor: " + monitor +
         "\n"
         "topology: {type: fat-tree, k: 4, link: {rate: 100G, delay: 1us}}\n"
         "nic: {mtu: 4096, cc: dcqcn, profile: nccl}\n"
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

// One end of a 100G link polled every second, the other half a second off, the link carrying a
// burst of 300 ms each second at line rate: what one end sent and the other received over one pair
// of polls differs by a whole burst, lost or not. The two ends' ledgers, balanced over many polls,
// never prove a loss on a link that loses nothing, wherever the bursts fall between the reads, and
// prove a 5 % loss once they hold enough polls.
TEST(CounterRefresh, ALinksTwoEndsPolledApartProveALossOverManyPolls) {
  const double frames_per_s = 100e9 / 8 / 4096;
  auto sent_by = [&](double t, double burst_at) {  // cumulative frames sent by time t
    const double whole = std::floor(t), in = t - whole;
    return frames_per_s * (0.3 * whole + std::clamp(in - burst_at, 0.0, 0.3));
  };
  auto gray = [&](double loss, double offset, double burst_at, int polls) {
    Evidence ev;
    PortEvidence from, to;
    from.device = "leaf0", from.port = "Ethernet28", from.peer = "spine1";
    to.device = "spine1", to.port = "Ethernet0", to.peer = "leaf0";
    from.is_switch = to.is_switch = true;
    from.span_s = to.span_s = -1;  // the window has no reading of either: only the ledgers speak
    for (int k = 1; k <= polls; ++k) {
      const double t = k, u = k + offset;
      from.link_polls.push_back({t, sent_by(t, burst_at), 0, 4096 * sent_by(t, burst_at), 0, 0});
      const double got = (1 - loss) * sent_by(u, burst_at);
      to.link_polls.push_back({u, 0, std::floor(got), 0, 4096 * std::floor(got), 0});
    }
    for (PortEvidence* p : {&from, &to})
      for (const auto& [k, v] : CounterMap{{kSaiPortIfOutUcastPkts.name, 0}, {kSaiPortIfInUcastPkts.name, 0},
                                            {kSaiPortIfOutOctets.name, 0}, {kSaiPortIfInOctets.name, 0}})
        p->counters[k] = v;
    ev.ports = {from, to};
    ev.windowed = true;
    for (const Diagnosis& d : Diagnose(ev))
      if (d.rule == "network.gray_drop") return d.location.rfind("leaf0:Ethernet28", 0) == 0;
    return false;
  };
  for (double offset : {-0.9, -0.5, -0.1, 0.1, 0.5, 0.9})
    for (double burst_at : {0.0, 0.2, 0.4, 0.7}) {
      EXPECT_FALSE(gray(0, offset, burst_at, 30)) << "no loss, the other end read " << offset << " s off, bursts at " << burst_at;
      EXPECT_TRUE(gray(0.05, offset, burst_at, 30)) << "5 %, the other end read " << offset << " s off, bursts at " << burst_at;
    }
  EXPECT_FALSE(gray(0.05, 0.5, 0.2, 4)) << "four polls hold less loss than one burst";
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
