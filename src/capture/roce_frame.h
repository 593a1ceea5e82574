// The bytes of a frame the model only describes. A Packet carries the fields
// the fabric acts on and the frame's size, never its bytes; a capture makes
// them up from it: Ethernet II, IPv4, UDP to port 4791, the InfiniBand
// transport headers its BTH opcode calls for, zero payload, the ICRC and the
// FCS, or an 802.1Qbb PFC frame. The frame is as long as the model counted it
// (frame_bytes), so a capture's bytes add up to the port's counters.
//
// Made up, and stable from run to run (docs/pcap.md):
//   MAC    02:00:00:<host index, 24 bits> for a host's NIC, 02:00:01:<switch
//          index> for a switch (one MAC per device, as a routed fabric's
//          switches use one router MAC); a frame goes from the sending device's
//          MAC to the receiving one's.
//   IPv4   host hN is 10.1.0.0 + N (h5 10.1.0.5, h300 10.1.1.44).
//   QPN    the queue pair's index + 0x100 on both ends (0 and 1 are the special
//          QPs, which Wireshark decodes as management datagrams); R_Key the same.
//   VA     (qp index + 1) << 32, plus PSN x MTU: each QP's remote buffer in a
//          4 GiB region of its own, the bytes of a PSN at PSN x MTU in it.
// No 802.1Q tag: the fabric classifies by DSCP, which the IPv4 header carries.
#ifndef ROCELAB_CAPTURE_ROCE_FRAME_H_
#define ROCELAB_CAPTURE_ROCE_FRAME_H_

#include <cstdint>
#include <vector>

#include "sim/packet.h"
#include "transport/queue_pair.h"

namespace rocelab {

using MacAddress = uint64_t;  // the low 48 bits, first byte on the wire most significant

inline MacAddress HostMac(uint32_t host) { return 0x020000000000ull | (host & 0xFFFFFF); }
inline MacAddress SwitchMac(uint32_t sw) { return 0x020001000000ull | (sw & 0xFFFFFF); }
inline uint32_t HostIpv4(uint32_t host) { return (10u << 24 | 1u << 16) + host; }
constexpr uint32_t kQpnBase = 0x100;
inline uint32_t Qpn(uint32_t qp) { return (kQpnBase + qp) & 0xFFFFFF; }
// The UD queue pair every host's probe agent sends from and answers on (run/pingmesh.h), below
// the RC range, and its Q_Key.
constexpr uint32_t kProbeQpn = 0xF0;
constexpr uint32_t kProbeQkey = 0x1234;

constexpr uint8_t kPfcDestination[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
constexpr uint16_t kEtherTypeIpv4 = 0x0800, kEtherTypeMacControl = 0x8808, kPfcOpcode = 0x0101;
constexpr uint8_t kAethAck = 0x1F;    // ACK, credit count 31: no end-to-end credits (unlimited)
constexpr uint8_t kAethNakSeq = 0x60; // NAK, code 0: PSN sequence error

// One synthesized frame, in pieces: the headers, a run of zero payload, the ICRC (RoCE only),
// the zero padding up to Ethernet's 64-byte minimum, and the FCS.
struct SynthFrame {
  static constexpr uint32_t kMaxHeaders = 14 + 20 + 8 + 12 + 16 + 4 + 16;
  uint8_t headers[kMaxHeaders];
  uint32_t header_bytes = 0;
  uint32_t payload_bytes = 0;  // zeros after the headers
  uint8_t icrc[4];
  bool has_icrc = false;
  uint32_t pad_bytes = 0;  // zeros after the ICRC, before the FCS
  uint8_t fcs[4];

  uint32_t length() const { return header_bytes + payload_bytes + (has_icrc ? 4 : 0) + pad_bytes + 4; }
  // Copies the frame's first `n` bytes (n <= length()) to `out`.
  void CopyTo(uint8_t* out, uint32_t n) const;
};

// Builds the frames crossing one link, between devices with MACs `a` and `b`.
class FrameSynthesizer {
 public:
  // `qps` (may be null) lets RETH and AETH carry what only the queue pair knows: a message's
  // DMA length and the responder's message sequence number. Without it they say 0 and the
  // packet's own payload.
  explicit FrameSynthesizer(const std::vector<QueuePair>* qps = nullptr) : qps_(qps) {}

  // Fills `f` with `pkt` as sent from MAC `src` to MAC `dst`, all but the ICRC and the FCS.
  void Build(const Packet& pkt, MacAddress src, MacAddress dst, SynthFrame* f) const;
  // Computes the ICRC and the FCS of a built frame: apart, so that a capture whose snap length
  // cuts them off need not pay for them. A packet the model marks corrupted (a bit error on
  // the link) gets its FCS inverted: Wireshark, checking FCSs, flags it.
  static void Seal(const Packet& pkt, SynthFrame* f);

 private:
  uint32_t Msn(const Packet& pkt) const;
  uint32_t DmaLength(const Packet& pkt) const;
  uint64_t VirtualAddress(const Packet& pkt) const;

  const std::vector<QueuePair>* qps_;
};

}  // namespace rocelab

#endif  // ROCELAB_CAPTURE_ROCE_FRAME_H_
