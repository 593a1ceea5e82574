#include "run/assumptions.h"

#include <sstream>

#include "cc/dcqcn_params.h"
#include "run/memory_estimate.h"
#include "scenario/asic_profile.h"
#include "scenario/options.h"
#include "topo/cables.h"
#include "util/units.h"

namespace rocelab {

namespace {

// The switch's chip and its marking thresholds, where a figure the run takes is no switch's
// published one. The ns-3 profile keeps that simulator's own choices and is not questioned.
void SwitchAssumptions(const Scenario& sc, std::vector<Assumption>* out) {
  const SwitchSpec& sw = sc.sw;
  if (sw.mmu != SwitchSpec::Mmu::kSharedBuffer) return;
  // The chip the alternatives name: the one whose figures are all published.
  const AsicProfile& named = *FindAsicProfile("spectrum2");
  const std::string named_latency = std::to_string(named.pipeline_latency / kNanosecond);
  const AsicProfile* chip = FindAsicProfile(sw.asic);
  if (!chip && sw.cell == opt::kSwitchCell.def && sw.pipeline_latency == 0)
    out->push_back({"switch.asic",
                    "none: a generic switch, " + std::to_string(static_cast<uint64_t>(opt::kSwitchCell.def)) +
                        " B cells and no pipeline latency, which is no one chip's",
                    std::string(named.name) + ": " + named.chip + "'s " + std::to_string(named.cell) + " B cells, " +
                        std::to_string(named.buffer >> 20) + " MB buffer and " + named_latency +
                        " ns port to port (or spectrum1, spectrum3-5, trident3; docs/asic-profiles.md)"});
  // Marking thresholds matter where the senders react to marks.
  const EcnSpec& e = sw.ecn;
  const bool ecn_reacts = sc.nic.cc == NicSpec::Cc::kDcqcn || sc.nic.cc == NicSpec::Cc::kDctcp;
  if (ecn_reacts && e.enabled && sw.ecn_by_rate.empty() && e.kmin == opt::kSwitchEcnKmin.def &&
      e.kmax == opt::kSwitchEcnKmax.def && e.pmax == opt::kSwitchEcnPmax.def)
    // Measured on the fault scenarios' fabric, no fault (docs/asic-profiles.md).
    out->push_back({"switch.ecn", "kmin 100KB, kmax 400KB, pmax 0.2 at every port speed: the HPCC code's thresholds "
                                  "for 25G ports, no switch's shipped profile",
                    "NVIDIA's RoCE default {kmin: 150000B, kmax: 1500000B, pmax: 1}: a ring AllReduce beside an incast "
                    "3-7 % faster, but a fat tree at 50 % WebSearch load pauses hard in 3 seeds of 8, not 1, and "
                    "overflows its 802.1Qbb headroom in each; SONiC's AZURE_LOSSLESS {kmin: 1MB, "
                    "kmax: 2MB, pmax: 0.05} marks nothing in a 2 MB buffer: 13,588 pause frames instead of 116, the "
                    "ring 20 % slower"});
  if (sw.pfc.headroom_auto && sw.pfc.small_packet_percentage == opt::kSwitchPfcSmallPacketPercentage.def)
    out->push_back({"switch.pfc.small_packet_percentage",
                    "0: the auto headroom is 802.1Qbb's in data frames, which ACKs released back to back when a "
                    "pause ends overflow on 256 B cells (lossless drops)",
                    "100: a pause's round trip of 64 B frames, a cell each, as SONiC's configuration reference and "
                    "dynamic-headroom design set it: three times the headroom, none of those drops"});
  if (!chip) return;
  if (chip->pipeline_latency < 0 && sw.pipeline_latency == 0)
    out->push_back({"switch.pipeline_latency", std::string("0s: ") + chip->chip + "'s port-to-port latency is not published",
                    named_latency + "ns: Spectrum and Spectrum-2's, the nearest published"});
  // The chip's buffer unpublished: SONiC's pool on it, or the scenario's, stands in.
  const bool pool_stands_in = chip->buffer_is_nos_pool && sw.buffer == chip->buffer;
  if (pool_stands_in || chip->buffer == 0)
    out->push_back({"switch.buffer",
                    (pool_stands_in ? std::to_string(chip->buffer) + " B: SONiC's egress_lossless_pool on it; "
                                    : FormatBytes(sw.buffer) + ": ") +
                        chip->chip + "'s packet buffer is not published",
                    "the chip's own, once known, given as switch.buffer"});
}

// A link given neither delay nor length: its cable is the one SONiC sizes headroom for there.
void CableAssumptions(const TopologySpec& t, std::vector<Assumption>* out) {
  bool auto_cable = false;
  if (t.type == TopologySpec::Type::kExplicit) {
    for (const TopologySpec::Link& l : t.links) auto_cable |= l.spec.delay < 0;
  } else {
    auto_cable = t.host_link.delay < 0 || t.fabric_link.delay < 0;
  }
  if (!auto_cable) return;
  // "5 m of cable to a host (25 ns)", the delay in ns below a microsecond.
  const auto cable = [](double meters, const char* where) {
    const double ns = static_cast<double>(CableDelay(meters)) / kNanosecond;
    std::ostringstream s;
    s << meters << " m " << where << " (";
    if (ns < 1000) s << ns << " ns)";
    else s << ns / 1000 << " us)";
    return s.str();
  };
  out->push_back({"topology.<link>.delay",
                  "auto: " + cable(kServerCableMeters, "of cable to a host") + ", " +
                      cable(kTorCableMeters, "between switches") + ", " + cable(kSpineCableMeters, "to a fat tree's core") +
                      ", the cables SONiC sizes PFC headroom for",
                  "the fabric's own, as length: or delay: (the HPCC code's topologies take 1us, 200 m of fibre)"});
}

}  // namespace

std::vector<Assumption> OutcomeAssumptions(const Scenario& sc) {
  std::vector<Assumption> out;
  SwitchAssumptions(sc, &out);
  CableAssumptions(sc.topology, &out);
  const NicSpec& nic = sc.nic;
  const NicSpec::AdaptiveRetransmission& adp = nic.adaptive_retransmission;
  if (adp.enabled) {
    const NicSpec::AdaptiveRetransmission def;
    if (adp.time_base == def.time_base && adp.initial_low == def.initial_low && adp.initial_range == def.initial_range)
      out.push_back({"nic.adaptive_retransmission",
                     "a QP's first timeout 4 to 33 ms (4 us x 2^10..2^13), doubling on each expiry up to its ACK "
                     "timeout; the firmware's default profile is not published",
                     "enabled: false: the IBTA timer alone (4.096 us x 2^timeout), every expiry a retry"});
  }
  if (!nic.coalesce_acks && !nic.ack_high_priority)
    out.push_back({"nic.coalesce_acks",
                   "false: every ACK queued, as the HPCC code does: a responder paused while it receives sends a "
                   "line-rate burst of 66 B ACKs when the pause ends, a switch cell each, that can overflow its "
                   "ToR's headroom",
                   "true: an ACK waiting behind a pause gives way to its queue pair's newer one (RC ACKs are "
                   "cumulative and the IBTA lets a responder coalesce them; when ConnectX does is not published)"});
  if (nic.cc == NicSpec::Cc::kHpcc)
    out.push_back(
        {"nic.hpcc.int_format",
         nic.hpcc.int_format == IntFormat::Kind::kFine
             ? "fine: the switches' INT records count bytes to the byte and the queue in 80 B units"
             : "ns3: the HPCC ns-3 code's units, bytes in 128 B x INT_MULTI and the queue in 80 B x INT_MULTI",
         nic.hpcc.int_format == IntFormat::Kind::kFine
             ? "ns3: the HPCC ns-3 code's coarser units; two flows into one 100G port then settle at 40 and 53 "
               "Gb/s instead of 46 each"
             : "fine: bytes to the byte; the same two flows then share the port within 0.1 %"});
  if (nic.cc != NicSpec::Cc::kDcqcn) return out;
  const DcqcnParams& p = nic.dcqcn;
  const DcqcnParams mlx5 = DcqcnMlx5Profile();
  // The measured consequences are docs/dcqcn.md's table (build/bench/dcqcn_readings).
  if (p.cnp_per_port && p.min_time_between_cnps > 0)
    out.push_back({"nic.dcqcn.cnp_moderation",
                   "port: CNPs spaced per port, as the firmware describes min_time_between_cnps (\"from the port\")",
                   "qp: spaced per QP, the paper's; a 16-to-1 incast then runs at 0.59 of line rate, not 0.999"});
  if (p.byte_counter == mlx5.byte_counter)
    out.push_back({"nic.dcqcn.byte_counter", "2MiB: rpg_byte_reset 32767 read as 64-byte blocks (isekai, Spirent's 2 MB)",
                   "32KB: read as bytes (the firmware's text); two flows into one host never settle and carry "
                   "91 Gb/s, not 97.5"});
  if (p.g == mlx5.g)
    out.push_back({"nic.dcqcn.g", "0.0049: dce_tcp_g 1019 read as the weight of the old alpha (NVIDIA's DCQCN "
                                  "Parameters article, isekai)",
                   "0.995: read as the gain (the firmware's field text); alpha then forgets within a microsecond"});
  if (p.min_time_between_cnps == mlx5.min_time_between_cnps)
    out.push_back({"nic.dcqcn.min_time_between_cnps", "2us: ConnectX-5's mlxconfig default",
                   "4us: ConnectX-6 Lx's; two flows into one host then never settle within 5 % of each other"});
  return out;
}

}  // namespace rocelab
