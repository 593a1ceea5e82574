#include "cli/pcap_options.h"

#include "util/units.h"

namespace rocelab {

void AddPcapOptions(CLI::App* cmd) {
  AddValue(cmd, "--pcap", "FILE", "write the frames crossing --pcap-port, both directions, to this pcap file (docs/pcap.md)");
  AddValue(cmd, "--pcap-port", "DEVICE:PORT", "the port to capture: leaf0:h5, leaf0:Ethernet8, or a host (h3)");
  AddValue(cmd, "--pcap-window", "FROM,TO", "capture only frames from simulated time FROM until TO (e.g. 1ms,2ms)");
  AddValue(cmd, "--snaplen", "N", "keep at most N bytes of each frame, 1 to 262144 (default 262144: whole frames)");
}

PcapOption::PcapOption(const Args& a) : command_(a.command()) {
  auto fail = [&](const std::string& why) { throw UsageError(command_ + ": " + why); };
  if (!a.Has("--pcap")) {
    for (const char* o : {"--pcap-port", "--pcap-window", "--snaplen"})
      if (a.Has(o)) fail(std::string(o) + " needs --pcap FILE");
    return;
  }
  file_ = a.Get("--pcap");
  if (file_.empty()) fail("--pcap needs a file name");
  if (!a.Has("--pcap-port")) fail("--pcap needs --pcap-port DEVICE:PORT, the port to capture (leaf0:h5, h3)");
  port_ = a.Get("--pcap-port");
  if (a.Has("--pcap-window")) {
    const std::string w = a.Get("--pcap-window");
    const size_t comma = w.find(',');
    std::string err;
    if (comma == std::string::npos || !ParseTime(w.substr(0, comma), &from_, &err) ||
        !ParseTime(w.substr(comma + 1), &to_, &err))
      fail("--pcap-window: '" + w + "' is not FROM,TO, two times with units (1ms,2ms)" + (err.empty() ? "" : ": " + err));
    if (from_ < 0 || to_ <= from_) fail("--pcap-window: '" + w + "': FROM must be at least 0 and before TO");
  }
  if (a.Has("--snaplen")) {
    int64_t n = 0;
    std::string err;
    if (!ParseInteger(a.Get("--snaplen"), &n, &err) || n < 1 || n > PcapFile::kDefaultSnaplen)
      fail("--snaplen: '" + a.Get("--snaplen") + "' is not a whole number of bytes from 1 to 262144");
    snaplen_ = static_cast<uint32_t>(n);
  }
}

void PcapOption::Start(Fabric* fabric) {
  if (file_.empty()) return;
  int node = -1, port = -1;
  std::string err;
  if (!ResolveCapturePort(fabric->topology(), port_, &node, &port, &err))
    throw UsageError(command_ + ": --pcap-port: " + err);
  auto file = std::make_unique<PcapFile>();
  if (!file->Open(file_, snaplen_, &err)) throw UsageError(command_ + ": --pcap: " + err);
  capture_ = std::make_unique<PortCapture>(fabric, node, port, from_, to_, std::move(file));
}

std::string PcapOption::Finish() {
  if (!capture_) return "";
  std::string err;
  if (!capture_->Finish(&err)) throw UsageError(command_ + ": --pcap: " + err);
  return " and " + file_ + " (" + std::to_string(capture_->frames()) + " frames of " + port_ + ")";
}

}  // namespace rocelab
