#include "run/flow_touch.h"

#include <algorithm>
#include <map>
#include <utility>

#include "topo/topology.h"

namespace rocelab {

// One tap per port, for every fault whose target holds the port.
class FlowTouch::Tap final : public PortTap {
 public:
  Tap(FlowTouch* owner, Port* port, std::vector<size_t> faults)
      : owner_(owner), port_(port), faults_(std::move(faults)) {}
  void Sent(const Packet& pkt, Time) override { owner_->Note(faults_, pkt); }
  void Received(const Packet& pkt, Time) override { owner_->Note(faults_, pkt); }
  void Lost(const Packet& pkt, Time) override { owner_->Note(faults_, pkt); }
  Port* port() const { return port_; }

 private:
  FlowTouch* owner_;
  Port* port_;
  std::vector<size_t> faults_;
};

namespace {

// The (node, port) pairs of fault `i`'s target.
std::vector<std::pair<int, int>> TargetPorts(const Topology& topo, const Scenario& sc, const FaultTarget& t,
                                             const FaultSpec& spec) {
  std::vector<std::pair<int, int>> out;
  switch (t.what) {
    case FaultTarget::What::kLink: {
      const TopoPort& tp = topo.nodes()[t.node].ports[t.port];
      out.push_back({t.node, t.port});
      out.push_back({tp.peer_node, tp.peer_port});
      break;
    }
    case FaultTarget::What::kPort: out.push_back({t.node, t.port}); break;
    case FaultTarget::What::kDevice:
      for (size_t p = 0; p < topo.nodes()[t.node].ports.size(); ++p) out.push_back({t.node, static_cast<int>(p)});
      break;
    case FaultTarget::What::kNone:
      for (const StaticRoute& r : ResolveRoutes(topo, sc.file, spec.routes)) out.push_back({r.node, r.port});
      break;
  }
  return out;
}

}  // namespace

FlowTouch::FlowTouch(Fabric* fabric, const FaultInjector& faults) : fabric_(fabric) {
  const Scenario& sc = fabric->scenario();
  touched_.resize(faults.targets().size());
  std::map<std::pair<int, int>, std::vector<size_t>> by_port;
  for (size_t i = 0; i < faults.targets().size(); ++i)
    for (const auto& np : TargetPorts(fabric->topology(), sc, faults.targets()[i], sc.faults[i])) {
      std::vector<size_t>& list = by_port[np];
      if (list.empty() || list.back() != i) list.push_back(i);
    }
  for (auto& [np, list] : by_port) {
    Port* port = &fabric->device(np.first).port(np.second);
    taps_.push_back(std::make_unique<Tap>(this, port, std::move(list)));
    port->tap = taps_.back().get();
  }
}

FlowTouch::~FlowTouch() {
  for (const auto& t : taps_)
    if (t->port()->tap == t.get()) t->port()->tap = nullptr;
}

void FlowTouch::Note(const std::vector<size_t>& faults, const Packet& pkt) {
  if (pkt.qp == Packet::kNoQp || pkt.type == PacketType::kPause) return;
  for (size_t f : faults) {
    std::vector<uint8_t>& t = touched_[f];
    if (t.size() <= pkt.qp) t.resize(std::max<size_t>(pkt.qp + 1, fabric_->qps().size()), 0);
    t[pkt.qp] = 1;
  }
}

}  // namespace rocelab
