// SONiC's dynamic headroom calculation for NVIDIA Spectrum switches, term by
// term, so an operator can check what SONiC will program for a port.
// Source: sonic-swss cfgmgr/buffer_headroom_mellanox.lua (as of commit
// e6b0c5b, 2026-08; older versions do not take the ceiling of the cell
// factor, divide the cable term by 8192, and lack the 2 KB rule) and SONiC's
// design doc doc/qos/dynamically-headroom-calculation.md.
//
//   peer response   = pause quanta(speed) x 512 / 8
//   cable           = 2 x length x speed / 198e6 m/s / 8          (both ways)
//   propagation     = port MTU + cable + 2 x gearbox + MAC/PHY delay (0.8 KB)
//                     + peer response (+ speed_G x 120 / 8 on Spectrum-4/5)
//   factor          = ceil(cell > 128 ? cell / 64 : 2 cell / (1 + cell))
//   small share s   = 100 x 64 / ((spp x 64 + (100 - spp) x lossless MTU) / 100)
//   occupancy       = (100 - s + s x factor) / 100
//   xoff            = ceil1K(lossless MTU + propagation x occupancy)
//                     (+ 2 KB when, without a shared headroom pool, that is
//                      still below the all-small-packets xoff)
//   xon             = ceil1K(pipeline latency, 19 KB)
//   size            = xoff + xon   (xon alone with a shared headroom pool)
#ifndef ROCELAB_PLAN_SONIC_HEADROOM_H_
#define ROCELAB_PLAN_SONIC_HEADROOM_H_

#include <cstdint>
#include <string>

namespace rocelab {

enum class SpectrumAsic { kSpectrum1, kSpectrum2, kSpectrum3, kSpectrum4, kSpectrum5 };

bool ParseSpectrumAsic(const std::string& name, SpectrumAsic* out);
uint32_t SpectrumCellSize(SpectrumAsic asic);  // 96, 144, 144, 192, 192 bytes
// The ASIC's shared packet buffer where it is published: Spectrum-1 16 MB (SN2000 series,
// "16MB fully shared"), Spectrum-2 42 MB (SN3000), Spectrum-3 64 MB (SN4000); 0 for Spectrum-4
// and -5, whose buffer NVIDIA does not publish.
uint64_t SpectrumBufferBytes(SpectrumAsic asic);

struct SonicHeadroomInput {
  uint64_t speed_bps = 100000000000ull;
  double cable_m = 5;
  uint32_t port_mtu = 9100;
  SpectrumAsic asic = SpectrumAsic::kSpectrum2;
  uint32_t lossless_mtu = 1024;         // LOSSLESS_TRAFFIC_PATTERN mtu
  uint32_t small_packet_percentage = 50;  // LOSSLESS_TRAFFIC_PATTERN small_packet_percentage
  double gearbox_delay_ns = 0;
  bool shared_headroom_pool = false;
};

struct SonicHeadroom {
  uint32_t pause_quanta = 0;
  double peer_response = 0, cable = 0, gearbox = 0, mac_phy_delay = 0, speed_overhead = 0;
  double propagation = 0;
  uint32_t cell = 0;
  uint32_t worst_case_factor = 0;
  // The mean lossless packet the traffic pattern makes: small packets of 64 B, the rest of the
  // lossless MTU; 64 B's share of it (small_packet_share, %) is what SONiC counts at the worst case.
  double mean_packet = 0, small_packet_share = 0, cell_occupancy = 0;
  bool two_kb_rule = false;
  uint64_t xoff = 0, xon = 0, size = 0;
};

// Returns false (with `error`) for a speed SONiC has no pause quanta for.
bool SonicMellanoxHeadroom(const SonicHeadroomInput& in, SonicHeadroom* out, std::string* error);

}  // namespace rocelab

#endif  // ROCELAB_PLAN_SONIC_HEADROOM_H_
