// Probing in the style of Pingmesh and R-Pingmesh: an agent on every host sends
// small probes on a UD queue pair and answers its peers' (net/nic.h). Each
// round (`monitor.probes.interval`), a host probes every other host of its rack
// (the ToR mesh: a loss there is the host's or its link's, not the fabric's)
// and `fabric_peers` hosts outside it, taken in rotation, each from the next of
// kSourcePorts UDP source ports so that over the rounds the probes cover the
// ECMP paths. Probes are real traffic on the RoCE priority: paused, queued and
// ECN-marked like the flows they stand for.
//
// What the agents know of a probe is what a monitor could know: its 5-tuple,
// whether it was answered within `timeout`, its round trip from the NICs'
// timestamps, the responder's own delay taken out, and the path it and its
// reply took by the routes and the documented ECMP hash (Fabric::PathOf), not
// where its frames really went. The results, one ProbePath per (source,
// destination, path), are evidence for diagnose's tomography (network.probe_loss),
// read live by the monitor and written to summary.json.
//
// The budget: hosts x (rack peers + fabric_peers) probes per interval, each a
// 102-byte frame and a 102-byte reply (Budget()).
#ifndef ROCELAB_RUN_PINGMESH_H_
#define ROCELAB_RUN_PINGMESH_H_

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "diagnose/evidence.h"
#include "net/fabric.h"

namespace rocelab {

class Pingmesh final : public EventSource, private ProbeListener {
 public:
  // Starts the first round now. `interval` and `timeout` as the run uses them (scaled).
  Pingmesh(Fabric* fabric, Time interval, Time timeout, int fabric_peers, uint8_t dscp);
  ~Pingmesh() override;

  static constexpr int kSourcePorts = 64;    // UDP source ports a host's fabric probes rotate over
  static constexpr uint16_t kFirstSourcePort = 49152;

  // The probes so far, by (source, destination, path) in the order first sent. A probe counts
  // once judged: answered, or not within the timeout.
  const std::vector<ProbePath>& paths() const { return paths_; }
  struct Budget {
    uint64_t pairs = 0;           // probes each round, all hosts
    double probes_per_s = 0;      // fabric-wide
    double bits_per_s_per_host = 0;  // probes and replies a host sends, on the wire
  };
  Budget budget() const;
  Time interval() const { return interval_; }
  Time timeout() const { return timeout_; }
  uint64_t sent() const { return next_seq_; }
  // Unanswered probes whose path the routes moved before their timeout: not counted as lost
  // (the loss is the route change's, which the link's own events name).
  uint64_t rerouted() const { return rerouted_; }

  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  void OnProbeReply(const Packet& reply) override;
  void Round();
  // Probes sent a timeout ago or more and still unanswered are lost.
  void Judge();
  uint32_t PathIndex(uint32_t src, uint32_t dst, uint16_t sport);
  std::string HopName(int node, int port) const;

  Fabric* fabric_;
  Time interval_, timeout_;
  int fabric_peers_;
  uint8_t dscp_;
  std::vector<std::vector<uint32_t>> rack_, elsewhere_;  // by host: its rack's other hosts, the rest
  uint64_t round_ = 0;
  struct Pending {
    uint32_t path;
    Time sent;
    uint32_t src, dst;
    uint16_t sport;
    bool answered;
  };
  std::deque<Pending> pending_;  // by sequence number from first_pending_
  uint32_t first_pending_ = 0, next_seq_ = 0;
  uint64_t rerouted_ = 0;
  std::vector<ProbePath> paths_;
  std::map<std::string, uint32_t> path_index_;  // "src dst hop hop ..." -> index in paths_
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_PINGMESH_H_
