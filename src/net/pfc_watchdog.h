// SONiC's PFC watchdog on one switch, Mellanox flavour: the detector of
// sonic-swss orchagent/pfc_detect_mellanox.lua and the restorer of
// pfc_restore.lua (as in sonic-swss master, 2024-2026; ../shared/REFERENCE.md
// has the facts, docs/pfc-agents.md the model).
//
// Every poll interval it looks at each lossless queue of each port that is up.
// A queue is in a storm when it is not empty, transmitted nothing since the
// last poll, and the pause it received grew by more than 99 % of the poll
// interval. A countdown starts at the detection time; a poll that meets the
// test declares the storm if no more than one poll is left, else takes one
// poll off; a poll that fails the test starts the countdown again. So a storm
// is declared on the ceil(detection / poll)-th poll in a row that meets the
// test: between detection time and detection time plus a poll after it began. (Older SONiC
// versions declared on "PFC frames received, or pause time grew by more than
// 80 %": a queue paused in short bursts could be taken for a storm there.)
//
// Then the action: drop (the queue's packets and every new one for it are
// discarded, and so is what arrives on that port on that priority; its pause
// is ignored), forward (its pause is ignored: the queue turns lossy), alert
// (counted only). The storm is restored when no pause frame arrived for the
// restoration time, counted down by polls the same way (alert: as soon as the
// storm test fails). A port that is down is never in a storm: its pause
// counters stand still while the link flaps (a false storm SONiC users
// reported). Drop discards before the buffer is charged, so the ports that
// feed the queue are not paused for it (in drop mode a switch that still
// pauses upstream is the other field problem).
#ifndef ROCELAB_NET_PFC_WATCHDOG_H_
#define ROCELAB_NET_PFC_WATCHDOG_H_

#include <array>
#include <vector>

#include "net/switch.h"

namespace rocelab {

class PfcWatchdog final : public EventSource {
 public:
  // Polls `sw` from one poll interval on; the timers are scaled by the run's timer scale.
  PfcWatchdog(SimContext* ctx, Switch* sw) : PfcWatchdog(ctx, sw, sw->spec().pfc_watchdog) {}
  // With settings of its own (`config pfcwd start` on a running switch), as written: production times.
  PfcWatchdog(SimContext* ctx, Switch* sw, const PfcWatchdogSpec& spec);
  const PfcWatchdogSpec& spec() const { return spec_; }  // its times scaled

  // What `show pfcwd stats` shows for a queue: storms detected and restored, packets sent
  // and dropped (TX) and received and dropped (RX) while in a storm, in all and in the last.
  struct QueueStats {
    bool stormed = false;
    uint64_t storms_detected = 0, storms_restored = 0;
    uint64_t tx_ok = 0, tx_drop = 0, rx_ok = 0, rx_drop = 0;
    uint64_t tx_last_ok = 0, tx_last_drop = 0, rx_last_ok = 0, rx_last_drop = 0;
  };
  // As of now (a storm in progress counts so far).
  QueueStats Stats(int port, int prio) const;
  // Whether a storm was ever declared on the port.
  bool EverStormed(int port) const;

  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  struct QueueState {
    Time detect_left = 0, restore_left = 0;
    uint64_t last_tx = 0, last_pause_frames = 0;
    Time last_pause_time = 0;
    // At the start of the current storm: the counters the storm's figures are taken from.
    uint64_t at_tx = 0, at_rx = 0, at_tx_drop = 0, at_rx_drop = 0;
    QueueStats stats;
  };

  void Poll();
  bool StormTest(int port, int prio, const QueueState& q, uint64_t tx, Time pause) const;
  void Declare(int port, int prio, QueueState& q);
  void Restore(int port, int prio, QueueState& q);
  // The current storm's figures, from the counters now.
  void Current(int port, int prio, const QueueState& q, uint64_t* tx_ok, uint64_t* tx_drop, uint64_t* rx_ok,
               uint64_t* rx_drop) const;

  SimContext* ctx_;
  Switch* sw_;
  PfcWatchdogSpec spec_;  // its times scaled
  enum class Action { kDrop, kForward, kAlert } action_;
  uint8_t queues_;  // the lossless priorities it watches
  std::vector<std::array<QueueState, kNumPriorities>> state_;
};

}  // namespace rocelab

#endif  // ROCELAB_NET_PFC_WATCHDOG_H_
