#include "workload/allreduce.h"

#include <algorithm>
#include <cstdio>

#include "net/fabric.h"
#include "util/json_writer.h"

namespace rocelab {

namespace {
enum : uint32_t { kBeginIteration = 1, kStragglerReady };
}

AllreduceDriver::AllreduceDriver(Fabric* fabric, const AllreduceSpec& spec) : f_(fabric), spec_(spec) {
  n_ = static_cast<int>(spec.hosts.size());
  steps_ = 2 * (n_ - 1);
  block_ = (spec.size + n_ - 1) / n_;
  slices_ = static_cast<int>(std::max<uint64_t>(1, (block_ + spec.slice - 1) / spec.slice));
  qps_.resize(n_);
  for (int r = 0; r < n_; ++r) {
    const int src = f_->HostIndex(spec.hosts[r].name), dst = f_->HostIndex(spec.hosts[(r + 1) % n_].name);
    for (int q = 0; q < spec.qps; ++q) {
      const uint32_t id = f_->OpenQueuePair(src, dst, spec.dscp, this);
      qps_[r].push_back(id);
      if (rank_of_qp_.size() <= id) {
        rank_of_qp_.resize(id + 1, -1);
        in_flight_.resize(id + 1);
      }
      rank_of_qp_[id] = r;
    }
  }
  next_qp_.assign(n_, 0);
  for (int r = 0; r < n_; ++r)
    if (spec.straggler_compute > spec.compute && spec.hosts[r].name == spec.straggler.name) straggler_ = r;
}

uint64_t AllreduceDriver::SliceBytes(int slice) const {
  const uint64_t start = static_cast<uint64_t>(slice) * spec_.slice;
  return std::min<uint64_t>(spec_.slice, block_ - start);
}

void AllreduceDriver::Start() {
  f_->AddWork();
  f_->ScheduleAt(spec_.start + spec_.compute, this, kBeginIteration);
}

void AllreduceDriver::HandleEvent(uint32_t kind, uint32_t, Packet*) {
  if (kind == kBeginIteration) BeginIteration();
  if (kind != kStragglerReady) return;
  for (int s = 0; s < slices_; ++s) Send(straggler_, s, 0);
  for (const Pending& p : deferred_) Send(straggler_, p.slice, p.step);
  deferred_.clear();
}

void AllreduceDriver::BeginIteration() {
  began_ = f_->now();
  begins_.push_back(began_);
  received_.assign(n_, std::vector<int>(slices_, 0));
  remaining_ = n_ * slices_ * steps_;
  for (int r = 0; r < n_; ++r) {
    if (r == straggler_) continue;
    for (int s = 0; s < slices_; ++s) Send(r, s, 0);
  }
  if (straggler_ < 0) return;
  straggler_ready_ = began_ + (spec_.straggler_compute - spec_.compute);
  f_->ScheduleAt(straggler_ready_, this, kStragglerReady);
}

void AllreduceDriver::Send(int rank, int slice, int step) {
  const uint32_t qp = qps_[rank][next_qp_[rank]++ % qps_[rank].size()];
  in_flight_[qp].push_back({slice, step});
  f_->PostMessage(qp, Verb::kWriteImm, SliceBytes(slice), 0);
}

void AllreduceDriver::OnReceiveComplete(uint32_t qp, uint8_t, Time now) {
  if (qp >= rank_of_qp_.size() || rank_of_qp_[qp] < 0 || in_flight_[qp].empty()) return;
  const Pending p = in_flight_[qp].front();
  in_flight_[qp].pop_front();
  const int rank = (rank_of_qp_[qp] + 1) % n_;  // the receiver
  const int got = ++received_[rank][p.slice];
  --remaining_;
  // Having received step k-1 of this slice, the rank forwards (reduced, then gathered) step k.
  if (got < steps_) {
    if (rank == straggler_ && now < straggler_ready_) deferred_.push_back({p.slice, got});
    else Send(rank, p.slice, got);
  }
  if (remaining_ > 0) return;
  times_.push_back(now - began_);
  if (++iteration_ < spec_.iterations) {
    f_->ScheduleAt(now + spec_.compute, this, kBeginIteration);
  } else {
    if (!qp_error_) f_->WorkDone();
  }
}

double AllreduceDriver::AlgBwBytesPerSecond() const {
  if (times_.empty()) return 0;
  double sum = 0;
  for (Time t : times_) sum += static_cast<double>(t);
  return static_cast<double>(spec_.size) / (sum / static_cast<double>(times_.size()) / kSecond);
}

double AllreduceDriver::BusBwBytesPerSecond() const { return AlgBwBytesPerSecond() * 2.0 * (n_ - 1) / n_; }

double AllreduceDriver::GpuBusy() const {
  if (times_.empty()) return 0;
  double comm = 0;
  for (Time t : times_) comm += static_cast<double>(t);
  const double compute = static_cast<double>(spec_.compute) * static_cast<double>(times_.size());
  return compute + comm > 0 ? compute / (compute + comm) : 0;
}

std::string AllreduceDriver::ReportLine() const {
  // As nccl-tests: the mean time, and the algbw and busbw of that same mean.
  double mean = 0, lo = 0, hi = 0;
  if (!times_.empty()) {
    lo = hi = static_cast<double>(times_[0]);
    for (Time t : times_) {
      mean += static_cast<double>(t);
      lo = std::min(lo, static_cast<double>(t));
      hi = std::max(hi, static_cast<double>(t));
    }
    mean /= static_cast<double>(times_.size());
  }
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "allreduce: %d ranks, %llu B, %zu iteration(s): time mean %.1f us (min %.1f, max %.1f), "
                "algbw %.2f GB/s, busbw %.2f GB/s (of the mean), GPU busy %.1f %%",
                n_, (unsigned long long)spec_.size, times_.size(), mean / kMicrosecond, lo / kMicrosecond, hi / kMicrosecond,
                AlgBwBytesPerSecond() / 1e9, BusBwBytesPerSecond() / 1e9, GpuBusy() * 100);
  return buf;
}

void AllreduceDriver::WriteSummary(JsonWriter& w) const {
  w.BeginObject();
  w.String("type", "allreduce").Int("ranks", n_).Uint("bytes", spec_.size).Uint("slice_bytes", spec_.slice);
  w.Int("qps_per_neighbour", spec_.qps).Int("iterations", spec_.iterations);
  w.Int("iterations_done", static_cast<int64_t>(times_.size()));
  // The ring can go no faster than its slowest host link: what busbw is measured against.
  uint64_t link = UINT64_MAX;
  for (const NameRef& h : spec_.hosts) link = std::min(link, f_->nics()[f_->HostIndex(h.name)]->port(0).rate_bps);
  w.Double("host_link_gbps", static_cast<double>(link) / 1e9, 3);
  w.BeginArray("iteration_ns");
  for (Time t : times_) w.UintValue(static_cast<uint64_t>(t / kNanosecond));
  w.EndArray();
  w.Double("algbw_GBps", AlgBwBytesPerSecond() / 1e9, 3).Double("busbw_GBps", BusBwBytesPerSecond() / 1e9, 3);
  w.Double("busbw_gbps", BusBwBytesPerSecond() * 8 / 1e9, 3).Double("gpu_busy", GpuBusy(), 4);
  w.EndObject();
}

void AllreduceDriver::OnSendError(uint32_t, const Message&, Error, Time) {
  if (!qp_error_) f_->WorkDone();  // nothing more completes on that QP: the workload ends here
  qp_error_ = true;
}

}  // namespace rocelab
