#include "diagnose/parsers.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "telemetry/counter_names.h"
#include "util/text_lines.h"

namespace rocelab {

namespace {

using Line = TextLine;
std::vector<Line> Lines(const std::string& text) { return NumberedLines(text); }

std::string Trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

bool IsComment(const std::string& t) { return t.rfind("SOURCE:", 0) == 0 || t.rfind("#", 0) == 0; }

// A shell prompt echoed into the capture ("user@host:~$ cmd", "root@x:~# cmd", "+ cmd").
bool IsPrompt(const std::string& t) {
  if (t.rfind("+ ", 0) == 0) return true;
  size_t at = t.find('@');
  size_t sign = t.find_first_of("$#");
  return at != std::string::npos && sign != std::string::npos && at < sign && t.find(':') < sign;
}

// A status line SONiC's counter commands print above their tables: after `sonic-clear` (or
// `pfcstat -c`) they show the counts since then, saying when the snapshot was taken.
bool IsStatusLine(const std::string& t) { return t.rfind("Last cached time was", 0) == 0; }

bool ParseCount(std::string s, double* v) {
  std::string digits;
  for (char c : s)
    if (c != ',') digits.push_back(c);
  if (digits.empty()) return false;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  *v = std::strtod(digits.c_str(), nullptr);
  return true;
}

bool ParsePair(const std::string& s, double* a, double* b) {
  size_t slash = s.find('/');
  return slash != std::string::npos && ParseCount(s.substr(0, slash), a) && ParseCount(s.substr(slash + 1), b);
}

}  // namespace

OutputKind DetectOutputKind(const std::string& text) {
  if (text.find("STORM DETECTED/RESTORED") != std::string::npos) return OutputKind::kPfcwdStats;
  if (text.find("Counter/pkts") != std::string::npos) return OutputKind::kQueueCounters;
  if (text.find("Port Rx") != std::string::npos && text.find("PFC0") != std::string::npos) return OutputKind::kPfcCounters;
  for (const Line& l : Lines(text)) {  // rdma statistic: the first real line is "link DEV/PORT name value ..."
    const std::string t = Trim(l.text);
    if (t.empty() || IsComment(t) || IsPrompt(t)) continue;
    const std::vector<std::string> w = Words(t);
    if (w.size() >= 2 && w[0] == "link" && w[1].find('/') != std::string::npos) return OutputKind::kRdmaStatistic;
    break;
  }
  if (text.find("Priority trust state") != std::string::npos || text.find("PFC configuration") != std::string::npos)
    return OutputKind::kMlnxQos;
  if (text.find("Configurations:") != std::string::npos && text.find("ROCE_CC") != std::string::npos)
    return OutputKind::kMlxconfig;
  if (text.find("#bytes") != std::string::npos) return OutputKind::kPerftest;
  int pairs = 0, other = 0;
  for (const Line& l : Lines(text)) {
    std::string t = Trim(l.text);
    if (t.empty() || IsComment(t) || t == "NIC statistics:") continue;
    size_t c = t.find(": ");
    double v;
    if (c != std::string::npos && ParseCount(Trim(t.substr(c + 1)), &v)) ++pairs;
    else ++other;
  }
  if (pairs > 0 && other == 0) return OutputKind::kEthtoolS;
  return OutputKind::kUnknown;
}

// Why a file whose first line is no counter is not one diagnose reads: what it looks like.
std::string WrongKind(const std::string& text, const std::string& line) {
  std::string what = "no 'counter: value' line: this is not a file diagnose reads";
  // A YAML mapping (its first line a key) with a scenario's top-level keys.
  const size_t colon = line.find(':');
  const bool key = colon != std::string::npos && colon > 0 &&
                   std::all_of(line.begin(), line.begin() + static_cast<long>(colon),
                               [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  for (const Line& l : Lines(key ? text : std::string())) {
    const std::string t = Trim(l.text);
    if (t.rfind("topology:", 0) == 0 || t.rfind("workload:", 0) == 0) {
      what = "this is a rocelab scenario, not evidence: run it (rocelab run FILE --out DIR) and diagnose DIR";
      break;
    }
  }
  return what + " (its first line: '" + line.substr(0, 60) +
         "'); diagnose reads a bundle, a run's directory or summary.json, and the outputs of ethtool -S, hw_counters, "
         "mlnx_qos, mlxconfig q, show pfcwd stats, show queue counters and perftest";
}

CounterMap ParseCounterList(const std::string& text, const std::string& file) {
  CounterMap m;
  for (const Line& l : Lines(text)) {
    std::string t = Trim(l.text);
    if (t.empty() || IsComment(t) || t == "NIC statistics:" || IsPrompt(t)) continue;
    size_t c = t.find(':');
    double first;
    if (m.empty() && (c == std::string::npos || c == 0 || !ParseCount(Trim(t.substr(c + 1)), &first)))
      throw ParseError(file, l.number, WrongKind(text, t));
    if (c == std::string::npos || c == 0)
      throw ParseError(file, l.number, "expected 'counter: value', found '" + t.substr(0, 60) + "' (truncated or garbled?)");
    std::string name = Trim(t.substr(0, c)), value = Trim(t.substr(c + 1));
    double v;
    if (!ParseCount(value, &v))
      throw ParseError(file, l.number, "counter '" + name + "' has no whole-number value ('" + value.substr(0, 40) + "')");
    m[name] = v;
  }
  if (m.empty()) throw ParseError(file, 1, "no counters found (empty or truncated file)");
  return m;
}

void ParseMlnxQos(const std::string& text, const std::string& file, PortEvidence* port) {
  std::vector<Line> lines = Lines(text);
  bool saw_pfc = false;
  std::array<int, 64> map;
  map.fill(-1);
  bool saw_map = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string t = Trim(lines[i].text);
    if (t.rfind("Priority trust state:", 0) == 0) {
      port->trust = Trim(t.substr(21));
      if (port->trust != "dscp" && port->trust != "pcp")
        throw ParseError(file, lines[i].number, "unknown trust state '" + port->trust + "'");
    } else if (t.rfind("prio:", 0) == 0) {
      std::vector<std::string> w = Words(t);
      if (w.size() < 2 || w[1].rfind("dscp:", 0) != 0) throw ParseError(file, lines[i].number, "garbled dscp2prio row");
      int prio = std::atoi(w[0].c_str() + 5);
      if (prio < 0 || prio > 7) throw ParseError(file, lines[i].number, "priority out of range in dscp2prio row");
      std::string list = w[1].substr(5);
      std::stringstream ss(list);
      std::string item;
      while (std::getline(ss, item, ',')) {
        if (item.empty()) continue;
        double d;
        if (!ParseCount(item, &d) || d > 63) throw ParseError(file, lines[i].number, "bad DSCP '" + item + "'");
        map[static_cast<int>(d)] = prio;
      }
      saw_map = true;
    } else if (t.rfind("PFC configuration", 0) == 0) {
      if (i + 2 >= lines.size()) throw ParseError(file, lines[i].number, "PFC configuration is cut short (truncated?)");
      std::vector<std::string> pr = Words(lines[i + 1].text), en = Words(lines[i + 2].text);
      if (pr.size() != 9 || pr[0] != "priority" || en.size() != 9 || en[0] != "enabled")
        throw ParseError(file, lines[i + 2].number, "expected the 'priority' and 'enabled' rows with 8 columns");
      std::array<bool, 8> pfc{};
      for (int p = 0; p < 8; ++p) {
        if (en[p + 1] != "0" && en[p + 1] != "1") throw ParseError(file, lines[i + 2].number, "PFC enabled must be 0 or 1");
        pfc[p] = en[p + 1] == "1";
      }
      port->pfc_enabled = pfc;
      saw_pfc = true;
    }
  }
  if (!saw_pfc) throw ParseError(file, static_cast<int>(lines.size()), "no 'PFC configuration' block (truncated output?)");
  if (saw_map) port->dscp_to_priority = map;
  port->sources.push_back(file);
}

void ParseMlxconfig(const std::string& text, const std::string& file, PortEvidence* port) {
  bool in_table = false;
  int rows = 0;
  for (const Line& l : Lines(text)) {
    std::string t = Trim(l.text);
    if (t.rfind("Configurations:", 0) == 0) {
      in_table = true;
      continue;
    }
    if (!in_table || t.empty() || t == "...") continue;
    std::vector<std::string> w = Words(t);
    if (w.size() < 2) throw ParseError(file, l.number, "expected 'NAME VALUE', found '" + t.substr(0, 60) + "'");
    for (char c : w[0])
      if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
        throw ParseError(file, l.number, "expected a configuration name, found '" + w[0].substr(0, 40) + "'");
    port->cc_params[w[0]] = w[1];
    ++rows;
  }
  if (!rows) throw ParseError(file, 1, "no configuration rows (truncated output?)");
  port->sources.push_back(file);
}

std::vector<WatchdogQueue> ParsePfcwdStats(const std::string& text, const std::string& file) {
  std::vector<Line> lines = Lines(text);
  std::vector<WatchdogQueue> last;
  bool saw_table = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string t = Trim(lines[i].text);
    if (t.find("STORM DETECTED/RESTORED") != std::string::npos) {
      // A new snapshot: the newest one wins.
      last.clear();
      saw_table = true;
      if (i + 1 >= lines.size() || Trim(lines[i + 1].text).rfind("---", 0) != 0)
        throw ParseError(file, lines[i].number + 1, "expected the dashed line under the header");
      for (i += 2; i < lines.size(); ++i) {
        std::string r = Trim(lines[i].text);
        if (r.empty() || IsPrompt(r)) {
          --i;
          break;
        }
        std::vector<std::string> w = Words(r);
        WatchdogQueue q;
        size_t colon = w.empty() ? std::string::npos : w[0].rfind(':');
        if (w.size() != 7 || colon == std::string::npos)
          throw ParseError(file, lines[i].number, "expected 'PORT:QUEUE STATUS d/r ok/drop ok/drop ok/drop ok/drop' (truncated?)");
        q.port = w[0].substr(0, colon);
        q.queue = std::atoi(w[0].c_str() + colon + 1);
        q.status = w[1];
        double a, b;
        if (!ParsePair(w[2], &q.storms_detected, &q.storms_restored) || !ParsePair(w[3], &q.tx_ok, &q.tx_drop) ||
            !ParsePair(w[4], &q.rx_ok, &q.rx_drop) || !ParsePair(w[5], &a, &b) || !ParsePair(w[6], &a, &b))
          throw ParseError(file, lines[i].number, "expected counts as a/b");
        q.source = file;
        last.push_back(q);
      }
    }
  }
  if (!saw_table) throw ParseError(file, 1, "no 'show pfcwd stats' table found");
  return last;
}

std::vector<PortEvidence> ParseQueueCounters(const std::string& text, const std::string& file) {
  std::vector<PortEvidence> ports;
  bool header = false;
  for (const Line& l : Lines(text)) {
    std::string t = Trim(l.text);
    if (t.empty() || IsComment(t) || IsPrompt(t) || t.rfind("---", 0) == 0) continue;
    if (t.find("Counter/pkts") != std::string::npos) {
      header = true;
      continue;
    }
    if (!header) continue;
    std::vector<std::string> w = Words(t);
    double pk, by, dp, db;
    auto num = [&](const std::string& s, double* v) { return s == "N/A" ? (*v = 0, true) : ParseCount(s, v); };
    if (w.size() != 6 || !num(w[2], &pk) || !num(w[3], &by) || !num(w[4], &dp) || !num(w[5], &db))
      throw ParseError(file, l.number, "expected 'PORT TxQ pkts bytes drop-pkts drop-bytes', found '" + t.substr(0, 60) + "'");
    if (ports.empty() || ports.back().port != w[0]) {
      PortEvidence p;
      p.device = "switch";
      p.port = w[0];
      p.is_switch = true;
      p.sources.push_back(file);
      ports.push_back(p);
    }
    CounterMap& q = ports.back().queues[w[1]];
    q[kSaiQueuePackets.name] = pk;
    q[kSaiQueueBytes.name] = by;
    q[kSaiQueueDroppedPackets.name] = dp;
    q[kSaiQueueDroppedBytes.name] = db;
  }
  if (ports.empty()) throw ParseError(file, 1, "no 'show queue counters' rows found");
  return ports;
}

std::vector<PortEvidence> ParsePfcCounters(const std::string& text, const std::string& file) {
  std::vector<PortEvidence> ports;
  const PriorityCounter* table = nullptr;  // the Rx or the Tx table
  auto port_named = [&](const std::string& name) -> PortEvidence& {
    for (PortEvidence& p : ports)
      if (p.port == name) return p;
    PortEvidence p;
    p.device = "switch";
    p.port = name;
    p.is_switch = true;
    p.sources.push_back(file);
    ports.push_back(p);
    return ports.back();
  };
  for (const Line& l : Lines(text)) {
    const std::string t = Trim(l.text);
    if (t.empty() || IsComment(t) || IsPrompt(t) || IsStatusLine(t) || t.rfind("---", 0) == 0) continue;
    const std::vector<std::string> w = Words(t);
    if (w.size() >= 3 && w[0] == "Port" && (w[1] == "Rx" || w[1] == "Tx")) {
      if (w.size() != 10) throw ParseError(file, l.number, "expected 'Port Rx|Tx PFC0 .. PFC7'");
      table = w[1] == "Rx" ? &kSaiPortPfcRxPkts : &kSaiPortPfcTxPkts;
      continue;
    }
    if (!table) throw ParseError(file, l.number, "a counter row before the 'Port Rx' header: '" + t.substr(0, 60) + "'");
    if (w.size() != 9) throw ParseError(file, l.number, "expected 'PORT' and 8 PFC counts, found '" + t.substr(0, 60) + "'");
    PortEvidence& p = port_named(w[0]);
    for (int prio = 0; prio < 8; ++prio) {
      double v;
      if (w[1 + prio] == "N/A") continue;
      if (!ParseCount(w[1 + prio], &v)) throw ParseError(file, l.number, "'" + w[1 + prio] + "' is not a count");
      p.counters[table->Name(prio)] = v;
    }
    p.deltas = p.counters;
  }
  if (ports.empty()) throw ParseError(file, 1, "no 'show pfc counters' rows found");
  return ports;
}

std::vector<PortEvidence> ParseRdmaStatistic(const std::string& text, const std::string& file) {
  std::vector<PortEvidence> ports;
  std::vector<std::pair<std::string, int>> words;  // every word with its line, across wrapped records
  for (const Line& l : Lines(text)) {
    const std::string t = Trim(l.text);
    if (t.empty() || IsComment(t) || IsPrompt(t)) continue;
    for (const std::string& x : Words(t)) words.push_back({x, l.number});
  }
  for (size_t i = 0; i < words.size();) {
    const auto& [w, line] = words[i];
    if (w != "link" || i + 1 >= words.size())
      throw ParseError(file, line, "expected 'link DEV/PORT' to start a record, found '" + w.substr(0, 40) + "'");
    PortEvidence p;
    const std::string& link = words[i + 1].first;  // mlx5_0/1: the RDMA device and its port
    p.device = link.substr(0, link.find('/'));
    p.port = link;
    p.sources.push_back(file);
    i += 2;
    while (i < words.size() && words[i].first != "link") {
      if (i + 1 >= words.size()) throw ParseError(file, words[i].second, "'" + words[i].first + "' has no value (truncated?)");
      double v;
      if (!ParseCount(words[i + 1].first, &v))
        throw ParseError(file, words[i + 1].second, "'" + words[i + 1].first + "' is not a count for " + words[i].first);
      p.counters[words[i].first] = v;
      i += 2;
    }
    p.deltas = p.counters;
    ports.push_back(std::move(p));
  }
  if (ports.empty()) throw ParseError(file, 1, "no 'link DEV/PORT' records found");
  return ports;
}

std::vector<PerftestRow> ParsePerftest(const std::string& text, const std::string& file) {
  std::vector<Line> lines = Lines(text);
  std::vector<PerftestRow> rows;
  std::string link;
  int mtu = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string t = Trim(lines[i].text);
    if (t.rfind("Link type", 0) == 0) link = Trim(t.substr(t.find(':') + 1));
    if (t.rfind("Mtu", 0) == 0) mtu = std::atoi(Trim(t.substr(t.find(':') + 1)).c_str());
    if (t.rfind("#bytes", 0) != 0) continue;
    const bool bw = t.find("BW average") != std::string::npos;
    const bool lat = t.find("t_avg") != std::string::npos;
    if (!bw && !lat) throw ParseError(file, lines[i].number, "unknown perftest table header");
    for (++i; i < lines.size(); ++i) {
      std::string r = Trim(lines[i].text);
      if (r.rfind("---", 0) == 0 || r.empty()) break;
      std::vector<std::string> w = Words(r);
      std::vector<double> v;
      for (const std::string& x : w) {
        char* end = nullptr;
        double d = std::strtod(x.c_str(), &end);
        if (!end || *end) throw ParseError(file, lines[i].number, "non-numeric value '" + x + "' in the result row");
        v.push_back(d);
      }
      PerftestRow row;
      row.bandwidth = bw;
      row.link_type = link;
      row.mtu = mtu;
      row.source = file;
      if (bw) {
        if (v.size() != 5) throw ParseError(file, lines[i].number, "expected 5 columns in the bandwidth row (truncated?)");
        row.bytes = v[0];
        row.iterations = v[1];
        row.bw_peak = v[2];
        row.bw_average = v[3];
        row.msg_rate_mpps = v[4];
        row.gbits = t.find("Gb/sec") != std::string::npos;
      } else {
        if (v.size() < 6) throw ParseError(file, lines[i].number, "expected at least 6 columns in the latency row");
        row.bytes = v[0];
        row.iterations = v[1];
        row.t_typical_us = v[4];
        row.t_avg_us = v[5];
        row.t_p99_us = v.size() > 7 ? v[7] : 0;
      }
      rows.push_back(row);
    }
    if (rows.empty()) throw ParseError(file, lines[i < lines.size() ? i : lines.size() - 1].number, "no result rows under the header");
  }
  if (rows.empty()) throw ParseError(file, 1, "no perftest result table found");
  return rows;
}

}  // namespace rocelab
