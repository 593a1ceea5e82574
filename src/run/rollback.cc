#include "run/rollback.h"

#include <set>
#include <string>
#include <vector>

#include "net/nic.h"
#include "net/switch.h"
#include "net/control_plane.h"
#include "topo/convergence.h"
#include "topo/topology.h"

namespace rocelab {

bool SameEcn(const EcnSpec& a, const EcnSpec& b) {
  return a.enabled == b.enabled && a.kmin == b.kmin && a.kmax == b.kmax && a.pmax == b.pmax &&
         a.mark_on_dequeue == b.mark_on_dequeue;
}

namespace {

std::string EcnText(const EcnSpec& e) {
  if (!e.enabled) return "ECN off";
  return "Kmin " + std::to_string(e.kmin) + " B, Kmax " + std::to_string(e.kmax) + " B, Pmax " +
         std::to_string(static_cast<int>(e.pmax * 100 + 0.5)) + " %";
}

}  // namespace

std::string EcnDrift(const Fabric& f, int node) {
  const Switch& sw = static_cast<const Switch&>(f.device(node));
  const SwitchSpec& s = SwitchSpecFor(f.scenario(), sw.name());
  for (int p = 0; p < sw.num_ports(); ++p) {
    EcnSpec configured = s.ecn;
    for (const EcnSpec& e : s.ecn_by_rate)
      if (e.rate_bps == sw.port(p).rate_bps) configured = e;
    if (!SameEcn(sw.port_ecn(p), configured))
      return SwitchPortAlias(p) + ": " + EcnText(sw.port_ecn(p)) + ", configured " + EcnText(configured);
  }
  return "";
}

std::string QosDrift(const Fabric& f, int node) {
  const Switch& sw = static_cast<const Switch&>(f.device(node));
  const SwitchSpec& s = SwitchSpecFor(f.scenario(), sw.name());
  for (int d = 0; d < 64; ++d)
    if (sw.spec().dscp_to_priority[d] != s.dscp_to_priority[d])
      return "DSCP " + std::to_string(d) + " to priority " + std::to_string(sw.spec().dscp_to_priority[d]) +
             ", configured " + std::to_string(s.dscp_to_priority[d]);
  if (sw.spec().trust_dscp != s.trust_dscp) return std::string("trust ") + (sw.spec().trust_dscp ? "dscp" : "pcp");
  if (sw.spec().lossless_mask != s.lossless_mask || sw.spec().ecn_mask != s.ecn_mask) return "PFC or ECN priorities changed";
  return "";
}

std::vector<int> StrayStaticRoutes(Fabric& f, int node) {
  std::set<int> configured;
  for (const StaticRoute& r : ResolveRoutes(f.topology(), f.scenario()))
    if (r.node == node) configured.insert(r.host);
  const RouteConvergence& conv = f.control_plane().convergence();
  std::vector<int> out;
  for (int h = 0; h < static_cast<int>(f.topology().hosts().size()); ++h)
    if (conv.IsStatic(node, h) && !configured.count(h)) out.push_back(h);
  return out;
}

bool RollBackStaticRoutes(Fabric& f, int node) {
  const std::vector<int> stray = StrayStaticRoutes(f, node);
  for (int h : stray) {
    f.mutable_topology().ClearRoute(node, h);
    f.control_plane().convergence().UnmarkStatic(node, h);
  }
  return !stray.empty();
}

bool RollBackEcn(Fabric& f, int node) {
  Switch& sw = static_cast<Switch&>(f.device(node));
  std::vector<EcnSpec> before;
  for (int p = 0; p < sw.num_ports(); ++p) before.push_back(sw.port_ecn(p));
  const EcnSpec configured = sw.spec().ecn;
  sw.SetEcnFrom(SwitchSpecFor(f.scenario(), sw.name()));
  bool changed = !SameEcn(configured, sw.spec().ecn);
  for (int p = 0; p < sw.num_ports(); ++p) changed = changed || !SameEcn(before[p], sw.port_ecn(p));
  return changed;
}

bool RollBackQos(Fabric& f, int node) {
  Switch& sw = static_cast<Switch&>(f.device(node));
  const SwitchSpec& s = SwitchSpecFor(f.scenario(), sw.name());
  if (sw.spec().dscp_to_priority == s.dscp_to_priority && sw.spec().trust_dscp == s.trust_dscp &&
      sw.spec().lossless_mask == s.lossless_mask && sw.spec().ecn_mask == s.ecn_mask)
    return false;
  sw.SetQos(s.dscp_to_priority, s.trust_dscp, s.lossless_mask, s.ecn_mask);
  return true;
}

// A lowered MTU acts in each port's fault state; the configured one is what the scenario says.
bool RollBackMtu(Fabric& f, int node) {
  Node& dev = f.device(node);
  bool changed = false;
  for (int p = 0; p < dev.num_ports(); ++p) {
    if (!dev.port(p).faults || dev.port(p).faults->mtu == 0) continue;
    dev.port(p).faults->mtu = 0;
    changed = true;
  }
  if (f.topology().nodes()[node].is_switch) {
    Switch& sw = static_cast<Switch&>(dev);
    const uint32_t mtu = SwitchSpecFor(f.scenario(), sw.name()).mtu;
    changed = changed || sw.spec().mtu != mtu;
    sw.SetConfiguredMtu(mtu);
  }
  return changed;
}

bool RollBackHeadroom(Fabric& f, int node) {
  Switch& sw = static_cast<Switch&>(f.device(node));
  bool changed = false;
  for (int p = 0; p < sw.num_ports(); ++p) {
    const uint64_t configured = f.ConfiguredHeadroom(node, p);
    if (sw.headroom(p) == configured && sw.profile_cable(p) == sw.port(p).delay) continue;
    sw.SetHeadroom(p, configured);
    sw.SetProfileCable(p, -1);
    changed = true;
  }
  return changed;
}

}  // namespace rocelab
