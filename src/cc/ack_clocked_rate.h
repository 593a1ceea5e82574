// The rate of a reaction point that the ACKs drive (DCTCP, TIMELY, HPCC): what pacing reads of it.
// Each algorithm keeps one and sets it on its own signal; the queue pair's packets leave at
// most at that rate, and at the line rate when nothing limits them.
#ifndef ROCELAB_CC_ACK_CLOCKED_RATE_H_
#define ROCELAB_CC_ACK_CLOCKED_RATE_H_

#include <algorithm>
#include <cstdint>

namespace rocelab {

class AckClockedRate {
 public:
  void Init(uint64_t line_rate_bps) { line_rate_ = rate_ = static_cast<double>(line_rate_bps); }
  double rate_bps() const { return rate_; }
  bool limited() const { return rate_ < line_rate_; }
  // Up by `bps`, never past the line.
  void Add(double bps) { rate_ = std::min(line_rate_, rate_ + bps); }
  // To `bps`, never past the line.
  void Set(double bps) { rate_ = std::min(line_rate_, bps); }
  // Times `factor`, never below `floor_bps`.
  void Cut(double factor, uint64_t floor_bps) {
    rate_ = std::max(static_cast<double>(floor_bps), rate_ * std::max(0.0, factor));
  }

 private:
  double rate_ = 0, line_rate_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_CC_ACK_CLOCKED_RATE_H_
