#include "workload/flow_size_cdf.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "util/config_error.h"
#include "util/text_file.h"
#include "util/text_lines.h"

namespace rocelab {

FlowSizeCdf FlowSizeCdf::Load(const std::string& path) {
  std::string text, err;
  if (!ReadTextFile(path, &text, &err, 64ull << 20)) throw ConfigError(path, 0, "", "flow-size CDF: " + err);
  return Parse(text, path);
}

FlowSizeCdf FlowSizeCdf::Parse(const std::string& text, const std::string& file) {
  FlowSizeCdf c;
  int n = 0;
  for (const TextLine& line : NumberedLines(text)) {
    n = line.number;
    const std::vector<std::string> w = Words(line.text);
    if (w.empty() || w[0][0] == '#') continue;  // blank line or comment
    char* end = nullptr;
    double size = std::strtod(w[0].c_str(), &end);
    bool ok = end && !*end && w.size() == 2;
    double pct = ok ? std::strtod(w[1].c_str(), &end) : 0;
    ok = ok && end && !*end;
    if (!ok || !std::isfinite(size) || !std::isfinite(pct))
      throw ConfigError(file, n, "", "expected two numbers: flow size in bytes and cumulative percent");
    if (size < 0 || pct < 0 || pct > 100) throw ConfigError(file, n, "", "size must be >= 0 and the percent 0 to 100");
    if (!c.size_.empty() && (size < c.size_.back() || pct / 100 < c.cdf_.back()))
      throw ConfigError(file, n, "", "the CDF is not monotone (size and percent must not decrease)");
    c.size_.push_back(size);
    c.cdf_.push_back(pct / 100);
  }
  if (c.size_.size() < 2) throw ConfigError(file, n, "", "a CDF needs at least two points");
  if (std::fabs(c.cdf_.back() - 1.0) > 1e-9) throw ConfigError(file, n, "", "the CDF must end at 100 percent");
  return c;
}

uint64_t FlowSizeCdf::Sample(Rng& rng) const {
  const double u = rng.Uniform();
  size_t i = 1;
  while (i < cdf_.size() && cdf_[i] < u) ++i;
  if (i >= cdf_.size()) i = cdf_.size() - 1;
  const double c0 = cdf_[i - 1], c1 = cdf_[i];
  const double s = c1 > c0 ? size_[i - 1] + (size_[i] - size_[i - 1]) * (u - c0) / (c1 - c0) : size_[i];
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(s)));
}

double FlowSizeCdf::MeanBytes() const {
  double m = size_[0] * cdf_[0];
  for (size_t i = 1; i < size_.size(); ++i) m += (cdf_[i] - cdf_[i - 1]) * (size_[i] + size_[i - 1]) / 2;
  return m;
}

}  // namespace rocelab
