// CRC-32 as Ethernet's FCS and RoCEv2's invariant CRC use it (IEEE 802.3:
// polynomial 0x04C11DB7, bits reflected, register preset to all ones and
// inverted at the end; the same function as zlib's crc32), and the ICRC.
//
// Synthesized frames are mostly zero payload, so the CRC of a run of zero
// bytes is taken in O(log n) steps instead of byte by byte: feeding a zero
// byte is a linear map of the register, and the map for 2^k bytes is kept.
#ifndef ROCELAB_CAPTURE_CRC32_H_
#define ROCELAB_CAPTURE_CRC32_H_

#include <cstddef>
#include <cstdint>

namespace rocelab {

// The register after feeding `n` bytes to register `crc` (no presetting, no final inversion).
uint32_t Crc32Update(uint32_t crc, const uint8_t* data, size_t n);
// The register after feeding `n` zero bytes.
uint32_t Crc32UpdateZeros(uint32_t crc, uint64_t n);

constexpr uint32_t kCrc32Preset = 0xFFFFFFFFu;
inline uint32_t Crc32(const uint8_t* data, size_t n) { return ~Crc32Update(kCrc32Preset, data, n); }

// A CRC-32 goes on the wire least significant byte first (the FCS, and the ICRC as RoCE NICs
// send it).
inline void PutCrc32(uint32_t crc, uint8_t* out) {
  out[0] = static_cast<uint8_t>(crc);
  out[1] = static_cast<uint8_t>(crc >> 8);
  out[2] = static_cast<uint8_t>(crc >> 16);
  out[3] = static_cast<uint8_t>(crc >> 24);
}

// The RoCEv2 invariant CRC (InfiniBand Architecture Specification, Annex A17) of an IPv4
// packet: `headers` (the IPv4 header through the last transport header) followed by
// `zero_payload` zero bytes, the ICRC itself not included. The fields a router may change are
// taken as all ones: the whole IPv4 TOS byte (DSCP and ECN), the TTL and the header checksum,
// the UDP checksum and the BTH byte holding FECN, BECN and the reserved bits; in front stands
// the 8-byte pseudo LRH of all ones that replaces InfiniBand's local routing header.
uint32_t RoceIcrc(const uint8_t* headers, size_t header_bytes, uint64_t zero_payload);

}  // namespace rocelab

#endif  // ROCELAB_CAPTURE_CRC32_H_
