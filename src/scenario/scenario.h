// The scenario: everything a run needs, read from one YAML file and checked
// before anything is simulated. Every value keeps the line it came from so a
// later check (a host name that does not exist, say) can still point at it.
#ifndef ROCELAB_SCENARIO_SCENARIO_H_
#define ROCELAB_SCENARIO_SCENARIO_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cc/dcqcn_params.h"
#include "sim/time.h"
#include "util/config_error.h"

namespace rocelab {

struct LinkSpec {
  uint64_t rate_bps = 100000000000ull;
  Time delay = 1 * kMicrosecond;  // one-way propagation
  double ber = 0;                 // bit-error rate
};

// Where a name in the file came from, for errors found after parsing.
struct NameRef {
  std::string name;
  int line = 0;
  std::string key;
};

struct TopologySpec {
  enum class Type { kSpineLeaf, kFatTree, kExplicit };
  Type type = Type::kSpineLeaf;
  int spines = 2, leaves = 2, hosts_per_leaf = 8;
  LinkSpec host_link, fabric_link;
  int k = 4;  // fat-tree
  struct Node {
    std::string name;
    bool is_switch = false;
    int line = 0;
  };
  struct Link {
    NameRef a, b;
    LinkSpec spec;
    int line = 0;
  };
  std::vector<Node> nodes;  // explicit
  std::vector<Link> links;  // explicit
};

struct PfcSpec {
  bool enabled = true;
  bool headroom_auto = true;
  uint64_t headroom = 0;             // per lossless PG, when not auto
  double alpha = 1.0 / 8;            // dynamic threshold of a PG on the free shared pool
  uint64_t xon_offset = 18 * 1024;   // resume this far below the XOFF point
  uint16_t quanta = 0xFFFF;          // pause time in each XOFF frame
  bool expiry = true;                // false: a pause lasts until XON (no quanta expiry, no refresh)
  Time response_time = -1;           // -1: per-speed 802.1Qbb response (auto)
};

struct EcnSpec {
  uint64_t rate_bps = 0;  // in ecn_by_rate: the port speed this entry is for
  bool enabled = true;
  uint64_t kmin = 100 * 1024;
  uint64_t kmax = 400 * 1024;
  double pmax = 0.2;
  bool mark_on_dequeue = true;
};

// SONiC's PFC watchdog (sonic-utilities pfcwd: start_default is detection =
// restoration = 200 ms, action drop). Checked by lint; the watchdog agent
// itself is not simulated yet.
struct PfcWatchdogSpec {
  bool enabled = true;
  Time detection_time = 200 * kMillisecond;
  Time restoration_time = 200 * kMillisecond;
  std::string action = "drop";
};

struct SwitchSpec {
  uint64_t buffer = 32ull * 1024 * 1024;
  uint32_t cell = 256;  // buffer accounting unit (bytes)
  uint8_t lossless_mask = 1u << 3;
  PfcSpec pfc;
  EcnSpec ecn;
  std::vector<EcnSpec> ecn_by_rate;  // per port speed (the HPCC code base's KMIN/KMAX/PMAX maps)
  uint8_t strict_mask = 1u << 6;            // strict-priority queues (CNPs ride queue 6)
  // DWRR weights in percent of the non-strict bandwidth: RoCE queue 3 gets 40 %.
  std::array<uint32_t, 8> ets_weights{{10, 10, 10, 40, 10, 10, 0, 10}};
  bool trust_dscp = true;  // classify by DSCP (false: by the 802.1p PCP of the frame)
  PfcWatchdogSpec pfc_watchdog;
  std::array<uint8_t, 64> dscp_to_priority{};
  double lossy_alpha = 1.0 / 8;
  uint32_t mtu = 9216;  // largest frame a port accepts
};

struct NicSpec {
  uint32_t mtu = 4096;  // RoCE path MTU (payload bytes per packet)
  enum class Cc { kNone, kDcqcn } cc = Cc::kDcqcn;
  DcqcnParams dcqcn = DcqcnMlx5Profile();
  int ack_every = 1;         // responder ACK coalescing (packets per ACK)
  uint32_t back_to_chunk = 0;  // 0: go-back-N; else go back to the start of this many packets' chunk
  bool cnp_on_ack = false;     // echo CE on the ACK instead of sending CNPs (ns-3 profile)
  bool ack_high_priority = false;  // ACKs and NAKs ride the CNP priority (ns-3 ACK_HIGH_PRIO)
  int timeout = 14;          // local ACK timeout exponent: 4.096 us * 2^timeout
  int retry_count = 7;
  uint64_t rx_buffer = 256 * 1024;
  uint64_t rx_drain_rate = 0;  // bps toward host memory; 0: drains as fast as the link fills it
  uint64_t rx_xoff = 0;        // 0: rx_buffer minus the port's headroom
  uint64_t rx_xon = 0;         // 0: rx_xoff minus 2 frames
  Time processing_delay = 0;
  bool pfc_enabled = true;
  bool pause_expiry = true;  // false: a received pause lasts until XON (the ns-3 profile's PFC)
  uint8_t lossless_mask = 1u << 3;
  std::array<uint8_t, 64> dscp_to_priority{};
  uint8_t cnp_dscp = 48;     // mlx5 cnp_dscp 48 (NVIDIA DCQCN parameters)
  bool trust_dscp = true;    // mlnx_qos --trust dscp (false: pcp)
  // Header accounting (bytes in the frame). The defaults are RoCEv2's; the ns-3 compatibility
  // profile replaces them with that simulator's own sizes.
  uint32_t data_header_bytes = 62;  // Ethernet + IPv4 + UDP + BTH + ICRC + FCS
  uint32_t reth_bytes = 16;
  uint32_t ack_bytes = 66;
  uint32_t cnp_bytes = 78;
};

struct FlowSpec {
  NameRef src, dst;
  uint64_t size = 0;
  Time start = 0;
  uint8_t dscp = 26;
  int line = 0;
  bool background = false;  // a lossy, window-based TCP-like flow instead of an RDMA WRITE
  Time rto = kMillisecond;  // its retransmission timeout
};

struct PermutationSpec {
  uint64_t size = 0;
  Time start = 0;
  uint8_t dscp = 26;
  int line = 0;
};

// N senders to one receiver, each sending `size`, starting within `jitter` of `start`.
struct IncastSpec {
  std::vector<NameRef> senders;  // explicit list, or
  int sender_count = 0;          // the first N hosts other than dst
  NameRef dst;
  uint64_t size = 0;
  Time start = 0, jitter = 0;
  uint8_t dscp = 26;
  int line = 0;
};

// Every host of the list sends `size` to every other.
struct AllToAllSpec {
  std::vector<NameRef> hosts;  // empty: all hosts
  uint64_t size = 0;
  Time start = 0;
  uint8_t dscp = 26;
  int line = 0;
};

// Flows with sizes from a CDF and Poisson arrivals at `load` of each host's link rate,
// to uniformly random other hosts, for `duration` from `start`.
struct TraceSpec {
  std::string cdf_path;  // resolved against the scenario file's folder
  double load = 0.3;
  Time start = 0, duration = kMillisecond;
  std::vector<NameRef> hosts;  // empty: all hosts
  uint8_t dscp = 26;
  int line = 0;
};

// Ring AllReduce of `size` bytes over `hosts` in list order.
struct AllreduceSpec {
  std::vector<NameRef> hosts;
  uint64_t size = 0;
  uint64_t slice = 1024 * 1024;  // pipelining unit
  int qps = 1;                   // QPs per neighbour
  int iterations = 1;
  Time compute = 0;              // compute phase before each iteration
  Time start = 0;
  uint8_t dscp = 26;
  int line = 0;
};

// NVMe-oF-style random reads from clients to targets (see workload/storage.h).
struct StorageSpec {
  std::vector<NameRef> clients, targets;
  int queue_depth = 32;           // outstanding I/Os per client
  uint64_t io_size = 4096;
  uint64_t command_size = 64;     // NVMe-oF command capsule
  uint64_t response_size = 16;    // NVMe-oF response capsule
  Time service_time = 80 * kMicrosecond;  // mean device read latency
  bool exponential = true;        // exponential service times (else fixed)
  int parallelism = 32;           // I/Os a target device serves at once
  Time start = 0, duration = 5 * kMillisecond;
  uint8_t dscp = 26;
  int line = 0;
};

struct RouteOverride {
  NameRef sw, dst, port;
};

// Per-device settings on top of the fabric-wide ones.
struct DeviceOverride {
  NameRef device;
  std::optional<SwitchSpec> sw;
  std::optional<NicSpec> nic;
};

struct Scenario {
  std::string file = "<scenario>";
  uint32_t wire_overhead = 20;  // preamble + IFG per frame (0 under the ns-3 profile)
  std::string name = "scenario";
  uint64_t seed = 1;
  Time duration = 10 * kMillisecond;
  TopologySpec topology;
  SwitchSpec sw;
  NicSpec nic;
  std::vector<FlowSpec> flows;
  std::vector<PermutationSpec> permutations;
  std::vector<IncastSpec> incasts;
  std::vector<AllToAllSpec> all_to_alls;
  std::vector<TraceSpec> traces;
  std::vector<AllreduceSpec> allreduces;
  std::vector<StorageSpec> storages;
  std::vector<RouteOverride> routes;
  std::vector<DeviceOverride> devices;
};

// Default DSCP -> priority map as NVIDIA ships it: 26 -> 3, 48 -> 6, rest -> 0.
std::array<uint8_t, 64> DefaultDscpMap();

// The settings in force on one device: its `devices` entry, else the fabric-wide ones.
const SwitchSpec& SwitchSpecFor(const Scenario& sc, const std::string& device);
const NicSpec& NicSpecFor(const Scenario& sc, const std::string& device);

// Reads and checks a scenario. Throws ConfigError.
Scenario LoadScenarioFile(const std::string& path);
Scenario ParseScenarioText(const std::string& text, const std::string& file_label);

}  // namespace rocelab

#endif  // ROCELAB_SCENARIO_SCENARIO_H_
