// The scenario: everything a run needs, read from one YAML file and checked
// before anything is simulated. Every value keeps the line it came from (and a
// name its column) so a later check (a host name that does not exist, say) can
// still point at it.
// The keys of the file, their units, ranges and defaults are in options.h; the
// defaults below come from there.
#ifndef ROCELAB_SCENARIO_SCENARIO_H_
#define ROCELAB_SCENARIO_SCENARIO_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cc/dcqcn_params.h"
#include "cc/dctcp.h"
#include "cc/hpcc.h"
#include "cc/timely.h"
#include "scenario/options.h"
#include "sim/time.h"
#include "util/config_error.h"
#include "util/yaml.h"

namespace rocelab {

struct LinkSpec {
  uint64_t rate_bps = opt::kLinkRate.def;
  Time delay = opt::kLinkDelay.def;  // one-way propagation; < 0: the cable for its place (Topology::Build)
  double ber = opt::kLinkBer.def;    // bit-error rate
};

// Where a name in the file came from, for errors found after parsing.
struct NameRef {
  std::string name;
  int line = 0;
  std::string key;
  int column = 0;
};

struct TopologySpec {
  enum class Type { kSpineLeaf, kFatTree, kExplicit };
  Type type = Type::kSpineLeaf;
  int spines = opt::kTopologySpines.def, leaves = opt::kTopologyLeaves.def;
  int hosts_per_leaf = opt::kTopologyHostsPerLeaf.def;
  LinkSpec host_link, fabric_link;
  int k = opt::kTopologyK.def;  // fat-tree
  struct Node {
    std::string name;
    bool is_switch = false;
    int line = 0, column = 0;
  };
  struct Link {
    NameRef a, b;
    LinkSpec spec;
    int line = 0, column = 0;  // of its entry in links
  };
  std::vector<Node> nodes;  // explicit
  std::vector<Link> links;  // explicit
  // The order of each switch's equal-cost next hops on an explicit fabric. kPort: port order.
  // kNs3: the HPCC ns-3 code's (third.cc CalculateRoute): the order a breadth-first search from
  // the destination host takes them off its queue, each node's neighbours taken hosts first in
  // node order, then switches in reverse node order (topo/routes.cc says why), so the ECMP index
  // the ns-3 profile's hash picks means the same port there.
  enum class NextHopOrder { kPort, kNs3 };
  NextHopOrder next_hop_order = NextHopOrder::kPort;
};

struct PfcSpec {
  bool enabled = opt::kSwitchPfcEnabled.def;
  bool headroom_auto = opt::kSwitchPfcHeadroom.Is("auto");
  uint64_t headroom = opt::kSwitchPfcHeadroom.def;  // per lossless PG, when not auto
  int small_packet_percentage = opt::kSwitchPfcSmallPacketPercentage.def;  // auto: 64 B frames' share
  double alpha = opt::kSwitchPfcAlpha.def;          // dynamic threshold of a PG on the free shared pool
  uint64_t xon_offset = opt::kSwitchPfcXonOffset.def;  // resume this far below the XOFF point
  uint64_t xon = opt::kSwitchPfcXon.def;                // static XON floor (0: none)
  uint16_t quanta = opt::kSwitchPfcQuanta.def;      // pause time in each XOFF frame
  bool expiry = true;  // false: a pause lasts until XON (no quanta expiry, no refresh; the ns-3 profile)
  Time response_time = opt::kSwitchPfcResponseTime.def;  // -1: per-speed 802.1Qbb response (auto)
  // > 0: the shared headroom pool, sized at the PGs' headroom over this ratio (0: none).
  double over_subscribe_ratio = opt::kSwitchPfcOverSubscribeRatio.def;
};

struct EcnSpec {
  uint64_t rate_bps = 0;  // in ecn_by_rate: the port speed this entry is for
  bool enabled = opt::kSwitchEcnEnabled.def;
  uint64_t kmin = opt::kSwitchEcnKmin.def;
  uint64_t kmax = opt::kSwitchEcnKmax.def;
  double pmax = opt::kSwitchEcnPmax.def;
  bool mark_on_dequeue = opt::kSwitchEcnMark.Is("dequeue");
};

// SONiC's PFC watchdog (sonic-utilities pfcwd: start_default is detection =
// restoration = 200 ms, action drop; orchagent polls every 100 ms). The agent
// is net/pfc_watchdog.h; lint checks that it is on.
struct PfcWatchdogSpec {
  bool enabled = opt::kSwitchPfcWatchdogEnabled.def;
  Time detection_time = opt::kSwitchPfcWatchdogDetectionTime.def;
  Time restoration_time = opt::kSwitchPfcWatchdogRestorationTime.def;
  std::string action = opt::kSwitchPfcWatchdogAction.def_text;
  Time poll_interval = opt::kSwitchPfcWatchdogPollInterval.def;
};

// The fields a switch reads for every frame come first, so that they share a few cache lines.
struct SwitchSpec {
  uint32_t cell = opt::kSwitchCell.def;  // buffer accounting unit (bytes)
  uint32_t mtu = opt::kSwitchMtu.def;    // largest frame a port accepts
  Time pipeline_latency = opt::kSwitchPipelineLatency.def;  // ingress to egress queue, every frame
  uint8_t lossless_mask = opt::kSwitchLosslessPriorities.def;
  // The queues with a WRED/ECN profile, set apart from PFC (switch.ecn.priorities); unless
  // given, the lossless ones (ecn_follows_pfc).
  uint8_t ecn_mask = opt::kSwitchEcnPriorities.def;
  bool ecn_follows_pfc = true;
  uint8_t strict_mask = opt::kSwitchEtsStrict.def;  // strict-priority queues (CNPs ride queue 6)
  bool trust_dscp = opt::kSwitchTrust.Is("dscp");  // classify by DSCP (false: by the 802.1p PCP of the frame)
  // The buffer model. kSharedBuffer: rocelab's shared-buffer MMU (SONiC semantics, net/switch.h).
  // kNs3Hpcc: the HPCC ns-3 code's switch-mmu.cc, set only by the ns-3 compatibility profile
  // (docs/ns3-interop.md): 4 KB reserve per ingress queue, headroom 3 x rate x delay per port,
  // a dynamic threshold whose alpha doubles with each doubling of port speed over
  // `mmu_nic_rate_bps`, only lossless traffic accounted.
  enum class Mmu : uint8_t { kSharedBuffer, kNs3Hpcc } mmu = Mmu::kSharedBuffer;
  PfcSpec pfc;
  EcnSpec ecn;
  std::array<uint8_t, 64> dscp_to_priority{};  // a scenario starts from DefaultDscpMap()
  // Lossy traffic's dynamic thresholds on the free shared pool, at ingress (per PG) and at egress
  // (per queue): SONiC's Mellanox defaults, ingress_lossy_profile and q_lossy_profile, both
  // dynamic_th 3, i.e. alpha = 2^3 (sonic-buildimage device/mellanox buffers_defaults_*.j2).
  double lossy_alpha = opt::kSwitchLossyAlpha.def;
  double egress_lossy_alpha = opt::kSwitchEgressLossyAlpha.def;
  uint64_t buffer = opt::kSwitchBuffer.def;
  std::vector<EcnSpec> ecn_by_rate;  // per port speed (the HPCC code base's KMIN/KMAX/PMAX maps)
  // DWRR weights in percent of the non-strict bandwidth: RoCE queue 3 gets 40 %
  // (opt::kSwitchEtsWeights says the same in words; a test checks that they agree).
  std::array<uint32_t, 8> ets_weights{{10, 10, 10, 40, 10, 10, 0, 10}};
  PfcWatchdogSpec pfc_watchdog;
  Time link_down_detection = opt::kSwitchLinkDownDetection.def;
  Time route_convergence = opt::kSwitchRouteConvergence.def;
  Time link_debounce = opt::kSwitchLinkDebounce.def;
  std::string asic = opt::kSwitchAsic.def_text;  // the chip whose profile set cell, buffer, latency
  Time link_up_time = opt::kSwitchLinkUpTime.def;
  uint64_t mmu_nic_rate_bps = 0;
};

struct NicSpec {
  // What a frame reads at the NIC comes first, 48 bytes and the DSCP map: a Nic keeps them on
  // the lines its frames read (net/nic.h).
  bool trust_dscp = opt::kNicTrust.Is("dscp");  // mlnx_qos --trust dscp (false: pcp)
  bool cnp_on_ack = false;     // echo CE on the ACK instead of sending CNPs (ns-3 profile)
  bool ack_high_priority = false;  // ACKs and NAKs leave the NIC even while paused (ns-3 ACK_HIGH_PRIO)
  uint8_t cnp_dscp = opt::kNicCnpDscp.def;     // mlx5 cnp_dscp 48 (NVIDIA DCQCN parameters)
  bool coalesce_acks = opt::kNicCoalesceAcks.def;  // a waiting ACK gives way to the QP's newer one
  int ack_every = opt::kNicAckEvery.def;  // responder ACK coalescing (packets per ACK)
  int timeout = opt::kNicTimeout.def;  // local ACK timeout exponent: 4.096 us * 2^timeout
  // Header accounting (bytes in the frame). The defaults are RoCEv2's; the ns-3 compatibility
  // profile replaces them with that simulator's own sizes.
  uint32_t data_header_bytes = 62;  // Ethernet + IPv4 + UDP + BTH + ICRC + FCS
  uint32_t reth_bytes = 16;
  uint32_t ack_bytes = 66;
  uint32_t cnp_bytes = 78;
  uint64_t rx_drain_rate = opt::kNicRxDrainRate.def;  // bps toward host memory; 0: as fast as the link fills it
  Time processing_delay = opt::kNicProcessingDelay.def;
  std::array<uint8_t, 64> dscp_to_priority{};  // a scenario starts from DefaultDscpMap()

  uint32_t mtu = opt::kNicMtu.def;  // RoCE path MTU (payload bytes per packet)
  // The congestion control the NIC's queue pairs run (cc/): DCQCN reacts to CNPs; DCTCP to the
  // CE marks the ACKs echo; TIMELY to the RTTs the ACKs time; HPCC to the switches' INT records
  // the ACKs bring back.
  enum class Cc { kNone, kDcqcn, kDctcp, kTimely, kHpcc } cc = opt::kNicCc.Is("dcqcn") ? Cc::kDcqcn : Cc::kNone;
  // 0: go-back-N; else go back to the start of this many packets' chunk
  uint32_t back_to_chunk = opt::kNicBackToChunk.def;
  Time nak_interval = 0;  // >0: NAK the same PSN again only after this (the ns-3 profile's 500 us)
  int retry_count = opt::kNicRetryCount.def;
  struct AdaptiveRetransmission {  // nic.adaptive_retransmission
    bool enabled = opt::kNicAdaptiveRetransmissionEnabled.def;
    Time time_base = static_cast<Time>(opt::kNicAdaptiveRetransmissionTimeBase.def);
    int initial_low = opt::kNicAdaptiveRetransmissionInitialLow.def;
    int initial_range = opt::kNicAdaptiveRetransmissionInitialRange.def;
    bool slow_restart = opt::kNicAdaptiveRetransmissionSlowRestart.def;
  } adaptive_retransmission;
  uint64_t rx_buffer = opt::kNicRxBuffer.def;
  uint64_t rx_xoff = opt::kNicRxXoff.def;             // 0: rx_buffer minus the port's headroom
  uint64_t rx_xon = opt::kNicRxXon.def;               // 0: rx_xoff minus 2 frames
  bool pfc_enabled = opt::kNicPfc.def;
  bool pause_expiry = true;  // false: a received pause lasts until XON (the ns-3 profile's PFC)
  Time pause_response = -1;  // from a PFC frame's arrival to the priority stopping (-1: per-speed 802.1Qbb)
  uint8_t lossless_mask = opt::kNicLosslessPriorities.def;
  Time pfc_prevention_tout = opt::kNicPfcPreventionTout.def;  // the pause-storm guard's timeout; 0: off
  DcqcnParams dcqcn = DcqcnMlx5Profile();  // opt::kNicDcqcnProfile
  DctcpParams dctcp;
  TimelyParams timely;
  HpccParams hpcc;
  // A sending window (the HPCC code base's HAS_WIN, VAR_WIN, GLOBAL_T): the bytes in flight stay
  // under the path's base RTT at its slowest rate (topo/ideal_fct.h), scaled by the sending rate
  // over the line rate.
  struct Window {
    bool enabled = false;
    bool scale_with_rate = true;
    bool longest_base_rtt = false;  // the fabric's longest instead of the path's (the ns-3 profile's GLOBAL_T 1)
  } window;
};
// "none", "dcqcn", "dctcp", "timely", "hpcc": as nic.cc spells it.
const char* CcName(NicSpec::Cc cc);
// Whether the algorithm reacts to what ACKs carry back (DCTCP's echoed marks, TIMELY's echoed send
// times, HPCC's INT records) rather than to CNPs: a flow with no ACKs (READ responses) has nothing to
// control its rate.
inline bool AckDriven(NicSpec::Cc cc) {
  return cc == NicSpec::Cc::kDctcp || cc == NicSpec::Cc::kTimely || cc == NicSpec::Cc::kHpcc;
}
static_assert(offsetof(NicSpec, processing_delay) + sizeof(Time) <= 48 &&
                  offsetof(NicSpec, dscp_to_priority) == 48,
              "a NIC's per-frame configuration is the spec's first 48 bytes, then the DSCP map");

struct FlowSpec {
  NameRef src, dst;
  uint64_t size = 0;
  Time start = opt::kWorkloadStart.def;
  uint8_t dscp = opt::kWorkloadDscp.def;
  int line = 0;
  bool background = false;  // a lossy, window-based TCP-like flow instead of an RDMA WRITE
  Time rto = opt::kBackgroundRto.def;  // its retransmission timeout
  uint16_t udp_sport = 0;  // 0: per-QP entropy drawn from the seed (the ns-3 profile numbers them)
  uint16_t udp_dport = 0;  // 0: RoCEv2's 4791
};

struct PermutationSpec {
  uint64_t size = 0;
  Time start = opt::kWorkloadStart.def;
  uint8_t dscp = opt::kWorkloadDscp.def;
  int line = 0;
};

// N senders to one receiver, each sending `size` on each of its `qps` queue pairs, starting
// within `jitter` of `start`.
struct IncastSpec {
  std::vector<NameRef> senders;  // explicit list, or
  int sender_count = 0;          // the first N hosts other than dst
  NameRef dst;
  uint64_t size = 0;
  Time start = opt::kWorkloadStart.def, jitter = opt::kIncastJitter.def;
  int qps = opt::kIncastQps.def;  // queue pairs per sender
  uint8_t dscp = opt::kWorkloadDscp.def;
  int line = 0;
};

// Every host of the list sends `size` to every other.
struct AllToAllSpec {
  std::vector<NameRef> hosts;  // empty: all hosts
  uint64_t size = 0;
  Time start = opt::kWorkloadStart.def;
  uint8_t dscp = opt::kWorkloadDscp.def;
  int line = 0;
};

// Flows with sizes from a CDF and Poisson arrivals at `load` of each host's link rate,
// to uniformly random other hosts, for `duration` from `start`.
struct TraceSpec {
  std::string cdf_path;  // resolved against the scenario file's folder
  int cdf_line = 0;      // where the file names it, for an error about the CDF file itself
  std::string cdf_key;
  double load = 0;  // required, as duration
  Time start = opt::kWorkloadStart.def, duration = 0;
  std::vector<NameRef> hosts;  // empty: all hosts
  uint8_t dscp = opt::kWorkloadDscp.def;
  int line = 0;
};

// Ring AllReduce of `size` bytes over `hosts` in list order.
struct AllreduceSpec {
  std::vector<NameRef> hosts;
  uint64_t size = 0;
  uint64_t slice = opt::kAllreduceSlice.def;  // pipelining unit
  int qps = opt::kAllreduceQps.def;           // QPs per neighbour
  int iterations = opt::kAllreduceIterations.def;
  Time compute = opt::kAllreduceCompute.def;  // compute phase before each iteration
  NameRef straggler;                          // a rank whose compute phase is straggler_compute (empty: none)
  Time straggler_compute = 0;
  Time start = opt::kWorkloadStart.def;
  uint8_t dscp = opt::kWorkloadDscp.def;
  int line = 0;
};

// NVMe-oF-style random reads from clients to targets (see workload/storage.h).
struct StorageSpec {
  std::vector<NameRef> clients, targets;
  int queue_depth = opt::kStorageQueueDepth.def;  // outstanding I/Os per client
  uint64_t io_size = opt::kStorageIoSize.def;
  uint64_t command_size = opt::kStorageCommandSize.def;    // NVMe-oF command capsule
  uint64_t response_size = opt::kStorageResponseSize.def;  // NVMe-oF response capsule
  Time service_time = opt::kStorageServiceTime.def;        // mean device read latency
  bool exponential = opt::kStorageService.Is("exponential");  // exponential service times (else fixed)
  int parallelism = opt::kStorageParallelism.def;          // I/Os a target device serves at once
  Time start = opt::kWorkloadStart.def, duration = 0;  // duration: required
  uint8_t dscp = opt::kWorkloadDscp.def;
  int line = 0;
};

struct RouteOverride {
  NameRef sw, dst, port;
};

// Something that goes wrong while the run goes on (docs/faults.md). Each kind reads only its
// own keys; the target is resolved on the topology when the run is built (fault/faults.h).
struct FaultSpec {
  enum class Kind {
    kLinkDown, kLinkFlap, kLinkErrors, kGrayDrop, kEcnOff, kEcnThresholds, kCcDisabled, kQosDrift, kMtu,
    kHeadroom, kRouteChange, kPfcStorm, kSlowReceiver, kBlackhole,
  };
  Kind kind = Kind::kLinkDown;
  std::string kind_name;  // as written: link_down ...
  NameRef target;         // empty for route_change
  Time at = 0;
  Time duration = 0;  // 0: permanent (link_flap: each down lasts this, default period / 2)
  Time period = 0;    // link_flap
  int count = 0;      // link_flap
  double pre_fec_ber = 0;  // link_errors
  std::string fec;         // link_errors: none, rs528, rs544; empty: by the link's speed
  bool link_fault = opt::kFaultsLinkFault.def;                           // link_errors
  bool fec_bypass_indication = opt::kFaultsFecBypassIndication.def;  // link_errors
  double rate = 0;         // gray_drop: share of frames; blackhole: share of 5-tuples
  std::optional<uint64_t> kmin, kmax;  // ecn_thresholds
  std::optional<double> pmax;
  std::array<int16_t, 64> dscp_changes;  // qos_drift: -1 where the map is unchanged
  std::optional<bool> trust_dscp;        // qos_drift
  std::optional<uint8_t> lossless_mask;  // qos_drift
  std::optional<uint8_t> ecn_mask;       // qos_drift
  uint32_t mtu = 0;                      // mtu
  std::optional<uint64_t> headroom;      // headroom: bytes, or
  std::optional<Time> cable_delay;       //   the delay of the cable the profile was made for
  std::vector<RouteOverride> routes;     // route_change
  uint64_t drain_rate = 0;               // slow_receiver
  int line = 0, column = 0;
  FaultSpec() { dscp_changes.fill(-1); }
};

// Probing (monitor.probes; run/pingmesh.h). Times as written: the run scales them.
struct ProbeSpec {
  bool on = false;
  Time interval = static_cast<Time>(opt::kMonitorProbesInterval.def);
  Time timeout = static_cast<Time>(opt::kMonitorProbesTimeout.def);
  int fabric_peers = static_cast<int>(opt::kMonitorProbesFabricPeers.def);
  uint8_t dscp = static_cast<uint8_t>(opt::kMonitorProbesDscp.def);
};

// How the faults' lifecycle figures are measured (run/lifecycle.h).
struct LifecycleSpec {
  bool counterfactual = opt::kLifecycleCounterfactual.def != 0;  // run the scenario again without its faults
  Time window = 0;  // delivered bytes sampled this often; 0: the monitor's window, else duration / 100
};

// The price of lost time (run/cost.h): per GPU-hour times `gpus`, or per hour of the cluster.
struct CostSpec {
  bool given = false;
  int64_t gpus = 0;         // with per_gpu_hour
  double per_gpu_hour = 0;  // > 0 when given by GPU
  double per_hour = 0;      // > 0 when given for the cluster
  bool by_gpu = false;      // per_gpu_hour (else per_hour)
  std::string currency = opt::kCostCurrency.def_text;
  // At production time (run/cost.h, ProductionCost).
  Time checkpoint_interval = 0;   // 0: no checkpoint section (a killed job's rollback is not priced)
  Time since_checkpoint = 0;      // the work a killed job redoes
  Time restart = 0;               // and the time it takes to restart
  Time response_t2 = -1, response_t3 = -1;  // -1: as recovery.mode implies (options.h)
  double PerHour() const { return by_gpu ? static_cast<double>(gpus) * per_gpu_hour : per_hour; }
};

// Per-device settings on top of the fabric-wide ones.
struct DeviceOverride {
  NameRef device;
  std::set<std::string> keys;  // the settings the entry writes, as paths below it ("pfc.enabled")
  std::optional<SwitchSpec> sw;
  std::optional<NicSpec> nic;
};

// Time series sampled during a run (report/series.h).
struct TelemetrySpec {
  bool enabled = false;  // a `telemetry` section was given
  Time interval = opt::kTelemetryInterval.def;
  enum Series : uint8_t {
    kQueueDepth = 1, kPgOccupancy = 2, kLinkUtil = 4, kFlowRate = 8, kCcRate = 16, kPauseState = 32,
  };
  uint8_t series = 63;  // a bit per series
};

// How a switch picks one of its equal-cost next hops for a packet.
struct EcmpSpec {
  // kMix: a 64-bit mix of the 5-tuple (addresses, UDP ports) with a per-switch seed drawn
  // from the run's seed. kNs3Hpcc: the HPCC ns-3 code's choice (switch-node.cc GetOutDev):
  // 32-bit MurmurHash3 of the 12 bytes (source IPv4, destination IPv4, source port | destination
  // port << 16), little-endian, seeded with the switch's node id, modulo the next hops; the
  // ports of control packets (ACK, NAK) are the data's, swapped.
  enum class Hash { kMix, kNs3Hpcc };
  Hash hash = Hash::kMix;
  std::vector<uint32_t> host_ipv4;    // kNs3Hpcc: each host's address, by host index
  std::vector<uint32_t> switch_seed;  // kNs3Hpcc: each switch's seed, by switch index
};

struct Scenario {
  std::string file = "<scenario>";
  uint32_t wire_overhead = 20;  // preamble + IFG per frame (0 under the ns-3 profile)
  Time serialization_grain = 0;  // >0: frame and pacing times rounded down to it (1 ns under the ns-3 profile)
  std::string name = opt::kName.def_text;
  uint64_t seed = opt::kSeed.def;
  Time duration = opt::kDuration.def;
  double timer_scale = opt::kTimersScale.def;  // the agents' timers, scaled (timers.scale)
  TelemetrySpec telemetry;
  Time monitor_interval = 0;  // 0: no monitor (monitor.interval)
  Time monitor_phase = 0;     // monitor.phase
  bool monitor_phase_random = false;  // monitor.phase: random (drawn from the seed)
  // monitor.refresh: production: the switches' counter groups polled on these periods (as
  // written: the run scales them); instant: all zero, every counter read at the window's end.
  struct Counterpoll {
    Time port = static_cast<Time>(opt::kMonitorCounterpollPort.def);
    Time queue = static_cast<Time>(opt::kMonitorCounterpollQueue.def);
    Time watermark = static_cast<Time>(opt::kMonitorCounterpollWatermark.def);
    bool instant() const { return port == 0; }
  } counterpoll;
  ProbeSpec probes;           // monitor.probes
  bool recovery_auto = false;  // recovery.mode: auto
  bool recovery_runbook = false;  // recovery.mode: runbook: the same actions after recovery.delay
  Time runbook_delay_t2 = static_cast<Time>(opt::kRecoveryDelayT2.def);
  Time runbook_delay_t3 = static_cast<Time>(opt::kRecoveryDelayT3.def);
  LifecycleSpec lifecycle;
  CostSpec cost;
  TopologySpec topology;
  EcmpSpec ecmp;
  SwitchSpec sw;
  NicSpec nic;
  bool nic_pfc_follows_switch = false;  // nic.pfc not given: it is switch.pfc.enabled
  std::vector<FlowSpec> flows;
  std::vector<PermutationSpec> permutations;
  std::vector<IncastSpec> incasts;
  std::vector<AllToAllSpec> all_to_alls;
  std::vector<TraceSpec> traces;
  std::vector<AllreduceSpec> allreduces;
  std::vector<StorageSpec> storages;
  std::vector<RouteOverride> routes;
  std::vector<DeviceOverride> devices;
  std::vector<FaultSpec> faults;
};

// Default DSCP -> priority map as NVIDIA ships it: 26 -> 3, 48 -> 6, rest -> 0.
std::array<uint8_t, 64> DefaultDscpMap();

// The settings in force on one device: its `devices` entry, else the fabric-wide ones.
const SwitchSpec& SwitchSpecFor(const Scenario& sc, const std::string& device);
const NicSpec& NicSpecFor(const Scenario& sc, const std::string& device);

// Reads and checks a scenario. Throws ConfigError.
Scenario LoadScenarioFile(const std::string& path);
Scenario ParseScenarioText(const std::string& text, const std::string& file_label);
// The same from a YAML tree already read (a sweep's base scenario with its overrides set): errors
// name `file_label` and the line each node carries; files it names are found beside `file_label`.
Scenario ParseScenarioTree(const YamlNode& root, const std::string& file_label);

}  // namespace rocelab

#endif  // ROCELAB_SCENARIO_SCENARIO_H_
