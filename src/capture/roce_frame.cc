#include "capture/roce_frame.h"

#include <algorithm>
#include <cstring>

#include "capture/crc32.h"

namespace rocelab {
namespace {

// Which extended transport headers follow the BTH (IBA vol. 1, 9.2 and Table 38).
struct Extensions {
  bool reth = false, immdt = false, aeth = false, deth = false;
  uint32_t reserved = 0;  // a CNP's 16 reserved bytes
  uint32_t bytes() const {
    return (reth ? kReth : 0) + (immdt ? kImmDt : 0) + (aeth ? kAeth : 0) + (deth ? kDeth : 0) + reserved;
  }
};

Extensions ExtensionsOf(uint8_t opcode) {
  Extensions e;
  switch (opcode) {
    case kOpWriteFirst:
    case kOpWriteOnly:
    case kOpReadRequest: e.reth = true; break;
    case kOpWriteOnlyImm: e.reth = e.immdt = true; break;
    case 0x03:  // SEND last with immediate
    case 0x05:  // SEND only with immediate
    case kOpWriteLastImm: e.immdt = true; break;
    case kOpReadResponseFirst:
    case kOpReadResponseLast:
    case kOpReadResponseOnly:
    case kOpAcknowledge: e.aeth = true; break;
    case kOpCnp: e.reserved = kCnpPayload; break;
    case kOpUdSendOnly: e.deth = true; break;
    default: break;
  }
  return e;
}

uint8_t* Put16(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
  return p + 2;
}
uint8_t* Put24(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 16);
  return Put16(p + 1, v);
}
uint8_t* Put32(uint8_t* p, uint32_t v) { return Put16(Put16(p, v >> 16), v); }
uint8_t* Put64(uint8_t* p, uint64_t v) { return Put32(Put32(p, static_cast<uint32_t>(v >> 32)), static_cast<uint32_t>(v)); }
uint8_t* PutMac(uint8_t* p, MacAddress m) { return Put16(Put32(p, static_cast<uint32_t>(m >> 16)), static_cast<uint32_t>(m)); }

// The ones' complement sum of the IPv4 header (RFC 791), its checksum field zero.
uint16_t Ipv4Checksum(const uint8_t* h) {
  uint32_t sum = 0;
  for (int i = 0; i < 20; i += 2) sum += static_cast<uint32_t>(h[i]) << 8 | h[i + 1];
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

bool CarriesPayload(PacketType t) {
  return t == PacketType::kData || t == PacketType::kReadResponse || t == PacketType::kProbe || t == PacketType::kProbeReply;
}

const QueuePair* Lookup(const std::vector<QueuePair>* qps, uint32_t qp) {
  if (!qps || qp >= qps->size() || (*qps)[qp].messages.empty()) return nullptr;
  return &(*qps)[qp];
}

}  // namespace

void SynthFrame::CopyTo(uint8_t* out, uint32_t n) const {
  auto piece = [&](const uint8_t* from, uint32_t len) {
    const uint32_t k = std::min(len, n);
    if (from) std::memcpy(out, from, k);
    else std::memset(out, 0, k);
    out += k;
    n -= k;
  };
  piece(headers, header_bytes);
  piece(nullptr, payload_bytes);
  if (has_icrc) piece(icrc, 4);
  piece(nullptr, pad_bytes);
  piece(fcs, 4);
}

void FrameSynthesizer::Build(const Packet& pkt, MacAddress src, MacAddress dst, SynthFrame* f) const {
  uint8_t* p = f->headers;
  const uint32_t frame = std::max<uint32_t>(pkt.frame_bytes, kMinFrame);
  if (pkt.type == PacketType::kPause) {
    // 802.1Qbb: MAC control opcode 0x0101, the class-enable vector, a pause time per priority.
    std::memcpy(p, kPfcDestination, 6);
    p = PutMac(p + 6, src);
    p = Put16(p, kEtherTypeMacControl);
    p = Put16(p, kPfcOpcode);
    p = Put16(p, pkt.pause_enable);
    for (int prio = 0; prio < kNumPriorities; ++prio) p = Put16(p, pkt.pause_quanta[prio]);
    f->header_bytes = static_cast<uint32_t>(p - f->headers);
    f->payload_bytes = 0;
    f->has_icrc = false;
    f->pad_bytes = frame - f->header_bytes - kFcs;
  } else {
    const Extensions ext = ExtensionsOf(pkt.opcode);
    const uint32_t transport = kIpv4Header + kUdpHeader + kBth + ext.bytes();
    const uint32_t fixed = kEthHeader + transport + kIcrc + kFcs;
    // The model's frame size decides; a profile that counts fewer header bytes than a real
    // frame has (the ns-3 one) gets its payload shortened, or a frame as short as it can be.
    const uint32_t room = frame > fixed ? frame - fixed : 0;
    f->payload_bytes = CarriesPayload(pkt.type) ? std::min(pkt.payload, room) : 0;
    f->pad_bytes = room - f->payload_bytes;  // Ethernet padding: only a frame under 64 bytes has any
    f->has_icrc = true;
    const uint32_t ip_len = transport + f->payload_bytes + kIcrc;

    p = PutMac(p, dst);
    p = PutMac(p, src);
    p = Put16(p, kEtherTypeIpv4);
    uint8_t* ip = p;
    *p++ = 0x45;  // IPv4, 20-byte header
    *p++ = static_cast<uint8_t>((pkt.dscp & 63) << 2 | (pkt.ecn & 3));
    p = Put16(p, ip_len);
    p = Put16(p, 0);       // identification: unused, fragments never happen (DF)
    p = Put16(p, 0x4000);  // don't fragment
    *p++ = pkt.ttl;
    *p++ = 17;  // UDP
    p = Put16(p, 0);  // the checksum, below
    p = Put32(p, HostIpv4(pkt.src));
    p = Put32(p, HostIpv4(pkt.dst));
    Put16(ip + 10, Ipv4Checksum(ip));
    p = Put16(p, pkt.udp_sport);
    p = Put16(p, kRoceUdpPort);
    p = Put16(p, ip_len - kIpv4Header);
    p = Put16(p, 0);  // no UDP checksum: RoCEv2 allows it, the ICRC covers the packet

    const bool cnp = pkt.opcode == kOpCnp;
    *p++ = pkt.opcode;
    *p++ = 0;  // SE 0, MigReq 0, pad count 0 (the model pads no payload to 4 bytes), version 0
    p = Put16(p, 0xFFFF);  // the default P_Key
    *p++ = cnp ? 0x40 : 0;  // a CNP sets BECN, as RoCEv2 NICs send it
    const bool probe = pkt.qp == Packet::kNoQp;  // the monitor's UD queue pair on both hosts
    p = Put24(p, probe ? kProbeQpn : Qpn(pkt.qp));
    const bool ack_request = pkt.last() && pkt.type != PacketType::kAck && pkt.type != PacketType::kNak;
    *p++ = ack_request ? 0x80 : 0;
    p = Put24(p, cnp ? 0 : pkt.psn & 0xFFFFFF);  // a CNP's PSN is reserved
    if (ext.reth) {
      p = Put64(p, VirtualAddress(pkt));
      p = Put32(p, Qpn(pkt.qp));  // R_Key
      p = Put32(p, DmaLength(pkt));
    }
    if (ext.immdt) p = Put32(p, 0);
    if (ext.deth) {
      p = Put32(p, kProbeQkey);
      *p++ = 0;
      p = Put24(p, kProbeQpn);
    }
    if (ext.aeth) {
      *p++ = pkt.type == PacketType::kNak ? kAethNakSeq : kAethAck;
      p = Put24(p, Msn(pkt));
    }
    if (ext.reserved) {
      std::memset(p, 0, ext.reserved);
      p += ext.reserved;
    }
    f->header_bytes = static_cast<uint32_t>(p - f->headers);
  }
}

void FrameSynthesizer::Seal(const Packet& pkt, SynthFrame* f) {
  if (f->has_icrc) PutCrc32(RoceIcrc(f->headers + kEthHeader, f->header_bytes - kEthHeader, f->payload_bytes), f->icrc);
  uint32_t crc = Crc32Update(kCrc32Preset, f->headers, f->header_bytes);
  crc = Crc32UpdateZeros(crc, f->payload_bytes);
  if (f->has_icrc) crc = Crc32Update(crc, f->icrc, 4);
  crc = ~Crc32UpdateZeros(crc, f->pad_bytes);
  PutCrc32(pkt.corrupted() ? ~crc : crc, f->fcs);
}

uint32_t FrameSynthesizer::Msn(const Packet& pkt) const {
  // The responder's count of messages completed: those whose last PSN an ACK or READ response
  // covers; a NAK's PSN is the first one missing, so only the messages before it.
  const QueuePair* qp = Lookup(qps_, pkt.qp);
  if (!qp) return 0;
  if (pkt.psn >= qp->num_packets) return static_cast<uint32_t>(qp->messages.size()) & 0xFFFFFF;
  const Message& m = qp->MessageOf(pkt.psn);
  uint32_t done = static_cast<uint32_t>(&m - qp->messages.data());
  if (pkt.type != PacketType::kNak && pkt.psn + 1 == m.first_psn + m.packets) ++done;
  return done & 0xFFFFFF;
}

uint32_t FrameSynthesizer::DmaLength(const Packet& pkt) const {
  if (pkt.type == PacketType::kReadRequest) return pkt.read_bytes;
  const QueuePair* qp = Lookup(qps_, pkt.qp);
  if (!qp || pkt.psn >= qp->num_packets) return pkt.payload;
  return static_cast<uint32_t>(std::min<uint64_t>(qp->MessageOf(pkt.psn).size, UINT32_MAX));
}

uint64_t FrameSynthesizer::VirtualAddress(const Packet& pkt) const {
  const QueuePair* qp = Lookup(qps_, pkt.qp);
  const uint64_t offset = qp ? static_cast<uint64_t>(pkt.psn) * qp->mtu : 0;
  return ((static_cast<uint64_t>(pkt.qp) + 1) << 32) + offset;
}

}  // namespace rocelab
