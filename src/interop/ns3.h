// Interop with the ns-3 RDMA simulator of the HPCC code base: read its three
// inputs (config.txt, the topology file and the flow file) into a scenario
// run under a compatibility profile, and write its FCT output format.
//
// Profile (docs/ns3-interop.md): payload of PACKET_PAYLOAD_SIZE bytes per
// packet with 48 B of headers and no preamble/IFG, as that simulator counts;
// transmission times truncated to its nanosecond clock; ECN thresholds per link
// speed from KMIN/KMAX/PMAX_MAP (KB = 1000 B); its DCQCN parameters (timer-driven
// increase, no byte counter); ACKs queued with the data in the switches, sent past
// a pause by the NIC when ACK_HIGH_PRIO is 1; go-back-N or go-back-to-chunk
// (L2_BACK_TO_ZERO 0 / 1); its switch MMU; its ECMP (hash, addresses, source
// ports and next-hop order), so every flow takes the path it takes there.
#ifndef ROCELAB_INTEROP_NS3_H_
#define ROCELAB_INTEROP_NS3_H_

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace rocelab {

class Fabric;

struct Ns3Run {
  Scenario scenario;
  std::vector<int> host_node_ids;  // host index -> ns-3 node id
  uint32_t payload = 1000;
  std::string fct_file_name = "fct.txt";  // FCT_OUTPUT_FILE's base name, written into --out
};

// The IPv4 address that simulator gives node `id` (third.cc node_id_to_ip): 11.x.y.1.
inline uint32_t Ns3HostIpv4(uint32_t id) { return 0x0b000001u + ((id / 256) << 16) + ((id % 256) << 8); }

// Throws ConfigError naming the file, line and key.
Ns3Run LoadNs3Config(const std::string& config_path);

// That simulator's standalone FCT of a flow (ns): base RTT (twice the one-way
// propagation plus one full packet's serialization per hop) plus the flow's
// bytes with 48 B of header per packet at the bottleneck rate.
uint64_t Ns3StandaloneFct(const Fabric& fabric, int src, int dst, uint64_t size, uint32_t payload);

// Lines of "sip dip sport dport size start_ns fct_ns standalone_fct_ns", addresses in hex.
std::string Ns3FctText(const Fabric& fabric, const Ns3Run& run);

}  // namespace rocelab

#endif  // ROCELAB_INTEROP_NS3_H_
