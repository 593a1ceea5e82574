// Where a fault acts, resolved on the topology from the name the scenario
// gives (topo/naming.h): a link (leaf0-spine1, either order), a device
// (leaf0, h3) or a port (leaf0:h5, leaf0:Ethernet8; a host's one port by
// h3:leaf0). Each kind takes only the targets it can act on; anything else is
// a ConfigError naming the file, line and key, found before anything runs
// (lint resolves them too).
#ifndef ROCELAB_FAULT_FAULT_TARGET_H_
#define ROCELAB_FAULT_FAULT_TARGET_H_

#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "topo/topology.h"

namespace rocelab {

struct FaultTarget {
  enum class What { kNone, kLink, kDevice, kPort } what = What::kNone;
  int node = -1;  // the device, or one end of the link
  int port = -1;  // the port, or that end's port of the link (-1 for a device)
  std::string name;  // as the timeline and summary.json write it
};

FaultTarget ResolveFaultTarget(const Topology& topo, const Scenario& sc, const FaultSpec& f);

// Every fault's target, in scenario order; route_change's static routes are checked too.
std::vector<FaultTarget> ResolveFaultTargets(const Topology& topo, const Scenario& sc);

}  // namespace rocelab

#endif  // ROCELAB_FAULT_FAULT_TARGET_H_
