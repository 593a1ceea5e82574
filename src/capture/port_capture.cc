#include "capture/port_capture.h"

#include <algorithm>

namespace rocelab {
namespace {

MacAddress MacOf(const TopoNode& n) {
  return n.is_switch ? SwitchMac(static_cast<uint32_t>(n.kind_index)) : HostMac(static_cast<uint32_t>(n.kind_index));
}

}  // namespace

bool ResolveCapturePort(const Topology& topo, const std::string& name, int* node, int* port, std::string* err) {
  const size_t colon = name.find(':');
  const std::string device = name.substr(0, colon);
  *node = topo.FindNode(device);
  if (*node < 0) {
    *err = "no device named '" + device + "'";
    return false;
  }
  const TopoNode& n = topo.nodes()[*node];
  if (colon == std::string::npos) {
    if (n.ports.empty()) {
      *err = "'" + name + "' has no link";
      return false;
    }
    if (n.is_switch) {
      *err = "'" + name + "' is a switch: name one of its ports (" + name + ":" +
             topo.nodes()[n.ports[0].peer_node].name + " or " + name + ":Ethernet0)";
      return false;
    }
    *port = 0;  // a host has one port
    return true;
  }
  *port = ResolvePort(topo, *node, name);
  if (*port < 0) {
    *err = "'" + device + "' has no port '" + name.substr(colon + 1) + "'";
    return false;
  }
  return true;
}

PortCapture::PortCapture(Fabric* fabric, int node, int port, Time from, Time to, std::unique_ptr<PcapFile> file)
    : device_(&fabric->device(node)),
      port_(port),
      under_(fabric->device(node).port(port).tap),
      mac_(MacOf(fabric->topology().nodes()[node])),
      peer_mac_(MacOf(fabric->topology().nodes()[fabric->topology().nodes()[node].ports[port].peer_node])),
      from_(from),
      to_(to),
      synth_(&fabric->qps()),
      file_(std::move(file)) {
  device_->SetTap(port_, this);
}

void PortCapture::Sent(const Packet& pkt, Time t) {
  Write(pkt, t, mac_, peer_mac_);
  if (under_) under_->Sent(pkt, t);
}

void PortCapture::Received(const Packet& pkt, Time t) {
  Write(pkt, t, peer_mac_, mac_);
  if (under_) under_->Received(pkt, t);
}

void PortCapture::Lost(const Packet& pkt, Time t) {
  if (under_) under_->Lost(pkt, t);
}

void PortCapture::Write(const Packet& pkt, Time t, MacAddress src, MacAddress dst) {
  if (t < from_ || t >= to_) return;
  synth_.Build(pkt, src, dst, &frame_);
  const uint32_t length = frame_.length();
  const uint32_t caplen = std::min(length, file_->snaplen());
  // The ICRC and FCS are paid for only when the snap length keeps some of them.
  if (caplen > frame_.header_bytes + frame_.payload_bytes) FrameSynthesizer::Seal(pkt, &frame_);
  frame_.CopyTo(file_->Record(t, length, caplen), caplen);
}

bool PortCapture::Finish(std::string* err) {
  if (device_) device_->SetTap(port_, under_);
  device_ = nullptr;
  return file_->Commit(err);
}

}  // namespace rocelab
