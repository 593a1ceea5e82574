#include "plan/headroom.h"

#include <algorithm>
#include <cmath>

#include "scenario/scenario.h"
#include "sim/packet.h"

namespace rocelab {

uint32_t PeerResponseQuanta(uint64_t rate_bps) {
  struct Entry {
    uint64_t rate;
    uint32_t quanta;
  };
  static const Entry kTable[] = {{10000000000ull, 67},   {25000000000ull, 80},   {40000000000ull, 118},
                                 {50000000000ull, 147},  {100000000000ull, 394}, {200000000000ull, 453},
                                 {400000000000ull, 905}};
  for (const Entry& e : kTable)
    if (rate_bps <= e.rate) return e.quanta;
  return static_cast<uint32_t>((905ull * rate_bps + 400000000000ull - 1) / 400000000000ull);
}

Time PeerResponseTime(uint64_t rate_bps) {
  return SerializationTime(static_cast<uint64_t>(PeerResponseQuanta(rate_bps)) * 64, rate_bps);
}

HeadroomBreakdown Ieee8021QbbHeadroom(uint64_t rate_bps, Time one_way_delay, uint32_t max_frame, uint32_t cell,
                                      uint32_t response_quanta, uint32_t fill_frame, int small_percent) {
  HeadroomBreakdown h;
  h.our_frame = max_frame + kWireOverhead;
  h.pfc_frame = kPauseFrame + kWireOverhead;
  // bytes = 2 x delay[ps] x rate[bit/s] / 8 / 1e12, rounded up
  const unsigned __int128 bits_x_ps = static_cast<unsigned __int128>(2 * one_way_delay) * rate_bps;
  h.cable_round_trip = static_cast<uint64_t>((bits_x_ps + 8000000000000ull - 1) / 8000000000000ull);
  h.peer_response = static_cast<uint64_t>(response_quanta) * 512 / 8;
  h.peer_frame = max_frame + kWireOverhead;
  uint64_t sum = h.our_frame + h.pfc_frame + h.cable_round_trip + h.peer_response + h.peer_frame;
  if (cell > 0 && (fill_frame > 0 || small_percent > 0)) {
    // The buffer the round trip's bytes take, frame mix by frame mix: per hundred frames,
    // `small_percent` 64 B ones (a cell each, 84 B of wire time with preamble and gap) and the
    // rest data frames (their cells; their bytes alone where no data frame is given).
    const uint64_t small = static_cast<uint64_t>(small_percent), data = 100 - small;
    const uint64_t data_frame = fill_frame > 0 ? fill_frame : max_frame;
    const uint64_t data_cells = fill_frame > 0 ? (fill_frame + cell - 1) / cell * cell : max_frame;
    const uint64_t buffer = small * ((kMinFrame + cell - 1) / cell * cell) + data * data_cells;
    const uint64_t wire = small * (kMinFrame + kWireOverhead) + data * data_frame;
    h.cell_overhead = (sum * buffer + wire - 1) / wire - sum;
    sum += h.cell_overhead;
  }
  const uint64_t rounded = cell ? (sum + cell - 1) / cell * cell : sum;
  h.cell_rounding = rounded - sum;
  h.total = rounded;
  return h;
}

SmallFrameBurst SmallFrameBurstOf(const HeadroomBreakdown& h, uint64_t rate_bps, uint32_t cell) {
  SmallFrameBurst b;
  const uint64_t wire = kMinFrame + kWireOverhead;  // a minimum frame, preamble and gap: one cell
  const uint64_t c = std::max<uint32_t>(cell, 1);
  const uint64_t per_frame = (kMinFrame + c - 1) / c * c;  // what one such frame is charged
  const uint64_t frames_held = h.total / per_frame;
  const uint64_t must_absorb = h.our_frame + h.pfc_frame + h.cable_round_trip + h.peer_response + h.peer_frame;
  b.covered = SerializationTime(frames_held * wire, rate_bps);
  b.round_trip = SerializationTime(must_absorb, rate_bps);
  b.all_small_total = (must_absorb + wire - 1) / wire * per_frame;
  return b;
}

uint32_t WorstCellFillFrame(const Scenario& sc, uint32_t cell) {
  uint32_t worst = 0;
  double worst_fill = 0;
  auto consider = [&](const NicSpec& n) {
    const uint32_t frame = std::max(kMinFrame, n.data_header_bytes + n.mtu);
    const double fill = static_cast<double>((frame + cell - 1) / cell * cell) / frame;
    if (fill > worst_fill) {
      worst_fill = fill;
      worst = frame;
    }
  };
  consider(sc.nic);
  for (const DeviceOverride& d : sc.devices)
    if (d.nic) consider(*d.nic);
  return worst;
}

uint64_t PortHeadroom(const SwitchSpec& spec, uint64_t rate_bps, Time one_way_delay, uint32_t fill_frame) {
  if (!spec.pfc.headroom_auto) return spec.pfc.headroom;
  if (spec.mmu == SwitchSpec::Mmu::kNs3Hpcc) {
    // The HPCC code's third.cc: rate x delay / 8 / 1e9 x 3 bytes, in integer arithmetic
    // (three one-way bandwidth-delay products, no frame or response terms).
    const uint64_t delay_ns = static_cast<uint64_t>(one_way_delay / kNanosecond);
    return rate_bps * delay_ns / 8 / 1000000000ull * 3;
  }
  // The port MTU is an IP MTU; the largest frame adds Ethernet header and FCS.
  return Ieee8021QbbHeadroom(rate_bps, one_way_delay, spec.mtu + kEthHeader + kFcs, spec.cell,
                             PeerResponseQuanta(rate_bps), fill_frame, spec.pfc.small_packet_percentage).total;
}

uint64_t ReservedHeadroom(uint64_t sum, double over_subscribe_ratio, uint32_t cell) {
  if (over_subscribe_ratio <= 0) return sum;
  const auto pooled = static_cast<uint64_t>(std::ceil(static_cast<double>(sum) / over_subscribe_ratio));
  return (pooled + cell - 1) / cell * cell;
}

}  // namespace rocelab
