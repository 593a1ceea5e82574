// A libpcap capture file, the format tcpdump, tshark and Wireshark read: a
// 24-byte file header, then for each frame a 16-byte record header (time,
// bytes captured, length on the wire) and the captured bytes. Timestamps are
// in nanoseconds (magic 0xa1b23c4d), the link type is 1 (Ethernet), and
// everything is little-endian, as on the machines that write most captures.
//
// The file is written through a buffer to PATH.tmp and renamed to PATH when
// complete, so a run that fails leaves no half file behind.
#ifndef ROCELAB_CAPTURE_PCAP_FILE_H_
#define ROCELAB_CAPTURE_PCAP_FILE_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/time.h"

namespace rocelab {

class PcapFile {
 public:
  static constexpr uint32_t kMagicNanoseconds = 0xA1B23C4Du;
  static constexpr uint32_t kLinkTypeEthernet = 1;
  static constexpr uint32_t kDefaultSnaplen = 262144;  // tcpdump's default
  static constexpr uint32_t kFileHeaderBytes = 24, kRecordHeaderBytes = 16;

  PcapFile() = default;
  PcapFile(const PcapFile&) = delete;
  PcapFile& operator=(const PcapFile&) = delete;
  ~PcapFile();  // removes PATH.tmp unless Commit() succeeded

  // Creates PATH.tmp and writes the file header; false, with why, if it cannot.
  bool Open(const std::string& path, uint32_t snaplen, std::string* err);
  // Appends the record of a `length`-byte frame seen at `t`, of which `caplen` (<= snaplen)
  // bytes are kept; returns where the caller puts those bytes. Valid until the next call.
  uint8_t* Record(Time t, uint32_t length, uint32_t caplen);
  // Writes what is buffered, closes and renames the file into place.
  bool Commit(std::string* err);

  uint32_t snaplen() const { return snaplen_; }
  uint64_t records() const { return records_; }
  const std::string& path() const { return path_; }

 private:
  void Flush();

  static constexpr size_t kBuffer = 1 << 20;
  std::string path_, tmp_;
  std::FILE* file_ = nullptr;
  uint32_t snaplen_ = kDefaultSnaplen;
  std::vector<uint8_t> buf_;
  size_t used_ = 0;
  uint64_t records_ = 0;
  bool failed_ = false;  // a write failed: Commit() says so
  int error_ = 0;
  bool committed_ = false;
};

}  // namespace rocelab

#endif  // ROCELAB_CAPTURE_PCAP_FILE_H_
