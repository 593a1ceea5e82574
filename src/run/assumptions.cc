#include "run/assumptions.h"

#include "cc/dcqcn_params.h"

namespace rocelab {

std::vector<Assumption> OutcomeAssumptions(const Scenario& sc) {
  std::vector<Assumption> out;
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
