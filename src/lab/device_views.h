// What the commands an engineer types on a switch or a host print, in the
// layouts of the real tools, from what the device counts (its block of
// summary.json: report/summary.h, DeviceCountersJson). The layouts follow the
// captured outputs in ../shared/data/samples and SONiC's sonic-utilities
// (portstat, pfcstat, queuestat, pfcwd, ecnconfig: `tabulate`'s simple format,
// every column right-aligned), so what a lab prints reads, and parses
// (diagnose/parsers.h), as the device's own output would.
#ifndef ROCELAB_LAB_DEVICE_VIEWS_H_
#define ROCELAB_LAB_DEVICE_VIEWS_H_

#include <string>
#include <utility>
#include <vector>

#include "util/json_value.h"

namespace rocelab {

// tabulate(rows, headers, tablefmt="simple", stralign="right"): a header line, a line of dashes
// per column, the rows; columns two spaces apart.
std::string Tabulate(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows);

// "1,234,567".
std::string Thousands(double v);

// A switch's block (summary.json's switches.<name>); `before`: the same block when the last
// `run` began (null: none), `span_s` the time between them, for the rates.
std::string ShowInterfacesCounters(const JsonDocument& sw, const JsonDocument& before, double span_s);
std::string ShowPfcCounters(const JsonDocument& sw);
std::string ShowQueueCounters(const JsonDocument& sw, const std::string& port);  // "" for all
// pg-drop and watermarkstat's per-PG tables: `counter` of every port's PG0..7 under `title`
// ("Ingress PG dropped packets:", "Ingress shared pool occupancy per PG:", "Ingress headroom per PG:").
std::string ShowPriorityGroupCounter(const JsonDocument& sw, const std::string& counter, const std::string& title);
std::string ShowPfcwdStats(const JsonDocument& sw);
// The lossless queue's WRED/ECN profile (ecnconfig -l): `enabled` false reads `ecn_none`.
struct EcnProfileView {
  bool enabled = true;
  uint64_t kmin = 0, kmax = 0;
  double pmax = 0;
};
std::string ShowEcn(const EcnProfileView& profile);
// SONiC's DSCP_TO_TC_MAP as `sonic-cfggen -d --var-json DSCP_TO_TC_MAP` prints it, from the
// block's config (DSCPs it does not list map to 0), and the PFC-enabled queues of a port.
std::string ShowDscpToTcMap(const JsonDocument& sw);

// `mmuconfig -l`: the ingress lossless pool (with a shared headroom pool, its size as the pool's
// `xoff`, and the profiles reserve no xoff of their own), and per headroom in force a lossless PG
// profile named as SONiC names them (pg_lossless_<speed>_<cable>m_profile) with the ports that have it.
struct MmuProfileView {
  uint64_t rate_bps = 0;
  double cable_m = 0;
  uint64_t headroom = 0;
  double alpha = 0;
  std::string ports;
};
// `show headroom-pool watermark`: the shared headroom pool's highest occupancy since the run
// began (the switch's buffer block), or that the switch has none.
std::string ShowHeadroomPoolWatermark(const JsonDocument& sw, const std::string& name);
std::string ShowMmuConfig(uint64_t lossless_pool, uint64_t headroom_pool, const std::vector<MmuProfileView>& profiles);
// `sonic-cfggen -d --var-json CABLE_LENGTH`: each port's cable as the buffer manager sizes its
// lossless profile for it (SONiC's CABLE_LENGTH|AZURE entry), in whole metres.
std::string ShowCableLength(const std::vector<std::pair<std::string, double>>& port_meters);

// A host's block (summary.json's hosts.<name>).
std::string EthtoolS(const JsonDocument& host);
std::string RdmaStatistic(const JsonDocument& host);
std::string MlnxQos(const JsonDocument& host);

}  // namespace rocelab

#endif  // ROCELAB_LAB_DEVICE_VIEWS_H_
