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
