// Faults in the running fabric: links going down, flapping and erring, frames
// vanishing, configuration drifting; what the run records of them (timeline,
// counters) and what diagnose makes of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "diagnose/diagnose.h"
#include "net/link_phy.h"
#include "test_util.h"
#include "topo/topology.h"

namespace rocelab {
namespace {

// diagnose on a run's summary.json, and finding one of its findings.
std::vector<Diagnosis> DiagnoseOf(const TestRun& f, const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/" + name;
  std::system(("mkdir -p " + dir).c_str());
  std::ofstream(dir + "/summary.json") << SummaryJson(*f.run);
  return Diagnose(LoadEvidence({dir}));
}
const Diagnosis* Find(const std::vector<Diagnosis>& ds, const std::string& title_part) {
  for (const Diagnosis& d : ds)
    if (d.title.find(title_part) != std::string::npos) return &d;
  return nullptr;
}
std::string Dump(const std::vector<Diagnosis>& ds) {
  std::string s;
  for (const Diagnosis& d : ds) s += d.layer + " " + d.title + " @ " + d.location + "\n";
  return s;
}

// One 64 MB flow from h0 across its link, which errs from 1 ms as `fault_keys` (link_errors keys) say.
TestRun ErringHostLink(const std::string& head, const std::string& fault_keys) {
  return RunYaml(head +
                 "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2}\n"
                 "nic: {cc: none}\n"
                 "workload:\n  - {type: flow, src: h0, dst: h1, size: 64MB}\n"
                 "faults:\n  - {kind: link_errors, target: h0-leaf0, at: 1ms, " + fault_keys + "}\n");
}

// 2 spines x 2 leaves, 4 hosts each: leaf0-spine1 carries a share of everything between the
// leaves. All-to-all of 1 MB: 56 flows, about half of them crossing the leaves.
std::string LeafSpine(const std::string& extra, const std::string& nic = "{timeout: 6}") {
  return "duration: 50ms\n"
         "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4}\n"
         "switch: {link_down_detection: 50us, route_convergence: 200us, link_up_time: 0s}\n"
         "nic: " + nic + "\n"
         "workload:\n  - {type: all-to-all, size: 1MB}\n" + extra;
}

int Node(const Fabric& f, const std::string& name) { return f.topology().FindNode(name); }
int PortToward(const Fabric& f, const std::string& from, const std::string& to) {
  return ResolvePort(f.topology(), Node(f, from), to);
}
bool RoutesVia(const Fabric& f, const std::string& sw, int host, int port) {
  Topology::Span s = f.topology().NextHops(Node(f, sw), host);
  return std::find(s.begin, s.begin + s.size, port) != s.begin + s.size;
}

// Every frame the fabric lost, wherever it was lost: ingress discards (no route, headroom),
// lossy queue drops, frames sent into a dead link. Frames lost in flight are not counted by
// any device; bytes_delivered covers them.
uint64_t FramesLost(const Fabric& f) {
  uint64_t lost = 0;
  for (const auto& s : f.switches())
    for (int p = 0; p < s->num_ports(); ++p) {
      lost += s->port(p).counters.rx_discards;
      if (s->port(p).faults) lost += s->port(p).faults->counters.tx_link_down_drops;
      for (int q = 0; q < kNumPriorities; ++q) lost += s->queue_counters(p, q).dropped_packets;
    }
  for (const auto& n : f.nics())
    if (n->port(0).faults) lost += n->port(0).faults->counters.tx_link_down_drops;
  return lost;
}

uint64_t Delivered(const Fabric& f) {
  uint64_t b = 0;
  for (const QueuePair& qp : f.qps()) b += qp.delivered;
  return b;
}

int Count(const Fabric& f, const std::string& event) {
  int n = 0;
  for (const TimelineEvent& e : f.timeline().events()) n += e.event == event;
  return n;
}

// A link fails: the carrier goes at once, the two switches prune it 50 us later, every other
// switch reroutes 200 us after the failure; the flows finish on the other spine.
TEST(FaultLink, DownPrunesLocallyThenConvergesAndTheFlowsFinishOnTheOtherPaths) {
  TestRun f = StartYaml(LeafSpine("faults:\n  - {kind: link_down, target: leaf0-spine1, at: 100us}\n"));
  const int leaf0_up1 = PortToward(*f, "leaf0", "spine1"), spine1_down0 = PortToward(*f, "spine1", "leaf0");
  const int leaf1_up1 = PortToward(*f, "leaf1", "spine1");
  const int remote = 4, local = 0;  // h4 sits under leaf1, h0 under leaf0

  f->RunUntil(100 * kMicrosecond - 1);
  const uint64_t frames_before = f->sw("leaf0").port(leaf0_up1).counters.Sent().packets;
  ASSERT_GT(frames_before, 0u) << "the link carried traffic before it failed";
  f->RunUntil(100 * kMicrosecond);
  const uint64_t tx_at_failure = f->sw("leaf0").port(leaf0_up1).counters.Sent().packets;
  const uint64_t rx_at_failure = f->sw("spine1").port_counters(spine1_down0).Received().packets;

  // The local prune, to the event: still in the ECMP group 1 ps before, gone at 150 us.
  f->RunUntil(150 * kMicrosecond - 1);
  EXPECT_TRUE(RoutesVia(*f, "leaf0", remote, leaf0_up1));
  EXPECT_TRUE(RoutesVia(*f, "leaf1", local, leaf1_up1));
  f->RunUntil(150 * kMicrosecond);
  EXPECT_FALSE(RoutesVia(*f, "leaf0", remote, leaf0_up1));
  EXPECT_EQ(f->topology().NextHops(Node(*f, "spine1"), local).size, 0u) << "spine1 has no way down to leaf0";
  // leaf1 has not heard yet: it still sends h0's traffic to spine1, which drops it.
  EXPECT_TRUE(RoutesVia(*f, "leaf1", local, leaf1_up1));
  f->RunUntil(300 * kMicrosecond - 1);
  EXPECT_TRUE(RoutesVia(*f, "leaf1", local, leaf1_up1));
  f->RunUntil(300 * kMicrosecond);
  EXPECT_FALSE(RoutesVia(*f, "leaf1", local, leaf1_up1));
  const uint64_t lost_at_convergence = FramesLost(*f);
  EXPECT_GT(lost_at_convergence, 0u) << "traffic into the dead end before convergence is lost";
  // What leaf1 had already queued toward spine1 still goes there and is dropped; a route change
  // does not move packets already queued. That queue drains within 100 us at 100G.
  const Port& spine1_from_leaf1 = f->sw("spine1").port(PortToward(*f, "spine1", "leaf1"));
  const uint64_t dead_end_at_convergence = spine1_from_leaf1.counters.rx_discards;
  f->RunUntil(400 * kMicrosecond);
  EXPECT_EQ(FramesLost(*f) - lost_at_convergence, spine1_from_leaf1.counters.rx_discards - dead_end_at_convergence);
  const uint64_t lost_after_drain = FramesLost(*f);

  f.run->Run();
  // Nothing crossed the link after it failed, in either direction of counting.
  EXPECT_EQ(f->sw("leaf0").port(leaf0_up1).counters.Sent().packets, tx_at_failure);
  EXPECT_EQ(f->sw("spine1").port_counters(spine1_down0).Received().packets, rx_at_failure);
  // No loss once the routes converged and the queues built before drained; every flow
  // finished with every byte.
  EXPECT_EQ(FramesLost(*f), lost_after_drain);
  int finished = 0;
  for (const QueuePair& qp : f->qps()) finished += qp.done;
  EXPECT_EQ(finished, 56);
  EXPECT_EQ(Delivered(*f), 56ull << 20);

  // The timeline, in order, at the configured times.
  auto downs = Events(*f, "carrier_down");
  ASSERT_EQ(downs.size(), 2u);
  EXPECT_EQ(downs[0]->t, 100 * kMicrosecond);
  EXPECT_EQ(downs[0]->device, "leaf0");
  EXPECT_EQ(downs[0]->port, SwitchPortAlias(leaf0_up1));
  EXPECT_EQ(downs[1]->device, "spine1");
  auto pruned = Events(*f, "ecmp_pruned");
  ASSERT_EQ(pruned.size(), 2u);
  EXPECT_EQ(pruned[0]->t, 150 * kMicrosecond);
  auto converged = Events(*f, "routes_converged");
  ASSERT_EQ(converged.size(), 1u);
  EXPECT_EQ(converged[0]->t, 300 * kMicrosecond);
  EXPECT_EQ(converged[0]->detail, "1 of 4 switches changed next hops");  // leaf1 only
  ASSERT_EQ(f.run->faults().records().size(), 1u);
  EXPECT_EQ(f.run->faults().records()[0].injected, 100 * kMicrosecond);
  EXPECT_EQ(f.run->faults().records()[0].cleared, -1);
  // Both ends count the down.
  EXPECT_EQ(f->sw("leaf0").port(leaf0_up1).faults->counters.link_down_events, 1u);
  EXPECT_EQ(f->sw("spine1").port(spine1_down0).faults->counters.link_down_events, 1u);
}

// Convergence on a healthy or repaired fabric installs nothing: the address rule is already
// the valley-free shortest path.
TEST(FaultLink, ARepairedLinkConvergesBackToTheHealthyRoutes) {
  TestRun f = RunYaml(LeafSpine("faults:\n  - {kind: link_down, target: leaf0-spine1, at: 100us, duration: 300us}\n"));
  EXPECT_EQ(Count(*f, "routes_converged"), 2);
  EXPECT_EQ(Events(*f, "routes_converged").back()->t, 600 * kMicrosecond);
  EXPECT_EQ(Events(*f, "routes_converged").back()->detail, "1 of 4 switches changed next hops");
  for (int s : f->topology().switches())
    for (size_t h = 0; h < f->topology().hosts().size(); ++h)
      EXPECT_EQ(f->topology().Exception(s, static_cast<int>(h)), nullptr) << s << " " << h;
  EXPECT_EQ(f.run->faults().records()[0].cleared, 400 * kMicrosecond);
  EXPECT_EQ(Delivered(*f), 56ull << 20);
}

// A flap series: every transition on the timeline, counted on both ends.
TEST(FaultLink, FlapSeriesShowsEveryTransition) {
  TestRun f = RunYaml(LeafSpine(
      "faults:\n  - {kind: link_flap, target: leaf0-spine1, at: 100us, period: 400us, count: 3, duration: 150us}\n"));
  EXPECT_EQ(Count(*f, "carrier_down"), 6);
  EXPECT_EQ(Count(*f, "carrier_up"), 6);
  EXPECT_EQ(Count(*f, "ecmp_pruned"), 6);
  EXPECT_EQ(Count(*f, "ecmp_restored"), 6);
  EXPECT_EQ(Count(*f, "routes_converged"), 6);
  auto downs = Events(*f, "carrier_down"), ups = Events(*f, "carrier_up");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(downs[2 * i]->t, (100 + 400 * i) * kMicrosecond);
    EXPECT_EQ(ups[2 * i]->t, (250 + 400 * i) * kMicrosecond);
  }
  const PortFaults& pf = *f->sw("leaf0").port(PortToward(*f, "leaf0", "spine1")).faults;
  EXPECT_EQ(pf.counters.link_down_events, 3u);
  EXPECT_EQ(pf.counters.carrier_changes, 6u);
  EXPECT_TRUE(pf.carrier);
  EXPECT_EQ(f.run->faults().records()[0].cleared, 1050 * kMicrosecond);
  EXPECT_EQ(Delivered(*f), 56ull << 20);
  // summary.json says the same.
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["switches"]["leaf0"]["ports"][SwitchPortAlias(PortToward(*f, "leaf0", "spine1"))]["flap_count"], 3);
  EXPECT_EQ(s["faults"][0]["kind"], "link_flap");
  EXPECT_EQ(s["faults"][0]["cleared_ns"], 1050000.0);
  EXPECT_EQ(s["timeline"].size(), f->timeline().events().size());
}

// A reported loss of signal: when the signal is back, the link trains (link_up_time) before its
// carrier is up and it carries frames again; nothing crosses it meanwhile.
TEST(LinkPhy, AReportedLossNeedsLinkTrainingBeforeTheCarrierIsUp) {
  std::string yaml = LeafSpine("faults:\n  - {kind: link_down, target: leaf0-spine1, at: 100us, duration: 300us}\n");
  yaml.replace(yaml.find("link_up_time: 0s"), 16, "link_up_time: 500us");
  TestRun f = StartYaml(yaml);
  const int port = PortToward(*f, "leaf0", "spine1");
  f->RunUntil(850 * kMicrosecond);
  const PortFaults& pf = *f->sw("leaf0").port(port).faults;
  EXPECT_TRUE(pf.signal);
  EXPECT_FALSE(pf.carrier) << "training: the signal is back since 400 us, the carrier not yet";
  const uint64_t sent = f->sw("leaf0").port(port).counters.tx_prio[3].packets;
  f->RunUntil(899 * kMicrosecond);
  EXPECT_EQ(f->sw("leaf0").port(port).counters.tx_prio[3].packets, sent) << "nothing crosses a link in training";
  f.run->Run();
  ASSERT_EQ(Count(*f, "carrier_up"), 2);
  EXPECT_EQ(Events(*f, "carrier_up")[0]->t, 900 * kMicrosecond);  // 400 us + 500 us of training
  EXPECT_EQ(Delivered(*f), 56ull << 20);
}

// link_up_time auto: the link trains as long as its lanes may take, 500 ms on NRZ lanes (100G),
// 2,983 ms on PAM4 (400G); a duration given is taken at every speed.
TEST(LinkPhy, AutoLinkUpIsTheTrainingTimeOfTheLinksLanes) {
  EXPECT_EQ(LinkTrainingTime(25000000000ull), 500 * kMillisecond);
  EXPECT_EQ(LinkTrainingTime(100000000000ull), 500 * kMillisecond);
  EXPECT_EQ(LinkTrainingTime(50000000000ull), 2983 * kMillisecond);
  EXPECT_EQ(LinkTrainingTime(400000000000ull), 2983 * kMillisecond);
  auto carrier_up = [](const std::string& rate, const std::string& up) {
    TestRun f = RunYaml("duration: 5ms\ntimers: {scale: 0.001}\n"
                        "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 2, fabric_link: {rate: " +
                        rate + "}}\nswitch: {link_up_time: " + up + "}\nnic: {cc: none}\n"
                        "workload:\n  - {type: flow, src: h0, dst: h2, size: 100MB}\n"
                        "faults:\n  - {kind: link_down, target: leaf0-spine1, at: 100us, duration: 300us}\n");
    const auto up_events = Events(*f, "carrier_up");
    return up_events.empty() ? Time{-1} : up_events[0]->t;
  };
  // The signal is back at 400 us; training scaled by 0.001.
  EXPECT_EQ(carrier_up("100G", "auto"), 400 * kMicrosecond + 500 * kMicrosecond);
  EXPECT_EQ(carrier_up("400G", "auto"), 400 * kMicrosecond + 2983 * kMicrosecond);
  EXPECT_EQ(carrier_up("400G", "500ms"), 400 * kMicrosecond + 500 * kMicrosecond);
}

// A loss of signal shorter than the debounce is never reported: no carrier change, no flap
// count, no route change; what crossed the link meanwhile is lost all the same. A longer one is
// reported the debounce late.
TEST(LinkPhy, ALossWithinTheDebounceIsNoCarrierChangeButLosesWhatCrossed) {
  std::string yaml = LeafSpine(
      "faults:\n  - {kind: link_flap, target: leaf0-spine1, at: 100us, period: 400us, count: 3, duration: 150us}\n");
  yaml.replace(yaml.find("link_up_time: 0s"), 16, "link_up_time: 0s, link_debounce: 200us");
  TestRun f = RunYaml(yaml);
  EXPECT_EQ(Count(*f, "carrier_down"), 0);
  EXPECT_EQ(Count(*f, "ecmp_pruned"), 0);
  EXPECT_EQ(Count(*f, "signal_blip"), 3);
  const PortFaults& pf = *f->sw("leaf0").port(PortToward(*f, "leaf0", "spine1")).faults;
  EXPECT_EQ(pf.counters.link_down_events, 0u);
  EXPECT_EQ(pf.counters.carrier_changes, 0u);
  uint64_t lost = pf.counters.carrier_lost_bytes;
  lost += f->sw("spine1").port(PortToward(*f, "spine1", "leaf0")).faults->counters.carrier_lost_bytes;
  EXPECT_GT(lost, 100000u) << "three times 150 us of a busy 100G link went dark";
  EXPECT_EQ(Delivered(*f), 56ull << 20) << "go-back-N resent it";

  std::string longer = LeafSpine(
      "faults:\n  - {kind: link_flap, target: leaf0-spine1, at: 100us, period: 400us, count: 3, duration: 300us}\n");
  longer.replace(longer.find("link_up_time: 0s"), 16, "link_up_time: 0s, link_debounce: 200us");
  TestRun g = RunYaml(longer);
  ASSERT_EQ(Count(*g, "carrier_down"), 6);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(Events(*g, "carrier_down")[2 * i]->t, (300 + 400 * i) * kMicrosecond);
}

// A host's link down for good, with the default ACK timeout (4.096 us x 2^14 = 67 ms) and 7
// retries: the queue pairs on it fail after 8 timeouts, about half a second, as on real fabrics.
// The IBTA timer alone here; adaptive retransmission fails them at the same time
// (adaptive_retransmission_test.cc).
TEST(FaultLink, AnOutageLongerThanTheRetryBudgetEndsInQpErrors) {
  TestRun f = RunYaml(
      "duration: 1s\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2}\n"
      "nic: {adaptive_retransmission: {enabled: false}}\n"
      "workload:\n  - {type: flow, src: h0, dst: h1, size: 4MB}\n  - {type: flow, src: h1, dst: h0, size: 4MB}\n"
      "faults:\n  - {kind: link_down, target: h0-leaf0, at: 100us}\n");
  const Time timeout = (4096 * kNanosecond) << 14;
  auto errors = Events(*f, "qp_error");
  ASSERT_EQ(errors.size(), 2u);
  for (const TimelineEvent* e : errors) {
    // The timer runs from the oldest unacknowledged packet, sent just before the failure.
    EXPECT_GE(e->t, 90 * kMicrosecond + 8 * timeout);
    EXPECT_LE(e->t, 100 * kMicrosecond + 8 * timeout + kMillisecond);
  }
  EXPECT_EQ(f->nic("h0").rdma().req_transport_retries_exceeded, 1u);
  EXPECT_EQ(f->nic("h1").rdma().req_transport_retries_exceeded, 1u);
  // Seven expiries with a retry left; the eighth is the QP's error (mlx5 counts only the seven).
  EXPECT_EQ(f->nic("h0").rdma().local_ack_timeout_err, 7u);
  EXPECT_EQ(f->nic("h0").rdma().req_cqe_error, 1u);
  for (const QueuePair& qp : f->qps()) EXPECT_TRUE(qp.failed);
  EXPECT_EQ(ComputeTotals(*f).qp_errors, 2u);
  // What each end sent into the dead link is a discard its device reports.
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  const uint64_t nic_lost = f->nic("h0").port(0).faults->counters.tx_link_down_drops;
  const int leaf_port = PortToward(*f, "leaf0", "h0");
  const uint64_t sw_lost = f->sw("leaf0").port(leaf_port).faults->counters.tx_link_down_drops;
  EXPECT_GT(nic_lost, 0u);
  EXPECT_GT(sw_lost, 0u);
  EXPECT_EQ(s["hosts"]["h0"]["ethtool"]["tx_discards_phy"], nic_lost);
  EXPECT_EQ(s["switches"]["leaf0"]["ports"][SwitchPortAlias(leaf_port)]["SAI_PORT_STAT_IF_OUT_DISCARDS"], sw_lost);
}

// The same outage with production's timers at 1/100 (timers.scale): every one of them runs
// faster by the same factor, so the story is the same: the ports leave the ECMP groups after
// 1 ms x 0.01, the routes converge after 150 ms x 0.01, and the queue pairs fail after
// 8 x 67 ms x 0.01. With NCCL's timeouts (profile nccl: 2^20 x 4.096 us = 4.3 s, 7 retries)
// they fail after 34 s, here 34 ms at 1/1000.
TEST(FaultLink, TimersScaleRunsEveryProductionTimerFaster) {
  auto run = [](const std::string& scale, const std::string& nic) {
    return RunYaml("duration: 60ms\ntimers: {scale: " + scale + "}\n"
                   "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 1}\n"
                   "nic: " + nic + "\n"
                   "workload:\n  - {type: flow, src: h0, dst: h1, size: 64MB}\n"
                   "faults:\n  - {kind: link_down, target: h0-leaf0, at: 100us}\n");
  };
  TestRun f = run("0.01", "{}");
  const Time at = 100 * kMicrosecond;
  ASSERT_EQ(Events(*f, "ecmp_pruned").size(), 1u);
  EXPECT_EQ(Events(*f, "ecmp_pruned")[0]->t, at + 10 * kMicrosecond);
  ASSERT_EQ(Events(*f, "routes_converged").size(), 1u);
  EXPECT_EQ(Events(*f, "routes_converged")[0]->t, at + 1500 * kMicrosecond);
  const Time timeout = static_cast<Time>(static_cast<double>((4096 * kNanosecond) << 14) * 0.01);  // 671 us
  ASSERT_EQ(Events(*f, "qp_error").size(), 1u);
  EXPECT_GE(Events(*f, "qp_error")[0]->t, at - 10 * kMicrosecond + 8 * timeout);
  EXPECT_LE(Events(*f, "qp_error")[0]->t, at + 8 * timeout + 10 * kMicrosecond);  // each retry waits for the port
  EXPECT_EQ(f->nic("h0").rdma().local_ack_timeout_err, 7u);

  TestRun nccl = run("0.001", "{profile: nccl}");
  EXPECT_EQ(nccl->scenario().nic.timeout, 20);
  EXPECT_EQ(nccl->scenario().nic.retry_count, 7);
  const Time nccl_timeout = static_cast<Time>(static_cast<double>((4096 * kNanosecond) << 20) * 0.001);  // 4.3 ms
  ASSERT_EQ(Events(*nccl, "qp_error").size(), 1u);
  EXPECT_GE(Events(*nccl, "qp_error")[0]->t, at - 10 * kMicrosecond + 8 * nccl_timeout);
  EXPECT_LE(Events(*nccl, "qp_error")[0]->t, at + 8 * nccl_timeout + 10 * kMicrosecond);
  EXPECT_GT(Events(*nccl, "qp_error")[0]->t, 34 * kMillisecond);
}

// One 100G host link with pre-FEC errors: RS(528,514) corrects a BER of 1e-5 completely
// (P(more than 7 of 528 symbols wrong) is about 1.5e-15) while corrected codewords rise; at 5e-4 it
// gives up on some codewords: CRC errors, go-back-N, a slower flow, every byte still delivered.
// The high case keeps its link up (`link_fault: false`) to see FEC alone: a standard PCS fails
// the link at that rate (FaultLink.ErrorsPastFecFailTheLinkAsThePcsDoes).
TEST(FaultLink, LinkErrorsAreCorrectedAtLowBerAndCostFramesAtHigh) {
  auto run = [](const std::string& ber) {
    std::string yaml =
        "duration: 50ms\n"
        "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2}\n"
        "nic: {cc: none, timeout: 6}\n"
        "workload:\n  - {type: flow, src: h0, dst: h1, size: 8MB}\n";
    if (!ber.empty())
      yaml += "faults:\n  - {kind: link_errors, target: h0-leaf0, at: 0s, pre_fec_ber: " + ber + ", link_fault: false}\n";
    return RunYaml(yaml);
  };
  TestRun clean = run(""), low = run("1e-5"), high = run("5e-4");
  const Fabric& l = *low;
  const PortFaults& sw_rx = *l.sw("leaf0").port(0).faults;  // data arrives at leaf0 from h0
  EXPECT_EQ(sw_rx.fec.mode(), FecMode::kRs528);
  EXPECT_EQ(sw_rx.fec.lanes(), 4);
  const double codewords = static_cast<double>(sw_rx.fec.Counters(l.now()).codewords);
  EXPECT_GT(codewords, 8.0 * (1 << 20) / 640);
  // P(a codeword has an errored symbol) = 1 - (1 - 1e-5)^5280 = 5.1 %.
  EXPECT_NEAR(sw_rx.fec.Counters(l.now()).corrected_codewords / codewords, 0.0514, 0.006);
  EXPECT_EQ(sw_rx.fec.Counters(l.now()).uncorrectable_codewords, 0u);
  EXPECT_EQ(l.sw("leaf0").port(0).counters.crc_errors, 0u);
  EXPECT_EQ(l.nic("h0").rdma().retransmitted_packets, 0u);
  EXPECT_EQ(l.qps()[0].finish, clean->qps()[0].finish) << "corrected errors cost nothing";
  // diagnose reads the pre-FEC BER as SONiC does: corrected bits over line rate x interval (the
  // decoder decodes idles too), not over the bits received.
  const auto lds = DiagnoseOf(low, "fec_ber");
  const Diagnosis* corrected = Find(lds, "FEC is correcting bit errors");
  ASSERT_NE(corrected, nullptr) << Dump(lds);
  EXPECT_NE(corrected->title.find("about 1.0e-05"), std::string::npos) << corrected->title;
  // The NIC end decodes the ACKs: its corrected bits show per lane.
  const FecCounters nic_rx = l.nic("h0").port(0).faults->fec.Counters(l.now());
  uint64_t lanes = 0;
  for (int i = 0; i < 4; ++i) lanes += nic_rx.lane_corrected_bits[i];
  EXPECT_EQ(lanes, nic_rx.corrected_bits);

  const Fabric& h = *high;
  const FecCounters hc = h.sw("leaf0").port(0).faults->fec.Counters(h.now());
  EXPECT_GT(hc.uncorrectable_codewords, 0u);
  EXPECT_EQ(h.sw("leaf0").port(0).counters.crc_errors, hc.lost_frames);
  EXPECT_GT(h.nic("h0").rdma().retransmitted_packets, 0u);
  EXPECT_GT(h.qps()[0].finish, clean->qps()[0].finish * 11 / 10) << "loss costs goodput under go-back-N";
  EXPECT_TRUE(h.qps()[0].done);
  EXPECT_EQ(h.qps()[0].delivered, 8ull << 20);
  // summary.json carries them under their real names.
  const auto s = nlohmann::json::parse(SummaryJson(*high.run));
  const auto& port = s["switches"]["leaf0"]["ports"]["Ethernet0"];
  EXPECT_EQ(port["SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES"], hc.uncorrectable_codewords);
  EXPECT_EQ(port["SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES"], hc.corrected_codewords);
  EXPECT_EQ(s["hosts"]["h0"]["fec"]["code"], "rs528");
  EXPECT_TRUE(s["hosts"]["h0"]["ethtool"].contains("rx_err_lane_3_phy"));
}

// Frames that vanish on one switch port: no counter on that switch says so; the receivers'
// transport does, and diagnose finds the link by comparing its two ends.
TEST(FaultGrayDrop, NothingCountsItWhereItHappensButTheEndsShowTheLoss) {
  std::string yaml =
      "duration: 50ms\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 4}\n"
      "nic: {timeout: 6}\n"
      "workload:\n";
  for (int h = 0; h < 4; ++h)
    yaml += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h" + std::to_string(h + 4) + ", size: 8MB}\n";
  yaml += "faults:\n  - {kind: gray_drop, target: \"leaf0:spine0\", at: 0s, rate: 0.01}\n";
  TestRun f = RunYaml(yaml);
  const Switch& leaf0 = f->sw("leaf0");
  for (int p = 0; p < leaf0.num_ports(); ++p) {
    EXPECT_EQ(leaf0.port(p).counters.rx_discards, 0u);
    EXPECT_EQ(leaf0.port(p).counters.crc_errors, 0u);
    for (int q = 0; q < kNumPriorities; ++q) EXPECT_EQ(leaf0.queue_counters(p, q).dropped_packets, 0u);
  }
  EXPECT_EQ(leaf0.lossless_drops() + leaf0.lossy_drops(), 0u);
  const uint64_t sent = leaf0.port(PortToward(*f, "leaf0", "spine0")).counters.Sent().packets;
  const uint64_t got = f->sw("spine0").port_counters(PortToward(*f, "spine0", "leaf0")).Received().packets;
  EXPECT_NEAR(static_cast<double>(sent - got) / static_cast<double>(sent), 0.01, 0.006);
  uint64_t seq = 0;
  for (int h = 4; h < 8; ++h) seq += f->nic("h" + std::to_string(h)).rdma().out_of_sequence;
  EXPECT_GT(seq, 0u);
  EXPECT_EQ(Delivered(*f), 32ull << 20);

  const std::string dir = ::testing::TempDir() + "/gray";
  std::system(("mkdir -p " + dir).c_str());
  std::ofstream(dir + "/summary.json") << SummaryJson(*f.run);
  bool found = false;
  for (const Diagnosis& d : Diagnose(LoadEvidence({dir})))
    if (d.title == "frames vanish on the link leaf0 -> spine0 and no device counts them") found = true;
  EXPECT_TRUE(found);
}

// ---- configuration going wrong: each fault's symptom, and diagnose naming device and setting ----

// 15 senders into h0 under leaf0 (h8..h15 cross the spines), as the diagnose tests use.
std::string Incast(const std::string& nic, const std::string& faults, const std::string& buffer = "32MB") {
  std::string s = "duration: 20ms\n" +
                  ExampleFabric("  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n", nic, buffer) + "workload:\n";
  for (int h = 1; h <= 15; ++h) s += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 1MB, priority: 3}\n";
  return s + (faults.empty() ? "" : "faults:\n" + faults);
}
const std::string kDcqcn = "{mtu: 4096, cc: dcqcn}";
const std::string kNoCc = "{mtu: 4096, cc: none, timeout: 10}";

uint64_t Marks(const Switch& s) {
  uint64_t m = 0;
  for (int p = 0; p < s.num_ports(); ++p) m += s.queue_counters(p, 3).ecn_marked;
  return m;
}
uint64_t CnpsSent(const Fabric& f) {
  uint64_t n = 0;
  for (const auto& nic : f.nics()) n += nic->rdma().np_cnp_sent;
  return n;
}

// ECN switched off mid-run on the one switch of a 15 -> 1 incast: its marks stop at once, the
// CNPs dry up (those already on their way excepted), PFC does the work.
TEST(FaultConfig, EcnOffStopsTheMarksAndPfcTakesOver) {
  std::string yaml =
      "duration: 20ms\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 16}\n"
      "switch: {ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}}\n"
      "workload:\n" + FlowsTo(1, 15, "h0", "2MB");
  TestRun base = RunYaml(yaml);
  TestRun f = StartYaml(yaml + "faults:\n  - {kind: ecn_off, target: leaf0, at: 200us}\n");
  f->RunUntil(200 * kMicrosecond);
  const uint64_t marks = Marks(f->sw("leaf0"));
  EXPECT_GT(marks, 0u);
  f->RunUntil(220 * kMicrosecond);
  const uint64_t cnps = CnpsSent(*f);
  f.run->Run();
  EXPECT_EQ(Marks(f->sw("leaf0")), marks);
  EXPECT_EQ(CnpsSent(*f), cnps) << "no CNP after the last marked packet arrived";
  EXPECT_GT(CnpsSent(*base), 2 * cnps);
  EXPECT_GT(ComputeTotals(*f).pause_frames_tx, 2 * ComputeTotals(*base).pause_frames_tx);
  EXPECT_EQ(ComputeTotals(*f).drops_lossless, 0u);
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["switches"]["leaf0"]["config"]["ecn_enabled"], false);
  const auto ds = DiagnoseOf(f, "ecn_off");
  const Diagnosis* d = Find(ds, "ECN is off on this switch");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->location, "leaf0");
}

// Thresholds pushed above the buffer PFC leaves: no marks on leaf0 at all.
TEST(FaultConfig, EcnThresholdsAboveXoffNeverMark) {
  TestRun f = RunYaml(Incast(kDcqcn, "  - {kind: ecn_thresholds, target: leaf0, at: 0s, kmin: 16MB, kmax: 20MB}\n"));
  EXPECT_EQ(Marks(f->sw("leaf0")), 0u);
  EXPECT_EQ(f->sw("leaf0").spec().ecn.kmin, 16u << 20);
  EXPECT_GT(ComputeTotals(*f).pause_frames_tx, 0u);
  const auto ds = DiagnoseOf(f, "ecn_thr");
  const Diagnosis* d = Find(ds, "PFC fires but ECN never marks");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->location, "leaf0");
}

// h1's reaction point off: it ignores every CNP and keeps its line rate; the others slow down.
TEST(FaultConfig, CcDisabledHostIgnoresCnps) {
  TestRun f = RunYaml(Incast(kDcqcn, "  - {kind: cc_disabled, target: h1, at: 0s}\n"));
  const RdmaCounters& h1 = f->nic("h1").rdma();
  EXPECT_GT(h1.rp_cnp_ignored, 0u);
  EXPECT_EQ(h1.rp_cnp_handled, 0u);
  EXPECT_GT(f->nic("h2").rdma().rp_cnp_handled, 0u);
  for (const QueuePair& qp : f->qps()) {
    if (qp.src == 1) {
      EXPECT_EQ(qp.rp.rate_bps(), 100e9) << "never cut";
    }
  }
  const auto ds = DiagnoseOf(f, "cc_disabled");
  const Diagnosis* d = Find(ds, "CNPs arrive but the reaction point ignores them");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->location, "h1 (mlx5_0/eth0)");
}

// A config push maps RoCE's DSCP to a lossy priority on leaf0: drops in that queue there.
TEST(FaultConfig, QosDriftPutsRoceInALossyQueue) {
  TestRun f = RunYaml(Incast(kNoCc, "  - {kind: qos_drift, target: leaf0, at: 0s, dscp_to_priority: {26: 1}}\n", "4MB"));
  const Switch& leaf0 = f->sw("leaf0");
  uint64_t uc1_drops = 0;
  for (int p = 0; p < leaf0.num_ports(); ++p) uc1_drops += leaf0.queue_counters(p, 1).dropped_packets;
  EXPECT_GT(uc1_drops, 0u);
  EXPECT_EQ(leaf0.spec().dscp_to_priority[26], 1);
  const auto ds = DiagnoseOf(f, "qos_drift");
  const Diagnosis* d = Find(ds, "RoCE traffic (DSCP 26) rides lossy queue UC1 on leaf0");
  ASSERT_NE(d, nullptr) << Dump(ds);
}

// PFC and WRED are bound apart (SONiC's pfc_enable and wred_profile): a push that takes PFC off
// RoCE's priority leaves its queue marking, and only one that unbinds the WRED profile stops it.
TEST(FaultConfig, QosDriftChangesPfcAndEcnQueuesApart) {
  TestRun pfc_off = RunYaml(Incast(kDcqcn, "  - {kind: qos_drift, target: leaf0, at: 0s, lossless_priorities: []}\n"));
  EXPECT_EQ(pfc_off->sw("leaf0").spec().lossless_mask, 0u);
  EXPECT_EQ(pfc_off->sw("leaf0").spec().ecn_mask, 1u << 3);
  EXPECT_GT(Marks(pfc_off->sw("leaf0")), 0u);
  TestRun ecn_off = RunYaml(Incast(kDcqcn, "  - {kind: qos_drift, target: leaf0, at: 0s, ecn_priorities: []}\n"));
  EXPECT_EQ(ecn_off->sw("leaf0").spec().lossless_mask, 1u << 3);
  EXPECT_EQ(Marks(ecn_off->sw("leaf0")), 0u);
  EXPECT_EQ(ComputeTotals(*ecn_off).drops_lossless, 0u);
}

// A push that takes PFC off RoCE's priority mid-incast: leaf0 stops pausing at once. Its XOFFs
// toward its senders and the spines end with an XON and are not refreshed; its senders send again.
TEST(FaultConfig, PfcTakenOffAPriorityReleasesItsPauses) {
  TestRun f = StartYaml(Incast(kNoCc, "  - {kind: qos_drift, target: leaf0, at: 1ms, lossless_priorities: []}\n", "4MB"));
  const Switch& leaf0 = f->sw("leaf0");
  auto xoffs = [&] {
    int n = 0;
    for (int p = 0; p < leaf0.num_ports(); ++p) n += leaf0.port(p).xoff_sent[3];
    return n;
  };
  auto pauses_sent = [&] {
    uint64_t n = 0;
    for (int p = 0; p < leaf0.num_ports(); ++p) n += leaf0.port(p).counters.tx_pause[3];
    return n;
  };
  f->RunUntil(1 * kMillisecond - 1);
  ASSERT_GT(xoffs(), 0) << "the incast has leaf0 pausing its senders before the push";
  f->RunUntil(1 * kMillisecond + 10 * kMicrosecond);
  EXPECT_EQ(xoffs(), 0);
  const uint64_t after = pauses_sent();
  // Its own senders (the others are paused by leaf1, which kept its PFC).
  int senders_paused = 0;
  for (int p = 0; p < leaf0.num_ports(); ++p)
    if (leaf0.port(p).peer->name()[0] == 'h') senders_paused += leaf0.port(p).peer->port(0).paused[3];
  EXPECT_EQ(senders_paused, 0);
  f->RunUntil(3 * kMillisecond);
  EXPECT_EQ(pauses_sent(), after) << "no XOFF refreshed after the push";
}

// Errors past FEC fail the link, as IEEE 802.3's PCS does (fault/fec.h): at 1.2e-3 about 30 % of
// RS(528,514)'s codewords are uncorrectable, so the first 500 us window of the BER monitor ends
// in hi_ber and the link stays down (no window ever ends clean), its decoders still counting. Frames crossing before it fail
// their FCS. With `link_fault: false` the link carries its errored frames to the end instead.
TEST(FaultLink, ErrorsPastFecFailTheLinkAsThePcsDoes) {
  TestRun failed = ErringHostLink("duration: 5ms\n", "pre_fec_ber: 1.2e-3");
  TestRun carried = ErringHostLink("duration: 5ms\n", "pre_fec_ber: 1.2e-3, link_fault: false");
  const auto hi_ber = Events(*failed, "pcs_hi_ber");
  ASSERT_FALSE(hi_ber.empty());
  EXPECT_GT(hi_ber[0]->t, 1 * kMillisecond);
  EXPECT_LE(hi_ber[0]->t, 1500 * kMicrosecond) << "within the first 500 us window";
  const auto downs = Events(*failed, "carrier_down");
  ASSERT_EQ(downs.size(), 2u) << "both ends, once";
  EXPECT_EQ(downs[0]->t, hi_ber[0]->t);
  EXPECT_TRUE(Events(*failed, "carrier_up").empty()) << "no window ends clean at this rate";
  EXPECT_FALSE(failed->sw("leaf0").Carrier(0));
  EXPECT_GT(failed->sw("leaf0").port(0).counters.crc_errors, 0u) << "frames across it before hi_ber";
  // In hi_ber the light still crosses and the decoders stay aligned: both ends go on counting
  // codewords at line rate to the end, about 30 % of them uncorrectable (a decoder that stopped
  // with the carrier would have counted the 0.3 ms before hi_ber only).
  const double expected = 100e9 * 4e-3 / 5120;  // 4 ms of codewords at 100G, 20 x 256 data bits each
  for (const PortFaults* rx : {failed->sw("leaf0").port(0).faults.get(), failed->nic("h0").port(0).faults.get()}) {
    const FecCounters c = rx->fec.Counters(failed->now());
    EXPECT_NEAR(static_cast<double>(c.codewords), expected, 0.01 * expected);
    EXPECT_NEAR(static_cast<double>(c.uncorrectable_codewords) / static_cast<double>(c.codewords), 0.30, 0.03);
  }
  EXPECT_TRUE(Events(*carried, "carrier_down").empty());
  EXPECT_TRUE(Events(*carried, "pcs_hi_ber").empty());
  EXPECT_GT(carried->sw("leaf0").port(0).counters.crc_errors, 10 * failed->sw("leaf0").port(0).counters.crc_errors);
  // diagnose names the cause of the down, codewords FEC could not correct, and no plain link down:
  // the link comes back and fails again until it is taken out of service.
  const auto ds = DiagnoseOf(failed, "past_fec");
  const Diagnosis* d = Find(ds, "errors past FEC took the link down (hi_ber)");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->rule, "physical.hi_ber");
  EXPECT_NE(d->evidence.find("errors past FEC"), std::string::npos) << d->evidence;
  EXPECT_NE(d->action.find("take it out of service"), std::string::npos) << d->action;
  EXPECT_NE(d->action.find("replace the optic or cable"), std::string::npos) << d->action;
  EXPECT_EQ(Find(ds, "the link is down"), nullptr) << Dump(ds);
}

// With error indication bypassed the decoder counts symbol errors itself: over 417 in a block of
// 8192 codewords (419.4 us at 100G) it invalidates every sync header for 67.1 ms (scaled here by
// 1/100), and the PCS ends hi_ber with the first clean 500 us window after. At 1e-5 a block holds
// 432 symbol errors on average, so most blocks trip; the same rate with indication (the default)
// is corrected and never fails the link. The link needs no training to come back: its signal stayed.
TEST(FaultLink, BypassedIndicationFailsTheLinkOnTheSymbolErrorCount) {
  const std::string head = "duration: 8ms\ntimers: {scale: 0.01}\n";
  TestRun bypassed = ErringHostLink(head, "pre_fec_ber: 1e-5, fec_bypass_indication: true");
  TestRun indicated = ErringHostLink(head, "pre_fec_ber: 1e-5");
  EXPECT_TRUE(Events(*indicated, "carrier_down").empty());
  EXPECT_TRUE(Events(*indicated, "fec_hi_ser").empty());
  const auto hi_ser = Events(*bypassed, "fec_hi_ser");
  ASSERT_GE(hi_ser.size(), 2u);
  EXPECT_LE(hi_ser[0]->t, 1 * kMillisecond + 4 * 419430 * kNanosecond) << "a block trips with probability 0.76";
  std::vector<Time> down, up;
  for (const TimelineEvent& e : bypassed->timeline().events()) {
    if (e.device != "leaf0") continue;
    if (e.event == "carrier_down") down.push_back(e.t);
    if (e.event == "carrier_up") up.push_back(e.t);
  }
  ASSERT_GE(up.size(), 1u);
  EXPECT_EQ(down[0], hi_ser[0]->t);
  EXPECT_EQ(up[0] - down[0], 671 * kMicrosecond + 500 * kMicrosecond) << "the hold, scaled, and one clean window";
}

// A switch classifies by each entry of its DSCP map, odd DSCPs as well as even: RoCE sent with
// DSCP 27, which the switches map to priority 5 (and 26 beside it to 1), counts on PG 5 where it
// enters leaf0, and on no other.
TEST(FaultConfig, EveryDscpOfTheMapClassifies) {
  std::string y = "duration: 2ms\n" +
                  ExampleFabric("  dscp_to_priority: {26: 1, 27: 5}\n", kNoCc, "32MB") + "workload:\n";
  for (const char* h : {"h1", "h8"}) y += std::string("  - {type: flow, src: ") + h + ", dst: h0, size: 256KB, dscp: 27}\n";
  TestRun f = RunYaml(y);
  const Switch& leaf0 = f->sw("leaf0");
  uint64_t by_prio[kNumPriorities] = {};
  for (int p = 0; p < leaf0.num_ports(); ++p)
    for (int prio = 0; prio < kNumPriorities; ++prio) by_prio[prio] += leaf0.received(p, prio).packets;
  EXPECT_GT(by_prio[5], 2u * 256 * 1024 / 4096) << "both flows' data, and their ACKs";
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    if (prio == 5) continue;
    EXPECT_EQ(by_prio[prio], 0u) << "priority " << prio;
  }
}

// spine1's MTU lowered below the RoCE frame: frames from leaf1 that hash to it are dropped there
// as oversize, counted where SAI counts them.
TEST(FaultConfig, MtuBelowTheRoceFrameDropsOversizeFrames) {
  TestRun f = RunYaml(Incast(kNoCc, "  - {kind: mtu, target: spine1, at: 0s, mtu: 1500}\n"));
  uint64_t oversize = 0;
  const Switch& spine1 = f->sw("spine1");
  for (int p = 0; p < spine1.num_ports(); ++p)
    if (spine1.port(p).faults) oversize += spine1.port(p).faults->counters.rx_oversize;
  EXPECT_GT(oversize, 0u);
  const auto s = nlohmann::json::parse(SummaryJson(*f.run));
  EXPECT_EQ(s["switches"]["spine1"]["config"]["mtu"], 1500);
  const auto ds = DiagnoseOf(f, "mtu");
  const Diagnosis* d = Find(ds, "frames larger than the port's MTU are dropped");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->location.find("spine1"), std::string::npos);
}

// A switch's configured MTU alone, its ports' own left as they are: the forwarding check at
// ingress discards the RoCE frames larger than it, and the switch reports it.
TEST(FaultConfig, ConfiguredMtuAloneDiscardsLargerFramesAtIngress) {
  TestRun f = StartYaml(Incast(kNoCc, ""));
  f->sw("spine1").SetConfiguredMtu(1500);
  f.run->Run();
  const Switch& spine1 = f->sw("spine1");
  EXPECT_EQ(spine1.spec().mtu, 1500u);
  uint64_t discarded = 0, sent = 0, sent_bytes = 0;
  for (int p = 0; p < spine1.num_ports(); ++p) {
    ASSERT_FALSE(spine1.port(p).faults && spine1.port(p).faults->mtu) << "port " << p;
    discarded += spine1.port(p).counters.rx_discards;
    sent += spine1.port(p).counters.tx_prio[3].packets;
    sent_bytes += spine1.port(p).counters.tx_prio[3].bytes;
  }
  EXPECT_GT(discarded, 64u) << "the data frames that hash to spine1";
  ASSERT_GT(sent, 0u);
  EXPECT_LT(sent_bytes / sent, 1518u) << "what passes is the ACKs";
}

// leaf0's headroom profile made for a 1 m cable on 200 m links: the pause round trip overflows it.
TEST(FaultConfig, HeadroomForAShortCableOverflowsUnderPause) {
  TestRun base = RunYaml(Incast(kNoCc, ""));
  EXPECT_EQ(ComputeTotals(*base).drops_lossless, 0u);
  TestRun f = RunYaml(Incast(kNoCc, "  - {kind: headroom, target: leaf0, at: 0s, cable: 1m}\n"));
  EXPECT_LT(f->sw("leaf0").headroom(1), base->sw("leaf0").headroom(1));
  EXPECT_GT(ComputeTotals(*f).drops_lossless, 0u);
  const auto ds = DiagnoseOf(f, "headroom");
  const Diagnosis* d = Find(ds, "PG headroom overflow");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->location.find("leaf0"), std::string::npos);
}

// Static routes installed mid-run and taken back: a loop between spine0 and leaf1 for h0 while
// they stand (on this lossy fabric h8's data circles between them and nothing reaches h0; a
// lossless one can deadlock, the next issue's case), the fabric's own routes after.
TEST(FaultConfig, RouteChangeInstallsAndRemovesStaticRoutes) {
  TestRun f = StartYaml("duration: 20ms\n" + ExampleFabric("  pfc: {enabled: false}\n", kNoCc) +
                        "workload:\n  - {type: flow, src: h8, dst: h0, size: 4MB}\nfaults:\n"
                        "  - {kind: route_change, at: 100us, duration: 100us, routes: [{switch: spine0, dst: h0, "
                        "port: leaf1}, {switch: leaf1, dst: h0, port: spine0}]}\n");
  const int spine0 = Node(*f, "spine0");
  const PortCounters& back_down = f->sw("spine0").port(PortToward(*f, "spine0", "leaf1")).counters;
  f->RunUntil(100 * kMicrosecond - 1);
  EXPECT_EQ(f->topology().Exception(spine0, 0), nullptr);
  EXPECT_LT(back_down.Sent().bytes, 64u * 1024) << "only h8's ACKs go that way";
  f->RunUntil(100 * kMicrosecond);
  ASSERT_NE(f->topology().Exception(spine0, 0), nullptr);
  EXPECT_EQ((*f->topology().Exception(spine0, 0))[0], PortToward(*f, "spine0", "leaf1"));
  f->RunUntil(110 * kMicrosecond);
  const uint64_t delivered = f->qps()[0].delivered;
  f->RunUntil(200 * kMicrosecond - 1);
  EXPECT_EQ(f->qps()[0].delivered, delivered) << "nothing reaches h0 while the loop stands";
  EXPECT_GT(back_down.Sent().bytes, 1u << 20) << "h8's data circles back down to leaf1";
  f->RunUntil(200 * kMicrosecond);
  EXPECT_EQ(f->topology().Exception(spine0, 0), nullptr);
  f.run->Run();
  EXPECT_TRUE(f->qps()[0].done);
  EXPECT_EQ(f->qps()[0].delivered, 4u << 20);
  EXPECT_EQ(Count(*f, "fault_injected"), 1);
  EXPECT_EQ(Count(*f, "fault_cleared"), 1);
}

// Same scenario, same seed: the same timeline and summary, byte for byte.
TEST(FaultTimeline, SameScenarioSameTimeline) {
  const std::string yaml = LeafSpine(
      "faults:\n  - {kind: link_flap, target: leaf0-spine1, at: 100us, period: 300us, count: 2}\n"
      "  - {kind: gray_drop, target: leaf1-spine0, at: 50us, rate: 0.001}\n"
      "  - {kind: link_errors, target: h1-leaf0, at: 0s, pre_fec_ber: 2e-4}\n");
  TestRun a = RunYaml(yaml), b = RunYaml(yaml);
  EXPECT_EQ(WithoutEngine(SummaryJson(*a.run)), WithoutEngine(SummaryJson(*b.run)));
  EXPECT_GT(a->timeline().events().size(), 10u);
}

// ---- what the scenario refuses, naming file, line and key ----

std::string ErrorOf(const std::string& yaml) {
  try {
    Experiment x(ParseScenarioText(yaml, "f.yaml"));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(FaultScenario, BadFaultsAreRefusedWithFileLineAndKey) {
  const std::string top = "duration: 10ms\ntopology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 2}\nfaults:\n";
  struct Case {
    std::string entry, expect;
  } cases[] = {
      {"  - {kind: link_melt, target: leaf0-spine1, at: 1ms}", "f.yaml:4:"},
      {"  - {kind: link_down, target: leaf0-spine9, at: 1ms}", "no device named 'spine9'"},
      {"  - {kind: link_down, target: h0-h1, at: 1ms}", "no link joins 'h0' and 'h1'"},
      {"  - {kind: link_down, target: leaf0, at: 1ms}", "link_down takes a link such as leaf0-spine1: 'leaf0' is a switch"},
      {"  - {kind: cc_disabled, target: leaf0, at: 1ms}", "cc_disabled takes a host (h3)"},
      {"  - {kind: link_down, target: leaf0-spine1, at: 1}", "faults[0].at"},
      {"  - {kind: link_down, target: leaf0-spine1, at: 10ms}", "at or after the end of the run"},
      {"  - {kind: link_down, target: leaf0-spine1, at: 1ms, period: 1ms}", "period"},
      {"  - {kind: link_flap, target: leaf0-spine1, at: 1ms, count: 3}", "faults[0].period"},
      {"  - {kind: link_flap, target: leaf0-spine1, at: 1ms, period: 1ms, count: 3, duration: 2ms}", "shorter than the period"},
      {"  - {kind: gray_drop, target: leaf0:Ethernet64, at: 1ms, rate: 0.1}", "'leaf0' has no port 'Ethernet64'"},
      {"  - {kind: ecn_thresholds, target: leaf0, at: 1ms}", "needs kmin, kmax or pmax"},
      {"  - {kind: headroom, target: leaf0, at: 1ms, headroom: 10KB, cable: 5m}", "either headroom or cable"},
      {"  - {kind: route_change, at: 1ms, routes: [{switch: leaf0, dst: h0, port: 3}]}", "bare port number"},
      {"  - {kind: route_change, target: leaf0, at: 1ms, routes: [{switch: leaf0, dst: h0, port: h0}]}", "target"},
  };
  for (const Case& c : cases) {
    const std::string err = ErrorOf(top + c.entry + "\n");
    EXPECT_NE(err.find(c.expect), std::string::npos) << c.entry << "\n  gave: " << err;
    EXPECT_EQ(err.rfind("f.yaml:", 0), 0u) << err;
  }
  // The link's two ends in either order are the same link.
  EXPECT_EQ(ErrorOf(top + "  - {kind: link_down, target: spine1-leaf0, at: 1ms}\n"), "");
}

}  // namespace
}  // namespace rocelab
