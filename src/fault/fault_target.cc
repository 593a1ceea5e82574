#include "fault/fault_target.h"

#include "topo/naming.h"
#include "util/config_error.h"

namespace rocelab {

namespace {

using Kind = FaultSpec::Kind;

// What each kind acts on, in words for the error message.
struct Accepts {
  bool link, switch_device, host, switch_port, host_port;
  const char* words;
};

Accepts AcceptsOf(Kind k) {
  switch (k) {
    case Kind::kLinkDown:
    case Kind::kLinkFlap:
    case Kind::kLinkErrors: return {true, false, false, false, false, "a link such as leaf0-spine1"};
    case Kind::kGrayDrop:
    case Kind::kBlackhole: return {true, false, false, true, false, "a link (leaf0-spine1) or a switch port (leaf0:h5)"};
    case Kind::kEcnOff:
    case Kind::kEcnThresholds: return {false, true, false, true, false, "a switch (leaf0) or a switch port (leaf0:h5)"};
    case Kind::kCcDisabled: return {false, false, true, false, false, "a host (h3)"};
    case Kind::kQosDrift: return {false, true, false, false, false, "a switch (leaf0)"};
    case Kind::kMtu:
      return {false, true, true, true, true, "a switch (leaf0), a host (h3) or a port (leaf0:h5, h3:leaf0)"};
    case Kind::kHeadroom: return {false, true, false, true, false, "a switch (leaf0) or a switch port (leaf0:spine0)"};
    case Kind::kPfcStorm:
    case Kind::kSlowReceiver: return {false, false, true, false, false, "a host (h3)"};
    case Kind::kRouteChange: return {false, false, false, false, false, ""};
  }
  return {};
}

}  // namespace

FaultTarget ResolveFaultTarget(const Topology& topo, const Scenario& sc, const FaultSpec& f) {
  FaultTarget t;
  if (f.kind == Kind::kRouteChange) return t;
  const NameRef& ref = f.target;
  const Accepts ok = AcceptsOf(f.kind);
  auto fail = [&](const std::string& why) {
    throw ConfigError(sc.file, ref.line, ref.column, ref.key,
                      f.kind_name + " takes " + ok.words + ": " + why);
  };
  const std::string& name = ref.name;
  const size_t colon = name.find(':'), dash = name.find('-');
  if (colon != std::string::npos) {
    const int node = topo.FindNode(name.substr(0, colon));
    if (node < 0) fail("no device named '" + name.substr(0, colon) + "'");
    const int port = ResolvePort(topo, node, name);
    if (port < 0) fail("'" + name.substr(0, colon) + "' has no port '" + name.substr(colon + 1) + "'");
    const bool is_switch = topo.nodes()[node].is_switch;
    if (is_switch ? !ok.switch_port : !ok.host_port) fail("'" + name + "' is a " + (is_switch ? "switch" : "host") + " port");
    t.what = FaultTarget::What::kPort;
    t.node = node;
    t.port = port;
  } else if (dash != std::string::npos) {
    const int a = topo.FindNode(name.substr(0, dash)), b = topo.FindNode(name.substr(dash + 1));
    if (a < 0 || b < 0) fail("no device named '" + (a < 0 ? name.substr(0, dash) : name.substr(dash + 1)) + "'");
    int port = -1;
    for (size_t p = 0; p < topo.nodes()[a].ports.size(); ++p)
      if (topo.nodes()[a].ports[p].peer_node == b) port = static_cast<int>(p);
    if (port < 0) fail("no link joins '" + topo.nodes()[a].name + "' and '" + topo.nodes()[b].name + "'");
    if (!ok.link) fail("'" + name + "' is a link");
    t.what = FaultTarget::What::kLink;
    t.node = a;
    t.port = port;
  } else {
    const int node = topo.FindNode(name);
    if (node < 0) fail("no device named '" + name + "'");
    const bool is_switch = topo.nodes()[node].is_switch;
    if (is_switch ? !ok.switch_device : !ok.host) fail("'" + name + "' is a " + (is_switch ? "switch" : "host"));
    t.what = FaultTarget::What::kDevice;
    t.node = node;
  }
  t.name = name;
  return t;
}

std::vector<FaultTarget> ResolveFaultTargets(const Topology& topo, const Scenario& sc) {
  std::vector<FaultTarget> out;
  for (const FaultSpec& f : sc.faults) {
    out.push_back(ResolveFaultTarget(topo, sc, f));
    if (f.kind == Kind::kRouteChange) ResolveRoutes(topo, sc.file, f.routes);
  }
  return out;
}

}  // namespace rocelab
