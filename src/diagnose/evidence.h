// The evidence model: what a real host bundle and a simulation output both
// become before diagnosis. Counters keep the names real devices use (mlx5
// ethtool -S, RDMA hw_counters, SAI statistics), so one set of rules serves
// both.
#ifndef ROCELAB_DIAGNOSE_EVIDENCE_H_
#define ROCELAB_DIAGNOSE_EVIDENCE_H_

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "telemetry/timeline.h"

namespace rocelab {

using CounterMap = std::map<std::string, double>;

// The one port of a simulated host, as its summary names it.
constexpr char kSimHostPort[] = "mlx5_0/eth0";

// One NIC port or one switch port.
// A port's link counters as one poll wrote them, cumulative: the frames and bytes it sent and
// received (bytes -1 where the device does not count them), and how often its link went down.
struct LinkPoll {
  double t_s = 0;
  double sent_frames = 0, got_frames = 0, sent_bytes = -1, got_bytes = -1;
  double downs = 0;
};

struct PortEvidence {
  std::string device;  // host or switch name
  std::string port;    // "mlx5_0/eth0", "Ethernet4"
  std::string peer;    // the device at the other end, when known
  bool is_switch = false;
  CounterMap counters;  // the latest values
  CounterMap deltas;    // latest minus first sample (or the whole run for a simulation)
  std::map<std::string, CounterMap> queues;  // switch: "UC3" -> SAI queue counters (deltas)
  std::map<std::string, CounterMap> pgs;     // switch: "PG3" -> SAI PG counters (deltas)
  // Configuration seen on the device.
  std::optional<std::array<bool, 8>> pfc_enabled;
  std::string trust;  // "dscp" / "pcp" / ""
  std::optional<std::array<int, 64>> dscp_to_priority;
  std::map<std::string, std::string> cc_params;  // roce_np/*, roce_rp/*, mlxconfig names
  double speed_gbps = 0;
  int mtu = 0;
  // A switch's shared headroom pool (its buffer block), when it has one: its size and the
  // highest occupancy it reached.
  double headroom_pool_bytes = 0, headroom_pool_watermark_bytes = 0;
  // The port's state at the last sample (sysfs operstate, SONiC oper_status), when known.
  std::optional<bool> oper_up;
  // How often the link went down in the flap detection's window ending at the last sample, as
  // a monitor that keeps the count across its windows knows it (-1: not counted; the deltas say
  // how often over the whole interval).
  double downs_in_flap_window = -1;
  // A monitor's window: when the device's counters were polled (s), and the span between the two
  // polls its deltas are over, before they were scaled to the window (-1, 0: read at the window's
  // end, over the window; a span of -1: not polled yet, no deltas).
  double read_s = -1, span_s = 0;
  // The same for its queue and priority-group counters, where their poll differs from the port's
  // (SONiC's QUEUE_STAT and PG_DROP every 10 s, the port's every 1 s).
  double queue_read_s = -1, queue_span_s = 0;
  // A monitor reading devices at their own polls: this port's link counters at its recent polls,
  // oldest first, since its link last went down (run/monitor.h). network.gray_drop balances them
  // against the other end's over many polls. Empty elsewhere.
  std::vector<LinkPoll> link_polls;
  std::vector<std::string> sources;  // the files it came from
};

// One row of SONiC's `show pfcwd stats`.
struct WatchdogQueue {
  std::string port;
  int queue = 0;
  std::string status;  // stormed / operational
  double storms_detected = 0, storms_restored = 0;
  double tx_ok = 0, tx_drop = 0, rx_ok = 0, rx_drop = 0;
  std::string source;
};

// One result row of a perftest bandwidth or latency test.
struct PerftestRow {
  bool bandwidth = true;
  double bytes = 0, iterations = 0;
  double bw_peak = 0, bw_average = 0, msg_rate_mpps = 0;  // bandwidth tests
  bool gbits = false;                                     // BW columns in Gb/s (else MB/s)
  double t_typical_us = 0, t_avg_us = 0, t_p99_us = 0;    // latency tests
  std::string link_type;
  int mtu = 0;
  std::string source;
};

// One collective (a ring AllReduce) of a simulation.
struct CollectiveResult {
  int ranks = 0, iterations = 0, iterations_done = 0;
  double busbw_gbps = 0, host_link_gbps = 0;
};

// What a probing agent (run/pingmesh.h) knows of the probes between two hosts that took one
// path: the links the probe and its reply cross, each as its sending and receiving port
// ("leaf0:Ethernet28>spine1:Ethernet0", a host's port "h3:mlx5_0/eth0"), worked out from the
// probe's 5-tuple, the routes and the fabric's documented ECMP hash, never from where the
// frames really went.
struct ProbePath {
  std::string src, dst;
  std::vector<std::string> hops;
  bool same_rack = false;  // both hosts under one ToR (the rack mesh)
  // Probes judged (answered, or unanswered by the timeout), of those lost, and of the
  // answered the round trips (NIC timestamps, the responder's own delay taken out) and CE.
  double judged = 0, lost = 0, rtt_sum_ns = 0, ce_marked = 0;
  double rtt_min_ns = 0, rtt_max_ns = 0;  // over the whole run (not windowed)
};

// Where switches forward what they receive, as their routing tables say. A monitor reads the
// tables from the devices (run/monitor.h); a bundle or a summary has none.
class RouteView {
 public:
  virtual ~RouteView() = default;
  // Whether some destination that switch `device` routes out of its port `port` is routed on by
  // the switch at the other end (`peer`) out of its port `peer_port`: whether that queue of
  // `device` waits on `peer_port`'s queue when the peer pauses it.
  virtual bool Feeds(const std::string& device, const std::string& port, const std::string& peer,
                     const std::string& peer_port) const = 0;
};

// A simulation's own account of its faults (a summary.json of a run with faults): what its
// monitor found window by window and what its recovery did. A whole run's totals blur a fault
// that began mid-run (a storm reads as a slow receiver once the host drained before it stuck)
// or that recovery ended (a deadlock broken after two windows); the windows do not.
struct RunFault {
  std::string kind, target;
  double injected_s = 0;
  std::string localized_to;        // empty: not localized
  double localized_s = -1;
  double flap_detected_s = -1;     // a link_flap: when the monitor saw it as a flap (-1: never)
  struct Action {
    double t_s = 0;
    std::string tier, action;      // "shut link leaf0-spine1: ...", "ignore h0's pause at leaf0:Ethernet0 ..."
    std::string kind;              // shut_link, isolate_host, ignore_pause_drop, ... (run/recovery.h)
    std::vector<std::string> devices;  // what it acted on: a link's two ends, a switch and its host
  };
  std::vector<Action> actions;
  double no_route_after_shut_bytes = 0;  // packets switches dropped toward links the recovery shut
};

// A finding the run's monitor made (its timeline's "detected" events, above T1).
struct LiveFinding {
  double t_s = 0;
  MonitorFinding finding;
};

// One flow of a simulation: who sends to whom, and how it ended.
struct FlowRecord {
  std::string src, dst, state;  // state: finished, qp_error, unfinished
};

struct Evidence {
  std::string origin;
  double interval_s = 0;  // between first and last sample; the simulated time for a simulation
  // The deltas, queue and PG counters are over one monitoring window (the live monitor), not
  // totals since the counters were cleared: rules may then ask what happened within it.
  bool windowed = false;
  const RouteView* routes = nullptr;  // the switches' routes, when the evidence has them
  std::vector<PortEvidence> ports;
  std::vector<WatchdogQueue> watchdog;
  std::vector<PerftestRow> perftest;
  std::vector<ProbePath> probes;
  // Simulation only.
  int flows = 0, flows_finished = 0, flows_failed = 0;
  std::vector<int> lossless_priorities;  // known for a simulation
  std::vector<CollectiveResult> collectives;
  std::vector<FlowRecord> flow_records;
  std::vector<RunFault> faults;
  std::vector<LiveFinding> live;
  // The per-device sections of a summary.json ("hosts", "switches") without a single counter:
  // absent, empty, or devices with empty counter blocks, as `rocelab run --counters none`
  // writes them. Silence there is not health.
  std::vector<std::string> sections_without_counters;
};

}  // namespace rocelab

#endif  // ROCELAB_DIAGNOSE_EVIDENCE_H_
