// The paths the NICs stamp into their packets (net/flow_paths.h): each switch's own choice,
// forgotten when the routes change, and nothing the fabric does differs with or without them.
#include "net/flow_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "test_util.h"

namespace rocelab {
namespace {

// A k=4 fat-tree: a packet between pods crosses five switches (edge, aggregation, core,
// aggregation, edge), as many as a stamp holds, with an ECMP choice at the first three.
const char* kFatTree =
    "topology: {type: fat-tree, k: 4, link: {rate: 100G, delay: 1us}}\n"
    "switch: {lossless_priorities: [3]}\n"
    "nic: {cc: none}\n"
    "workload:\n  - {type: flow, src: h0, dst: h15, size: 64KB}\n";

Packet Headers(uint32_t qp, uint32_t src, uint32_t dst, uint16_t sport, PacketType type) {
  Packet p{};
  p.qp = qp;
  p.src = src;
  p.dst = dst;
  p.udp_sport = sport;
  p.udp_dport = kRoceUdpPort;
  p.type = type;
  p.ttl = kSendTtl;
  return p;
}

// The output port of each switch a packet crosses, as each switch chooses it now
// (Fabric::PathOf: the links from the source host's port on).
std::vector<int> PortsAsked(const Fabric& f, const Packet& pkt) {
  std::vector<int> ports;
  for (const auto& [node, port] : f.PathOf(pkt))
    if (f.topology().nodes()[node].is_switch) ports.push_back(port);
  return ports;
}

std::vector<int> PortsStamped(const Packet& pkt) { return std::vector<int>(pkt.path, pkt.path + pkt.path_hops); }

TEST(FlowPaths, AStampIsEachSwitchsOwnChoice) {
  TestRun f = StartYaml(kFatTree);
  FlowPaths& paths = *f->context()->flow_paths;
  int between_pods = 0;
  for (uint32_t src = 0; src < 16; ++src)
    for (uint32_t dst = 0; dst < 16; ++dst)
      for (uint16_t sport : {49152, 50000, 61234}) {
        if (src == dst) continue;
        for (PacketType type : {PacketType::kData, PacketType::kAck}) {
          Packet pkt = Headers(src * 16 + dst, src, dst, sport, type);
          paths.Stamp(&pkt);
          const std::vector<int> asked = PortsAsked(*f, pkt);
          ASSERT_EQ(PortsStamped(pkt), asked) << "h" << src << " to h" << dst << " sport " << sport;
          between_pods += asked.size() == 5;
        }
      }
  EXPECT_EQ(between_pods, 16 * 12 * 3 * 2);  // 12 of each host's 15 peers are in other pods
}

TEST(FlowPaths, OnlyAQueuePairsPacketsWithTheirFirstTtlAreStamped) {
  TestRun f = StartYaml(kFatTree);
  FlowPaths& paths = *f->context()->flow_paths;
  Packet probe = Headers(Packet::kNoQp, 0, 15, 49152, PacketType::kProbe);
  paths.Stamp(&probe);
  EXPECT_EQ(probe.path_hops, 0);
  Packet forwarded = Headers(0, 0, 15, 49152, PacketType::kData);
  forwarded.ttl = kSendTtl - 1;
  paths.Stamp(&forwarded);
  EXPECT_EQ(forwarded.path_hops, 0);
  f->SetPathStamps(false);
  Packet off = Headers(0, 0, 15, 49152, PacketType::kData);
  paths.Stamp(&off);
  EXPECT_EQ(off.path_hops, 0);
}

// A route change clears the stamps of the packets already sent, and the next stamp follows
// the new routes.
TEST(FlowPaths, ARouteChangeClearsEveryStamp) {
  TestRun f = StartYaml(kFatTree);
  FlowPaths& paths = *f->context()->flow_paths;
  PacketPool& pool = f->context()->pool;
  Packet* in_flight = pool.Get();
  *in_flight = Headers(0, 0, 15, 49152, PacketType::kData);
  paths.Stamp(in_flight);
  ASSERT_EQ(in_flight->path_hops, 5);
  EXPECT_TRUE(paths.Current());
  // The port the packet's edge switch chose goes down: that switch's uplinks lose one.
  const int edge = f->topology().nodes()[f->topology().hosts()[0]].ports[0].peer_node;
  const int chosen = in_flight->path[0];
  f->mutable_topology().SetPortUp(edge, chosen, false);
  EXPECT_FALSE(paths.Current());
  EXPECT_EQ(in_flight->path_hops, 0);
  EXPECT_TRUE(paths.Current());
  Packet again = Headers(0, 0, 15, 49152, PacketType::kData);
  paths.Stamp(&again);
  ASSERT_EQ(again.path_hops, 5);
  EXPECT_NE(again.path[0], chosen);
  EXPECT_EQ(PortsStamped(again), PortsAsked(*f, again));
  // A static route for the destination at that switch: the stamp takes it.
  f->mutable_topology().SetPortUp(edge, chosen, true);
  const int other_up = chosen == 2 ? 3 : 2;  // a k=4 edge switch: hosts on ports 0, 1, uplinks 2, 3
  f->mutable_topology().OverrideRoute(edge, 15, other_up);
  paths.Stamp(&again);
  EXPECT_EQ(again.path[0], other_up);
  EXPECT_EQ(PortsStamped(again), PortsAsked(*f, again));
  pool.Put(in_flight);
}

// A path longer than a stamp holds: its packets go unstamped and each switch looks up.
TEST(FlowPaths, APathPastFiveSwitchesGoesUnstamped) {
  std::string links = "{a: h0, b: s0, rate: 100G, delay: 1us}";
  for (int s = 0; s < 5; ++s)
    links += ", {a: s" + std::to_string(s) + ", b: s" + std::to_string(s + 1) + ", rate: 100G, delay: 1us}";
  links += ", {a: s5, b: h1, rate: 100G, delay: 1us}";
  TestRun f = StartYaml("topology: {type: explicit, hosts: [h0, h1], switches: [s0, s1, s2, s3, s4, s5],\n"
                        "           links: [" + links + "]}\n"
                        "nic: {cc: none}\n"
                        "workload:\n  - {type: flow, src: h0, dst: h1, size: 64KB}\n");
  Packet pkt = Headers(0, 0, 1, 49152, PacketType::kData);
  f->context()->flow_paths->Stamp(&pkt);
  EXPECT_EQ(pkt.path_hops, 0);
  EXPECT_EQ(PortsAsked(*f, pkt).size(), 6u);
  f.run->Run();
  EXPECT_TRUE(f->qps()[0].done);
}

std::string ReadScenario(const std::string& name) {
  std::ifstream in(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Whole runs whose routes change under traffic (a link flapping, a looping static route, a
// fat-tree with ECMP at three tiers): every figure the same with stamps and without.
TEST(FlowPaths, RunsAreTheSameWithoutThem) {
  for (const char* name : {"faults/link_flap.yaml", "faults/route_change.yaml", "faults/link_down.yaml",
                           "fat-tree-k8-permutation.yaml"}) {
    std::string yaml = ReadScenario(name);
    ASSERT_FALSE(yaml.empty()) << name;
    const size_t duration = yaml.find("duration: 100ms");
    if (duration != std::string::npos) yaml.replace(duration, 15, "duration: 300us");  // the k=8 run, cut short
    TestRun on = StartYaml(yaml), off = StartYaml(yaml);
    off->SetPathStamps(false);
    on.run->Run();
    off.run->Run();
    const std::string a = WithoutEngine(SummaryJson(*on.run)), b = WithoutEngine(SummaryJson(*off.run));
    const size_t at = std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin();
    EXPECT_EQ(a.size(), at) << name << ": the summaries part at byte " << at << ":\n"
                            << a.substr(at > 200 ? at - 200 : 0, 400) << "\n---\n" << b.substr(at > 200 ? at - 200 : 0, 400);
  }
}

}  // namespace
}  // namespace rocelab
