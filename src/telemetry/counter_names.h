// The counter vocabulary: each counter rocelab exports or reads, named once,
// with its unit and the device that shows it.
//
// summary.json is written with these names and `rocelab diagnose` reads them
// back, from a simulation or from a real host's bundle. A name typed one way
// by the writer and another way by a reader is not an error anywhere: the
// rule just sees zero. Hence one place.
//
// The names are the devices' own (mlx5 `ethtool -S`, RDMA hw_counters, SAI
// statistics as SONiC stores them), so that one set of diagnosis rules serves
// both. A constant is the exported name in CamelCase; SAI names drop the
// _STAT_ word and write INGRESS_PRIORITY_GROUP as Pg. docs/counters.md says
// where in the model each counter moves.
#ifndef ROCELAB_TELEMETRY_COUNTER_NAMES_H_
#define ROCELAB_TELEMETRY_COUNTER_NAMES_H_

#include <string>

namespace rocelab {

// Which device shows a counter, and so where summary.json keeps it when the
// model produces it.
enum class CounterSource {
  kEthtool,           // mlx5 `ethtool -S <netdev>`; summary.json: hosts.<host>.ethtool
  kRdmaHwCounters,    // /sys/class/infiniband/<dev>/ports/<n>/hw_counters; hosts.<host>.hw_counters
  kNetdevSysfs,       // /sys/class/net/<netdev>/; real hosts only
  kSaiPort,           // SAI port statistics; switches.<switch>.ports.<EthernetN>
  kSaiQueue,          // SAI queue statistics; that port's queues.UC<n>
  kSaiPriorityGroup,  // SAI ingress priority group statistics; that port's priority_groups.PG<n>
  kRocelab,           // a rocelab extension: no device counts it
  kEthtoolFec,        // `ethtool -I --show-fec <netdev>` statistics; hosts.<host>.fec
  kSonicPortState,    // SONiC STATE_DB PORT_TABLE (`show interfaces flap`); the switch port's object
  kSonicPfcwd,        // SONiC `show pfcwd stats`, per queue; that port's pfcwd.UC<n>
  kSaiBufferPool,     // SAI buffer pool statistics; switches.<switch>.buffer
};

// The summary.json objects that hold the counters of one source.
inline constexpr char kEthtoolBlock[] = "ethtool";
inline constexpr char kHwCountersBlock[] = "hw_counters";
inline constexpr char kRocelabBlock[] = "rocelab";
inline constexpr char kQueuesBlock[] = "queues";
inline constexpr char kPriorityGroupsBlock[] = "priority_groups";
inline constexpr char kSysfsBlock[] = "sysfs";  // a host's /sys/class/net/<netdev>/ counters
inline constexpr char kFecBlock[] = "fec";
inline constexpr char kPfcwdBlock[] = "pfcwd";  // a switch port's `show pfcwd stats` queues

// Egress queue n of a switch port, as SONiC names it: "UC3".
inline std::string QueueName(int n) { return "UC" + std::to_string(n); }
// Ingress priority group n of a switch port, as SONiC names it: "PG3".
inline std::string PriorityGroupName(int n) { return "PG" + std::to_string(n); }

// A counter as a device exports it. The unit is what one count is: a frame,
// byte or symbol on the wire; a packet, NAK, message or QP of the RDMA
// transport; a microsecond (us) or nanosecond (ns); an event.
struct Counter {
  const char* name;
  const char* unit;
  CounterSource source;
};

// A counter kept once per priority, the priority written inside the name:
// rx_prio3_pause, SAI_PORT_STAT_PFC_3_RX_PKTS.
struct PriorityCounter {
  const char* prefix;
  const char* suffix;
  const char* unit;
  CounterSource source;

  std::string Name(int priority) const { return prefix + std::to_string(priority) + suffix; }
  // The name with a placeholder for the priority, for messages: "rx_prioN_pause".
  std::string Pattern(const char* placeholder) const { return std::string(prefix) + placeholder + suffix; }
};

// ---- NIC port: mlx5 ethtool -S -------------------------------------------------------------

// Every frame that arrived whole / started serialization, PFC frames included.
inline constexpr Counter kRxPacketsPhy = {"rx_packets_phy", "frames", CounterSource::kEthtool};
inline constexpr Counter kRxBytesPhy = {"rx_bytes_phy", "bytes", CounterSource::kEthtool};
inline constexpr Counter kTxPacketsPhy = {"tx_packets_phy", "frames", CounterSource::kEthtool};
inline constexpr Counter kTxBytesPhy = {"tx_bytes_phy", "bytes", CounterSource::kEthtool};
// Dropped for a bad FCS: bit errors on the link.
inline constexpr Counter kRxCrcErrorsPhy = {"rx_crc_errors_phy", "frames", CounterSource::kEthtool};
// Dropped because the port's receive buffer was full.
inline constexpr Counter kRxDiscardsPhy = {"rx_discards_phy", "frames", CounterSource::kEthtool};
// Frames the port could not send, among them those sent into a link that is down (mlx5 ethtool).
inline constexpr Counter kTxDiscardsPhy = {"tx_discards_phy", "frames", CounterSource::kEthtool};

// Per priority. mlx5 lists the pause rows only for priorities with PFC on,
// so their absence is itself evidence that PFC is off.
inline constexpr PriorityCounter kRxPrioBytes = {"rx_prio", "_bytes", "bytes", CounterSource::kEthtool};
inline constexpr PriorityCounter kRxPrioPackets = {"rx_prio", "_packets", "frames", CounterSource::kEthtool};
inline constexpr PriorityCounter kTxPrioBytes = {"tx_prio", "_bytes", "bytes", CounterSource::kEthtool};
inline constexpr PriorityCounter kTxPrioPackets = {"tx_prio", "_packets", "frames", CounterSource::kEthtool};
inline constexpr PriorityCounter kRxPrioDiscards = {"rx_prio", "_discards", "frames", CounterSource::kEthtool};
// PFC frames received for the priority, and the time it was held paused by the peer.
inline constexpr PriorityCounter kRxPrioPause = {"rx_prio", "_pause", "frames", CounterSource::kEthtool};
inline constexpr PriorityCounter kRxPrioPauseDuration = {"rx_prio", "_pause_duration", "us", CounterSource::kEthtool};
inline constexpr PriorityCounter kRxPrioPauseTransition = {"rx_prio", "_pause_transition", "events", CounterSource::kEthtool};
// PFC frames this NIC sent for the priority, and the time it held the peer paused.
inline constexpr PriorityCounter kTxPrioPause = {"tx_prio", "_pause", "frames", CounterSource::kEthtool};
inline constexpr PriorityCounter kTxPrioPauseDuration = {"tx_prio", "_pause_duration", "us", CounterSource::kEthtool};

// The physical layer, on a port a fault touched. A link that went down: link_down_events_phy
// counts each down. FEC (fault/fec.h): bits the decoder corrected, in total and per lane;
// frames over the port's MTU.
inline constexpr Counter kLinkDownEventsPhy = {"link_down_events_phy", "events", CounterSource::kEthtool};
inline constexpr Counter kRxCorrectedBitsPhy = {"rx_corrected_bits_phy", "bits", CounterSource::kEthtool};
inline constexpr PriorityCounter kRxErrLanePhy = {"rx_err_lane_", "_phy", "bits", CounterSource::kEthtool};  // by lane
inline constexpr Counter kRxOversizePktsPhy = {"rx_oversize_pkts_phy", "frames", CounterSource::kEthtool};
// ethtool's FEC statistics: codewords corrected, and codewords the decoder gave up on.
inline constexpr Counter kFecCorrectedBlocks = {"corrected_blocks", "codewords", CounterSource::kEthtoolFec};
inline constexpr Counter kFecUncorrectableBlocks = {"uncorrectable_blocks", "codewords", CounterSource::kEthtoolFec};
inline constexpr Counter kFecCorrectedBits = {"corrected_bits", "bits", CounterSource::kEthtoolFec};

// ---- NIC port: RDMA hw_counters ------------------------------------------------------------

// DCQCN: np_ is the notification point (the receiver), rp_ the reaction point (the sender).
inline constexpr Counter kNpEcnMarkedRocePackets = {"np_ecn_marked_roce_packets", "packets", CounterSource::kRdmaHwCounters};
inline constexpr Counter kNpCnpSent = {"np_cnp_sent", "packets", CounterSource::kRdmaHwCounters};
inline constexpr Counter kRpCnpHandled = {"rp_cnp_handled", "packets", CounterSource::kRdmaHwCounters};
inline constexpr Counter kRpCnpIgnored = {"rp_cnp_ignored", "packets", CounterSource::kRdmaHwCounters};
// Loss as the RC transport sees it: the responder's view, then the requester's.
inline constexpr Counter kOutOfSequence = {"out_of_sequence", "packets", CounterSource::kRdmaHwCounters};
inline constexpr Counter kDuplicateRequest = {"duplicate_request", "packets", CounterSource::kRdmaHwCounters};
inline constexpr Counter kPacketSeqErr = {"packet_seq_err", "NAKs", CounterSource::kRdmaHwCounters};
inline constexpr Counter kLocalAckTimeoutErr = {"local_ack_timeout_err", "events", CounterSource::kRdmaHwCounters};
inline constexpr Counter kImpliedNakSeqErr = {"implied_nak_seq_err", "events", CounterSource::kRdmaHwCounters};
// ConnectX adaptive retransmission and slow restart (nic.adaptive_retransmission; mlx5 counters.rst).
inline constexpr Counter kRoceAdpRetrans = {"roce_adp_retrans", "events", CounterSource::kRdmaHwCounters};
inline constexpr Counter kRoceAdpRetransTo = {"roce_adp_retrans_to", "events", CounterSource::kRdmaHwCounters};
inline constexpr Counter kRoceSlowRestart = {"roce_slow_restart", "events", CounterSource::kRdmaHwCounters};
inline constexpr Counter kRoceSlowRestartTrans = {"roce_slow_restart_trans", "events", CounterSource::kRdmaHwCounters};
// Queue pairs moved to the error state: the application sees failed work requests.
inline constexpr Counter kReqTransportRetriesExceeded = {"req_transport_retries_exceeded", "QPs",
                                                         CounterSource::kRdmaHwCounters};
inline constexpr Counter kReqCqeError = {"req_cqe_error", "completions", CounterSource::kRdmaHwCounters};
inline constexpr Counter kReqCqeFlushError = {"req_cqe_flush_error", "completions", CounterSource::kRdmaHwCounters};
inline constexpr Counter kRxWriteRequests = {"rx_write_requests", "messages", CounterSource::kRdmaHwCounters};
inline constexpr Counter kRxReadRequests = {"rx_read_requests", "requests", CounterSource::kRdmaHwCounters};

// ---- NIC port: rocelab extensions ----------------------------------------------------------

inline constexpr Counter kRetransmittedPackets = {"retransmitted_packets", "packets", CounterSource::kRocelab};
inline constexpr Counter kBytesDelivered = {"bytes_delivered", "bytes", CounterSource::kRocelab};
inline constexpr Counter kTxBusyNs = {"tx_busy_ns", "ns", CounterSource::kRocelab};
// The receive buffer's PFC thresholds in force: settings, kept beside the counters they explain.
inline constexpr Counter kRxXoffBytes = {"rx_xoff_bytes", "bytes", CounterSource::kRocelab};
inline constexpr Counter kRxXonBytes = {"rx_xon_bytes", "bytes", CounterSource::kRocelab};
// Frames a port sent while its carrier was down (host or switch): lost at the PHY.
inline constexpr Counter kTxLinkDownDrops = {"tx_link_down_drops", "frames", CounterSource::kRocelab};

// ---- NIC port: produced where a fault moves them ---------------------------------------------
// rx_symbol_err_phy and rx_pcs_symbol_err_phy move under link errors, carrier_changes (in the
// host's sysfs block) when its link goes down or up. The others are read from real hosts only;
// docs/counters.md lists more the model could produce.

// Received packets the netdev's receive queues had no posted buffer (WQE) for:
// the host did not replenish in time. Not a drop for lack of port buffer.
inline constexpr Counter kRxOutOfBuffer = {"rx_out_of_buffer", "packets", CounterSource::kEthtool};
// Received packets dropped for physical coding (symbol) errors.
inline constexpr Counter kRxSymbolErrPhy = {"rx_symbol_err_phy", "frames", CounterSource::kEthtool};
// Symbol errors FEC did not correct, or with FEC off: a marginal optic or cable.
inline constexpr Counter kRxPcsSymbolErrPhy = {"rx_pcs_symbol_err_phy", "symbols", CounterSource::kEthtool};
// The NIC's pause-storm guard: pausing for too long (warning), then giving up pausing (error).
inline constexpr Counter kTxPauseStormWarningEvents = {"tx_pause_storm_warning_events", "events", CounterSource::kEthtool};
inline constexpr Counter kTxPauseStormErrorEvents = {"tx_pause_storm_error_events", "events", CounterSource::kEthtool};
// Each time the link went down or came back (collect writes it into <netdev>.link.txt).
inline constexpr Counter kCarrierChanges = {"carrier_changes", "events", CounterSource::kNetdevSysfs};
// RNR NAKs received: the responder had no receive posted for a SEND.
inline constexpr Counter kRnrNakRetryErr = {"rnr_nak_retry_err", "NAKs", CounterSource::kRdmaHwCounters};

// ---- Switch port: SAI port statistics ------------------------------------------------------

inline constexpr Counter kSaiPortIfInUcastPkts = {"SAI_PORT_STAT_IF_IN_UCAST_PKTS", "frames", CounterSource::kSaiPort};
inline constexpr Counter kSaiPortIfInOctets = {"SAI_PORT_STAT_IF_IN_OCTETS", "bytes", CounterSource::kSaiPort};
inline constexpr Counter kSaiPortIfOutUcastPkts = {"SAI_PORT_STAT_IF_OUT_UCAST_PKTS", "frames", CounterSource::kSaiPort};
inline constexpr Counter kSaiPortIfOutOctets = {"SAI_PORT_STAT_IF_OUT_OCTETS", "bytes", CounterSource::kSaiPort};
// FEC on the port's receive side (SAI counts codewords, despite the FRAMES in the names).
inline constexpr Counter kSaiPortIfInFecCorrectableFrames = {"SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES", "codewords",
                                                             CounterSource::kSaiPort};
inline constexpr Counter kSaiPortIfInFecNotCorrectableFrames = {"SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES",
                                                                "codewords", CounterSource::kSaiPort};
inline constexpr Counter kSaiPortIfInFecSymbolErrors = {"SAI_PORT_STAT_IF_IN_FEC_SYMBOL_ERRORS", "symbols",
                                                        CounterSource::kSaiPort};
// Frames over the port's MTU, dropped on arrival.
inline constexpr Counter kSaiPortEtherRxOversizePkts = {"SAI_PORT_STAT_ETHER_RX_OVERSIZE_PKTS", "frames",
                                                        CounterSource::kSaiPort};
// SONiC's link-flap record of the port (202305 and later): how often it went down.
inline constexpr Counter kSonicFlapCount = {"flap_count", "events", CounterSource::kSonicPortState};
// The PFC watchdog's figures for one queue, as `show pfcwd stats` shows them (sonic-utilities
// pfcwd/main.py reads them from COUNTERS_DB): storms detected and restored, and the packets
// sent, dropped, received and dropped on ingress while stormed — in all and in the last storm.
inline constexpr Counter kPfcwdStormDetected = {"storm_detected", "events", CounterSource::kSonicPfcwd};
inline constexpr Counter kPfcwdStormRestored = {"storm_restored", "events", CounterSource::kSonicPfcwd};
inline constexpr Counter kPfcwdTxOk = {"tx_ok", "packets", CounterSource::kSonicPfcwd};
inline constexpr Counter kPfcwdTxDrop = {"tx_drop", "packets", CounterSource::kSonicPfcwd};
inline constexpr Counter kPfcwdRxOk = {"rx_ok", "packets", CounterSource::kSonicPfcwd};
inline constexpr Counter kPfcwdRxDrop = {"rx_drop", "packets", CounterSource::kSonicPfcwd};
inline constexpr Counter kPfcwdTxLastOk = {"tx_last_ok", "packets", CounterSource::kSonicPfcwd};
inline constexpr Counter kPfcwdTxLastDrop = {"tx_last_drop", "packets", CounterSource::kSonicPfcwd};
inline constexpr Counter kPfcwdRxLastOk = {"rx_last_ok", "packets", CounterSource::kSonicPfcwd};
inline constexpr Counter kPfcwdRxLastDrop = {"rx_last_drop", "packets", CounterSource::kSonicPfcwd};
inline constexpr Counter kRocelabTxLinkDownDrops = {"rocelab_tx_link_down_drops", "frames", CounterSource::kRocelab};
// Dropped for a bad FCS.
inline constexpr Counter kSaiPortIfInErrors = {"SAI_PORT_STAT_IF_IN_ERRORS", "frames", CounterSource::kSaiPort};
// Every ingress drop: PG headroom overflow, and also no route, over the MTU or
// TTL expired, which is why diagnose subtracts the PG drops before blaming the route.
inline constexpr Counter kSaiPortIfInDiscards = {"SAI_PORT_STAT_IF_IN_DISCARDS", "frames", CounterSource::kSaiPort};
// Egress drops: the port's lossy queues refused them, or the link was down (SONiC TX_DRP).
inline constexpr Counter kSaiPortIfOutDiscards = {"SAI_PORT_STAT_IF_OUT_DISCARDS", "frames", CounterSource::kSaiPort};

inline constexpr PriorityCounter kSaiPortPfcRxPkts = {"SAI_PORT_STAT_PFC_", "_RX_PKTS", "frames", CounterSource::kSaiPort};
inline constexpr PriorityCounter kSaiPortPfcTxPkts = {"SAI_PORT_STAT_PFC_", "_TX_PKTS", "frames", CounterSource::kSaiPort};
inline constexpr PriorityCounter kSaiPortPfcRxPauseDurationUs = {"SAI_PORT_STAT_PFC_", "_RX_PAUSE_DURATION_US", "us",
                                                                 CounterSource::kSaiPort};
inline constexpr PriorityCounter kSaiPortPfcTxPauseDurationUs = {"SAI_PORT_STAT_PFC_", "_TX_PAUSE_DURATION_US", "us",
                                                                 CounterSource::kSaiPort};

// rocelab extensions on a switch port, and the one on the switch itself.
inline constexpr Counter kHeadroomBytes = {"headroom_bytes", "bytes", CounterSource::kRocelab};
inline constexpr Counter kRocelabTxBusyNs = {"rocelab_tx_busy_ns", "ns", CounterSource::kRocelab};
inline constexpr Counter kRocelabTtlExpired = {"rocelab_ttl_expired", "packets", CounterSource::kRocelab};

// The switch's shared headroom pool (switch.pfc.over_subscribe_ratio), in its buffer block when
// there is one: its size (SONiC BUFFER_POOL|ingress_lossless_pool `xoff`), its high-water mark
// (SONiC `show headroom-pool watermark`), and the lossless frames it refused while their PG's
// own headroom had room.
inline constexpr Counter kHeadroomPoolBytes = {"headroom_pool_bytes", "bytes", CounterSource::kRocelab};
inline constexpr Counter kSaiBufferPoolXoffRoomWatermarkBytes = {"SAI_BUFFER_POOL_STAT_XOFF_ROOM_WATERMARK_BYTES", "bytes",
                                                                 CounterSource::kSaiBufferPool};
inline constexpr Counter kRocelabHeadroomPoolDrops = {"rocelab_headroom_pool_drops", "frames", CounterSource::kRocelab};

// ---- Switch port: SAI queue statistics (in queues.UC<n>) -----------------------------------

inline constexpr Counter kSaiQueuePackets = {"SAI_QUEUE_STAT_PACKETS", "frames", CounterSource::kSaiQueue};
inline constexpr Counter kSaiQueueBytes = {"SAI_QUEUE_STAT_BYTES", "bytes", CounterSource::kSaiQueue};
// Refused at admission: only a lossy queue can drop here.
inline constexpr Counter kSaiQueueDroppedPackets = {"SAI_QUEUE_STAT_DROPPED_PACKETS", "frames", CounterSource::kSaiQueue};
inline constexpr Counter kSaiQueueDroppedBytes = {"SAI_QUEUE_STAT_DROPPED_BYTES", "bytes", CounterSource::kSaiQueue};
inline constexpr Counter kSaiQueueWredEcnMarkedPackets = {"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS", "packets",
                                                          CounterSource::kSaiQueue};
inline constexpr Counter kSaiQueueWatermarkBytes = {"SAI_QUEUE_STAT_WATERMARK_BYTES", "bytes", CounterSource::kSaiQueue};

// ---- Switch port: SAI ingress priority group statistics (in priority_groups.PG<n>) ---------

inline constexpr Counter kSaiPgPackets = {"SAI_INGRESS_PRIORITY_GROUP_STAT_PACKETS", "frames",
                                          CounterSource::kSaiPriorityGroup};
inline constexpr Counter kSaiPgBytes = {"SAI_INGRESS_PRIORITY_GROUP_STAT_BYTES", "bytes", CounterSource::kSaiPriorityGroup};
// Headroom overflow: the only loss a lossless class can see.
inline constexpr Counter kSaiPgDroppedPackets = {"SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS", "frames",
                                                 CounterSource::kSaiPriorityGroup};
inline constexpr Counter kSaiPgSharedWatermarkBytes = {"SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES", "bytes",
                                                       CounterSource::kSaiPriorityGroup};
// How much headroom the PG used: compare with headroom_bytes.
inline constexpr Counter kSaiPgXoffRoomWatermarkBytes = {"SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES", "bytes",
                                                         CounterSource::kSaiPriorityGroup};

}  // namespace rocelab

#endif  // ROCELAB_TELEMETRY_COUNTER_NAMES_H_
