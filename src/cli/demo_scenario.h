// The built-in demo: a 15-to-1 incast on a two-spine, two-leaf fabric with
// PFC and DCQCN, the classic situation every RoCE operator meets first.
#ifndef ROCELAB_CLI_DEMO_SCENARIO_H_
#define ROCELAB_CLI_DEMO_SCENARIO_H_

namespace rocelab {

inline const char* DemoScenarioYaml() {
  return R"(name: demo-incast-15to1
seed: 7
duration: 20ms
topology: {type: spine-leaf, spines: 2, leaves: 2, hosts_per_leaf: 8,
           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}
switch:
  buffer: 32MB
  lossless_priorities: [3]
  pfc: {enabled: true, headroom: auto}
  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}
nic: {mtu: 4096, cc: dcqcn}
workload:
  - {type: flow, src: h1, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h2, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h3, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h4, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h5, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h6, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h7, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h8, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h9, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h10, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h11, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h12, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h13, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h14, dst: h0, size: 1MB, priority: 3}
  - {type: flow, src: h15, dst: h0, size: 1MB, priority: 3}
)";
}

}  // namespace rocelab

#endif  // ROCELAB_CLI_DEMO_SCENARIO_H_
