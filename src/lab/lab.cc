#include "lab/lab.h"

namespace rocelab {
namespace {

// Every lab's fabric: 2 spines, 2 leaves, 6 hosts each, 100G; a ring AllReduce across the
// leaves (the training job whose pace users see) and, from 3 ms, four storage clients reading
// into h0. Production timers scaled by 1/100, as the fault scenarios (scenarios/faults) run
// them, so a lab's story takes milliseconds; nothing acts on its own (recovery off): the
// engineer does. The monitor's alerts are on the timeline. The job is priced as the demo's: 512
// GPUs at 2 USD a GPU-hour.
constexpr char kFabric[] = R"(seed: 1
duration: 2s
timers: {scale: 0.01}
monitor: {interval: 100ms, refresh: instant}
cost: {gpus: 512, per_gpu_hour: 2.0, currency: USD}
topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 6,
           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}
switch: {link_down_detection: 5ms, route_convergence: 20ms{switch}}
workload:
  - {type: allreduce, hosts: [h1, h7, h2, h8, h3, h9], size: 8MB, iterations: 100000, compute: 100us}
  - {type: incast, dst: h0, senders: [h4, h5, h10, h11], size: 64MB, start: 3ms}
)";

// `switch_extra`: more of the fabric-wide switch settings (", pfc_watchdog: {enabled: false}");
// `workload_extra`: more workload entries, a line each; `top_extra`: more top-level lines.
Lab Make(const std::string& name, const std::string& title, const std::string& briefing, const std::string& faults,
         std::vector<LabCheck> checks, const std::string& switch_extra = "", const std::string& workload_extra = "",
         const std::string& top_extra = "") {
  Lab l;
  l.name = name;
  l.title = title;
  l.briefing = briefing;
  std::string fabric = kFabric;
  fabric.replace(fabric.find("{switch}"), 8, switch_extra);
  l.scenario_yaml = "name: lab-" + name + "\n" + top_extra + fabric + workload_extra + "faults:\n" + faults;
  l.scenario_label = "<lab " + name + ">";
  l.paged = 10 * kMillisecond;
  l.verify = 30 * kMillisecond;
  l.checks = std::move(checks);
  return l;
}

// Storage reads into h0 in bursts, one every `every` from `from` to `to`: each burst's onset
// fills h0's queue before DCQCN has slowed its senders, so leaf0 pauses its uplinks every time.
std::string Bursts(int from_ms, int to_ms, int every_ms) {
  std::string out;
  for (int t = from_ms; t <= to_ms; t += every_ms)
    out += "  - {type: incast, dst: h0, senders: [h4, h5, h10, h11], size: 1MB, start: " + std::to_string(t) + "ms}\n";
  return out;
}

std::vector<Lab> MakeLabs() {
  std::vector<Lab> labs;
  // The PFC watchdog was never enabled on this fabric: the storm's pause holds (SONiC ships it on
  // by default; a switch whose configuration leaves it out runs without it until someone types
  // `config pfcwd start_default`).
  labs.push_back(Make("pfc_storm", "A NIC pause storm",
                      "The training job (ranks on h1 h7 h2 h8 h3 h9) has all but stopped since a few milliseconds "
                      "ago, and the storage team says reads into h0 hang. Nothing was changed on the fabric.",
                      "  - {kind: pfc_storm, target: h0, at: 2ms}\n",
                      {LabCheck::kRingPace, LabCheck::kNoHostPause, LabCheck::kWatchdogOn},
                      ", pfc_watchdog: {enabled: false}"));
  // A slow receiver drains, and pauses only while its buffer is full: DCQCN slows its senders to
  // what it takes, and the tree it made dissolves. Isolating it as a storm's host is the wrong
  // fix: the storage it serves stops. The job's queue pairs are NCCL's, as in `deadlock`.
  labs.push_back(Make("slow_receiver", "A slow receiver, not a storm",
                      "The training job slowed down when the storage reads into h0 began. The storage team says h0 "
                      "is busy but alive. Someone in the chat suggests shutting h0's port, as for the pause storm "
                      "last week.",
                      "  - {kind: slow_receiver, target: h0, at: 2ms, drain_rate: 20G}\n",
                      {LabCheck::kRingPace, LabCheck::kEveryFlowMoves}, "", "", "nic: {profile: nccl}\n"));
  labs.push_back(Make("ecn_off", "ECN disabled on one switch",
                      "Since the storage reads into h0 began, the training job's iterations are slower and PAUSE "
                      "frames show up all over the fabric. A configuration push went out to leaf0 this morning.",
                      "  - {kind: ecn_off, target: leaf0, at: 2ms}\n",
                      {LabCheck::kRingPace, LabCheck::kEcnAsConfigured}));
  labs.push_back(Make("qos_drift", "A DSCP map drifted on one switch",
                      "The training job's iterations are several times slower than yesterday, and its NICs report "
                      "retransmissions. The fabric is lossless: nothing should be dropped.",
                      "  - {kind: qos_drift, target: leaf0, at: 2ms, dscp_to_priority: {26: 1}}\n",
                      {LabCheck::kRingPace, LabCheck::kNoDrops, LabCheck::kQosAsConfigured}));
  labs.push_back(Make("bad_optic", "A bad optic: link errors",
                      "The training job is slower than usual and a few of its NICs count out-of-sequence packets. "
                      "No PAUSE storm, no alarm on any host.",
                      "  - {kind: link_errors, target: leaf0-spine1, at: 2ms, pre_fec_ber: 3e-4}\n",
                      {LabCheck::kRingPace, LabCheck::kNoFcsErrors}));
  // A change pushed static routes toward h0 that point spine0 and leaf1 at each other: frames to
  // h0 loop between them, fill both queues, and each waits for the other's pause.
  labs.push_back(Make("deadlock", "A PFC deadlock after a route change",
                      "A change window closed a few minutes ago (static routes for the storage host h0). Since then "
                      "the training job has stopped and the reads into h0 hang.",
                      "  - {kind: route_change, at: 2ms, routes: [{switch: spine0, dst: h0, port: leaf1}, "
                      "{switch: leaf1, dst: h0, port: spine0}, {switch: spine1, dst: h0, port: leaf1}]}\n",
                      {LabCheck::kRingPace, LabCheck::kRoutesAsConfigured}, "", "",
                      // The job's queue pairs as NCCL sets them (a QP fails after 8 timeouts of
                      // 4.3 s, scaled): they outlast the deadlock, as a training job's do.
                      "nic: {profile: nccl}\n"));
  // The hosts probe each other (R-Pingmesh: every host its rack and 4 peers beyond it, every
  // 100 us scaled), so `pingmesh` shows which paths lose what no counter counts.
  Lab gray = Make("gray_drop", "A link that drops frames silently",
                  "The training job is slower and its NICs retransmit, but no switch counts a drop or an error. "
                  "The network team's dashboards are green; the hosts' probes are not.",
                  "  - {kind: gray_drop, target: leaf0-spine1, at: 2ms, rate: 0.1}\n",
                  {LabCheck::kRingPace, LabCheck::kNoFrameVanishes});
  const std::string monitor = "monitor: {interval: 100ms, refresh: instant}";
  gray.scenario_yaml.replace(gray.scenario_yaml.find(monitor), monitor.size(),
                             "monitor: {interval: 100ms, refresh: instant, probes: {interval: 10ms, timeout: 50ms, fabric_peers: 4}}");
  labs.push_back(gray);
  // The spines now stand in another hall, 2 km of fibre (10 us) from the leaves, but leaf0's
  // CABLE_LENGTH entries still say the 5 m of the copper the fibre replaced, so its lossless
  // profiles reserve what a 5 m cable needs where 2 km need several times more: what is in flight
  // when it pauses its uplinks does not fit. A 2 MB buffer, so the shared pool cannot hide it, and
  // bursts into h0 every 5 ms, so it pauses its uplinks again and again.
  Lab headroom = Make("headroom", "Headroom short after a cable change",
                      "Since the spines moved to the new hall last night (the leaves' uplinks are now 2 km of fibre "
                      "where 5 m of copper ran before), the training job stalls now and then and its NICs count "
                      "sequence errors. The fabric is lossless: nothing should be dropped.",
                      "  - {kind: headroom, target: leaf0, at: 2ms, cable: 5m}\n",
                      {LabCheck::kRingPace, LabCheck::kNoDrops}, ", buffer: 2MB", Bursts(20, 300, 5));
  const std::string uplinks = "fabric_link: {rate: 100G, delay: 1us}";
  headroom.scenario_yaml.replace(headroom.scenario_yaml.find(uplinks), uplinks.size(), "fabric_link: {rate: 100G, length: 2km}");
  labs.push_back(headroom);
  return labs;
}

}  // namespace

const char* LabCheckText(LabCheck c) {
  switch (c) {
    case LabCheck::kRingPace:
      return "the training job's goodput within 5 % of the same fabric without the fault (with your changes)";
    case LabCheck::kNoDrops: return "no RoCE frame dropped at any switch (lossless or lossy queue)";
    case LabCheck::kNoHostPause: return "no switch port held paused by a host for more than a tenth of the window";
    case LabCheck::kEcnAsConfigured: return "every switch's ECN/WRED profile as configured";
    case LabCheck::kQosAsConfigured: return "every switch's DSCP map, trust and PFC priorities as configured";
    case LabCheck::kNoFcsErrors: return "no frame lost to a bad FCS on any link";
    case LabCheck::kWatchdogOn: return "the PFC watchdog runs on every switch's lossless queues";
    case LabCheck::kNoFrameVanishes: return "every link delivers what is sent into it";
    case LabCheck::kEveryFlowMoves: return "every flow still open delivers data";
    case LabCheck::kRoutesAsConfigured: return "no static route that no configuration asks for";
  }
  return "";
}

const std::vector<Lab>& Labs() {
  static const std::vector<Lab> labs = MakeLabs();
  return labs;
}

const Lab* FindLab(const std::string& name) {
  for (const Lab& l : Labs())
    if (l.name == name) return &l;
  return nullptr;
}

Lab LabOfScenario(const std::string& path, const std::string& yaml) {
  Lab l;
  l.name = path;
  l.title = "your scenario";
  l.briefing = "A fabric from " + path + ": its faults are what you are to find (the review names them).";
  l.scenario_yaml = yaml;
  l.scenario_label = path;
  l.paged = 10 * kMillisecond;
  l.verify = 30 * kMillisecond;
  l.checks = {LabCheck::kRingPace, LabCheck::kNoDrops, LabCheck::kEcnAsConfigured, LabCheck::kQosAsConfigured};
  return l;
}

}  // namespace rocelab
