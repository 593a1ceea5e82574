#include "report/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "report/lifecycle_json.h"
#include "run/assumptions.h"
#include "telemetry/counter_names.h"
#include "topo/topology.h"
#include "util/json_writer.h"

namespace rocelab {

Totals ComputeTotals(const Fabric& f) {
  Totals t;
  for (const auto& n : f.nics()) {
    const PortCounters& c = n->port(0).counters;
    const RdmaCounters& r = n->rdma();
    for (int p = 0; p < kNumPriorities; ++p) {
      t.pause_frames_tx += c.tx_pause[p];
      t.pause_frames_rx += c.rx_pause[p];
      bool lossless = n->spec().pfc_enabled && (n->spec().lossless_mask & (1u << p));
      (lossless ? t.drops_lossless : t.drops_lossy) += c.rx_prio_discards[p];
    }
    t.crc_errors += c.crc_errors;
    t.cnp_sent += r.np_cnp_sent;
    t.cnp_handled += r.rp_cnp_handled;
    t.retransmitted_packets += r.retransmitted_packets;
    t.qp_errors += r.req_transport_retries_exceeded;
    t.bytes_delivered += r.bytes_delivered;
    t.timeouts += r.local_ack_timeout_err;
  }
  for (const auto& s : f.switches()) {
    t.drops_lossless += s->lossless_drops();
    t.drops_lossy += s->lossy_drops();
    t.ecn_marked += s->ecn_marked();
    for (int i = 0; i < s->num_ports(); ++i) {
      const PortCounters& c = s->port(i).counters;
      for (int p = 0; p < kNumPriorities; ++p) {
        t.pause_frames_tx += c.tx_pause[p];
        t.pause_frames_rx += c.rx_pause[p];
        t.queue_peak_bytes = std::max(t.queue_peak_bytes, s->queue_counters(i, p).watermark_bytes);
      }
      t.crc_errors += c.crc_errors;
    }
  }
  return t;
}

namespace {
// Nearest-rank percentile of a sorted list.
double Percentile(const std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::min(v.size(), std::max<size_t>(rank, 1)) - 1];
}
}  // namespace

std::vector<SlowdownRow> SlowdownTable(const Fabric& f) {
  struct Bucket {
    const char* name;
    uint64_t lo, hi;
  };
  static const Bucket kBuckets[] = {{"all", 0, UINT64_MAX},
                                    {"<10KB", 0, 10 * 1024},
                                    {"10KB-100KB", 10 * 1024, 100 * 1024},
                                    {"100KB-1MB", 100 * 1024, 1024 * 1024},
                                    {">=1MB", 1024 * 1024, UINT64_MAX},
                                    {"<100KB", 0, 100 * 1024},
                                    {">=100KB", 100 * 1024, UINT64_MAX}};
  std::vector<SlowdownRow> rows;
  for (const Bucket& b : kBuckets) {
    std::vector<double> v;
    for (const QueuePair& qp : f.qps())
      if (qp.done && qp.ideal_fct > 0 && qp.size >= b.lo && qp.size < b.hi)
        v.push_back(static_cast<double>(qp.finish - qp.start) / static_cast<double>(qp.ideal_fct));
    std::sort(v.begin(), v.end());
    rows.push_back({b.name, v.size(), Percentile(v, 0.50), Percentile(v, 0.95), Percentile(v, 0.99)});
  }
  return rows;
}

namespace {

uint64_t Us(Time t) { return static_cast<uint64_t>(t / kMicrosecond); }
uint64_t Ns(Time t) { return static_cast<uint64_t>(t / kNanosecond); }

// The priorities set in `mask`, as a list under `key`.
void WritePriorities(JsonWriter& w, const char* key, uint8_t mask) {
  w.BeginArray(key);
  for (int p = 0; p < kNumPriorities; ++p)
    if (mask & (1u << p)) w.UintValue(static_cast<uint64_t>(p));
  w.EndArray();
}

// The QoS configuration in force on the device: evidence beside the counters.
void WriteConfig(JsonWriter& w, uint8_t pfc_mask, bool trust_dscp, const std::array<uint8_t, 64>& map,
                 const SwitchSpec* sw = nullptr, const NicSpec* nic = nullptr, bool reaction_point = true) {
  w.BeginObject("config");
  WritePriorities(w, "pfc_priorities", pfc_mask);
  w.String("trust", trust_dscp ? "dscp" : "pcp");
  w.BeginObject("dscp_to_priority");
  for (int d = 0; d < 64; ++d)
    if (map[d]) w.Uint(std::to_string(d), map[d]);
  w.EndObject();
  if (sw) {
    w.Bool("ecn_enabled", sw->ecn.enabled).Uint("ecn_kmin", sw->ecn.kmin).Uint("ecn_kmax", sw->ecn.kmax);
    WritePriorities(w, "ecn_priorities", sw->ecn_mask);
    w.Uint("mtu", sw->mtu);
    // Settings the default leaves out are written only when set.
    if (sw->asic != opt::kSwitchAsic.def_text) w.String("asic", sw->asic);
    if (sw->pipeline_latency > 0) w.Uint("pipeline_latency_ns", static_cast<uint64_t>(sw->pipeline_latency / kNanosecond));
    if (sw->pfc.over_subscribe_ratio > 0) w.Double("over_subscribe_ratio", sw->pfc.over_subscribe_ratio, 3);
  }
  if (nic) {
    w.String("congestion_control", CcName(nic->cc));
    // A reaction point switched off while running (mlx5 roce_rp enable 0) is written only then.
    if (nic->cc == NicSpec::Cc::kDcqcn && !reaction_point) w.Bool("dcqcn_reaction_point", false);
  }
  w.EndObject();
}

void WriteNic(JsonWriter& w, const Nic& n, Time now) {
  const PortCounters& c = n.port(0).counters;
  const PortCounters::PriorityTraffic rx = c.Received();
  const PortCounters::SentTraffic tx = c.Sent();
  const RdmaCounters& r = n.rdma();
  w.BeginObject(n.name().c_str());
  w.String("rdma_device", "mlx5_0").String("netdev", "eth0");
  w.Uint("speed_mbps", n.port(0).rate_bps / 1000000);  // ethtool's Speed
  w.BeginObject(kEthtoolBlock);
  w.Uint(kRxPacketsPhy.name, rx.packets).Uint(kRxBytesPhy.name, rx.bytes);
  w.Uint(kTxPacketsPhy.name, tx.packets).Uint(kTxBytesPhy.name, tx.bytes);
  w.Uint(kRxCrcErrorsPhy.name, c.crc_errors).Uint(kRxDiscardsPhy.name, c.rx_discards);
  w.Uint(kTxDiscardsPhy.name, n.port(0).faults ? n.port(0).faults->counters.tx_link_down_drops : 0);
  w.Uint(kTxPauseStormWarningEvents.name, n.pause_storm_warning_events());
  w.Uint(kTxPauseStormErrorEvents.name, n.pause_storm_error_events());
  if (const PortFaults* pf = n.port(0).faults.get()) {
    w.Uint(kLinkDownEventsPhy.name, pf->counters.link_down_events);
    w.Uint(kRxOversizePktsPhy.name, pf->counters.rx_oversize);
    if (pf->fec_on) {
      const FecCounters fc = pf->fec.Counters(now);
      w.Uint(kRxCorrectedBitsPhy.name, fc.corrected_bits);
      for (int lane = 0; lane < pf->fec.lanes(); ++lane) w.Uint(kRxErrLanePhy.Name(lane), fc.lane_corrected_bits[lane]);
      w.Uint(kRxSymbolErrPhy.name, fc.lost_frames).Uint(kRxPcsSymbolErrPhy.name, fc.uncorrected_symbols);
    }
  }
  for (int p = 0; p < kNumPriorities; ++p) {
    const bool pfc = n.pfc_mask() & (1u << p);
    if (!pfc && !c.rx_prio[p].packets && !c.tx_prio[p].packets && !c.rx_pause[p] && !c.tx_pause[p]) continue;
    w.Uint(kRxPrioBytes.Name(p), c.rx_prio[p].bytes).Uint(kRxPrioPackets.Name(p), c.rx_prio[p].packets);
    w.Uint(kTxPrioBytes.Name(p), c.tx_prio[p].bytes).Uint(kTxPrioPackets.Name(p), c.tx_prio[p].packets);
    w.Uint(kRxPrioDiscards.Name(p), c.rx_prio_discards[p]);
    w.Uint(kRxPrioPause.Name(p), c.rx_pause[p]).Uint(kRxPrioPauseDuration.Name(p), Us(n.port(0).RxPauseTime(p, now)));
    w.Uint(kTxPrioPause.Name(p), c.tx_pause[p]).Uint(kTxPrioPauseDuration.Name(p), Us(n.port(0).TxPauseTime(p, now)));
    if (pfc) w.Uint(kRxPrioPauseTransition.Name(p), c.rx_pause_transitions[p]);
  }
  w.EndObject();
  w.BeginObject(kHwCountersBlock);
  w.Uint(kNpCnpSent.name, r.np_cnp_sent).Uint(kNpEcnMarkedRocePackets.name, r.np_ecn_marked_roce_packets);
  w.Uint(kRpCnpHandled.name, r.rp_cnp_handled).Uint(kRpCnpIgnored.name, r.rp_cnp_ignored);
  w.Uint(kOutOfSequence.name, r.out_of_sequence).Uint(kDuplicateRequest.name, r.duplicate_request);
  w.Uint(kPacketSeqErr.name, r.packet_seq_err).Uint(kLocalAckTimeoutErr.name, r.local_ack_timeout_err);
  w.Uint(kReqTransportRetriesExceeded.name, r.req_transport_retries_exceeded);
  w.Uint(kReqCqeError.name, r.req_cqe_error).Uint(kReqCqeFlushError.name, r.req_cqe_flush_error);
  w.Uint(kRxWriteRequests.name, r.rx_write_requests).Uint(kRxReadRequests.name, r.rx_read_requests);
  w.Uint(kImpliedNakSeqErr.name, r.implied_nak_seq_err);
  w.Uint(kRoceAdpRetrans.name, r.roce_adp_retrans).Uint(kRoceAdpRetransTo.name, r.roce_adp_retrans_to);
  w.Uint(kRoceSlowRestart.name, r.roce_slow_restart).Uint(kRoceSlowRestartTrans.name, r.roce_slow_restart_trans);
  w.EndObject();
  WriteConfig(w, n.spec().pfc_enabled ? n.spec().lossless_mask : 0, n.spec().trust_dscp, n.spec().dscp_to_priority,
              nullptr, &n.spec(), n.reaction_point());
  const PortFaults* pf = n.port(0).faults.get();
  if (pf) {
    w.BeginObject(kSysfsBlock);
    w.Uint(kCarrierChanges.name, pf->counters.carrier_changes);
    w.String("operstate", pf->carrier ? "up" : "down");
    w.EndObject();
    if (pf->fec_on) {
      const FecCounters fc = pf->fec.Counters(now);
      w.BeginObject(kFecBlock);
      w.String("active_fec", pf->fec.mode() == FecMode::kNone ? "None" : "RS");
      w.String("code", FecModeName(pf->fec.mode()));
      w.Uint(kFecCorrectedBlocks.name, fc.corrected_codewords).Uint(kFecUncorrectableBlocks.name, fc.uncorrectable_codewords);
      w.Uint(kFecCorrectedBits.name, fc.corrected_bits);
      w.EndObject();
    }
  }
  w.BeginObject(kRocelabBlock);
  w.Uint(kRetransmittedPackets.name, r.retransmitted_packets).Uint(kBytesDelivered.name, r.bytes_delivered);
  w.Uint(kTxBusyNs.name, static_cast<uint64_t>(tx.busy / kNanosecond));
  w.Uint(kRxXoffBytes.name, n.rx_xoff()).Uint(kRxXonBytes.name, n.rx_xon());
  if (pf) w.Uint(kTxLinkDownDrops.name, pf->counters.tx_link_down_drops);
  w.EndObject();
  w.EndObject();
}

// Whether a port moved or lost a frame, or paused: what --counters nonzero keeps. `c`: the
// port's counters as its device reports them.
bool SawTraffic(const Port& port, const PortCounters& c) {
  if (port.faults) return true;
  if (c.Received().packets || c.Sent().packets || c.rx_discards || c.crc_errors) return true;
  for (int p = 0; p < kNumPriorities; ++p)
    if (c.rx_pause[p] || c.tx_pause[p]) return true;
  return false;
}

// `show pfcwd stats`, for the queues of a port where the watchdog declared a storm.
void WritePfcwd(JsonWriter& w, const PfcWatchdog& wd, int port) {
  w.BeginObject(kPfcwdBlock);
  for (int q = 0; q < kNumPriorities; ++q) {
    const PfcWatchdog::QueueStats st = wd.Stats(port, q);
    if (!st.storms_detected) continue;
    w.BeginObject(QueueName(q).c_str());
    w.String("status", st.stormed ? "stormed" : "operational");
    w.Uint(kPfcwdStormDetected.name, st.storms_detected).Uint(kPfcwdStormRestored.name, st.storms_restored);
    w.Uint(kPfcwdTxOk.name, st.tx_ok).Uint(kPfcwdTxDrop.name, st.tx_drop);
    w.Uint(kPfcwdRxOk.name, st.rx_ok).Uint(kPfcwdRxDrop.name, st.rx_drop);
    w.Uint(kPfcwdTxLastOk.name, st.tx_last_ok).Uint(kPfcwdTxLastDrop.name, st.tx_last_drop);
    w.Uint(kPfcwdRxLastOk.name, st.rx_last_ok).Uint(kPfcwdRxLastDrop.name, st.rx_last_drop);
    w.EndObject();
  }
  w.EndObject();
}

// SAI_PORT_STAT_IF_OUT_DISCARDS of a switch port: its queues' drops and the frames it sent into
// a link that was down.
uint64_t OutDiscards(const Switch& s, int port) {
  uint64_t n = 0;
  for (int q = 0; q < kNumPriorities; ++q) n += s.queue_counters(port, q).dropped_packets;
  if (const PortFaults* pf = s.port(port).faults.get()) n += pf->counters.tx_link_down_drops;
  return n;
}

void WriteSwitch(JsonWriter& w, const Switch& s, const Topology& topo, DeviceCounters counters,
                 const PfcWatchdog* wd, Time now) {
  // Each port's counters once: the received ones are gathered from its PGs.
  std::vector<PortCounters> port_counters;
  port_counters.reserve(static_cast<size_t>(s.num_ports()));
  for (int i = 0; i < s.num_ports(); ++i) port_counters.push_back(s.port_counters(i));
  if (counters == DeviceCounters::kNonzero) {
    bool any = s.ttl_expired() > 0;
    for (int i = 0; i < s.num_ports() && !any; ++i) any = SawTraffic(s.port(i), port_counters[i]);
    if (!any) return;
  }
  w.BeginObject(s.name().c_str());
  w.BeginObject("buffer");
  w.Uint("size_bytes", s.spec().buffer).Uint("shared_pool_bytes", s.shared_pool());
  w.Uint("shared_watermark_bytes", s.shared_watermark());
  if (s.headroom_pool() > 0) {
    w.Uint(kHeadroomPoolBytes.name, s.headroom_pool());
    w.Uint(kSaiBufferPoolXoffRoomWatermarkBytes.name, s.headroom_pool_watermark());
    w.Uint(kRocelabHeadroomPoolDrops.name, s.headroom_pool_drops());
  }
  w.EndObject();
  WriteConfig(w, s.pfc_mask(), s.spec().trust_dscp, s.spec().dscp_to_priority, &s.spec());
  w.Uint(kRocelabTtlExpired.name, s.ttl_expired());
  w.BeginObject("ports");
  const TopoNode& tn = topo.nodes()[topo.FindNode(s.name())];
  for (int i = 0; i < s.num_ports(); ++i) {
    const PortCounters& c = port_counters[i];
    if (counters == DeviceCounters::kNonzero && !SawTraffic(s.port(i), c)) continue;
    w.BeginObject(SwitchPortAlias(i).c_str());
    w.String("peer", topo.nodes()[tn.ports[i].peer_node].name);
    w.Uint("speed", s.port(i).rate_bps / 1000000);  // SONiC's PORT table: Mb/s
    w.Uint(kHeadroomBytes.name, s.headroom(i));
    const PortCounters::PriorityTraffic rx = c.Received();
    const PortCounters::SentTraffic tx = c.Sent();
    w.Uint(kSaiPortIfInUcastPkts.name, rx.packets).Uint(kSaiPortIfInOctets.name, rx.bytes);
    w.Uint(kSaiPortIfOutUcastPkts.name, tx.packets).Uint(kSaiPortIfOutOctets.name, tx.bytes);
    w.Uint(kSaiPortIfInErrors.name, c.crc_errors).Uint(kSaiPortIfInDiscards.name, c.rx_discards);
    w.Uint(kSaiPortIfOutDiscards.name, OutDiscards(s, i));
    if (const PortFaults* pf = s.port(i).faults.get()) {
      w.String("oper_status", pf->carrier ? "up" : "down");
      w.Uint(kSonicFlapCount.name, pf->counters.link_down_events);
      w.Uint(kSaiPortEtherRxOversizePkts.name, pf->counters.rx_oversize);
      if (pf->fec_on) {
        const FecCounters fc = pf->fec.Counters(now);
        w.Uint(kSaiPortIfInFecCorrectableFrames.name, fc.corrected_codewords);
        w.Uint(kSaiPortIfInFecNotCorrectableFrames.name, fc.uncorrectable_codewords);
        w.Uint(kSaiPortIfInFecSymbolErrors.name, fc.corrected_symbols + fc.uncorrected_symbols);
      }
      w.Uint(kRocelabTxLinkDownDrops.name, pf->counters.tx_link_down_drops);
    }
    for (int p = 0; p < kNumPriorities; ++p) {
      if (!(s.pfc_mask() & (1u << p)) && !c.rx_pause[p] && !c.tx_pause[p]) continue;
      w.Uint(kSaiPortPfcRxPkts.Name(p), c.rx_pause[p]).Uint(kSaiPortPfcTxPkts.Name(p), c.tx_pause[p]);
      w.Uint(kSaiPortPfcRxPauseDurationUs.Name(p), Us(s.port(i).RxPauseTime(p, now)));
      w.Uint(kSaiPortPfcTxPauseDurationUs.Name(p), Us(s.port(i).TxPauseTime(p, now)));
    }
    w.Uint(kRocelabTxBusyNs.name, static_cast<uint64_t>(tx.busy / kNanosecond));
    w.BeginObject(kQueuesBlock);
    for (int q = 0; q < kNumPriorities; ++q) {
      const QueueCounters& qc = s.queue_counters(i, q);
      if (!qc.packets && !qc.dropped_packets) continue;
      w.BeginObject(QueueName(q).c_str());
      w.Uint(kSaiQueuePackets.name, qc.packets).Uint(kSaiQueueBytes.name, qc.bytes);
      w.Uint(kSaiQueueDroppedPackets.name, qc.dropped_packets).Uint(kSaiQueueDroppedBytes.name, qc.dropped_bytes);
      w.Uint(kSaiQueueWredEcnMarkedPackets.name, qc.ecn_marked);
      w.Uint(kSaiQueueWatermarkBytes.name, qc.watermark_bytes);
      w.EndObject();
    }
    w.EndObject();
    w.BeginObject(kPriorityGroupsBlock);
    for (int pg = 0; pg < kNumPriorities; ++pg) {
      const PriorityGroupCounters& pc = s.pg_counters(i, pg);
      if (!pc.packets) continue;
      w.BeginObject(PriorityGroupName(pg).c_str());
      w.Uint(kSaiPgPackets.name, pc.packets);
      w.Uint(kSaiPgBytes.name, pc.bytes);
      w.Uint(kSaiPgDroppedPackets.name, pc.dropped_packets);
      w.Uint(kSaiPgSharedWatermarkBytes.name, pc.shared_watermark_bytes);
      w.Uint(kSaiPgXoffRoomWatermarkBytes.name, pc.headroom_watermark_bytes);
      w.EndObject();
    }
    w.EndObject();
    if (wd && wd->EverStormed(i)) WritePfcwd(w, *wd, i);
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
}

// What the probing agents found (run/pingmesh.h): their budget and, per path, the probes
// judged, lost, their round trips and CE marks.
void WriteProbes(JsonWriter& w, const Pingmesh& pm) {
  const Pingmesh::Budget b = pm.budget();
  w.BeginObject("probes");
  w.Double("interval_ns", static_cast<double>(pm.interval()) / kNanosecond, 3);
  w.Double("timeout_ns", static_cast<double>(pm.timeout()) / kNanosecond, 3);
  w.Uint("probes_per_round", b.pairs).Double("probes_per_s", b.probes_per_s, 0);
  w.Double("bits_per_s_per_host", b.bits_per_s_per_host, 0);
  w.Uint("sent", pm.sent()).Uint("rerouted", pm.rerouted());
  w.BeginArray("paths");
  for (const ProbePath& p : pm.paths()) {
    w.BeginObject();
    w.String("src", p.src).String("dst", p.dst).Bool("same_rack", p.same_rack);
    w.BeginArray("hops");
    for (const std::string& h : p.hops) w.StringValue(h);
    w.EndArray();
    w.Uint("judged", static_cast<uint64_t>(p.judged)).Uint("lost", static_cast<uint64_t>(p.lost));
    w.Uint("ce_marked", static_cast<uint64_t>(p.ce_marked));
    w.Double("rtt_sum_ns", p.rtt_sum_ns, 3);
    const bool answered = p.judged > p.lost;
    if (answered) w.Double("rtt_min_ns", p.rtt_min_ns, 3).Double("rtt_max_ns", p.rtt_max_ns, 3);
    else w.Null("rtt_min_ns").Null("rtt_max_ns");
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

const char* DeviceCountersName(DeviceCounters c) {
  switch (c) {
    case DeviceCounters::kAll: return "all";
    case DeviceCounters::kNonzero: return "nonzero";
    case DeviceCounters::kNone: return "none";
  }
  return "all";
}

namespace {

// The hosts' and switches' sections: every device's counters and configuration (only
// `device`'s, when one is named).
void WriteDevices(JsonWriter& w, const Experiment& x, DeviceCounters counters, const std::string& device = "") {
  const Fabric& f = x.fabric();
  w.String("device_counters", DeviceCountersName(counters));
  if (counters == DeviceCounters::kNone) return;
  w.BeginObject("hosts");
  for (const auto& n : f.nics())
    if ((device.empty() || n->name() == device) &&
        (counters == DeviceCounters::kAll || SawTraffic(n->port(0), n->port(0).counters)))
      WriteNic(w, *n, f.now());
  w.EndObject();
  w.BeginObject("switches");
  for (size_t i = 0; i < f.switches().size(); ++i)
    if (device.empty() || f.switches()[i]->name() == device)
      WriteSwitch(w, *f.switches()[i], f.topology(), counters, x.watchdog(i), f.now());
  w.EndObject();
}

}  // namespace

std::string SummaryJson(const Experiment& x, DeviceCounters counters) {
  const Fabric& f = x.fabric();
  JsonWriter w;
  const EngineStats& e = f.engine();
  const double sim_s = static_cast<double>(f.now()) / kSecond;
  w.BeginObject();
  w.String("scenario", f.scenario().name);
  w.Uint("seed", f.scenario().seed);
  // Production's timers (agents, transport, control plane, monitor) as a share of their length.
  w.Double("timer_scale", f.scenario().timer_scale);
  // The disputed readings the results rest on, each with the key that takes the other (run/assumptions.h).
  w.BeginArray("assumptions");
  for (const Assumption& a : OutcomeAssumptions(f.scenario())) {
    w.BeginObject();
    w.String("key", a.key).String("assumed", a.assumed).String("alternative", a.alternative);
    w.EndObject();
  }
  w.EndArray();
  // The NICs' DCQCN parameters as the scenario set them (nic.dcqcn), in SI units.
  if (f.scenario().nic.cc == NicSpec::Cc::kDcqcn) {
    const DcqcnParams& p = f.scenario().nic.dcqcn;
    w.BeginObject("dcqcn");
    w.String("profile", p.profile).Double("g", p.g).Uint("alpha_update_period_ns", Ns(p.alpha_update_period));
    w.Double("initial_alpha", p.initial_alpha).Uint("rate_reduce_period_ns", Ns(p.rate_reduce_period));
    w.Uint("rate_increase_period_ns", Ns(p.rate_increase_period)).Uint("byte_counter_bytes", p.byte_counter);
    w.Int("fast_recovery_stages", p.fast_recovery_stages).Uint("ai_rate_bps", p.ai_rate_bps);
    w.Uint("hai_rate_bps", p.hai_rate_bps).Uint("min_rate_bps", p.min_rate_bps).Double("min_dec_factor", p.min_dec_factor);
    w.Bool("clamp_target_rate", p.clamp_target_rate).Uint("min_time_between_cnps_ns", Ns(p.min_time_between_cnps));
    w.String("cnp_moderation", p.cnp_per_port ? "port" : "qp");
    w.EndObject();
  }
  if (f.scenario().nic.cc == NicSpec::Cc::kDctcp) {
    const DctcpParams& p = f.scenario().nic.dctcp;
    w.BeginObject("dctcp");
    w.Double("g", p.g).Double("initial_alpha", p.initial_alpha).Uint("rate_ai_bps", p.rate_ai_bps);
    w.Uint("min_rate_bps", p.min_rate_bps);
    w.EndObject();
  }
  if (f.scenario().nic.cc == NicSpec::Cc::kTimely) {
    const TimelyParams& p = f.scenario().nic.timely;
    w.BeginObject("timely");
    w.Double("alpha", p.alpha).Double("beta", p.beta).Uint("t_low_ns", Ns(p.t_low)).Uint("t_high_ns", Ns(p.t_high));
    w.Uint("min_rtt_ns", Ns(p.min_rtt)).Uint("rate_ai_bps", p.rate_ai_bps).Uint("rate_hai_bps", p.rate_hai_bps);
    w.Int("hai_after", p.hai_after).Uint("min_rate_bps", p.min_rate_bps);
    w.EndObject();
  }
  // The monitor's windows, as run: their length and when the first ended (monitor.phase).
  if (const Monitor* m = x.monitor()) {
    w.Double("monitor_window_ns", static_cast<double>(m->window()) / kNanosecond, 3);
    w.Double("monitor_phase_ns", static_cast<double>(m->phase()) / kNanosecond, 3);
    // What acts on the monitor's findings (recovery.mode).
    w.String("recovery_mode", f.scenario().recovery_auto      ? "auto"
                              : f.scenario().recovery_runbook ? "runbook"
                                                              : "off");
  }
  w.Double("sim_time_ns", static_cast<double>(f.now()) / kNanosecond, 3);
  w.BeginObject("engine");
  w.Uint("events", e.events).Uint("packet_hops", e.packet_hops);
  w.Double("wall_s", e.wall_s);
  w.Double("events_per_s", e.wall_s > 0 ? e.events / e.wall_s : 0, 0);
  w.Double("packet_hops_per_s", e.wall_s > 0 ? e.packet_hops / e.wall_s : 0, 0);
  w.Double("sim_to_wall_ratio", e.wall_s > 0 ? sim_s / e.wall_s : 0);
  w.Uint("peak_packets_in_flight", e.peak_packets);
  w.Double("bytes_per_in_flight_packet", e.bytes_per_packet, 1);
  w.Uint("peak_rss_kb", e.peak_rss_kb);
  w.Uint("huge_pages_kb", e.huge_pages_kb);  // of the memory held at the end (src/cli/huge_pages.h)
  w.Bool("lookahead", f.lookahead());        // the loop prefetched events ahead (sim/event_queue.h)
  // The faults' lifecycle, once the run is over (the monitor reads summaries mid-run: not then).
  const std::vector<FaultLifecycle> lifecycle = ComputeLifecycle(x);
  if (const Counterfactual* cf = lifecycle.empty() ? nullptr : x.counterfactual()) w.Double("counterfactual_wall_s", cf->wall_s);
  if (const Counterfactual* cap = lifecycle.empty() ? nullptr : x.capacity()) w.Double("capacity_wall_s", cap->wall_s);
  w.EndObject();
  w.BeginArray("flows");
  for (const QueuePair& qp : f.qps()) {
    if (qp.open) continue;  // a workload driver's queue pair, reported with its workload
    w.BeginObject();
    w.Uint("id", qp.id);
    w.String("src", f.topology().nodes()[f.topology().hosts()[qp.src]].name);
    w.String("dst", f.topology().nodes()[f.topology().hosts()[qp.dst]].name);
    w.Uint("priority", qp.priority).Uint("dscp", qp.dscp).Uint("bytes", qp.size);
    w.Double("start_ns", static_cast<double>(qp.start) / kNanosecond, 3);
    if (qp.done) {
      const Time fct = qp.finish - qp.start;
      w.Double("finish_ns", static_cast<double>(qp.finish) / kNanosecond, 3);
      w.Double("fct_ns", static_cast<double>(fct) / kNanosecond, 3);
      w.Double("goodput_gbps", static_cast<double>(qp.size) * 8.0 / (static_cast<double>(fct) / kNanosecond));
      w.Double("ideal_fct_ns", static_cast<double>(qp.ideal_fct) / kNanosecond, 3);
      w.Double("slowdown", qp.ideal_fct > 0 ? static_cast<double>(fct) / static_cast<double>(qp.ideal_fct) : 0.0, 4);
    } else {
      w.Null("finish_ns").Null("fct_ns").Null("goodput_gbps");
      w.Double("ideal_fct_ns", static_cast<double>(qp.ideal_fct) / kNanosecond, 3).Null("slowdown");
    }
    w.String("state", qp.done ? "finished" : qp.failed ? "qp_error" : "unfinished");
    w.String("transport", qp.windowed ? "tcp-like" : "rc");
    w.Uint("bytes_delivered", qp.delivered);
    w.EndObject();
  }
  w.EndArray();
  const Totals t = ComputeTotals(f);
  w.BeginObject("totals");
  w.Uint("drops_lossless", t.drops_lossless).Uint("drops_lossy", t.drops_lossy);
  w.Uint("pause_frames_tx", t.pause_frames_tx).Uint("pause_frames_rx", t.pause_frames_rx);
  w.Uint("ecn_marked", t.ecn_marked).Uint("cnp_sent", t.cnp_sent).Uint("cnp_handled", t.cnp_handled);
  w.Uint("retransmitted_packets", t.retransmitted_packets).Uint("crc_errors", t.crc_errors);
  w.Uint("qp_errors", t.qp_errors).Uint("bytes_delivered", t.bytes_delivered);
  w.Uint("queue_peak_bytes", t.queue_peak_bytes);
  w.EndObject();
  w.BeginArray("workloads");
  for (const auto& d : x.drivers()) d->WriteSummary(w);
  w.EndArray();
  w.BeginArray("fct_slowdown");
  for (const SlowdownRow& r : SlowdownTable(f)) {
    w.BeginObject();
    w.String("bucket", r.bucket).Uint("flows", r.count);
    w.Double("p50", r.p50, 4).Double("p95", r.p95, 4).Double("p99", r.p99, 4);
    w.EndObject();
  }
  w.EndArray();
  w.BeginArray("faults");
  for (const FaultInjector::Record& r : x.faults().records()) {
    w.BeginObject();
    w.String("kind", r.kind).String("target", r.target);
    if (r.injected >= 0) w.Double("injected_ns", static_cast<double>(r.injected) / kNanosecond, 3);
    else w.Null("injected_ns");
    if (r.cleared >= 0) w.Double("cleared_ns", static_cast<double>(r.cleared) / kNanosecond, 3);
    else w.Null("cleared_ns");
    // What the monitor (if any) made of it: its first sign (when, by which rule, where; MTTD
    // from injection), and where it put the root (localized_ns is with the lifecycle below).
    const size_t fault = &r - x.faults().records().data();
    if (const Monitor::Detection* d = x.FaultDetection(fault)) {
      w.Double("detected_ns", static_cast<double>(d->t) / kNanosecond, 3).String("detected_by", d->rule);
      w.String("detected_at", d->location);
      w.Double("mttd_ns", static_cast<double>(d->t - r.injected) / kNanosecond, 3);
      w.String("detected_tier", d->tier);
    } else {
      w.Null("detected_ns").Null("detected_by").Null("detected_at").Null("mttd_ns").Null("detected_tier");
    }
    if (r.kind == "link_flap") {
      // Its downs are link downs until there are enough of them to be a flap.
      if (const Monitor::Detection* flap = x.FlapDetection(fault))
        w.Double("flap_detected_ns", static_cast<double>(flap->t) / kNanosecond, 3)
            .Double("flap_mttd_ns", static_cast<double>(flap->t - r.injected) / kNanosecond, 3);
      else
        w.Null("flap_detected_ns").Null("flap_mttd_ns");
    }
    if (const Monitor::Detection* l = x.FaultLocalization(fault)) w.String("localized_to", l->location);
    else w.Null("localized_to");
    // What recovery (if on) did about it, and when the monitor saw its devices quiet after.
    w.BeginArray("actions");
    for (const Recovery::Action& a : x.FaultActions(fault)) {
      w.BeginObject();
      w.Double("t_ns", static_cast<double>(a.t) / kNanosecond, 3).String("tier", a.tier).String("action", a.action);
      w.String("kind", a.kind);
      if (a.rule.empty()) w.Null("rule");
      else w.String("rule", a.rule);
      w.BeginArray("devices");
      for (const std::string& d : a.devices) w.StringValue(d);
      w.EndArray();
      if (a.port.empty()) w.Null("port");
      else w.String("port", a.port);
      w.EndObject();
    }
    w.EndArray();
    // Recovered: the monitor quiet after the last action and, where the lifecycle judged the
    // workloads, every one of them back (the stricter of the two).
    const Time quiet = x.FaultRecovered(fault);
    const Time recovered = FaultRecoveredAt(x, fault, fault < lifecycle.size() ? &lifecycle[fault] : nullptr);
    if (recovered >= 0) {
      w.Double("recovered_ns", static_cast<double>(recovered) / kNanosecond, 3);
      w.Double("mttr_ns", static_cast<double>(recovered - r.injected) / kNanosecond, 3);
    } else {
      w.Null("recovered_ns").Null("mttr_ns");
    }
    if (fault < lifecycle.size()) {
      if (quiet >= 0) w.Double("quiet_ns", static_cast<double>(quiet) / kNanosecond, 3);
      else w.Null("quiet_ns");
      WriteFaultLifecycle(w, lifecycle[fault], f.scenario().cost);
    }
    w.EndObject();
  }
  w.EndArray();
  if (!lifecycle.empty()) WriteCounterfactual(w, x);
  w.BeginArray("timeline");
  for (const TimelineEvent& ev : f.timeline().events()) {
    w.BeginObject();
    w.Double("t_ns", static_cast<double>(ev.t) / kNanosecond, 3);
    w.String("device", ev.device);
    if (ev.port.empty()) w.Null("port");
    else w.String("port", ev.port);
    if (ev.priority < 0) w.Null("priority");
    else w.Uint("priority", static_cast<uint64_t>(ev.priority));
    w.String("event", ev.event).String("detail", ev.detail);
    w.EndObject();
  }
  w.EndArray();
  if (const Pingmesh* pm = x.pingmesh()) WriteProbes(w, *pm);
  WriteDevices(w, x, counters);
  w.EndObject();
  return w.str();
}

std::string DeviceCountersJson(const Experiment& x, const std::string& device) {
  JsonWriter w;
  w.BeginObject();
  w.Double("sim_time_ns", static_cast<double>(x.fabric().now()) / kNanosecond, 3);
  WriteDevices(w, x, DeviceCounters::kAll, device);
  w.EndObject();
  return w.str();
}

}  // namespace rocelab
