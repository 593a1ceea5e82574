// Parsers for the command outputs operators already collect, and for the JSON
// files rocelab writes (summary.json, a bundle's manifest.json). Each takes the
// text and the file name, fills the evidence, and throws ParseError naming the
// file and line (or, in JSON, the key) on input it cannot read (truncated,
// garbled, a value of the wrong type) — never guesses.
#ifndef ROCELAB_DIAGNOSE_PARSERS_H_
#define ROCELAB_DIAGNOSE_PARSERS_H_

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "diagnose/evidence.h"
#include "util/json_value.h"

namespace rocelab {

// `line` 0: the file as a whole (a JSON value of the wrong type, whose line nlohmann does not keep).
class ParseError : public std::runtime_error {
 public:
  ParseError(const std::string& file, int line, const std::string& what)
      : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what),
        file_(file), line_(line) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

enum class OutputKind {
  kEthtoolS, kNameValue, kMlnxQos, kMlxconfig, kPfcwdStats, kQueueCounters, kPfcCounters, kRdmaStatistic, kPerftest, kUnknown
};

// Recognises a command output by its content.
OutputKind DetectOutputKind(const std::string& text);

// `ethtool -S` (and any "name: value" counter list, such as sysfs dumps).
CounterMap ParseCounterList(const std::string& text, const std::string& file);
// `mlnx_qos -i IF`: trust state, DSCP to priority map, PFC per priority.
void ParseMlnxQos(const std::string& text, const std::string& file, PortEvidence* port);
// `mlxconfig -d DEV q`: the congestion-control rows.
void ParseMlxconfig(const std::string& text, const std::string& file, PortEvidence* port);
// SONiC `show pfcwd stats` (the last table when several snapshots follow each other).
std::vector<WatchdogQueue> ParsePfcwdStats(const std::string& text, const std::string& file);
// SONiC `show queue counters`.
std::vector<PortEvidence> ParseQueueCounters(const std::string& text, const std::string& file);
// SONiC `pfcstat` / `show pfc counters`: PFC frames received (Rx table) and sent (Tx table)
// per port and priority, as SAI_PORT_STAT_PFC_<p>_RX_PKTS / _TX_PKTS.
std::vector<PortEvidence> ParsePfcCounters(const std::string& text, const std::string& file);
// iproute2 `rdma statistic show [link DEV/PORT]`: "link DEV/PORT name value ..." per port (a
// long record may wrap over lines), the RDMA hw_counters under their own names.
std::vector<PortEvidence> ParseRdmaStatistic(const std::string& text, const std::string& file);
// perftest (ib_write_bw, ib_send_lat, ...) result tables.
std::vector<PerftestRow> ParsePerftest(const std::string& text, const std::string& file);

// A run's summary.json: every host and switch port with its counters and QoS configuration,
// the flows' states, the collectives. A counter summary.json leaves out is zero; a per-device
// section without counters (`rocelab run --counters none`) is noted in
// Evidence::sections_without_counters.
void ParseSummaryJson(const std::string& text, const std::string& file, Evidence* ev);
// The same, from the summary parsed already (the report reads it for its page as well).
void ReadSummaryJson(const JsonDocument& doc, const std::string& file, Evidence* ev);

// A bundle's manifest.json (rocelab collect): what was sampled, and which files of the bundle
// hold each device's counters and configuration. Absent names read as "host" and "?".
struct BundleDevice {
  std::string rdma_device = "?", netdev = "?";
  double speed_mbps = 0;
  int mtu = 0;
  // In each sampleN/ folder. Absent: the device was not sampled (it is left out).
  std::optional<std::vector<std::string>> counter_files;
  std::map<std::string, std::string> cc_params;  // roce_np/..., roce_rp/... as text
  std::string mlnx_qos;                          // "" when not collected
  std::string operstate;                         // the netdev's at the last sample ("" when not read)
};
struct BundleManifest {
  std::string host = "host";
  double interval_s = 0;
  int samples = 0;
  std::vector<BundleDevice> devices;
};
// File names are checked to stay inside the bundle (relative, no "..").
BundleManifest ParseManifest(const std::string& text, const std::string& file);

}  // namespace rocelab

#endif  // ROCELAB_DIAGNOSE_PARSERS_H_
