// An RDMA NIC (one port) with its host. Send side: queue pairs served round
// robin (net/qp_scheduler.h), each paced by its DCQCN rate; ACK/NAK/CNP
// frames, then probes, go before data; a paused priority stops at the next
// frame boundary. Receive side: a receive buffer drained toward host memory at
// a finite rate (PCIe), which asserts PFC upstream when it fills; then the RC
// transport (transport/rc_transport.h), or the probe's answer.
#ifndef ROCELAB_NET_NIC_H_
#define ROCELAB_NET_NIC_H_

#include <vector>

#include "net/node.h"
#include "net/qp_scheduler.h"
#include "scenario/scenario.h"
#include "transport/queue_pair.h"
#include "transport/rc_transport.h"

namespace rocelab {

struct FlowTracker {
  int64_t remaining = 0;     // flows neither finished nor failed, and drivers' work not done
  bool run_to_end = false;   // a collector scrapes on after the work is done (Fabric::RunToEnd)

  // Counts one piece of work done; true when the run may stop there.
  bool Done() { return --remaining == 0 && !run_to_end; }
  bool Running() const { return remaining > 0 || run_to_end; }
};

// Who hears a probe's answer at the NIC that sent the probe (run/pingmesh.h).
class ProbeListener {
 public:
  virtual ~ProbeListener() = default;
  // `reply` carries the round trip's four timestamps (Packet::ProbeStamp).
  virtual void OnProbeReply(const Packet& reply) = 0;
};

class alignas(64) Nic : public Node, private RcCarrier {
 public:
  Nic(SimContext* ctx, const std::string& name, const NicSpec& spec, std::vector<QueuePair>* qps,
      FlowTracker* tracker);

  // Schedules the start of queue pair `qp` (whose requester is this NIC).
  void ScheduleFlow(uint32_t qp);
  // Makes queue pair `qp` (whose requester is this NIC) eligible to send now.
  void Activate(uint32_t qp);
  // Receive-buffer thresholds, once the port's headroom is known.
  void SetRxThresholds(uint64_t headroom_bytes);

  const NicSpec& spec() const { return spec_; }
  // Faults on the host's receive pipeline (fault/fault_injector.h). Stalled: nothing drains;
  // the receive buffer fills, the NIC pauses its switch on every lossless priority and keeps
  // it paused (a pause storm), and frames that find the buffer full are discarded. A drain
  // rate below line rate is a slow receiver (0: as fast as the link fills it).
  void SetRxStalled(bool stalled);
  void SetDrainRate(uint64_t bps);
  // The pause-storm guard (mlx5 pfc-prevention-tout): device-wide event counts.
  uint64_t pause_storm_warning_events() const { return storm_warnings_; }
  uint64_t pause_storm_error_events() const { return storm_errors_; }
  bool pause_storm_guard_active() const { return guard_active_; }
  // Frame bytes discarded for a full receive buffer while the guard had stopped pausing: what
  // its action cost (without it, PFC would have held them upstream).
  uint64_t guard_discard_bytes() const { return guard_discard_bytes_; }

  // The port's trust mode and PFC priorities set while running, as `mlnx_qos -i eth0 --trust
  // dscp --pfc 0,0,0,1,0,0,0,0` sets them: a priority PFC leaves stops pausing its switch (an XON
  // ends a pause in force) and honours no pause from it; what its receive buffer cannot take is
  // discarded.
  void SetQos(bool trust_dscp, uint8_t pfc_priorities);
  // DCQCN's parameters set while running (the mlx5 sysfs files under ecn/roce_rp and roce_np):
  // every queue pair reads them from here, so the next CNP, timer or byte count uses them.
  void SetDcqcn(const DcqcnParams& p) { spec_.dcqcn = p; }
  // The DCQCN reaction point on or off while running (a cc_disabled fault): off, CNPs are
  // ignored (rp_cnp_ignored) and every QP sends at line rate; the notification point goes on.
  void SetReactionPoint(bool on);
  bool reaction_point() const { return rc_.reaction_point(); }
  // Fails queue pair `qp` of this NIC now (RcTransport::Fail).
  void FailQp(uint32_t qp) { rc_.Fail((*qps_)[qp]); }
  // The device's side of a driver reload (`devlink dev reload`, action driver_reinit): the
  // receive pipeline starts again (a stuck one drains; what it holds goes to the host) and the
  // pause-storm guard starts afresh. The queue pairs the reload destroys are the fabric's to fail
  // (Fabric::ReloadNic); what lives in the firmware (trust, PFC, DCQCN's parameters) stays.
  void ReloadDriver();
  const RdmaCounters& rdma() const { return rdma_; }

  // Probes on a UD queue pair, as R-Pingmesh sends them. A probe from host `src` (this NIC's)
  // to host `dst` with UDP source port `sport`, DSCP `dscp` and number `seq`: it waits behind
  // the ACKs and CNPs, goes before the queue pairs' data, and stops while its priority is
  // paused. Timestamps are taken at the MAC; the answering NIC sends its reply once the host
  // has taken the probe in (receive buffer and processing delay), so t3 - t2 is the
  // responder's own delay and (t4 - t1) - (t3 - t2) the network's round trip.
  void SendProbe(uint32_t src, uint32_t dst, uint16_t sport, uint8_t dscp, uint32_t seq);
  void SetProbeListener(ProbeListener* l) { probe_listener_ = l; }
  uint64_t rx_xoff() const { return rx_xoff_; }
  uint64_t rx_xon() const { return rx_xon_; }

 protected:
  Packet* NextFrame(int port) override;
  bool HasBacklog(int port) const override;
  void OnFrame(int port, Packet* pkt) override;
  void OnNodeEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  Packet* ChooseFrame();  // what NextFrame sends: control, probes, READ responses, then requests
  enum : uint32_t {
    kFlowStart = kFirstNodeEvent, kWake, kRxDrained, kRxProcess, kQpTimer, kCcTimer, kResponseCcTimer, kStormGuard,
  };

  // RcCarrier: what the transport asks of the NIC.
  void SendControl(Packet* pkt) override;
  void Wake() override { Kick(0); }
  void ArmTimer(Timer timer, Time at, uint32_t qp) override;
  void Responding(uint32_t qp) override;
  void Finished(QueuePair& qp) override;

  void Process(Packet* pkt);
  void QueueProbe(Packet* pkt);
  void StartDrain();
  // A frame left the receive buffer toward the host: the pipeline moves.
  void Drained();
  void FlushRxBuffer();
  // Pause on `prio` for a full receive buffer, unless the storm guard has stopped pausing.
  void PauseForBuffer(int prio);
  // The guard's check: how long the pipeline has been stalled while pausing, and what is due.
  void CheckStall();

  // What a frame sent or received reads comes first, on a few lines: which priorities have
  // control frames waiting (a bit each, so that choosing a frame does not read every
  // priority's queue), whether probes are and whether READ responses are owed (so that a NIC
  // owing none does not read that rotation's lines), the receive pipeline's state, the
  // requests' rotation, the transport, the spec, whose per-frame fields are its head
  // (scenario/scenario.h), and the RDMA counters. The rest is read when something happens: READ
  // responses owed, a control frame queued, a counter for the rarer cases, the storm guard.
  uint8_t control_waiting_ = 0;  // bit p: control_[p] holds frames
  bool probes_waiting_ = false;  // probes_ holds frames
  bool responding_ = false;      // responders_ is not empty
  bool draining_ = false;
  bool rx_stalled_ = false;
  Time wake_at_ = kTimeNever;
  QpScheduler<Requests> scheduler_;  // the queue pairs this NIC sends requests from
  RcTransport rc_;
  NicSpec spec_;
  RdmaCounters rdma_;
  QpScheduler<ReadResponses> responders_;  // the queue pairs this NIC owes READ responses
  PacketFifo control_[kNumPriorities];
  PacketFifo probes_;  // probes and replies waiting for the wire
  PacketFifo rx_buf_;
  std::vector<QueuePair>* qps_;
  FlowTracker* tracker_;
  ProbeListener* probe_listener_ = nullptr;
  uint64_t rx_xoff_ = 0, rx_xon_ = 0;
  // The pause-storm guard: the last time a frame drained, the stall it last warned about,
  // and whether it has stopped pausing.
  Time last_drain_ = 0;
  Time warned_stall_ = -1;
  bool guard_active_ = false;
  rocelab::Timer guard_timer_;
  uint64_t storm_warnings_ = 0, storm_errors_ = 0;
  uint64_t guard_discard_bytes_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_NET_NIC_H_
