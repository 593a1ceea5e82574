// What lost time costs, from the scenario's `cost` section: GPUs x time x the
// price of a GPU-hour, or time x the price of the cluster's hour. The figure
// comes with its arithmetic, as `rocelab run` prints it and summary.json
// keeps it: "512 GPUs × 0.84 s lost × 2.00 USD/GPU-hour = 0.24 USD".
#ifndef ROCELAB_RUN_COST_H_
#define ROCELAB_RUN_COST_H_

#include <string>

#include "scenario/scenario.h"

namespace rocelab {

struct CostFigure {
  double seconds = 0;  // the time priced
  double amount = 0;   // in spec.currency, unrounded
  std::string arithmetic;
};

CostFigure PriceOf(const CostSpec& spec, Time lost);

// A price or an amount as written: two decimals, or two significant digits below 0.01 (a
// simulated fault costs fractions of a cent: "0.000020"), never an exponent.
std::string FormatMoney(double v);
// Seconds as written in the arithmetic: up to six significant digits ("0.84", "0.000512",
// "0.0000704387"), never an exponent.
std::string FormatSeconds(double s);

}  // namespace rocelab

#endif  // ROCELAB_RUN_COST_H_
