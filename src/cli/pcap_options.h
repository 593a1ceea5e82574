// rocelab run|demo ... --pcap FILE --pcap-port DEVICE:PORT [--pcap-window FROM,TO] [--snaplen N]
//
// The frames crossing one port, both directions, written to a pcap file that
// Wireshark opens (docs/pcap.md). The options' form is checked before the
// fabric is built and the port's name on the built fabric, before the run and
// before anything is written: a bad one is a usage error naming the option.
#ifndef ROCELAB_CLI_PCAP_OPTIONS_H_
#define ROCELAB_CLI_PCAP_OPTIONS_H_

#include <memory>
#include <string>

#include "capture/port_capture.h"
#include "cli/cli.h"
#include "net/fabric.h"

namespace rocelab {

void AddPcapOptions(CLI::App* cmd);

class PcapOption {
 public:
  // Checks the options `a` was given (throws UsageError); nothing is opened yet.
  explicit PcapOption(const Args& a);
  // Opens the file and taps the port on `fabric`, when a capture was asked for (throws
  // UsageError naming --pcap-port or --pcap).
  void Start(Fabric* fabric);
  // After the run: completes the file. What the report line adds: " and FILE (N frames of
  // PORT)", or "" without a capture.
  std::string Finish();

 private:
  std::string command_, file_, port_;
  Time from_ = 0, to_ = kTimeNever;
  uint32_t snaplen_ = PcapFile::kDefaultSnaplen;
  std::unique_ptr<PortCapture> capture_;
};

}  // namespace rocelab

#endif  // ROCELAB_CLI_PCAP_OPTIONS_H_
