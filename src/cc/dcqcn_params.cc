#include "cc/dcqcn_params.h"

namespace rocelab {

DcqcnParams DcqcnPaperProfile() {
  DcqcnParams p;
  p.profile = "paper";
  p.g = 1.0 / 256;                           // paper §5: g = 1/256
  p.alpha_update_period = 55 * kMicrosecond; // paper: alpha timer K = 55 us
  p.initial_alpha = 1.0;                     // paper: alpha starts at 1
  p.rate_reduce_period = 0;                  // paper: the RP cuts on every CNP
  p.rate_increase_period = 55 * kMicrosecond;  // paper: T = 55 us
  p.byte_counter = 10ull * 1024 * 1024;      // paper: B = 10 MB
  p.fast_recovery_stages = 5;                // paper: F = 5
  p.ai_rate_bps = 40000000;                  // paper: R_AI = 40 Mb/s
  p.hai_rate_bps = 400000000;                // not given there; 10 x R_AI as mlx5 (5/50) and HPCC's code use
  p.min_rate_bps = 1000000;                  // a floor so the rate never reaches zero
  p.min_dec_factor = 0.0;                    // the paper does not bound a cut
  p.alpha_to_rate_shift = 1.0;               // R_C = R_C (1 - alpha/2)
  p.clamp_target_rate = true;                // paper: R_T = R_C on every cut
  p.clamp_target_after_time_inc = true;
  p.rate_on_first_cnp_bps = 0;
  p.min_time_between_cnps = 50 * kMicrosecond;  // paper: N = 50 us
  return p;
}

// Values: ConnectX-5 firmware defaults as `mlxconfig q` prints them
// (../shared/data/samples/mlxconfig_q_cx5_dcqcn_defaults.txt); units and
// meanings: NVIDIA "DCQCN CC Parameters" (DOCA / MLNX_OFED documentation).
DcqcnParams DcqcnMlx5Profile() {
  DcqcnParams p;
  p.profile = "mlx5";
  p.g = (1024.0 - 1019.0) / 1024.0;       // dce_tcp_g 1019: alpha := 1019/1024 alpha + 5/1024 [CNP seen]
  p.alpha_update_period = 1 * kMicrosecond;  // dce_tcp_rtt 1 [us]
  p.initial_alpha = 1023.0 / 1024.0;      // initial_alpha_value 1023 (10-bit fixed point)
  p.rate_reduce_period = 4 * kMicrosecond;   // rate_reduce_monitor_period 4 [us]
  p.rate_increase_period = 300 * kMicrosecond;  // rpg_time_reset 300 [us]
  p.byte_counter = 32767ull * 64;         // rpg_byte_reset 32767 in 64 B units = 2 MiB (unit disputed: docs/dcqcn.md)
  p.fast_recovery_stages = 1;             // rpg_threshold 1
  p.ai_rate_bps = 5000000;                // rpg_ai_rate 5 [Mb/s]
  p.hai_rate_bps = 50000000;              // rpg_hai_rate 50 [Mb/s]
  p.min_rate_bps = 1000000;               // rpg_min_rate 1 [Mb/s]
  p.min_dec_factor = 0.50;                // rpg_min_dec_fac 50 [%]: new rate >= 50 % of the old
  p.alpha_to_rate_shift = 11.0 - 10.0;    // rpg_gd 11 with alpha in 1/1024 units: cut = alpha/2
  p.clamp_target_rate = false;            // clamp_tgt_rate 0
  p.clamp_target_after_time_inc = true;   // clamp_tgt_rate_after_time_inc 1
  p.rate_on_first_cnp_bps = 0;            // rate_to_set_on_first_cnp 0
  p.min_time_between_cnps = 2 * kMicrosecond;  // min_time_between_cnps 2 [us] (some sources: 4)
  p.cnp_per_port = true;  // the firmware text: "minimum time between sending CNPs from the port"
  return p;
}

bool DcqcnProfileByName(const std::string& name, DcqcnParams* out) {
  if (name == "paper") {
    *out = DcqcnPaperProfile();
    return true;
  }
  if (name == "mlx5") {
    *out = DcqcnMlx5Profile();
    return true;
  }
  return false;
}

}  // namespace rocelab
