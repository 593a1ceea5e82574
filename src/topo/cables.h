// The cable a link has when the scenario gives it neither a delay nor a length: what SONiC sizes
// PFC headroom for at that place in the fabric (sonic-buildimage
// files/build_templates/buffers_config.j2, `ports2cable`): 5 m from a ToR to its servers, 40 m
// from a ToR to a leaf, 300 m from a leaf to a spine. A spine-leaf fabric's leaves are its ToRs
// and its spines SONiC's leaf tier; a fat tree's edge, aggregation and core are ToR, leaf and
// spine.
#ifndef ROCELAB_TOPO_CABLES_H_
#define ROCELAB_TOPO_CABLES_H_

namespace rocelab {

inline constexpr double kServerCableMeters = 5, kTorCableMeters = 40, kSpineCableMeters = 300;

}  // namespace rocelab

#endif  // ROCELAB_TOPO_CABLES_H_
