#include "capture/pcap_file.h"

#include <cerrno>
#include <cstring>

namespace rocelab {
namespace {

uint8_t* PutLe32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
  return p + 4;
}

uint8_t* PutLe16(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
  return p + 2;
}

}  // namespace

PcapFile::~PcapFile() {
  if (file_) std::fclose(file_);
  if (!committed_ && !tmp_.empty()) std::remove(tmp_.c_str());
}

bool PcapFile::Open(const std::string& path, uint32_t snaplen, std::string* err) {
  path_ = path;
  tmp_ = path + ".tmp";
  snaplen_ = snaplen;
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) {
    *err = "cannot write " + tmp_ + ": " + std::strerror(errno);
    tmp_.clear();  // nothing of ours to remove
    return false;
  }
  buf_.resize(kBuffer);
  uint8_t* p = buf_.data();
  p = PutLe32(p, kMagicNanoseconds);
  p = PutLe16(p, 2);  // version 2.4
  p = PutLe16(p, 4);
  p = PutLe32(p, 0);  // times are UTC (the simulation starts at the epoch)
  p = PutLe32(p, 0);  // timestamp accuracy: unused
  p = PutLe32(p, snaplen);
  PutLe32(p, kLinkTypeEthernet);
  used_ = kFileHeaderBytes;
  return true;
}

uint8_t* PcapFile::Record(Time t, uint32_t length, uint32_t caplen) {
  if (used_ + kRecordHeaderBytes + caplen > buf_.size()) Flush();
  if (kRecordHeaderBytes + caplen > buf_.size()) buf_.resize(kRecordHeaderBytes + caplen);
  uint8_t* p = buf_.data() + used_;
  const Time ns = t / kNanosecond;
  p = PutLe32(p, static_cast<uint32_t>(ns / 1000000000));
  p = PutLe32(p, static_cast<uint32_t>(ns % 1000000000));
  p = PutLe32(p, caplen);
  p = PutLe32(p, length);
  used_ += kRecordHeaderBytes + caplen;
  ++records_;
  return p;
}

void PcapFile::Flush() {
  if (used_ && !failed_ && std::fwrite(buf_.data(), 1, used_, file_) != used_) {
    failed_ = true;
    error_ = errno;
  }
  used_ = 0;
}

bool PcapFile::Commit(std::string* err) {
  Flush();
  const bool closed = std::fclose(file_) == 0;
  if (!closed && !failed_) error_ = errno;
  file_ = nullptr;
  if (failed_ || !closed) {
    *err = "cannot write " + tmp_ + ": " + std::strerror(error_);
    return false;
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    *err = "cannot write " + path_ + ": " + std::strerror(errno);
    return false;
  }
  committed_ = true;
  return true;
}

}  // namespace rocelab
