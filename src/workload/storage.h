// NVMe-oF-style 4 KiB random reads over RDMA: each client keeps `queue_depth`
// I/Os outstanding; an I/O is a small command capsule (SEND) to a target, a
// wait for the target's device (a service time drawn per I/O, `parallelism`
// I/Os served at once), then the data as an RDMA WRITE to the client and a
// small completion capsule (SEND). Reports IOPS and latency percentiles.
#ifndef ROCELAB_WORKLOAD_STORAGE_H_
#define ROCELAB_WORKLOAD_STORAGE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sim/event_queue.h"
#include "sim/rng.h"
#include "transport/queue_pair.h"
#include "workload/driver.h"

namespace rocelab {

class Fabric;
class StorageDriver : public WorkloadDriver, public MessageListener, public EventSource {
 public:
  StorageDriver(Fabric* fabric, const StorageSpec& spec, uint64_t seed, size_t index);
  void Start() override;

  void OnSendComplete(uint32_t, const Message&, Time) override {}
  void OnReceiveComplete(uint32_t qp, uint8_t opcode, Time now) override;
  // A queue pair failed: the workload cannot go on; it stops and reports what it completed.
  void OnSendError(uint32_t qp, const Message& m, Error error, Time now) override;
  bool qp_error() const { return qp_error_; }
  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

  double Iops() const;
  double LatencyPercentileUs(double p) const;
  uint64_t completed() const { return latencies_.size(); }
  void WriteSummary(JsonWriter& w) const override;
  std::string ReportLine() const override;

 private:
  struct Io {
    int client, target;
    Time issued;
  };
  void Issue(int client);
  void ServeNext(int target);

  Fabric* f_;
  bool qp_error_ = false;
  StorageSpec spec_;
  Rng rng_;
  std::vector<int> clients_, targets_;
  std::vector<std::vector<uint32_t>> to_target_;    // [client][target] command QP
  std::vector<std::vector<uint32_t>> to_client_;    // [target][client] data QP
  std::map<uint32_t, std::pair<int, int>> qp_ends_;  // QP -> (client, target)
  std::map<uint32_t, std::deque<uint32_t>> pending_;  // QP -> I/O ids in flight on it, in order
  std::vector<std::deque<uint32_t>> device_queue_;    // per target: I/Os waiting for the device
  std::vector<int> busy_;                            // per target: I/Os being served
  std::vector<Io> ios_;
  std::vector<double> latencies_;  // microseconds, I/Os completed within the window
  int outstanding_ = 0;
  bool issuing_ = true;
  Time window_end_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_WORKLOAD_STORAGE_H_
