// A node of the fabric (switch or NIC) and its ports. The node owns what every
// port does alike: putting a frame on the wire (serialization, propagation,
// bit errors), receiving PFC frames and pausing the matching priority, and
// sending PFC frames — XOFF with refresh while congested, XON when drained.
// Subclasses decide which frame goes next and what to do with one that
// arrives.
#ifndef ROCELAB_NET_NODE_H_
#define ROCELAB_NET_NODE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cc/int_hop.h"
#include "fault/fec.h"
#include "net/port_tap.h"
#include "sim/event_queue.h"
#include "sim/packet.h"
#include "sim/rng.h"
#include "sim/timer.h"
#include "sim/wire.h"
#include "telemetry/counters.h"
#include "telemetry/timeline.h"

namespace rocelab {

class FlowPaths;

// What all nodes share: the clock, the packet pool and fabric-wide figures.
struct SimContext {
  Simulator sim;
  PacketPool pool;
  uint64_t packet_hops = 0;
  uint64_t seed = 1;
  uint32_t wire_overhead = kWireOverhead;  // preamble + IFG
  Timeline timeline;  // what happened to the fabric (faults, link state, QP errors)
  double timer_scale = 1;  // the agents' production timers are multiplied by this (timers.scale)
  std::vector<std::string> host_names;  // by host index, for what the timeline says
  Time serialization_grain = 0;  // >0: serialization times rounded down to it (RoundDown)
  FlowPaths* flow_paths = nullptr;  // the paths the NICs stamp into their packets (null: none)
  IntFormat int_format;  // how HPCC's INT records pack their fields (cc/int_hop.h)
};

// What faults have done to one port: its carrier, the errors and drops on its link, a lowered
// MTU. Held apart from Port, and only for ports a fault touches, so the per-frame path of a
// healthy port reads one null pointer.
struct PortFaults {
  bool carrier = true;          // the link is up, as the port reports it (operstate, oper_status)
  bool signal = true;           // light reaches the other end: frames cross (net/link_phy.h)
  // The PCS failed the link (hi_ber, hi_ser): no frame passes, but light does, and the FEC
  // decoder stays aligned and goes on counting the codewords (uncorrectable ones above all).
  bool pcs_fault = false;
  bool Decoding() const { return (carrier && signal) || pcs_fault; }  // the receiver's FEC decodes what arrives
  Time dark_at = -1;            // the last time frames stopped crossing: those in flight then are lost
  double gray_drop = 0;         // share of frames sent that vanish, counted nowhere
  Rng gray_rng;                 // this port's own stream for them
  double blackhole = 0;         // switch: share of the 5-tuples whose packets it drops before sending here
  uint64_t blackhole_seed = 0;  // which ones: a hash of the 5-tuple with this port's seed
  uint32_t mtu = 0;             // a lowered IP MTU: larger frames are dropped on arrival (0: none)
  FecLink fec;                  // pre-FEC bit errors on frames arriving here
  bool fec_on = false;          // a link_errors fault has set `fec` up
  LinkCounters counters;
};

// A port's fields in the order a frame touches them, so that a hop reads few cache lines of it.
// The first line is what an arrival reads: the frames coming in on this port (their wire is the
// event's target, which the event loop brings into cache before the event runs), and the fault
// and capture pointers. The second is everything sending a frame reads and writes but the
// counters; a flag there tells the sender whether the first line's pointers are set, so that a
// healthy port's sender does not read that line. The PFC timers and pause times, used only when
// a pause comes or goes, come last.
struct alignas(64) Port {
  Wire in;  // the frames the peer has sent to this port that have not yet arrived
  std::unique_ptr<PortFaults> faults;  // null until a fault touches the port
  PortTap* tap = nullptr;              // a capture of this port's frames (net/port_tap.h), if any

  Wire* out = nullptr;   // the wire to the peer: the peer port's `in` (null: not connected)
  Time busy_until = 0;   // the end of the frame on the wire
  Time ps_per_byte = 0;  // exact when the rate divides 8 Tb/s, else 0
  Time delay = 0;
  PacketChain control;   // PFC frames waiting for the wire; they bypass all queues
  bool paused[kNumPriorities] = {};  // received PFC state, per priority
  bool txdone_pending = false;  // a kTxDone event will restart the port at busy_until
  bool choosing = false;        // inside NextFrame (a nested Kick must not send)
  bool watched = false;         // `faults` or `tap` is set
  bool bit_errors = false;      // ber > 0
  uint8_t pause_ignored = 0;    // priorities whose received pause a PFC watchdog ignores

  class Node* peer = nullptr;
  int peer_port = -1;
  uint64_t rate_bps = 0;
  double ber = 0;
  Time pause_response = 0;  // from a PFC frame's arrival to the priority stopping
  bool xoff_sent[kNumPriorities] = {};  // sent PFC state, per priority
  alignas(64) PortCounters counters;  // a frame sent, or received, counts in one line of them
  // Received PFC, per priority.
  Time paused_until[kNumPriorities] = {};
  Timer pause_expiry[kNumPriorities];
  Time pause_began[kNumPriorities] = {};
  // Sent PFC, per priority.
  Time xoff_began[kNumPriorities] = {};
  Timer refresh[kNumPriorities];  // the next XOFF refresh while xoff_sent

  // Pause time so far, the interval in progress included (the counters close an interval when
  // the pause ends): what a device shows when it is read.
  Time RxPauseTime(int prio, Time now) const {
    return counters.rx_pause_duration[prio] + (paused[prio] ? now - pause_began[prio] : 0);
  }
  Time TxPauseTime(int prio, Time now) const {
    return counters.tx_pause_duration[prio] + (xoff_sent[prio] ? now - xoff_began[prio] : 0);
  }
};

class Node : public EventSource {
 public:
  Node(SimContext* ctx, std::string name, int num_ports);
  ~Node() override = default;

  const std::string& name() const { return name_; }
  int num_ports() const { return static_cast<int>(ports_.size()); }
  Port& port(int i) { return ports_[i]; }
  const Port& port(int i) const { return ports_[i]; }

  void Connect(int port, Node* peer, int peer_port, uint64_t rate_bps, Time delay, double ber);
  // PFC is honoured (received) and generated only for these priorities.
  void set_pfc_mask(uint8_t mask) { pfc_mask_ = mask; }
  uint8_t pfc_mask() const { return pfc_mask_; }
  void set_pause_quanta(uint16_t q) { pause_quanta_ = q; }
  // false: a received pause lasts until XON, and XOFF is not refreshed (the HPCC code base's PFC).
  void set_pause_expiry(bool e) { pause_expiry_ = e; }

  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) final;
  void Prefetch(uint32_t kind, uint32_t arg, const Packet* pkt) const final {
    if (kind == kArrive) PrefetchFrame(static_cast<int>(arg), pkt);
    else if (kind == kTxDone) PrefetchSend(static_cast<int>(arg), pkt);
  }

  // The bytes of state a frame's hop through this node may read: its ports, and what a
  // subclass keeps per port (Fabric::WantLookahead weighs them against the caches).
  virtual size_t StateBytes() const { return ports_.size() * sizeof(Port); }

  // Closes open pause intervals so durations are complete at the end of a run.
  void FinishCounters(Time now);

  // Faults (fault/fault_injector.h drives these). The fault state of `port`, made on first use.
  PortFaults& Faults(int port);
  // The port's carrier: down, frames in flight on the link and frames sent are lost, and the
  // pause the peer asserted is void; up again, the pause this end still asserts is sent anew.
  // Fabric::SetLinkUp changes both ends together.
  void SetCarrier(int port, bool up);
  // The link's physical signal: lost, frames sent or in flight vanish whatever the carrier says
  // (a loss within the PHY's debounce is not reported: net/link_phy.h).
  void SetSignal(int port, bool present);
  // The PCS has failed the link (true) or no longer (false): see PortFaults::pcs_fault.
  void SetPcsFault(int port, bool failed);
  bool Carrier(int port) const { return !ports_[port].faults || ports_[port].faults->carrier; }
  // The capture of `port`'s frames (null: none).
  void SetTap(int port, PortTap* tap);
  // The port's FEC sees `pre_fec_ber` on arriving frames (0: clean again).
  void SetLinkErrors(int port, double pre_fec_ber, FecMode mode);
  // Received pause on `prio` is ignored (a PFC watchdog's action) or obeyed again.
  void SetPauseIgnored(int port, int prio, bool ignored);

 protected:
  enum : uint32_t {
    kArrive = 0,      // arg: port, pkt: the frame
    kTxDone,          // arg: port, pkt: a hint only (LikelyNext), never read
    kPauseApply,      // arg: port, pkt: the PFC frame, after the response delay
    kPauseExpire,     // arg: port * 8 + priority
    kPauseRefresh,    // arg: port * 8 + priority
    kFirstNodeEvent,  // subclasses number their events from here
  };

  // Picks the next frame for an idle port (PFC frames are handled before this).
  virtual Packet* NextFrame(int port) = 0;
  // Whether the port may have another frame after the one just sent. When it has none the
  // port schedules no end-of-frame event: the next Kick finds it busy or idle by the clock.
  virtual bool HasBacklog(int port) const = 0;
  // A good frame (not PFC, not corrupted) has arrived. The node counts it for the priority it
  // classifies it to, as part of the port's received frames: a NIC in the port's rx_prio, a
  // switch in the priority group it charges (Switch::port_counters).
  virtual void OnFrame(int port, Packet* pkt) = 0;
  // Brings into cache what OnFrame(port, pkt) will read first (EventSource::Prefetch).
  virtual void PrefetchFrame(int /*port*/, const Packet* /*pkt*/) const {}
  // The frame the port will most likely send at its next end of frame (null: no guess). The
  // end-of-frame event carries it, so that the loop brings it into cache a few events ahead and
  // PrefetchSend can name the lines that sending it reads. A guess only: the choice is made
  // when the event runs, and the frame may by then be gone.
  virtual const Packet* LikelyNext(int /*port*/) const { return nullptr; }
  // Brings into cache what sending `likely` (LikelyNext, or null) from `port` will read.
  virtual void PrefetchSend(int /*port*/, const Packet* /*likely*/) const {}
  virtual void OnNodeEvent(uint32_t kind, uint32_t arg, Packet* pkt) = 0;

  // Starts the port if it is idle and has something to send.
  void Kick(int port);
  // Asserts or releases PFC toward the peer of `port` for `prio`.
  void AssertPause(int port, int prio);
  void ReleasePause(int port, int prio);
  // PFC set to `mask` while running: on a priority it leaves, the pause this node asserts ends (an
  // XON) and a pause in force on it is honoured no longer.
  void ChangePfcMask(uint8_t mask);
  bool Paused(int port, int prio) const { return ports_[port].paused[prio]; }

  Time Now() const { return ctx_->sim.Now(); }
  SimContext* ctx_;
  std::vector<Port> ports_;
  // Each port's `out` again, side by side, with the last frame the port sent: a prefetch reads
  // both from here without waiting for the port's own line or the wire's (a few lines for a
  // whole switch). While that frame is in flight it is the wire's tail, which the next send
  // writes to; once it has arrived the pointer is stale, and only ever prefetched.
  struct OutWire {
    const Wire* wire = nullptr;
    const Packet* last_sent = nullptr;
  };
  std::vector<OutWire> out_wires_;

 private:
  void Transmit(int port, Packet* pkt);
  // Schedules the port's end-of-frame event, at busy_until.
  void ScheduleTxDone(int port, Port& p) {
    p.txdone_pending = true;
    Packet* likely = ctx_->sim.Lookahead() ? const_cast<Packet*>(LikelyNext(port)) : nullptr;
    ctx_->sim.Schedule(p.busy_until, this, kTxDone, static_cast<uint32_t>(port), likely);
  }
  void SendPauseFrame(int port, int prio, uint16_t quanta);
  void ApplyPause(int port, Packet* pfc);
  void Resume(int port, int prio);
  Time QuantaTime(const Port& p, uint32_t quanta) const;
  // The wire time of `wire_bytes` (frame, preamble, IFG) on the port.
  Time FrameTime(const Port& p, uint32_t wire_bytes) const;
  Time RefreshPeriod(const Port& p) const;

  // A frame has arrived on `port`: faults, counters, a pause frame's effect, else OnFrame.
  void Arrive(int port, Packet* pkt);
  // A frame arrives on a port with fault state: false when a fault loses it (counted there).
  bool SurvivesFaults(Port& p, Packet* pkt);
  // A frame received that no priority counts (PFC, a bad FCS, over the MTU).
  static void CountOther(Port& p, const Packet* pkt) {
    p.counters.rx_other.packets++;
    p.counters.rx_other.bytes += pkt->frame_bytes;
  }

  std::string name_;
  uint8_t pfc_mask_ = 0;
  uint16_t pause_quanta_ = 0xFFFF;
  bool pause_expiry_ = true;
  Rng ber_rng_;
};

}  // namespace rocelab

#endif  // ROCELAB_NET_NODE_H_
