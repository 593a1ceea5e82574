// The built-in demo, the story an operator of a RoCE fabric for AI training
// lives through: a ring AllReduce runs; a NIC whose receive pipeline is stuck
// (h0, a storage host the ring does not touch) starts a pause storm. A monitor
// samples the counters every window and detects it with diagnose's rules,
// localized at h0 (T2, a storm: it pauses all the time and drains nothing);
// recovery acts on its tier at once: the switch port facing h0 ignores its
// pause and drops what goes to it, so the pause never spreads up the tree and
// the ring keeps its pace (the switch PFC watchdog, slower, would have done the
// same later); a window later, as the flows into h0 (no CNPs come back from a
// host that takes nothing in) keep sending what that port drops across the
// uplinks, it isolates h0 (T3). What it cost is measured against the same run without the storm
// (run/lifecycle.h): the ring's lost time, priced for a 512-GPU job; the two
// flows into h0 fail, as they must with a host that drains nothing. Production
// timers scaled by 1/100 so the story takes milliseconds of simulated time and
// a few seconds, both runs. Its time series (every 50 us) draw the story on
// every chart of report.html.
#ifndef ROCELAB_CLI_DEMO_SCENARIO_H_
#define ROCELAB_CLI_DEMO_SCENARIO_H_

namespace rocelab {

inline const char* DemoScenarioYaml() {
  return R"(name: demo-pause-storm
seed: 7
duration: 40ms
timers: {scale: 0.01}
monitor: {refresh: instant, interval: 10ms}
telemetry: {interval: 50us}
recovery: {mode: auto}
cost: {gpus: 512, per_gpu_hour: 2.0, currency: USD}
topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 4,
           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}
switch:
  buffer: 32MB
  lossless_priorities: [3]
  pfc: {enabled: true, headroom: auto}
  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}
  pfc_watchdog: {enabled: true, detection_time: 200ms, restoration_time: 200ms, poll_interval: 100ms, action: drop}
nic: {mtu: 4096, cc: dcqcn, pfc_prevention_tout: 8s}
workload:
  - {type: allreduce, hosts: [h1, h2, h3, h5, h6, h7], size: 16MB, iterations: 10, compute: 500us}
  - {type: flow, src: h4, dst: h0, size: 64MB}
  - {type: flow, src: h5, dst: h0, size: 64MB}
faults:
  - {kind: pfc_storm, target: h0, at: 3ms}
)";
}

}  // namespace rocelab

#endif  // ROCELAB_CLI_DEMO_SCENARIO_H_
