// The fabric's one periodic reader. Whatever reads the fabric on a schedule
// (the monitor's windows, the time series of series.csv) registers an interval
// here; one event at each distinct due time serves every reader due then, in
// the order they registered, as one collector scrape serves every dashboard.
// Readers only read: what they decide (a recovery action) goes through the
// fabric's own calls.
//
// Not a reader: the PFC watchdog, which runs in each switch on that switch's
// own poll clock and phase (net/pfc_watchdog.h), as SONiC's does.
#ifndef ROCELAB_TELEMETRY_SAMPLER_H_
#define ROCELAB_TELEMETRY_SAMPLER_H_

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "sim/event_queue.h"

namespace rocelab {

class Sampler final : public EventSource {
 public:
  explicit Sampler(Simulator* sim) : sim_(sim) {}

  // Calls `read` at now + interval, now + 2 x interval, ... for the rest of the run; with a
  // `phase` in (0, interval), at now + phase, now + phase + interval, ... instead.
  void Every(Time interval, std::function<void()> read, Time phase = 0) {
    readers_.push_back({interval < 1 ? 1 : interval, 0, std::move(read)});
    readers_.back().next = sim_->Now() + (phase > 0 && phase < interval ? phase : readers_.back().interval);
    Arm();
  }

  void HandleEvent(uint32_t, uint32_t, Packet*) override {
    const Time now = sim_->Now();
    if (now != armed_) return;  // an event an earlier registration overtook
    armed_ = kTimeNever;
    for (size_t i = 0; i < readers_.size(); ++i) {
      if (readers_[i].next != now) continue;
      readers_[i].next = now + readers_[i].interval;
      readers_[i].read();  // by index: a reader may register another
    }
    Arm();
  }

  size_t readers() const { return readers_.size(); }

 private:
  struct Reader {
    Time interval, next;
    std::function<void()> read;
  };

  // One event at the earliest due time, unless one is already queued for it.
  void Arm() {
    Time due = kTimeNever;
    for (const Reader& r : readers_) due = std::min(due, r.next);
    if (due == kTimeNever || due == armed_) return;
    armed_ = due;
    sim_->Schedule(due, this, 0);
  }

  Simulator* sim_;
  std::vector<Reader> readers_;
  Time armed_ = kTimeNever;
};

}  // namespace rocelab

#endif  // ROCELAB_TELEMETRY_SAMPLER_H_
