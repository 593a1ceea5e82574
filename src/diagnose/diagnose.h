// Layered diagnosis over one evidence snapshot: physical (bit errors, link
// flaps), link (PFC state, pause storms, watchdog), network (drops in the
// lossless class, lossy-queue drops, ECN versus CNPs), transport (NAKs,
// timeouts, QP errors), application (test results, flows). Each finding says
// where, what the evidence is (counter names, values, rates) and what to do,
// and which rung of the response ladder answers it (its tier).
#ifndef ROCELAB_DIAGNOSE_DIAGNOSE_H_
#define ROCELAB_DIAGNOSE_DIAGNOSE_H_

#include <string>
#include <vector>

#include "diagnose/evidence.h"
#include "plan/lint.h"
#include "telemetry/counter_names.h"

namespace rocelab {

struct Diagnosis {
  std::string layer;  // physical, link, network, transport, application
  Severity severity;
  std::string title;
  std::string location;
  std::string evidence;
  std::string action;
  std::string rule;  // a stable id of the rule that found it ("pfc.watchdog_storm")
  // The rung of the response ladder that answers it: "T1" congestion control handles it (a hot
  // spot whose queue marks ECN while CNPs flow); "T2" a PFC-level action (the PFC watchdog, the
  // NIC's pause-storm guard, ECN re-tuned on the offending queue); "T3" isolation or rollback
  // (shut a link, break a deadlock, roll back a drifted configuration, reset a NIC's congestion
  // control). Empty for what is no fabric's response (application results, missing evidence).
  std::string tier;
};

// A link flaps when it went down this many times within this window (the errdisable link-flap
// defaults of OcNOS and Huawei's port link-flap protection: 5 downs in 10 s). A monitor counts
// over the window scaled with the run's timers.
constexpr double kFlapDowns = 5;
constexpr double kFlapWindowSeconds = 10;

// How often the port's link went down over the evidence's interval (its deltas).
double LinkDownsOf(const PortEvidence& p);
double LinkDownsOf(bool is_switch, const CounterMap& deltas);  // a port's, from its own group's deltas

// The counters a port's link traffic is read by: the SAI port counters on a switch, the NIC's
// physical-port counters on a host.
struct LinkTrafficCounters {
  const Counter &sent_frames, &got_frames, &sent_bytes, &got_bytes;
};
LinkTrafficCounters LinkTrafficCountersOf(bool is_switch);
// A port's link traffic and downs from its counters (cumulative values) at `t_s`.
LinkPoll LinkPollOf(bool is_switch, const CounterMap& values, double t_s);

// A rule's own tier ("T1", "T2", "T3"; "" for application and evidence findings). A few rules
// grade each finding on its evidence instead: pausing traced to a storm or a slow receiver is
// T2, to a hot spot whose queue does not mark ECN T2, to a deadlock T3; PFC without ECN on a
// switch whose ECN is off T3.
const char* LadderTier(const std::string& rule);

// The device a finding's location names first: "h0 (mlx5_0/eth0)" -> h0, "leaf0:Ethernet0:3" ->
// leaf0, "leaf1 -> spine0 -> leaf1" (a deadlock's cycle) -> leaf1.
std::string LocationDevice(const std::string& location);

// Reads a bundle directory (rocelab collect), a simulation output directory or
// summary.json (rocelab run), or individual command outputs (ethtool -S,
// mlnx_qos, mlxconfig q, show pfcwd stats, show queue counters, perftest).
// Throws ParseError (file and line) or std::runtime_error on input it cannot use.
Evidence LoadEvidence(const std::vector<std::string>& paths);

// The findings, in layer order. The same finding at several places is one finding listing
// them, unless `merge_places` is false (one finding per place: what a monitor tracks).
std::vector<Diagnosis> Diagnose(const Evidence& evidence, bool merge_places = true);
// A finding as `rocelab diagnose` prints it: layer, severity and title, then where, the
// evidence, the action and the rule with its rung of the ladder, one per line.
std::string FindingText(const Diagnosis& d);

// Why finding `d` is what one of the recovery actions in `evidence.faults` caused, "" when it
// is not: a link down or flap at an end of a link the recovery shut (not the fault's own), ingress
// discards for want of a route after a shut, the transport findings of hosts whose every flow
// runs into a host whose pause the recovery ignores. Diagnose labels them in a run's account; a
// monitor labels them as it finds them.
// One entry per finding of `ds`: the action that caused it, or empty.
std::vector<std::string> CausedByRecovery(const std::vector<Diagnosis>& ds, const Evidence& evidence);

}  // namespace rocelab

#endif  // ROCELAB_DIAGNOSE_DIAGNOSE_H_
