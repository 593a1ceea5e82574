#include "run/recovery.h"

#include "run/experiment.h"
#include "topo/naming.h"

namespace rocelab {

// Whether every host still reaches every other over the links that are up, `node`:`port`'s
// link left out: an automation that isolates a link must not partition the fabric.
bool Recovery::StillConnectedWithout(int node, int port) const {
  Fabric& f = x_->fabric();
  const Topology& topo = f.topology();
  const auto& nodes = topo.nodes();
  const TopoPort& cut = nodes[node].ports[port];
  std::vector<char> seen(nodes.size(), 0);
  std::vector<int> stack{topo.hosts().front()};
  seen[stack.back()] = 1;
  size_t hosts = 1;
  while (!stack.empty()) {
    const int x = stack.back();
    stack.pop_back();
    if (!nodes[x].is_switch && x != topo.hosts().front()) continue;  // hosts do not forward
    for (size_t p = 0; p < nodes[x].ports.size(); ++p) {
      const TopoPort& tp = nodes[x].ports[p];
      if ((x == node && static_cast<int>(p) == port) || (tp.peer_node == node && tp.peer_port == port) ||
          (x == cut.peer_node && static_cast<int>(p) == cut.peer_port))
        continue;
      if (!f.device(x).Carrier(static_cast<int>(p)) || seen[tp.peer_node]) continue;
      seen[tp.peer_node] = 1;
      if (!nodes[tp.peer_node].is_switch) ++hosts;
      stack.push_back(tp.peer_node);
    }
  }
  return hosts == topo.hosts().size();
}

void Recovery::ShutLink(const std::string& location, const std::string& why) {
  Fabric& f = x_->fabric();
  const Topology& topo = f.topology();
  // "leaf0:Ethernet16 facing spine0", or a host "h3 (mlx5_0/eth0)" (its one link).
  const std::string device = LocationDevice(location);
  const int node = topo.FindNode(device);
  if (node < 0) return;
  int port = 0;
  if (topo.nodes()[node].is_switch) {
    const size_t colon = location.find(':'), space = location.find(' ');
    if (colon == std::string::npos) return;
    port = ResolvePort(topo, node, location.substr(0, space));
    if (port < 0) return;
  }
  const int peer = topo.nodes()[node].ports[port].peer_node;
  const std::string link = LinkName(device, topo.nodes()[peer].name);
  // One link, whichever end the finding named.
  const std::string key = device < topo.nodes()[peer].name ? link : LinkName(topo.nodes()[peer].name, device);
  if (!done_.insert(key).second) return;
  if (!StillConnectedWithout(node, port)) {
    f.timeline().Add(f.now(), device, TimelinePortName(topo, node, port), -1, "recovery_skipped",
                     "T3 shut link " + link + " not taken: hosts would be cut off from each other (" + why + ")");
    return;
  }
  actions_.push_back({f.now(), "T3", "shut link " + link + ": " + why, {device, topo.nodes()[peer].name}});
  f.timeline().Add(f.now(), device, TimelinePortName(topo, node, port), -1, "recovery_action",
                   "T3 shut link " + link + " (" + why + "); the fabric routes around it");
  f.SetLinkUp(node, port, false);
}

void Recovery::OnDetection(const Monitor::Detection& d) {
  Fabric& f = x_->fabric();
  const std::string device = LocationDevice(d.location);
  if (d.rule == "network.gray_drop") return ShutLink(d.location, "frames vanish on it");
  if (d.rule == "physical.crc_errors") return ShutLink(d.location, "frames lost to bit errors");
  const int node = f.topology().FindNode(device);
  if (node < 0) return;
  const bool ecn = d.rule == "ecn.off" || d.rule == "ecn.turned_off" || d.rule == "ecn.pfc_without_ecn";
  const bool qos = d.rule == "qos.roce_in_lossy_queue";
  const bool cc = d.rule == "cc.cnp_ignored";
  if (!ecn && !qos && !cc) return;
  if (!done_.insert(d.rule + "@" + device).second) return;
  std::string what;
  if (ecn && f.topology().nodes()[node].is_switch) {
    static_cast<Switch&>(f.device(node)).SetEcnFrom(SwitchSpecFor(f.scenario(), device));
    what = "roll back ECN on " + device + " to its configured profile";
  } else if (qos && f.topology().nodes()[node].is_switch) {
    const SwitchSpec& s = SwitchSpecFor(f.scenario(), device);
    static_cast<Switch&>(f.device(node)).SetQos(s.dscp_to_priority, s.trust_dscp, s.lossless_mask);
    what = "roll back the classification and PFC priorities of " + device;
  } else if (cc && !f.topology().nodes()[node].is_switch) {
    static_cast<Nic&>(f.device(node)).SetReactionPoint(true);
    what = "re-enable the DCQCN reaction point of " + device;
  } else {
    return;
  }
  actions_.push_back({f.now(), "T3", what, {device}});
  f.timeline().Add(f.now(), device, "", -1, "recovery_action", "T3 " + what + " (" + d.rule + ")");
}

std::string Recovery::ActionTier(const std::string& rule) {
  static const char* const kActedOn[] = {"network.gray_drop", "physical.crc_errors", "ecn.off", "ecn.turned_off",
                                         "ecn.pfc_without_ecn", "qos.roce_in_lossy_queue", "cc.cnp_ignored"};
  for (const char* r : kActedOn)
    if (rule == r) return "T3";
  return "";
}

}  // namespace rocelab
