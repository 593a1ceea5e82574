// PFC's own faults and the agents that answer them: a NIC pause storm and its
// congestion tree, the NIC's pause-storm guard, the switch PFC watchdog (SONiC,
// Mellanox flavour), a slow receiver, a PFC deadlock. One test per agent runs
// production timers; the others scale them (timers.scale).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "test_util.h"
#include "topo/topology.h"

namespace rocelab {
namespace {

// One spine, two leaves, two hosts each: h0 h1 under leaf0, h2 h3 under leaf1. h2 -> h0 runs
// into the storm across the spine; h3 -> h1 and h2 -> h3 never touch h0 (the innocent flows).
std::string StormFabric(const std::string& nic, const std::string& extra, const std::string& duration = "300ms") {
  return "duration: " + duration + "\n"
         "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 2}\n"
         "nic: " + nic + "\n" + extra +
         "workload:\n"
         "  - {type: flow, src: h2, dst: h0, size: 400MB}\n"
         "  - {type: flow, src: h3, dst: h1, size: 3GB}\n"
         "  - {type: flow, src: h2, dst: h3, size: 3GB}\n";
}

uint64_t Innocent(const Fabric& f) { return f.qps()[1].delivered + f.qps()[2].delivered; }


// Ports held paused by their peers on priority 3 between two looks: the congestion tree.
std::set<std::string> PausedPorts(const Fabric& f) {
  std::set<std::string> out;
  for (const auto& s : f.switches())
    for (int p = 0; p < s->num_ports(); ++p)
      if (s->port(p).paused[3]) out.insert(s->name() + ":" + SwitchPortAlias(p));
  for (const auto& n : f.nics())
    if (n->port(0).paused[3]) out.insert(n->name());
  return out;
}

// The storm with no agent: pause spreads from h0's switch port up to the spine and down to
// hosts that never send to h0, and the innocent flows stop.
TEST(PfcStorm, WithoutAgentsTheCongestionTreeStopsInnocentFlows) {
  TestRun f = StartYaml(StormFabric("{pfc_prevention_tout: off}", "switch: {pfc_watchdog: {enabled: false}}\n", "40ms") +
                        "faults:\n  - {kind: pfc_storm, target: h0, at: 1ms}\n");
  f->RunUntil(10 * kMillisecond);
  const uint64_t innocent = Innocent(*f);
  EXPECT_GT(innocent, 0u);
  const std::set<std::string> tree = PausedPorts(*f);
  // leaf0's port to h0 (h0 pauses it), the spine's port to leaf0 (leaf0's buffer for h0 is
  // full), leaf1's uplink (the spine's buffer is full) and both hosts behind leaf1, h3 though it
  // never sends to h0.
  for (const char* port : {"leaf0:Ethernet0", "spine0:Ethernet0", "leaf1:Ethernet8", "h2", "h3"})
    EXPECT_TRUE(tree.count(port)) << port << " is not paused; the tree is " << ::testing::PrintToString(tree);
  f->RunUntil(40 * kMillisecond);
  EXPECT_EQ(Innocent(*f), innocent) << "the innocent flows moved nothing for 30 ms";
  EXPECT_EQ(f->nic("h0").pause_storm_error_events(), 0u);
  EXPECT_TRUE(Events(*f, "pfc_storm_detected").empty());
  EXPECT_EQ(ComputeTotals(*f).drops_lossless, 0u);
}

// Production timers: the NIC guard on `auto` (100 ms) acts 100 ms after the stall, to the
// event, before the switch watchdog's 200 ms; the innocent flows resume.
TEST(PfcStorm, NicGuardAutoStopsPausingAfter100msAtProductionTimers) {
  TestRun f = StartYaml(StormFabric("{pfc_prevention_tout: auto, timeout: 10}", "") +
                        "faults:\n  - {kind: pfc_storm, target: h0, at: 1ms}\n");
  f->RunUntil(100 * kMillisecond);
  const uint64_t stopped = Innocent(*f);
  f->RunUntil(101 * kMillisecond - 1);
  EXPECT_EQ(f->nic("h0").pause_storm_error_events(), 0u);
  EXPECT_EQ(f->nic("h0").pause_storm_warning_events(), 1u);  // at max(80 ms, 85 % of 100 ms) = 85 ms
  EXPECT_EQ(Innocent(*f), stopped);
  f->RunUntil(101 * kMillisecond);
  EXPECT_EQ(f->nic("h0").pause_storm_error_events(), 1u);
  auto guard = Events(*f, "pause_storm_guard");
  ASSERT_EQ(guard.size(), 1u);
  EXPECT_EQ(guard[0]->t, 101 * kMillisecond);
  EXPECT_EQ(Events(*f, "pause_storm_warning")[0]->t, 86 * kMillisecond);
  f->RunUntil(120 * kMillisecond);
  // 19 ms at up to 100G for the two innocent flows: far more than 100 MB.
  EXPECT_GT(Innocent(*f) - stopped, 100ull << 20) << "the innocent flows resumed";
  EXPECT_TRUE(Events(*f, "pfc_storm_detected").empty()) << "the guard acted before the watchdog's 200 ms";
  // h0 drops what reaches it now: discards at the NIC, counted as mlx5 counts them.
  EXPECT_GT(f->nic("h0").port(0).counters.rx_prio_discards[3], 0u);
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["hosts"]["h0"]["ethtool"]["tx_pause_storm_error_events"], 1);
  EXPECT_EQ(s["timer_scale"], 1.0);
}

// Guard off, watchdog on (scaled 1/100: detection and restoration 2 ms, poll 1 ms): it finds the
// queue facing h0 after the detection time, within one poll; the innocent flows resume; the
// storm that stops is restored after the restoration time. Drop mode pauses no one upstream.
TEST(PfcStorm, WatchdogDropsTheStormingQueueAndRestoresItAfterTheStorm) {
  TestRun f = StartYaml(StormFabric("{pfc_prevention_tout: off}",
                                    "timers: {scale: 0.01}\nswitch: {pfc_watchdog: {poll_interval: 100ms}}\n", "30ms") +
                        "faults:\n  - {kind: pfc_storm, target: h0, at: 1ms, duration: 10ms}\n");
  const Time poll = kMillisecond, detection = 2 * kMillisecond, restoration = 2 * kMillisecond;
  f->RunUntil(1 * kMillisecond + detection + poll);
  auto detected = Events(*f, "pfc_storm_detected");
  const TimelineEvent* edge = nullptr;
  for (const TimelineEvent* e : detected)
    if (e->device == "leaf0" && e->port == "Ethernet0") edge = e;
  ASSERT_NE(edge, nullptr) << "the watchdog did not act on the port facing h0";
  EXPECT_GE(edge->t, 1 * kMillisecond + detection - poll);
  EXPECT_LE(edge->t, 1 * kMillisecond + detection + poll);
  EXPECT_EQ(edge->priority, 3);
  // Drop mode: what reaches leaf0 for h0 is dropped before it is buffered, so leaf0 stops
  // pausing its other ports.
  const Switch& leaf0 = f->sw("leaf0");
  auto upstream_pauses = [&] {
    uint64_t n = 0;
    for (int p = 1; p < leaf0.num_ports(); ++p) n += leaf0.port(p).counters.tx_pause[3];
    return n;
  };
  f->RunUntil(edge->t + 200 * kMicrosecond);
  const uint64_t pauses = upstream_pauses();
  const uint64_t innocent = Innocent(*f);
  f->RunUntil(10 * kMillisecond);
  EXPECT_EQ(upstream_pauses(), pauses) << "drop mode must not pause upstream";
  EXPECT_GT(Innocent(*f) - innocent, 20ull << 20) << "the innocent flows resumed";
  EXPECT_GT(leaf0.storm_tx_drops(0, 3), 0u);
  // The storm stops at 11 ms: no pause frame from h0 for the restoration time restores it.
  f->RunUntil(30 * kMillisecond);
  const TimelineEvent* restored = nullptr;
  for (const TimelineEvent* e : Events(*f, "pfc_storm_restored"))
    if (e->device == "leaf0" && e->port == "Ethernet0") restored = e;
  ASSERT_NE(restored, nullptr);
  EXPECT_GE(restored->t, 11 * kMillisecond + restoration - poll);
  EXPECT_LE(restored->t, 11 * kMillisecond + restoration + poll);
  size_t leaf0_index = 0;
  while (f->switches()[leaf0_index]->name() != "leaf0") ++leaf0_index;
  const PfcWatchdog::QueueStats st = f.run->watchdog(leaf0_index)->Stats(0, 3);
  EXPECT_EQ(st.storms_detected, 1u);
  EXPECT_EQ(st.storms_restored, 1u);
  EXPECT_FALSE(st.stormed);
  EXPECT_EQ(st.tx_drop, leaf0.storm_tx_drops(0, 3));
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["switches"]["leaf0"]["ports"]["Ethernet0"]["pfcwd"]["UC3"]["storm_detected"], 1);
  EXPECT_EQ(s["timer_scale"], 0.01);
}

// A slow receiver pauses now and then but drains: neither agent acts, and every byte arrives.
TEST(PfcStorm, SlowReceiverPausesButNoAgentActs) {
  TestRun f = RunYaml(
      "duration: 100ms\ntimers: {scale: 0.01}\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 3}\n"
      "nic: {pfc_prevention_tout: auto, cc: none}\n"
      "workload:\n  - {type: flow, src: h1, dst: h0, size: 64MB}\n  - {type: flow, src: h2, dst: h0, size: 64MB}\n"
      "faults:\n  - {kind: slow_receiver, target: h0, at: 0s, drain_rate: 40G}\n");
  EXPECT_GT(f->nic("h0").port(0).counters.tx_pause[3], 10u) << "intermittent pauses";
  EXPECT_EQ(f->nic("h0").pause_storm_warning_events() + f->nic("h0").pause_storm_error_events(), 0u);
  EXPECT_TRUE(Events(*f, "pfc_storm_detected").empty());
  for (const QueuePair& qp : f->qps()) EXPECT_TRUE(qp.done);
  EXPECT_EQ(ComputeTotals(*f).drops_lossless, 0u);
  // 128 MB through a 40G pipeline: at least 26.8 ms.
  EXPECT_GE(f->now(), 26 * kMillisecond);
}

// A routing loop with the traffic to fill it: a PFC deadlock that outlives the loop. Agents off:
// frozen for good. The watchdog (drop) breaks it, counting what it dropped, and every flow
// finishes.
TEST(PfcDeadlock, FrozenWithoutTheWatchdogAndBrokenByIt) {
  auto scenario = [](bool watchdog) {
    std::string s = "duration: 40ms\ntimers: {scale: 0.01}\n" +
                    ExampleFabric(watchdog ? "  pfc_watchdog: {enabled: true}\n" : "  pfc_watchdog: {enabled: false}\n",
                                  "{mtu: 4096, cc: none, pfc_prevention_tout: off}") +
                    "workload:\n";
    s += FlowsTo(8, 11, "h0", "8MB") + FlowsTo(1, 3, "h9", "8MB");
    return s +
           "faults:\n  - {kind: route_change, at: 100us, duration: 1ms, routes: [{switch: spine0, dst: h0, port: leaf1}, "
           "{switch: leaf1, dst: h0, port: spine0}, {switch: spine1, dst: h0, port: leaf1}]}\n";
  };
  TestRun off = StartYaml(scenario(false));
  off->RunUntil(5 * kMillisecond);
  uint64_t frozen = 0;
  for (const QueuePair& qp : off->qps()) frozen += qp.delivered;
  off.run->Run();
  uint64_t after = 0;
  int done = 0;
  for (const QueuePair& qp : off->qps()) after += qp.delivered, done += qp.done;
  EXPECT_EQ(after, frozen) << "a deadlock does not thaw on its own";
  EXPECT_LT(done, 7);

  TestRun on = RunYaml(scenario(true));
  for (const QueuePair& qp : on->qps()) EXPECT_TRUE(qp.done) << "flow " << qp.id;
  auto detected = Events(*on, "pfc_storm_detected");
  ASSERT_FALSE(detected.empty());
  uint64_t dropped = 0;
  for (const auto& s : on->switches())
    for (int p = 0; p < s->num_ports(); ++p) dropped += s->storm_tx_drops(p, 3) + s->storm_rx_drops(p, 3);
  EXPECT_GT(dropped, 0u);
}

// The loop stands for 20 ms: the watchdog breaks the deadlock, the loop fills again and the
// deadlock re-forms, and the watchdog breaks it again, as long as the routes stay wrong. The
// flows into the loop (to h0) run out of retries meanwhile (8 x 1.3 ms: timeout 15, scaled); the
// others finish.
TEST(PfcDeadlock, ReformsWhileTheLoopStandsAndIsBrokenEachTime) {
  std::string s = "duration: 60ms\ntimers: {scale: 0.01}\n" +
                  ExampleFabric("  pfc_watchdog: {enabled: true}\n",
                                "{mtu: 4096, cc: none, timeout: 15, pfc_prevention_tout: off}") +
                  "workload:\n";
  s += FlowsTo(8, 11, "h0", "64MB") + FlowsTo(1, 3, "h9", "64MB");
  s += "faults:\n  - {kind: route_change, at: 100us, duration: 20ms, routes: [{switch: spine0, dst: h0, port: leaf1}, "
       "{switch: leaf1, dst: h0, port: spine0}, {switch: spine1, dst: h0, port: leaf1}]}\n";
  TestRun f = RunYaml(s);
  auto detected = Events(*f, "pfc_storm_detected");
  ASSERT_GE(detected.size(), 3u);
  std::map<std::string, int> per_queue;
  for (const TimelineEvent* e : detected) {
    EXPECT_LT(e->t, 20100 * kMicrosecond) << "no storm once the routes are right";
    ++per_queue[e->device + ":" + e->port];
  }
  int most = 0;
  for (const auto& [q, n] : per_queue) most = std::max(most, n);
  EXPECT_GE(most, 2) << "the same queue deadlocked again after the watchdog broke it";
  for (const QueuePair& qp : f->qps()) {
    if (qp.dst == 0) EXPECT_TRUE(qp.failed) << "flow " << qp.id << " into the loop";
    else EXPECT_TRUE(qp.done) << "flow " << qp.id;
  }
}

// A healthy fabric at production timers, every agent on (watchdog 200 ms, guard auto): a
// 16 -> 1 incast that lasts well past both timers makes neither fire.
TEST(PfcAgents, HealthyIncastTriggersNothingAtProductionTimers) {
  std::string yaml =
      "duration: 400ms\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 17}\n"
      "nic: {pfc_prevention_tout: auto}\n"
      "workload:\n" + FlowsTo(1, 16, "h0", "200MB");
  TestRun f = RunYaml(yaml);
  EXPECT_GE(f->now(), 250 * kMillisecond) << "the incast outlasts both agents' timers";
  EXPECT_TRUE(Events(*f, "pfc_storm_detected").empty());
  EXPECT_TRUE(Events(*f, "pause_storm_warning").empty());
  EXPECT_TRUE(Events(*f, "pause_storm_guard").empty());
  for (const QueuePair& qp : f->qps()) EXPECT_TRUE(qp.done);
  EXPECT_EQ(ComputeTotals(*f).drops_lossless, 0u);
}

// A port that is down is never in a storm, however long the queue for it waits.
TEST(PfcAgents, NoFalseStormOnALinkThatFlaps) {
  TestRun f = RunYaml(
      "duration: 40ms\ntimers: {scale: 0.01}\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 3, host_link: {delay: 1us}}\n"
      "switch: {link_up_time: 100ms}\n"  // each outage (4 ms scaled) within the retry budget (5.4 ms)
      "workload:\n  - {type: flow, src: h1, dst: h0, size: 64MB}\n  - {type: flow, src: h2, dst: h0, size: 64MB}\n"
      "faults:\n  - {kind: link_flap, target: h0-leaf0, at: 1ms, period: 10ms, count: 3, duration: 3ms}\n");
  EXPECT_EQ(Events(*f, "carrier_down").size(), 6u);
  EXPECT_TRUE(Events(*f, "pfc_storm_detected").empty());
}

// Same scenario, same seed: the same timeline.
TEST(PfcAgents, SameScenarioSameTimeline) {
  const std::string yaml = StormFabric("{pfc_prevention_tout: off}", "timers: {scale: 0.01}\n", "20ms") +
                           "faults:\n  - {kind: pfc_storm, target: h0, at: 1ms, duration: 8ms}\n";
  TestRun a = RunYaml(yaml), b = RunYaml(yaml);
  EXPECT_EQ(WithoutEngine(SummaryJson(*a.run)), WithoutEngine(SummaryJson(*b.run)));
  EXPECT_FALSE(Events(*a, "pfc_storm_detected").empty());
}

}  // namespace
}  // namespace rocelab
