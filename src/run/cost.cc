#include "run/cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rocelab {

namespace {

// `v` in plain decimals (never an exponent) with `digits` significant digits below 1.
std::string PlainDecimal(double v, int digits) {
  const int decimals = std::min(30, static_cast<int>(std::ceil(-std::log10(std::fabs(v)))) + digits - 1);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", std::max(0, decimals), v);
  return buf;
}

}  // namespace

std::string FormatMoney(double v) {
  if (v == 0 || std::fabs(v) >= 0.01) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
  }
  return PlainDecimal(v, 2);
}

std::string FormatSeconds(double s) {
  if (s == 0 || std::fabs(s) >= 1e-4) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", s);
    if (std::string(buf).find('e') == std::string::npos) return buf;
    std::snprintf(buf, sizeof buf, "%.0f", s);  // 1e+06 s and more: whole seconds
    return buf;
  }
  return PlainDecimal(s, 6);
}

CostFigure PriceOf(const CostSpec& spec, Time lost) {
  CostFigure c;
  c.seconds = static_cast<double>(lost) / kSecond;
  const std::string& cur = spec.currency;
  if (spec.by_gpu) {
    c.amount = static_cast<double>(spec.gpus) * c.seconds * spec.per_gpu_hour / 3600.0;
    c.arithmetic = std::to_string(spec.gpus) + " GPUs × " + FormatSeconds(c.seconds) + " s lost × " +
                   FormatMoney(spec.per_gpu_hour) + " " + cur + "/GPU-hour = " + FormatMoney(c.amount) + " " + cur;
  } else {
    c.amount = c.seconds * spec.per_hour / 3600.0;
    c.arithmetic = FormatSeconds(c.seconds) + " s lost × " + FormatMoney(spec.per_hour) + " " + cur +
                   "/hour = " + FormatMoney(c.amount) + " " + cur;
  }
  return c;
}

}  // namespace rocelab
