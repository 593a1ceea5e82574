#include "report/series.h"

namespace rocelab {

SeriesSampler::SeriesSampler(Fabric* fabric, std::FILE* out)
    : fabric_(fabric), out_(out), spec_(fabric->scenario().telemetry) {
  std::fputs("t_ns,device,port,priority,metric,value\n", out_);
  fabric_->sampler().Every(spec_.interval, [this] { Sample(); });
}

size_t SeriesSampler::MemoryBytes() const {
  return sizeof(*this) + last_.capacity() * sizeof(double) + busy_.capacity() * sizeof(Time) +
         delivered_.capacity() * sizeof(uint64_t);
}


void SeriesSampler::Row(const std::string& device, const std::string& port, int priority, const char* metric,
                        double value, double* last) {
  const bool write = value != 0 || *last != 0;
  *last = value;
  if (!write) return;
  ++rows_;
  std::fprintf(out_, "%.3f,%s,%s,", static_cast<double>(t_) / kNanosecond, device.c_str(), port.c_str());
  if (priority >= 0) std::fprintf(out_, "%d", priority);
  std::fprintf(out_, ",%s,%.9g\n", metric, value);
}

void SeriesSampler::Sample() {
  t_ = fabric_->now();
  next_ = 0;
  // One slot per (thing, series) in a fixed order, made on the first sample.
  auto last = [&]() -> double* {
    if (next_ == last_.size()) last_.push_back(0);
    return &last_[next_++];
  };
  const Topology& topo = fabric_->topology();
  const double interval = static_cast<double>(spec_.interval);
  size_t port_index = 0;
  auto port_series = [&](const Node& dev, int p, const std::string& port) {
    const Port& pt = dev.port(p);
    if (port_index == busy_.size()) busy_.push_back(0);
    // A frame's serialization is counted when it starts; the part still to go on the wire is
    // the next interval's, so no interval is more than fully busy. Never below the last sample.
    const Time on_wire = std::max<Time>(busy_[port_index], pt.counters.Sent().busy - std::max<Time>(0, pt.busy_until - t_));
    if (spec_.series & TelemetrySpec::kLinkUtil) {
      Row(dev.name(), port, -1, "link_util", static_cast<double>(on_wire - busy_[port_index]) / interval, last());
    }
    busy_[port_index++] = on_wire;
    if (spec_.series & TelemetrySpec::kPauseState)
      for (int prio = 0; prio < kNumPriorities; ++prio)
        if (dev.pfc_mask() & (1u << prio)) Row(dev.name(), port, prio, "pause_state", pt.paused[prio] ? 1 : 0, last());
  };
  for (const auto& s : fabric_->switches()) {
    for (int p = 0; p < s->num_ports(); ++p) {
      const std::string port = SwitchPortAlias(p);
      for (int prio = 0; prio < kNumPriorities; ++prio) {
        if (spec_.series & TelemetrySpec::kQueueDepth)
          Row(s->name(), port, prio, "queue_depth", static_cast<double>(s->queue_bytes(p, prio)), last());
        if (spec_.series & TelemetrySpec::kPgOccupancy)
          Row(s->name(), port, prio, "pg_occupancy", static_cast<double>(s->pg_bytes(p, prio)), last());
      }
      port_series(*s, p, port);
    }
  }
  for (const auto& n : fabric_->nics()) port_series(*n, 0, "eth0");
  const std::vector<QueuePair>& qps = fabric_->qps();
  if (delivered_.size() < qps.size()) delivered_.resize(qps.size(), 0);
  for (const QueuePair& qp : qps) {
    const std::string& sender = topo.nodes()[topo.hosts()[qp.src]].name;
    const std::string name = "qp" + std::to_string(qp.id);
    if (spec_.series & TelemetrySpec::kFlowRate)
      Row(sender, name, qp.priority, "flow_rate",
          static_cast<double>(qp.delivered - delivered_[qp.id]) * 8.0 / (interval / kNanosecond), last());
    delivered_[qp.id] = qp.delivered;
    if (spec_.series & TelemetrySpec::kCcRate) {
      const bool active = qp.started && !qp.done && !qp.failed;  // an uncut QP is at line rate
      const double rate = RcTransport::SendingRate(qp, fabric_->nics()[qp.src]->spec().cc);
      Row(sender, name, qp.priority, "cc_rate", active ? rate / 1e9 : 0, last());
    }
  }
}

}  // namespace rocelab
