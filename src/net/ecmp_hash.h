// The hashes switches use to spread flows over equal-cost next hops.
//
// rocelab's own (EcmpSpec::Hash::kMix) lives in Switch::Route. This file holds the
// HPCC ns-3 code's, so that under the ns-3 compatibility profile a flow takes the path it
// takes in that simulator: its switches hash 12 bytes, (source IPv4, destination IPv4,
// source port | destination port << 16) as little-endian 32-bit words, with 32-bit
// MurmurHash3 seeded by the switch's node id, and take that modulo the next hops.
#ifndef ROCELAB_NET_ECMP_HASH_H_
#define ROCELAB_NET_ECMP_HASH_H_

#include <cstddef>
#include <cstdint>

namespace rocelab {

// MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain algorithm), over `words`
// 32-bit words taken as they would be read from little-endian memory.
inline uint32_t Murmur3Words(const uint32_t* words, size_t count, uint32_t seed) {
  auto rotl = [](uint32_t x, int r) { return (x << r) | (x >> (32 - r)); };
  uint32_t h = seed;
  for (size_t i = 0; i < count; ++i) {
    uint32_t k = words[i] * 0xcc9e2d51u;
    k = rotl(k, 15) * 0x1b873593u;
    h ^= k;
    h = rotl(h, 13) * 5 + 0xe6546b64u;
  }
  h ^= static_cast<uint32_t>(count * 4);  // the length in bytes
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// The ns-3 switch's hash of one packet. `forward`: a data or request packet, its ports as the
// flow has them; otherwise an ACK or NAK of that flow, which carries them swapped.
inline uint32_t Ns3EcmpHash(uint32_t sip, uint32_t dip, uint16_t data_sport, uint16_t data_dport, bool forward,
                            uint32_t switch_seed) {
  const uint32_t ports = forward ? (data_sport | static_cast<uint32_t>(data_dport) << 16)
                                 : (data_dport | static_cast<uint32_t>(data_sport) << 16);
  const uint32_t words[3] = {sip, dip, ports};
  return Murmur3Words(words, 3, switch_seed);
}

}  // namespace rocelab

#endif  // ROCELAB_NET_ECMP_HASH_H_
