// Every key of the scenario file, declared once: the key as the user writes it,
// its unit, the range it accepts, its default and one line of help. The readers
// (scenario.cc) take key, unit and range from here, the structs of scenario.h
// take their defaults from here, and `rocelab schema` prints this list as the
// README's key table.
//
// Key paths: `a.b.c` nests mappings; `list[].key` is a key of every entry of a
// list; `workload[incast].jitter` is a key only entries of that type take;
// `topology.<link>.rate` is a key of every link mapping (host_link, fabric_link,
// link and the entries of links).
#ifndef ROCELAB_SCENARIO_OPTIONS_H_
#define ROCELAB_SCENARIO_OPTIONS_H_

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "sim/time.h"

namespace rocelab {

enum class Unit {
  kSize,        // bytes: 32MB, 256B
  kRate,        // bits per second: 100G
  kTime,        // picoseconds: 1us, 200ms
  kLength,      // meters: 5m, 1km
  kNumber,      // a plain number: 0.125
  kInteger,     // a whole number
  kBool,        // true or false
  kChoice,      // one word of `values`
  kPriorities,  // a list of priorities 0..7 (or one), held as a bit mask
  kIntegers,    // a list of whole numbers
  kDscpMap,     // {DSCP: priority, ...}
  kText,
  kName,     // a node or port name
  kNames,    // a list of names
  kMapping,  // a section of further keys
  kList,     // a list of entries
};

constexpr double kNoLimit = std::numeric_limits<double>::infinity();

struct Option {
  const char* key = "";
  Unit unit = Unit::kText;
  // A numeric default in the unit's base (bytes, bits/s, ps; 0/1; a bit mask of priorities).
  double def = 0;
  // A default that is not a number, as written in the file (a choice, "auto", "[3]"), or in words.
  const char* def_text = nullptr;
  bool default_in_words = false;   // def_text describes the default rather than giving it
  double min = 0, max = kNoLimit;  // accepted range (of each item, for lists)
  // kChoice: the words accepted, "a|b|c". A size, rate or time: a word accepted instead.
  const char* values = nullptr;
  // Not null: the key must be given; the text says what is expected ("" for nothing more).
  const char* required = nullptr;
  const char* help = "";

  constexpr Option Required(const char* what = "") const {
    Option o = *this;
    o.required = what;
    return o;
  }
  // A default as written in the file, for values that are not numbers: "[10, 10, 40]".
  constexpr Option Default(const char* value) const {
    Option o = *this;
    o.def_text = value;
    return o;
  }
  // A default that depends on other keys, in words ("" when there is none to speak of).
  constexpr Option DefaultIs(const char* words) const {
    Option o = Default(words);
    o.default_in_words = true;
    return o;
  }
  // A quantity that also takes `word`, which is its default and stands for `def`.
  constexpr Option Or(const char* word) const {
    Option o = Default(word);
    o.values = word;
    return o;
  }
  // A quantity that also takes the words of `words` ("auto|off"), its default staying a quantity.
  constexpr Option Words(const char* words) const {
    Option o = *this;
    o.values = words;
    return o;
  }
  // Whether the default (a choice or a word) is `word`.
  constexpr bool Is(const char* word) const {
    if (!def_text) return false;
    const char* a = def_text;
    while (*a && *a == *word) ++a, ++word;
    return *a == *word;
  }
  // The last part of the key: what a reader looks up in its mapping.
  const char* leaf() const;
};

namespace opt {

constexpr double kKiB = 1024.0, kMiB = 1024.0 * kKiB, kGiB = 1024.0 * kMiB;

constexpr Option Make(const char* key, Unit unit, double def, double min, double max, const char* help) {
  Option o;
  o.key = key;
  o.unit = unit;
  o.def = def;
  o.min = min;
  o.max = max;
  o.help = help;
  return o;
}
constexpr Option Size(const char* key, double def, double min, double max, const char* help) {
  return Make(key, Unit::kSize, def, min, max, help);
}
constexpr Option Rate(const char* key, double def, const char* help) {
  return Make(key, Unit::kRate, def, 0, kNoLimit, help);
}
constexpr Option Duration(const char* key, double def, double min, double max, const char* help) {
  return Make(key, Unit::kTime, def, min, max, help);
}
constexpr Option Integer(const char* key, double def, double min, double max, const char* help) {
  return Make(key, Unit::kInteger, def, min, max, help);
}
constexpr Option Number(const char* key, double def, double min, double max, const char* help) {
  return Make(key, Unit::kNumber, def, min, max, help);
}
constexpr Option Boolean(const char* key, bool def, const char* help) {
  return Make(key, Unit::kBool, def ? 1 : 0, 0, 1, help);
}
// `values` lists the words accepted: "enqueue|dequeue".
constexpr Option Choice(const char* key, const char* def, const char* values, const char* help) {
  Option o = Make(key, Unit::kChoice, 0, 0, kNoLimit, help);
  o.def_text = def;
  o.values = values;
  return o;
}
constexpr Option Priorities(const char* key, std::initializer_list<int> def, const char* help) {
  double mask = 0;
  for (int p : def) mask += static_cast<double>(1u << p);
  return Make(key, Unit::kPriorities, mask, 0, 7, help);
}
// Anything else: sections, lists, names, maps, text. `def` as written in the file ("": none).
constexpr Option Other(const char* key, Unit unit, const char* def, const char* help) {
  Option o = Make(key, unit, 0, 0, kNoLimit, help);
  o.def_text = def;
  return o;
}

// ---- The file's top level ----
inline constexpr Option kName = Other("name", Unit::kText, "scenario", "the run's name in summary.json");
inline constexpr Option kSeed =
    Integer("seed", 1, 0, 9007199254740991.0, "seed of every random stream (rocelab run --seed overrides it)");
inline constexpr Option kDuration = Duration("duration", 10 * kMillisecond, kNanosecond, 3600 * kSecond,
                                             "simulated time limit; a run also ends when every flow has finished");

// ---- topology ----
inline constexpr Option kTopology = Other("topology", Unit::kMapping, "", "the fabric: its type and shape").Required();
inline constexpr Option kTopologyType =
    Choice(
        "topology.type", "", "spine-leaf|fat-tree|explicit",
        "hosts h0..; switches leaf0.. spine0.. (spine-leaf), edge0.. agg0.. core0.. (fat-tree) or as listed (explicit)")
        .Required();
inline constexpr Option kTopologySpines = Integer("topology.spines", 2, 1, 256, "spine-leaf: spine switches");
inline constexpr Option kTopologyLeaves = Integer("topology.leaves", 2, 1, 1024, "spine-leaf: leaf switches");
inline constexpr Option kTopologyHostsPerLeaf =
    Integer("topology.hosts_per_leaf", 8, 1, 256, "spine-leaf: hosts below each leaf");
inline constexpr Option kTopologyK = Integer("topology.k", 4, 2, 64, "fat-tree: ports per switch, even; k³/4 hosts");
inline constexpr Option kTopologyHostLink =
    Other("topology.host_link", Unit::kMapping, "", "spine-leaf, fat-tree: the links from hosts to their switch");
inline constexpr Option kTopologyFabricLink =
    Other("topology.fabric_link", Unit::kMapping, "", "spine-leaf, fat-tree: the links between switches")
        .DefaultIs("host_link without bit errors (fat-tree: link)");
inline constexpr Option kTopologyLink =
    Other("topology.link", Unit::kMapping, "", "fat-tree: every link; explicit: what each entry of links starts from");
inline constexpr Option kTopologyHosts = Other("topology.hosts", Unit::kNames, "", "explicit: the host names");
inline constexpr Option kTopologySwitches = Other("topology.switches", Unit::kNames, "", "explicit: the switch names");
inline constexpr Option kTopologyLinks =
    Other("topology.links", Unit::kList, "", "explicit: the links, each {a, b, rate, delay or length, ber}; a host has one");
inline constexpr Option kTopologyLinksA =
    Other("topology.links[].a", Unit::kName, "", "one end of the link").Required();
inline constexpr Option kTopologyLinksB = Other("topology.links[].b", Unit::kName, "", "the other end").Required();
inline constexpr Option kLinkRate = Rate("topology.<link>.rate", 100e9, "line rate");
// Without a delay or length a link has the cable SONiC sizes headroom for at its place
// (sonic-buildimage files/build_templates/buffers_config.j2, ports2cable; topo/topology.cc).
inline constexpr Option kLinkDelay =
    Duration("topology.<link>.delay", -1, 0, kSecond,
             "one-way propagation delay; auto: SONiC's cable for the link's place, 5m to a host, 40m between "
             "switches, 300m to a fat tree's core")
        .Or("auto");
inline constexpr Option kLinkLength = Make("topology.<link>.length", Unit::kLength, 0, 0, 100000,
                                           "cable length instead of delay, at 5 ns/m")
                                          .DefaultIs("");
inline constexpr Option kLinkBer = Number("topology.<link>.ber", 0, 0, 1e-3, "bit-error rate");

// ---- switch (and devices.NAME of a switch) ----
inline constexpr Option kSwitch =
    Other("switch", Unit::kMapping, "", "every switch; devices.NAME takes the same keys for one switch");
// A chip's cell, buffer and pipeline latency, from public sources (scenario/asic_profile.cc);
// the section's own keys override them. none: the generic switch the keys' defaults describe.
inline constexpr Option kSwitchAsic =
    Choice("switch.asic", "none", "none|spectrum1|spectrum2|spectrum3|spectrum4|spectrum5|trident3",
           "the switching chip: sets cell, buffer and pipeline_latency where published (docs/asic-profiles.md)");
inline constexpr Option kSwitchBuffer =
    Size("switch.buffer", 32 * kMiB, 64 * kKiB, 16 * kGiB, "shared buffer per switch");
inline constexpr Option kSwitchCell = Size("switch.cell", 256, 1, 4 * kKiB, "buffer accounting cell");
// Port to port through the forwarding pipeline, before a frame joins its egress queue; vendors
// state 300 ns for Spectrum-2 (Linley Group, "Spectrum-2 Debuts 200GbE", 2017), and 850 ns is
// quoted for the Trident+-based Arista 7050 and Cisco Nexus 3000 (a 2012 survey of low-latency
// switches). 0 (the default) keeps the shipped scenarios' figures as they were measured.
inline constexpr Option kSwitchPipelineLatency =
    Duration("switch.pipeline_latency", 0, 0, 100 * kMicrosecond,
             "port-to-port latency of the forwarding pipeline, before a frame joins its egress queue");
inline constexpr Option kSwitchLosslessPriorities =
    Priorities("switch.lossless_priorities", {3}, "priorities with PFC");
inline constexpr Option kSwitchPfc = Other("switch.pfc", Unit::kMapping, "", "priority flow control (802.1Qbb)");
inline constexpr Option kSwitchPfcEnabled = Boolean("switch.pfc.enabled", true, "send pause frames");
inline constexpr Option kSwitchPfcHeadroom =
    Size("switch.pfc.headroom", 0, 0, 64 * kMiB,
         "headroom per port and lossless PG; auto: from link rate, cable, MTU and response time")
        .Or("auto");
// What the auto headroom takes the frames of a pause's round trip to be: this share of them 64 B
// ones, each charged a whole cell, the rest the largest RoCE data frame (SONiC's
// LOSSLESS_TRAFFIC_PATTERN small_packet_percentage; 100 in its configuration reference and its
// dynamic-headroom design, 50 in the buffers_config.j2 template). ACKs queued behind a pause leave
// together when it ends; a switch queue holding many queue pairs' ACKs sends them back to back,
// and on 256 B cells such a burst fills a headroom sized for data frames three times as fast as
// its bytes say: at 84 KB and 120 KB of headroom a 100G link still drops them, at 205 KB none
// (tests/small_frame_headroom_test.cc's fabric: 628, 453, 225 and 0 ACKs).
// 0 by default, so that the shipped scenarios and the tables measured from them keep their
// figures; the run discloses it.
inline constexpr Option kSwitchPfcSmallPacketPercentage =
    Integer("switch.pfc.small_packet_percentage", 0, 0, 100,
            "headroom auto: the share of the frames after an XOFF taken to be 64 B ones, a cell each (SONiC's "
            "LOSSLESS_TRAFFIC_PATTERN); 0: all the largest data frame");
inline constexpr Option kSwitchPfcAlpha =
    Number("switch.pfc.alpha", 1.0 / 8, 1.0 / 1024, 64, "dynamic threshold of a PG on the free shared pool");
inline constexpr Option kSwitchPfcXonOffset =
    Size("switch.pfc.xon_offset", 18 * kKiB, 0, 64 * kMiB, "resume this far below the XOFF point");
inline constexpr Option kSwitchPfcXon =
    Size("switch.pfc.xon", 0, 0, 64 * kMiB, "static XON: resume once the PG holds no more than this (0B: none)");
inline constexpr Option kSwitchPfcQuanta =
    Integer("switch.pfc.quanta", 65535, 1, 65535, "pause time of each XOFF frame, in 512-bit quanta");
inline constexpr Option kSwitchPfcResponseTime =
    Duration("switch.pfc.response_time", -1, 0, kMillisecond,
             "time to act on a pause; auto: the per-speed 802.1Qbb allowance")
        .Or("auto");
// SONiC's shared headroom pool (doc/qos/shared-headroom-pool.md; Mellanox platforms): the PGs'
// xoff is no longer reserved each, but pooled at their sum over the over-subscribe ratio
// (LOSSLESS_TRAFFIC_PATTERN.over_subscribe_ratio; `config buffer shared-headroom-pool
// over-subscribe-ratio`, 2 where the CLI sets it). A PG still takes no more than its own headroom.
inline constexpr Option kSwitchPfcOverSubscribeRatio =
    Number("switch.pfc.over_subscribe_ratio", 0, 0, 1000,
           "shared headroom pool: the lossless PGs' headroom pooled at its sum over this ratio (0: each PG reserves its own)");
inline constexpr Option kSwitchEcn =
    Other("switch.ecn", Unit::kMapping, "", "RED/ECN marking of the queues below on the instantaneous queue");
inline constexpr Option kSwitchEcnEnabled = Boolean("switch.ecn.enabled", true, "mark ECN-capable packets");
// A queue's WRED/ECN profile and its PFC are separate settings (SONiC binds `wred_profile` to a
// queue in QUEUE and `pfc_enable` to a port in PORT_QOS_MAP), so "PFC off, ECN on", lossy RoCE,
// is a configuration of its own.
inline constexpr Option kSwitchEcnPriorities =
    Priorities("switch.ecn.priorities", {3}, "queues with a WRED/ECN profile, PFC or not (SONiC wred_profile)")
        .DefaultIs("as switch.lossless_priorities");
inline constexpr Option kSwitchEcnKmin =
    Size("switch.ecn.kmin", 100 * kKiB, 0, kNoLimit, "queue length where marking starts");
inline constexpr Option kSwitchEcnKmax =
    Size("switch.ecn.kmax", 400 * kKiB, 0, kNoLimit, "queue length where the probability reaches pmax");
inline constexpr Option kSwitchEcnPmax = Number("switch.ecn.pmax", 0.2, 0, 1, "marking probability at kmax");
inline constexpr Option kSwitchEcnMark =
    Choice("switch.ecn.mark", "dequeue", "enqueue|dequeue", "when a packet is marked");
inline constexpr Option kSwitchEts = Other("switch.ets", Unit::kMapping, "", "scheduling of the 8 egress queues");
inline constexpr Option kSwitchEtsStrict =
    Priorities("switch.ets.strict", {6}, "strict-priority queues (CNPs ride queue 6)");
inline constexpr Option kSwitchEtsWeights =
    Make("switch.ets.weights", Unit::kIntegers, 0, 0, 100, "8 DWRR weights, in percent of the non-strict bandwidth")
        .Default("[10, 10, 10, 40, 10, 10, 0, 10]");
inline constexpr Option kSwitchPfcWatchdog =
    Other("switch.pfc_watchdog", Unit::kMapping, "", "SONiC's PFC watchdog (Mellanox flavour; docs/pfc-agents.md)");
// The ranges are sonic-utilities pfcwd's: detection 100-5000 ms, restoration 100-60000 ms.
inline constexpr Option kSwitchPfcWatchdogEnabled = Boolean("switch.pfc_watchdog.enabled", true, "the watchdog runs");
inline constexpr Option kSwitchPfcWatchdogDetectionTime =
    Duration("switch.pfc_watchdog.detection_time", 200 * kMillisecond, 100 * kMillisecond, 5000 * kMillisecond,
             "a queue paused this long is storming");
inline constexpr Option kSwitchPfcWatchdogRestorationTime =
    Duration("switch.pfc_watchdog.restoration_time", 200 * kMillisecond, 100 * kMillisecond, 60000 * kMillisecond,
             "the action lasts until no pause came for this long");
inline constexpr Option kSwitchPfcWatchdogAction =
    Choice("switch.pfc_watchdog.action", "drop", "drop|forward|alert", "what the watchdog does to a storming queue");
// orchagent's default poll is 100 ms (pfcwdorch); the CLI accepts 100 to 1000 ms.
inline constexpr Option kSwitchPfcWatchdogPollInterval =
    Duration("switch.pfc_watchdog.poll_interval", 100 * kMillisecond, 100 * kMillisecond, 1000 * kMillisecond,
             "how often the queues are checked");
inline constexpr Option kSwitchTrust =
    Choice("switch.trust", "dscp", "dscp|pcp", "classify by DSCP or by the 802.1p PCP of the frame");
inline constexpr Option kSwitchDscpToPriority = Other("switch.dscp_to_priority", Unit::kDscpMap, "{26: 3, 48: 6}",
                                                      "entries over the default map (every other DSCP: priority 0)");
inline constexpr Option kSwitchLossyAlpha =
    Number("switch.lossy_alpha", 8, 1.0 / 1024, 64,
           "dynamic threshold of a lossy ingress PG on the free shared pool (SONiC dynamic_th 3)");
inline constexpr Option kSwitchEgressLossyAlpha =
    Number("switch.egress_lossy_alpha", 8, 1.0 / 1024, 64,
           "dynamic threshold of a lossy egress queue on the free shared pool (SONiC q_lossy_profile, dynamic_th 3)");
inline constexpr Option kSwitchMtu = Integer("switch.mtu", 9216, 1500, 9216, "largest frame payload a port takes");
// When a link fails (docs/faults.md says why these defaults): the switch at each end prunes it
// from its ECMP groups after link_down_detection; every switch's routes reflect it after
// route_convergence, both counted from the failure. The same when it comes back.
inline constexpr Option kSwitchLinkDownDetection =
    Duration("switch.link_down_detection", kMillisecond, 0, 10 * kSecond,
             "a failed or restored link leaves or rejoins this switch's ECMP groups after this (scaled with timers.scale)");
inline constexpr Option kSwitchRouteConvergence =
    Duration("switch.route_convergence", 150 * kMillisecond, 0, 100 * kSecond,
             "this switch's routes reflect a link failure or repair elsewhere after this (scaled with timers.scale)");
// What a port's PHY makes of a loss of signal (net/link_phy.h; docs/faults.md says why these
// defaults): a loss shorter than the debounce is never reported (off by default on Cisco
// Catalyst, Dell and OcNOS switches); a reported one needs the link trained again once the
// signal is back, by default as long as its lanes' training may take (net/link_phy.h,
// LinkTrainingTime: 500 ms on NRZ lanes, about 3 s on PAM4 ones).
inline constexpr Option kSwitchLinkDebounce =
    Duration("switch.link_debounce", 0, 0, 5 * kSecond,
             "a loss of signal shorter than this is not reported (no carrier change); a longer one is reported this "
             "late (scaled with timers.scale)");
inline constexpr Option kSwitchLinkUpTime =
    Duration("switch.link_up_time", -1, 0, 60 * kSecond,
             "from a reported link's signal coming back to its carrier up: autonegotiation and link training (scaled "
             "with timers.scale); auto: 500ms on NRZ lanes (up to 100G), 3s on PAM4 (50G, 200G and up)")
        .Or("auto");

// ---- nic (and devices.NAME of a host) ----
inline constexpr Option kNic =
    Other("nic", Unit::kMapping, "", "every host's NIC; devices.NAME takes the same keys for one host");
inline constexpr Option kNicMtu = Integer("nic.mtu", 4096, 256, 4096, "RoCE path MTU: 256, 512, 1024, 2048 or 4096");
inline constexpr Option kNicCc =
    Choice("nic.cc", "dcqcn", "none|dcqcn|dctcp|timely|hpcc",
           "congestion control: DCQCN (CNPs), DCTCP (ECN echoed on ACKs), TIMELY (RTTs) or HPCC (switches' INT)");
inline constexpr Option kNicDcqcn = Other("nic.dcqcn", Unit::kMapping, "", "DCQCN parameters (docs/dcqcn.md)");
inline constexpr Option kNicDcqcnProfile =
    Choice("nic.dcqcn.profile", "mlx5", "mlx5|paper", "where the parameters below start: mlx5 firmware or the paper");
inline constexpr Option kNicDcqcnG =
    Number("nic.dcqcn.g", 0, 0, 1, "alpha gain per alpha update").DefaultIs("per profile");
inline constexpr Option kNicDcqcnAlphaUpdatePeriod =
    Duration("nic.dcqcn.alpha_update_period", 0, kNanosecond, kSecond, "alpha is updated once per period")
        .DefaultIs("per profile");
inline constexpr Option kNicDcqcnInitialAlpha =
    Number("nic.dcqcn.initial_alpha", 0, 0, 1, "alpha at the first CNP of a QP").DefaultIs("per profile");
inline constexpr Option kNicDcqcnRateReducePeriod =
    Duration("nic.dcqcn.rate_reduce_period", 0, 0, kSecond, "at most one rate cut per period (0: every CNP)")
        .DefaultIs("per profile");
inline constexpr Option kNicDcqcnRateIncreasePeriod =
    Duration("nic.dcqcn.rate_increase_period", 0, kNanosecond, kSecond, "T: the rate-increase timer")
        .DefaultIs("per profile");
inline constexpr Option kNicDcqcnByteCounter =
    Size("nic.dcqcn.byte_counter", 0, 0, kNoLimit, "B: bytes sent per byte-counter stage (0: off)")
        .DefaultIs("per profile");
inline constexpr Option kNicDcqcnFastRecoveryStages =
    Integer("nic.dcqcn.fast_recovery_stages", 0, 0, 1000, "F").DefaultIs("per profile");
inline constexpr Option kNicDcqcnAiRate =
    Rate("nic.dcqcn.ai_rate", 0, "R_AI: additive increase").DefaultIs("per profile");
inline constexpr Option kNicDcqcnHaiRate =
    Rate("nic.dcqcn.hai_rate", 0, "R_HAI: hyper increase").DefaultIs("per profile");
inline constexpr Option kNicDcqcnMinRate =
    Rate("nic.dcqcn.min_rate", 0, "floor of the current rate").DefaultIs("per profile");
inline constexpr Option kNicDcqcnMinDecFactor =
    Number("nic.dcqcn.min_dec_factor", 0, 0, 1, "a cut keeps at least this share of the rate").DefaultIs("per profile");
inline constexpr Option kNicDcqcnClampTargetRate =
    Boolean("nic.dcqcn.clamp_target_rate", false, "target rate := current rate on every cut").DefaultIs("per profile");
inline constexpr Option kNicDcqcnMinTimeBetweenCnps =
    Duration("nic.dcqcn.min_time_between_cnps", 0, 0, kSecond, "spacing of CNPs at the receiver").DefaultIs("per profile");
inline constexpr Option kNicDcqcnCnpModeration =
    Choice("nic.dcqcn.cnp_moderation", "port", "qp|port",
           "min_time_between_cnps spaces the port's CNPs or each QP's (the paper profile: qp)");
inline constexpr Option kNicDctcp = Other("nic.dctcp", Unit::kMapping, "", "DCTCP parameters (docs/congestion-control.md)");
inline constexpr Option kNicDctcpG = Number("nic.dctcp.g", 1.0 / 16, 0, 1, "alpha's EWMA gain per window (the paper's 1/16)");
inline constexpr Option kNicDctcpInitialAlpha = Number("nic.dctcp.initial_alpha", 1, 0, 1, "alpha before the first window ends");
inline constexpr Option kNicDctcpRateAi =
    Rate("nic.dctcp.rate_ai", 1e9, "added to the rate once per window without a cut (HPCC ns-3 DCTCP_RATE_AI)");
inline constexpr Option kNicDctcpMinRate = Rate("nic.dctcp.min_rate", 1e8, "a cut keeps at least this (HPCC ns-3 MIN_RATE)");
inline constexpr Option kNicTimely =
    Other("nic.timely", Unit::kMapping, "", "TIMELY parameters (docs/congestion-control.md)");
inline constexpr Option kNicTimelyAlpha =
    Number("nic.timely.alpha", 0.875, 0, 1, "weight of the newest RTT difference in its EWMA");
inline constexpr Option kNicTimelyBeta = Number("nic.timely.beta", 0.8, 0, 1, "multiplicative decrease factor");
inline constexpr Option kNicTimelyTLow =
    Duration("nic.timely.t_low", 50 * kMicrosecond, 0, kSecond, "an RTT below it always raises the rate");
inline constexpr Option kNicTimelyTHigh =
    Duration("nic.timely.t_high", 500 * kMicrosecond, 0, kSecond, "an RTT above it always cuts the rate");
inline constexpr Option kNicTimelyMinRtt =
    Duration("nic.timely.min_rtt", 20 * kMicrosecond, kNanosecond, kSecond, "the fabric's minimum RTT: normalises the gradient");
inline constexpr Option kNicTimelyRateAi =
    Rate("nic.timely.rate_ai", 0, "delta: the additive step").DefaultIs("line rate / 1000");
inline constexpr Option kNicTimelyRateHai =
    Rate("nic.timely.rate_hai", 0, "the hyper step, after hai_after increases in a row").DefaultIs("5 x rate_ai");
inline constexpr Option kNicTimelyHaiAfter =
    Integer("nic.timely.hai_after", 5, 1, 1000, "increases in a row before the hyper step");
inline constexpr Option kNicTimelyMinRate = Rate("nic.timely.min_rate", 1e8, "a cut keeps at least this");
// HPCC's defaults are its code base's run.py for `--cc hp` (cc/hpcc.h).
inline constexpr Option kNicHpcc = Other("nic.hpcc", Unit::kMapping, "", "HPCC parameters (docs/congestion-control.md)");
inline constexpr Option kNicHpccEta = Number("nic.hpcc.eta", 0.95, 0.01, 1, "target utilization (U_TARGET)");
inline constexpr Option kNicHpccMaxStage =
    Integer("nic.hpcc.max_stage", 0, 0, 1000, "additive-only updates before a multiplicative one (MI_THRESH)");
inline constexpr Option kNicHpccRateAi =
    Rate("nic.hpcc.rate_ai", 0, "W_AI as a rate: added at each update (RATE_AI)").DefaultIs("line rate / 2500");
inline constexpr Option kNicHpccFastReact =
    Boolean("nic.hpcc.fast_react", true, "every ACK sets the rate, not only one a round trip (FAST_REACT)");
inline constexpr Option kNicHpccSampleFeedback =
    Boolean("nic.hpcc.sample_feedback", false, "fast reactions skip hops whose queue is empty (SAMPLE_FEEDBACK)");
inline constexpr Option kNicHpccMinRate = Rate("nic.hpcc.min_rate", 1e8, "the rate never goes below this (MIN_RATE)");
inline constexpr Option kNicHpccIntFormat =
    Choice("nic.hpcc.int_format", "fine", "fine|ns3",
           "INT record fields: bytes to the byte, or the HPCC ns-3 code's 128 B x int_multi units (cc/int_hop.h)");
inline constexpr Option kNicHpccIntMulti =
    Integer("nic.hpcc.int_multi", 0, 0, 64, "int_format ns3's units: 128 B and 80 B times this (INT_MULTI; 0: auto)")
        .DefaultIs("fastest link / 25G");
// A sending window, as the HPCC code base bounds its senders (HAS_WIN, VAR_WIN; run.py sets
// both for HPCC and DCTCP).
inline constexpr Option kNicWindow =
    Other("nic.window", Unit::kMapping, "", "a sending window: the path's base RTT in bytes (docs/congestion-control.md)");
inline constexpr Option kNicWindowEnabled =
    Boolean("nic.window.enabled", false, "bound the bytes in flight by the window (HAS_WIN)").DefaultIs("on under nic.cc: hpcc");
inline constexpr Option kNicWindowScaleWithRate =
    Boolean("nic.window.scale_with_rate", true, "the window shrinks with the sending rate (VAR_WIN)");
inline constexpr Option kNicAckEvery =
    Integer("nic.ack_every", 1, 1, 1024, "the responder ACKs every this many packets");
// An RC ACK is cumulative, so a responder may send one ACK for several packets (the IBTA
// specification's ACK coalescing; Shanley, "InfiniBand Network Architecture", ch. 17). A NIC
// whose priority is paused goes on receiving:
// queued one by one, its ACKs would leave as a line-rate burst of 66 B frames when the pause
// ends, each taking a whole buffer cell at the switch (the HPCC code queues them so, but sends
// them from a queue no pause stops). Off by default, as the HPCC code has it, so that the shipped
// scenarios keep their figures; the run discloses it.
inline constexpr Option kNicCoalesceAcks =
    Boolean("nic.coalesce_acks", false,
            "an ACK waiting for the wire is replaced by the queue pair's newer one (false: every ACK queued)");
// Who sets the queue pairs' timeouts. verbs: timeout 14 (67 ms), the value perftest and most
// verbs programs pass to ibv_modify_qp; nccl: NCCL_IB_TIMEOUT 20 (4.3 s) and NCCL_IB_RETRY_CNT 7,
// NCCL's defaults (NCCL user guide, "Environment Variables"): a QP fails after 8 x 4.3 s = 34 s.
inline constexpr int kNcclIbTimeout = 20;
inline constexpr int kNcclIbRetryCnt = 7;
inline constexpr Option kNicProfile =
    Choice("nic.profile", "verbs", "verbs|nccl",
           "the queue pairs' timeout and retry_count as set by: verbs (14, 7) or nccl (NCCL_IB_TIMEOUT 20, "
           "NCCL_IB_RETRY_CNT 7); the two keys below override it");
inline constexpr Option kNicTimeout =
    Integer("nic.timeout", 14, 1, 31, "local ACK timeout exponent: 4.096 µs × 2^timeout (scaled with timers.scale)")
        .DefaultIs("14 (profile nccl: 20)");
inline constexpr Option kNicRetryCount = Integer("nic.retry_count", 7, 0, 7, "retries before the QP fails");
// ConnectX adaptive retransmission (ROCE_ACCL roce_adp_retrans_en and roce_slow_restart_en, both 1
// in the firmware's defaults as `mlxreg --reg_name ROCE_ACCL --get` prints them; NVIDIA, "Adaptive
// Retransmission: Parameters Control"). A QP's first timeout is time_base x 2^n, n drawn from
// initial_low .. initial_low + initial_range - 1, used once; each expiry then doubles it, capped by
// the QP's ACK timeout; the QP fails after (retry_count + 1) ACK timeouts without progress, when
// the IBTA timer would. The default profile's values are not published: time_base is the firmware's
// minimum (adp_retx_base_timeout_min, 4 us), the initial range is this project's assumption,
// printed with every run (run/assumptions.h). Its times are the packet clock's, not scaled.
inline constexpr Option kNicAdaptiveRetransmission =
    Other("nic.adaptive_retransmission", Unit::kMapping, "",
          "ConnectX adaptive retransmission: short randomised first timeouts that double up to the ACK timeout");
inline constexpr Option kNicAdaptiveRetransmissionEnabled =
    Boolean("nic.adaptive_retransmission.enabled", true,
            "roce_adp_retrans_en (false: the IBTA timer alone, every expiry a retry)");
inline constexpr Option kNicAdaptiveRetransmissionTimeBase =
    Duration("nic.adaptive_retransmission.time_base", 4 * kMicrosecond, 4 * kMicrosecond, kMillisecond,
             "time_base: every timeout is time_base x 2^n (not scaled with timers.scale)");
inline constexpr Option kNicAdaptiveRetransmissionInitialLow =
    Integer("nic.adaptive_retransmission.initial_low", 10, 0, 20, "timeout_init_low_bound: the first timeout's lowest n");
inline constexpr Option kNicAdaptiveRetransmissionInitialRange =
    Integer("nic.adaptive_retransmission.initial_range", 4, 1, 16,
            "timeout_init_range_size: how many n the first timeout is drawn from");
inline constexpr Option kNicAdaptiveRetransmissionSlowRestart =
    Boolean("nic.adaptive_retransmission.slow_restart", true,
            "roce_slow_restart_en: a QP whose timer expired resends at a DCQCN-cut rate");
inline constexpr Option kNicBackToChunk =
    Integer("nic.back_to_chunk", 0, 0, 65536,
            "0: go-back-N from the NAKed PSN; N: on a gap the sender goes back to the start of the N-packet chunk");
inline constexpr Option kNicRxBuffer = Size("nic.rx_buffer", 256 * kKiB, 16 * kKiB, 1024 * kMiB, "receive buffer");
inline constexpr Option kNicRxDrainRate = Rate("nic.rx_drain_rate", 0, "rate toward host memory").Or("unlimited");
inline constexpr Option kNicRxXoff = Size(
    "nic.rx_xoff", 0, 0, kNoLimit, "receive buffer fill that pauses the switch (0B: rx_buffer minus the headroom)");
inline constexpr Option kNicRxXon =
    Size("nic.rx_xon", 0, 0, kNoLimit, "fill that resumes it (0B: rx_xoff minus 2 frames)");
inline constexpr Option kNicProcessingDelay = Duration("nic.processing_delay", 0, 0, kMillisecond, "receive latency");
inline constexpr Option kNicPfc =
    Boolean("nic.pfc", true, "the NIC sends and obeys pauses").DefaultIs("as switch.pfc.enabled");
inline constexpr Option kNicLosslessPriorities =
    Priorities("nic.lossless_priorities", {3}, "priorities with PFC on the NIC")
        .DefaultIs("as switch.lossless_priorities");
inline constexpr Option kNicDscpToPriority = Other("nic.dscp_to_priority", Unit::kDscpMap, "{26: 3, 48: 6}",
                                                   "entries over the default map (every other DSCP: priority 0)");
inline constexpr Option kNicCnpDscp = Integer("nic.cnp_dscp", 48, 0, 63, "DSCP of the CNPs the NIC sends");
inline constexpr Option kNicTrust =
    Choice("nic.trust", "dscp", "dscp|pcp", "classify by DSCP or by the 802.1p PCP of the frame");
// mlx5's ethtool tunable pfc-prevention-tout: 80 ms to 8 s, auto = 100 ms, 0 = off; the
// firmware's own default is 8 s.
inline constexpr Option kNicPfcPreventionTout =
    Duration("nic.pfc_prevention_tout", 8 * kSecond, 80 * kMillisecond, 8 * kSecond,
             "pause-storm guard: a receive pipeline stalled this long while pausing stops pausing (auto: 100ms)")
        .Words("auto|off");

// ---- workload: a list of entries, each with a type ----
inline constexpr Option kWorkload =
    Other("workload", Unit::kList, "", "the traffic: a list of entries, each with a type");
inline constexpr Option kWorkloadType =
    Choice("workload[].type", "", "flow|background|incast|permutation|all-to-all|trace|allreduce|storage",
           "what the entry generates (see the list below the table)")
        .Required();
inline constexpr Option kWorkloadStart = Duration("workload[].start", 0, 0, kNoLimit, "when the entry starts");
inline constexpr Option kWorkloadPriority =
    Integer("workload[].priority", 3, 0, 7,
            "priority of the traffic: the first DSCP the NIC maps to it (not with dscp)")
        .DefaultIs("");
inline constexpr Option kWorkloadDscp = Integer("workload[].dscp", 26, 0, 63, "DSCP of the traffic (background: 0)");
inline constexpr Option kWorkloadSize =
    Size("workload[].size", 0, 1, 1024 * kGiB,
         "bytes of each flow (allreduce: per rank); all types but trace and storage")
        .Required();
inline constexpr Option kWorkloadSrc =
    Other("workload[].src", Unit::kName, "", "flow, background: the sending host").Required();
inline constexpr Option kWorkloadDst =
    Other("workload[].dst", Unit::kName, "", "flow, background, incast: the receiving host").Required();
inline constexpr Option kWorkloadHosts =
    Other("workload[].hosts", Unit::kNames, "", "all-to-all, trace: the hosts taking part").DefaultIs("all hosts");
inline constexpr Option kBackgroundCc =
    Choice("workload[background].cc", "newreno", "newreno", "its window control (AIMD in packets)");
inline constexpr Option kBackgroundRto =
    Duration("workload[background].rto", kMillisecond, kMicrosecond, 10 * kSecond, "its retransmission timeout");
inline constexpr Option kIncastSenders = Other("workload[incast].senders", Unit::kNames, "",
                                               "a list of hosts, or a count N: the first N hosts other than dst")
                                             .Required("a list of hosts, or a count");
inline constexpr Option kIncastJitter =
    Duration("workload[incast].jitter", 0, 0, kSecond, "starts spread uniformly over this");
inline constexpr Option kIncastQps =
    Integer("workload[incast].qps", 1, 1, 4096, "queue pairs per sender, each sending size");
inline constexpr Option kTraceCdf = Other("workload[trace].cdf", Unit::kText, "",
                                          "flow-size CDF file in the HPCC generator's format, relative to the scenario")
                                        .Required("a 'size cdf' file");
inline constexpr Option kTraceLoad =
    Number("workload[trace].load", 0, 0.0001, 1, "Poisson arrivals at this share of each host's link rate")
        .Required("a share of the host link rate, e.g. 0.3");
inline constexpr Option kTraceDuration =
    Duration("workload[trace].duration", 0, kNanosecond, 3600 * kSecond, "arrivals for this long after start")
        .Required();
inline constexpr Option kAllreduceHosts =
    Other("workload[allreduce].hosts", Unit::kNames, "", "the ring, in order, two or more").Required("the ring order");
inline constexpr Option kAllreduceSlice = Size("workload[allreduce].slice", 1 * kMiB, 64, 1 * kGiB, "pipelining unit");
inline constexpr Option kAllreduceQps = Integer("workload[allreduce].qps", 1, 1, 64, "QPs per neighbour");
inline constexpr Option kAllreduceIterations =
    Integer("workload[allreduce].iterations", 1, 1, 100000, "AllReduces one after another");
inline constexpr Option kAllreduceCompute =
    Duration("workload[allreduce].compute", 0, 0, 3600 * kSecond, "compute phase before each iteration");
inline constexpr Option kAllreduceStraggler =
    Other("workload[allreduce].straggler", Unit::kName, "", "a rank of the ring whose compute phase takes longer (a slow rank)");
inline constexpr Option kAllreduceStragglerCompute =
    Duration("workload[allreduce].straggler_compute", 0, 0, 3600 * kSecond,
             "the straggler's compute phase; the others wait for it at each iteration")
        .DefaultIs("compute");
inline constexpr Option kStorageClients =
    Other("workload[storage].clients", Unit::kNames, "", "hosts that read").Required("a list of hosts");
inline constexpr Option kStorageTargets =
    Other("workload[storage].targets", Unit::kNames, "", "hosts that serve the reads").Required("a list of hosts");
inline constexpr Option kStorageQueueDepth =
    Integer("workload[storage].queue_depth", 32, 1, 4096, "outstanding I/Os per client");
inline constexpr Option kStorageParallelism =
    Integer("workload[storage].parallelism", 32, 1, 65536, "I/Os a target's device serves at once");
inline constexpr Option kStorageIoSize = Size("workload[storage].io_size", 4 * kKiB, 1, 1 * kGiB, "bytes per read");
inline constexpr Option kStorageCommandSize =
    Size("workload[storage].command_size", 64, 1, 64 * kKiB, "NVMe-oF command capsule");
inline constexpr Option kStorageResponseSize =
    Size("workload[storage].response_size", 16, 1, 64 * kKiB, "NVMe-oF response capsule");
inline constexpr Option kStorageServiceTime =
    Duration("workload[storage].service_time", 80 * kMicrosecond, 0, kSecond, "mean device read latency");
inline constexpr Option kStorageService =
    Choice("workload[storage].service", "exponential", "exponential|fixed", "distribution of the device latency");
inline constexpr Option kStorageDuration = Duration("workload[storage].duration", 0, kMicrosecond, 3600 * kSecond,
                                                    "clients issue reads for this long after start")
                                               .Required();

// ---- routes and devices ----
inline constexpr Option kRoutes = Other("routes", Unit::kList, "", "static next hops over the computed ECMP routes");
inline constexpr Option kRoutesSwitch = Other("routes[].switch", Unit::kName, "", "the switch").Required();
inline constexpr Option kRoutesDst = Other("routes[].dst", Unit::kName, "", "the destination host").Required();
inline constexpr Option kRoutesPort = Other("routes[].port", Unit::kName, "", "Ethernet8, h5 (its peer) or leaf0:h5 (bare numbers are refused)").Required();
// ---- telemetry: time series ----
inline constexpr Option kTelemetry =
    Other("telemetry", Unit::kMapping, "", "time series sampled during the run into DIR/series.csv (docs/telemetry.md)");
inline constexpr Option kTelemetryInterval =
    Duration("telemetry.interval", 10 * kMicrosecond, 100 * kNanosecond, kSecond, "time between samples");
inline constexpr Option kTelemetrySeries =
    Other("telemetry.series", Unit::kNames, "[queue_depth, pg_occupancy, link_util, flow_rate, cc_rate, pause_state]",
          "which series: queue_depth, pg_occupancy, link_util, flow_rate, cc_rate, pause_state")
        .DefaultIs("all of them");

// ---- monitor: detection from what a monitoring system sees ----
inline constexpr Option kMonitor =
    Other("monitor", Unit::kMapping, "", "sample every device's counters and run diagnose's rules on each window");
inline constexpr Option kMonitorInterval =
    Duration("monitor.interval", 10 * kMillisecond, kMicrosecond, 3600 * kSecond,
             "the collector's scrape, its sampling window (scaled with timers.scale)")
        .DefaultIs("monitor.counterpoll.port (1s); 10ms with refresh: instant");
// A collector's scrapes keep their own clock: nothing lines them up with the moments a fault
// begins, so a window boundary that falls on an injection (and an MTTD of 0) is an artefact.
inline constexpr Option kMonitorPhase =
    Duration("monitor.phase", 0, 0, 3600 * kSecond,
             "when the first window ends, within the first interval (scaled with timers.scale); 0s: at the interval; "
             "random: drawn from the seed")
        .Words("random");
// What the monitor reads is what each device last wrote to its counter database, on the
// devices' own poll timers (run/counter_db.h): SONiC's flex counter groups, `counterpoll show`'s
// defaults (sonic-utilities counterpoll/main.py).
inline constexpr Option kMonitorRefresh =
    Choice("monitor.refresh", "production", "production|instant",
           "production: each switch's counters as its last poll wrote them (monitor.counterpoll), each device on its "
           "own phase, each host read at its own moment in the window; instant: every counter of every device read at "
           "the window's end");
inline constexpr Option kMonitorCounterpoll =
    Other("monitor.counterpoll", Unit::kMapping, "",
          "refresh: production: how often a switch polls each counter group into COUNTERS_DB (scaled with timers.scale)");
inline constexpr Option kMonitorCounterpollPort =
    Duration("monitor.counterpoll.port", kSecond, kMillisecond, 3600 * kSecond,
             "PORT_STAT: packets, octets, discards, errors and PFC counters of a port");
inline constexpr Option kMonitorCounterpollQueue =
    Duration("monitor.counterpoll.queue", 10 * kSecond, kMillisecond, 3600 * kSecond,
             "QUEUE_STAT and PG_DROP: a queue's packets, drops and ECN marks; a priority group's packets and drops");
inline constexpr Option kMonitorCounterpollWatermark =
    Duration("monitor.counterpoll.watermark", 60 * kSecond, kMillisecond, 3600 * kSecond,
             "PG_WATERMARK and QUEUE_WATERMARK: buffer watermarks");
// Probing (run/pingmesh.h, docs/faults.md "Probing").
inline constexpr Option kMonitorProbes =
    Other("monitor.probes", Unit::kMapping, "",
          "RDMA probes on UD queue pairs: every host probes each host of its rack and fabric_peers hosts elsewhere "
          "every interval; tomography over their paths places lost ones");
inline constexpr Option kMonitorProbesInterval =
    Duration("monitor.probes.interval", kMillisecond, kNanosecond, 3600 * kSecond,
             "time between a host's probe rounds (scaled with timers.scale)");
inline constexpr Option kMonitorProbesTimeout =
    Duration("monitor.probes.timeout", 10 * kMillisecond, kNanosecond, 3600 * kSecond,
             "a probe unanswered this long is lost (scaled with timers.scale)");
inline constexpr Option kMonitorProbesFabricPeers =
    Integer("monitor.probes.fabric_peers", 4, 0, 4096,
            "hosts outside its rack each host probes per round, in rotation, each probe from another UDP source port");
inline constexpr Option kMonitorProbesDscp = Integer("monitor.probes.dscp", 26, 0, 63, "DSCP of the probes (RoCE's)");

inline constexpr Option kRecovery =
    Other("recovery", Unit::kMapping, "", "what acts on the monitor's detections (docs/faults.md)");
inline constexpr Option kRecoveryMode =
    Choice("recovery.mode", "off", "off|auto|runbook",
           "off: only the device agents act; auto: isolation and rollback (T3) as soon as the monitor detects; "
           "runbook: the same actions after an operator's delay");
// An operator's delay, from a detection to the runbook step it calls for (assumptions, not
// measurements: a page acknowledged and a PFC-level change made within minutes; isolating a link
// or rolling back a configuration waits for a second pair of eyes). Not scaled by timers.scale:
// a delay past the run's end is extrapolated (docs/faults.md).
inline constexpr Option kRecoveryDelay =
    Other("recovery.delay", Unit::kMapping, "", "runbook: the operator's delay before an action, per tier");
inline constexpr Option kRecoveryDelayT2 = Duration("recovery.delay.t2", 5 * 60 * kSecond, 0, 3600 * kSecond,
                                                    "runbook: from a detection to its T2 action (PFC level)")
                                               .Default("5min");
inline constexpr Option kRecoveryDelayT3 = Duration("recovery.delay.t3", 15 * 60 * kSecond, 0, 3600 * kSecond,
                                                    "runbook: from a detection to its T3 action (isolation, rollback)")
                                               .Default("15min");

// ---- lifecycle: what the faults cost (docs/faults.md) ----
inline constexpr Option kLifecycle =
    Other("lifecycle", Unit::kMapping, "", "how the faults' victim flows, job impact and recovery are measured");
inline constexpr Option kLifecycleCounterfactual =
    Boolean("lifecycle.counterfactual", true,
            "also run the scenario without its faults (same seed): victim flows and job impact compare with it; "
            "twice the run time");
inline constexpr Option kLifecycleWindow =
    Duration("lifecycle.window", 0, kNanosecond, 3600 * kSecond,
             "how often the workloads' delivered bytes are sampled, to judge recovery")
        .DefaultIs("the monitor's window, else duration / 100");

// ---- cost: what the degraded time costs ----
inline constexpr Option kCost =
    Other("cost", Unit::kMapping, "", "the price of the time the jobs lost to each fault: per_gpu_hour with gpus, or per_hour");
inline constexpr Option kCostGpus = Integer("cost.gpus", 0, 1, 1e9, "GPUs the job holds (with per_gpu_hour)").DefaultIs("");
inline constexpr Option kCostPerGpuHour =
    Number("cost.per_gpu_hour", 0, 0, 1e9, "price of one GPU for an hour").DefaultIs("");
inline constexpr Option kCostPerHour =
    Number("cost.per_hour", 0, 0, 1e12, "price of the whole cluster for an hour (instead of gpus and per_gpu_hour)")
        .DefaultIs("");
inline constexpr Option kCostCurrency = Other("cost.currency", Unit::kText, "USD", "the currency, as printed (up to 8 characters)");
// What a fault costs at production time (docs/faults.md, "At production time"): a job whose
// queue pairs fail restarts from its last checkpoint.
inline constexpr Option kCostCheckpoint =
    Other("cost.checkpoint", Unit::kMapping, "", "the job's checkpoints: a job killed by a fault redoes the work since the last");
inline constexpr Option kCostCheckpointInterval =
    Duration("cost.checkpoint.interval", 0, kSecond, 720 * 3600 * kSecond, "time between the job's checkpoints")
        .Required();
inline constexpr Option kCostCheckpointSinceLast =
    Duration("cost.checkpoint.since_last", 0, 0, 720 * 3600 * kSecond,
             "the work since the last checkpoint when a fault kills the job")
        .DefaultIs("half the interval (the expected loss)");
inline constexpr Option kCostCheckpointRestart =
    Duration("cost.checkpoint.restart", 0, 0, 720 * 3600 * kSecond, "the time a killed job takes to restart").Default("0s");
inline constexpr Option kCostResponse =
    Other("cost.response", Unit::kMapping, "", "at production time: a person's response, from a detection to its action, per tier");
inline constexpr Option kCostResponseT2 =
    Duration("cost.response.t2", 0, 0, 720 * 3600 * kSecond, "from a detection to its T2 action (PFC level)")
        .DefaultIs("0s with recovery: auto (the automation acts), else recovery.delay.t2");
inline constexpr Option kCostResponseT3 =
    Duration("cost.response.t3", 0, 0, 720 * 3600 * kSecond, "from a detection to its T3 action (isolation, rollback)")
        .DefaultIs("0s with recovery: auto (the automation acts), else recovery.delay.t3");

// ---- timers ----
inline constexpr Option kTimers =
    Other("timers", Unit::kMapping, "", "the agents' production timers, scaled to fit a short run");
inline constexpr Option kTimersScale =
    Number("timers.scale", 1, 1e-6, 1,
           "multiplies every production timer: the PFC watchdog's, the NIC pause-storm guard's, the queue pairs' "
           "ACK timeout, link-down detection, route convergence, the monitor's window and probes "
           "(summary.json says so)");

// ---- faults: changes to the running fabric, each at a time ----
inline constexpr Option kFaults =
    Other("faults", Unit::kList, "", "what goes wrong while the run goes on (docs/faults.md); each entry has a kind");
inline constexpr Option kFaultsKind =
    Choice("faults[].kind", "",
           "link_down|link_flap|link_errors|gray_drop|ecn_off|ecn_thresholds|cc_disabled|qos_drift|mtu|headroom|"
           "route_change|pfc_storm|slow_receiver|blackhole",
           "what goes wrong (the list below the table)")
        .Required();
inline constexpr Option kFaultsTarget =
    Other("faults[].target", Unit::kName, "",
          "a link (leaf0-spine1), a device (leaf0, h3) or a port (leaf0:h5), as the kind takes; not route_change")
        .Required();
inline constexpr Option kFaultsAt = Duration("faults[].at", 0, 0, 3600 * kSecond, "when it starts").Required();
inline constexpr Option kFaultsDuration =
    Duration("faults[].duration", 0, kNanosecond, 3600 * kSecond,
             "it undoes itself after this (link_down, link_flap: the loss of signal; the link then trains: switch.link_up_time)")
        .DefaultIs("permanent (link_flap: half the period)");
inline constexpr Option kFaultsPeriod =
    Duration("faults[link_flap].period", 0, kNanosecond, 3600 * kSecond, "from one loss of signal to the next").Required();
inline constexpr Option kFaultsCount = Integer("faults[link_flap].count", 0, 1, 100000, "how many times the signal goes").Required();
inline constexpr Option kFaultsPreFecBer =
    Number("faults[link_errors].pre_fec_ber", 0, 1e-15, 1e-2, "bit-error rate before FEC, both directions").Required();
inline constexpr Option kFaultsFec = Choice("faults[link_errors].fec", "", "none|rs528|rs544",
                                            "forward error correction: RS(528,514) corrects 7 symbols, RS(544,514) 15")
                                         .DefaultIs("rs544 at 200G and above, else rs528");
// What IEEE 802.3 does with errors FEC leaves (fault/fec.h, PcsFailure): the PCS fails the link.
// Off, the link carries its errored frames, as no standard PHY does.
inline constexpr Option kFaultsLinkFault =
    Boolean("faults[link_errors].link_fault", true,
            "errors past FEC fail the link as the PCS does (hi_ber; hi_ser with indication bypassed); "
            "false: the link carries its errored frames");
inline constexpr Option kFaultsFecBypassIndication =
    Boolean("faults[link_errors].fec_bypass_indication", false,
            "the decoder passes uncorrectable codewords unmarked and fails the link on its symbol error count");
inline constexpr Option kFaultsRate =
    Number("faults[gray_drop].rate", 0, 1e-9, 1, "share of frames that vanish, counted nowhere").Required();
inline constexpr Option kFaultsShare =
    Number("faults[blackhole].share", 0, 1e-6, 1,
           "share of the flows (5-tuples) whose packets the switch drops on their way out of the port, counted nowhere")
        .Required();
inline constexpr Option kFaultsKmin = Size("faults[ecn_thresholds].kmin", 0, 0, kNoLimit, "the new kmin").DefaultIs("unchanged");
inline constexpr Option kFaultsKmax = Size("faults[ecn_thresholds].kmax", 0, 0, kNoLimit, "the new kmax").DefaultIs("unchanged");
inline constexpr Option kFaultsPmax = Number("faults[ecn_thresholds].pmax", 0, 0, 1, "the new pmax").DefaultIs("unchanged");
inline constexpr Option kFaultsDscpToPriority =
    Other("faults[qos_drift].dscp_to_priority", Unit::kDscpMap, "", "entries that change in the switch's map")
        .DefaultIs("unchanged");
inline constexpr Option kFaultsTrust =
    Choice("faults[qos_drift].trust", "", "dscp|pcp", "the switch's new trust mode").DefaultIs("unchanged");
inline constexpr Option kFaultsLosslessPriorities =
    Priorities("faults[qos_drift].lossless_priorities", {}, "the switch's new PFC priorities").DefaultIs("unchanged");
inline constexpr Option kFaultsEcnPriorities =
    Priorities("faults[qos_drift].ecn_priorities", {}, "the switch's new WRED/ECN queues").DefaultIs("unchanged");
inline constexpr Option kFaultsMtu =
    Integer("faults[mtu].mtu", 0, 68, 9216, "the port's new IP MTU: larger frames are dropped as they arrive").Required();
inline constexpr Option kFaultsHeadroom =
    Size("faults[headroom].headroom", 0, 0, 64 * kMiB, "the port's new headroom per lossless PG (or cable)").DefaultIs("");
inline constexpr Option kFaultsCable =
    Make("faults[headroom].cable", Unit::kLength, 0, 0, 100000,
         "the headroom auto gives for this cable length, on the port's real cable (or headroom)")
        .DefaultIs("");
inline constexpr Option kFaultsDrainRate =
    Rate("faults[slow_receiver].drain_rate", 0, "what the host's receive pipeline drains per second").Required();
inline constexpr Option kFaultsRoutes =
    Other("faults[route_change].routes", Unit::kList, "", "static next hops installed, as routes takes them").Required();

inline constexpr Option kDevices =
    Other("devices", Unit::kMapping, "",
          "per device over the fabric-wide keys: leaf1: {ecn: {enabled: false}}, h3: {rx_drain_rate: 50G}");

}  // namespace opt

// Every option above, in the order of the table.
const std::vector<const Option*>& ScenarioOptions();
bool IsScenarioOption(const Option& o);

// "a, b or c": a choice's words.
std::string ChoiceList(const Option& o);
// The columns of the table, as `rocelab schema` prints them.
const char* UnitName(Unit unit);
std::string RangeText(const Option& o);
std::string DefaultText(const Option& o);

// The key table as Markdown (the README's) and as JSON.
std::string SchemaMarkdown();
std::string SchemaJson();

}  // namespace rocelab

#endif  // ROCELAB_SCENARIO_OPTIONS_H_
