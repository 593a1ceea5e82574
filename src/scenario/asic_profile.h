// Switch ASIC profiles: what `switch.asic` sets before a switch section's own keys are read.
//
// A profile carries the figures of one switching chip that the model's switch takes: its
// buffer-accounting cell, its packet buffer and its port-to-port latency, each from a
// public source (asic_profile.cc cites them; docs/asic-profiles.md tabulates them).
// A figure no one publishes is left to the scenario and disclosed (run/assumptions.h).
// Without a profile the switch is generic: a 32 MiB buffer in 256 B cells with no
// pipeline latency, which is no one chip's.
#ifndef ROCELAB_SCENARIO_ASIC_PROFILE_H_
#define ROCELAB_SCENARIO_ASIC_PROFILE_H_

#include <cstdint>
#include <string>

#include "util/units.h"

namespace rocelab {

struct AsicProfile {
  const char* name;    // the value of switch.asic
  const char* chip;    // as the vendor names it
  uint32_t cell;       // bytes of buffer one cell accounts
  uint64_t buffer;     // the shared packet buffer, bytes; 0: not published
  bool buffer_is_nos_pool;  // the chip's is not published: SONiC's pool on it stands in
  Time pipeline_latency;  // port to port; -1: not published
};

// The profile named `name` (a value of opt::kSwitchAsic), or null: "none" has none.
const AsicProfile* FindAsicProfile(const std::string& name);

}  // namespace rocelab

#endif  // ROCELAB_SCENARIO_ASIC_PROFILE_H_
