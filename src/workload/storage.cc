#include "workload/storage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "net/fabric.h"
#include "util/json_writer.h"

namespace rocelab {

namespace {
enum : uint32_t { kBegin = 1, kServiceDone, kWindowEnd };
bool IsSend(uint8_t op) { return op == kOpSendOnly || op == kOpSendLast; }
}  // namespace

StorageDriver::StorageDriver(Fabric* f, const StorageSpec& spec, uint64_t seed, size_t index)
    : f_(f), spec_(spec), rng_(seed, 0x5707A6E0000ull + index) {
  for (const NameRef& c : spec.clients) clients_.push_back(f->HostIndex(c.name));
  for (const NameRef& t : spec.targets) targets_.push_back(f->HostIndex(t.name));
  to_target_.assign(clients_.size(), std::vector<uint32_t>(targets_.size()));
  to_client_.assign(targets_.size(), std::vector<uint32_t>(clients_.size()));
  for (size_t c = 0; c < clients_.size(); ++c)
    for (size_t t = 0; t < targets_.size(); ++t) {
      to_target_[c][t] = f->OpenQueuePair(clients_[c], targets_[t], spec.dscp, this);
      to_client_[t][c] = f->OpenQueuePair(targets_[t], clients_[c], spec.dscp, this);
      qp_ends_[to_target_[c][t]] = {static_cast<int>(c), static_cast<int>(t)};
      qp_ends_[to_client_[t][c]] = {static_cast<int>(c), static_cast<int>(t)};
    }
  device_queue_.resize(targets_.size());
  busy_.assign(targets_.size(), 0);
}

void StorageDriver::Start() {
  f_->AddWork();
  window_end_ = spec_.start + spec_.duration;
  f_->ScheduleAt(spec_.start, this, kBegin);
  f_->ScheduleAt(window_end_, this, kWindowEnd);
}

void StorageDriver::HandleEvent(uint32_t kind, uint32_t arg, Packet*) {
  switch (kind) {
    case kBegin:
      for (size_t c = 0; c < clients_.size(); ++c)
        for (int d = 0; d < spec_.queue_depth; ++d) Issue(static_cast<int>(c));
      return;
    case kWindowEnd:
      issuing_ = false;
      if (outstanding_ == 0 && !qp_error_) f_->WorkDone();
      return;
    case kServiceDone: {
      const Io& io = ios_[arg];
      --busy_[io.target];
      // The target returns the data with an RDMA WRITE, then the completion capsule.
      const uint32_t qp = to_client_[io.target][io.client];
      f_->PostMessage(qp, Verb::kWrite, spec_.io_size, arg);
      pending_[qp].push_back(arg);
      f_->PostMessage(qp, Verb::kSend, spec_.response_size, arg);
      ServeNext(io.target);
      return;
    }
    default:
      return;
  }
}

void StorageDriver::Issue(int client) {
  const int target = static_cast<int>(rng_.Below(targets_.size()));
  const uint32_t id = static_cast<uint32_t>(ios_.size());
  ios_.push_back({client, target, f_->now()});
  const uint32_t qp = to_target_[client][target];
  pending_[qp].push_back(id);
  f_->PostMessage(qp, Verb::kSend, spec_.command_size, id);
  ++outstanding_;
}

void StorageDriver::ServeNext(int target) {
  while (busy_[target] < spec_.parallelism && !device_queue_[target].empty()) {
    const uint32_t id = device_queue_[target].front();
    device_queue_[target].pop_front();
    ++busy_[target];
    const double mean = static_cast<double>(spec_.service_time);
    const Time service = spec_.exponential ? static_cast<Time>(-std::log(1.0 - rng_.Uniform()) * mean) : spec_.service_time;
    f_->ScheduleAt(f_->now() + service, this, kServiceDone, id);
  }
}

void StorageDriver::OnReceiveComplete(uint32_t qp, uint8_t opcode, Time now) {
  if (!IsSend(opcode)) return;  // the data WRITE lands silently; the capsule that follows completes the I/O
  auto ends = qp_ends_.find(qp);
  auto& fifo = pending_[qp];
  if (ends == qp_ends_.end() || fifo.empty()) return;
  const uint32_t id = fifo.front();
  fifo.pop_front();
  const Io& io = ios_[id];
  if (qp == to_target_[io.client][io.target]) {
    device_queue_[io.target].push_back(id);  // the command reached the target
    ServeNext(io.target);
    return;
  }
  --outstanding_;
  if (now <= window_end_) latencies_.push_back(static_cast<double>(now - io.issued) / kMicrosecond);
  if (issuing_) Issue(io.client);
  else if (outstanding_ == 0 && !qp_error_) f_->WorkDone();
}

double StorageDriver::Iops() const {
  return static_cast<double>(latencies_.size()) / (static_cast<double>(spec_.duration) / kSecond);
}

double StorageDriver::LatencyPercentileUs(double p) const {
  if (latencies_.empty()) return 0;
  std::vector<double> v = latencies_;
  std::sort(v.begin(), v.end());
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::min(v.size(), std::max<size_t>(rank, 1)) - 1];
}

std::string StorageDriver::ReportLine() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "storage: %llu I/Os, %.0f IOPS, latency p50 %.1f us, p99 %.1f us, p99.9 %.1f us",
                (unsigned long long)completed(), Iops(), LatencyPercentileUs(0.5), LatencyPercentileUs(0.99),
                LatencyPercentileUs(0.999));
  return buf;
}

void StorageDriver::WriteSummary(JsonWriter& w) const {
  w.BeginObject();
  w.String("type", "storage").Uint("clients", clients_.size()).Uint("targets", targets_.size());
  w.Int("queue_depth", spec_.queue_depth).Uint("io_size", spec_.io_size).Uint("completed", latencies_.size());
  w.Double("iops", Iops(), 0);
  w.BeginObject("latency_us");
  w.Double("p50", LatencyPercentileUs(0.5), 3).Double("p99", LatencyPercentileUs(0.99), 3);
  w.Double("p99.9", LatencyPercentileUs(0.999), 3);
  w.EndObject();
  w.EndObject();
}

void StorageDriver::OnSendError(uint32_t, const Message&, Error, Time) {
  if (!qp_error_) f_->WorkDone();  // nothing more completes on that QP: the workload ends here
  qp_error_ = true;
}

}  // namespace rocelab
