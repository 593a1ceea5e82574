#include "net/control_plane.h"

#include <algorithm>

#include "topo/naming.h"

namespace rocelab {

std::string TimelinePortName(const Topology& topo, int node, int port) {
  return topo.nodes()[node].is_switch ? SwitchPortAlias(port) : "eth0";
}

ControlPlane::ControlPlane(SimContext* ctx, Topology* topo, std::vector<Time> detection,
                           std::vector<Time> convergence)
    : ctx_(ctx), topo_(topo), detection_(std::move(detection)), convergence_(topo) {
  for (int s : topo_->switches()) {
    const Time d = convergence[s];
    auto it = std::find(group_delay_.begin(), group_delay_.end(), d);
    if (it == group_delay_.end()) {
      group_delay_.push_back(d);
      group_switches_.emplace_back();
      it = group_delay_.end() - 1;
    }
    group_switches_[it - group_delay_.begin()].push_back(s);
  }
  group_due_.assign(group_delay_.size(), -1);
}

void ControlPlane::LinkChanged(int node, int port, bool up) {
  const TopoPort& tp = topo_->nodes()[node].ports[port];
  for (const auto& [n, p] : {std::pair{node, port}, std::pair{tp.peer_node, tp.peer_port}}) {
    if (!topo_->nodes()[n].is_switch) continue;
    detections_.push_back({n, p, up});
    ctx_->sim.ScheduleIn(detection_[n], this, kDetect, static_cast<uint32_t>(detections_.size() - 1));
  }
  for (size_t g = 0; g < group_delay_.size(); ++g) {
    const Time due = ctx_->sim.Now() + group_delay_[g];
    if (group_due_[g] == due) continue;  // one recomputation will see both changes
    group_due_[g] = due;
    ctx_->sim.ScheduleIn(group_delay_[g], this, kConverge, static_cast<uint32_t>(g));
  }
}

void ControlPlane::HandleEvent(uint32_t kind, uint32_t arg, Packet*) {
  const Time now = ctx_->sim.Now();
  if (kind == kDetect) {
    const Detection& d = detections_[arg];
    // A port already pruned (a shut on a link that had gone down) changes nothing: no event.
    if (topo_->PortUp(d.node, d.port) == d.up) return;
    topo_->SetPortUp(d.node, d.port, d.up);
    const TopoNode& n = topo_->nodes()[d.node];
    const std::string link = LinkName(n.name, topo_->nodes()[n.ports[d.port].peer_node].name);
    ctx_->timeline.Add(now, n.name, SwitchPortAlias(d.port), -1, d.up ? "ecmp_restored" : "ecmp_pruned",
                       link + (d.up ? " rejoins" : " leaves") + " this switch's ECMP groups");
    return;
  }
  if (group_due_[arg] == now) group_due_[arg] = -1;
  const std::vector<int>& switches = group_switches_[arg];
  const int changed = convergence_.Converge(switches);
  ctx_->timeline.Add(now, "fabric", "", -1, "routes_converged",
                     std::to_string(changed) + " of " + std::to_string(switches.size()) +
                         " switches changed next hops");
}

}  // namespace rocelab
