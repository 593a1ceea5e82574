// NCCL-style ring AllReduce of S bytes over an ordered host list: reduce-scatter
// then all-gather, 2(N-1) steps in which every rank sends one S/N block to its
// right neighbour as RDMA WRITE with immediate, pipelined in slices: a slice of
// step k leaves once the same slice of step k-1 has arrived from the left.
// Several iterations, each optionally preceded by a compute phase. A straggler
// rank computes longer: it sends its first blocks, and forwards what reached
// it, only once its own compute is done, so the ring waits for it (a slow rank,
// the network healthy).
// Reported as nccl-tests define it: algbw = S / t, busbw = algbw x 2(N-1)/N.
#ifndef ROCELAB_WORKLOAD_ALLREDUCE_H_
#define ROCELAB_WORKLOAD_ALLREDUCE_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sim/event_queue.h"
#include "transport/queue_pair.h"
#include "workload/driver.h"

namespace rocelab {

class Fabric;
class AllreduceDriver : public WorkloadDriver, public MessageListener, public EventSource {
 public:
  AllreduceDriver(Fabric* fabric, const AllreduceSpec& spec);
  void Start() override;

  void OnSendComplete(uint32_t, const Message&, Time) override {}
  void OnReceiveComplete(uint32_t qp, uint8_t opcode, Time now) override;
  // A queue pair failed: the workload cannot go on; it stops and reports what it completed.
  void OnSendError(uint32_t qp, const Message& m, Error error, Time now) override;
  bool qp_error() const { return qp_error_; }
  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

  const std::vector<Time>& iteration_times() const { return times_; }
  // When each iteration's communication began (its time is iteration_times()[i] from there).
  const std::vector<Time>& iteration_begins() const { return begins_; }
  const AllreduceSpec& spec() const { return spec_; }
  // Per rank, the queue pairs to its right neighbour (slices go round robin over them).
  const std::vector<std::vector<uint32_t>>& ring_qps() const { return qps_; }
  double AlgBwBytesPerSecond() const;  // S / mean iteration time
  double BusBwBytesPerSecond() const;  // algbw x 2(N-1)/N
  double GpuBusy() const;              // compute / (compute + exposed communication)
  int ranks() const { return n_; }
  uint64_t bytes() const { return spec_.size; }
  void WriteSummary(JsonWriter& w) const override;
  std::string ReportLine() const override;

 private:
  struct Pending {
    int slice, step;
  };
  void BeginIteration();
  void Send(int rank, int slice, int step);
  uint64_t SliceBytes(int slice) const;

  Fabric* f_;
  bool qp_error_ = false;
  AllreduceSpec spec_;
  int n_ = 0, slices_ = 0, steps_ = 0;
  uint64_t block_ = 0;
  std::vector<std::vector<uint32_t>> qps_;        // per rank: QPs to the right neighbour
  std::vector<int> rank_of_qp_;                   // QP id -> sending rank (or -1)
  std::vector<std::deque<Pending>> in_flight_;    // per QP id: messages in posting order
  std::vector<std::vector<int>> received_;        // per rank, per slice: steps received
  std::vector<size_t> next_qp_;                   // round robin over a rank's QPs
  int straggler_ = -1;                            // the straggler's rank, or -1
  Time straggler_ready_ = 0;                      // when its compute ends in this iteration
  std::vector<Pending> deferred_;                 // what reached it before then, to forward
  int remaining_ = 0;                             // (rank, slice, step) arrivals left in this iteration
  int iteration_ = 0;
  Time began_ = 0;
  std::vector<Time> times_;
  std::vector<Time> begins_;
};

}  // namespace rocelab

#endif  // ROCELAB_WORKLOAD_ALLREDUCE_H_
