// A fabric built from a scenario: topology, switches, NICs and the queue pairs
// it carries, all sharing one event loop. Run() simulates until every flow and
// every unit of driver work has finished (or failed), or the scenario's
// duration is reached. It knows nothing of workloads: run/experiment.h puts
// flows and drivers on it.
#ifndef ROCELAB_NET_FABRIC_H_
#define ROCELAB_NET_FABRIC_H_

#include <memory>
#include <set>
#include <vector>

#include "net/control_plane.h"
#include "net/flow_paths.h"
#include "net/link_phy.h"
#include "net/nic.h"
#include "net/switch.h"
#include "scenario/scenario.h"
#include "telemetry/sampler.h"
#include "topo/ideal_fct.h"
#include "topo/topology.h"

namespace rocelab {

struct EngineStats {
  uint64_t events = 0;
  uint64_t packet_hops = 0;
  double wall_s = 0;
  size_t peak_packets = 0;
  double bytes_per_packet = 0;
  uint64_t peak_rss_kb = 0;    // of the whole process, when the run finished
  uint64_t huge_pages_kb = 0;  // of the memory it held then (src/cli/huge_pages.h)
};

class Fabric {
 public:
  explicit Fabric(const Scenario& sc);  // throws ConfigError for names that do not resolve
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  void Run();

  // A flow: one WRITE of `size` bytes from host `src` to host `dst`, starting at `start`.
  // Flows are added before StartFlows(), which counts them and schedules their starts.
  QueuePair& AddFlow(int src_host, int dst_host, uint64_t size, Time start, uint8_t dscp);
  void StartFlows();

  // For workload drivers: a queue pair they post messages on (not a flow: it stays open),
  // and a unit of pending work that keeps the run going until WorkDone().
  uint32_t OpenQueuePair(int src_host, int dst_host, uint8_t dscp, MessageListener* listener);
  void PostMessage(uint32_t qp, Verb verb, uint64_t bytes, uint64_t tag);
  void AddWork() { ++tracker_.remaining; }
  // The run goes on to its duration when its work ends early (every flow failed, a job dead): a
  // monitor still scrapes the counters the failure left, as a collector does after a job dies.
  void RunToEnd() { tracker_.run_to_end = true; }
  void WorkDone();
  int HostIndex(const std::string& name) const;
  void ScheduleAt(Time at, EventSource* target, uint32_t kind, uint32_t arg = 0) { ctx_.sim.Schedule(at, target, kind, arg); }
  // Runs until simulated time `t` (for tests that look at the fabric mid-run).
  void RunUntil(Time t);
  void Finish();  // closes open counters; Run() calls it

  const Scenario& scenario() const { return sc_; }
  const Topology& topology() const { return topo_; }
  Time now() const { return ctx_.sim.Now(); }
  const std::vector<QueuePair>& qps() const { return qps_; }
  const std::vector<std::unique_ptr<Nic>>& nics() const { return nics_; }
  const std::vector<std::unique_ptr<Switch>>& switches() const { return switches_; }
  Nic& nic(const std::string& host);
  const Nic& nic(const std::string& host) const;
  Switch& sw(const std::string& name);
  const Switch& sw(const std::string& name) const;
  const EngineStats& engine() const { return engine_; }
  // Whether the event loop looks ahead for this fabric (Simulator::SetLookahead).
  bool lookahead() const { return ctx_.sim.Lookahead(); }
  void SetProgressListener(ProgressListener* listener) { ctx_.sim.SetProgressListener(listener); }
  uint64_t packets_in_flight() const { return ctx_.pool.InUse(); }

  // What happened to the fabric, in time order (faults, link state, routes, QP errors).
  const Timeline& timeline() const { return ctx_.timeline; }
  Timeline& timeline() { return ctx_.timeline; }
  // For faults (fault/fault_injector.h): a device by topology node id, the routing state,
  // and the control plane that reacts to link changes.
  Node& device(int node) { return *by_node_[node]; }
  const Node& device(int node) const { return *by_node_[node]; }
  Topology& mutable_topology() { return topo_; }
  ControlPlane& control_plane() { return *control_plane_; }
  Simulator& sim() { return ctx_.sim; }
  // The one periodic reader of the fabric (telemetry/sampler.h): the monitor and the time
  // series take their samples on its clock.
  Sampler& sampler() { return sampler_; }
  SimContext* context() { return &ctx_; }
  // The paths the NICs stamp into their packets (net/flow_paths.h): off, every switch looks
  // each route up, the reference for tests.
  void SetPathStamps(bool on) { flow_paths_->set_enabled(on); }
  // Takes the link at `node`:`port` down or up now: both ends' carriers, then the control
  // plane's detection and convergence. A link held down stays down.
  void SetLinkUp(int node, int port, bool up);
  // The link's signal lost or back (a fault): what its PHYs make of it, debounce and link
  // training (net/link_phy.h), decides when SetLinkUp follows.
  void LoseSignal(int node, int port) { link_phy_->LoseSignal(node, port); }
  void RestoreSignal(int node, int port) { link_phy_->RestoreSignal(node, port); }
  void SetPcsFailure(int node, int port, const PcsFailure& f) { link_phy_->SetPcsFailure(node, port, f); }
  // Shuts the link at `node`:`port` administratively: down now, and whatever its PHY does
  // after (a flap coming back up), down until the run ends, as `shutdown` on a port keeps it.
  void HoldLinkDown(int node, int port);
  // `startup` on a port held down: the hold lifted, and the link trained and up when its signal is
  // there (net/link_phy.h). Whether it was held down.
  bool ReleaseLink(int node, int port);
  // `devlink dev reload` on host `host`'s NIC (driver_reinit): every queue pair it is an end of
  // goes to error now, its work requests flushed (the peer's side with it: the queue pair it
  // talked to no longer exists), and the device starts again (Nic::ReloadDriver). The count of
  // queue pairs it failed.
  int ReloadNic(const std::string& host);
  // Before the run starts: the link at `node`:`port` down and held down, and every switch's
  // ECMP groups and routes already without it, as a fabric that has long converged around the
  // loss runs. No timeline event: nothing changed during the run.
  void StartWithLinkDown(int node, int port);
  // The links a packet with these headers (source and destination host, UDP ports, type)
  // crosses now, by the routes in force and each switch's ECMP hash, as a traceroute with the
  // same 5-tuple would find them: each link by its sending (node, port), from the source
  // host's port on. Empty when there is no way there.
  std::vector<std::pair<int, int>> PathOf(const Packet& headers) const;
  // The headroom `headroom: auto` gives switch node `node`'s port `port` for a cable of `delay`.
  uint64_t AutoHeadroom(int node, int port, Time delay) const;
  // The headroom switch node `node`'s configuration gives its port `port` on its real cable.
  uint64_t ConfiguredHeadroom(int node, int port) const;

 private:
  // The devices' state beyond which the event loop looks ahead (Simulator::SetLookahead). On
  // this project's reference machine it changed nothing at k=12 (7.8 MB by WantLookahead's
  // count: 1.007 on against off), and gained 9 % at k=16 (18.4 MB) once the loop looked across
  // the calendar's slots, 14 % at k=18 (26 MB), 23 % at k=20 (36 MB) and more at k=24 (62 MB):
  // docs/performance.md.
  static constexpr size_t kLookaheadBytes = size_t{16} << 20;
  // Whether to, by the devices' size; ROCELAB_LOOKAHEAD=0 or 1 decides instead.
  bool WantLookahead() const;
  // How HPCC's INT records pack their fields: nic.hpcc.int_format, with units of
  // nic.hpcc.int_multi, or the fastest link's rate / 25 Gb/s. Refuses HPCC on a fabric with a
  // link rate no record can name.
  IntFormat IntFormatOf() const;

  // The forwarding pipelines (switch.pipeline_latency) a frame from host `src` to host `dst`
  // crosses, along the path IdealFct walks: what its ideal FCT adds, once for the last frame and
  // once for its ACK.
  Time PathPipelineLatency(int src_host, int dst_host) const;

  Scenario sc_;
  Topology topo_;
  SimContext ctx_;
  FlowTracker tracker_;
  std::vector<QueuePair> qps_;
  std::vector<std::unique_ptr<Switch>> switches_;
  std::vector<std::unique_ptr<Nic>> nics_;
  std::vector<Node*> by_node_;  // topology node id -> device
  std::unique_ptr<ControlPlane> control_plane_;
  std::unique_ptr<FlowPaths> flow_paths_;
  std::unique_ptr<LinkPhy> link_phy_;
  std::set<std::pair<int, int>> held_down_;  // (node, port), both ends of each link held down
  Sampler sampler_{&ctx_.sim};
  EngineStats engine_;
  bool finished_ = false;
  BaseRtt longest_base_rtt_;  // HPCC's GLOBAL_T base RTT, found at the first flow that needs it
  bool pipelines_ = false;    // some switch has a pipeline latency
};

}  // namespace rocelab

#endif  // ROCELAB_NET_FABRIC_H_
