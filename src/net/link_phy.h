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
//
// A receiver whose PCS sees errors past FEC (fault/fec.h, PcsFailure) fails
// the link now and then: hi_ber for as many windows as keep failing, or hi_ser's
// hold. The signal stays, so the link needs no training when it ends; the ports
// report it as any loss, after the debounce.
#ifndef ROCELAB_NET_LINK_PHY_H_
#define ROCELAB_NET_LINK_PHY_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "fault/fec.h"
#include "sim/event.h"
#include "sim/rng.h"
#include "sim/time.h"

namespace rocelab {

class Fabric;

// Autonegotiation and link training at a port's speed, what `switch.link_up_time: auto` takes:
// the longest the link may take before it starts over. 500 ms on NRZ lanes (IEEE 802.3 clause 72,
// max_wait_timer): 10G, 25G, 40G, and 100G taken as four 25G lanes. 2,983 ms on PAM4 lanes: 50G
// taken as one lane, 200G, 400G, 800G (Broadcom's clause-73 link_fail_inhibit timer with PAM4
// training, against 500 ms with NRZ training; OpenBCM tbhmod_gen3_cfg_seq.c).
Time LinkTrainingTime(uint64_t rate_bps);

class LinkPhy final : public EventSource {
 public:
  explicit LinkPhy(Fabric* fabric) : fabric_(fabric) {}

  // The link at `node`:`port` lost its signal now, or has it back. A loss that is a
  // PCS fault (`retrain` false) needs no link training when it ends.
  void LoseSignal(int node, int port, bool retrain = true);
  void RestoreSignal(int node, int port);
  // An administrative `startup` of the link at `node`:`port` (its hold lifted): with its signal
  // present, it trains (`link_up_time`) and comes up; without, it comes up when the signal does.
  void AdminUp(int node, int port);

  // The receiver at `node`:`port` fails the link as `f` says (a clean link: PcsFailure{}).
  void SetPcsFailure(int node, int port, const PcsFailure& f);

  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  enum : uint32_t { kDebounceOver, kTrained, kPcsFails, kPcsRecovers };
  struct Link {
    int node = 0, port = 0;  // one end
    Time debounce = 0, up_time = 0;
    Time lost_at = -1;       // the current loss of signal began (-1: it has the signal)
    bool retrain = true;     // the current loss needs link training when it ends
    uint32_t epoch = 0;      // changes with every loss and return: stale timers do nothing
  };
  struct Timer {
    Link* link;
    uint32_t epoch;
  };
  // One receiving end whose PCS fails the link.
  struct Receiver {
    int node = 0, port = 0;
    PcsFailure failure;
    Rng rng;
    bool hi_ser = false;   // the failure drawn next is hi_ser's, not hi_ber's
    Time failed_at = -1;   // the link is down for this receiver since (-1: it is not)
    uint32_t epoch = 0;
  };
  struct ReceiverTimer {
    Receiver* receiver;
    uint32_t epoch;
  };
  Link& At(int node, int port);
  void SetSignal(const Link& l, bool present);
  void Start(Link& l, Time in, uint32_t kind);
  // Windows (or blocks) before the next failure, each failing with probability p.
  static uint64_t Draw(Rng& rng, double p);
  // `phase`: the share of a period before the first ends (1: a whole one).
  void ArmPcs(Receiver& r, double phase = 1);
  void StartPcs(Receiver& r, Time in, uint32_t kind);
  void PcsFails(Receiver& r);
  void PcsRecovers(Receiver& r);
  void SetPcsFault(const Receiver& r, bool failed);

  Fabric* fabric_;
  std::map<std::pair<int, int>, Link> links_;  // by the end with the lower node id
  std::vector<Timer> timers_;                  // an event's arg indexes its entry
  std::map<std::pair<int, int>, Receiver> receivers_;
  std::vector<ReceiverTimer> receiver_timers_;
};

}  // namespace rocelab

#endif  // ROCELAB_NET_LINK_PHY_H_
