#include "fault/fault_injector.h"

#include <cstdio>

#include "net/control_plane.h"
#include "topo/naming.h"
#include "util/units.h"

namespace rocelab {

namespace {

using Kind = FaultSpec::Kind;

FecMode FecFor(const FaultSpec& f, uint64_t rate_bps) {
  FecMode m = rate_bps >= 200000000000ull ? FecMode::kRs544 : FecMode::kRs528;  // PAM4 lanes need KP4
  if (!f.fec.empty()) ParseFecMode(f.fec, &m);
  return m;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// What the fault does, in one line for the timeline.
std::string Describe(const FaultSpec& f, const std::string& fec) {
  switch (f.kind) {
    case Kind::kLinkDown: return "link down (its signal lost)";
    case Kind::kLinkFlap:
      return "link loses its signal " + std::to_string(f.count) + " times, every " + FormatTime(f.period) + ", for " +
             FormatTime(f.duration) + " each";
    case Kind::kLinkErrors: return "pre-FEC BER " + Number(f.pre_fec_ber) + ", FEC " + fec;
    case Kind::kGrayDrop: return "drops " + Number(f.rate) + " of frames silently";
    case Kind::kBlackhole: return "drops silently every packet of " + Number(f.rate) + " of the flows it forwards";
    case Kind::kEcnOff: return "ECN marking off";
    case Kind::kEcnThresholds: {
      std::string s = "ECN thresholds";
      if (f.kmin) s += " kmin " + std::to_string(*f.kmin) + " B";
      if (f.kmax) s += " kmax " + std::to_string(*f.kmax) + " B";
      if (f.pmax) s += " pmax " + Number(*f.pmax);
      return s;
    }
    case Kind::kCcDisabled: return "DCQCN reaction point off: CNPs ignored";
    case Kind::kQosDrift: {
      std::string s = "QoS drift:";
      for (int d = 0; d < 64; ++d)
        if (f.dscp_changes[d] >= 0) s += " DSCP " + std::to_string(d) + " -> priority " + std::to_string(f.dscp_changes[d]);
      if (f.trust_dscp) s += std::string(" trust ") + (*f.trust_dscp ? "dscp" : "pcp");
      auto queues = [&](const char* what, uint8_t mask) {
        s += what;
        for (int p = 0; p < 8; ++p)
          if (mask & (1u << p)) s += " " + std::to_string(p);
        if (!mask) s += " none";
      };
      if (f.lossless_mask) queues(" PFC on", *f.lossless_mask);
      if (f.ecn_mask) queues(" ECN on", *f.ecn_mask);
      return s;
    }
    case Kind::kMtu: return "MTU " + std::to_string(f.mtu);
    case Kind::kHeadroom:
      return f.headroom ? "headroom " + std::to_string(*f.headroom) + " B"
                        : "headroom for a " + Number(CableMeters(*f.cable_delay)) + " m cable";
    case Kind::kRouteChange: return std::to_string(f.routes.size()) + " static routes installed";
    case Kind::kPfcStorm: return "receive pipeline stuck: nothing drains, the NIC pauses without end";
    case Kind::kSlowReceiver: return "receive pipeline drains " + FormatRate(f.drain_rate) + "b/s";
  }
  return "";
}

}  // namespace

FaultInjector::FaultInjector(Fabric* fabric)
    : fabric_(fabric),
      specs_(fabric->scenario().faults),
      targets_(ResolveFaultTargets(fabric->topology(), fabric->scenario())),
      saved_(specs_.size()),
      flaps_left_(specs_.size(), 0),
      records_(specs_.size()) {
  for (size_t i = 0; i < specs_.size(); ++i) {
    records_[i].kind = specs_[i].kind_name;
    records_[i].target = targets_[i].name;
    fabric_->ScheduleAt(specs_[i].at, this, kInject, static_cast<uint32_t>(i));
  }
}

std::vector<std::pair<int, int>> FaultInjector::Ports(const FaultTarget& t) const {
  const Topology& topo = fabric_->topology();
  std::vector<std::pair<int, int>> out;
  switch (t.what) {
    case FaultTarget::What::kPort: out.push_back({t.node, t.port}); break;
    case FaultTarget::What::kLink: {
      const TopoPort& tp = topo.nodes()[t.node].ports[t.port];
      out.push_back({t.node, t.port});
      out.push_back({tp.peer_node, tp.peer_port});
      break;
    }
    case FaultTarget::What::kDevice:
      for (size_t p = 0; p < topo.nodes()[t.node].ports.size(); ++p) out.push_back({t.node, static_cast<int>(p)});
      break;
    case FaultTarget::What::kNone: break;
  }
  return out;
}

void FaultInjector::Log(size_t i, const char* event, const std::string& detail) {
  const FaultTarget& t = targets_[i];
  const Topology& topo = fabric_->topology();
  std::string device = "fabric", port;
  if (t.node >= 0) device = topo.nodes()[t.node].name;
  if (t.what == FaultTarget::What::kPort) port = TimelinePortName(topo, t.node, t.port);
  fabric_->timeline().Add(fabric_->now(), device, port, -1, event,
                          specs_[i].kind_name + (t.name.empty() ? "" : " on " + t.name) + ": " + detail);
}

void FaultInjector::HandleEvent(uint32_t kind, uint32_t arg, Packet*) {
  const size_t i = arg;
  const FaultSpec& f = specs_[i];
  const FaultTarget& t = targets_[i];
  switch (kind) {
    case kInject:
      if (f.kind == Kind::kLinkFlap) {
        if (records_[i].injected < 0) {
          flaps_left_[i] = f.count;
          records_[i].injected = fabric_->now();
          Log(i, "fault_injected", Describe(f, ""));
        }
        --flaps_left_[i];
        fabric_->LoseSignal(t.node, t.port);
        fabric_->ScheduleAt(fabric_->now() + f.duration, this, kFlapUp, arg);
        return;
      }
      Inject(i);
      if (f.duration > 0) fabric_->ScheduleAt(f.at + f.duration, this, kClear, arg);
      return;
    case kFlapUp:
      fabric_->RestoreSignal(t.node, t.port);
      if (flaps_left_[i] > 0) {
        fabric_->ScheduleAt(f.at + f.period * (f.count - flaps_left_[i]), this, kInject, arg);
      } else {
        records_[i].cleared = fabric_->now();
        Log(i, "fault_cleared", "the last flap is over");
      }
      return;
    case kClear:
      Clear(i);
      return;
    default:
      return;
  }
}

void FaultInjector::Inject(size_t i) {
  const FaultSpec& f = specs_[i];
  const FaultTarget& t = targets_[i];
  records_[i].injected = fabric_->now();
  // Logged first: what the fault then sets off (carriers, prunes) follows it on the timeline.
  Log(i, "fault_injected",
      Describe(f, f.kind == Kind::kLinkErrors ? FecModeName(FecFor(f, fabric_->device(t.node).port(t.port).rate_bps)) : ""));
  switch (f.kind) {
    case Kind::kLinkDown: fabric_->LoseSignal(t.node, t.port); break;
    case Kind::kLinkErrors:
      for (const auto& [n, p] : Ports(t)) {
        const uint64_t rate = fabric_->device(n).port(p).rate_bps;
        fabric_->device(n).SetLinkErrors(p, f.pre_fec_ber, FecFor(f, rate));
        if (f.link_fault)
          fabric_->SetPcsFailure(n, p, PcsFailureFor(f.pre_fec_ber, FecFor(f, rate), rate, f.fec_bypass_indication));
      }
      break;
    case Kind::kGrayDrop:
      // A link drops in both directions; a switch port drops what it sends.
      for (const auto& [n, p] : Ports(t)) fabric_->device(n).Faults(p).gray_drop = f.rate;
      break;
    case Kind::kBlackhole:
      // A corrupted forwarding entry: each switch drops what it would send into the link or port.
      for (const auto& [n, p] : Ports(t)) fabric_->device(n).Faults(p).blackhole = f.rate;
      break;
    case Kind::kEcnOff:
    case Kind::kEcnThresholds: SetEcn(i, true); break;
    case Kind::kCcDisabled: static_cast<Nic&>(fabric_->device(t.node)).SetReactionPoint(false); break;
    case Kind::kQosDrift: SetQos(i, true); break;
    case Kind::kMtu: SetMtu(i, true); break;
    case Kind::kHeadroom: SetHeadroom(i, true); break;
    case Kind::kRouteChange: SetRoutes(i, true); break;
    case Kind::kPfcStorm: static_cast<Nic&>(fabric_->device(t.node)).SetRxStalled(true); break;
    case Kind::kSlowReceiver: {
      Nic& nic = static_cast<Nic&>(fabric_->device(t.node));
      saved_[i].drain_rate = nic.spec().rx_drain_rate;
      nic.SetDrainRate(f.drain_rate);
      break;
    }
    case Kind::kLinkFlap: break;
  }
}

void FaultInjector::Clear(size_t i) {
  const FaultSpec& f = specs_[i];
  const FaultTarget& t = targets_[i];
  switch (f.kind) {
    case Kind::kLinkDown: break;  // after the log line below: it sets off the carrier and routes
    case Kind::kLinkErrors:
      for (const auto& [n, p] : Ports(t)) {
        fabric_->device(n).SetLinkErrors(p, 0, FecFor(f, fabric_->device(n).port(p).rate_bps));
        if (f.link_fault) fabric_->SetPcsFailure(n, p, PcsFailure{});
      }
      break;
    case Kind::kGrayDrop:
      for (const auto& [n, p] : Ports(t)) fabric_->device(n).Faults(p).gray_drop = 0;
      break;
    case Kind::kBlackhole:
      for (const auto& [n, p] : Ports(t)) fabric_->device(n).Faults(p).blackhole = 0;
      break;
    case Kind::kEcnOff:
    case Kind::kEcnThresholds: SetEcn(i, false); break;
    case Kind::kCcDisabled: static_cast<Nic&>(fabric_->device(t.node)).SetReactionPoint(true); break;
    case Kind::kQosDrift: SetQos(i, false); break;
    case Kind::kMtu: SetMtu(i, false); break;
    case Kind::kHeadroom: SetHeadroom(i, false); break;
    case Kind::kRouteChange: SetRoutes(i, false); break;
    case Kind::kPfcStorm: static_cast<Nic&>(fabric_->device(t.node)).SetRxStalled(false); break;
    case Kind::kSlowReceiver: static_cast<Nic&>(fabric_->device(t.node)).SetDrainRate(saved_[i].drain_rate); break;
    case Kind::kLinkFlap: break;
  }
  records_[i].cleared = fabric_->now();
  Log(i, "fault_cleared", "back as configured");
  if (f.kind == Kind::kLinkDown) fabric_->RestoreSignal(t.node, t.port);
}

void FaultInjector::SetEcn(size_t i, bool apply) {
  const FaultSpec& f = specs_[i];
  const FaultTarget& t = targets_[i];
  Switch& sw = static_cast<Switch&>(fabric_->device(t.node));
  Saved& s = saved_[i];
  const auto ports = Ports(t);
  const bool switch_wide = t.what == FaultTarget::What::kDevice;
  auto change = [&](EcnSpec e) {
    if (f.kind == Kind::kEcnOff) e.enabled = false;
    if (f.kmin) e.kmin = *f.kmin;
    if (f.kmax) e.kmax = *f.kmax;
    if (f.pmax) e.pmax = *f.pmax;
    if (e.kmax < e.kmin) e.kmax = e.kmin;
    return e;
  };
  if (apply) {
    s.port_ecn.clear();
    for (const auto& np : ports) {
      s.port_ecn.push_back(sw.port_ecn(np.second));
      sw.SetPortEcn(np.second, change(sw.port_ecn(np.second)));
    }
    s.configured_ecn = sw.spec().ecn;
    if (switch_wide) sw.SetConfiguredEcn(change(sw.spec().ecn));
  } else {
    for (size_t k = 0; k < ports.size(); ++k) sw.SetPortEcn(ports[k].second, s.port_ecn[k]);
    sw.SetConfiguredEcn(s.configured_ecn);
  }
}

void FaultInjector::SetQos(size_t i, bool apply) {
  const FaultSpec& f = specs_[i];
  Switch& sw = static_cast<Switch&>(fabric_->device(targets_[i].node));
  Saved& s = saved_[i];
  if (!apply) {
    sw.SetQos(s.dscp_to_priority, s.trust_dscp, s.lossless_mask, s.ecn_mask);
    return;
  }
  s.dscp_to_priority = sw.spec().dscp_to_priority;
  s.trust_dscp = sw.spec().trust_dscp;
  s.lossless_mask = sw.spec().lossless_mask;
  s.ecn_mask = sw.spec().ecn_mask;
  std::array<uint8_t, 64> map = s.dscp_to_priority;
  for (int d = 0; d < 64; ++d)
    if (f.dscp_changes[d] >= 0) map[d] = static_cast<uint8_t>(f.dscp_changes[d]);
  sw.SetQos(map, f.trust_dscp.value_or(s.trust_dscp), f.lossless_mask.value_or(s.lossless_mask),
            f.ecn_mask.value_or(s.ecn_mask));
}

void FaultInjector::SetMtu(size_t i, bool apply) {
  const FaultTarget& t = targets_[i];
  for (const auto& [n, p] : Ports(t)) fabric_->device(n).Faults(p).mtu = apply ? specs_[i].mtu : 0;
  if (t.what == FaultTarget::What::kDevice && fabric_->topology().nodes()[t.node].is_switch) {
    Switch& sw = static_cast<Switch&>(fabric_->device(t.node));
    if (apply) saved_[i].mtu = sw.spec().mtu;
    sw.SetConfiguredMtu(apply ? specs_[i].mtu : saved_[i].mtu);
  }
}

void FaultInjector::SetHeadroom(size_t i, bool apply) {
  const FaultSpec& f = specs_[i];
  const FaultTarget& t = targets_[i];
  Switch& sw = static_cast<Switch&>(fabric_->device(t.node));
  Saved& s = saved_[i];
  const auto ports = Ports(t);
  if (apply) {
    s.headroom.clear();
    s.profile_cable.clear();
  }
  for (size_t k = 0; k < ports.size(); ++k) {
    const int p = ports[k].second;
    if (apply) {
      s.headroom.push_back(sw.headroom(p));
      s.profile_cable.push_back(sw.profile_cable(p));
      // A cable length: the profile sized for it, as the switch's CABLE_LENGTH now says.
      if (f.cable_delay) sw.SetProfileCable(p, *f.cable_delay);
      sw.SetHeadroom(p, f.headroom ? *f.headroom : fabric_->AutoHeadroom(t.node, p, *f.cable_delay));
    } else {
      sw.SetHeadroom(p, s.headroom[k]);
      sw.SetProfileCable(p, s.profile_cable[k]);
    }
  }
}

void FaultInjector::SetRoutes(size_t i, bool apply) {
  Topology& topo = fabric_->mutable_topology();
  RouteConvergence& conv = fabric_->control_plane().convergence();
  const std::vector<StaticRoute> routes = ResolveRoutes(topo, fabric_->scenario().file, specs_[i].routes);
  Saved& s = saved_[i];
  if (apply) {
    s.routes.clear();
    for (const StaticRoute& r : routes) {
      const std::vector<uint16_t>* before = topo.Exception(r.node, r.host);
      s.routes.push_back(before ? std::optional<std::vector<uint16_t>>(*before) : std::nullopt);
      topo.OverrideRoute(r.node, r.host, r.port);
      conv.MarkStatic(r.node, r.host);
    }
    return;
  }
  // Put back in reverse, so a route given twice ends as it was before the first.
  for (size_t k = routes.size(); k-- > 0;) {
    const StaticRoute& r = routes[k];
    if (s.routes[k]) {
      topo.SetRoute(r.node, r.host, *s.routes[k]);
    } else {
      topo.ClearRoute(r.node, r.host);
      conv.UnmarkStatic(r.node, r.host);
    }
  }
}

}  // namespace rocelab
