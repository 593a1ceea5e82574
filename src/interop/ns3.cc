#include "interop/ns3.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "net/fabric.h"
#include "util/config_error.h"
#include "util/text_file.h"
#include "util/text_lines.h"
#include "util/units.h"

namespace rocelab {

namespace {

std::string ReadAll(const std::string& path, const std::string& from_file, int from_line, const std::string& key) {
  std::string text, err;
  if (!ReadTextFile(path, &text, &err)) throw ConfigError(from_file, from_line, key, "'" + path + "': " + err);
  return text;
}

std::string Dir(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

std::string Resolve(const std::string& base_dir, const std::string& p) { return !p.empty() && p[0] == '/' ? p : base_dir + p; }

// "100Gbps", "1000ns", "50Mb/s": that simulator's units.
bool ParseNs3Rate(std::string s, uint64_t* bps) {
  for (const char* suffix : {"b/s", "bps"}) {
    size_t n = std::char_traits<char>::length(suffix);
    if (s.size() > n && s.compare(s.size() - n, n, suffix) == 0) s = s.substr(0, s.size() - n) + "bps";
  }
  std::string err;
  return ParseRate(s, bps, &err);
}

struct Tokens {
  std::vector<std::string> w;
  int line;
};

std::vector<Tokens> Lines(const std::string& text) {
  std::vector<Tokens> out;
  for (const TextLine& l : NumberedLines(text)) {
    Tokens t{Words(l.text), l.number};
    if (!t.w.empty()) out.push_back(std::move(t));
  }
  return out;
}

int64_t Int(const std::string& s, const std::string& file, int line, const std::string& key) {
  int64_t v;
  std::string err;
  if (!ParseInteger(s, &v, &err)) throw ConfigError(file, line, key, "'" + s + "' is not a whole number");
  return v;
}

double Num(const std::string& s, const std::string& file, int line, const std::string& key) {
  double v;
  std::string err;
  if (!ParseNumber(s, &v, &err)) throw ConfigError(file, line, key, "'" + s + "' is not a number");
  return v;
}

// Seconds to nanoseconds as that simulator converts them: the exact value of the
// double times 10^9 (its 128-bit fixed-point arithmetic), truncated. 2.000004819 is
// stored as 2.0000048189999998..., so the flow starts at 2000004818 ns.
int64_t SecondsToNs(double s) {
  if (s <= 0) return 0;
  int exp = 0;
  const double frac = std::frexp(s, &exp);  // s = frac x 2^exp, frac in [0.5, 1)
  const uint64_t m = static_cast<uint64_t>(std::ldexp(frac, 53));
  const int shift = 53 - exp;
  const unsigned __int128 p = static_cast<unsigned __int128>(m) * 1000000000u;
  return static_cast<int64_t>(shift >= 0 ? p >> shift : p << -shift);
}

// The config file: its keys, each checked against the keys rocelab reads or knowingly ignores.
struct Ns3ConfigFile {
  std::string path, dir;
  std::map<std::string, Tokens> kv;

  explicit Ns3ConfigFile(const std::string& config_path) : path(config_path), dir(Dir(config_path)) {
    const std::string text = ReadAll(path, path, 0, "");
    // Keys it honours, and keys that only steer that simulator's tracing or other CC modes.
    static const std::set<std::string> kHonoured = {
        "ENABLE_QCN", "USE_DYNAMIC_PFC_THRESHOLD", "PACKET_PAYLOAD_SIZE", "TOPOLOGY_FILE", "FLOW_FILE", "FCT_OUTPUT_FILE",
        "SIMULATOR_STOP_TIME", "CC_MODE", "ALPHA_RESUME_INTERVAL", "RATE_DECREASE_INTERVAL", "CLAMP_TARGET_RATE", "RP_TIMER",
        "EWMA_GAIN", "FAST_RECOVERY_TIMES", "RATE_AI", "RATE_HAI", "MIN_RATE", "ERROR_RATE_PER_LINK", "L2_CHUNK_SIZE",
        "L2_ACK_INTERVAL", "L2_BACK_TO_ZERO", "HAS_WIN", "ACK_HIGH_PRIO", "LINK_DOWN", "KMAX_MAP", "KMIN_MAP", "PMAX_MAP",
        "BUFFER_SIZE"};
    static const std::set<std::string> kIgnored = {
        "TRACE_FILE", "TRACE_OUTPUT_FILE", "PFC_OUTPUT_FILE", "ENABLE_TRACE", "QLEN_MON_FILE", "QLEN_MON_START", "QLEN_MON_END",
        "GLOBAL_T", "VAR_WIN", "FAST_REACT", "U_TARGET", "MI_THRESH", "INT_MULTI", "MULTI_RATE", "SAMPLE_FEEDBACK",
        "PINT_LOG_BASE", "PINT_PROB", "RATE_BOUND", "DCTCP_RATE_AI"};
    for (const Tokens& t : Lines(text)) {
      const std::string& key = t.w[0];
      if (!kHonoured.count(key) && !kIgnored.count(key))
        throw ConfigError(path, t.line, key, "unknown key (docs/ns3-interop.md lists the keys rocelab reads)");
      if (t.w.size() < 2) throw ConfigError(path, t.line, key, "has no value");
      kv[key] = t;
    }
  }
  const Tokens* Get(const char* key) const {
    auto it = kv.find(key);
    return it == kv.end() ? nullptr : &it->second;
  }
  const Tokens& Require(const char* key) const {
    const Tokens* t = Get(key);
    if (!t) throw ConfigError(path, 0, key, "is required");
    return *t;
  }
  double Num(const char* key, double fallback) const {
    const Tokens* t = Get(key);
    return t ? rocelab::Num(t->w[1], path, t->line, key) : fallback;
  }
  uint64_t Rate(const char* key, uint64_t fallback) const {
    const Tokens* t = Get(key);
    if (!t) return fallback;
    uint64_t v;
    if (!ParseNs3Rate(t->w[1], &v)) throw ConfigError(path, t->line, key, "'" + t->w[1] + "' is not a rate such as 50Mb/s");
    return v;
  }
  void RefuseUnless(const char* key, double wanted, const std::string& why) const {
    const Tokens* t = Get(key);
    if (t && rocelab::Num(t->w[1], path, t->line, key) != wanted) throw ConfigError(path, t->line, key, why);
  }
};

// Its NIC: payload, header accounting, receiver and DCQCN variant.
void ApplyNicProfile(const Ns3ConfigFile& cfg, Ns3Run* r) {
  Ns3Run& run = *r;
  Scenario& sc = run.scenario;
  NicSpec& nic = sc.nic;
  nic.dscp_to_priority = DefaultDscpMap();
  nic.mtu = run.payload;
  nic.data_header_bytes = 48;  // that simulator's per-packet header bytes (its standalone FCT counts 48)
  nic.reth_bytes = 0;
  nic.ack_bytes = 60;
  nic.cnp_bytes = 60;
  nic.ack_every = static_cast<int>(cfg.Num("L2_ACK_INTERVAL", 1));
  nic.nak_interval = 500 * kMicrosecond;  // its RdmaHw "NACK Generation Interval" default (not a config key)
  nic.adaptive_retransmission.enabled = false;  // that simulator has no adaptive retransmission
  // L2_BACK_TO_ZERO: 0 is go-back-N from the NAKed PSN, 1 back to the start of the L2_CHUNK_SIZE chunk
  // (as its rdma-hw.cc implements them; its key documentation has them the other way round).
  if (cfg.Num("L2_BACK_TO_ZERO", 0) != 0) {
    const double chunk = cfg.Num("L2_CHUNK_SIZE", 4000);
    if (chunk < run.payload) throw ConfigError(cfg.path, cfg.Get("L2_CHUNK_SIZE") ? cfg.Get("L2_CHUNK_SIZE")->line : 0,
                                               "L2_CHUNK_SIZE", "must be at least one packet payload");
    nic.back_to_chunk = static_cast<uint32_t>(chunk / run.payload);
  }
  // ENABLE_QCN turns its switches' ECN marking on, and so the congestion control CC_MODE names.
  const double mode = cfg.Num("CC_MODE", 1);
  nic.cc = cfg.Num("ENABLE_QCN", 1) == 0 ? NicSpec::Cc::kNone
           : mode == 8                   ? NicSpec::Cc::kDctcp
           : mode == 7                   ? NicSpec::Cc::kTimely
           : mode == 3                   ? NicSpec::Cc::kHpcc
                                         : NicSpec::Cc::kDcqcn;
  // Its INT header (int-header.h GetStaticSize) rides every data packet (SeqTsHeader, 6 B + it)
  // and every ACK (qbbHeader, 12 B + it; an ACK is padded to 60 B): HPCC's 42 B of hop records,
  // which the transport adds (cc/int_hop.h), and TIMELY's 8 B timestamp.
  if (nic.cc == NicSpec::Cc::kTimely) nic.data_header_bytes = 48 + 8;
  if (nic.cc == NicSpec::Cc::kHpcc) nic.ack_bytes = 14 + 20 + 12;  // 88 B with the records
  // Its sending window (third.cc): HAS_WIN and GLOBAL_T default to 1, VAR_WIN to 0.
  nic.window.enabled = cfg.Num("HAS_WIN", 1) != 0;
  nic.window.scale_with_rate = cfg.Num("VAR_WIN", 0) != 0;
  nic.window.longest_base_rtt = cfg.Num("GLOBAL_T", 1) != 0;
  // Its HPCC (rdma-hw.cc UpdateRateHp), with third.cc's defaults for what the file leaves out;
  // its records in its own units (cc/int_hop.h).
  HpccParams& hp = nic.hpcc;
  hp.eta = cfg.Num("U_TARGET", 0.95);
  hp.max_stage = static_cast<int>(cfg.Num("MI_THRESH", 5));
  hp.fast_react = cfg.Num("FAST_REACT", 1) != 0;
  hp.sample_feedback = cfg.Num("SAMPLE_FEEDBACK", 0) != 0;
  hp.rate_ai_bps = cfg.Rate("RATE_AI", 5000000);
  hp.min_rate_bps = cfg.Rate("MIN_RATE", 100000000);
  hp.int_multi = static_cast<uint32_t>(cfg.Num("INT_MULTI", 1));
  hp.int_format = IntFormat::Kind::kNs3;
  // Its DCTCP (rdma-hw.cc HandleAckDctcp): alpha's gain EWMA_GAIN, DCTCP_RATE_AI per window, MIN_RATE.
  nic.dctcp.g = cfg.Num("EWMA_GAIN", 1.0 / 256);
  nic.dctcp.rate_ai_bps = cfg.Rate("DCTCP_RATE_AI", 1000000000);
  nic.dctcp.min_rate_bps = cfg.Rate("MIN_RATE", 100000000);
  // Its TIMELY (rdma-hw.cc UpdateRateTimely) steps by RATE_AI, and by RATE_HAI from the fifth
  // increase in a row; its alpha, beta and thresholds are its attributes' defaults, ours too.
  nic.timely.rate_ai_bps = cfg.Rate("RATE_AI", 5000000);
  nic.timely.rate_hai_bps = cfg.Rate("RATE_HAI", 50000000);
  nic.timely.min_rate_bps = cfg.Rate("MIN_RATE", 100000000);
  // ...counting every increase toward the hyper step, the one below T_low too, and taking it
  // from the sixth in a row (its m_incStage counts the increases before this one: < 5, R_AI).
  nic.timely.low_rtt_counts = true;
  nic.timely.hai_after = 6;
  DcqcnParams& d = nic.dcqcn;
  d = DcqcnMlx5Profile();
  d.profile = "ns3-hpcc";
  d.g = cfg.Num("EWMA_GAIN", 1.0 / 256);
  d.alpha_update_period = static_cast<Time>(cfg.Num("ALPHA_RESUME_INTERVAL", 55) * kMicrosecond);
  d.initial_alpha = 1.0;
  d.rate_reduce_period = static_cast<Time>(cfg.Num("RATE_DECREASE_INTERVAL", 4) * kMicrosecond);
  d.rate_increase_period = static_cast<Time>(cfg.Num("RP_TIMER", 1500) * kMicrosecond);
  d.byte_counter = 0;  // its DCQCN increases on the timer only
  d.fast_recovery_stages = static_cast<int>(cfg.Num("FAST_RECOVERY_TIMES", 5));
  d.ai_rate_bps = cfg.Rate("RATE_AI", 5000000);
  d.hai_rate_bps = cfg.Rate("RATE_HAI", 50000000);
  d.min_rate_bps = cfg.Rate("MIN_RATE", 100000000);
  d.min_dec_factor = 0;
  d.alpha_to_rate_shift = 1;
  d.clamp_target_rate = cfg.Num("CLAMP_TARGET_RATE", 0) != 0;
  d.clamp_target_after_time_inc = true;
  d.min_time_between_cnps = 0;  // it echoes congestion on every ACK; the RP limits cuts by RATE_DECREASE_INTERVAL
  nic.cnp_on_ack = true;  // it echoes CE on the per-packet ACK; there is no separate CNP
  nic.ack_high_priority = cfg.Num("ACK_HIGH_PRIO", 0) != 0;
  nic.coalesce_acks = false;  // its NIC queues an ACK for every ACKed packet

}

// Its switches: buffer, ECN per link speed, its MMU and PFC.
void ApplySwitchProfile(const Ns3ConfigFile& cfg, Scenario* s) {
  Scenario& sc = *s;
  const NicSpec& nic = sc.nic;
  SwitchSpec& sw = sc.sw;
  sw.dscp_to_priority = DefaultDscpMap();
  sw.buffer = static_cast<uint64_t>(cfg.Num("BUFFER_SIZE", 32) * 1024 * 1024);
  sw.ecn.enabled = nic.cc != NicSpec::Cc::kNone;
  // Its PFC: pause until resume (no quanta expiry), resume 3 KB below the pause threshold.
  // Both ends follow it: a NIC that let a pause expire would send into a switch that never
  // refreshes its pause and still needs it (the resume would overflow that port's headroom).
  sw.pfc.expiry = false;
  sc.nic.pause_expiry = false;
  sw.pfc.xon_offset = 3 * 1024;
  // Its switch MMU (switch-mmu.cc), which counts bytes, not cells.
  sw.mmu = SwitchSpec::Mmu::kNs3Hpcc;
  sw.cell = 1;
  // A received pause stops the priority at once (qbb-net-device.cc), at the next frame boundary.
  sw.pfc.response_time = 0;
  sc.nic.pause_response = 0;
  const Tokens* kmax = cfg.Get("KMAX_MAP");
  const Tokens* kmin = cfg.Get("KMIN_MAP");
  const Tokens* pmax = cfg.Get("PMAX_MAP");
  if (kmax && kmin && pmax) {
    auto entries = [&](const Tokens& t, const char* key) {
      const int64_t n = Int(t.w[1], cfg.path, t.line, key);
      if (n < 1 || static_cast<int64_t>(t.w.size()) != 2 + 2 * n)
        throw ConfigError(cfg.path, t.line, key, "expected a count then that many 'rate value' pairs");
      std::vector<std::pair<uint64_t, double>> v;
      for (int64_t i = 0; i < n; ++i)
        v.push_back({static_cast<uint64_t>(Num(t.w[2 + 2 * i], cfg.path, t.line, key)),
                     Num(t.w[3 + 2 * i], cfg.path, t.line, key)});
      return v;
    };
    auto a = entries(*kmax, "KMAX_MAP"), b = entries(*kmin, "KMIN_MAP"), c = entries(*pmax, "PMAX_MAP");
    if (a.size() != b.size() || a.size() != c.size())
      throw ConfigError(cfg.path, kmin->line, "KMIN_MAP", "KMIN_MAP, KMAX_MAP and PMAX_MAP must list the same rates");
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].first != b[i].first || a[i].first != c[i].first)
        throw ConfigError(cfg.path, kmin->line, "KMIN_MAP", "KMIN_MAP, KMAX_MAP and PMAX_MAP must list the same rates");
      EcnSpec e = sw.ecn;
      e.rate_bps = a[i].first;
      e.kmin = static_cast<uint64_t>(b[i].second * 1000);  // its maps count KB of 1000 B
      e.kmax = static_cast<uint64_t>(a[i].second * 1000);
      e.pmax = c[i].second;
      sw.ecn_by_rate.push_back(e);
    }
  }

}

// The topology file: hosts become h<id>, switches s<id>. Returns which node ids are switches.
std::vector<bool> ReadTopologyFile(const Ns3ConfigFile& cfg, Ns3Run* r) {
  Ns3Run& run = *r;
  Scenario& sc = run.scenario;
  SwitchSpec& sw = sc.sw;
  const Tokens& topo_key = cfg.Require("TOPOLOGY_FILE");
  const std::string topo_path = Resolve(cfg.dir, topo_key.w[1]);
  std::vector<Tokens> tl = Lines(ReadAll(topo_path, cfg.path, topo_key.line, "TOPOLOGY_FILE"));
  if (tl.empty() || tl[0].w.size() != 3) throw ConfigError(topo_path, 1, "", "expected 'node_count switch_count link_count'");
  const int64_t nodes = Int(tl[0].w[0], topo_path, tl[0].line, ""), switches = Int(tl[0].w[1], topo_path, tl[0].line, ""),
                links = Int(tl[0].w[2], topo_path, tl[0].line, "");
  if (nodes < 2 || switches < 0 || switches >= nodes || links < 1 || nodes > 1000000)
    throw ConfigError(topo_path, tl[0].line, "", "node, switch and link counts out of range");
  if (static_cast<int64_t>(tl.size()) != 2 + links)
    throw ConfigError(topo_path, tl.back().line, "", "the file has " + std::to_string(tl.size() > 2 ? tl.size() - 2 : 0) +
                                                         " link lines, the header says " + std::to_string(links));
  std::vector<bool> is_switch(static_cast<size_t>(nodes), false);
  if (static_cast<int64_t>(tl[1].w.size()) != switches)
    throw ConfigError(topo_path, tl[1].line, "", "expected " + std::to_string(switches) + " switch ids");
  for (const std::string& w : tl[1].w) {
    int64_t id = Int(w, topo_path, tl[1].line, "");
    if (id < 0 || id >= nodes) throw ConfigError(topo_path, tl[1].line, "", "switch id " + w + " out of range");
    is_switch[id] = true;
  }
  TopologySpec& t = sc.topology;
  t.type = TopologySpec::Type::kExplicit;
  // Nodes in its id order, and its ECMP: the same next hops in the same order, chosen by the
  // same hash (switch-node.cc), so every flow takes the path it takes there.
  t.next_hop_order = TopologySpec::NextHopOrder::kNs3;
  sc.ecmp.hash = EcmpSpec::Hash::kNs3Hpcc;
  for (int64_t id = 0; id < nodes; ++id) {
    const uint32_t uid = static_cast<uint32_t>(id);
    if (is_switch[id]) {
      t.nodes.push_back({"s" + std::to_string(id), true, tl[1].line});
      sc.ecmp.switch_seed.push_back(uid);  // m_ecmpSeed = its node id
    } else {
      t.nodes.push_back({"h" + std::to_string(id), false, tl[0].line});
      run.host_node_ids.push_back(static_cast<int>(id));
      sc.ecmp.host_ipv4.push_back(Ns3HostIpv4(uid));
    }
  }
  for (size_t i = 2; i < tl.size(); ++i) {
    const Tokens& l = tl[i];
    if (l.w.size() != 5) throw ConfigError(topo_path, l.line, "", "expected 'src dst rate delay error_rate'");
    const int64_t a = Int(l.w[0], topo_path, l.line, ""), b = Int(l.w[1], topo_path, l.line, "");
    if (a < 0 || a >= nodes || b < 0 || b >= nodes || a == b) throw ConfigError(topo_path, l.line, "", "node id out of range");
    TopologySpec::Link link;
    link.line = l.line;
    link.a = {(is_switch[a] ? "s" : "h") + std::to_string(a), l.line, ""};
    link.b = {(is_switch[b] ? "s" : "h") + std::to_string(b), l.line, ""};
    if (!ParseNs3Rate(l.w[2], &link.spec.rate_bps)) throw ConfigError(topo_path, l.line, "", "bad rate '" + l.w[2] + "'");
    std::string err;
    if (!ParseTime(l.w[3], &link.spec.delay, &err)) throw ConfigError(topo_path, l.line, "", "bad delay: " + err);
    if (Num(l.w[4], topo_path, l.line, "") != 0)
      throw ConfigError(topo_path, l.line, "", "link error rates are not supported by the compatibility profile yet");
    t.links.push_back(link);
    // third.cc takes the NIC rate its alpha shifts count from from the first host's link.
    if (sw.mmu_nic_rate_bps == 0 && (!is_switch[a] || !is_switch[b])) sw.mmu_nic_rate_bps = link.spec.rate_bps;
  }

  return is_switch;
}

// The flow file: one WRITE per line, source ports numbered as that simulator numbers them.
void ReadFlowFile(const Ns3ConfigFile& cfg, const std::vector<bool>& is_switch, double stop_s, Ns3Run* r) {
  Ns3Run& run = *r;
  Scenario& sc = run.scenario;
  const int64_t nodes = static_cast<int64_t>(is_switch.size());
  const Tokens& flow_key = cfg.Require("FLOW_FILE");
  const std::string flow_path = Resolve(cfg.dir, flow_key.w[1]);
  std::vector<Tokens> fl = Lines(ReadAll(flow_path, cfg.path, flow_key.line, "FLOW_FILE"));
  if (fl.empty() || fl[0].w.size() != 1) throw ConfigError(flow_path, 1, "", "expected the number of flows on the first line");
  const int64_t count = Int(fl[0].w[0], flow_path, fl[0].line, "");
  if (count < 0 || static_cast<int64_t>(fl.size()) - 1 != count)
    throw ConfigError(flow_path, fl[0].line, "", "the first line says " + fl[0].w[0] + " flows, the file has " +
                                                     std::to_string(fl.size() - 1));
  std::map<std::pair<int64_t, int64_t>, uint16_t> next_port;
  for (size_t i = 1; i < fl.size(); ++i) {
    const Tokens& f = fl[i];
    if (f.w.size() != 6) throw ConfigError(flow_path, f.line, "", "expected 'src dst priority dport size start_time'");
    const int64_t src = Int(f.w[0], flow_path, f.line, ""), dst = Int(f.w[1], flow_path, f.line, "");
    for (int64_t n : {src, dst})
      if (n < 0 || n >= nodes || is_switch[n]) throw ConfigError(flow_path, f.line, "", "no host with node id " + std::to_string(n));
    if (src == dst) throw ConfigError(flow_path, f.line, "", "a flow needs two different hosts");
    const int64_t prio = Int(f.w[2], flow_path, f.line, "");
    if (prio < 0 || prio > 7) throw ConfigError(flow_path, f.line, "", "priority must be 0 to 7");
    const int64_t dport = Int(f.w[3], flow_path, f.line, "");
    if (dport < 1 || dport > 65535) throw ConfigError(flow_path, f.line, "", "destination port must be 1 to 65535");
    const int64_t size = Int(f.w[4], flow_path, f.line, "");
    if (size < 1) throw ConfigError(flow_path, f.line, "", "flow size must be at least 1 byte");
    const double start = Num(f.w[5], flow_path, f.line, "");
    if (start < 0 || start > stop_s) throw ConfigError(flow_path, f.line, "", "start time outside the simulated time");
    FlowSpec fs;
    fs.src = {"h" + std::to_string(src), f.line, ""};
    fs.dst = {"h" + std::to_string(dst), f.line, ""};
    fs.size = static_cast<uint64_t>(size);
    fs.start = static_cast<Time>(SecondsToNs(start)) * kNanosecond;
    fs.dscp = prio == 3 ? kRoceDscp : static_cast<uint8_t>(prio * 8);
    fs.line = f.line;
    sc.flows.push_back(fs);
    // It numbers source ports per (src, dst) pair from 10000 upward.
    uint16_t& port = next_port.emplace(std::make_pair(src, dst), 10000).first->second;
    sc.flows.back().udp_sport = port++;
    sc.flows.back().udp_dport = static_cast<uint16_t>(dport);
  }
}

}  // namespace

Ns3Run LoadNs3Config(const std::string& config_path) {
  const Ns3ConfigFile cfg(config_path);
  if (const Tokens* t = cfg.Get("CC_MODE")) {
    const double mode = Num(t->w[1], cfg.path, t->line, "CC_MODE");
    if (mode != 1 && mode != 3 && mode != 7 && mode != 8)
      throw ConfigError(cfg.path, t->line, "CC_MODE",
                        "only CC_MODE 1 (DCQCN), 3 (HPCC), 7 (TIMELY) and 8 (DCTCP) are supported by the compatibility "
                        "profile so far");
    if (mode == 7) cfg.RefuseUnless("FAST_REACT", 0, "TIMELY's per-ACK reaction (FAST_REACT 1) is not modelled: set it to 0");
    // HPCC's per-hop rates (MULTI_RATE 1, third.cc's default) are not modelled: one rate per QP.
    if (mode == 3 && cfg.Num("MULTI_RATE", 1) != 0)
      throw ConfigError(cfg.path, cfg.Get("MULTI_RATE") ? cfg.Get("MULTI_RATE")->line : t->line, "MULTI_RATE",
                        "HPCC's per-hop rates (MULTI_RATE 1, the default) are not modelled: set it to 0");
    if (mode == 3) {
      const double multi = cfg.Num("INT_MULTI", 1);
      if (multi < 1 || multi > 64 || multi != static_cast<int>(multi))
        throw ConfigError(cfg.path, cfg.Get("INT_MULTI")->line, "INT_MULTI", "must be a whole number from 1 to 64");
    }
  }
  cfg.RefuseUnless("RATE_BOUND", 1, "senders not paced by their rate (RATE_BOUND 0) are not modelled: set it to 1");
  cfg.RefuseUnless("ERROR_RATE_PER_LINK", 0, "link error rates are not supported by the compatibility profile yet");
  if (const Tokens* t = cfg.Get("LINK_DOWN"))
    if (t->w.size() != 4 || t->w[1] != "0" || t->w[2] != "0" || t->w[3] != "0")
      throw ConfigError(cfg.path, t->line, "LINK_DOWN", "link-down events are not supported yet (use 0 0 0)");

  Ns3Run run;
  Scenario& sc = run.scenario;
  sc.file = cfg.path;
  sc.name = "ns3:" + cfg.path;
  sc.wire_overhead = 0;
  // Its clock counts whole nanoseconds and converts each transmission time (and each pacing
  // gap) from seconds by truncation: a 1,048 B frame takes 83 ns at 100G, 20 ns at 400G.
  sc.serialization_grain = kNanosecond;
  run.payload = static_cast<uint32_t>(cfg.Num("PACKET_PAYLOAD_SIZE", 1000));
  if (run.payload < 64 || run.payload > 9000)
    throw ConfigError(cfg.path, cfg.Get("PACKET_PAYLOAD_SIZE")->line, "PACKET_PAYLOAD_SIZE", "must be 64 to 9000");
  const double stop_s = cfg.Num("SIMULATOR_STOP_TIME", 4.0);
  sc.duration = static_cast<Time>(stop_s * 1e12);
  if (const Tokens* t = cfg.Get("FCT_OUTPUT_FILE")) {
    const std::string& p = t->w[1];
    size_t slash = p.find_last_of('/');
    run.fct_file_name = slash == std::string::npos ? p : p.substr(slash + 1);
  }

  ApplyNicProfile(cfg, &run);
  ApplySwitchProfile(cfg, &sc);
  const std::vector<bool> is_switch = ReadTopologyFile(cfg, &run);
  ReadFlowFile(cfg, is_switch, stop_s, &run);
  return run;
}

uint64_t Ns3StandaloneFct(const Fabric& fabric, int src, int dst, uint64_t size, uint32_t payload) {
  const std::vector<const LinkSpec*> path = fabric.topology().PathLinks(src, dst);
  if (path.empty()) return 0;
  double base_ns = 0, min_rate = 1e30;
  for (const LinkSpec* l : path) {
    base_ns += 2.0 * static_cast<double>(l->delay) / kNanosecond + payload * 8e9 / static_cast<double>(l->rate_bps);
    min_rate = std::min(min_rate, static_cast<double>(l->rate_bps));
  }
  const uint64_t packets = (size + payload - 1) / payload;
  const double bytes = static_cast<double>(size + packets * 48);
  return static_cast<uint64_t>(base_ns + bytes * 8e9 / min_rate);
}

std::string Ns3FctText(const Fabric& fabric, const Ns3Run& run) {
  std::string out;
  char buf[160];
  for (size_t i = 0; i < fabric.qps().size(); ++i) {
    const QueuePair& qp = fabric.qps()[i];
    if (!qp.done) continue;  // that simulator writes a line when a flow finishes
    auto ip = [&](uint32_t host) { return Ns3HostIpv4(static_cast<uint32_t>(run.host_node_ids[host])); };
    const uint64_t start_ns = static_cast<uint64_t>(qp.start / kNanosecond);
    const uint64_t fct_ns = static_cast<uint64_t>((qp.finish - qp.start) / kNanosecond);
    std::snprintf(buf, sizeof buf, "%08x %08x %u %u %llu %llu %llu %llu\n", ip(qp.src), ip(qp.dst), qp.udp_sport, qp.udp_dport,
                  (unsigned long long)qp.size, (unsigned long long)start_ns, (unsigned long long)fct_ns,
                  (unsigned long long)Ns3StandaloneFct(fabric, static_cast<int>(qp.src), static_cast<int>(qp.dst), qp.size,
                                                       run.payload));
    out += buf;
  }
  return out;
}

}  // namespace rocelab
