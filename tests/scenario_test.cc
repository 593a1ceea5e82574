#include "scenario/scenario.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "run/experiment.h"
#include "util/units.h"
#include "file_util.h"

namespace rocelab {

namespace {

const char* kGood =
    "name: incast-15to1\n"
    "seed: 7\n"
    "duration: 2ms\n"
    "topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 8,\n"
    "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}\n"
    "switch:\n"
    "  buffer: 32MB\n"
    "  lossless_priorities: [3]\n"
    "  pfc: {enabled: true, headroom: auto}\n"
    "  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n"
    "nic: {mtu: 4096, cc: dcqcn}\n"
    "workload:\n"
    "  - {type: flow, src: h0, dst: h8, size: 10MB, start: 0us, priority: 3}\n";

// Replaces the first occurrence of `from` in the good scenario.
std::string Mutate(const std::string& from, const std::string& to) {
  std::string s = kGood;
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

// Parses (and builds, so names are resolved) and returns the error.
ConfigError ErrorOf(const std::string& text) {
  try {
    Scenario sc = ParseScenarioText(text, "bad.yaml");
    Experiment x(sc);
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return ConfigError("", 0, "", "");
}

}  // namespace

TEST(Scenario, TheSchemaExampleParses) {
  Scenario sc = ParseScenarioText(kGood, "good.yaml");
  EXPECT_EQ(sc.name, "incast-15to1");
  EXPECT_EQ(sc.seed, 7u);
  EXPECT_EQ(sc.duration, 2 * kMillisecond);
  EXPECT_EQ(sc.topology.fabric_link.rate_bps, 400000000000ull);
  EXPECT_EQ(sc.sw.buffer, 32ull << 20);
  EXPECT_EQ(sc.sw.ecn.kmin, 100u * 1024);
  EXPECT_EQ(sc.sw.lossless_mask, 1u << 3);
  ASSERT_EQ(sc.flows.size(), 1u);
  EXPECT_EQ(sc.flows[0].size, 10u << 20);
  EXPECT_EQ(sc.flows[0].dscp, 26);  // priority 3 is DSCP 26 by default
  EXPECT_EQ(sc.nic.dcqcn.profile, "mlx5");
}

TEST(Scenario, ErrorsNameFileLineAndKey) {
  struct Case {
    std::string text;
    int line, column;  // an error about a key points at the key, one about a name at the name
    std::string key;
    std::string words;
  };
  const Case cases[] = {
      {Mutate("buffer: 32MB", "buffer: 32"), 7, 3, "switch.buffer", "no unit"},
      {Mutate("buffer: 32MB", "bufer: 32MB"), 7, 3, "switch.bufer", "unknown key"},
      {Mutate("kmax: 400KB", "kmax: 10KB"), 10, 37, "switch.ecn.kmax", "kmax"},
      {Mutate("dst: h8", "dst: h99"), 13, 32, "workload[0].dst", "no host named 'h99'"},
      {Mutate("dst: h8", "dst: leaf1"), 13, 32, "workload[0].dst", "is a switch"},
      {Mutate("mtu: 4096", "mtu: 3000"), 11, 7, "nic.mtu", "256, 512"},
      {Mutate("pmax: 0.2", "pmax: 2"), 10, 50, "switch.ecn.pmax", "out of range"},
      {Mutate("delay: 1us},", "delay: 1 parsec},"), 5, 36, "topology.host_link.delay", "unknown time unit"},
      {Mutate("type: spine-leaf", "type: torus"), 4, 12, "topology.type", "torus"},
      {Mutate("cc: dcqcn", "cc: bbr"), 11, 18, "nic.cc", "bbr"},
      {Mutate("size: 10MB", "size: 0B"), 13, 36, "workload[0].size", "out of range"},
      {Mutate("priority: 3", "priority: 3, dscp: 26"), 13, 73, "workload[0].dscp", "not both"},
      {Mutate("seed: 7", "seed: -1"), 2, 1, "seed", "out of range"},
      {Mutate("hosts_per_leaf: 8", "hosts_per_leaf: 8}"), 4, 70, "", "end of map not found"},
      {Mutate("seed: 7", "seed: 7\nseed: 8"), 3, 1, "", "key 'seed' written twice in one mapping (first on line 2)"},
  };
  for (const Case& c : cases) {
    ConfigError e = ErrorOf(c.text);
    EXPECT_EQ(e.file(), "bad.yaml");
    EXPECT_EQ(e.line(), c.line) << e.what();
    EXPECT_EQ(e.column(), c.column) << e.what();
    EXPECT_EQ(e.key(), c.key) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.words), std::string::npos) << e.what();
    const std::string at = "bad.yaml:" + std::to_string(c.line) + ":" + std::to_string(c.column) + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(at, 0), 0u) << e.what();
  }
}

// Positions a YAML node does not give keep the old form: file:line: and file:.
TEST(Scenario, ErrorsWithoutAColumn) {
  EXPECT_STREQ(ConfigError("f.yaml", 3, "k", "m").what(), "f.yaml:3: key 'k': m");
  EXPECT_STREQ(ConfigError("f.yaml", 3, 9, "", "m").what(), "f.yaml:3:9: m");
  EXPECT_STREQ(ConfigError("f.yaml", 0, 9, "", "m").what(), "f.yaml: m");
  ConfigError empty = ErrorOf("# nothing\n");
  EXPECT_STREQ(empty.what(), "bad.yaml:1: the file is empty");
}

// tests/data/yaml-features.yaml: a byte-order mark, a block scalar, a comment after a value,
// a trailing comma, anchors, aliases and merge keys, all reading as intended.
TEST(Scenario, YamlFeaturesReadAsIntended) {
  const Scenario sc = LoadScenarioFile(std::string(ROCELAB_SOURCE_DIR) + "/tests/data/yaml-features.yaml");
  EXPECT_EQ(sc.name, "yaml features");
  EXPECT_EQ(sc.seed, 3u);
  EXPECT_EQ(sc.topology.leaves, 2);
  EXPECT_EQ(sc.topology.fabric_link.rate_bps, 50000000000ull);  // *link
  EXPECT_EQ(sc.topology.fabric_link.delay, 2 * kMicrosecond);
  EXPECT_EQ(sc.sw.lossless_mask, (1u << 3) | (1u << 4));  // [3, 4,]
  EXPECT_EQ(sc.sw.ecn.kmax, 200u * 1024);
  EXPECT_EQ(sc.nic.processing_delay, 1 * kMicrosecond);
  const SwitchSpec& leaf1 = SwitchSpecFor(sc, "leaf1");  // <<: *ecn, kmax: 300KB
  EXPECT_EQ(leaf1.ecn.kmin, 50u * 1024);
  EXPECT_EQ(leaf1.ecn.kmax, 300u * 1024);
  EXPECT_EQ(SwitchSpecFor(sc, "leaf0").ecn.kmax, 200u * 1024);
  const NicSpec& h1 = NicSpecFor(sc, "h1");
  EXPECT_EQ(h1.rx_drain_rate, 25000000000ull);
  EXPECT_EQ(h1.mtu, 1024u);
  const NicSpec& h2 = NicSpecFor(sc, "h2");  // <<: [*slow, *nic], processing_delay: 2us
  EXPECT_EQ(h2.rx_drain_rate, 25000000000ull);
  EXPECT_EQ(h2.mtu, 1024u);  // *slow comes first
  EXPECT_EQ(h2.processing_delay, 2 * kMicrosecond);
  ASSERT_EQ(sc.flows.size(), 2u);
  EXPECT_EQ(sc.flows[0].src.name, "h0");
  EXPECT_EQ(sc.flows[1].src.name, "h1");  // {<<: *flow, src: h1, start: 10us}
  EXPECT_EQ(sc.flows[1].dst.name, "h3");
  EXPECT_EQ(sc.flows[1].size, 64u * 1024);
  EXPECT_EQ(sc.flows[1].start, 10 * kMicrosecond);
  ASSERT_EQ(sc.incasts.size(), 1u);
  ASSERT_EQ(sc.incasts[0].senders.size(), 2u);
  EXPECT_EQ(sc.incasts[0].senders[1].name, "h2");
  ASSERT_EQ(sc.all_to_alls.size(), 1u);
  ASSERT_EQ(sc.all_to_alls[0].hosts.size(), 2u);  // *senders
  EXPECT_EQ(sc.all_to_alls[0].hosts[0].name, "h1");
  EXPECT_NO_THROW(Experiment x(sc));
}

// An alias is a copy of its anchor: what is wrong inside it is reported where the anchor wrote it.
TEST(Scenario, AnErrorInsideAnAliasPointsAtTheAnchor) {
  ConfigError e = ErrorOf(
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2}\n"
      "switch:\n"
      "  ecn: &ecn {enabled: true, kmin: 50KB}\n"
      "devices:\n"
      "  h1: *ecn\n");
  EXPECT_EQ(e.key(), "devices.h1.enabled");  // a NIC has no ECN settings
  EXPECT_EQ(e.line(), 3);
  EXPECT_EQ(e.column(), 14);
  EXPECT_NE(std::string(e.what()).find("unknown key"), std::string::npos) << e.what();
  // A name from an alias, the same.
  ConfigError name = ErrorOf(
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2}\n"
      "workload:\n"
      "  - {type: all-to-all, hosts: &ring [h0, h9], size: 1KB}\n"
      "  - {type: allreduce, hosts: *ring, size: 1KB}\n");
  EXPECT_EQ(name.line(), 3);
  EXPECT_EQ(name.column(), 42);
  EXPECT_NE(std::string(name.what()).find("no host named 'h9'"), std::string::npos) << name.what();
}

TEST(Scenario, YamlRefusalsNameTheSpot) {
  struct Case {
    std::string text;
    int line, column;
    std::string words;
  };
  const Case cases[] = {
      {std::string(kGood) + "---\nname: two\n", 14, 1, "a second YAML document"},
      {Mutate("nic: {mtu: 4096", "nic: {mtu: *mtu"), 11, 12, "unknown alias '*mtu'"},
      {Mutate("seed: 7", "seed: !!int 7"), 2, 7, "tag '!!int'"},
      // The 63rd '[' is the 65th level, under the top mapping and switch.
      {Mutate("buffer: 32MB", "buffer: " + std::string(70, '[') + std::string(70, ']')), 7, 11 + 62,
       "nesting deeper than 64 levels"},
  };
  for (const Case& c : cases) {
    ConfigError e = ErrorOf(c.text);
    EXPECT_EQ(e.line(), c.line) << e.what();
    EXPECT_EQ(e.column(), c.column) << e.what();
    EXPECT_EQ(e.key(), "") << e.what();
    EXPECT_NE(std::string(e.what()).find(c.words), std::string::npos) << e.what();
  }
}

TEST(Scenario, RouteOverridePortsAreChecked) {
  std::string text = std::string(kGood) + "routes:\n  - {switch: leaf0, dst: h8, port: Ethernet99}\n";
  ConfigError e = ErrorOf(text);
  EXPECT_EQ(e.line(), 15);
  EXPECT_EQ(e.column(), 36);
  EXPECT_EQ(e.key(), "routes.port");
}

// topo/naming.h: one spelling for devices, links, ports and priorities.
TEST(Scenario, NamesThatCouldBeMisreadAreRefused) {
  auto explicit_topo = [](const std::string& nodes, const std::string& links) {
    return "topology: {type: explicit, hosts: [h0, h1], switches: [" + nodes + "],\n"
           "           links: [" + links + "]}\n";
  };
  // Device names may not hold the characters that join link, port and priority names.
  for (const char* bad : {"a-b", "a:b", "a/b", "9lives"}) {
    ConfigError e = ErrorOf(explicit_topo(bad, std::string("{a: h0, b: '") + bad + "', rate: 100G, delay: 1us}, {a: h1, b: '" +
                                                   bad + "', rate: 100G, delay: 1us}"));
    EXPECT_EQ(e.line(), 1) << bad;
    EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
  }
  // Names with '_' and '.' are fine.
  EXPECT_NO_THROW(Experiment(ParseScenarioText(
      explicit_topo("tor_1.a", "{a: h0, b: tor_1.a, rate: 100G, delay: 1us}, {a: h1, b: tor_1.a, rate: 100G, delay: 1us}"),
      "ok.yaml")));
  // Two links between the same devices would make leaf0-spine0 and leaf0:spine0 name two things.
  ConfigError parallel = ErrorOf(
      "topology: {type: explicit, hosts: [h0, h1], switches: [s0, s1],\n"
      "           links: [{a: h0, b: s0, rate: 100G, delay: 1us}, {a: h1, b: s1, rate: 100G, delay: 1us},\n"
      "                   {a: s0, b: s1, rate: 100G, delay: 1us},\n"
      "                   {a: s1, b: s0, rate: 100G, delay: 1us}]}\n");
  EXPECT_EQ(parallel.line(), 4);
  EXPECT_NE(std::string(parallel.what()).find("s1-s0"), std::string::npos) << parallel.what();
  // A bare port number: index 8 or Ethernet8? Refused, with both spellings that work.
  ConfigError bare = ErrorOf(std::string(kGood) + "routes:\n  - {switch: leaf0, dst: h8, port: 8}\n");
  EXPECT_EQ(bare.key(), "routes.port");
  EXPECT_NE(std::string(bare.what()).find("'Ethernet32', toward 'spine0': 'leaf0:spine0'"), std::string::npos) << bare.what();
  // The spellings that name a port: its SONiC name, its peer, or device:peer.
  for (const char* port : {"Ethernet32", "spine0", "leaf0:spine0", "leaf0:Ethernet32"})
    EXPECT_NO_THROW(Experiment(ParseScenarioText(std::string(kGood) + "routes:\n  - {switch: leaf0, dst: h8, port: '" + port + "'}\n",
                                                 "ok.yaml")))
        << port;
}

TEST(Scenario, DeviceOverridesApplyPerDevice) {
  std::string text = std::string(kGood) +
                     "devices:\n  leaf1: {ecn: {enabled: false}, dscp_to_priority: {26: 0}}\n"
                     "  h3: {rx_drain_rate: 50G}\n";
  Scenario sc = ParseScenarioText(text, "x.yaml");
  ASSERT_EQ(sc.devices.size(), 2u);
  Fabric f(sc);
  EXPECT_FALSE(f.sw("leaf1").spec().ecn.enabled);
  EXPECT_EQ(f.sw("leaf1").spec().dscp_to_priority[26], 0);
  EXPECT_TRUE(f.sw("leaf0").spec().ecn.enabled);
  EXPECT_EQ(f.nic("h3").spec().rx_drain_rate, 50000000000ull);
  EXPECT_EQ(f.nic("h2").spec().rx_drain_rate, 0u);
  ConfigError e = ErrorOf(std::string(kGood) + "devices:\n  leaf7: {buffer: 1MB}\n");
  EXPECT_EQ(e.line(), 15);
  EXPECT_EQ(e.column(), 3);
  EXPECT_NE(std::string(e.what()).find("no device named 'leaf7'"), std::string::npos);
}

// An algorithm's settings act only where the NIC runs it, and a DCTCP host cannot talk to a DCQCN
// one (the one echoes marks on its ACKs, the other waits for CNPs): both refused with the key.
TEST(Scenario, CongestionControlSettingsAndMixedAlgorithmsAreRefused) {
  ConfigError unused = ErrorOf(Mutate("nic: {mtu: 4096, cc: dcqcn}", "nic: {mtu: 4096, cc: dcqcn, dctcp: {g: 0.1}}"));
  EXPECT_EQ(unused.line(), 11);
  EXPECT_NE(std::string(unused.what()).find("key 'nic.dctcp': is read only under nic.cc: dctcp (the NIC runs dcqcn)"),
            std::string::npos) << unused.what();
  ConfigError mixed = ErrorOf(std::string(kGood) + "devices:\n  h3: {cc: dctcp}\n");
  EXPECT_EQ(mixed.line(), 15);
  EXPECT_NE(std::string(mixed.what()).find("key 'devices.h3.cc': this host's dctcp and the others' dcqcn cannot talk"),
            std::string::npos)
      << mixed.what();
  ConfigError timely = ErrorOf(Mutate("nic: {mtu: 4096, cc: dcqcn}", "nic: {mtu: 4096, cc: dctcp, timely: {beta: 0.5}}"));
  EXPECT_NE(std::string(timely.what()).find("key 'nic.timely': is read only under nic.cc: timely (the NIC runs dctcp)"),
            std::string::npos) << timely.what();
  ConfigError band = ErrorOf(Mutate("nic: {mtu: 4096, cc: dcqcn}", "nic: {mtu: 4096, cc: timely, timely: {t_low: 80us, t_high: 60us}}"));
  EXPECT_NE(std::string(band.what()).find("key 'nic.timely.t_high': t_high must not be below t_low"), std::string::npos)
      << band.what();
  // Under DCTCP the settings take, and a host may still have congestion control off.
  Scenario sc = ParseScenarioText(Mutate("nic: {mtu: 4096, cc: dcqcn}", "nic: {mtu: 4096, cc: dctcp, dctcp: {g: 0.125, rate_ai: 2G}}") +
                                      "devices:\n  h3: {cc: none}\n",
                                  "x.yaml");
  EXPECT_EQ(sc.nic.cc, NicSpec::Cc::kDctcp);
  EXPECT_DOUBLE_EQ(sc.nic.dctcp.g, 0.125);
  EXPECT_EQ(sc.nic.dctcp.rate_ai_bps, 2000000000ull);
  EXPECT_EQ(NicSpecFor(sc, "h3").cc, NicSpec::Cc::kNone);
}

// An explicit topology's links take a cable length as the other link mappings do: it sets the
// propagation delay (5 ns/m) and so the PFC headroom an auto port reserves for the cable.
TEST(Scenario, ExplicitLinksTakeACableLength) {
  auto topo = [](const std::string& uplink) {
    return "topology: {type: explicit, hosts: [h0, h1], switches: [s0, s1], link: {rate: 100G, length: 20m},\n"
           "           links: [{a: h0, b: s0, length: 3m}, {a: h1, b: s1, delay: 15ns},\n"
           "                   {a: s0, b: s1, " + uplink + "}]}\n";
  };
  Scenario sc = ParseScenarioText(topo("length: 2km"), "x.yaml");
  ASSERT_EQ(sc.topology.links.size(), 3u);
  EXPECT_EQ(sc.topology.links[0].spec.delay, 15 * kNanosecond);
  EXPECT_EQ(sc.topology.links[1].spec.delay, 15 * kNanosecond);
  EXPECT_EQ(sc.topology.links[2].spec.delay, 10 * kMicrosecond);
  EXPECT_EQ(ParseScenarioText(topo("rate: 400G"), "x.yaml").topology.links[2].spec.delay, 100 * kNanosecond);  // from link
  // 2 km of cable and 10 us of delay are the same link, down to the headroom; 5 m needs less.
  Fabric km(sc), us(ParseScenarioText(topo("delay: 10us"), "y.yaml")), near(ParseScenarioText(topo("length: 5m"), "z.yaml"));
  const Switch& s0 = km.sw("s0");
  ASSERT_EQ(s0.num_ports(), 2);
  for (int p = 0; p < 2; ++p) EXPECT_EQ(s0.headroom(p), us.sw("s0").headroom(p)) << p;
  EXPECT_EQ(s0.headroom(0), near.sw("s0").headroom(0));  // the host link is the same
  EXPECT_GT(s0.headroom(1), near.sw("s0").headroom(1) + 100000);  // 2 km: about 250 KB more at 100G
  ConfigError both = ErrorOf(topo("length: 2km, delay: 10us"));
  EXPECT_EQ(both.key(), "topology.links.length");
  EXPECT_NE(std::string(both.what()).find("either delay or length"), std::string::npos) << both.what();
  EXPECT_EQ(ErrorOf(topo("length: 200km")).key(), "topology.links.length");
}

// An out-of-range value's message gives the bounds as the file would write them, in units the
// reader takes, so either bound can be pasted back.
TEST(Scenario, RangeErrorsGiveBoundsThatReadBack) {
  struct Case {
    std::string from, to, range;
    std::function<bool(const std::string&)> reads;
  };
  std::string err;
  auto size = [&](const std::string& v) { uint64_t b; return ParseSize(v, &b, &err); };
  auto time = [&](const std::string& v) { Time t; return ParseTime(v, &t, &err); };
  auto rate = [&](const std::string& v) { uint64_t r; return ParseRate(v, &r, &err); };
  auto length = [&](const std::string& v) { double m; return ParseLength(v, &m, &err); };
  auto number = [&](const std::string& v) { double x; return ParseNumber(v, &x, &err); };
  const Case cases[] = {
      {"duration: 2ms", "duration: 0s", "1ns to 3600s", time},
      {"duration: 2ms", "duration: 7200s", "1ns to 3600s", time},
      {"duration: 2ms", "duration: 800h", "0s to 720h", time},
      {"buffer: 32MB", "buffer: 1KB", "64KB to 16GB", size},
      {"kmax: 400KB", "kmax: 2000000GB", "0B to 1048576GB", size},
      {"headroom: auto", "headroom: 65MB", "0B to 64MB, or auto", size},
      {"pmax: 0.2", "pmax: 2", "0 to 1", number},
      {"enabled: true, headroom: auto", "alpha: 0.0001", "0.0009765625 to 64", number},
      {"rate: 400G", "rate: 20T", "1bps to 10T", rate},
      {"delay: 1us},", "length: 200km},", "0m to 100km", length},
  };
  for (const Case& c : cases) {
    ConfigError e = ErrorOf(Mutate(c.from, c.to));
    const std::string what = e.what();
    EXPECT_NE(what.find("is out of range (" + c.range + ")"), std::string::npos) << what;
    const std::string bounds = c.range.substr(0, c.range.find(", or"));
    const size_t to = bounds.find(" to ");
    ASSERT_NE(to, std::string::npos) << c.range;
    for (const std::string& b : {bounds.substr(0, to), bounds.substr(to + 4)}) EXPECT_TRUE(c.reads(b)) << b << ": " << err;
  }
  // The bounds of the alpha range are the option's own, not rounded (0.000976562 is below the minimum).
  EXPECT_NO_THROW(ParseScenarioText(Mutate("enabled: true, headroom: auto", "alpha: 0.0009765625"), "ok.yaml"));
}

namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

}  // namespace

// A blank between number and unit is read the same for every kind of quantity.
TEST(Scenario, QuantitiesTakeABlankBeforeTheUnit) {
  std::string spaced = kGood;
  for (const char* q : {"2ms", "100G", "400G", "1us", "32MB", "100KB", "400KB", "10MB", "0us"})
    for (size_t at = spaced.find(q); at != std::string::npos; at = spaced.find(q, at)) {
      size_t unit = at;
      while (std::isdigit(static_cast<unsigned char>(spaced[unit]))) ++unit;
      spaced.insert(unit, " ");
      at = unit + 1;
    }
  ASSERT_NE(spaced.find("delay: 1 us"), std::string::npos) << spaced;
  ASSERT_NE(spaced.find("size: 10 MB"), std::string::npos) << spaced;
  const Scenario a = ParseScenarioText(kGood, "a.yaml"), b = ParseScenarioText(Replace(spaced, "cc: dcqcn}", "cc: dcqcn, rx_drain_rate: 50 G}"), "b.yaml");
  EXPECT_EQ(b.duration, a.duration);
  EXPECT_EQ(b.topology.host_link.rate_bps, a.topology.host_link.rate_bps);
  EXPECT_EQ(b.topology.fabric_link.rate_bps, a.topology.fabric_link.rate_bps);
  EXPECT_EQ(b.topology.host_link.delay, a.topology.host_link.delay);
  EXPECT_EQ(b.sw.buffer, a.sw.buffer);
  EXPECT_EQ(b.sw.ecn.kmin, a.sw.ecn.kmin);
  EXPECT_EQ(b.sw.ecn.kmax, a.sw.ecn.kmax);
  EXPECT_EQ(b.flows[0].size, a.flows[0].size);
  EXPECT_EQ(b.nic.rx_drain_rate, 50000000000ull);
  EXPECT_EQ(ParseScenarioText(Mutate("delay: 1us},", "length: 200 m},"), "c.yaml").topology.host_link.delay, kMicrosecond);
}

// Paths in a scenario start at the scenario's folder: a scenario copied elsewhere with its CDF
// beside it runs from any working folder; a missing CDF is an error at load time (so lint sees
// it) naming the key and the path as resolved.
TEST(Scenario, PathsStartAtTheScenarioFolder) {
  const std::string dir = TempDir("paths");
  std::string yaml = ReadAll(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/websearch-k4.yaml");
  yaml = Replace(yaml, "../../shared/data/cdf/WebSearch_distribution.txt", "websearch.cdf");
  yaml = Replace(Replace(yaml, "duration: 50ms", "duration: 300us"), "duration: 5ms", "duration: 200us");
  std::ofstream(dir + "/ws.yaml") << yaml;
  std::ofstream(dir + "/websearch.cdf") << ReadAll(std::string(ROCELAB_SHARED_DATA) + "/cdf/WebSearch_distribution.txt");
  Experiment x(LoadScenarioFile(dir + "/ws.yaml"));
  x.Run();
  EXPECT_GT(x.fabric().qps().size(), 0u);

  ::unlink((dir + "/websearch.cdf").c_str());
  try {
    LoadScenarioFile(dir + "/ws.yaml");
    ADD_FAILURE() << "no error for a missing CDF";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.file(), dir + "/ws.yaml");
    EXPECT_EQ(e.line(), 9);
    EXPECT_EQ(e.key(), "workload[0].cdf");
    EXPECT_NE(std::string(e.what()).find("'" + dir + "/websearch.cdf': no such file"), std::string::npos) << e.what();
  }
}

}  // namespace rocelab
