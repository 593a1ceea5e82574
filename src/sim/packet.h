// A packet is plain data recycled through a pool. It carries the header fields
// that the fabric acts on (DSCP, ECN, UDP source port for ECMP, BTH opcode and
// PSN) and the frame size on the wire; the payload itself is never stored.
//
// Layout contract (stable for later telemetry): 128 bytes aligned to a cache line, with a
// reserved block for up to five in-band telemetry hop records (HPCC's INT:
// one 64-bit word per hop, as its ns-3 model packs them).
#ifndef ROCELAB_SIM_PACKET_H_
#define ROCELAB_SIM_PACKET_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/time.h"

namespace rocelab {

enum class PacketType : uint8_t {
  kData,   // RoCEv2 RDMA WRITE segment (BTH opcodes 0x06..0x0A)
  kAck,    // BTH opcode 0x11 with AETH syndrome ACK
  kNak,    // BTH opcode 0x11 with AETH syndrome NAK (PSN sequence error)
  kCnp,    // RoCEv2 congestion notification packet, BTH opcode 0x81
  kPause,  // IEEE 802.1Qbb priority flow control frame (MAC control 0x8808)
  kReadRequest,   // BTH opcode 0x0C with RETH
  kReadResponse,  // BTH opcodes 0x0D..0x10, AETH on the first, last and only
  kProbe,         // a monitoring probe: UD SEND only (BTH opcode 0x64) with DETH (run/pingmesh.h)
  kProbeReply,    // its answer, the same kind of frame back
};

// BTH opcodes (InfiniBand Architecture Specification vol. 1, RC opcodes).
enum BthOpcode : uint8_t {
  kOpSendFirst = 0x00,
  kOpSendMiddle = 0x01,
  kOpSendLast = 0x02,
  kOpSendOnly = 0x04,
  kOpWriteFirst = 0x06,
  kOpWriteMiddle = 0x07,
  kOpWriteLast = 0x08,
  kOpWriteLastImm = 0x09,
  kOpWriteOnly = 0x0A,
  kOpWriteOnlyImm = 0x0B,
  kOpReadRequest = 0x0C,
  kOpReadResponseFirst = 0x0D,
  kOpReadResponseMiddle = 0x0E,
  kOpReadResponseLast = 0x0F,
  kOpReadResponseOnly = 0x10,
  kOpAcknowledge = 0x11,
  kOpCnp = 0x81,
  kOpUdSendOnly = 0x64,
};

// ECN codepoints in the IPv4 header (RFC 3168).
enum EcnCodepoint : uint8_t { kNotEct = 0, kEct1 = 1, kEct0 = 2, kCe = 3 };

constexpr int kNumPriorities = 8;
constexpr uint8_t kSendTtl = 64;  // the IPv4 TTL a NIC sends with (Linux's ip_default_ttl)
constexpr int kMaxIntHops = 5;

struct alignas(64) Packet {
  // The first cache line holds what every hop reads: forwarding, queueing, marking and the
  // wire. The second holds what only the ends and PFC read.
  Packet* next;  // intrusive link for FIFOs and the wire; no container allocates per packet
  // On a wire (sim/wire.h), when `next` is the frame behind this one: its arrival time and
  // place in the event order. The frame ahead carries them, so the arrival that hands the
  // next frame to the event queue reads only the frame already in hand.
  Time wire_next_arrival;
  uint64_t wire_next_seq;

  uint32_t qp;       // queue pair (= flow) index
  uint32_t src;      // source host index
  uint32_t dst;      // destination host index
  uint16_t frame_bytes;  // Ethernet header through FCS; the wire adds preamble + IFG
  uint16_t udp_sport;    // per-QP entropy, hashed by ECMP (the data's source port, either way)
  uint16_t udp_dport;    // the data's destination port, whichever way the packet goes
  uint16_t in_port;      // switch ingress port, for buffer accounting

  PacketType type;
  uint8_t dscp;
  uint8_t ecn;
  uint8_t priority;   // set at each ingress from the device's DSCP map
  uint8_t flags;      // kFlagLast, kFlagCorrupted
  uint8_t ttl;        // IPv4 TTL: switches decrement it and drop at zero
  // The output port of each switch on the way, as the sending NIC stamps them from its flow's
  // path (net/flow_paths.h): the switch k hops from the source, where the TTL is
  // kSendTtl - k, takes path[k]. path_hops == 0: not stamped, each switch looks its route up.
  uint8_t path_hops;
  uint8_t path[5];
  uint32_t psn;       // packet sequence number (24 bits on the wire, not wrapped here)
  uint32_t payload;   // RDMA payload bytes in this packet

  union {
    uint32_t read_bytes;  // READ request: bytes asked for from this PSN on
    uint32_t ce_echoed;   // ACK or NAK under DCTCP: the CE-marked packets it answers for
  };
  uint16_t pause_quanta[kNumPriorities];  // PFC time per priority, 512-bit-time quanta
  uint8_t pause_enable;                   // PFC class-enable vector
  uint8_t opcode;
  uint8_t int_count;                  // in-band telemetry hop records stamped (HPCC: cc/int_hop.h)
  union {
    // In-band telemetry hop records, in path order; a probe's payload instead (kProbe, kProbeReply): the NIC
    // timestamps of its round trip, ProbeStamp below.
    uint64_t int_hops[kMaxIntHops];
    // Under TIMELY: when a data packet left its NIC; its ACK or NAK echoes it.
    Time sent_at;
  };

  static constexpr uint8_t kFlagLast = 1;       // last packet of the message (ACK requested)
  static constexpr uint8_t kFlagCorrupted = 2;  // a bit error hit it on the last link
  static constexpr uint8_t kFlagEcnEcho = 4;    // an ACK echoing a CE mark (the HPCC code base's CNP)
  static constexpr uint8_t kFlagInt = 8;        // carries an INT header: each switch stamps a hop record

  // A probe's timestamps, as NICs take them at the MAC: the probe's send (t1) and arrival
  // (t2), its reply's send (t3) and arrival (t4).
  enum ProbeStamp { kProbeSent = 0, kProbeArrived, kReplySent, kReplyArrived };
  static constexpr uint32_t kNoQp = 0xFFFFFFFF;  // `qp` of a frame that belongs to no queue pair

  bool last() const { return flags & kFlagLast; }
  bool corrupted() const { return flags & kFlagCorrupted; }
};

static_assert(sizeof(Packet) == 128, "packet layout contract: 128 bytes, two whole cache lines");
static_assert(offsetof(Packet, payload) + sizeof(uint32_t) <= 64, "a hop reads one cache line");

// Frame sizes (bytes from the Ethernet destination address through the FCS).
// Ethernet II header 14, IPv4 20, UDP 8, BTH 12, RETH 16, AETH 4, ICRC 4, FCS 4.
constexpr uint32_t kEthHeader = 14;
constexpr uint32_t kFcs = 4;
constexpr uint32_t kIpv4Header = 20;
constexpr uint32_t kUdpHeader = 8;
constexpr uint32_t kBth = 12;
constexpr uint32_t kReth = 16;
constexpr uint32_t kAeth = 4;
constexpr uint32_t kImmDt = 4;
constexpr uint32_t kIcrc = 4;
constexpr uint32_t kCnpPayload = 16;  // RoCEv2 CNP: 16 reserved bytes after the BTH
constexpr uint32_t kPreambleSfd = 8;
constexpr uint32_t kInterFrameGap = 12;
constexpr uint32_t kWireOverhead = kPreambleSfd + kInterFrameGap;  // on the wire, not in the frame
constexpr uint32_t kMinFrame = 64;
constexpr uint32_t kMaxJumboFrame = 9216;  // the largest IP MTU switches commonly take
constexpr uint32_t kPauseFrame = 64;  // 802.1Qbb frame padded to the minimum
constexpr uint32_t kRoceHeaders = kEthHeader + kIpv4Header + kUdpHeader + kBth + kIcrc + kFcs;  // 62
constexpr uint16_t kRoceUdpPort = 4791;
// NVIDIA's RoCE defaults (mlnx_qos / cma_roce_tos; mlx5 cnp_dscp): RoCE data on DSCP 26,
// CNPs on DSCP 48.
constexpr uint8_t kRoceDscp = 26;
constexpr uint8_t kCnpDscp = 48;

// A data frame's bytes when the NIC counts `headers` bytes of headers per frame and `extra` for
// RETH, AETH or ImmDt. RoCEv2's own headers are padded to Ethernet's minimum; a profile that
// counts its own header bytes (the ns-3 one) is taken as it counts.
inline uint32_t FrameBytes(uint32_t headers, uint32_t payload, uint32_t extra) {
  return std::max(headers == kRoceHeaders ? kMinFrame : 0u, headers + payload + extra);
}
inline uint32_t DataFrameBytes(uint32_t payload, bool with_reth) {
  return FrameBytes(kRoceHeaders, payload, with_reth ? kReth : 0);
}
constexpr uint32_t kAckFrameBytes = kRoceHeaders + kAeth;        // 66
constexpr uint32_t kCnpFrameBytes = kRoceHeaders + kCnpPayload;  // 78
// A probe and its reply: UD SEND only with its DETH (Q_Key, source QP) and a payload of four
// 64-bit timestamps.
constexpr uint32_t kDeth = 8;
constexpr uint32_t kProbePayload = 32;
constexpr uint32_t kProbeFrameBytes = kRoceHeaders + kDeth + kProbePayload;  // 102

// Free-list pool. Blocks are never returned to the system during a run, so the
// steady state allocates nothing.
class PacketPool {
 public:
  Packet* Get() {
    if (!free_) Grow();
    Packet* p = free_;
    free_ = p->next;
    *p = Packet{};
    ++in_use_;
    if (in_use_ > peak_in_use_) peak_in_use_ = in_use_;
    return p;
  }
  void Put(Packet* p) {
    p->next = free_;
    free_ = p;
    --in_use_;
  }
  size_t InUse() const { return in_use_; }
  size_t PeakInUse() const { return peak_in_use_; }
  // Calls f(Packet&) on every packet the pool has made, in use or free.
  template <class F>
  void ForEach(F f) {
    for (auto& block : blocks_)
      for (size_t i = 0; i < kBlock; ++i) f(block[i]);
  }
  size_t AllocatedBytes() const { return blocks_.size() * kBlock * sizeof(Packet); }

 private:
  static constexpr size_t kBlock = 4096;
  void Grow() {
    blocks_.emplace_back(new Packet[kBlock]);
    Packet* b = blocks_.back().get();
    for (size_t i = 0; i < kBlock; ++i) {
      b[i].next = free_;
      free_ = &b[i];
    }
  }
  std::vector<std::unique_ptr<Packet[]>> blocks_;
  Packet* free_ = nullptr;
  size_t in_use_ = 0;
  size_t peak_in_use_ = 0;
};

// A chain of packets threaded through Packet::next, first in first out: two pointers.
class PacketChain {
 public:
  bool empty() const { return head_ == nullptr; }
  Packet* front() const { return head_; }
  void push(Packet* p) {
    p->next = nullptr;
    if (tail_) tail_->next = p; else head_ = p;
    tail_ = p;
  }
  Packet* pop() {
    Packet* p = head_;
    head_ = p->next;
    if (!head_) tail_ = nullptr;
    return p;
  }

 private:
  Packet* head_ = nullptr;
  Packet* tail_ = nullptr;
};

// A chain of packets with their count and bytes: a queue whose depth is read.
class PacketFifo {
 public:
  bool empty() const { return chain_.empty(); }
  Packet* front() const { return chain_.front(); }
  uint64_t bytes() const { return bytes_; }
  uint32_t size() const { return count_; }
  void push(Packet* p) {
    chain_.push(p);
    bytes_ += p->frame_bytes;
    ++count_;
  }
  Packet* pop() {
    Packet* p = chain_.pop();
    bytes_ -= p->frame_bytes;
    --count_;
    return p;
  }

 private:
  PacketChain chain_;
  uint64_t bytes_ = 0;
  uint32_t count_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_SIM_PACKET_H_
