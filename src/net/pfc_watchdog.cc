#include "net/pfc_watchdog.h"

#include "telemetry/counter_names.h"
#include "topo/topology.h"
#include "util/units.h"

namespace rocelab {

PfcWatchdog::PfcWatchdog(SimContext* ctx, Switch* sw, const PfcWatchdogSpec& spec)
    : ctx_(ctx), sw_(sw), spec_(spec), state_(sw->num_ports()) {
  spec_.detection_time = ScaledTimer(spec_.detection_time, ctx->timer_scale);
  spec_.restoration_time = ScaledTimer(spec_.restoration_time, ctx->timer_scale);
  spec_.poll_interval = ScaledTimer(spec_.poll_interval, ctx->timer_scale);
  action_ = spec_.action == "forward" ? Action::kForward : spec_.action == "alert" ? Action::kAlert : Action::kDrop;
  queues_ = sw->pfc_mask();
  for (auto& port : state_)
    for (QueueState& q : port) {
      q.detect_left = spec_.detection_time;
      q.restore_left = spec_.restoration_time;
    }
  // Each switch's orchagent polls on its own clock: the first poll comes at a phase of its own
  // within the first interval (drawn from the seed and the switch), not in step fabric-wide.
  const uint64_t phase = SplitMix64(ctx->seed ^ SplitMix64(NameHash(sw->name()) + 0x9FD0ull));
  ctx_->sim.ScheduleIn(1 + static_cast<Time>(phase % static_cast<uint64_t>(spec_.poll_interval)), this, 0, 0);
}

void PfcWatchdog::HandleEvent(uint32_t, uint32_t, Packet*) {
  Poll();
  ctx_->sim.ScheduleIn(spec_.poll_interval, this, 0, 0);
}

bool PfcWatchdog::StormTest(int port, int prio, const QueueState& q, uint64_t tx, Time pause) const {
  // pfc_detect_mellanox.lua: not empty, nothing sent since the last poll, and paused for
  // (nearly) the whole poll.
  return !sw_->QueueEmpty(port, prio) && tx == q.last_tx &&
         static_cast<double>(pause - q.last_pause_time) > 0.99 * static_cast<double>(spec_.poll_interval);
}

void PfcWatchdog::Poll() {
  const Time now = ctx_->sim.Now();
  for (int p = 0; p < sw_->num_ports(); ++p) {
    const Port& port = sw_->port(p);
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      if (!(queues_ & (1u << prio))) continue;
      QueueState& q = state_[p][prio];
      const uint64_t tx = sw_->queue_counters(p, prio).packets;
      const Time pause = port.RxPauseTime(prio, now);
      const uint64_t frames = port.counters.rx_pause[prio];
      const bool up = sw_->Carrier(p);
      if (!q.stats.stormed) {
        if (up && StormTest(p, prio, q, tx, pause)) {
          // As the Lua does it: the check comes before the countdown, so a storm is declared on
          // the ceil(detection / poll)-th poll in a row that meets the test.
          if (q.detect_left <= spec_.poll_interval) Declare(p, prio, q);
          else q.detect_left -= spec_.poll_interval;
        } else {
          q.detect_left = spec_.detection_time;
        }
      } else if (action_ == Action::kAlert) {
        if (!(up && StormTest(p, prio, q, tx, pause))) Restore(p, prio, q);
      } else if (frames == q.last_pause_frames) {
        // pfc_restore.lua: no new pause frame since the last poll.
        if (q.restore_left <= spec_.poll_interval) Restore(p, prio, q);
        else q.restore_left -= spec_.poll_interval;
      } else {
        q.restore_left = spec_.restoration_time;
      }
      q.last_tx = tx;
      q.last_pause_time = pause;
      q.last_pause_frames = frames;
    }
  }
}

void PfcWatchdog::Declare(int port, int prio, QueueState& q) {
  q.stats.stormed = true;
  q.stats.storms_detected++;
  q.restore_left = spec_.restoration_time;
  q.at_tx = sw_->queue_counters(port, prio).packets;
  q.at_rx = sw_->received(port, prio).packets;
  q.at_tx_drop = sw_->storm_tx_drops(port, prio);
  q.at_rx_drop = sw_->storm_rx_drops(port, prio);
  if (action_ != Action::kAlert) sw_->SetPauseIgnored(port, prio, true);
  if (action_ == Action::kDrop) sw_->SetStormDrop(port, prio, true);
  static const char* kActions[] = {"drop", "forward", "alert"};
  ctx_->timeline.Add(ctx_->sim.Now(), sw_->name(), SwitchPortAlias(port), prio, "pfc_storm_detected",
                     QueueName(prio) + " paused without transmitting for the detection time: action " +
                         kActions[static_cast<int>(action_)]);
}

void PfcWatchdog::Restore(int port, int prio, QueueState& q) {
  Current(port, prio, q, &q.stats.tx_last_ok, &q.stats.tx_last_drop, &q.stats.rx_last_ok, &q.stats.rx_last_drop);
  q.stats.tx_ok += q.stats.tx_last_ok;
  q.stats.tx_drop += q.stats.tx_last_drop;
  q.stats.rx_ok += q.stats.rx_last_ok;
  q.stats.rx_drop += q.stats.rx_last_drop;
  q.stats.stormed = false;
  q.stats.storms_restored++;
  q.detect_left = spec_.detection_time;
  if (action_ == Action::kDrop) sw_->SetStormDrop(port, prio, false);
  if (action_ != Action::kAlert) sw_->SetPauseIgnored(port, prio, false);
  ctx_->timeline.Add(ctx_->sim.Now(), sw_->name(), SwitchPortAlias(port), prio, "pfc_storm_restored",
                     QueueName(prio) + (action_ == Action::kAlert ? ": the storm test fails again"
                                                                  : ": no pause frame for the restoration time"));
}

void PfcWatchdog::Current(int port, int prio, const QueueState& q, uint64_t* tx_ok, uint64_t* tx_drop, uint64_t* rx_ok,
                          uint64_t* rx_drop) const {
  *tx_ok = sw_->queue_counters(port, prio).packets - q.at_tx;
  *rx_ok = sw_->received(port, prio).packets - q.at_rx;
  *tx_drop = sw_->storm_tx_drops(port, prio) - q.at_tx_drop;
  *rx_drop = sw_->storm_rx_drops(port, prio) - q.at_rx_drop;
  *rx_ok -= *rx_drop;  // counted on arrival, then dropped
}

PfcWatchdog::QueueStats PfcWatchdog::Stats(int port, int prio) const {
  const QueueState& q = state_[port][prio];
  QueueStats s = q.stats;
  if (s.stormed) {
    Current(port, prio, q, &s.tx_last_ok, &s.tx_last_drop, &s.rx_last_ok, &s.rx_last_drop);
    s.tx_ok += s.tx_last_ok;
    s.tx_drop += s.tx_last_drop;
    s.rx_ok += s.rx_last_ok;
    s.rx_drop += s.rx_last_drop;
  }
  return s;
}

bool PfcWatchdog::EverStormed(int port) const {
  for (const QueueState& q : state_[port])
    if (q.stats.storms_detected) return true;
  return false;
}

}  // namespace rocelab
