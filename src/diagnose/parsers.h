// Parsers for the command outputs operators already collect. Each takes the
// text and the file name, fills the evidence, and throws ParseError naming the
// file and line on input it cannot read (truncated or garbled) — never guesses.
#ifndef ROCELAB_DIAGNOSE_PARSERS_H_
#define ROCELAB_DIAGNOSE_PARSERS_H_

#include <stdexcept>
#include <string>

#include "diagnose/evidence.h"

namespace rocelab {

class ParseError : public std::runtime_error {
 public:
  ParseError(const std::string& file, int line, const std::string& what)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + what), file_(file), line_(line) {}
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

}  // namespace rocelab

#endif  // ROCELAB_DIAGNOSE_PARSERS_H_
