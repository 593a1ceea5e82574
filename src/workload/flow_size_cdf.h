// A flow-size distribution in the two-column "size cdf" format of the HPCC
// ns-3 traffic generator (size in bytes, cumulative percent 0..100), sampled
// by inverse transform with linear interpolation between the points.
#ifndef ROCELAB_WORKLOAD_FLOW_SIZE_CDF_H_
#define ROCELAB_WORKLOAD_FLOW_SIZE_CDF_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/rng.h"

namespace rocelab {

class FlowSizeCdf {
 public:
  // Throws ConfigError naming the file and line: unreadable, not two numbers
  // per line, not monotone, or not ending at 100 %.
  static FlowSizeCdf Load(const std::string& path);
  static FlowSizeCdf Parse(const std::string& text, const std::string& file);

  uint64_t Sample(Rng& rng) const;
  double MeanBytes() const;  // of the interpolated distribution

 private:
  std::vector<double> size_, cdf_;  // cdf_ in [0, 1]
};

}  // namespace rocelab

#endif  // ROCELAB_WORKLOAD_FLOW_SIZE_CDF_H_
