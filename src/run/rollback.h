// Putting a switch's drifted configuration back to what the scenario configures
// for it, as `config reload` would: its ECN/WRED profile, its classification and
// PFC priorities, its MTU, its headroom. The monitor's recovery rolls back one
// of them when a rule names it; an operator's `config qos reload` in a lab rolls
// back several. Each returns whether anything changed.
#ifndef ROCELAB_RUN_ROLLBACK_H_
#define ROCELAB_RUN_ROLLBACK_H_

#include <string>
#include <vector>

#include "net/fabric.h"

namespace rocelab {

bool SameEcn(const EcnSpec& a, const EcnSpec& b);

// `node` is a switch's topology node (RollBackMtu: a host's too: its ports' lowered MTU).
bool RollBackEcn(Fabric& f, int node);
bool RollBackQos(Fabric& f, int node);
bool RollBackMtu(Fabric& f, int node);
bool RollBackHeadroom(Fabric& f, int node);

// Switch `node`'s static routes that no configuration (the scenario's `routes`) asks for: their
// destination hosts. A route change leaves them; the routing loop of a deadlock is made of them.
std::vector<int> StrayStaticRoutes(Fabric& f, int node);
// Removes them: the switch routes to those hosts as the fabric computes again.
bool RollBackStaticRoutes(Fabric& f, int node);

// How switch `node` differs from its configuration ("" when it does not): a port's ECN profile
// ("Ethernet0: ECN off, configured on"), or its DSCP map, trust and PFC priorities.
std::string EcnDrift(const Fabric& f, int node);
std::string QosDrift(const Fabric& f, int node);

}  // namespace rocelab

#endif  // ROCELAB_RUN_ROLLBACK_H_
