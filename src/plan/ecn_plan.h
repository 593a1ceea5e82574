// ECN thresholds for DCQCN from the bandwidth-delay product, with the
// reasoning spelled out, and the configuration that carries them: SONiC
// config_db tables for the switch and mlnx_qos / dcb / sysfs for the NIC.
#ifndef ROCELAB_PLAN_ECN_PLAN_H_
#define ROCELAB_PLAN_ECN_PLAN_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/packet.h"
#include "sim/time.h"

namespace rocelab {

struct EcnPlan {
  uint64_t rate_bps = 0;
  Time rtt = 0;
  uint32_t frame = 0;  // largest RoCE frame on the wire
  uint64_t bdp = 0;
  uint64_t kmin = 0, kmax = 0;
  double pmax = 0;
  std::vector<std::string> reasoning;
};

EcnPlan PlanDcqcnEcn(uint64_t rate_bps, Time rtt, uint32_t roce_mtu);

struct TemplateInput {
  EcnPlan ecn;
  int ports = 32;
  std::vector<int> lossless = {3};
  uint8_t roce_dscp = kRoceDscp, cnp_dscp = kCnpDscp;
  uint64_t xon = 19456, xoff = 48128, size = 67584;  // the PG profile (from plan headroom)
  std::string cable = "5m";
  uint64_t lossless_pool = 0;  // ingress_lossless_pool size; 0: ports x lossless PGs x size (a test's)
  // ETS weights of the DWRR queues in percent, queue 6 strict (the simulator's defaults).
  std::array<uint32_t, 8> ets_weights{{10, 10, 10, 40, 10, 10, 0, 10}};
};

// SONiC config_db JSON: BUFFER_POOL, BUFFER_PROFILE, BUFFER_PG, WRED_PROFILE, SCHEDULER,
// QUEUE, PORT_QOS_MAP, DSCP_TO_TC_MAP, TC_TO_PRIORITY_GROUP_MAP, TC_TO_QUEUE_MAP,
// MAP_PFC_PRIORITY_TO_QUEUE, PFC_WD: every object it references is defined in it, and its DSCP
// map is the simulator's default (DSCP 26 -> 3, 48 -> 6, every other DSCP -> 0).
std::string SonicQosTemplate(const TemplateInput& in);
// The NIC side, one command per line.
std::vector<std::string> NicQosCommands(const TemplateInput& in, const std::string& netdev, const std::string& rdma_dev);

}  // namespace rocelab

#endif  // ROCELAB_PLAN_ECN_PLAN_H_
