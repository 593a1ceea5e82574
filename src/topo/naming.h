// Names of the elements of a fabric, spelled one way everywhere: in scenarios,
// counters, lint findings, diagnoses and (with faults) the timeline.
//
//   device    leaf0, spine1, h5       a letter, then letters, digits, '_' or '.'
//                                     (no '-', ':' or '/': they join the names below)
//   link      leaf0-spine1            its two devices, in either order
//   port      leaf0:h5                device ':' the device at the other end of the link,
//             leaf0:Ethernet8         or ':' the port's SONiC name (Ethernet<4 x index>)
//   priority  leaf0:h5/3              port '/' priority 0..7
//
// Two links between the same two devices are refused, so a link and a port
// name one thing. A bare port number is refused too: "8" could be index 8
// (Ethernet32) or Ethernet8 (index 2).
#ifndef ROCELAB_TOPO_NAMING_H_
#define ROCELAB_TOPO_NAMING_H_

#include <string>

namespace rocelab {

// Empty when `name` is a valid device name, else why not.
std::string DeviceNameProblem(const std::string& name);

inline std::string LinkName(const std::string& a, const std::string& b) { return a + "-" + b; }
inline std::string PortName(const std::string& device, const std::string& peer_or_alias) {
  return device + ":" + peer_or_alias;
}
inline std::string PriorityName(const std::string& port, int priority) { return port + "/" + std::to_string(priority); }

}  // namespace rocelab

#endif  // ROCELAB_TOPO_NAMING_H_
