#include "capture/crc32.h"

#include <array>
#include <cstring>

namespace rocelab {
namespace {

constexpr uint32_t kReflectedPoly = 0xEDB88320u;

struct Tables {
  uint32_t byte[256];
  // zeros[k][j]: the register after 2^k zero bytes fed to a register holding only bit j.
  // The register update is linear over GF(2) when the input byte is zero, so these columns
  // give the map for any register.
  static constexpr int kPowers = 64;
  uint32_t zeros[kPowers][32];

  Tables() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int b = 0; b < 8; ++b) c = (c & 1) ? (c >> 1) ^ kReflectedPoly : c >> 1;
      byte[i] = c;
    }
    for (int j = 0; j < 32; ++j) {
      const uint32_t r = 1u << j;
      zeros[0][j] = byte[r & 0xFF] ^ (r >> 8);
    }
    for (int k = 1; k < kPowers; ++k)
      for (int j = 0; j < 32; ++j) zeros[k][j] = Apply(zeros[k - 1], zeros[k - 1][j]);
  }

  static uint32_t Apply(const uint32_t (&m)[32], uint32_t v) {
    uint32_t out = 0;
    for (int j = 0; v; ++j, v >>= 1)
      if (v & 1) out ^= m[j];
    return out;
  }
};

const Tables& T() {
  static const Tables t;
  return t;
}

// Offsets in an IPv4 + UDP + BTH header, for the fields the ICRC masks.
constexpr size_t kIpTos = 1, kIpTtl = 8, kIpChecksum = 10, kUdpChecksum = 20 + 6, kBthResv8a = 20 + 8 + 4;

}  // namespace

uint32_t Crc32Update(uint32_t crc, const uint8_t* data, size_t n) {
  const Tables& t = T();
  for (size_t i = 0; i < n; ++i) crc = t.byte[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return crc;
}

uint32_t Crc32UpdateZeros(uint32_t crc, uint64_t n) {
  const Tables& t = T();
  for (int k = 0; n && k < Tables::kPowers; ++k, n >>= 1)
    if (n & 1) crc = Tables::Apply(t.zeros[k], crc);
  return crc;
}

uint32_t RoceIcrc(const uint8_t* headers, size_t header_bytes, uint64_t zero_payload) {
  static const uint8_t kPseudoLrh[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  uint32_t crc = Crc32Update(kCrc32Preset, kPseudoLrh, sizeof kPseudoLrh);
  // The masked copy of the IPv4, UDP and BTH headers; what follows is taken as it is.
  uint8_t masked[kBthResv8a + 1];
  const size_t n = header_bytes < sizeof masked ? header_bytes : sizeof masked;
  std::memcpy(masked, headers, n);
  auto mask = [&](size_t at, size_t len) {
    for (size_t i = at; i < at + len && i < n; ++i) masked[i] = 0xFF;
  };
  mask(kIpTos, 1);
  mask(kIpTtl, 1);
  mask(kIpChecksum, 2);
  mask(kUdpChecksum, 2);
  mask(kBthResv8a, 1);
  crc = Crc32Update(crc, masked, n);
  crc = Crc32Update(crc, headers + n, header_bytes - n);
  return ~Crc32UpdateZeros(crc, zero_payload);
}

}  // namespace rocelab
