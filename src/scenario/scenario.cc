#include "scenario/scenario.h"

#include <functional>
#include <set>

#include "scenario/asic_profile.h"
#include "scenario/config_reader.h"
#include "scenario/options.h"
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

// Runs `read` on the mapping under `key`, if there is one.
template <typename Read>
void ReadSection(ConfigReader& parent, const Option& key, Read read) {
  if (const YamlNode* n = parent.Get(key)) {
    ConfigReader r(parent.file(), *n, parent.PathOf(key));
    read(r);
  }
}

// A cable length (`5m`) as the propagation delay it gives: light in fibre and copper travels
// about 2e8 m/s, i.e. 5 ns per meter.
bool ReadCableLength(ConfigReader& r, const Option& o, Time* delay) {
  const YamlNode* len = r.Get(o);
  if (!len) return false;
  std::string err;
  double meters = 0;
  if (!len->IsScalar()) r.Fail(o, "expected a length such as 5m");
  if (!ParseLength(len->scalar, &meters, &err)) r.Fail(o, err);
  if (meters < o.min || meters > o.max) r.FailRange(o, len->scalar);
  *delay = CableDelay(meters);
  return true;
}

// The keys of one link mapping, the same in host_link, fabric_link, link and each entry of
// links. A cable's length sets its propagation delay, and so the PFC headroom an auto port
// reserves for it.
void ReadLinkKeys(ConfigReader& r, LinkSpec* link) {
  r.Rate(opt::kLinkRate, &link->rate_bps);
  if (r.Has(opt::kLinkDelay) && r.Has(opt::kLinkLength)) r.Fail(opt::kLinkLength, "give either delay or length, not both");
  if (r.IsWord(opt::kLinkDelay)) link->delay = -1;
  else r.Duration(opt::kLinkDelay, &link->delay);
  ReadCableLength(r, opt::kLinkLength, &link->delay);
  r.Number(opt::kLinkBer, &link->ber);
  r.Finish();
}

void ReadLink(ConfigReader& parent, const Option& key, LinkSpec* link) {
  ReadSection(parent, key, [&](ConfigReader& r) { ReadLinkKeys(r, link); });
}

void ReadTrust(ConfigReader& r, const Option& key, bool* trust_dscp) {
  std::string trust;
  if (r.Choice(key, &trust)) *trust_dscp = trust == "dscp";
}

void ReadPfc(ConfigReader& p, PfcSpec* pfc) {
  p.Bool(opt::kSwitchPfcEnabled, &pfc->enabled);
  if (p.IsWord(opt::kSwitchPfcHeadroom)) pfc->headroom_auto = true;
  else if (p.Size(opt::kSwitchPfcHeadroom, &pfc->headroom)) pfc->headroom_auto = false;
  if (p.Int(opt::kSwitchPfcSmallPacketPercentage, &pfc->small_packet_percentage) && !pfc->headroom_auto)
    p.Fail(opt::kSwitchPfcSmallPacketPercentage, "sizes the auto headroom only: the headroom given is taken as it is");
  p.Number(opt::kSwitchPfcAlpha, &pfc->alpha);
  p.Size(opt::kSwitchPfcXonOffset, &pfc->xon_offset);
  p.Size(opt::kSwitchPfcXon, &pfc->xon);
  p.Int(opt::kSwitchPfcQuanta, &pfc->quanta);
  if (p.IsWord(opt::kSwitchPfcResponseTime)) pfc->response_time = -1;
  else p.Duration(opt::kSwitchPfcResponseTime, &pfc->response_time);
  if (p.Number(opt::kSwitchPfcOverSubscribeRatio, &pfc->over_subscribe_ratio) && pfc->over_subscribe_ratio > 0 &&
      pfc->over_subscribe_ratio < 1)
    p.Fail(opt::kSwitchPfcOverSubscribeRatio,
           "a ratio below 1 pools more headroom than the PGs reserve each: give 1 or more, or 0 for no pool");
  p.Finish();
}

void ReadEcn(ConfigReader& e, EcnSpec* ecn) {
  e.Bool(opt::kSwitchEcnEnabled, &ecn->enabled);
  e.Size(opt::kSwitchEcnKmin, &ecn->kmin);
  e.Size(opt::kSwitchEcnKmax, &ecn->kmax);
  e.Number(opt::kSwitchEcnPmax, &ecn->pmax);
  std::string mark;
  if (e.Choice(opt::kSwitchEcnMark, &mark)) ecn->mark_on_dequeue = mark == "dequeue";
  if (ecn->kmax < ecn->kmin)
    e.Fail(e.Has(opt::kSwitchEcnKmax) ? opt::kSwitchEcnKmax : opt::kSwitchEcnKmin, "kmax must not be below kmin");
  e.Finish();
}

void ReadEts(ConfigReader& e, SwitchSpec* s) {
  e.Priorities(opt::kSwitchEtsStrict, &s->strict_mask);
  std::vector<int64_t> w;
  if (e.Integers(opt::kSwitchEtsWeights, &w)) {
    if (w.size() != 8) e.Fail(opt::kSwitchEtsWeights, "expected 8 weights, one per queue");
    for (int i = 0; i < 8; ++i) s->ets_weights[i] = static_cast<uint32_t>(w[i]);
  }
  for (int q = 0; q < 8; ++q)
    if (!(s->strict_mask & (1u << q)) && s->ets_weights[q] == 0)
      e.Fail(e.Has(opt::kSwitchEtsWeights) ? opt::kSwitchEtsWeights : opt::kSwitchEtsStrict,
             "queue " + std::to_string(q) + " is not strict and has weight 0");
  e.Finish();
}

void ReadPfcWatchdog(ConfigReader& w, PfcWatchdogSpec* wd) {
  w.Bool(opt::kSwitchPfcWatchdogEnabled, &wd->enabled);
  w.Duration(opt::kSwitchPfcWatchdogDetectionTime, &wd->detection_time);
  w.Duration(opt::kSwitchPfcWatchdogRestorationTime, &wd->restoration_time);
  w.Choice(opt::kSwitchPfcWatchdogAction, &wd->action);
  w.Duration(opt::kSwitchPfcWatchdogPollInterval, &wd->poll_interval);
  w.Finish();
}

void ReadSwitch(ConfigReader& r, SwitchSpec* s) {
  // The chip's profile first, so that the section's own keys override it.
  if (r.Choice(opt::kSwitchAsic, &s->asic))
    if (const AsicProfile* chip = FindAsicProfile(s->asic)) {
      s->cell = chip->cell;
      if (chip->buffer > 0) s->buffer = chip->buffer;
      if (chip->pipeline_latency >= 0) s->pipeline_latency = chip->pipeline_latency;
    }
  r.Size(opt::kSwitchBuffer, &s->buffer);
  uint64_t cell = s->cell;
  if (r.Size(opt::kSwitchCell, &cell)) s->cell = static_cast<uint32_t>(cell);
  r.Duration(opt::kSwitchPipelineLatency, &s->pipeline_latency);
  r.Priorities(opt::kSwitchLosslessPriorities, &s->lossless_mask);
  ReadSection(r, opt::kSwitchPfc, [&](ConfigReader& p) { ReadPfc(p, &s->pfc); });
  ReadSection(r, opt::kSwitchEcn, [&](ConfigReader& e) {
    if (e.Priorities(opt::kSwitchEcnPriorities, &s->ecn_mask)) s->ecn_follows_pfc = false;
    ReadEcn(e, &s->ecn);
  });
  if (s->ecn_follows_pfc) s->ecn_mask = s->lossless_mask;
  ReadSection(r, opt::kSwitchEts, [&](ConfigReader& e) { ReadEts(e, s); });
  ReadSection(r, opt::kSwitchPfcWatchdog, [&](ConfigReader& w) { ReadPfcWatchdog(w, &s->pfc_watchdog); });
  ReadTrust(r, opt::kSwitchTrust, &s->trust_dscp);
  r.DscpMap(opt::kSwitchDscpToPriority, &s->dscp_to_priority);
  r.Number(opt::kSwitchLossyAlpha, &s->lossy_alpha);
  r.Number(opt::kSwitchEgressLossyAlpha, &s->egress_lossy_alpha);
  r.Int(opt::kSwitchMtu, &s->mtu);
  r.Duration(opt::kSwitchLinkDownDetection, &s->link_down_detection);
  r.Duration(opt::kSwitchRouteConvergence, &s->route_convergence);
  r.Duration(opt::kSwitchLinkDebounce, &s->link_debounce);
  if (r.IsWord(opt::kSwitchLinkUpTime)) s->link_up_time = -1;
  else r.Duration(opt::kSwitchLinkUpTime, &s->link_up_time);
  if (s->route_convergence < s->link_down_detection)
    r.Fail(r.Has(opt::kSwitchRouteConvergence) ? opt::kSwitchRouteConvergence : opt::kSwitchLinkDownDetection,
           "route_convergence must not be shorter than link_down_detection (the routes follow what the switches "
           "detected)");
}

}  // namespace

const char* CcName(NicSpec::Cc cc) {
  switch (cc) {
    case NicSpec::Cc::kNone: return "none";
    case NicSpec::Cc::kDcqcn: return "dcqcn";
    case NicSpec::Cc::kDctcp: return "dctcp";
    case NicSpec::Cc::kTimely: return "timely";
    case NicSpec::Cc::kHpcc: return "hpcc";
  }
  return "";
}

namespace {

void ReadDcqcn(ConfigReader& d, DcqcnParams* p) {
  std::string profile;
  if (d.Choice(opt::kNicDcqcnProfile, &profile)) DcqcnProfileByName(profile, p);
  d.Number(opt::kNicDcqcnG, &p->g);
  d.Duration(opt::kNicDcqcnAlphaUpdatePeriod, &p->alpha_update_period);
  d.Number(opt::kNicDcqcnInitialAlpha, &p->initial_alpha);
  d.Duration(opt::kNicDcqcnRateReducePeriod, &p->rate_reduce_period);
  d.Duration(opt::kNicDcqcnRateIncreasePeriod, &p->rate_increase_period);
  d.Size(opt::kNicDcqcnByteCounter, &p->byte_counter);
  d.Int(opt::kNicDcqcnFastRecoveryStages, &p->fast_recovery_stages);
  d.Rate(opt::kNicDcqcnAiRate, &p->ai_rate_bps);
  d.Rate(opt::kNicDcqcnHaiRate, &p->hai_rate_bps);
  d.Rate(opt::kNicDcqcnMinRate, &p->min_rate_bps);
  d.Number(opt::kNicDcqcnMinDecFactor, &p->min_dec_factor);
  d.Bool(opt::kNicDcqcnClampTargetRate, &p->clamp_target_rate);
  d.Duration(opt::kNicDcqcnMinTimeBetweenCnps, &p->min_time_between_cnps);
  std::string moderation;
  if (d.Choice(opt::kNicDcqcnCnpModeration, &moderation)) p->cnp_per_port = moderation == "port";
  d.Finish();
}

void ReadNic(ConfigReader& r, NicSpec* n) {
  int64_t mtu;
  if (r.Int(opt::kNicMtu, &mtu)) {
    if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096)
      r.Fail(opt::kNicMtu, "RoCE MTU must be 256, 512, 1024, 2048 or 4096");
    n->mtu = static_cast<uint32_t>(mtu);
  }
  std::string cc;
  if (r.Choice(opt::kNicCc, &cc))
    for (NicSpec::Cc c :
         {NicSpec::Cc::kNone, NicSpec::Cc::kDcqcn, NicSpec::Cc::kDctcp, NicSpec::Cc::kTimely, NicSpec::Cc::kHpcc})
      if (cc == CcName(c)) n->cc = c;
  ReadSection(r, opt::kNicDcqcn, [&](ConfigReader& d) { ReadDcqcn(d, &n->dcqcn); });
  ReadSection(r, opt::kNicDctcp, [&](ConfigReader& d) {
    d.Number(opt::kNicDctcpG, &n->dctcp.g);
    d.Number(opt::kNicDctcpInitialAlpha, &n->dctcp.initial_alpha);
    d.Rate(opt::kNicDctcpRateAi, &n->dctcp.rate_ai_bps);
    d.Rate(opt::kNicDctcpMinRate, &n->dctcp.min_rate_bps);
    d.Finish();
  });
  ReadSection(r, opt::kNicTimely, [&](ConfigReader& d) {
    TimelyParams& t = n->timely;
    d.Number(opt::kNicTimelyAlpha, &t.alpha);
    d.Number(opt::kNicTimelyBeta, &t.beta);
    d.Duration(opt::kNicTimelyTLow, &t.t_low);
    d.Duration(opt::kNicTimelyTHigh, &t.t_high);
    d.Duration(opt::kNicTimelyMinRtt, &t.min_rtt);
    d.Rate(opt::kNicTimelyRateAi, &t.rate_ai_bps);
    d.Rate(opt::kNicTimelyRateHai, &t.rate_hai_bps);
    d.Int(opt::kNicTimelyHaiAfter, &t.hai_after);
    d.Rate(opt::kNicTimelyMinRate, &t.min_rate_bps);
    if (t.t_high < t.t_low) d.Fail(opt::kNicTimelyTHigh, "t_high must not be below t_low");
    d.Finish();
  });
  ReadSection(r, opt::kNicHpcc, [&](ConfigReader& d) {
    HpccParams& h = n->hpcc;
    d.Number(opt::kNicHpccEta, &h.eta);
    d.Int(opt::kNicHpccMaxStage, &h.max_stage);
    d.Rate(opt::kNicHpccRateAi, &h.rate_ai_bps);
    d.Bool(opt::kNicHpccFastReact, &h.fast_react);
    d.Bool(opt::kNicHpccSampleFeedback, &h.sample_feedback);
    d.Rate(opt::kNicHpccMinRate, &h.min_rate_bps);
    d.Int(opt::kNicHpccIntMulti, &h.int_multi);
    std::string format;
    if (d.Choice(opt::kNicHpccIntFormat, &format))
      h.int_format = format == "ns3" ? IntFormat::Kind::kNs3 : IntFormat::Kind::kFine;
    d.Finish();
  });
  // HPCC runs with a window unless told otherwise (its code base's HAS_WIN 1).
  if (r.Has(opt::kNicCc)) n->window.enabled = n->cc == NicSpec::Cc::kHpcc;
  ReadSection(r, opt::kNicWindow, [&](ConfigReader& d) {
    d.Bool(opt::kNicWindowEnabled, &n->window.enabled);
    d.Bool(opt::kNicWindowScaleWithRate, &n->window.scale_with_rate);
    d.Finish();
  });
  // An algorithm's settings act only where the NIC runs it.
  for (const auto& [section, algorithm] : {std::pair{&opt::kNicDctcp, NicSpec::Cc::kDctcp},
                                           std::pair{&opt::kNicTimely, NicSpec::Cc::kTimely},
                                           std::pair{&opt::kNicHpcc, NicSpec::Cc::kHpcc}})
    if (r.Has(*section) && n->cc != algorithm)
      r.Fail(*section, "is read only under nic.cc: " + std::string(CcName(algorithm)) + " (the NIC runs " +
                           CcName(n->cc) + ")");
  r.Int(opt::kNicAckEvery, &n->ack_every);
  r.Bool(opt::kNicCoalesceAcks, &n->coalesce_acks);
  std::string profile;
  if (r.Choice(opt::kNicProfile, &profile)) {
    n->timeout = profile == "nccl" ? opt::kNcclIbTimeout : static_cast<int>(opt::kNicTimeout.def);
    n->retry_count = profile == "nccl" ? opt::kNcclIbRetryCnt : static_cast<int>(opt::kNicRetryCount.def);
  }
  r.Int(opt::kNicTimeout, &n->timeout);
  r.Int(opt::kNicRetryCount, &n->retry_count);
  ReadSection(r, opt::kNicAdaptiveRetransmission, [&](ConfigReader& a) {
    NicSpec::AdaptiveRetransmission& adp = n->adaptive_retransmission;
    a.Bool(opt::kNicAdaptiveRetransmissionEnabled, &adp.enabled);
    a.Duration(opt::kNicAdaptiveRetransmissionTimeBase, &adp.time_base);
    // The firmware takes the base as a power of two microseconds (NVIDIA, "Adaptive
    // Retransmission: Parameters Control").
    const Time us = adp.time_base / kMicrosecond;
    if (adp.time_base % kMicrosecond != 0 || (us & (us - 1)) != 0)
      a.Fail(opt::kNicAdaptiveRetransmissionTimeBase, "must be a power of two microseconds (4us, 8us, 16us, ...)");
    a.Int(opt::kNicAdaptiveRetransmissionInitialLow, &adp.initial_low);
    a.Int(opt::kNicAdaptiveRetransmissionInitialRange, &adp.initial_range);
    a.Bool(opt::kNicAdaptiveRetransmissionSlowRestart, &adp.slow_restart);
    a.Finish();
  });
  r.Int(opt::kNicBackToChunk, &n->back_to_chunk);
  r.Size(opt::kNicRxBuffer, &n->rx_buffer);
  if (r.IsWord(opt::kNicRxDrainRate)) n->rx_drain_rate = 0;
  else r.Rate(opt::kNicRxDrainRate, &n->rx_drain_rate);
  r.Size(opt::kNicRxXoff, &n->rx_xoff);
  r.Size(opt::kNicRxXon, &n->rx_xon);
  r.Duration(opt::kNicProcessingDelay, &n->processing_delay);
  r.Bool(opt::kNicPfc, &n->pfc_enabled);
  r.Priorities(opt::kNicLosslessPriorities, &n->lossless_mask);
  r.DscpMap(opt::kNicDscpToPriority, &n->dscp_to_priority);
  r.Int(opt::kNicCnpDscp, &n->cnp_dscp);
  std::string word;
  if (r.IsWord(opt::kNicPfcPreventionTout, &word)) n->pfc_prevention_tout = word == "auto" ? 100 * kMillisecond : 0;
  else r.Duration(opt::kNicPfcPreventionTout, &n->pfc_prevention_tout);
  ReadTrust(r, opt::kNicTrust, &n->trust_dscp);
}

// ---- topology: one reader per type ----

void ReadSpineLeaf(ConfigReader& r, TopologySpec* t) {
  r.Int(opt::kTopologySpines, &t->spines);
  r.Int(opt::kTopologyLeaves, &t->leaves);
  r.Int(opt::kTopologyHostsPerLeaf, &t->hosts_per_leaf);
  ReadLink(r, opt::kTopologyHostLink, &t->host_link);
  t->fabric_link = t->host_link;
  t->fabric_link.ber = 0;
  ReadLink(r, opt::kTopologyFabricLink, &t->fabric_link);
}

void ReadFatTree(ConfigReader& r, TopologySpec* t) {
  r.Int(opt::kTopologyK, &t->k);
  if (t->k % 2) r.Fail(opt::kTopologyK, "must be even");
  ReadLink(r, opt::kTopologyLink, &t->host_link);
  t->fabric_link = t->host_link;
  ReadLink(r, opt::kTopologyHostLink, &t->host_link);
  ReadLink(r, opt::kTopologyFabricLink, &t->fabric_link);
}

void ReadExplicit(ConfigReader& r, TopologySpec* t) {
  std::set<std::string> names;
  auto add_names = [&](const Option& key, bool is_switch) {
    const YamlNode* list = r.Get(key);
    if (!list) return;
    if (!list->IsSeq()) r.Fail(key, "expected a list of names");
    for (const auto& item : list->seq) {
      if (!item.IsScalar()) r.FailAt(item.line, item.column, r.PathOf(key), "expected a name");
      if (!names.insert(item.scalar).second)
        r.FailAt(item.line, item.column, r.PathOf(key), "duplicate node '" + item.scalar + "'");
      t->nodes.push_back({item.scalar, is_switch, item.line, item.column});
    }
  };
  add_names(opt::kTopologyHosts, false);
  add_names(opt::kTopologySwitches, true);
  LinkSpec defaults;
  ReadLink(r, opt::kTopologyLink, &defaults);
  const YamlNode* links = r.Get(opt::kTopologyLinks);
  if (!links || !links->IsSeq()) r.Fail(opt::kTopologyLinks, "expected a list of {a, b, rate, delay or length, ber}");
  for (const auto& item : links->seq) {
    ConfigReader l(r.file(), item, r.PathOf(opt::kTopologyLinks));
    TopologySpec::Link link;
    link.spec = defaults;
    link.line = item.line;
    link.column = item.column;
    l.Name(opt::kTopologyLinksA, &link.a);
    l.Name(opt::kTopologyLinksB, &link.b);
    ReadLinkKeys(l, &link.spec);
    for (const NameRef* e : {&link.a, &link.b})
      if (!names.count(e->name)) throw ConfigError(r.file(), e->line, e->column, e->key, "no node named '" + e->name + "'");
    if (link.a.name == link.b.name)
      throw ConfigError(r.file(), link.line, link.column, l.path(), "a link needs two different nodes");
    t->links.push_back(link);
  }
  if (t->nodes.empty()) r.Fail(opt::kTopologyHosts, "an explicit topology needs hosts and switches");
}

void ReadTopology(ConfigReader& top, Scenario* sc) {
  const YamlNode* n = top.Get(opt::kTopology);
  ConfigReader r(sc->file, *n, top.PathOf(opt::kTopology));
  TopologySpec& t = sc->topology;
  std::string type;
  r.Choice(opt::kTopologyType, &type);
  if (type == "spine-leaf") {
    t.type = TopologySpec::Type::kSpineLeaf;
    ReadSpineLeaf(r, &t);
  } else if (type == "fat-tree") {
    t.type = TopologySpec::Type::kFatTree;
    ReadFatTree(r, &t);
  } else {
    t.type = TopologySpec::Type::kExplicit;
    ReadExplicit(r, &t);
  }
  r.Finish();
}

// ---- workload: one reader per type ----

uint8_t DscpForPriority(const std::array<uint8_t, 64>& map, int prio) {
  if (map[26] == prio) return 26;
  for (int d = 0; d < 64; ++d)
    if (map[d] == prio) return static_cast<uint8_t>(d);
  return 0xFF;
}

// The keys every type takes: start, and priority or dscp.
void ReadCommon(ConfigReader& r, const Scenario& sc, Time* start, uint8_t* dscp) {
  r.Duration(opt::kWorkloadStart, start);
  if (r.Has(opt::kWorkloadPriority) && r.Has(opt::kWorkloadDscp))
    r.Fail(opt::kWorkloadDscp, "give either priority or dscp, not both");
  r.Int(opt::kWorkloadDscp, dscp);
  int prio;
  if (r.Int(opt::kWorkloadPriority, &prio)) {
    const uint8_t d = DscpForPriority(sc.nic.dscp_to_priority, prio);
    if (d == 0xFF)
      r.Fail(opt::kWorkloadPriority, "no DSCP maps to priority " + std::to_string(prio) + " in the NIC's DSCP map");
    *dscp = d;
  }
}

// Each reader below takes the keys of its type; ReadEntry adds the common ones.

void ReadFlow(ConfigReader& r, const Scenario&, FlowSpec* f) {
  r.Name(opt::kWorkloadSrc, &f->src);
  r.Name(opt::kWorkloadDst, &f->dst);
  r.Size(opt::kWorkloadSize, &f->size);
}

void ReadBackground(ConfigReader& r, const Scenario& sc, FlowSpec* f) {
  f->background = true;
  f->dscp = 0;  // best effort: priority 0 under the default map
  std::string cc;
  r.Choice(opt::kBackgroundCc, &cc);
  r.Duration(opt::kBackgroundRto, &f->rto);
  ReadFlow(r, sc, f);
}

void ReadPermutation(ConfigReader& r, const Scenario&, PermutationSpec* p) { r.Size(opt::kWorkloadSize, &p->size); }

void ReadIncast(ConfigReader& r, const Scenario&, IncastSpec* in) {
  r.Name(opt::kWorkloadDst, &in->dst);
  const YamlNode* s = r.Get(opt::kIncastSenders);
  if (s->IsSeq()) {
    r.Names(opt::kIncastSenders, &in->senders);
  } else {
    int64_t n;
    std::string err;
    if (!s->IsScalar() || !ParseInteger(s->scalar, &n, &err) || n < 1 || n > 100000)
      r.Fail(opt::kIncastSenders, "expected a list of hosts or a number of senders");
    in->sender_count = static_cast<int>(n);
  }
  r.Size(opt::kWorkloadSize, &in->size);
  r.Duration(opt::kIncastJitter, &in->jitter);
  r.Int(opt::kIncastQps, &in->qps);
}

void ReadAllToAll(ConfigReader& r, const Scenario&, AllToAllSpec* a) {
  r.Names(opt::kWorkloadHosts, &a->hosts);
  r.Size(opt::kWorkloadSize, &a->size);
}

// A path in the scenario is relative to the scenario file's folder, not to where rocelab runs:
// a scenario and its CDF copied together elsewhere still work.
std::string BesideScenario(const std::string& scenario_file, const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  const size_t slash = scenario_file.find_last_of('/');
  return slash == std::string::npos ? path : scenario_file.substr(0, slash + 1) + path;
}

void ReadTrace(ConfigReader& r, const Scenario& sc, TraceSpec* t) {
  if (const YamlNode* cdf = r.Get(opt::kTraceCdf)) t->cdf_line = cdf->line;
  r.Text(opt::kTraceCdf, &t->cdf_path);
  t->cdf_path = BesideScenario(sc.file, t->cdf_path);
  t->cdf_key = r.PathOf(opt::kTraceCdf);
  r.Number(opt::kTraceLoad, &t->load);
  r.Duration(opt::kTraceDuration, &t->duration);
  r.Names(opt::kWorkloadHosts, &t->hosts);
}

void ReadAllreduce(ConfigReader& r, const Scenario&, AllreduceSpec* a) {
  r.Names(opt::kAllreduceHosts, &a->hosts);
  if (a->hosts.size() < 2)
    r.Fail(opt::kAllreduceHosts, "an AllReduce needs a list of at least two hosts (the ring order)");
  if (!r.Has(opt::kWorkloadSize)) r.Fail(opt::kWorkloadSize, "is required (bytes per rank)");
  r.Size(opt::kWorkloadSize, &a->size);
  r.Size(opt::kAllreduceSlice, &a->slice);
  r.Int(opt::kAllreduceQps, &a->qps);
  r.Int(opt::kAllreduceIterations, &a->iterations);
  r.Duration(opt::kAllreduceCompute, &a->compute);
  a->straggler_compute = a->compute;
  if (r.Name(opt::kAllreduceStraggler, &a->straggler)) {
    bool in_ring = false;
    for (const NameRef& h : a->hosts) in_ring = in_ring || h.name == a->straggler.name;
    if (!in_ring) r.Fail(opt::kAllreduceStraggler, "'" + a->straggler.name + "' is not a rank of this ring (hosts)");
  } else if (r.Has(opt::kAllreduceStragglerCompute)) {
    r.Fail(opt::kAllreduceStragglerCompute, "needs a straggler (the rank it is for)");
  }
  r.Duration(opt::kAllreduceStragglerCompute, &a->straggler_compute);
  if (a->straggler_compute < a->compute)
    r.Fail(opt::kAllreduceStragglerCompute, "is shorter than compute: a straggler computes longer than the others");
}

void ReadStorage(ConfigReader& r, const Scenario&, StorageSpec* st) {
  r.Names(opt::kStorageClients, &st->clients);
  r.Names(opt::kStorageTargets, &st->targets);
  if (st->clients.empty()) r.FailRequired(opt::kStorageClients);
  if (st->targets.empty()) r.FailRequired(opt::kStorageTargets);
  r.Int(opt::kStorageQueueDepth, &st->queue_depth);
  r.Int(opt::kStorageParallelism, &st->parallelism);
  r.Size(opt::kStorageIoSize, &st->io_size);
  r.Size(opt::kStorageCommandSize, &st->command_size);
  r.Size(opt::kStorageResponseSize, &st->response_size);
  r.Duration(opt::kStorageServiceTime, &st->service_time);
  std::string dist;
  if (r.Choice(opt::kStorageService, &dist)) st->exponential = dist == "exponential";
  r.Duration(opt::kStorageDuration, &st->duration);
}

// One entry: the keys of its type (`read`), then start and priority or dscp.
template <typename Spec>
void ReadEntry(ConfigReader& r, Scenario* sc, void (*read)(ConfigReader&, const Scenario&, Spec*),
               std::vector<Spec>* entries) {
  Spec spec;
  spec.line = r.line();
  read(r, *sc, &spec);
  ReadCommon(r, *sc, &spec.start, &spec.dscp);
  entries->push_back(spec);
}

void ReadWorkload(ConfigReader& top, Scenario* sc) {
  const YamlNode* w = top.Get(opt::kWorkload);
  if (!w) return;
  if (!w->IsSeq()) top.Fail(opt::kWorkload, "expected a list of workload entries");
  for (size_t i = 0; i < w->seq.size(); ++i) {
    ConfigReader r(sc->file, w->seq[i], top.PathOf(opt::kWorkload) + "[" + std::to_string(i) + "]");
    std::string type;
    r.Choice(opt::kWorkloadType, &type);
    if (type == "flow") ReadEntry(r, sc, ReadFlow, &sc->flows);
    else if (type == "background") ReadEntry(r, sc, ReadBackground, &sc->flows);
    else if (type == "incast") ReadEntry(r, sc, ReadIncast, &sc->incasts);
    else if (type == "permutation") ReadEntry(r, sc, ReadPermutation, &sc->permutations);
    else if (type == "all-to-all") ReadEntry(r, sc, ReadAllToAll, &sc->all_to_alls);
    else if (type == "trace") ReadEntry(r, sc, ReadTrace, &sc->traces);
    else if (type == "allreduce") ReadEntry(r, sc, ReadAllreduce, &sc->allreduces);
    else ReadEntry(r, sc, ReadStorage, &sc->storages);
    r.Finish();
  }
}

// ---- names: every name the file uses must be a node of the topology ----

void CheckHost(const Scenario& sc, const NameRef& ref) {
  bool is_switch;
  if (!SpecHasNode(sc.topology, ref.name, &is_switch))
    throw ConfigError(sc.file, ref.line, ref.column, ref.key, "no host named '" + ref.name + "' in the topology");
  if (is_switch) throw ConfigError(sc.file, ref.line, ref.column, ref.key, "'" + ref.name + "' is a switch, not a host");
}

void CheckWorkloadHosts(const Scenario& sc) {
  for (const auto& f : sc.flows) {
    CheckHost(sc, f.src);
    CheckHost(sc, f.dst);
    if (f.src.name == f.dst.name) throw ConfigError(sc.file, f.line, f.dst.key, "a flow needs two different hosts");
  }
  for (const auto& in : sc.incasts) {
    CheckHost(sc, in.dst);
    for (const NameRef& h : in.senders) {
      CheckHost(sc, h);
      if (h.name == in.dst.name)
        throw ConfigError(sc.file, h.line, h.column, h.key, "the receiver cannot also be a sender");
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
        if (c.name == h.name)
          throw ConfigError(sc.file, h.line, h.column, h.key, "'" + h.name + "' is both a client and a target");
    }
  }
  for (const auto& a : sc.allreduces) {
    for (size_t i = 0; i < a.hosts.size(); ++i) {
      CheckHost(sc, a.hosts[i]);
      for (size_t j = 0; j < i; ++j)
        if (a.hosts[j].name == a.hosts[i].name)
          throw ConfigError(sc.file, a.hosts[i].line, a.hosts[i].column, a.hosts[i].key,
                            "'" + a.hosts[i].name + "' appears twice in the ring");
    }
  }
}

// Every file the scenario names can be read, checked with the rest (so lint sees it too); the
// error gives the path as resolved. Their content is checked where it is read.
void CheckFiles(const Scenario& sc) {
  for (const TraceSpec& t : sc.traces) {
    std::string text, err;
    if (!ReadTextFile(t.cdf_path, &text, &err, 64ull << 20))  // FlowSizeCdf::Load's limit
      throw ConfigError(sc.file, t.cdf_line, t.cdf_key,
                        "the flow-size CDF '" + t.cdf_path + "': " + err +
                            (t.cdf_path.empty() || t.cdf_path[0] != '/' ? " (a relative path starts at the scenario's folder)" : ""));
  }
}

// The entries of a routes list (`routes`, or a route_change fault's) into `out`.
void ReadRouteList(ConfigReader& top, const Option& key, Scenario* sc, std::vector<RouteOverride>* out) {
  const YamlNode* rs = top.Get(key);
  if (!rs) return;
  if (!rs->IsSeq()) top.Fail(key, "expected a list of {switch, dst, port}");
  for (const auto& item : rs->seq) {
    ConfigReader r(sc->file, item, top.PathOf(key));
    RouteOverride ro;
    r.Name(opt::kRoutesSwitch, &ro.sw);
    r.Name(opt::kRoutesDst, &ro.dst);
    r.Name(opt::kRoutesPort, &ro.port);
    r.Finish();
    bool is_switch = false;
    if (!SpecHasNode(sc->topology, ro.sw.name, &is_switch) || !is_switch)
      throw ConfigError(sc->file, ro.sw.line, ro.sw.column, ro.sw.key, "no switch named '" + ro.sw.name + "'");
    CheckHost(*sc, ro.dst);
    out->push_back(ro);
  }
}

void ReadRoutes(ConfigReader& top, Scenario* sc) { ReadRouteList(top, opt::kRoutes, sc, &sc->routes); }

// ---- faults: one entry each; a kind reads only its own keys, so another kind's key is refused ----

void ReadFaultKeys(ConfigReader& r, Scenario* sc, FaultSpec* f) {
  using Kind = FaultSpec::Kind;
  switch (f->kind) {
    case Kind::kLinkFlap:
      r.Duration(opt::kFaultsPeriod, &f->period);
      r.Int(opt::kFaultsCount, &f->count);
      if (!r.Has(opt::kFaultsPeriod)) r.FailRequired(opt::kFaultsPeriod);
      if (!r.Has(opt::kFaultsCount)) r.FailRequired(opt::kFaultsCount);
      if (f->duration == 0) f->duration = f->period / 2;
      if (f->duration >= f->period)
        r.Fail(opt::kFaultsDuration, "each down must end before the next begins: keep it shorter than the period");
      break;
    case Kind::kLinkErrors:
      r.Number(opt::kFaultsPreFecBer, &f->pre_fec_ber);
      if (!r.Has(opt::kFaultsPreFecBer)) r.FailRequired(opt::kFaultsPreFecBer);
      r.Choice(opt::kFaultsFec, &f->fec);
      r.Bool(opt::kFaultsLinkFault, &f->link_fault);
      r.Bool(opt::kFaultsFecBypassIndication, &f->fec_bypass_indication);
      break;
    case Kind::kGrayDrop:
      r.Number(opt::kFaultsRate, &f->rate);
      if (!r.Has(opt::kFaultsRate)) r.FailRequired(opt::kFaultsRate);
      break;
    case Kind::kBlackhole:
      r.Number(opt::kFaultsShare, &f->rate);
      if (!r.Has(opt::kFaultsShare)) r.FailRequired(opt::kFaultsShare);
      break;
    case Kind::kEcnThresholds: {
      uint64_t v;
      double d;
      if (r.Size(opt::kFaultsKmin, &v)) f->kmin = v;
      if (r.Size(opt::kFaultsKmax, &v)) f->kmax = v;
      if (r.Number(opt::kFaultsPmax, &d)) f->pmax = d;
      if (!f->kmin && !f->kmax && !f->pmax) r.Fail(opt::kFaultsKind, "ecn_thresholds needs kmin, kmax or pmax");
      break;
    }
    case Kind::kQosDrift: {
      std::array<uint8_t, 64> map;
      map.fill(0xFF);
      r.DscpMap(opt::kFaultsDscpToPriority, &map);
      for (int d = 0; d < 64; ++d)
        if (map[d] != 0xFF) f->dscp_changes[d] = map[d];
      bool trust;
      if (r.Has(opt::kFaultsTrust)) {
        ReadTrust(r, opt::kFaultsTrust, &trust);
        f->trust_dscp = trust;
      }
      uint8_t mask = 0;
      if (r.Priorities(opt::kFaultsLosslessPriorities, &mask)) f->lossless_mask = mask;
      if (r.Priorities(opt::kFaultsEcnPriorities, &mask)) f->ecn_mask = mask;
      if (!r.Has(opt::kFaultsDscpToPriority) && !f->trust_dscp && !f->lossless_mask && !f->ecn_mask)
        r.Fail(opt::kFaultsKind, "qos_drift needs dscp_to_priority, trust, lossless_priorities or ecn_priorities");
      break;
    }
    case Kind::kMtu:
      r.Int(opt::kFaultsMtu, &f->mtu);
      if (!r.Has(opt::kFaultsMtu)) r.FailRequired(opt::kFaultsMtu);
      break;
    case Kind::kHeadroom: {
      uint64_t bytes;
      Time delay;
      if (r.Has(opt::kFaultsHeadroom) && r.Has(opt::kFaultsCable))
        r.Fail(opt::kFaultsCable, "give either headroom or cable, not both");
      if (r.Size(opt::kFaultsHeadroom, &bytes)) f->headroom = bytes;
      if (ReadCableLength(r, opt::kFaultsCable, &delay)) f->cable_delay = delay;
      if (!f->headroom && !f->cable_delay) r.Fail(opt::kFaultsKind, "headroom needs a headroom size or a cable length");
      break;
    }
    case Kind::kSlowReceiver:
      if (!r.Has(opt::kFaultsDrainRate)) r.FailRequired(opt::kFaultsDrainRate);
      r.Rate(opt::kFaultsDrainRate, &f->drain_rate);
      if (f->drain_rate == 0) r.Fail(opt::kFaultsDrainRate, "a receiver that drains nothing is a pfc_storm");
      break;
    case Kind::kRouteChange:
      if (!r.Has(opt::kFaultsRoutes)) r.FailRequired(opt::kFaultsRoutes);
      ReadRouteList(r, opt::kFaultsRoutes, sc, &f->routes);
      if (f->routes.empty()) r.Fail(opt::kFaultsRoutes, "expected at least one route");
      break;
    default:
      break;
  }
}

void ReadFaults(ConfigReader& top, Scenario* sc) {
  static const std::pair<const char*, FaultSpec::Kind> kKinds[] = {
      {"link_down", FaultSpec::Kind::kLinkDown},   {"link_flap", FaultSpec::Kind::kLinkFlap},
      {"link_errors", FaultSpec::Kind::kLinkErrors}, {"gray_drop", FaultSpec::Kind::kGrayDrop},
      {"blackhole", FaultSpec::Kind::kBlackhole},
      {"ecn_off", FaultSpec::Kind::kEcnOff},       {"ecn_thresholds", FaultSpec::Kind::kEcnThresholds},
      {"cc_disabled", FaultSpec::Kind::kCcDisabled}, {"qos_drift", FaultSpec::Kind::kQosDrift},
      {"mtu", FaultSpec::Kind::kMtu},              {"headroom", FaultSpec::Kind::kHeadroom},
      {"route_change", FaultSpec::Kind::kRouteChange}, {"pfc_storm", FaultSpec::Kind::kPfcStorm},
      {"slow_receiver", FaultSpec::Kind::kSlowReceiver},
  };
  const YamlNode* list = top.Get(opt::kFaults);
  if (!list) return;
  if (!list->IsSeq()) top.Fail(opt::kFaults, "expected a list of faults, each {kind, target, at, ...}");
  for (size_t i = 0; i < list->seq.size(); ++i) {
    ConfigReader r(sc->file, list->seq[i], top.PathOf(opt::kFaults) + "[" + std::to_string(i) + "]");
    FaultSpec f;
    f.line = r.line();
    f.column = r.column();
    r.Choice(opt::kFaultsKind, &f.kind_name);
    for (const auto& k : kKinds)
      if (f.kind_name == k.first) f.kind = k.second;
    if (f.kind != FaultSpec::Kind::kRouteChange) r.Name(opt::kFaultsTarget, &f.target);
    r.Duration(opt::kFaultsAt, &f.at);
    if (f.at >= sc->duration)
      r.Fail(opt::kFaultsAt, "the fault would start at or after the end of the run (duration " +
                                 FormatTime(sc->duration) + ")");
    r.Duration(opt::kFaultsDuration, &f.duration);
    ReadFaultKeys(r, sc, &f);
    r.Finish();
    sc->faults.push_back(std::move(f));
  }
}

void ReadDevices(ConfigReader& top, Scenario* sc) {
  const YamlNode* d = top.Get(opt::kDevices);
  if (!d) return;
  if (!d->IsMap()) top.Fail(opt::kDevices, "expected a mapping of device name to its settings");
  for (const auto& e : d->map) {
    bool is_switch;
    std::string path = top.PathOf(opt::kDevices) + "." + e.key;
    if (!SpecHasNode(sc->topology, e.key, &is_switch))
      throw ConfigError(sc->file, e.line, e.column, path, "no device named '" + e.key + "' in the topology");
    ConfigReader r(sc->file, e.value, path);
    DeviceOverride o;
    o.device = {e.key, e.line, path, e.column};
    // Which settings the entry writes, so findings can cite what the user wrote.
    std::function<void(const YamlNode&, const std::string&)> collect = [&](const YamlNode& n, const std::string& at) {
      if (!n.IsMap()) {
        if (!at.empty()) o.keys.insert(at);
        return;
      }
      for (const auto& k : n.map) {
        const std::string p = at.empty() ? k.key : at + "." + k.key;
        o.keys.insert(p);
        collect(k.value, p);
      }
    };
    collect(e.value, "");
    if (is_switch) {
      SwitchSpec s = sc->sw;
      ReadSwitch(r, &s);
      o.sw = s;
    } else {
      NicSpec n = sc->nic;
      ReadNic(r, &n);
      // Each algorithm has its own signal (CNPs, marks echoed on ACKs, timestamps echoed on ACKs):
      // a receiver gives a sender of another algorithm nothing it reacts to.
      if (n.cc != sc->nic.cc && n.cc != NicSpec::Cc::kNone && sc->nic.cc != NicSpec::Cc::kNone)
        r.Fail(opt::kNicCc, std::string("this host's ") + CcName(n.cc) + " and the others' " + CcName(sc->nic.cc) +
                                " cannot talk: their congestion signals differ; set nic.cc for all hosts");
      o.nic = n;
    }
    r.Finish();
    sc->devices.push_back(o);
  }
}

// recovery: {mode: runbook, delay: {t2, t3}}: the monitor's detections acted on after an
// operator's delay. A delay with another mode would do nothing: refused.
void ReadRunbook(ConfigReader& r, const std::string& mode, Scenario* sc) {
  sc->recovery_runbook = mode == "runbook";
  if (sc->recovery_runbook && sc->monitor_interval == 0)
    r.Fail(opt::kRecoveryMode, "runbook acts on what the monitor detects: add a monitor section (monitor: {interval: 10ms})");
  if (r.Has(opt::kRecoveryDelay) && !sc->recovery_runbook)
    r.Fail(opt::kRecoveryDelay, "is the operator's delay of mode: runbook (auto acts at once)");
  ReadSection(r, opt::kRecoveryDelay, [&](ConfigReader& d) {
    d.Duration(opt::kRecoveryDelayT2, &sc->runbook_delay_t2);
    d.Duration(opt::kRecoveryDelayT3, &sc->runbook_delay_t3);
    d.Finish();
  });
}

void ReadLifecycleAndCost(ConfigReader& top, Scenario* sc) {
  ReadSection(top, opt::kLifecycle, [&](ConfigReader& r) {
    r.Bool(opt::kLifecycleCounterfactual, &sc->lifecycle.counterfactual);
    r.Duration(opt::kLifecycleWindow, &sc->lifecycle.window);
    r.Finish();
  });
  ReadSection(top, opt::kCost, [&](ConfigReader& r) {
    CostSpec& c = sc->cost;
    c.given = true;
    const bool gpus = r.Int(opt::kCostGpus, &c.gpus);
    c.by_gpu = r.Number(opt::kCostPerGpuHour, &c.per_gpu_hour);
    const bool cluster = r.Number(opt::kCostPerHour, &c.per_hour);
    if (c.by_gpu && cluster) r.Fail(opt::kCostPerHour, "give per_gpu_hour (with gpus) or per_hour, not both");
    if (!c.by_gpu && !cluster)
      r.FailAt(r.line(), r.column(), r.path(), "needs a price: per_gpu_hour with gpus, or per_hour for the cluster");
    if (c.by_gpu && !gpus) r.Fail(opt::kCostPerGpuHour, "needs gpus: how many GPUs the job holds");
    if (cluster && gpus) r.Fail(opt::kCostGpus, "goes with per_gpu_hour; per_hour is the price of the whole cluster");
    if (r.Text(opt::kCostCurrency, &c.currency) &&
        (c.currency.empty() || c.currency.size() > 8 || c.currency.find_first_of(" \t\n") != std::string::npos))
      r.Fail(opt::kCostCurrency, "expected a currency code such as USD or EUR (up to 8 characters, no blanks)");
    ReadSection(r, opt::kCostCheckpoint, [&](ConfigReader& k) {
      k.Duration(opt::kCostCheckpointInterval, &c.checkpoint_interval);  // required (options.h)
      c.since_checkpoint = c.checkpoint_interval / 2;
      if (k.Duration(opt::kCostCheckpointSinceLast, &c.since_checkpoint) && c.since_checkpoint > c.checkpoint_interval)
        k.Fail(opt::kCostCheckpointSinceLast, "is longer than the interval: the last checkpoint is at most one interval back");
      k.Duration(opt::kCostCheckpointRestart, &c.restart);
      k.Finish();
    });
    ReadSection(r, opt::kCostResponse, [&](ConfigReader& k) {
      k.Duration(opt::kCostResponseT2, &c.response_t2);
      k.Duration(opt::kCostResponseT3, &c.response_t3);
      k.Finish();
    });
    r.Finish();
  });
}

}  // namespace

Scenario ParseScenarioText(const std::string& text, const std::string& file_label) {
  YamlNode root;
  try {
    root = ParseYaml(text);
  } catch (const YamlError& e) {
    throw ConfigError(file_label, e.line(), e.column(), "", e.what());
  }
  return ParseScenarioTree(root, file_label);
}

Scenario ParseScenarioTree(const YamlNode& root, const std::string& file_label) {
  Scenario sc;
  sc.file = file_label;
  sc.sw.dscp_to_priority = DefaultDscpMap();
  sc.nic.dscp_to_priority = DefaultDscpMap();
  sc.nic.dcqcn = DcqcnMlx5Profile();
  if (root.IsNull()) throw ConfigError(file_label, 1, "", "the file is empty");
  ConfigReader top(file_label, root, "");
  top.Text(opt::kName, &sc.name);
  top.Int(opt::kSeed, &sc.seed);
  top.Duration(opt::kDuration, &sc.duration);
  ReadSection(top, opt::kTelemetry, [&](ConfigReader& r) {
    static const std::pair<const char*, uint8_t> kSeries[] = {
        {"queue_depth", TelemetrySpec::kQueueDepth}, {"pg_occupancy", TelemetrySpec::kPgOccupancy},
        {"link_util", TelemetrySpec::kLinkUtil},     {"flow_rate", TelemetrySpec::kFlowRate},
        {"cc_rate", TelemetrySpec::kCcRate},         {"pause_state", TelemetrySpec::kPauseState},
    };
    sc.telemetry.enabled = true;
    r.Duration(opt::kTelemetryInterval, &sc.telemetry.interval);
    std::vector<NameRef> names;
    if (r.Names(opt::kTelemetrySeries, &names)) {
      sc.telemetry.series = 0;
      for (const NameRef& n : names) {
        uint8_t bit = 0;
        for (const auto& k : kSeries)
          if (n.name == k.first) bit = k.second;
        if (!bit)
          throw ConfigError(sc.file, n.line, n.column, n.key,
                            "no series '" + n.name + "': queue_depth, pg_occupancy, link_util, flow_rate, cc_rate or pause_state");
        sc.telemetry.series |= bit;
      }
    }
    r.Finish();
  });
  ReadSection(top, opt::kMonitor, [&](ConfigReader& r) {
    std::string refresh = opt::kMonitorRefresh.def_text;
    r.Choice(opt::kMonitorRefresh, &refresh);
    ReadSection(r, opt::kMonitorCounterpoll, [&](ConfigReader& c) {
      if (refresh == "instant")
        c.Fail(opt::kMonitorCounterpoll, "refresh: instant reads every counter at the window's end: no poll to set");
      c.Duration(opt::kMonitorCounterpollPort, &sc.counterpoll.port);
      c.Duration(opt::kMonitorCounterpollQueue, &sc.counterpoll.queue);
      c.Duration(opt::kMonitorCounterpollWatermark, &sc.counterpoll.watermark);
      c.Finish();
    });
    if (refresh == "instant") sc.counterpoll = {0, 0, 0};
    // Without a window of its own, the collector scrapes as often as the ports are polled; one
    // that scrapes faster reads the same values twice and then two polls' worth at once.
    sc.monitor_interval = sc.counterpoll.instant() ? static_cast<Time>(opt::kMonitorInterval.def) : sc.counterpoll.port;
    const bool window = r.Duration(opt::kMonitorInterval, &sc.monitor_interval);
    if (window && !sc.counterpoll.instant() && sc.monitor_interval < sc.counterpoll.port)
      r.Fail(opt::kMonitorInterval, "the window (" + FormatTime(sc.monitor_interval) +
                                        ") is shorter than the switches' port counter poll (monitor.counterpoll.port, " +
                                        FormatTime(sc.counterpoll.port) +
                                        "): scrape at least that seldom, or read every counter live with refresh: instant");
    if (r.IsWord(opt::kMonitorPhase)) sc.monitor_phase_random = true;
    else if (r.Duration(opt::kMonitorPhase, &sc.monitor_phase) && sc.monitor_phase >= sc.monitor_interval)
      r.Fail(opt::kMonitorPhase, "the first window must end within the first interval (" +
                                     FormatTime(sc.monitor_interval) + ")");
    ReadSection(r, opt::kMonitorProbes, [&](ConfigReader& p) {
      ProbeSpec& ps = sc.probes;
      ps.on = true;
      p.Duration(opt::kMonitorProbesInterval, &ps.interval);
      p.Duration(opt::kMonitorProbesTimeout, &ps.timeout);
      p.Int(opt::kMonitorProbesFabricPeers, &ps.fabric_peers);
      p.Int(opt::kMonitorProbesDscp, &ps.dscp);
      p.Finish();
    });
    r.Finish();
  });
  ReadSection(top, opt::kRecovery, [&](ConfigReader& r) {
    std::string mode;
    if (r.Choice(opt::kRecoveryMode, &mode)) sc.recovery_auto = mode == "auto";
    if (sc.recovery_auto && sc.monitor_interval == 0)
      r.Fail(opt::kRecoveryMode, "auto acts on what the monitor detects: add a monitor section (monitor: {interval: 10ms})");
    ReadRunbook(r, mode, &sc);
    r.Finish();
  });
  ReadLifecycleAndCost(top, &sc);
  ReadSection(top, opt::kTimers, [&](ConfigReader& r) {
    r.Number(opt::kTimersScale, &sc.timer_scale);
    r.Finish();
  });
  ReadTopology(top, &sc);
  ReadSection(top, opt::kSwitch, [&](ConfigReader& r) {
    ReadSwitch(r, &sc.sw);
    r.Finish();
  });
  ReadSection(top, opt::kNic, [&](ConfigReader& r) {
    ReadNic(r, &sc.nic);
    r.Finish();
  });
  // The NIC follows the switches' lossless priorities and PFC unless told otherwise.
  const YamlNode* nic = root.Find(opt::kNic.key);
  if (!(nic && nic->IsMap() && nic->Find(opt::kNicLosslessPriorities.leaf()))) sc.nic.lossless_mask = sc.sw.lossless_mask;
  if (!(nic && nic->IsMap() && nic->Find(opt::kNicPfc.leaf()))) {
    sc.nic_pfc_follows_switch = true;
    if (!sc.sw.pfc.enabled) sc.nic.pfc_enabled = false;
  }
  ReadWorkload(top, &sc);
  CheckWorkloadHosts(sc);
  CheckFiles(sc);
  ReadRoutes(top, &sc);
  ReadDevices(top, &sc);
  ReadFaults(top, &sc);
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
