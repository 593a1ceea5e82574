#include "cc/dcqcn_params.h"

#include <cmath>
#include <utility>

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

// Units and meanings: NVIDIA "DCQCN CC Parameters" (DOCA / MLNX_OFED documentation); the
// largest values bound what may be written (the firmware's own limits are not all published: a rate
// up to 400 Gb/s, a period up to 131071 us).
const std::vector<Mlx5DcqcnParam>& Mlx5DcqcnParams() {
  using P = DcqcnParams;
  constexpr double kMbps = 1e6;
  static const std::vector<Mlx5DcqcnParam> kParams = {
      // alpha := (1 - g) alpha + g [CNP seen]: dce_tcp_g is 1024 (1 - g)
      {"roce_rp/dce_tcp_g", 1023, [](const P& p) -> int64_t { return std::llround(1024 * (1 - p.g)); },
       [](P* p, int64_t v) { p->g = (1024.0 - static_cast<double>(v)) / 1024.0; }},
      {"roce_rp/dce_tcp_rtt", 131071, [](const P& p) -> int64_t { return static_cast<int64_t>(p.alpha_update_period / kMicrosecond); },
       [](P* p, int64_t v) { p->alpha_update_period = v * kMicrosecond; }},  // [us]
      {"roce_rp/initial_alpha_value", 1023, [](const P& p) -> int64_t { return std::llround(p.initial_alpha * 1024); },
       [](P* p, int64_t v) { p->initial_alpha = static_cast<double>(v) / 1024.0; }},  // 10-bit fixed point
      {"roce_rp/rate_reduce_monitor_period", 131071,
       [](const P& p) -> int64_t { return static_cast<int64_t>(p.rate_reduce_period / kMicrosecond); },
       [](P* p, int64_t v) { p->rate_reduce_period = v * kMicrosecond; }},  // [us]
      {"roce_rp/rpg_time_reset", 131071, [](const P& p) -> int64_t { return static_cast<int64_t>(p.rate_increase_period / kMicrosecond); },
       [](P* p, int64_t v) { p->rate_increase_period = v * kMicrosecond; }},  // [us]
      // In 64 B units: 32767 is 2 MiB (the unit is disputed: docs/dcqcn.md).
      {"roce_rp/rpg_byte_reset", 32767, [](const P& p) -> int64_t { return static_cast<int64_t>(p.byte_counter / 64); },
       [](P* p, int64_t v) { p->byte_counter = static_cast<uint64_t>(v) * 64; }},
      {"roce_rp/rpg_threshold", 31, [](const P& p) -> int64_t { return static_cast<int64_t>(p.fast_recovery_stages); },
       [](P* p, int64_t v) { p->fast_recovery_stages = static_cast<int>(v); }},
      {"roce_rp/rpg_ai_rate", 400000, [](const P& p) -> int64_t { return std::llround(static_cast<double>(p.ai_rate_bps) / kMbps); },
       [](P* p, int64_t v) { p->ai_rate_bps = static_cast<uint64_t>(v) * 1000000; }},  // [Mb/s]
      {"roce_rp/rpg_hai_rate", 400000, [](const P& p) -> int64_t { return std::llround(static_cast<double>(p.hai_rate_bps) / kMbps); },
       [](P* p, int64_t v) { p->hai_rate_bps = static_cast<uint64_t>(v) * 1000000; }},
      {"roce_rp/rpg_min_rate", 400000, [](const P& p) -> int64_t { return std::llround(static_cast<double>(p.min_rate_bps) / kMbps); },
       [](P* p, int64_t v) { p->min_rate_bps = static_cast<uint64_t>(v) * 1000000; }},
      // A cut keeps at least this percentage of the rate.
      {"roce_rp/rpg_min_dec_fac", 100, [](const P& p) -> int64_t { return std::llround(p.min_dec_factor * 100); },
       [](P* p, int64_t v) { p->min_dec_factor = static_cast<double>(v) / 100.0; }},
      // cut = rate * alpha / 2^rpg_gd with alpha in 1/1024 units: 11 is the paper's alpha/2.
      {"roce_rp/rpg_gd", 15, [](const P& p) -> int64_t { return std::llround(p.alpha_to_rate_shift + 10); },
       [](P* p, int64_t v) { p->alpha_to_rate_shift = static_cast<double>(v) - 10.0; }},
      {"roce_rp/clamp_tgt_rate", 1, [](const P& p) -> int64_t { return static_cast<int64_t>(p.clamp_target_rate); },
       [](P* p, int64_t v) { p->clamp_target_rate = v != 0; }},
      {"roce_rp/clamp_tgt_rate_after_time_inc", 1, [](const P& p) -> int64_t { return static_cast<int64_t>(p.clamp_target_after_time_inc); },
       [](P* p, int64_t v) { p->clamp_target_after_time_inc = v != 0; }},
      {"roce_rp/rate_to_set_on_first_cnp", 400000,
       [](const P& p) -> int64_t { return std::llround(static_cast<double>(p.rate_on_first_cnp_bps) / kMbps); },
       [](P* p, int64_t v) { p->rate_on_first_cnp_bps = static_cast<uint64_t>(v) * 1000000; }},  // [Mb/s], 0: keep
      {"roce_np/min_time_between_cnps", 131071,
       [](const P& p) -> int64_t { return static_cast<int64_t>(p.min_time_between_cnps / kMicrosecond); },
       [](P* p, int64_t v) { p->min_time_between_cnps = v * kMicrosecond; }},  // [us]
  };
  return kParams;
}

const Mlx5DcqcnParam* FindMlx5DcqcnParam(const std::string& file) {
  for (const Mlx5DcqcnParam& p : Mlx5DcqcnParams())
    if (file == p.file) return &p;
  return nullptr;
}

// Values: ConnectX-5 firmware defaults as `mlxconfig q` prints them
// (../shared/data/samples/mlxconfig_q_cx5_dcqcn_defaults.txt); units and
// meanings: NVIDIA "DCQCN CC Parameters" (DOCA / MLNX_OFED documentation),
// as Mlx5DcqcnParams reads them.
DcqcnParams DcqcnMlx5Profile() {
  DcqcnParams p;
  p.profile = "mlx5";
  const std::pair<const char*, int64_t> defaults[] = {
      {"roce_rp/dce_tcp_g", 1019},           {"roce_rp/dce_tcp_rtt", 1},
      {"roce_rp/initial_alpha_value", 1023}, {"roce_rp/rate_reduce_monitor_period", 4},
      {"roce_rp/rpg_time_reset", 300},       {"roce_rp/rpg_byte_reset", 32767},
      {"roce_rp/rpg_threshold", 1},          {"roce_rp/rpg_ai_rate", 5},
      {"roce_rp/rpg_hai_rate", 50},          {"roce_rp/rpg_min_rate", 1},
      {"roce_rp/rpg_min_dec_fac", 50},       {"roce_rp/rpg_gd", 11},
      {"roce_rp/clamp_tgt_rate", 0},         {"roce_rp/clamp_tgt_rate_after_time_inc", 1},
      {"roce_rp/rate_to_set_on_first_cnp", 0},
      {"roce_np/min_time_between_cnps", 2},  // some sources: 4
  };
  for (const auto& [file, value] : defaults) FindMlx5DcqcnParam(file)->set(&p, value);
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
