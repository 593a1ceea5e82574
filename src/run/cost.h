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

// What a fault would cost at production time. The scenario runs production's timers scaled by
// `scale` (timers.scale; the monitor's window and, by hand, the NIC's ACK timeout with them), so
// its detection, the time from the last action to recovery and the queue pairs' retry budget
// are production's times `scale` . A person answers the page for the action's tier
// (cost.response). The workloads are degraded from the injection to recovery:
//   not halted: they lose degraded x (1 - throughput) of their time, as in the run;
//   halted (a deadlock stops the job's queues; a QP error stopped it in the run): they lose all
//   of it, and a halt longer than the retry budget fails the job's queue pairs: the job is
//   killed, redoes its work since the last checkpoint (cost.checkpoint) and restarts.
// Priced at the cluster's hour (cost.per_hour, or gpus x per_gpu_hour), with its arithmetic in
// minutes: "... = 150.004 min x 8000.00 CNY/hour = 20000.53 CNY".
struct ProductionInputs {
  double scale = 1;         // timers.scale
  Time detect = 0;          // simulated: from the injection to the detection
  std::string tier;         // the tier of the action the detection calls for
  Time response = 0;        // production: a person's response for that tier
  Time after_action = 0;    // simulated: from the last action to recovery (0: at once)
  bool halted = false;
  double throughput = 0;    // the workloads' share while degraded (not halted)
  Time retry_budget = 0;    // simulated: ACK timeout x (retries + 1)
};

struct ProductionCost {
  double degraded_s = 0, lost_s = 0;   // production seconds
  bool killed = false;                 // the halt outlasted the retry budget
  double rollback_s = 0, restart_s = 0;
  double amount = 0;
  std::string arithmetic;
};

ProductionCost PriceAtProduction(const CostSpec& spec, const ProductionInputs& in);

// A price or an amount as written: two decimals, or two significant digits below 0.01 (a
// simulated fault costs fractions of a cent: "0.000020"), never an exponent.
std::string FormatMoney(double v);
// Seconds as written in the arithmetic: up to six significant digits ("0.84", "0.000512",
// "0.0000704387"), never an exponent.
std::string FormatSeconds(double s);

}  // namespace rocelab

#endif  // ROCELAB_RUN_COST_H_
