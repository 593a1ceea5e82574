#include "run/lifecycle_probe.h"

#include <utility>

namespace rocelab {

namespace {
enum : uint32_t { kWindow, kMark };
}

LifecycleProbe::LifecycleProbe(Fabric* fabric, std::vector<int> trace_of_qp, size_t traces, Time window,
                               const std::vector<Time>& marks)
    : fabric_(fabric), trace_of_qp_(std::move(trace_of_qp)), traces_(traces), window_(window < 1 ? 1 : window) {
  marks_.resize(marks.size());
  for (size_t i = 0; i < marks.size(); ++i) fabric_->ScheduleAt(marks[i], this, kMark, static_cast<uint32_t>(i));
  fabric_->ScheduleAt(fabric_->now() + window_, this, kWindow);
}

LifecycleProbe::Sample LifecycleProbe::Take(const Fabric& f, const std::vector<int>& trace_of_qp, size_t traces) {
  Sample s;
  s.t = f.now();
  s.trace.assign(traces, 0);
  for (const QueuePair& qp : f.qps()) {
    s.delivered += qp.delivered;
    if (qp.id < trace_of_qp.size() && trace_of_qp[qp.id] >= 0) s.trace[trace_of_qp[qp.id]] += qp.delivered;
  }
  for (const auto& sw : f.switches()) {
    for (int p = 0; p < sw->num_ports(); ++p) s.watchdog_drop_bytes += sw->storm_drop_bytes(p);
    s.no_route_drop_bytes += sw->no_route_drop_bytes();
  }
  for (const auto& n : f.nics()) s.guard_discard_bytes += n->guard_discard_bytes();
  return s;
}

void LifecycleProbe::HandleEvent(uint32_t kind, uint32_t arg, Packet*) {
  if (kind == kMark) {
    marks_[arg] = Take(*fabric_, trace_of_qp_, traces_);
    return;
  }
  samples_.push_back(Take(*fabric_, trace_of_qp_, traces_));
  fabric_->ScheduleAt(fabric_->now() + window_, this, kWindow);
}

void LifecycleProbe::Finish() {
  if (finished_) return;
  finished_ = true;
  if (samples_.empty() || samples_.back().t < fabric_->now()) samples_.push_back(Take(*fabric_, trace_of_qp_, traces_));
}

double LifecycleProbe::At(const std::vector<Sample>& s, Time t, int trace) {
  auto value = [&](const Sample& x) {
    return static_cast<double>(trace < 0 ? x.delivered : x.trace[static_cast<size_t>(trace)]);
  };
  if (s.empty() || t <= 0) return 0;
  if (t <= s.front().t) return value(s.front()) * static_cast<double>(t) / static_cast<double>(s.front().t);
  for (size_t i = 1; i < s.size(); ++i) {
    if (t > s[i].t) continue;
    const double span = static_cast<double>(s[i].t - s[i - 1].t);
    const double f = span > 0 ? static_cast<double>(t - s[i - 1].t) / span : 1;
    return value(s[i - 1]) + f * (value(s[i]) - value(s[i - 1]));
  }
  return value(s.back());
}

Time LifecycleProbe::When(const std::vector<Sample>& s, double bytes) {
  double before = 0;
  Time t0 = 0;
  for (const Sample& x : s) {
    const double now = static_cast<double>(x.delivered);
    if (now >= bytes) {
      const double f = now > before ? (bytes - before) / (now - before) : 1;
      return t0 + static_cast<Time>(f * static_cast<double>(x.t - t0));
    }
    before = now;
    t0 = x.t;
  }
  return s.empty() ? 0 : s.back().t;
}

}  // namespace rocelab
