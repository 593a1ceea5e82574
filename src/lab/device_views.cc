#include "lab/device_views.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "telemetry/counter_names.h"

namespace rocelab {
namespace {

double Num(const JsonDocument& o, const std::string& key) {
  if (!o.is_object()) return 0;
  auto it = o.find(key);
  return it != o.end() && it->is_number() ? it->get<double>() : 0;
}

const JsonDocument& Member(const JsonDocument& o, const std::string& key) {
  static const JsonDocument kNull;
  if (!o.is_object()) return kNull;
  auto it = o.find(key);
  return it != o.end() ? *it : kNull;
}

// Ports in the device's own order: Ethernet0, Ethernet4, ...
const JsonDocument& Ports(const JsonDocument& sw) { return Member(sw, "ports"); }

std::string Fixed(double v, int decimals) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", decimals, v);
  return b;
}

// portstat's rate: "12.34 MB/s" (powers of 1000, as SONiC's ns_brate).
std::string ByteRate(double bytes_per_s) {
  const char* units[] = {"B/s", "KB/s", "MB/s", "GB/s"};
  int u = 0;
  while (bytes_per_s >= 1000 && u < 3) bytes_per_s /= 1000, ++u;
  return Fixed(bytes_per_s, 2) + " " + units[u];
}

}  // namespace

std::string Thousands(double v) {
  const long long n = std::llround(v);
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

std::string Tabulate(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(headers.size());
  for (size_t c = 0; c < headers.size(); ++c) {
    width[c] = headers[c].size();
    for (const auto& r : rows)
      if (c < r.size()) width[c] = std::max(width[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (size_t c = 0; c < headers.size(); ++c) {
      const std::string& v = c < cells.size() ? cells[c] : std::string();
      s += (c ? "  " : "") + std::string(width[c] - std::min(width[c], v.size()), ' ') + v;
    }
    return s + "\n";
  };
  std::string out = line(headers);
  for (size_t c = 0; c < headers.size(); ++c) out += (c ? "  " : "") + std::string(width[c], '-');
  out += "\n";
  for (const auto& r : rows) out += line(r);
  return out;
}

std::string ShowInterfacesCounters(const JsonDocument& sw, const JsonDocument& before, double span_s) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& item : Ports(sw).items()) {
    const std::string& name = item.key();
    const JsonDocument& p = item.value();
    const JsonDocument& b = Member(Ports(before), name);
    const double speed_bps = Num(p, "speed") * 1e6;  // Mb/s
    auto rate = [&](const char* octets) {
      return span_s > 0 && b.is_object() ? std::max(0.0, Num(p, octets) - Num(b, octets)) / span_s : 0.0;
    };
    const double rx_bps = rate(kSaiPortIfInOctets.name), tx_bps = rate(kSaiPortIfOutOctets.name);
    auto util = [&](double bytes_per_s) { return Fixed(speed_bps > 0 ? 100.0 * bytes_per_s * 8 / speed_bps : 0, 2) + "%"; };
    const std::string state = Member(p, "oper_status").is_string() && Member(p, "oper_status").get<std::string>() == "down" ? "D" : "U";
    rows.push_back({name, state, Thousands(Num(p, kSaiPortIfInUcastPkts.name)), ByteRate(rx_bps), util(rx_bps),
                    Thousands(Num(p, kSaiPortIfInErrors.name)), Thousands(Num(p, kSaiPortIfInDiscards.name)),
                    Thousands(Num(p, kSaiPortEtherRxOversizePkts.name)), Thousands(Num(p, kSaiPortIfOutUcastPkts.name)),
                    ByteRate(tx_bps), util(tx_bps), "0", Thousands(Num(p, kSaiPortIfOutDiscards.name)), "0"});
  }
  return Tabulate({"IFACE", "STATE", "RX_OK", "RX_BPS", "RX_UTIL", "RX_ERR", "RX_DRP", "RX_OVR", "TX_OK", "TX_BPS",
                   "TX_UTIL", "TX_ERR", "TX_DRP", "TX_OVR"},
                  rows);
}

std::string ShowPfcCounters(const JsonDocument& sw) {
  std::string out;
  for (const PriorityCounter* table : {&kSaiPortPfcRxPkts, &kSaiPortPfcTxPkts}) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& [name, p] : Ports(sw).items()) {
      std::vector<std::string> r{name};
      for (int prio = 0; prio < 8; ++prio) r.push_back(Thousands(Num(p, table->Name(prio))));
      rows.push_back(r);
    }
    if (!out.empty()) out += "\n";
    out += Tabulate({table == &kSaiPortPfcRxPkts ? "Port Rx" : "Port Tx", "PFC0", "PFC1", "PFC2", "PFC3", "PFC4", "PFC5",
                     "PFC6", "PFC7"},
                    rows);
  }
  return out;
}

std::string ShowQueueCounters(const JsonDocument& sw, const std::string& port) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, p] : Ports(sw).items()) {
    if (!port.empty() && name != port) continue;
    const JsonDocument& queues = Member(p, "queues");
    for (int q = 0; q < 8; ++q) {
      const JsonDocument& c = Member(queues, "UC" + std::to_string(q));
      rows.push_back({name, "UC" + std::to_string(q), Thousands(Num(c, kSaiQueuePackets.name)),
                      Thousands(Num(c, kSaiQueueBytes.name)), Thousands(Num(c, kSaiQueueDroppedPackets.name)),
                      Thousands(Num(c, kSaiQueueDroppedBytes.name))});
    }
  }
  return Tabulate({"Port", "TxQ", "Counter/pkts", "Counter/bytes", "Drop/pkts", "Drop/bytes"}, rows);
}

std::string ShowPriorityGroupCounter(const JsonDocument& sw, const std::string& counter, const std::string& title) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, p] : Ports(sw).items()) {
    std::vector<std::string> r{name};
    const JsonDocument& pgs = Member(p, "priority_groups");
    for (int pg = 0; pg < 8; ++pg) r.push_back(Thousands(Num(Member(pgs, "PG" + std::to_string(pg)), counter)));
    rows.push_back(r);
  }
  return title + "\n" + Tabulate({"Port", "PG0", "PG1", "PG2", "PG3", "PG4", "PG5", "PG6", "PG7"}, rows);
}

std::string ShowPfcwdStats(const JsonDocument& sw) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, p] : Ports(sw).items())
    for (const auto& entry : Member(p, kPfcwdBlock).items()) {
      const std::string& queue = entry.key();
      const JsonDocument& st = entry.value();
      auto pair = [&](const Counter& a, const Counter& b) {
        return std::to_string(static_cast<long long>(Num(st, a.name))) + "/" +
               std::to_string(static_cast<long long>(Num(st, b.name)));
      };
      const std::string q = queue.size() > 2 && queue.compare(0, 2, "UC") == 0 ? queue.substr(2) : queue;
      rows.push_back({name + ":" + q, Member(st, "status").is_string() ? Member(st, "status").get<std::string>() : "",
                      pair(kPfcwdStormDetected, kPfcwdStormRestored), pair(kPfcwdTxOk, kPfcwdTxDrop),
                      pair(kPfcwdRxOk, kPfcwdRxDrop), pair(kPfcwdTxLastOk, kPfcwdTxLastDrop),
                      pair(kPfcwdRxLastOk, kPfcwdRxLastDrop)});
    }
  return Tabulate({"QUEUE", "STATUS", "STORM DETECTED/RESTORED", "TX OK/DROP", "RX OK/DROP", "TX LAST OK/DROP",
                   "RX LAST OK/DROP"},
                  rows);
}

std::string ShowEcn(const EcnProfileView& e) {
  const std::vector<std::vector<std::string>> rows = {
      {"red_max_threshold", std::to_string(e.kmax)},
      {"ecn", e.enabled ? "ecn_all" : "ecn_none"},
      {"green_min_threshold", std::to_string(e.kmin)},
      {"wred_green_enable", "true"},
      {"green_max_threshold", std::to_string(e.kmax)},
      {"green_drop_probability", std::to_string(static_cast<int>(std::lround(e.pmax * 100)))},
      {"red_min_threshold", std::to_string(e.kmin)},
  };
  // ecnconfig's layout: the profile's name, then its fields between two rules, left-aligned.
  size_t w = 0;
  for (const auto& r : rows) w = std::max(w, r[0].size());
  std::string rule = std::string(w, '-') + "  " + std::string(8, '-') + "\n";
  std::string out = "Profile: AZURE_LOSSLESS\n" + rule;
  for (const auto& r : rows) out += r[0] + std::string(w - r[0].size() + 2, ' ') + r[1] + "\n";
  return out + rule;
}

namespace {

// mmuconfig's layout: a title, then the fields between two rules, left-aligned.
std::string FieldTable(const std::string& title, const std::vector<std::pair<std::string, std::string>>& rows) {
  size_t a = 0, b = 0;
  for (const auto& [k, v] : rows) a = std::max(a, k.size()), b = std::max(b, v.size());
  const std::string rule = std::string(a, '-') + "  " + std::string(b, '-') + "\n";
  std::string out = title + "\n" + rule;
  for (const auto& [k, v] : rows) out += k + std::string(a - k.size() + 2, ' ') + v + "\n";
  return out + rule;
}

}  // namespace

std::string ShowHeadroomPoolWatermark(const JsonDocument& sw, const std::string& name) {
  const JsonDocument& buffer = Member(sw, "buffer");
  if (!Member(buffer, kHeadroomPoolBytes.name).is_number())
    return name + " has no shared headroom pool: each lossless PG reserves its own headroom "
                  "(show priority-group watermark headroom)\n";
  return "Headroom pool maximum occupancy:\n" +
         Tabulate({"Pool", "Bytes"}, {{"ingress_lossless_pool", Thousands(Num(buffer, kSaiBufferPoolXoffRoomWatermarkBytes.name))}});
}

std::string ShowMmuConfig(uint64_t lossless_pool, uint64_t headroom_pool, const std::vector<MmuProfileView>& profiles) {
  std::vector<std::pair<std::string, std::string>> pool = {{"mode", "dynamic"}, {"size", std::to_string(lossless_pool)}, {"type", "ingress"}};
  if (headroom_pool > 0) pool.push_back({"xoff", std::to_string(headroom_pool)});
  std::string out = FieldTable("Pool: ingress_lossless_pool", pool);
  for (const MmuProfileView& p : profiles) {
    const int dynamic_th = static_cast<int>(std::lround(std::log2(p.alpha > 0 ? p.alpha : 1)));
    out += "\n" + FieldTable("Profile: pg_lossless_" + std::to_string(p.rate_bps / 1000000) + "_" +
                                 std::to_string(static_cast<long long>(std::lround(p.cable_m))) + "m_profile",
                             {{"xoff", std::to_string(p.headroom)},
                              {"dynamic_th", std::to_string(dynamic_th)},
                              {"pool", "[BUFFER_POOL|ingress_lossless_pool]"},
                              {"size", std::to_string(headroom_pool > 0 ? 0 : p.headroom)},
                              {"ports", p.ports}});
  }
  return out;
}

namespace {

// `sonic-cfggen -d --var-json TABLE`'s layout for a table with one key, AZURE: its fields in order.
std::string SonicCfgTable(const std::string& table, const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out = "{\n    \"" + table + "\": {\n        \"AZURE\": {\n";
  for (size_t i = 0; i < fields.size(); ++i)
    out += "            \"" + fields[i].first + "\": \"" + fields[i].second + "\"" + (i + 1 < fields.size() ? "," : "") + "\n";
  return out + "        }\n    }\n}\n";
}

}  // namespace

std::string ShowCableLength(const std::vector<std::pair<std::string, double>>& port_meters) {
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& [port, meters] : port_meters) fields.push_back({port, std::to_string(std::llround(meters)) + "m"});
  return SonicCfgTable("CABLE_LENGTH", fields);
}

std::string ShowDscpToTcMap(const JsonDocument& sw) {
  const JsonDocument& map = Member(Member(sw, "config"), "dscp_to_priority");
  std::vector<std::pair<std::string, std::string>> fields;
  for (int d = 0; d < 64; ++d) fields.push_back({std::to_string(d), std::to_string(static_cast<int>(Num(map, std::to_string(d))))});
  return SonicCfgTable("DSCP_TO_TC_MAP", fields);
}

std::string EthtoolS(const JsonDocument& host) {
  std::string out = "NIC statistics:\n";
  for (const auto& [name, v] : Member(host, "ethtool").items())
    if (v.is_number()) out += "     " + name + ": " + std::to_string(static_cast<unsigned long long>(v.get<double>())) + "\n";
  return out;
}

std::string RdmaStatistic(const JsonDocument& host) {
  const JsonDocument& dev = Member(host, "rdma_device");
  std::string out = "link " + (dev.is_string() ? dev.get<std::string>() : std::string("mlx5_0")) + "/1";
  for (const auto& [name, v] : Member(host, "hw_counters").items())
    if (v.is_number()) out += " " + name + " " + std::to_string(static_cast<unsigned long long>(v.get<double>()));
  return out + "\n";
}

std::string MlnxQos(const JsonDocument& host) {
  const JsonDocument& config = Member(host, "config");
  const JsonDocument& trust = Member(config, "trust");
  std::array<int, 64> prio_of{};
  for (int d = 0; d < 64; ++d) prio_of[d] = static_cast<int>(Num(Member(config, "dscp_to_priority"), std::to_string(d)));
  std::array<bool, 8> pfc{};
  for (const auto& p : Member(config, "pfc_priorities"))
    if (p.is_number_integer() && p.get<int>() >= 0 && p.get<int>() < 8) pfc[p.get<int>()] = true;
  std::string out = "DCBX mode: OS controlled\nPriority trust state: " +
                    (trust.is_string() ? trust.get<std::string>() : std::string("pcp")) + "\ndscp2prio mapping:\n";
  for (int prio = 0; prio < 8; ++prio) {
    out += "        prio:" + std::to_string(prio) + " dscp:";
    for (int d = 63; d >= 0; --d)
      if (prio_of[d] == prio) out += (d < 10 ? "0" : "") + std::to_string(d) + ",";
    out += "\n";
  }
  out += "Cable len: 7\nPFC configuration:\n        priority    0   1   2   3   4   5   6   7\n        enabled     ";
  for (int p = 0; p < 8; ++p) out += std::string(pfc[p] ? "1" : "0") + "   ";
  out += "\n";
  for (int tc = 0; tc < 8; ++tc)
    out += "tc: " + std::to_string(tc) + " ratelimit: unlimited, tsa: vendor\n         priority:  " + std::to_string(tc) + "\n";
  return out;
}

}  // namespace rocelab
