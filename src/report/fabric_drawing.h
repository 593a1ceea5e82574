// The fabric drawn as inline SVG, with the congestion tree on it: which links
// carried pause frames and which way, which ports were held paused, where a
// fault was put and where the monitor placed it.
//
// Devices sit in tiers by their distance from the hosts (hosts at the bottom;
// leaf or edge switches above them; then spine, or aggregation and core), so a
// spine-leaf, a fat-tree and an explicit fabric all read bottom-up. Hosts are
// ordered under the switch they hang from. A pause arrow points the way the
// PAUSE frames travelled: from the device that sent them to the one whose
// transmitter they stopped; a red dot marks the stopped port.
#ifndef ROCELAB_REPORT_FABRIC_DRAWING_H_
#define ROCELAB_REPORT_FABRIC_DRAWING_H_

#include <cstdint>
#include <string>
#include <vector>

namespace rocelab {

struct DrawnDevice {
  std::string name;
  bool is_switch = false;
};

// One end of a link and the PFC it took part in.
struct DrawnLinkEnd {
  std::string device;
  std::string port;              // "Ethernet8", "eth0"
  uint64_t pause_sent = 0;       // PAUSE frames this end sent to the other
  double paused_ns = 0;          // time this end's transmitter was held paused by the other
  std::string pause_priorities;  // "3" or "3, 4": the priorities paused
};

struct DrawnLink {
  DrawnLinkEnd a, b;
};

struct FabricDrawing {
  std::vector<DrawnDevice> devices;  // in the summary's order
  std::vector<DrawnLink> links;      // between devices listed above
  // Places to mark, as the scenario and the monitor name them: a device (h0), a link
  // (leaf0-spine1) or a port (leaf0:h5, leaf0:Ethernet8, leaf0:Ethernet0:3).
  std::vector<std::string> fault_targets;
  std::vector<std::string> localized;
};

// The largest fabric drawn; a larger one would be a picture of nothing legible.
constexpr size_t kMaxDrawnDevices = 2048;

// The figure (an <svg class="topology">) and its legend. Devices over kMaxDrawnDevices: a
// sentence saying the fabric is too large to draw.
std::string SvgFabric(const FabricDrawing& fabric);

}  // namespace rocelab

#endif  // ROCELAB_REPORT_FABRIC_DRAWING_H_
