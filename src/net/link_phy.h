// What the PHYs at the two ends of a link do when its signal goes and comes
// back. Losing the signal darkens the link at once: frames sent or in flight
// vanish. The ports report it (carrier down: `operstate`, `oper_status`,
// `carrier_changes`, SONiC's flap count, then the control plane's ECMP pruning)
// only once it has lasted the debounce; a loss that ends within the debounce
// is never reported, and the link carries frames again at once. A reported
// loss needs the link brought up again when the signal is back: autonegotiation
// and link training, `link_up_time`, before the carrier is up.
//
// Both figures are the switch's (`switch.link_debounce`, `switch.link_up_time`,
// scaled with timers.scale); a link between two switches takes the larger of
// its ends'. An administrative shutdown (Fabric::HoldLinkDown) is no loss of
// signal and knows no debounce.
#ifndef ROCELAB_NET_LINK_PHY_H_
#define ROCELAB_NET_LINK_PHY_H_

#include <map>
#include <utility>
#include <vector>

#include "sim/event.h"
#include "sim/time.h"

namespace rocelab {

class Fabric;

class LinkPhy final : public EventSource {
 public:
  explicit LinkPhy(Fabric* fabric) : fabric_(fabric) {}

  // The link at `node`:`port` lost its signal now, or has it back.
  void LoseSignal(int node, int port);
  void RestoreSignal(int node, int port);

  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  enum : uint32_t { kDebounceOver, kTrained };
  struct Link {
    int node = 0, port = 0;  // one end
    Time debounce = 0, up_time = 0;
    Time lost_at = -1;       // the current loss of signal began (-1: it has the signal)
    uint32_t epoch = 0;      // changes with every loss and return: stale timers do nothing
  };
  struct Timer {
    Link* link;
    uint32_t epoch;
  };
  Link& At(int node, int port);
  void SetSignal(const Link& l, bool present);
  void Start(Link& l, Time in, uint32_t kind);

  Fabric* fabric_;
  std::map<std::pair<int, int>, Link> links_;  // by the end with the lower node id
  std::vector<Timer> timers_;                  // an event's arg indexes its entry
};

}  // namespace rocelab

#endif  // ROCELAB_NET_LINK_PHY_H_
