#include "net/link_phy.h"

#include <algorithm>

#include "net/control_plane.h"
#include "net/fabric.h"
#include "topo/naming.h"
#include "util/units.h"

namespace rocelab {

LinkPhy::Link& LinkPhy::At(int node, int port) {
  const Topology& topo = fabric_->topology();
  const TopoPort& tp = topo.nodes()[node].ports[port];
  if (tp.peer_node < node) node = tp.peer_node, port = tp.peer_port;
  auto [it, fresh] = links_.try_emplace({node, port});
  Link& l = it->second;
  if (fresh) {
    l.node = node;
    l.port = port;
    const Scenario& sc = fabric_->scenario();
    for (int n : {node, tp.peer_node}) {
      if (!topo.nodes()[n].is_switch) continue;
      const SwitchSpec& spec = SwitchSpecFor(sc, topo.nodes()[n].name);
      l.debounce = std::max(l.debounce, ScaledTimer(spec.link_debounce, sc.timer_scale));
      l.up_time = std::max(l.up_time, ScaledTimer(spec.link_up_time, sc.timer_scale));
    }
  }
  return l;
}

void LinkPhy::SetSignal(const Link& l, bool present) {
  const TopoPort& tp = fabric_->topology().nodes()[l.node].ports[l.port];
  fabric_->device(l.node).SetSignal(l.port, present);
  fabric_->device(tp.peer_node).SetSignal(tp.peer_port, present);
}

void LinkPhy::Start(Link& l, Time in, uint32_t kind) {
  timers_.push_back({&l, l.epoch});
  fabric_->ScheduleAt(fabric_->now() + in, this, kind, static_cast<uint32_t>(timers_.size() - 1));
}

void LinkPhy::LoseSignal(int node, int port) {
  Link& l = At(node, port);
  if (l.lost_at >= 0) return;
  l.lost_at = fabric_->now();
  ++l.epoch;
  SetSignal(l, false);
  if (l.debounce == 0) fabric_->SetLinkUp(l.node, l.port, false);
  else if (fabric_->device(l.node).Carrier(l.port)) Start(l, l.debounce, kDebounceOver);
}

void LinkPhy::RestoreSignal(int node, int port) {
  Link& l = At(node, port);
  if (l.lost_at < 0) return;
  const Time lost = fabric_->now() - l.lost_at;
  l.lost_at = -1;
  ++l.epoch;
  SetSignal(l, true);
  if (fabric_->device(l.node).Carrier(l.port)) {
    // Back within the debounce: the ports never said it went.
    const Topology& topo = fabric_->topology();
    const int peer = topo.nodes()[l.node].ports[l.port].peer_node;
    fabric_->timeline().Add(fabric_->now(), topo.nodes()[l.node].name, TimelinePortName(topo, l.node, l.port), -1,
                            "signal_blip",
                            LinkName(topo.nodes()[l.node].name, topo.nodes()[peer].name) + " lost its signal for " +
                                FormatTime(lost) + ", within its " + FormatTime(l.debounce) +
                                " debounce: not reported, what crossed it meanwhile lost");
    return;
  }
  if (l.up_time == 0) fabric_->SetLinkUp(l.node, l.port, true);
  else Start(l, l.up_time, kTrained);
}

void LinkPhy::HandleEvent(uint32_t kind, uint32_t arg, Packet*) {
  const Timer t = timers_[arg];
  if (t.epoch != t.link->epoch) return;  // the signal came back, or went again, since
  // The debounce ran out with the signal still gone: the ports report it. Or the link trained.
  fabric_->SetLinkUp(t.link->node, t.link->port, kind == kTrained);
}

}  // namespace rocelab
