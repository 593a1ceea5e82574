// A capture of one port of a running fabric, as a tap on a mirror port would
// take it: the frames the port sends and the frames it receives, both
// directions in one pcap file, within a window of simulated time. Each frame
// is synthesized from the model's packet (capture/roce_frame.h).
//
// Timestamps are simulated time since the run began (the file's clock starts
// at the epoch, 1970-01-01 00:00:00): for a frame the port sends, the moment its first bit
// goes on the wire; for one it receives, the moment its last bit has arrived,
// when the port counts it and acts on it. The window takes the frames whose
// timestamp t has from <= t < to.
#ifndef ROCELAB_CAPTURE_PORT_CAPTURE_H_
#define ROCELAB_CAPTURE_PORT_CAPTURE_H_

#include <memory>
#include <string>

#include "capture/pcap_file.h"
#include "capture/roce_frame.h"
#include "net/fabric.h"
#include "net/port_tap.h"

namespace rocelab {

// The port `name` names, as scenarios name ports (topo/naming.h): leaf0:h5, leaf0:Ethernet8,
// or a host's one port as h3 or h3:leaf0. False, with why not, for anything else.
bool ResolveCapturePort(const Topology& topo, const std::string& name, int* node, int* port, std::string* err);

class PortCapture : public PortTap {
 public:
  // Taps `port` of device `node` (a topology node id) on `fabric`, writing to `file`, which is
  // open. The fabric must outlive the capture or see Finish() first.
  PortCapture(Fabric* fabric, int node, int port, Time from, Time to, std::unique_ptr<PcapFile> file);
  ~PortCapture() override = default;

  void Sent(const Packet& pkt, Time t) override;
  void Received(const Packet& pkt, Time t) override;
  void Lost(const Packet& pkt, Time t) override;  // not in the file; passed on

  // Takes the tap off the port (putting back the tap it found there) and completes the file;
  // false, with why, if it could not be written.
  bool Finish(std::string* err);

  uint64_t frames() const { return file_->records(); }
  const PcapFile& file() const { return *file_; }

 private:
  void Write(const Packet& pkt, Time t, MacAddress src, MacAddress dst);

  Node* device_;
  int port_;
  PortTap* under_;  // the tap the port had (run/flow_touch.h): it still sees every frame
  MacAddress mac_, peer_mac_;
  Time from_, to_;
  FrameSynthesizer synth_;
  SynthFrame frame_;
  std::unique_ptr<PcapFile> file_;
};

}  // namespace rocelab

#endif  // ROCELAB_CAPTURE_PORT_CAPTURE_H_
