// A tap on one port: it sees every frame the port puts on its wire and every
// frame that arrives on it, as the port's own counters count them (a frame the
// PHY never sent because the carrier was down is not seen sent, one lost in
// flight is seen sent and not received; both are reported lost).
// capture/port_capture.h writes what a tap sees to a pcap file; run/flow_touch.h
// notes the queue pairs that crossed a fault's target.
//
// A port without a tap pays one null-pointer check per frame.
#ifndef ROCELAB_NET_PORT_TAP_H_
#define ROCELAB_NET_PORT_TAP_H_

#include "sim/packet.h"
#include "sim/time.h"

namespace rocelab {

class PortTap {
 public:
  virtual ~PortTap() = default;
  // The port started sending `pkt` at `t`: its first bit is on the wire.
  virtual void Sent(const Packet& pkt, Time t) = 0;
  // `pkt` arrived at `t`, its last bit received; pkt.corrupted() if its FCS is bad.
  virtual void Received(const Packet& pkt, Time t) = 0;
  // The carrier lost `pkt` at `t`: the port sent it while down (its PHY sent nothing), or it
  // was in flight toward the port when the link went down. Neither sent nor received.
  virtual void Lost(const Packet&, Time) {}
};

}  // namespace rocelab

#endif  // ROCELAB_NET_PORT_TAP_H_
