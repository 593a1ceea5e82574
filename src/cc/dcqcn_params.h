// DCQCN parameters in SI units, with the two built-in profiles. docs/dcqcn.md
// gives each parameter's equation, unit and source, and how the mlx5 firmware
// names map onto them.
#ifndef ROCELAB_CC_DCQCN_PARAMS_H_
#define ROCELAB_CC_DCQCN_PARAMS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.h"

namespace rocelab {

struct DcqcnParams {
  std::string profile;
  // Reaction point (sender).
  double g;                         // alpha gain per alpha update
  Time alpha_update_period;         // alpha is updated once per period
  double initial_alpha;             // alpha at the first CNP of a QP
  Time rate_reduce_period;          // at most one rate cut per period (0: every CNP)
  Time rate_increase_period;        // T: rate-increase timer
  uint64_t byte_counter;            // B: bytes sent per byte-counter stage (0: off)
  int fast_recovery_stages;         // F
  uint64_t ai_rate_bps;             // R_AI
  uint64_t hai_rate_bps;            // R_HAI
  uint64_t min_rate_bps;            // floor of the current rate
  double min_dec_factor;            // a cut keeps at least this share of the rate
  double alpha_to_rate_shift;       // cut = rate * alpha / 2^shift (1 = the paper's alpha/2)
  bool clamp_target_rate;           // target := current on every cut
  bool clamp_target_after_time_inc; // ... and when the timer has raised the rate since
  uint64_t rate_on_first_cnp_bps;   // 0: keep the current rate at the first CNP
  // Notification point (receiver).
  Time min_time_between_cnps;       // per QP, or per port with cnp_per_port
  bool cnp_per_port = false;        // min_time_between_cnps spaces all CNPs of the port, not each QP's
};

// Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015.
DcqcnParams DcqcnPaperProfile();
// NVIDIA ConnectX-4 and later firmware defaults (mlxconfig / sysfs roce_rp, roce_np).
DcqcnParams DcqcnMlx5Profile();
bool DcqcnProfileByName(const std::string& name, DcqcnParams* out);

// One DCQCN parameter as the mlx5 driver takes it: its file under /sys/class/net/IF/ecn/
// ("roce_rp/rpg_ai_rate", "roce_np/min_time_between_cnps") and the firmware's integer in its own
// unit (Mb/s, us, 64 B, 1/1024), read from and written to the SI values. The ConnectX defaults
// (DcqcnMlx5Profile) are these integers; docs/dcqcn.md gives each unit's source.
struct Mlx5DcqcnParam {
  const char* file;
  int64_t max;  // the largest value written (the least is 0): a bound, see Mlx5DcqcnParams
  int64_t (*get)(const DcqcnParams&);
  void (*set)(DcqcnParams*, int64_t);
};
const std::vector<Mlx5DcqcnParam>& Mlx5DcqcnParams();
const Mlx5DcqcnParam* FindMlx5DcqcnParam(const std::string& file);

}  // namespace rocelab

#endif  // ROCELAB_CC_DCQCN_PARAMS_H_
