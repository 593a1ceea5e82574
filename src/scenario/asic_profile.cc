#include "scenario/asic_profile.h"

namespace rocelab {

namespace {

// Cells: sonic-buildimage platform/mellanox/asic_table.j2 ("cell_size": 96 on Spectrum, 144 on
// Spectrum-2 and -3, 192 on Spectrum-4 and -5), sonic-mgmt tests/qos/files/qos_params.td3.yaml
// (cell_size: 256 on Trident 3). SONiC's headroom arithmetic uses the same cells
// (plan/sonic_headroom.h).
//
// Buffers: Spectrum 16 MB ("Both Tomahawk and Spectrum have 16 MBytes of packet memory",
// J. Warner's buffer survey, UCSC; the SN2000 series' "16MB fully shared"); Spectrum-2 42 MB
// and Spectrum-3 64 MB (as quoted for the SN3000 and SN4000 series, in secondary sources only;
// SONiC's pools on the SN3700 and SN4700, 34,287,552 and 60,817,392 B, fit them); Spectrum-4's
// is not published: SONiC's SN5600 egress_lossless_pool, 158,229,504 B
// (device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600/buffers_defaults_t0.j2), is what the
// switch gives its shared pool and stands in for it; Spectrum-5's: not published, nor a pool.
// Trident 3: "a fully shared packet buffer of up to 32MB" (Arista 7050X3 datasheet). The
// vendors' MB are taken as MiB, as `plan ecn` does.
//
// Latency: 300 ns port to port on Spectrum ("300 nsec for 100 GbE port-to-port", TechRepublic's
// review of the SN2700) and on Spectrum-2 ("a single-chip device with 300ns latency", Linley
// Group, 2017); Trident 3 "from as low as 800ns" (Arista 7050X3 datasheet). Spectrum-3, -4 and
// -5: not published.
//
// Left out: Broadcom's Tomahawk family, whose buffer is split among its pipelines (Tomahawk: four
// cores of 4 MB each; "Broadcom can marshal at most 4 MBytes toward a big flow", Warner), which
// one shared buffer per switch would overstate.
constexpr AsicProfile kProfiles[] = {
    {"spectrum1", "NVIDIA Spectrum", 96, 16ull << 20, false, 300 * kNanosecond},
    {"spectrum2", "NVIDIA Spectrum-2", 144, 42ull << 20, false, 300 * kNanosecond},
    {"spectrum3", "NVIDIA Spectrum-3", 144, 64ull << 20, false, -1},
    {"spectrum4", "NVIDIA Spectrum-4", 192, 158229504ull, true, -1},
    {"spectrum5", "NVIDIA Spectrum-5", 192, 0, false, -1},
    {"trident3", "Broadcom Trident 3", 256, 32ull << 20, false, 800 * kNanosecond},
};

}  // namespace

const AsicProfile* FindAsicProfile(const std::string& name) {
  for (const AsicProfile& p : kProfiles)
    if (name == p.name) return &p;
  return nullptr;
}

}  // namespace rocelab
