#include "report/prometheus.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "telemetry/counter_names.h"
#include "util/config_error.h"
#include "util/json_value.h"

namespace rocelab {
namespace {

enum class Type { kCounter, kGauge, kUntyped };

const char* TypeName(Type t) {
  switch (t) {
    case Type::kCounter: return "counter";
    case Type::kGauge: return "gauge";
    case Type::kUntyped: return "untyped";
  }
  return "untyped";
}

struct Family {
  std::string name;
  Type type;
  std::string help;
};

using Labels = std::vector<std::pair<std::string, std::string>>;

Labels With(Labels labels, const std::string& name, const std::string& value) {
  labels.emplace_back(name, value);
  return labels;
}

// The families of one exposition and their samples. A family is written once, however many
// devices add to it; two different families under one name would be a bug in the tables below.
// Two samples with the same labels would make Prometheus refuse the whole scrape, and only a
// hand-made summary (two flows with one id) can cause them: an error naming the file.
class Exposition {
 public:
  explicit Exposition(const std::string& file) : file_(file) {}

  void Add(const Family& f, const Labels& labels, const std::string& value) {
    auto [it, fresh] = families_.try_emplace(f.name, Out{f, {}});
    if (!fresh && (it->second.family.type != f.type || it->second.family.help != f.help))
      throw std::logic_error("two metric families named " + f.name);
    std::string series = f.name;
    if (!labels.empty()) {
      series += '{';
      for (size_t i = 0; i < labels.size(); ++i) {
        if (i) series += ',';
        series += labels[i].first + "=\"" + PrometheusLabelValue(labels[i].second) + '"';
      }
      series += '}';
    }
    if (!series_.insert(series).second) throw ConfigError(file_, 0, "", "two samples of " + series);
    it->second.samples += series + ' ' + value + '\n';
  }

  std::string Text() const {
    std::string out;
    for (const auto& [name, o] : families_) {
      out += "# HELP " + name + ' ' + PrometheusHelpText(o.family.help) + '\n';
      out += "# TYPE " + name + ' ' + TypeName(o.family.type) + '\n';
      out += o.samples;
    }
    return out;
  }

 private:
  struct Out {
    Family family;
    std::string samples;
  };
  const std::string& file_;
  std::map<std::string, Out> families_;  // by name: the order client libraries expose them in
  std::set<std::string> series_;
};

[[noreturn]] void ThrowConfigError(const std::string& file, int line, const std::string& key, const std::string& what) {
  throw ConfigError(file, line, key, what);
}

using Node = JsonValue;

// The sample value of `v`: whole counts exactly (past 2^53 a double would round them), anything
// divided by `divisor` (µs and ns to seconds) as the shortest text of its double.
std::string Sample(const Node& v, double divisor = 1, bool counter = false) {
  if (!v.IsNumber()) v.Expected("a number");
  const JsonDocument& n = *v.raw();
  if (counter && n.get<double>() < 0) v.Fail("a counter cannot be negative, found " + n.dump());
  if (divisor == 1 && n.is_number_unsigned()) return std::to_string(n.get<uint64_t>());
  if (divisor == 1 && n.is_number_integer()) return std::to_string(n.get<int64_t>());
  return PrometheusNumber(n.get<double>() / divisor);
}

// ---- device counters -------------------------------------------------------------------------

// The metric of one device counter. A counter kept per priority or lane is written with the
// index between prefix and suffix (rx_prio + 3 + _pause).
struct CounterMetric {
  std::string prefix, suffix;
  const char* index_label;  // "priority", "lane", or nullptr for a single counter
  std::string unit;
  double divisor;  // from the unit: a duration becomes seconds
  Family family;

  std::string Pattern() const { return index_label ? prefix + "<N>" + suffix : prefix; }
};

double DivisorOf(const std::string& unit) {
  if (unit == "us") return 1e6;
  if (unit == "ns") return 1e9;
  return 1;
}

// The HELP text: what the value means, then the device's own name for it (and its unit when the
// exposition converts it), so a reader of the scrape can find the counter in the device's docs.
CounterMetric Make(std::string prefix, std::string suffix, const char* index_label, const char* unit, const char* source,
                   const char* metric, Type type, const char* meaning) {
  CounterMetric m{std::move(prefix), std::move(suffix), index_label, unit, DivisorOf(unit), {metric, type, ""}};
  m.family.help = std::string(meaning) + "; " + source + (*source ? " " : "") + m.Pattern() +
                  (m.divisor != 1 ? std::string(", counted in ") + unit : std::string()) + ".";
  return m;
}
CounterMetric Make(const Counter& c, const char* source, const char* metric, Type type, const char* meaning) {
  return Make(c.name, "", nullptr, c.unit, source, metric, type, meaning);
}
CounterMetric Make(const PriorityCounter& c, const char* index_label, const char* source, const char* metric, Type type,
                   const char* meaning) {
  return Make(c.prefix, c.suffix, index_label, c.unit, source, metric, type, meaning);
}
// A counter counter_names.h does not declare (the buffer's, the totals).
CounterMetric Make(const char* name, const char* unit, const char* source, const char* metric, Type type,
                   const char* meaning) {
  return Make(name, "", nullptr, unit, source, metric, type, meaning);
}

constexpr Type kCounter = Type::kCounter;
constexpr Type kGauge = Type::kGauge;

// The counters of one summary.json block, and the family for those this version does not know.
struct Table {
  const char* block;
  std::vector<CounterMetric> metrics;
  Family other;
};

const char kEthtool[] = "ethtool -S";
const char kHw[] = "RDMA hw_counters";
const char kSai[] = "";  // the SAI names say so themselves
const char kOwn[] = "summary.json";

const std::vector<Table>& Tables() {
  static const std::vector<Table> tables = [] {
    const Family nic_other{"rocelab_nic_other", Type::kUntyped,
                           "A NIC counter this rocelab version has no metric for, as summary.json writes it "
                           "(unit and type unknown); block and counter name it."};
    const Family switch_other{"rocelab_switch_other", Type::kUntyped,
                              "A switch counter this rocelab version has no metric for, as summary.json writes it "
                              "(unit and type unknown); block and counter name it."};
    std::vector<Table> t;
    t.push_back({kEthtoolBlock,
                 {
                     Make(kRxPacketsPhy, kEthtool, "rocelab_nic_rx_frames_total", kCounter,
                          "Frames that arrived whole at the NIC port, PFC frames included"),
                     Make(kRxBytesPhy, kEthtool, "rocelab_nic_rx_bytes_total", kCounter,
                          "Bytes of the frames that arrived whole at the NIC port, PFC frames included"),
                     Make(kTxPacketsPhy, kEthtool, "rocelab_nic_tx_frames_total", kCounter,
                          "Frames the NIC port started sending, PFC frames included"),
                     Make(kTxBytesPhy, kEthtool, "rocelab_nic_tx_bytes_total", kCounter,
                          "Bytes of the frames the NIC port started sending, PFC frames included"),
                     Make(kRxCrcErrorsPhy, kEthtool, "rocelab_nic_rx_crc_error_frames_total", kCounter,
                          "Frames dropped for a bad FCS: bit errors on the link"),
                     Make(kRxDiscardsPhy, kEthtool, "rocelab_nic_rx_discarded_frames_total", kCounter,
                          "Frames dropped because the port's receive buffer was full"),
                     Make(kTxDiscardsPhy, kEthtool, "rocelab_nic_tx_discarded_frames_total", kCounter,
                          "Frames the port could not send: sent into a link that was down"),
                     Make(kRxOutOfBuffer, kEthtool, "rocelab_nic_rx_out_of_buffer_packets_total", kCounter,
                          "Packets the receive queues had no posted buffer for: the host did not replenish in time"),
                     Make(kTxPauseStormWarningEvents, kEthtool, "rocelab_nic_tx_pause_storm_warnings_total", kCounter,
                          "Times the pause-storm guard found the NIC pausing its peer too long"),
                     Make(kTxPauseStormErrorEvents, kEthtool, "rocelab_nic_tx_pause_storm_errors_total", kCounter,
                          "Times the pause-storm guard stopped the NIC from pausing its peer"),
                     Make(kLinkDownEventsPhy, kEthtool, "rocelab_nic_link_down_events_total", kCounter,
                          "Times the link went down"),
                     Make(kRxOversizePktsPhy, kEthtool, "rocelab_nic_rx_oversize_frames_total", kCounter,
                          "Frames over the port's MTU, dropped on arrival"),
                     Make(kRxCorrectedBitsPhy, kEthtool, "rocelab_nic_rx_corrected_bit_errors_total", kCounter,
                          "Bit errors the FEC decoder corrected"),
                     Make(kRxErrLanePhy, "lane", kEthtool, "rocelab_nic_rx_lane_corrected_bit_errors_total", kCounter,
                          "Bit errors the FEC decoder corrected, by lane"),
                     Make(kRxSymbolErrPhy, kEthtool, "rocelab_nic_rx_symbol_error_frames_total", kCounter,
                          "Frames lost to a codeword FEC could not correct"),
                     Make(kRxPcsSymbolErrPhy, kEthtool, "rocelab_nic_rx_pcs_symbol_errors_total", kCounter,
                          "Symbol errors FEC did not correct"),
                     Make(kRxPrioBytes, "priority", kEthtool, "rocelab_nic_rx_priority_bytes_total", kCounter,
                          "Bytes of good non-PFC frames received on the priority"),
                     Make(kRxPrioPackets, "priority", kEthtool, "rocelab_nic_rx_priority_frames_total", kCounter,
                          "Good non-PFC frames received on the priority"),
                     Make(kTxPrioBytes, "priority", kEthtool, "rocelab_nic_tx_priority_bytes_total", kCounter,
                          "Bytes of non-PFC frames sent on the priority"),
                     Make(kTxPrioPackets, "priority", kEthtool, "rocelab_nic_tx_priority_frames_total", kCounter,
                          "Non-PFC frames sent on the priority"),
                     Make(kRxPrioDiscards, "priority", kEthtool, "rocelab_nic_rx_priority_discarded_frames_total",
                          kCounter, "Frames of the priority dropped because the receive buffer was full"),
                     Make(kRxPrioPause, "priority", kEthtool, "rocelab_nic_rx_pause_frames_total", kCounter,
                          "PFC frames received for the priority, XOFF and XON alike"),
                     Make(kRxPrioPauseDuration, "priority", kEthtool, "rocelab_nic_rx_pause_duration_seconds_total",
                          kCounter, "Time the peer held the priority paused"),
                     Make(kRxPrioPauseTransition, "priority", kEthtool, "rocelab_nic_rx_pause_transitions_total",
                          kCounter, "Times the priority went from paused to running"),
                     Make(kTxPrioPause, "priority", kEthtool, "rocelab_nic_tx_pause_frames_total", kCounter,
                          "PFC frames the NIC sent for the priority: XOFF, its refreshes and XON"),
                     Make(kTxPrioPauseDuration, "priority", kEthtool, "rocelab_nic_tx_pause_duration_seconds_total",
                          kCounter, "Time the NIC held its peer paused on the priority"),
                 },
                 nic_other});
    // The RDMA counters keep their own names: rocelab_rdma_<name>_total.
    t.push_back({kHwCountersBlock,
                 {
                     Make(kNpEcnMarkedRocePackets, kHw, "rocelab_rdma_np_ecn_marked_roce_packets_total", kCounter,
                          "RoCE packets that arrived marked ECN CE (DCQCN notification point)"),
                     Make(kNpCnpSent, kHw, "rocelab_rdma_np_cnp_sent_total", kCounter,
                          "CNPs the notification point sent"),
                     Make(kRpCnpHandled, kHw, "rocelab_rdma_rp_cnp_handled_total", kCounter,
                          "CNPs the reaction point acted on"),
                     Make(kRpCnpIgnored, kHw, "rocelab_rdma_rp_cnp_ignored_total", kCounter,
                          "CNPs for a queue pair without congestion control, or one already finished"),
                     Make(kOutOfSequence, kHw, "rocelab_rdma_out_of_sequence_total", kCounter,
                          "Packets the responder received beyond the expected PSN, and dropped"),
                     Make(kDuplicateRequest, kHw, "rocelab_rdma_duplicate_request_total", kCounter,
                          "Packets the responder received below the expected PSN, and acknowledged again"),
                     Make(kPacketSeqErr, kHw, "rocelab_rdma_packet_seq_err_total", kCounter,
                          "NAKs for a PSN sequence error the requester received"),
                     Make(kLocalAckTimeoutErr, kHw, "rocelab_rdma_local_ack_timeout_err_total", kCounter,
                          "Times the requester's ACK timer expired with packets outstanding"),
                     Make(kImpliedNakSeqErr, kHw, "rocelab_rdma_implied_nak_seq_err_total", kCounter,
                          "READ responses beyond the next expected PSN: a response was lost"),
                     Make(kRoceAdpRetrans, kHw, "rocelab_rdma_roce_adp_retrans_total", kCounter,
                          "Adaptive retransmissions: timer expiries that resent"),
                     Make(kRoceAdpRetransTo, kHw, "rocelab_rdma_roce_adp_retrans_to_total", kCounter,
                          "Adaptive retransmissions whose timeout had grown to the queue pair's ACK timeout"),
                     Make(kRoceSlowRestart, kHw, "rocelab_rdma_roce_slow_restart_total", kCounter,
                          "Resends at a slow-restart rate"),
                     Make(kRoceSlowRestartTrans, kHw, "rocelab_rdma_roce_slow_restart_trans_total", kCounter,
                          "Queue pairs that went into slow restart"),
                     Make(kReqTransportRetriesExceeded, kHw, "rocelab_rdma_req_transport_retries_exceeded_total",
                          kCounter, "Queue pairs moved to the error state when their retries ran out"),
                     Make(kReqCqeError, kHw, "rocelab_rdma_req_cqe_error_total", kCounter,
                          "Work requests the requester completed in error"),
                     Make(kReqCqeFlushError, kHw, "rocelab_rdma_req_cqe_flush_error_total", kCounter,
                          "Work requests flushed behind one completed in error"),
                     Make(kRnrNakRetryErr, kHw, "rocelab_rdma_rnr_nak_retry_err_total", kCounter,
                          "RNR NAKs received: the responder had no receive posted for a SEND"),
                     Make(kRxWriteRequests, kHw, "rocelab_rdma_rx_write_requests_total", kCounter,
                          "RDMA WRITEs the responder accepted"),
                     Make(kRxReadRequests, kHw, "rocelab_rdma_rx_read_requests_total", kCounter,
                          "RDMA READ requests the responder accepted"),
                 },
                 nic_other});
    t.push_back({kRocelabBlock,
                 {
                     Make(kRetransmittedPackets, kOwn, "rocelab_nic_retransmitted_packets_total", kCounter,
                          "Data packets sent again with a PSN sent before (go-back-N)"),
                     Make(kBytesDelivered, kOwn, "rocelab_nic_delivered_bytes_total", kCounter,
                          "Payload the responder accepted in order, each byte once"),
                     Make(kTxBusyNs, kOwn, "rocelab_nic_tx_busy_seconds_total", kCounter,
                          "Wire time of everything the port sent, preamble and inter-frame gap included"),
                     Make(kRxXoffBytes, kOwn, "rocelab_nic_rx_xoff_threshold_bytes", kGauge,
                          "Receive-buffer occupancy at which the NIC pauses its peer (setting)"),
                     Make(kRxXonBytes, kOwn, "rocelab_nic_rx_xon_threshold_bytes", kGauge,
                          "Receive-buffer occupancy at which the NIC lets its peer resume (setting)"),
                     Make(kTxLinkDownDrops, kOwn, "rocelab_nic_tx_link_down_dropped_frames_total", kCounter,
                          "Frames the NIC sent while its carrier was down: lost at the PHY"),
                 },
                 nic_other});
    t.push_back({kSysfsBlock,
                 {Make(kCarrierChanges, "/sys/class/net/<netdev>/", "rocelab_nic_carrier_changes_total", kCounter,
                       "Times the link went down or came up")},
                 nic_other});
    t.push_back({kFecBlock,
                 {
                     Make(kFecCorrectedBlocks, "ethtool --show-fec", "rocelab_nic_fec_corrected_codewords_total",
                          kCounter, "Codewords the FEC decoder corrected"),
                     Make(kFecUncorrectableBlocks, "ethtool --show-fec",
                          "rocelab_nic_fec_uncorrectable_codewords_total", kCounter,
                          "Codewords the FEC decoder gave up on"),
                     Make(kFecCorrectedBits, "ethtool --show-fec", "rocelab_nic_fec_corrected_bit_errors_total",
                          kCounter, "Bit errors the FEC decoder corrected"),
                 },
                 nic_other});
    t.push_back({"switch",
                 {Make(kRocelabTtlExpired, kOwn, "rocelab_switch_ttl_expired_packets_total", kCounter,
                       "Packets dropped because their TTL ran out: a routing loop")},
                 switch_other});
    t.push_back({"buffer",
                 {
                     Make("size_bytes", "bytes", kOwn, "rocelab_switch_buffer_size_bytes", kGauge,
                          "The switch's shared buffer (setting)"),
                     Make("shared_pool_bytes", "bytes", kOwn, "rocelab_switch_buffer_shared_pool_bytes", kGauge,
                          "The shared pool: the buffer less every lossless priority group's headroom"),
                     Make("shared_watermark_bytes", "bytes", kOwn, "rocelab_switch_buffer_shared_watermark_bytes",
                          kGauge, "Highest occupancy of the shared pool"),
                     Make(kHeadroomPoolBytes, kOwn, "rocelab_switch_buffer_headroom_pool_bytes", kGauge,
                          "The shared headroom pool: the lossless priority groups' headroom over the over-subscribe ratio"),
                     Make(kSaiBufferPoolXoffRoomWatermarkBytes, kSai,
                          "rocelab_switch_buffer_headroom_pool_watermark_bytes", kGauge,
                          "Highest occupancy of the shared headroom pool"),
                     Make(kRocelabHeadroomPoolDrops, kOwn, "rocelab_switch_buffer_headroom_pool_drops_total", kCounter,
                          "Lossless frames dropped because the shared headroom pool was full"),
                 },
                 switch_other});
    t.push_back({"ports",
                 {
                     Make(kHeadroomBytes, kOwn, "rocelab_switch_port_headroom_bytes", kGauge,
                          "Headroom reserved for each lossless priority group of the port (setting)"),
                     Make(kSaiPortIfInUcastPkts, kSai, "rocelab_switch_port_in_ucast_packets_total", kCounter,
                          "Frames that arrived whole at the port, PFC frames included"),
                     Make(kSaiPortIfInOctets, kSai, "rocelab_switch_port_in_bytes_total", kCounter,
                          "Bytes of the frames that arrived whole at the port"),
                     Make(kSaiPortIfOutUcastPkts, kSai, "rocelab_switch_port_out_ucast_packets_total", kCounter,
                          "Frames the port started sending, PFC frames included"),
                     Make(kSaiPortIfOutOctets, kSai, "rocelab_switch_port_out_bytes_total", kCounter,
                          "Bytes of the frames the port started sending"),
                     Make(kSaiPortIfInErrors, kSai, "rocelab_switch_port_in_errors_total", kCounter,
                          "Frames dropped for a bad FCS"),
                     Make(kSaiPortIfInDiscards, kSai, "rocelab_switch_port_in_discards_total", kCounter,
                          "Ingress drops: headroom overflow, no route, over the MTU or TTL expired"),
                     Make(kSaiPortIfOutDiscards, kSai, "rocelab_switch_port_out_discards_total", kCounter,
                          "Egress drops: refused by a lossy queue, or sent into a link that was down"),
                     Make(kSaiPortIfInFecCorrectableFrames, kSai,
                          "rocelab_switch_port_in_fec_correctable_codewords_total", kCounter,
                          "Codewords FEC corrected on the port's receive side (SAI says frames, counts codewords)"),
                     Make(kSaiPortIfInFecNotCorrectableFrames, kSai,
                          "rocelab_switch_port_in_fec_not_correctable_codewords_total", kCounter,
                          "Codewords FEC gave up on; their frames arrive with a bad FCS"),
                     Make(kSaiPortIfInFecSymbolErrors, kSai, "rocelab_switch_port_in_fec_symbol_errors_total",
                          kCounter, "Errored symbols on the port's receive side, corrected or not"),
                     Make(kSaiPortEtherRxOversizePkts, kSai, "rocelab_switch_port_rx_oversize_packets_total",
                          kCounter, "Frames over the port's MTU, dropped on arrival"),
                     Make(kSonicFlapCount, "SONiC STATE_DB PORT_TABLE", "rocelab_switch_port_flaps_total", kCounter,
                          "Times the port's link went down"),
                     Make(kRocelabTxLinkDownDrops, kOwn, "rocelab_switch_port_tx_link_down_dropped_frames_total",
                          kCounter, "Frames the port sent while its carrier was down: lost at the PHY"),
                     Make(kRocelabTxBusyNs, kOwn, "rocelab_switch_port_tx_busy_seconds_total", kCounter,
                          "Wire time of everything the port sent"),
                     Make(kSaiPortPfcRxPkts, "priority", kSai, "rocelab_switch_port_pfc_rx_packets_total", kCounter,
                          "PFC frames received for the priority"),
                     Make(kSaiPortPfcTxPkts, "priority", kSai, "rocelab_switch_port_pfc_tx_packets_total", kCounter,
                          "PFC frames the port sent for the priority"),
                     Make(kSaiPortPfcRxPauseDurationUs, "priority", kSai,
                          "rocelab_switch_port_pfc_rx_pause_duration_seconds_total", kCounter,
                          "Time the peer held the port's egress priority paused"),
                     Make(kSaiPortPfcTxPauseDurationUs, "priority", kSai,
                          "rocelab_switch_port_pfc_tx_pause_duration_seconds_total", kCounter,
                          "Time the port held its peer paused on the priority"),
                 },
                 {"rocelab_switch_port_other", Type::kUntyped,
                  "A switch port counter this rocelab version has no metric for, as summary.json writes it "
                  "(unit and type unknown); counter names it."}});
    t.push_back({kQueuesBlock,
                 {
                     Make(kSaiQueuePackets, kSai, "rocelab_switch_queue_packets_total", kCounter,
                          "Packets the egress queue sent"),
                     Make(kSaiQueueBytes, kSai, "rocelab_switch_queue_bytes_total", kCounter,
                          "Bytes the egress queue sent"),
                     Make(kSaiQueueDroppedPackets, kSai, "rocelab_switch_queue_dropped_packets_total", kCounter,
                          "Packets refused at admission to the queue (only a lossy queue drops here)"),
                     Make(kSaiQueueDroppedBytes, kSai, "rocelab_switch_queue_dropped_bytes_total", kCounter,
                          "Bytes refused at admission to the queue"),
                     Make(kSaiQueueWredEcnMarkedPackets, kSai, "rocelab_switch_queue_wred_ecn_marked_packets_total",
                          kCounter, "Packets RED marked ECN CE"),
                     Make(kSaiQueueWatermarkBytes, kSai, "rocelab_switch_queue_watermark_bytes", kGauge,
                          "Highest length the queue reached"),
                 },
                 {"rocelab_switch_queue_other", Type::kUntyped,
                  "A switch queue counter this rocelab version has no metric for, as summary.json writes it "
                  "(unit and type unknown); counter names it."}});
    t.push_back({kPriorityGroupsBlock,
                 {
                     Make(kSaiPgPackets, kSai, "rocelab_switch_pg_packets_total", kCounter,
                          "Non-PFC frames that arrived in the ingress priority group"),
                     Make(kSaiPgBytes, kSai, "rocelab_switch_pg_bytes_total", kCounter,
                          "Bytes of the frames that arrived in the ingress priority group"),
                     Make(kSaiPgDroppedPackets, kSai, "rocelab_switch_pg_dropped_packets_total", kCounter,
                          "Frames dropped for lack of headroom: the only loss a lossless class can see"),
                     Make(kSaiPgSharedWatermarkBytes, kSai, "rocelab_switch_pg_shared_watermark_bytes", kGauge,
                          "Highest shared-pool occupancy of the priority group"),
                     Make(kSaiPgXoffRoomWatermarkBytes, kSai, "rocelab_switch_pg_xoff_room_watermark_bytes", kGauge,
                          "Highest headroom occupancy of the priority group (compare with the port's headroom)"),
                 },
                 {"rocelab_switch_pg_other", Type::kUntyped,
                  "A switch priority-group counter this rocelab version has no metric for, as summary.json writes "
                  "it (unit and type unknown); counter names it."}});
    const char* const wd = "show pfcwd stats";
    t.push_back({kPfcwdBlock,
                 {
                     Make(kPfcwdStormDetected, wd, "rocelab_switch_pfcwd_storms_detected_total", kCounter,
                          "PFC storms the watchdog detected on the queue"),
                     Make(kPfcwdStormRestored, wd, "rocelab_switch_pfcwd_storms_restored_total", kCounter,
                          "PFC storms after which the watchdog restored the queue"),
                     Make(kPfcwdTxOk, wd, "rocelab_switch_pfcwd_tx_ok_packets_total", kCounter,
                          "Packets the queue sent while stormed"),
                     Make(kPfcwdTxDrop, wd, "rocelab_switch_pfcwd_tx_dropped_packets_total", kCounter,
                          "Packets the watchdog dropped at the queue's egress while stormed"),
                     Make(kPfcwdRxOk, wd, "rocelab_switch_pfcwd_rx_ok_packets_total", kCounter,
                          "Packets of the priority received while the queue was stormed"),
                     Make(kPfcwdRxDrop, wd, "rocelab_switch_pfcwd_rx_dropped_packets_total", kCounter,
                          "Packets of the priority the watchdog dropped on ingress while stormed"),
                     Make(kPfcwdTxLastOk, wd, "rocelab_switch_pfcwd_last_storm_tx_ok_packets", kGauge,
                          "Packets the queue sent during its last storm"),
                     Make(kPfcwdTxLastDrop, wd, "rocelab_switch_pfcwd_last_storm_tx_dropped_packets",
                          kGauge, "Packets dropped at the queue's egress during its last storm"),
                     Make(kPfcwdRxLastOk, wd, "rocelab_switch_pfcwd_last_storm_rx_ok_packets", kGauge,
                          "Packets of the priority received during the queue's last storm"),
                     Make(kPfcwdRxLastDrop, wd, "rocelab_switch_pfcwd_last_storm_rx_dropped_packets",
                          kGauge, "Packets of the priority dropped on ingress during the queue's last storm"),
                 },
                 {"rocelab_switch_pfcwd_other", Type::kUntyped,
                  "A PFC watchdog counter this rocelab version has no metric for, as summary.json writes it "
                  "(unit and type unknown); counter names it."}});
    const char* const sum = "summary.json totals";
    t.push_back({"totals",
                 {
                     Make("drops_lossless", "frames", sum, "rocelab_fabric_lossless_drops_total", kCounter,
                          "Frames lost in a lossless class: switch headroom overflows and NIC discards"),
                     Make("drops_lossy", "frames", sum, "rocelab_fabric_lossy_drops_total", kCounter,
                          "Frames lost in a lossy class: switch queue drops and NIC discards"),
                     Make("pause_frames_tx", "frames", sum, "rocelab_fabric_tx_pause_frames_total", kCounter,
                          "PFC frames every port sent, all priorities"),
                     Make("pause_frames_rx", "frames", sum, "rocelab_fabric_rx_pause_frames_total", kCounter,
                          "PFC frames every port received, all priorities"),
                     Make("ecn_marked", "packets", sum, "rocelab_fabric_ecn_marked_packets_total", kCounter,
                          "Packets the switch queues marked ECN CE"),
                     Make("cnp_sent", "packets", sum, "rocelab_fabric_cnp_sent_total", kCounter,
                          "CNPs the NICs sent"),
                     Make("cnp_handled", "packets", sum, "rocelab_fabric_cnp_handled_total", kCounter,
                          "CNPs the NICs acted on"),
                     Make("retransmitted_packets", "packets", sum, "rocelab_fabric_retransmitted_packets_total",
                          kCounter, "Data packets the NICs sent again"),
                     Make("crc_errors", "frames", sum, "rocelab_fabric_crc_errors_total", kCounter,
                          "Frames every port dropped for a bad FCS"),
                     Make("qp_errors", "QPs", sum, "rocelab_fabric_qp_errors_total", kCounter,
                          "Queue pairs that went to the error state"),
                     Make("bytes_delivered", "bytes", sum, "rocelab_fabric_delivered_bytes_total", kCounter,
                          "Payload the NICs accepted in order"),
                     Make("queue_peak_bytes", "bytes", sum, "rocelab_fabric_queue_peak_bytes", kGauge,
                          "The deepest any switch egress queue got"),
                 },
                 {"rocelab_fabric_other", Type::kUntyped,
                  "A total this rocelab version has no metric for, as summary.json writes it (unit and type "
                  "unknown); counter names it."}});
    return t;
  }();
  return tables;
}

const Table& TableOf(const std::string& block) {
  for (const Table& t : Tables())
    if (block == t.block) return t;
  throw std::logic_error("no metric table for " + block);
}

// The metric of counter `name`, or nullptr; a priority or lane in the name goes to *index. The
// number must be written as the devices write it (no leading zero, a priority from 0 to 7):
// rx_prio03_pause is no device's counter, and goes to the family of unknown ones.
const CounterMetric* Find(const Table& t, const std::string& name, std::string* index) {
  for (const CounterMetric& m : t.metrics) {
    if (!m.index_label) {
      if (name == m.prefix) return &m;
      continue;
    }
    const size_t fixed = m.prefix.size() + m.suffix.size();
    if (name.size() <= fixed || name.compare(0, m.prefix.size(), m.prefix) != 0 ||
        name.compare(name.size() - m.suffix.size(), m.suffix.size(), m.suffix) != 0)
      continue;
    const std::string digits = name.substr(m.prefix.size(), name.size() - fixed);
    if (digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos ||
        (digits.size() > 1 && digits[0] == '0'))
      continue;
    if (std::string(m.index_label) == "priority" && std::stoi(digits) > 7) continue;
    *index = digits;
    return &m;
  }
  return nullptr;
}

// One numeric member of a counter block. `block_label`: the table's family for unknown counters
// is shared by several blocks, so it names the block.
void AddCounter(Exposition& out, const Table& t, const std::string& name, const Node& v, Labels labels,
                bool block_label = false) {
  std::string index;
  if (const CounterMetric* m = Find(t, name, &index)) {
    if (m->index_label) labels.emplace_back(m->index_label, index);
    labels.emplace_back("counter", name);
    out.Add(m->family, labels, Sample(v, m->divisor, m->family.type == Type::kCounter));
    return;
  }
  if (block_label) labels.emplace_back("block", t.block);
  labels.emplace_back("counter", name);
  out.Add(t.other, labels, Sample(v));
}

// Whether a member of an object that also holds words and blocks (a switch, a port) is a
// counter: any number, and a counter's name whatever it holds, so a counter written as text is
// an error rather than missing.
bool IsCounter(const Table& t, const std::string& name, const Node& v) {
  std::string index;
  return v.IsNumber() || (v.present() && Find(t, name, &index));
}

// Every number of a block; `words` lists the members that are text beside the counters.
void AddBlock(Exposition& out, const Node& block, const char* table, const Labels& labels, bool block_label,
              std::initializer_list<const char*> words = {}) {
  const Table& t = TableOf(table);
  for (const auto& [name, v] : block.Members()) {
    bool word = false;
    for (const char* w : words) word |= name == w;
    if (!word && v.present()) AddCounter(out, t, name, v, labels, block_label);
  }
}

// "UC3" -> "3": the index of a queue or priority group as the other labels write priorities.
std::string IndexOf(const std::string& name, const char* prefix, const Node& n) {
  const std::string p = prefix;
  const std::string digits = name.size() > p.size() && name.compare(0, p.size(), p) == 0 ? name.substr(p.size()) : "";
  if (digits.size() != 1 || digits[0] < '0' || digits[0] > '7') n.Fail("not a name from " + p + "0 to " + p + "7");
  return digits;
}

// ---- the other families ----------------------------------------------------------------------

const Family kRunInfo{"rocelab_run_info", Type::kGauge,
                      "The run: its scenario, seed and how many device counters summary.json holds; always 1."};
const Family kRunSimulated{"rocelab_run_simulated_seconds", Type::kGauge, "Simulated time the run covered."};
const Family kRunTimerScale{"rocelab_run_timer_scale", Type::kGauge,
                            "Production's timers as they run, a share of their length (timers.scale)."};

const Family kNicInfo{"rocelab_nic_info", Type::kGauge,
                      "A host's NIC: its RDMA device, DSCP or PCP trust and congestion control; always 1."};
const Family kNicPfcEnabled{"rocelab_nic_pfc_enabled", Type::kGauge, "1 where the NIC has PFC on for the priority."};
const Family kNicOperUp{"rocelab_nic_oper_up", Type::kGauge,
                        "1 when the netdev's operstate was up at the end of the run (sysfs operstate)."};
const Family kNicSpeed{"rocelab_nic_speed_bytes", Type::kGauge, "The NIC port's speed in bytes per second (ethtool Speed), as node_exporter's node_network_speed_bytes."};
const Family kNicFecInfo{"rocelab_nic_fec_info", Type::kGauge,
                         "The FEC in force on the NIC port (ethtool --show-fec); always 1."};

const Family kSwitchInfo{"rocelab_switch_info", Type::kGauge, "A switch: its DSCP or PCP trust; always 1."};
const Family kSwitchPfcEnabled{"rocelab_switch_pfc_enabled", Type::kGauge,
                               "1 where the switch has PFC on for the priority."};
const Family kSwitchEcnEnabled{"rocelab_switch_ecn_enabled", Type::kGauge, "1 when the switch marks ECN."};
const Family kSwitchEcnKmin{"rocelab_switch_ecn_kmin_bytes", Type::kGauge,
                            "Queue length at which RED starts marking ECN (setting)."};
const Family kSwitchEcnKmax{"rocelab_switch_ecn_kmax_bytes", Type::kGauge,
                            "Queue length at which RED marks with its highest probability (setting)."};
const Family kSwitchMtu{"rocelab_switch_mtu_bytes", Type::kGauge, "The switch's MTU (setting)."};
const Family kPortInfo{"rocelab_switch_port_info", Type::kGauge, "A switch port and the device at its other end; always 1."};
const Family kPortSpeed{"rocelab_switch_port_speed_bytes", Type::kGauge,
                        "The port's speed in bytes per second (SONiC PORT table speed)."};
const Family kPortOperUp{"rocelab_switch_port_oper_up", Type::kGauge,
                         "1 when the port's oper_status was up at the end of the run."};
const Family kPfcwdStormed{"rocelab_switch_pfcwd_stormed", Type::kGauge,
                           "1 while the PFC watchdog holds the queue as stormed (show pfcwd stats STATUS)."};

const Family kFlowSize{"rocelab_flow_size_bytes", Type::kGauge, "The flow's message size."};
const Family kFlowDelivered{"rocelab_flow_delivered_bytes_total", Type::kCounter,
                            "Bytes of the flow the receiver accepted in order."};
const Family kFlowStart{"rocelab_flow_start_seconds", Type::kGauge,
                        "Simulated time the flow's work request was posted."};
const Family kFlowFct{"rocelab_flow_fct_seconds", Type::kGauge,
                      "Flow completion time: posting the work request to the ACK of its last packet (finished flows)."};
const Family kFlowIdealFct{"rocelab_flow_ideal_fct_seconds", Type::kGauge,
                           "The flow's completion time alone on an idle path."};
const Family kFlowSlowdown{"rocelab_flow_fct_slowdown_ratio", Type::kGauge,
                           "FCT over ideal FCT (finished flows)."};
const Family kFlowGoodput{"rocelab_flow_goodput_bytes_per_second", Type::kGauge,
                          "Message size over FCT (finished flows)."};
const Family kFlowState{"rocelab_flow_state", Type::kGauge,
                        "The flow's state at the end of the run (finished, qp_error or unfinished); always 1."};
const Family kSlowdown{"rocelab_fct_slowdown_ratio", Type::kGauge,
                       "Nearest-rank percentile of FCT over ideal FCT of the finished flows in a size bucket."};
const Family kSlowdownFlows{"rocelab_fct_slowdown_flows", Type::kGauge,
                            "Finished flows in the size bucket the slowdown percentiles are taken over."};
const Family kFaultInjected{"rocelab_fault_injected_seconds", Type::kGauge, "Simulated time the fault began."};
const Family kFaultCleared{"rocelab_fault_cleared_seconds", Type::kGauge, "Simulated time the fault was undone."};
// Its lifecycle (docs/faults.md): what the monitor saw, what recovery did, what it cost.
const Family kFaultDetected{"rocelab_fault_detected_seconds", Type::kGauge,
                            "Simulated time of the monitor's first sign of the fault (rule, tier and where: labels)."};
const Family kFaultMttd{"rocelab_fault_mttd_seconds", Type::kGauge, "Time from injection to detection."};
const Family kFaultLocalized{"rocelab_fault_localized_seconds", Type::kGauge,
                             "Simulated time the monitor first named the fault's target (location: label)."};
const Family kFaultActions{"rocelab_fault_actions_total", Type::kCounter, "Recovery actions taken on the fault, per tier."};
const Family kFaultRecovered{"rocelab_fault_recovered_seconds", Type::kGauge,
                             "Simulated time the fault was recovered: the monitor quiet about it and every workload back."};
const Family kFaultMttr{"rocelab_fault_mttr_seconds", Type::kGauge, "Time from injection to recovery."};
const Family kFaultDegraded{"rocelab_fault_degraded_seconds", Type::kGauge, "How long the workloads ran degraded."};
const Family kFaultLost{"rocelab_fault_lost_seconds", Type::kGauge,
                        "Work time lost to the fault against the run without it (lost_from in summary.json says how)."};
const Family kFaultFlowsFailed{"rocelab_fault_flows_failed", Type::kGauge, "Queue pairs that went to error during the fault."};
const Family kFaultDropped{"rocelab_fault_action_dropped_bytes_total", Type::kCounter,
                           "Frame bytes recovery's actions dropped on purpose, by the agent that dropped them."};
const Family kFaultCost{"rocelab_fault_cost", Type::kGauge, "What the lost time cost (currency: label)."};

void AddRun(Exposition& out, const Node& root) {
  out.Add(kRunInfo,
          {{"scenario", root["scenario"].Text()},
           {"seed", root["seed"].Text()},
           {"device_counters", root["device_counters"].Text()}},
          "1");
  if (root["sim_time_ns"].present()) out.Add(kRunSimulated, {}, Sample(root["sim_time_ns"], 1e9));
  if (root["timer_scale"].present()) out.Add(kRunTimerScale, {}, Sample(root["timer_scale"]));
}

// The flows, the slowdown table and the faults.
void AddResults(Exposition& out, const Node& root) {
  for (const Node& f : root["flows"].Items()) {
    const Labels at = {{"flow", f["id"].Text()}, {"src", f["src"].Text()}, {"dst", f["dst"].Text()},
                       {"priority", f["priority"].Text()}};
    if (f["bytes"].present()) out.Add(kFlowSize, at, Sample(f["bytes"]));
    if (f["bytes_delivered"].present()) out.Add(kFlowDelivered, at, Sample(f["bytes_delivered"], 1, true));
    if (f["start_ns"].present()) out.Add(kFlowStart, at, Sample(f["start_ns"], 1e9));
    if (f["fct_ns"].present()) out.Add(kFlowFct, at, Sample(f["fct_ns"], 1e9));
    if (f["ideal_fct_ns"].present()) out.Add(kFlowIdealFct, at, Sample(f["ideal_fct_ns"], 1e9));
    if (f["slowdown"].present()) out.Add(kFlowSlowdown, at, Sample(f["slowdown"]));
    if (f["goodput_gbps"].present()) out.Add(kFlowGoodput, at, PrometheusNumber(f["goodput_gbps"].Number() * 1e9 / 8));
    if (f["state"].present()) out.Add(kFlowState, With(at, "state", f["state"].String()), "1");
  }
  for (const Node& r : root["fct_slowdown"].Items()) {
    const Labels at = {{"bucket", r["bucket"].String()}};
    out.Add(kSlowdownFlows, at, Sample(r["flows"]));
    if (r["flows"].Int(0, INT32_MAX) == 0) continue;  // no percentile of nothing
    for (const char* p : {"p50", "p95", "p99"})
      if (r[p].present()) out.Add(kSlowdown, With(at, "percentile", p), Sample(r[p]));
  }
  const std::vector<Node> faults = root["faults"].Items();
  for (size_t i = 0; i < faults.size(); ++i) {
    const Node& f = faults[i];
    const Labels at = {{"fault", std::to_string(i)}, {"kind", f["kind"].String()}, {"target", f["target"].String()}};
    // The lifecycle's times, each in seconds where summary.json has it.
    const std::pair<const Family*, const char*> kTimes[] = {
        {&kFaultInjected, "injected_ns"}, {&kFaultCleared, "cleared_ns"}, {&kFaultRecovered, "recovered_ns"},
        {&kFaultMttr, "mttr_ns"},         {&kFaultDegraded, "degraded_ns"}, {&kFaultLost, "lost_ns"}};
    for (const auto& [family, key] : kTimes)
      if (f[key].present()) out.Add(*family, at, Sample(f[key], 1e9));
    if (f["detected_ns"].present()) {
      Labels d = With(With(With(at, "rule", f["detected_by"].String()), "tier", f["detected_tier"].String()), "location",
                      f["detected_at"].String());
      out.Add(kFaultDetected, d, Sample(f["detected_ns"], 1e9));
      out.Add(kFaultMttd, at, Sample(f["mttd_ns"], 1e9));
    }
    if (f["localized_ns"].present() && f["localized_to"].present())
      out.Add(kFaultLocalized, With(at, "location", f["localized_to"].String()), Sample(f["localized_ns"], 1e9));
    std::map<std::string, uint64_t> by_tier;
    for (const Node& a : f["actions"].Items()) by_tier[a["tier"].String()] += 1;
    for (const auto& [tier, n] : by_tier) out.Add(kFaultActions, With(at, "tier", tier), std::to_string(n));
    if (f["flows_failed"].present()) out.Add(kFaultFlowsFailed, at, Sample(f["flows_failed"]));
    for (const auto& [agent, bytes] : f["dropped_by"].Members())
      out.Add(kFaultDropped, With(at, "agent", agent), Sample(bytes, 1, true));
    const Node cost = f["cost"];
    if (cost.present() && cost["amount"].present())
      out.Add(kFaultCost, With(at, "currency", cost["currency"].String()), Sample(cost["amount"]));
  }
}

// The priorities with PFC on, as 1 for each listed and 0 for the others.
void AddPfcEnabled(Exposition& out, const Family& f, const Node& config, const Labels& at) {
  const Node list = config["pfc_priorities"];
  if (!list.present()) return;
  bool on[8] = {};
  for (const Node& p : list.Items()) on[p.Int(0, 7)] = true;
  for (int p = 0; p < 8; ++p) out.Add(f, With(at, "priority", std::to_string(p)), on[p] ? "1" : "0");
}

void AddHost(Exposition& out, const std::string& host, const Node& h) {
  const Labels at = {{"device", host}, {"port", h["netdev"].String()}};
  const Node config = h["config"];
  out.Add(kNicInfo,
          {{"device", host},
           {"port", h["netdev"].String()},
           {"rdma_device", h["rdma_device"].String()},
           {"trust", config["trust"].String()},
           {"congestion_control", config["congestion_control"].String()}},
          "1");
  AddPfcEnabled(out, kNicPfcEnabled, config, at);
  if (h["speed_mbps"].present()) out.Add(kNicSpeed, at, std::to_string(static_cast<uint64_t>(h["speed_mbps"].Number()) * 125000));
  AddBlock(out, h[kEthtoolBlock], kEthtoolBlock, at, true);
  AddBlock(out, h[kHwCountersBlock], kHwCountersBlock, at, true);
  AddBlock(out, h[kRocelabBlock], kRocelabBlock, at, true);
  const Node sysfs = h[kSysfsBlock];
  AddBlock(out, sysfs, kSysfsBlock, at, true, {"operstate"});
  if (sysfs["operstate"].present()) out.Add(kNicOperUp, With(at, "counter", "operstate"), sysfs["operstate"].String() == "up" ? "1" : "0");
  const Node fec = h[kFecBlock];
  AddBlock(out, fec, kFecBlock, at, true, {"active_fec", "code"});
  if (fec.present())
    out.Add(kNicFecInfo, With(With(at, "active_fec", fec["active_fec"].String()), "code", fec["code"].String()), "1");
}

void AddSwitch(Exposition& out, const std::string& name, const Node& s) {
  const Labels at = {{"device", name}};
  const Node config = s["config"];
  if (config.present()) {
    out.Add(kSwitchInfo, With(at, "trust", config["trust"].String()), "1");
    AddPfcEnabled(out, kSwitchPfcEnabled, config, at);
    if (config["ecn_enabled"].present()) out.Add(kSwitchEcnEnabled, at, config["ecn_enabled"].Bool() ? "1" : "0");
    if (config["ecn_kmin"].present()) out.Add(kSwitchEcnKmin, at, Sample(config["ecn_kmin"]));
    if (config["ecn_kmax"].present()) out.Add(kSwitchEcnKmax, at, Sample(config["ecn_kmax"]));
    if (config["mtu"].present()) out.Add(kSwitchMtu, at, Sample(config["mtu"]));
  }
  AddBlock(out, s["buffer"], "buffer", at, true);
  const Table& own = TableOf("switch");
  for (const auto& [key, v] : s.Members())
    if (IsCounter(own, key, v)) AddCounter(out, own, key, v, at, true);
  for (const auto& [port, p] : s["ports"].Members()) {
    const Labels pat = With(at, "port", port);
    if (p["peer"].present()) out.Add(kPortInfo, With(pat, "peer", p["peer"].String()), "1");
    if (p["oper_status"].present())
      out.Add(kPortOperUp, With(pat, "counter", "oper_status"), p["oper_status"].String() == "up" ? "1" : "0");
    if (p["speed"].present()) out.Add(kPortSpeed, pat, std::to_string(static_cast<uint64_t>(p["speed"].Number()) * 125000));
    const Table& t = TableOf("ports");
    for (const auto& [key, v] : p.Members())
      if (key != "speed" && IsCounter(t, key, v)) AddCounter(out, t, key, v, pat);
    for (const auto& [q, counters] : p[kQueuesBlock].Members())
      AddBlock(out, counters, kQueuesBlock, With(pat, "queue", IndexOf(q, "UC", counters)), false);
    for (const auto& [pg, counters] : p[kPriorityGroupsBlock].Members())
      AddBlock(out, counters, kPriorityGroupsBlock, With(pat, "pg", IndexOf(pg, "PG", counters)), false);
    for (const auto& [q, stats] : p[kPfcwdBlock].Members()) {
      const Labels qat = With(pat, "queue", IndexOf(q, "UC", stats));
      AddBlock(out, stats, kPfcwdBlock, qat, false, {"status"});
      if (stats["status"].present())
        out.Add(kPfcwdStormed, With(qat, "counter", "status"), stats["status"].String() == "stormed" ? "1" : "0");
    }
  }
}

}  // namespace

std::string PrometheusLabelValue(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string PrometheusHelpText(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string PrometheusNumber(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, r.ptr);
}

std::string PrometheusText(const std::string& summary_json, const std::string& file) {
  const JsonDocument doc = ParseJsonDocument(summary_json, file, ThrowConfigError, "not a rocelab summary.json: ");
  if (!doc.is_object() || !(doc.contains("sim_time_ns") || doc.contains("hosts") || doc.contains("switches")))
    throw ConfigError(file, 0, "", "not a rocelab summary.json (no sim_time_ns, hosts or switches)");
  const Node root(&doc, file, "", ThrowConfigError);
  Exposition out(file);
  AddRun(out, root);
  for (const auto& [key, v] : root["totals"].Members()) AddCounter(out, TableOf("totals"), key, v, {});
  AddResults(out, root);
  for (const auto& [host, h] : root["hosts"].Members()) AddHost(out, host, h);
  for (const auto& [name, s] : root["switches"].Members()) AddSwitch(out, name, s);
  return out.Text();
}

std::vector<PrometheusCounterMetric> PrometheusCounterMetrics() {
  std::vector<PrometheusCounterMetric> out;
  for (const Table& t : Tables())
    for (const CounterMetric& m : t.metrics)
      out.push_back({t.block, m.Pattern(), m.unit, m.family.name, m.family.type == Type::kCounter});
  return out;
}

}  // namespace rocelab
