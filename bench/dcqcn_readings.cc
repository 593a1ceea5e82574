// The mlx5 DCQCN parameters whose reading the public sources leave open,
// measured side by side (docs/dcqcn.md prints this program's table):
//   build/bench/dcqcn_readings
// For each reading: a 16 x 8 MB incast into one 100G host (the receiver link's
// efficiency: 128 MB at line rate over the time the last flow finished; PFC
// frames sent; the deepest the receiver's egress queue got), and two long flows
// into one host, the second joining at 5 ms (the time until their 200 us rates
// stay within 10 % of each other, and their total rate over the last 20 ms).
#include <cmath>
#include <cstdio>
#include <string>

#include "report/summary.h"
#include "run/experiment.h"
#include "scenario/scenario.h"

namespace rocelab {
namespace {

struct Reading {
  const char* name;
  const char* dcqcn;  // the nic.dcqcn mapping
};

const Reading kReadings[] = {
    {"mlx5 as settled (CNPs spaced per port, byte counter 2 MiB)", "{profile: mlx5}"},
    {"mlx5, CNPs spaced per QP", "{profile: mlx5, cnp_moderation: qp}"},
    {"mlx5, min_time_between_cnps 4 us (CX-6 Lx)", "{profile: mlx5, min_time_between_cnps: 4us}"},
    {"mlx5, rpg_byte_reset read as bytes (32 KB)", "{profile: mlx5, byte_counter: 32767B}"},
    {"paper profile", "{profile: paper}"},
};

std::string Fabric3(const std::string& dcqcn) {
  return "topology: {type: spine-leaf, spines: 2, leaves: 3, hosts_per_leaf: 8,\n"
         "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 400G, delay: 1us}}\n"
         "switch: {buffer: 32MB, lossless_priorities: [3], ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}}\n"
         "nic: {mtu: 4096, cc: dcqcn, dcqcn: " + dcqcn + "}\n";
}

void Incast(const Reading& r) {
  Experiment x(ParseScenarioText("duration: 200ms\n" + Fabric3(r.dcqcn) +
                                     "workload:\n  - {type: incast, dst: h0, senders: 16, size: 8MB}\n",
                                 "incast.yaml"));
  x.Run();
  const Fabric& f = x.fabric();
  Time last = 0;
  for (const QueuePair& qp : f.qps()) last = std::max(last, qp.finish);
  const double line_us = 16.0 * (8 << 20) * 8 / 100e9 * (4096.0 + 62 + 20) / 4096 * 1e6;
  const Switch& leaf = f.sw("leaf0");
  std::printf(" %6.3f | %6llu | %7.0f KB |", line_us / (static_cast<double>(last) / kMicrosecond),
              (unsigned long long)ComputeTotals(f).pause_frames_tx, leaf.queue_counters(0, 3).watermark_bytes / 1024.0);
}

void TwoFlows(const Reading& r) {
  Experiment x(ParseScenarioText("duration: 40ms\n" + Fabric3(r.dcqcn) +
                                     "workload:\n"
                                     "  - {type: flow, src: h1, dst: h0, size: 4GB}\n"
                                     "  - {type: flow, src: h2, dst: h0, size: 4GB, start: 5ms}\n",
                                 "two.yaml"));
  Fabric& f = x.fabric();
  const Time step = 200 * kMicrosecond;
  Time converged = -1;
  uint64_t a0 = 0, b0 = 0, a20 = 0, b20 = 0;
  for (Time t = 5 * kMillisecond + step; t <= 40 * kMillisecond; t += step) {
    f.RunUntil(t);
    const uint64_t a = f.qps()[0].delivered, b = f.qps()[1].delivered;
    const double da = static_cast<double>(a - a0), db = static_cast<double>(b - b0);
    const bool fair = da + db > 0 && std::fabs(da - db) / (da + db) < 0.1;
    if (!fair) converged = -1;
    else if (converged < 0) converged = t - 5 * kMillisecond;
    if (t == 20 * kMillisecond) a20 = a, b20 = b;
    a0 = a, b0 = b;
  }
  const double total_gbps = static_cast<double>(a0 - a20 + b0 - b20) * 8 / 20e-3 / 1e9;
  if (converged < 0) std::printf(" never | %5.1f |\n", total_gbps);
  else std::printf(" %5.1f ms | %5.1f |\n", static_cast<double>(converged) / kMillisecond, total_gbps);
}

}  // namespace
}  // namespace rocelab

int main() {
  std::printf("| reading | incast efficiency | PFC frames | deepest queue | two flows fair after | their Gb/s |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const rocelab::Reading& r : rocelab::kReadings) {
    std::printf("| %s |", r.name);
    rocelab::Incast(r);
    rocelab::TwoFlows(r);
    std::fflush(stdout);
  }
  return 0;
}
