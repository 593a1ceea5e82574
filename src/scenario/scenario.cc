#include "scenario/scenario.h"

#include <fstream>
#include <set>
#include <sstream>

#include "scenario/config_reader.h"
#include "topo/topology.h"
#include "util/config_error.h"
#include "util/text_file.h"
#include "util/units.h"
#include "util/yaml.h"

namespace rocelab {

std::array<uint8_t, 64> DefaultDscpMap() {
  std::array<uint8_t, 64> m{};
  m[26] = 3;  // RoCE data (NVIDIA's RoCE default: DSCP 26 on priority 3)
  m[48] = 6;  // CNP (mlx5 cnp_dscp 48, cnp_802p_prio 6)
  return m;
}

namespace {

void ReadLink(ConfigReader& parent, const char* key, LinkSpec* link) {
  const YamlNode* n = parent.Get(key);
  if (!n) return;
  ConfigReader r(parent.file(), *n, parent.PathOf(key));
  r.Rate("rate", &link->rate_bps);
  if (r.Has("delay") && r.Has("length")) r.Fail("length", "give either delay or length, not both");
  r.Duration("delay", &link->delay, 0, 1 * kSecond);
  double meters = 0;
  if (const YamlNode* len = r.Get("length")) {
    std::string err;
    if (!len->IsScalar()) r.Fail("length", "expected a length such as 5m");
    if (!ParseLength(len->scalar, &meters, &err)) r.Fail("length", err);
    // Light in fibre and copper: about 2e8 m/s, i.e. 5 ns per meter.
    link->delay = static_cast<Time>(meters * 5.0 * kNanosecond + 0.5);
  }
  r.Double("ber", &link->ber, 0.0, 1e-3);
  r.Finish();
}

void ReadDscpMap(ConfigReader& parent, const char* key, std::array<uint8_t, 64>* map) {
  const YamlNode* n = parent.Get(key);
  if (!n) return;
  if (!n->IsMap()) parent.Fail(key, "expected a mapping of DSCP: priority, e.g. {26: 3, 48: 6}");
  for (const auto& e : n->map) {
    std::string err;
    int64_t dscp, prio;
    std::string path = parent.PathOf(key) + "." + e.key;
    if (!ParseInteger(e.key, &dscp, &err) || dscp < 0 || dscp > 63)
      parent.FailAt(e.line, path, "DSCP must be a whole number from 0 to 63");
    if (!e.value.IsScalar() || !ParseInteger(e.value.scalar, &prio, &err) || prio < 0 || prio > 7)
      parent.FailAt(e.line, path, "priority must be a whole number from 0 to 7");
    (*map)[dscp] = static_cast<uint8_t>(prio);
  }
}

void ReadTrust(ConfigReader& r, bool* trust_dscp) {
  std::string trust;
  if (!r.String("trust", &trust)) return;
  if (trust == "dscp") *trust_dscp = true;
  else if (trust == "pcp") *trust_dscp = false;
  else r.Fail("trust", "'" + trust + "' should be dscp or pcp");
}

uint8_t PriorityMask(ConfigReader& r, const char* key, uint8_t current) {
  std::vector<int64_t> list;
  if (!r.IntList(key, &list, 0, 7)) return current;
  uint8_t m = 0;
  for (int64_t p : list) m |= static_cast<uint8_t>(1u << p);
  return m;
}

void ReadSwitch(ConfigReader& r, SwitchSpec* s) {
  r.Size("buffer", &s->buffer, 64 * 1024, 16ull << 30);
  uint64_t cell = s->cell;
  if (r.Size("cell", &cell, 1, 4096)) s->cell = static_cast<uint32_t>(cell);
  s->lossless_mask = PriorityMask(r, "lossless_priorities", s->lossless_mask);
  if (const YamlNode* n = r.Get("pfc")) {
    ConfigReader p(r.file(), *n, r.PathOf("pfc"));
    p.Bool("enabled", &s->pfc.enabled);
    if (const YamlNode* h = p.Get("headroom")) {
      if (h->IsScalar() && h->scalar == "auto") {
        s->pfc.headroom_auto = true;
      } else {
        s->pfc.headroom_auto = false;
        p.Size("headroom", &s->pfc.headroom, 0, 64ull << 20);
      }
    }
    p.Double("alpha", &s->pfc.alpha, 1.0 / 1024, 64.0);
    p.Size("xon_offset", &s->pfc.xon_offset, 0, 64ull << 20);
    int64_t q;
    if (p.Int("quanta", &q, 1, 65535)) s->pfc.quanta = static_cast<uint16_t>(q);
    if (const YamlNode* rt = p.Get("response_time")) {
      if (rt->IsScalar() && rt->scalar == "auto") s->pfc.response_time = -1;
      else p.Duration("response_time", &s->pfc.response_time, 0, 1 * kMillisecond);
    }
    p.Finish();
  }
  if (const YamlNode* n = r.Get("ecn")) {
    ConfigReader e(r.file(), *n, r.PathOf("ecn"));
    e.Bool("enabled", &s->ecn.enabled);
    e.Size("kmin", &s->ecn.kmin);
    e.Size("kmax", &s->ecn.kmax);
    e.Double("pmax", &s->ecn.pmax, 0.0, 1.0);
    std::string mark;
    if (e.String("mark", &mark)) {
      if (mark == "dequeue") s->ecn.mark_on_dequeue = true;
      else if (mark == "enqueue") s->ecn.mark_on_dequeue = false;
      else e.Fail("mark", "'" + mark + "' should be enqueue or dequeue");
    }
    if (s->ecn.kmax < s->ecn.kmin) e.Fail(e.Has("kmax") ? "kmax" : "kmin", "kmax must not be below kmin");
    e.Finish();
  }
  if (const YamlNode* n = r.Get("ets")) {
    ConfigReader e(r.file(), *n, r.PathOf("ets"));
    s->strict_mask = PriorityMask(e, "strict", s->strict_mask);
    std::vector<int64_t> w;
    if (e.IntList("weights", &w, 0, 100)) {
      if (w.size() != 8) e.Fail("weights", "expected 8 weights, one per queue");
      for (int i = 0; i < 8; ++i) s->ets_weights[i] = static_cast<uint32_t>(w[i]);
    }
    for (int q = 0; q < 8; ++q)
      if (!(s->strict_mask & (1u << q)) && s->ets_weights[q] == 0)
        e.Fail(e.Has("weights") ? "weights" : "strict", "queue " + std::to_string(q) + " is not strict and has weight 0");
    e.Finish();
  }
  if (const YamlNode* n = r.Get("pfc_watchdog")) {
    ConfigReader w(r.file(), *n, r.PathOf("pfc_watchdog"));
    w.Bool("enabled", &s->pfc_watchdog.enabled);
    // sonic-utilities pfcwd ranges: detection 100-5000 ms, restoration 100-60000 ms.
    w.Duration("detection_time", &s->pfc_watchdog.detection_time, 100 * kMillisecond, 5000 * kMillisecond);
    w.Duration("restoration_time", &s->pfc_watchdog.restoration_time, 100 * kMillisecond, 60000 * kMillisecond);
    std::string action;
    if (w.String("action", &action)) {
      if (action != "drop" && action != "forward" && action != "alert") w.Fail("action", "'" + action + "' should be drop, forward or alert");
      s->pfc_watchdog.action = action;
    }
    w.Finish();
  }
  ReadTrust(r, &s->trust_dscp);
  ReadDscpMap(r, "dscp_to_priority", &s->dscp_to_priority);
  r.Double("lossy_alpha", &s->lossy_alpha, 1.0 / 1024, 64.0);
  int64_t mtu;
  if (r.Int("mtu", &mtu, 1500, 9216)) s->mtu = static_cast<uint32_t>(mtu);
}

void ReadDcqcn(ConfigReader& d, DcqcnParams* p) {
  std::string profile;
  if (d.String("profile", &profile)) {
    if (!DcqcnProfileByName(profile, p)) d.Fail("profile", "'" + profile + "' should be mlx5 or paper");
  }
  d.Double("g", &p->g, 0.0, 1.0);
  d.Duration("alpha_update_period", &p->alpha_update_period, 1 * kNanosecond, 1 * kSecond);
  d.Double("initial_alpha", &p->initial_alpha, 0.0, 1.0);
  d.Duration("rate_reduce_period", &p->rate_reduce_period, 0, 1 * kSecond);
  d.Duration("rate_increase_period", &p->rate_increase_period, 1 * kNanosecond, 1 * kSecond);
  d.Size("byte_counter", &p->byte_counter);
  int64_t f;
  if (d.Int("fast_recovery_stages", &f, 0, 1000)) p->fast_recovery_stages = static_cast<int>(f);
  d.Rate("ai_rate", &p->ai_rate_bps);
  d.Rate("hai_rate", &p->hai_rate_bps);
  d.Rate("min_rate", &p->min_rate_bps);
  d.Double("min_dec_factor", &p->min_dec_factor, 0.0, 1.0);
  d.Bool("clamp_target_rate", &p->clamp_target_rate);
  d.Duration("min_time_between_cnps", &p->min_time_between_cnps, 0, 1 * kSecond);
  d.Finish();
}

void ReadNic(ConfigReader& r, NicSpec* n) {
  int64_t v;
  if (r.Int("mtu", &v, 256, 4096)) {
    if (v != 256 && v != 512 && v != 1024 && v != 2048 && v != 4096)
      r.Fail("mtu", "RoCE MTU must be 256, 512, 1024, 2048 or 4096");
    n->mtu = static_cast<uint32_t>(v);
  }
  std::string cc;
  if (r.String("cc", &cc)) {
    if (cc == "none") n->cc = NicSpec::Cc::kNone;
    else if (cc == "dcqcn") n->cc = NicSpec::Cc::kDcqcn;
    else r.Fail("cc", "'" + cc + "' should be none or dcqcn");
  }
  if (const YamlNode* d = r.Get("dcqcn")) {
    ConfigReader dr(r.file(), *d, r.PathOf("dcqcn"));
    ReadDcqcn(dr, &n->dcqcn);
  }
  if (r.Int("ack_every", &v, 1, 1024)) n->ack_every = static_cast<int>(v);
  if (r.Int("timeout", &v, 1, 31)) n->timeout = static_cast<int>(v);
  if (r.Int("retry_count", &v, 0, 7)) n->retry_count = static_cast<int>(v);
  if (r.Int("back_to_chunk", &v, 0, 65536)) n->back_to_chunk = static_cast<uint32_t>(v);
  r.Size("rx_buffer", &n->rx_buffer, 16 * 1024, 1ull << 30);
  if (const YamlNode* d = r.Get("rx_drain_rate")) {
    if (d->IsScalar() && d->scalar == "unlimited") n->rx_drain_rate = 0;
    else {
      std::string err;
      if (!d->IsScalar() || !ParseRate(d->scalar, &n->rx_drain_rate, &err)) r.Fail("rx_drain_rate", err);
    }
  }
  r.Size("rx_xoff", &n->rx_xoff);
  r.Size("rx_xon", &n->rx_xon);
  r.Duration("processing_delay", &n->processing_delay, 0, 1 * kMillisecond);
  r.Bool("pfc", &n->pfc_enabled);
  n->lossless_mask = PriorityMask(r, "lossless_priorities", n->lossless_mask);
  ReadDscpMap(r, "dscp_to_priority", &n->dscp_to_priority);
  if (r.Int("cnp_dscp", &v, 0, 63)) n->cnp_dscp = static_cast<uint8_t>(v);
  ReadTrust(r, &n->trust_dscp);
}

void ReadTopology(ConfigReader& top, Scenario* sc) {
  const YamlNode* n = top.Get("topology");
  if (!n) top.Fail("topology", "is required");
  ConfigReader r(sc->file, *n, "topology");
  TopologySpec& t = sc->topology;
  std::string type;
  if (!r.String("type", &type)) r.Fail("type", "is required (spine-leaf, fat-tree or explicit)");
  int64_t v;
  if (type == "spine-leaf") {
    t.type = TopologySpec::Type::kSpineLeaf;
    if (r.Int("spines", &v, 1, 256)) t.spines = static_cast<int>(v);
    if (r.Int("leaves", &v, 1, 1024)) t.leaves = static_cast<int>(v);
    if (r.Int("hosts_per_leaf", &v, 1, 256)) t.hosts_per_leaf = static_cast<int>(v);
    ReadLink(r, "host_link", &t.host_link);
    t.fabric_link = t.host_link;
    t.fabric_link.ber = 0;
    ReadLink(r, "fabric_link", &t.fabric_link);
  } else if (type == "fat-tree") {
    t.type = TopologySpec::Type::kFatTree;
    if (r.Int("k", &v, 2, 64)) t.k = static_cast<int>(v);
    if (t.k % 2) r.Fail("k", "must be even");
    ReadLink(r, "link", &t.host_link);
    t.fabric_link = t.host_link;
    ReadLink(r, "host_link", &t.host_link);
    ReadLink(r, "fabric_link", &t.fabric_link);
  } else if (type == "explicit") {
    t.type = TopologySpec::Type::kExplicit;
    std::set<std::string> names;
    auto add_names = [&](const char* key, bool is_switch) {
      const YamlNode* list = r.Get(key);
      if (!list) return;
      if (!list->IsSeq()) r.Fail(key, "expected a list of names");
      for (const auto& item : list->seq) {
        if (!item.IsScalar()) r.FailAt(item.line, r.PathOf(key), "expected a name");
        if (!names.insert(item.scalar).second) r.FailAt(item.line, r.PathOf(key), "duplicate node '" + item.scalar + "'");
        t.nodes.push_back({item.scalar, is_switch, item.line});
      }
    };
    add_names("hosts", false);
    add_names("switches", true);
    LinkSpec defaults;
    ReadLink(r, "link", &defaults);
    const YamlNode* links = r.Get("links");
    if (!links || !links->IsSeq()) r.Fail("links", "expected a list of {a, b, rate, delay}");
    for (const auto& item : links->seq) {
      ConfigReader l(sc->file, item, "topology.links");
      TopologySpec::Link link;
      link.spec = defaults;
      link.line = item.line;
      if (!l.Name("a", &link.a)) l.Fail("a", "is required");
      if (!l.Name("b", &link.b)) l.Fail("b", "is required");
      l.Rate("rate", &link.spec.rate_bps);
      l.Duration("delay", &link.spec.delay, 0, 1 * kSecond);
      l.Double("ber", &link.spec.ber, 0.0, 1e-3);
      l.Finish();
      for (const NameRef* e : {&link.a, &link.b})
        if (!names.count(e->name)) throw ConfigError(sc->file, e->line, e->key, "no node named '" + e->name + "'");
      if (link.a.name == link.b.name) throw ConfigError(sc->file, link.line, "topology.links", "a link needs two different nodes");
      t.links.push_back(link);
    }
    if (t.nodes.empty()) r.Fail("hosts", "an explicit topology needs hosts and switches");
  } else {
    r.Fail("type", "'" + type + "' should be spine-leaf, fat-tree or explicit");
  }
  r.Finish();
}

uint8_t DscpForPriority(const std::array<uint8_t, 64>& map, int prio) {
  if (map[26] == prio) return 26;
  for (int d = 0; d < 64; ++d)
    if (map[d] == prio) return static_cast<uint8_t>(d);
  return 0xFF;
}

void ReadTrafficClass(ConfigReader& r, const Scenario& sc, uint8_t* dscp) {
  if (r.Has("priority") && r.Has("dscp")) r.Fail("dscp", "give either priority or dscp, not both");
  int64_t v;
  if (r.Int("dscp", &v, 0, 63)) *dscp = static_cast<uint8_t>(v);
  if (r.Int("priority", &v, 0, 7)) {
    const uint8_t d = DscpForPriority(sc.nic.dscp_to_priority, static_cast<int>(v));
    if (d == 0xFF) r.Fail("priority", "no DSCP maps to priority " + std::to_string(v) + " in the NIC's DSCP map");
    *dscp = d;
  }
}

void ReadHostList(ConfigReader& r, const char* key, std::vector<NameRef>* out) {
  const YamlNode* n = r.Get(key);
  if (!n) return;
  if (!n->IsSeq()) r.Fail(key, "expected a list of host names");
  for (const YamlNode& h : n->seq) {
    if (!h.IsScalar()) r.FailAt(h.line, r.PathOf(key), "expected host names");
    out->push_back({h.scalar, h.line, r.PathOf(key)});
  }
}

void ReadWorkload(ConfigReader& top, Scenario* sc) {
  const YamlNode* w = top.Get("workload");
  if (!w) return;
  if (!w->IsSeq()) top.Fail("workload", "expected a list of workload entries");
  for (size_t i = 0; i < w->seq.size(); ++i) {
    const YamlNode& item = w->seq[i];
    std::string path = "workload[" + std::to_string(i) + "]";
    ConfigReader r(sc->file, item, path);
    std::string type;
    if (!r.String("type", &type)) r.Fail("type", "is required (flow or permutation)");
    if (type == "flow" || type == "background") {
      FlowSpec f;
      f.line = item.line;
      if (type == "background") {
        f.background = true;
        f.dscp = 0;  // best effort: priority 0 under the default map
        std::string cc;
        if (r.String("cc", &cc) && cc != "newreno") r.Fail("cc", "'" + cc + "' should be newreno");
        r.Duration("rto", &f.rto, 1 * kMicrosecond, 10 * kSecond);
      }
      if (!r.Name("src", &f.src)) r.Fail("src", "is required");
      if (!r.Name("dst", &f.dst)) r.Fail("dst", "is required");
      if (!r.Size("size", &f.size, 1, 1ull << 40)) r.Fail("size", "is required");
      r.Duration("start", &f.start);
      ReadTrafficClass(r, *sc, &f.dscp);
      sc->flows.push_back(f);
    } else if (type == "permutation") {
      PermutationSpec p;
      p.line = item.line;
      if (!r.Size("size", &p.size, 1, 1ull << 40)) r.Fail("size", "is required");
      r.Duration("start", &p.start);
      ReadTrafficClass(r, *sc, &p.dscp);
      sc->permutations.push_back(p);
    } else if (type == "incast") {
      IncastSpec in;
      in.line = item.line;
      if (!r.Name("dst", &in.dst)) r.Fail("dst", "is required");
      if (const YamlNode* s = r.Get("senders")) {
        if (s->IsSeq()) {
          for (const YamlNode& h : s->seq) {
            if (!h.IsScalar()) r.FailAt(h.line, r.PathOf("senders"), "expected host names");
            in.senders.push_back({h.scalar, h.line, r.PathOf("senders")});
          }
        } else {
          int64_t n;
          std::string err;
          if (!s->IsScalar() || !ParseInteger(s->scalar, &n, &err) || n < 1 || n > 100000)
            r.Fail("senders", "expected a list of hosts or a number of senders");
          in.sender_count = static_cast<int>(n);
        }
      } else {
        r.Fail("senders", "is required (a list of hosts, or a count)");
      }
      if (!r.Size("size", &in.size, 1, 1ull << 40)) r.Fail("size", "is required");
      r.Duration("start", &in.start);
      r.Duration("jitter", &in.jitter, 0, 1 * kSecond);
      ReadTrafficClass(r, *sc, &in.dscp);
      sc->incasts.push_back(in);
    } else if (type == "all-to-all") {
      AllToAllSpec a;
      a.line = item.line;
      ReadHostList(r, "hosts", &a.hosts);
      if (!r.Size("size", &a.size, 1, 1ull << 40)) r.Fail("size", "is required");
      r.Duration("start", &a.start);
      ReadTrafficClass(r, *sc, &a.dscp);
      sc->all_to_alls.push_back(a);
    } else if (type == "trace") {
      TraceSpec t;
      t.line = item.line;
      if (!r.String("cdf", &t.cdf_path)) r.Fail("cdf", "is required (a 'size cdf' file)");
      if (!t.cdf_path.empty() && t.cdf_path[0] != '/') {
        size_t slash = sc->file.find_last_of('/');
        if (slash != std::string::npos) t.cdf_path = sc->file.substr(0, slash + 1) + t.cdf_path;
      }
      if (!r.Double("load", &t.load, 0.0001, 1.0)) r.Fail("load", "is required (a share of the host link rate, e.g. 0.3)");
      if (!r.Duration("duration", &t.duration, 1 * kNanosecond, 3600 * kSecond)) r.Fail("duration", "is required");
      r.Duration("start", &t.start);
      ReadHostList(r, "hosts", &t.hosts);
      ReadTrafficClass(r, *sc, &t.dscp);
      sc->traces.push_back(t);
    } else if (type == "allreduce") {
      AllreduceSpec a;
      a.line = item.line;
      ReadHostList(r, "hosts", &a.hosts);
      if (a.hosts.size() < 2) r.Fail("hosts", "an AllReduce needs a list of at least two hosts (the ring order)");
      if (!r.Size("size", &a.size, 1, 1ull << 40)) r.Fail("size", "is required (bytes per rank)");
      r.Size("slice", &a.slice, 64, 1ull << 30);
      int64_t v;
      if (r.Int("qps", &v, 1, 64)) a.qps = static_cast<int>(v);
      if (r.Int("iterations", &v, 1, 100000)) a.iterations = static_cast<int>(v);
      r.Duration("compute", &a.compute, 0, 3600 * kSecond);
      r.Duration("start", &a.start);
      ReadTrafficClass(r, *sc, &a.dscp);
      sc->allreduces.push_back(a);
    } else if (type == "storage") {
      StorageSpec st;
      st.line = item.line;
      ReadHostList(r, "clients", &st.clients);
      ReadHostList(r, "targets", &st.targets);
      if (st.clients.empty()) r.Fail("clients", "is required (a list of hosts)");
      if (st.targets.empty()) r.Fail("targets", "is required (a list of hosts)");
      int64_t v;
      if (r.Int("queue_depth", &v, 1, 4096)) st.queue_depth = static_cast<int>(v);
      if (r.Int("parallelism", &v, 1, 65536)) st.parallelism = static_cast<int>(v);
      r.Size("io_size", &st.io_size, 1, 1ull << 30);
      r.Size("command_size", &st.command_size, 1, 65536);
      r.Size("response_size", &st.response_size, 1, 65536);
      r.Duration("service_time", &st.service_time, 0, 1 * kSecond);
      std::string dist;
      if (r.String("service", &dist)) {
        if (dist == "exponential") st.exponential = true;
        else if (dist == "fixed") st.exponential = false;
        else r.Fail("service", "'" + dist + "' should be exponential or fixed");
      }
      r.Duration("start", &st.start);
      if (!r.Duration("duration", &st.duration, 1 * kMicrosecond, 3600 * kSecond)) r.Fail("duration", "is required");
      ReadTrafficClass(r, *sc, &st.dscp);
      sc->storages.push_back(st);
    } else {
      r.Fail("type", "'" + type + "' should be flow, background, incast, permutation, all-to-all, trace, allreduce or storage");
    }
    r.Finish();
  }
}

void ReadDevices(ConfigReader& top, Scenario* sc) {
  const YamlNode* d = top.Get("devices");
  if (!d) return;
  if (!d->IsMap()) top.Fail("devices", "expected a mapping of device name to its settings");
  for (const auto& e : d->map) {
    bool is_switch;
    std::string path = "devices." + e.key;
    if (!SpecHasNode(sc->topology, e.key, &is_switch))
      throw ConfigError(sc->file, e.line, path, "no device named '" + e.key + "' in the topology");
    ConfigReader r(sc->file, e.value, path);
    DeviceOverride o;
    o.device = {e.key, e.line, path};
    if (is_switch) {
      SwitchSpec s = sc->sw;
      ReadSwitch(r, &s);
      o.sw = s;
    } else {
      NicSpec n = sc->nic;
      ReadNic(r, &n);
      o.nic = n;
    }
    r.Finish();
    sc->devices.push_back(o);
  }
}

void CheckHost(const Scenario& sc, const NameRef& ref) {
  bool is_switch;
  if (!SpecHasNode(sc.topology, ref.name, &is_switch))
    throw ConfigError(sc.file, ref.line, ref.key, "no host named '" + ref.name + "' in the topology");
  if (is_switch) throw ConfigError(sc.file, ref.line, ref.key, "'" + ref.name + "' is a switch, not a host");
}

}  // namespace

Scenario ParseScenarioText(const std::string& text, const std::string& file_label) {
  Scenario sc;
  sc.file = file_label;
  sc.sw.dscp_to_priority = DefaultDscpMap();
  sc.nic.dscp_to_priority = DefaultDscpMap();
  sc.nic.dcqcn = DcqcnMlx5Profile();
  YamlNode root;
  try {
    root = ParseYaml(text);
  } catch (const YamlError& e) {
    throw ConfigError(file_label, e.line(), "", e.what());
  }
  if (root.IsNull()) throw ConfigError(file_label, 1, "", "the file is empty");
  ConfigReader top(file_label, root, "");
  top.String("name", &sc.name);
  int64_t seed;
  if (top.Int("seed", &seed, 0, 9007199254740991LL)) sc.seed = static_cast<uint64_t>(seed);
  top.Duration("duration", &sc.duration, 1 * kNanosecond, 3600 * kSecond);
  ReadTopology(top, &sc);
  if (const YamlNode* n = top.Get("switch")) {
    ConfigReader r(file_label, *n, "switch");
    ReadSwitch(r, &sc.sw);
    r.Finish();
  }
  if (const YamlNode* n = top.Get("nic")) {
    ConfigReader r(file_label, *n, "nic");
    ReadNic(r, &sc.nic);
    r.Finish();
  }
  // The NIC follows the switches' lossless priorities unless told otherwise.
  if (!(root.Find("nic") && root.Find("nic")->IsMap() && root.Find("nic")->Find("lossless_priorities")))
    sc.nic.lossless_mask = sc.sw.lossless_mask;
  if (!sc.sw.pfc.enabled && !(root.Find("nic") && root.Find("nic")->Find("pfc"))) sc.nic.pfc_enabled = false;
  ReadWorkload(top, &sc);
  for (const auto& f : sc.flows) {
    CheckHost(sc, f.src);
    CheckHost(sc, f.dst);
    if (f.src.name == f.dst.name) throw ConfigError(sc.file, f.line, f.dst.key, "a flow needs two different hosts");
  }
  for (const auto& in : sc.incasts) {
    CheckHost(sc, in.dst);
    for (const NameRef& h : in.senders) {
      CheckHost(sc, h);
      if (h.name == in.dst.name) throw ConfigError(sc.file, h.line, h.key, "the receiver cannot also be a sender");
    }
  }
  for (const auto& a : sc.all_to_alls)
    for (const NameRef& h : a.hosts) CheckHost(sc, h);
  for (const auto& t : sc.traces)
    for (const NameRef& h : t.hosts) CheckHost(sc, h);
  for (const auto& st : sc.storages) {
    for (const NameRef& h : st.clients) CheckHost(sc, h);
    for (const NameRef& h : st.targets) {
      CheckHost(sc, h);
      for (const NameRef& c : st.clients)
        if (c.name == h.name) throw ConfigError(sc.file, h.line, h.key, "'" + h.name + "' is both a client and a target");
    }
  }
  for (const auto& a : sc.allreduces) {
    for (size_t i = 0; i < a.hosts.size(); ++i) {
      CheckHost(sc, a.hosts[i]);
      for (size_t j = 0; j < i; ++j)
        if (a.hosts[j].name == a.hosts[i].name)
          throw ConfigError(sc.file, a.hosts[i].line, a.hosts[i].key, "'" + a.hosts[i].name + "' appears twice in the ring");
    }
  }
  if (const YamlNode* rs = top.Get("routes")) {
    if (!rs->IsSeq()) top.Fail("routes", "expected a list of {switch, dst, port}");
    for (const auto& item : rs->seq) {
      ConfigReader r(file_label, item, "routes");
      RouteOverride ro;
      if (!r.Name("switch", &ro.sw)) r.Fail("switch", "is required");
      if (!r.Name("dst", &ro.dst)) r.Fail("dst", "is required");
      if (!r.Name("port", &ro.port)) r.Fail("port", "is required");
      r.Finish();
      bool is_switch = false;
      if (!SpecHasNode(sc.topology, ro.sw.name, &is_switch) || !is_switch)
        throw ConfigError(file_label, ro.sw.line, ro.sw.key, "no switch named '" + ro.sw.name + "'");
      CheckHost(sc, ro.dst);
      sc.routes.push_back(ro);
    }
  }
  ReadDevices(top, &sc);
  top.Finish();
  return sc;
}

const SwitchSpec& SwitchSpecFor(const Scenario& sc, const std::string& device) {
  for (const auto& d : sc.devices)
    if (d.device.name == device && d.sw) return *d.sw;
  return sc.sw;
}

const NicSpec& NicSpecFor(const Scenario& sc, const std::string& device) {
  for (const auto& d : sc.devices)
    if (d.device.name == device && d.nic) return *d.nic;
  return sc.nic;
}

Scenario LoadScenarioFile(const std::string& path) {
  std::string text, err;
  if (!ReadTextFile(path, &text, &err, 64ull << 20)) throw ConfigError(path, 0, "", err);
  return ParseScenarioText(text, path);
}

}  // namespace rocelab
