#include "run/cost.h"

#include <cstdio>

namespace rocelab {

std::string FormatMoney(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, v == 0 || v >= 0.01 ? "%.2f" : "%.2g", v);
  return buf;
}

std::string FormatSeconds(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", s);
  return buf;
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
