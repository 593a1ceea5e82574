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

ProductionCost PriceAtProduction(const CostSpec& spec, const ProductionInputs& in) {
  ProductionCost c;
  auto prod_s = [&](Time sim) { return static_cast<double>(sim) / kSecond / in.scale; };
  const double detect = prod_s(in.detect), response = static_cast<double>(in.response) / kSecond,
               after = prod_s(in.after_action), budget = prod_s(in.retry_budget);
  c.degraded_s = detect + response + after;
  // One unit for the line: minutes once a person's response or a rollback is in it, else seconds.
  const bool minutes = c.degraded_s >= 60 || (in.halted && spec.checkpoint_interval > 0 && c.degraded_s > budget);
  auto min = [minutes](double s) {
    char buf[48];
    std::snprintf(buf, sizeof buf, minutes ? "%.3f min" : "%.3f s", minutes ? s / 60 : s);
    return std::string(buf);
  };
  char factor[32];
  std::snprintf(factor, sizeof factor, "%g", 1 / in.scale);
  std::string s = "at production time (the run's timers × " + std::string(factor) + "): detected after " + min(detect) + " + " +
                  in.tier + " response " + min(response) + " + back " + min(after) + " after the action = " + min(c.degraded_s);
  if (in.halted) {
    c.lost_s = c.degraded_s;
    s += " halted";
    c.killed = c.degraded_s > budget;
    if (c.killed && spec.checkpoint_interval > 0) {
      c.rollback_s = static_cast<double>(spec.since_checkpoint) / kSecond;
      c.restart_s = static_cast<double>(spec.restart) / kSecond;
      s += ", longer than the queue pairs' retry budget (" + min(budget) +
           "): the job dies, redoes its work since the last checkpoint and restarts: " + min(c.lost_s) + " + " +
           min(c.rollback_s) + " + " + min(c.restart_s) + " = " + min(c.lost_s + c.rollback_s + c.restart_s);
    } else if (c.killed) {
      s += ", longer than the queue pairs' retry budget (" + min(budget) +
           "): the job dies (no cost.checkpoint: its rollback is not priced)";
    }
  } else {
    c.lost_s = c.degraded_s * (1 - in.throughput);
    char share[32];
    std::snprintf(share, sizeof share, "%.1f %%", in.throughput * 100);
    s += " degraded at " + std::string(share) + " throughput: " + min(c.lost_s) + " lost";
  }
  const double priced = c.lost_s + c.rollback_s + c.restart_s;
  c.amount = priced / 3600 * spec.PerHour();
  s += " × " + FormatMoney(spec.PerHour()) + " " + spec.currency + "/hour = " + FormatMoney(c.amount) + " " + spec.currency;
  c.arithmetic = s;
  return c;
}

}  // namespace rocelab
