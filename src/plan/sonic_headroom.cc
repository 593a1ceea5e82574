#include "plan/sonic_headroom.h"

#include <cmath>

#include "scenario/asic_profile.h"

namespace rocelab {

namespace {
const char* const kSpectrumNames[] = {"spectrum1", "spectrum2", "spectrum3", "spectrum4", "spectrum5"};

// The switch profile of the same chip (scenario/asic_profile.cc cites its figures).
const AsicProfile& ProfileOf(SpectrumAsic asic) { return *FindAsicProfile(kSpectrumNames[static_cast<int>(asic)]); }
}  // namespace

bool ParseSpectrumAsic(const std::string& name, SpectrumAsic* out) {
  for (int i = 0; i < 5; ++i)
    if (name == kSpectrumNames[i]) {
      *out = static_cast<SpectrumAsic>(i);
      return true;
    }
  return false;
}

uint32_t SpectrumCellSize(SpectrumAsic asic) { return ProfileOf(asic).cell; }

uint64_t SpectrumBufferBytes(SpectrumAsic asic) {
  const AsicProfile& p = ProfileOf(asic);
  return p.buffer_is_nos_pool ? 0 : p.buffer;
}

namespace {
uint64_t Ceil1K(double bytes) { return static_cast<uint64_t>(std::ceil(bytes / 1024.0)) * 1024; }
}  // namespace

bool SonicMellanoxHeadroom(const SonicHeadroomInput& in, SonicHeadroom* out, std::string* error) {
  // Pause quanta per speed, IEEE 802.3 clause 31B.3.7, as SONiC tabulates them.
  static const struct {
    uint64_t gbps;
    uint32_t quanta;
  } kQuanta[] = {{10, 67}, {25, 80}, {40, 118}, {50, 147}, {100, 394}, {200, 453}, {400, 905}, {800, 905}};
  const double speed_g = static_cast<double>(in.speed_bps) / 1e9;
  SonicHeadroom h;
  for (const auto& q : kQuanta)
    if (in.speed_bps == q.gbps * 1000000000ull) h.pause_quanta = q.quanta;
  if (h.pause_quanta == 0) {
    *error = "SONiC has no pause quanta for this speed (10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G)";
    return false;
  }
  h.peer_response = h.pause_quanta * 512.0 / 8.0;
  h.cable = 2.0 * in.cable_m * static_cast<double>(in.speed_bps) / 198e6 / 8.0;
  h.gearbox = in.gearbox_delay_ns > 0 ? static_cast<double>(in.speed_bps) * in.gearbox_delay_ns * 1e-9 / 8.0 : 0.0;
  h.mac_phy_delay = 0.8 * 1024;
  const bool s45 = in.asic == SpectrumAsic::kSpectrum4 || in.asic == SpectrumAsic::kSpectrum5;
  h.speed_overhead = s45 ? speed_g * 120.0 / 8.0 : 0.0;
  h.propagation = in.port_mtu + h.cable + 2 * h.gearbox + h.mac_phy_delay + h.peer_response + h.speed_overhead;
  h.cell = SpectrumCellSize(in.asic);
  const double raw_factor = h.cell > 2 * 64 ? h.cell / 64.0 : 2.0 * h.cell / (1.0 + h.cell);
  h.worst_case_factor = static_cast<uint32_t>(std::ceil(raw_factor));
  const double spp = in.small_packet_percentage;
  h.mean_packet = (spp * 64.0 + (100.0 - spp) * in.lossless_mtu) / 100.0;
  h.small_packet_share = 100.0 * 64.0 / h.mean_packet;
  h.cell_occupancy = (100.0 - h.small_packet_share + h.small_packet_share * h.worst_case_factor) / 100.0;
  h.xoff = Ceil1K(in.lossless_mtu + h.propagation * h.cell_occupancy);
  if (!in.shared_headroom_pool && h.small_packet_share != 100.0) {
    const uint64_t all_small = Ceil1K(in.lossless_mtu + h.propagation * h.worst_case_factor);
    if (h.xoff + 2048 < all_small) {
      h.xoff += 2048;
      h.two_kb_rule = true;
    }
  }
  h.xon = Ceil1K(19 * 1024);  // pipeline latency, 19 KB on Spectrum
  h.size = in.shared_headroom_pool ? h.xon : h.xoff + h.xon;
  *out = h;
  return true;
}

}  // namespace rocelab
