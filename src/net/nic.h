// An RDMA NIC (one port) with its host. Send side: queue pairs served round
// robin, each paced by its DCQCN rate; ACK/NAK/CNP frames go before data; a
// paused priority stops at the next frame boundary. Receive side: a receive
// buffer drained toward host memory at a finite rate (PCIe), which asserts PFC
// upstream when it fills; then the RC responder and requester logic.
#ifndef ROCELAB_NET_NIC_H_
#define ROCELAB_NET_NIC_H_

#include <vector>

#include "net/node.h"
#include "scenario/scenario.h"
#include "transport/queue_pair.h"

namespace rocelab {

struct FlowTracker {
  int64_t remaining = 0;  // flows neither finished nor failed
};

class Nic : public Node {
 public:
  Nic(SimContext* ctx, const std::string& name, uint32_t host, const NicSpec& spec, std::vector<QueuePair>* qps,
      FlowTracker* tracker);

  // Schedules the start of queue pair `qp` (whose requester is this NIC).
  void ScheduleFlow(uint32_t qp);
  // Makes queue pair `qp` (whose requester is this NIC) eligible to send now.
  void Activate(uint32_t qp);
  // Receive-buffer thresholds, once the port's headroom is known.
  void SetRxThresholds(uint64_t headroom_bytes);

  const NicSpec& spec() const { return spec_; }
  const RdmaCounters& rdma() const { return rdma_; }
  uint64_t rx_xoff() const { return rx_xoff_; }
  uint64_t rx_xon() const { return rx_xon_; }

 protected:
  Packet* NextFrame(int port) override;
  bool HasBacklog(int port) const override;
  void OnFrame(int port, Packet* pkt) override;
  void OnNodeEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  enum : uint32_t { kFlowStart = kFirstNodeEvent, kWake, kRxDrained, kRxProcess, kQpTimer, kCcTimer };

  Packet* BuildData(QueuePair& qp);
  Packet* BuildReadRequest(QueuePair& qp, const Message& m);
  Packet* BuildReadResponse(QueuePair& qp);
  void AdvanceUna(QueuePair& qp, uint32_t una);
  void OnReadRequest(const Packet* pkt);
  void OnReadResponse(const Packet* pkt);
  void Process(Packet* pkt);
  void OnData(const Packet* pkt);
  void OnAck(const Packet* pkt);
  void OnNak(const Packet* pkt);
  void OnCnp(const Packet* pkt);
  void OnQpTimer(QueuePair& qp);
  void SendControl(PacketType type, const QueuePair& qp, uint32_t psn);
  void ArmTimer(QueuePair& qp);
  void ScheduleCcTimer(QueuePair& qp);
  void Complete(QueuePair& qp, bool failed);
  void StartDrain();
  Time AckTimeout() const { return (4096 * kNanosecond) << spec_.timeout; }
  Time Timeout(const QueuePair& qp) const { return qp.rto > 0 ? qp.rto : AckTimeout(); }
  bool CcOn() const { return spec_.cc == NicSpec::Cc::kDcqcn; }

  NicSpec spec_;
  uint32_t host_;
  std::vector<QueuePair>* qps_;
  FlowTracker* tracker_;
  std::vector<uint32_t> active_;  // queue pairs with a started, unfinished message
  std::vector<uint32_t> responding_;  // queue pairs this NIC owes READ responses
  size_t respond_rr_ = 0;
  bool echo_ = false;  // the data packet being answered was CE-marked (cnp_on_ack)
  size_t rr_ = 0;
  PacketFifo control_[kNumPriorities];
  Time wake_at_ = kTimeNever;
  PacketFifo rx_buf_;
  bool draining_ = false;
  uint64_t rx_xoff_ = 0, rx_xon_ = 0;
  RdmaCounters rdma_;
};

}  // namespace rocelab

#endif  // ROCELAB_NET_NIC_H_
