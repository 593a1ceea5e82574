#include "plan/buffer_plan.h"

#include <cstdio>

#include "plan/headroom.h"
#include "sim/packet.h"
#include "topo/topology.h"

namespace rocelab {

std::vector<SwitchBudget> PlanBuffers(const Scenario& sc) {
  Topology topo = Topology::Build(sc.topology);
  std::vector<SwitchBudget> out;
  for (int id : topo.switches()) {
    const TopoNode& n = topo.nodes()[id];
    const SwitchSpec& spec = SwitchSpecFor(sc, n.name);
    SwitchBudget b;
    b.name = n.name;
    b.buffer = spec.buffer;
    for (int p = 0; p < kNumPriorities; ++p)
      if (spec.pfc.enabled && (spec.lossless_mask & (1u << p))) ++b.lossless_pgs;
    for (size_t i = 0; i < n.ports.size(); ++i) {
      PortBudget pb;
      pb.port = SwitchPortAlias(static_cast<int>(i));
      pb.peer = topo.nodes()[n.ports[i].peer_node].name;
      pb.rate_bps = n.ports[i].link.rate_bps;
      pb.delay = n.ports[i].link.delay;
      pb.headroom_per_pg = b.lossless_pgs ? PortHeadroom(spec, pb.rate_bps, pb.delay, WorstCellFillFrame(sc, spec.cell)) : 0;
      b.headroom_total += pb.headroom_per_pg * b.lossless_pgs;
      b.ports.push_back(pb);
    }
    b.over_subscribe_ratio = spec.mmu == SwitchSpec::Mmu::kNs3Hpcc ? 0 : spec.pfc.over_subscribe_ratio;
    b.headroom_reserved = ReservedHeadroom(b.headroom_total, b.over_subscribe_ratio, spec.cell);
    b.shared_left = static_cast<int64_t>(spec.buffer) - static_cast<int64_t>(b.headroom_reserved);
    char pooled[96] = "";
    if (b.over_subscribe_ratio > 0)
      std::snprintf(pooled, sizeof pooled, " (pooled: %.2f MB of PG headroom over ratio %g)", b.headroom_total / 1048576.0,
                    b.over_subscribe_ratio);
    char buf[320];
    if (b.shared_left <= 0) {
      b.fits = false;
      std::snprintf(buf, sizeof buf, "DOES NOT FIT: headroom needs %.2f MB%s, the buffer is %.2f MB",
                    b.headroom_reserved / 1048576.0, pooled, spec.buffer / 1048576.0);
    } else {
      std::snprintf(buf, sizeof buf, "%s: headroom takes %.0f %% of the buffer%s, %.2f MB shared left",
                    b.shared_left < static_cast<int64_t>(spec.buffer / 5) ? "tight" : "ok",
                    100.0 * b.headroom_reserved / spec.buffer, pooled, b.shared_left / 1048576.0);
    }
    b.verdict = buf;
    out.push_back(b);
  }
  return out;
}

}  // namespace rocelab
