// An event: plain data naming its target (an EventSource), a kind the target
// interprets, one integer argument and optionally a packet. Ties in time break by
// insertion order (`seq`), which makes every run with the same inputs replay
// identically.
#ifndef ROCELAB_SIM_EVENT_H_
#define ROCELAB_SIM_EVENT_H_

#include <cstdint>

#include "sim/time.h"

namespace rocelab {

struct Packet;

// Anything that receives events: switches, NICs, workload drivers.
class EventSource {
 public:
  virtual ~EventSource() = default;
  virtual void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) = 0;
  // Brings into cache what HandleEvent(kind, arg, pkt) will read first, and changes nothing. On
  // a fabric too large for the caches the event loop calls it a few events ahead (Simulator::
  // SetLookahead), so that the device state an event needs is on its way while others run.
  virtual void Prefetch(uint32_t /*kind*/, uint32_t /*arg*/, const Packet* /*pkt*/) const {}
  // The cache lines of this object that its events read first, a bit per line from its start
  // (of the first 16): what the event loop brings in ahead for an event relayed to it (Relay).
  virtual uint32_t HotLines() const { return 1; }
};

// An event source that hands its events on to another (a wire, to the node it delivers to).
// Its events carry kind kRelayed, which no other event source uses, and, as their argument, the
// receiver's HotLines: the event loop brings those lines in a few events ahead with no call,
// which would itself wait for the receiver's first line.
class Relay : public EventSource {
 public:
  static constexpr uint32_t kRelayed = ~0u;
  const EventSource* receiver() const { return receiver_; }

 protected:
  EventSource* receiver_ = nullptr;
  uint16_t receiver_lines_ = 1;  // the receiver's HotLines (of its first 16 lines)
};

struct Event {
  Time time;
  uint64_t seq;
  EventSource* target;
  Packet* pkt;
  uint32_t kind;
  uint32_t arg;
};

// The order events run in: by time, then by insertion.
inline bool Before(const Event& a, const Event& b) {
  return a.time < b.time || (a.time == b.time && a.seq < b.seq);
}

}  // namespace rocelab

#endif  // ROCELAB_SIM_EVENT_H_
