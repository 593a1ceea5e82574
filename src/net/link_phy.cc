#include "net/link_phy.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "net/control_plane.h"
#include "net/fabric.h"
#include "topo/naming.h"
#include "util/units.h"

namespace rocelab {

Time LinkTrainingTime(uint64_t rate_bps) {
  const uint64_t gbps = rate_bps / 1000000000ull;
  const bool pam4 = gbps == 50 || gbps >= 200;
  return pam4 ? 2983 * kMillisecond : 500 * kMillisecond;
}

LinkPhy::Link& LinkPhy::At(int node, int port) {
  const Topology& topo = fabric_->topology();
  const TopoPort& tp = topo.nodes()[node].ports[port];
  if (tp.peer_node < node) node = tp.peer_node, port = tp.peer_port;
  auto [it, fresh] = links_.try_emplace({node, port});
  Link& l = it->second;
  if (fresh) {
    l.node = node;
    l.port = port;
    const Scenario& sc = fabric_->scenario();
    for (int n : {node, tp.peer_node}) {
      if (!topo.nodes()[n].is_switch) continue;
      const SwitchSpec& spec = SwitchSpecFor(sc, topo.nodes()[n].name);
      l.debounce = std::max(l.debounce, ScaledTimer(spec.link_debounce, sc.timer_scale));
      const Time up = spec.link_up_time >= 0 ? spec.link_up_time : LinkTrainingTime(tp.link.rate_bps);
      l.up_time = std::max(l.up_time, ScaledTimer(up, sc.timer_scale));
    }
  }
  return l;
}

void LinkPhy::SetSignal(const Link& l, bool present) {
  const TopoPort& tp = fabric_->topology().nodes()[l.node].ports[l.port];
  fabric_->device(l.node).SetSignal(l.port, present);
  fabric_->device(tp.peer_node).SetSignal(tp.peer_port, present);
}

void LinkPhy::SetPcsFault(const Receiver& r, bool failed) {
  // The receiver that failed, and the one across: both keep their light and their decoders.
  const TopoPort& tp = fabric_->topology().nodes()[r.node].ports[r.port];
  fabric_->device(r.node).SetPcsFault(r.port, failed);
  fabric_->device(tp.peer_node).SetPcsFault(tp.peer_port, failed);
}

void LinkPhy::Start(Link& l, Time in, uint32_t kind) {
  timers_.push_back({&l, l.epoch});
  fabric_->ScheduleAt(fabric_->now() + in, this, kind, static_cast<uint32_t>(timers_.size() - 1));
}

void LinkPhy::LoseSignal(int node, int port, bool retrain) {
  Link& l = At(node, port);
  if (l.lost_at >= 0) return;
  l.lost_at = fabric_->now();
  l.retrain = retrain;
  ++l.epoch;
  SetSignal(l, false);
  if (l.debounce == 0) fabric_->SetLinkUp(l.node, l.port, false);
  else if (fabric_->device(l.node).Carrier(l.port)) Start(l, l.debounce, kDebounceOver);
}

void LinkPhy::RestoreSignal(int node, int port) {
  Link& l = At(node, port);
  if (l.lost_at < 0) return;
  const Time lost = fabric_->now() - l.lost_at;
  l.lost_at = -1;
  ++l.epoch;
  SetSignal(l, true);
  if (fabric_->device(l.node).Carrier(l.port)) {
    // Back within the debounce: the ports never said it went.
    const Topology& topo = fabric_->topology();
    const int peer = topo.nodes()[l.node].ports[l.port].peer_node;
    fabric_->timeline().Add(fabric_->now(), topo.nodes()[l.node].name, TimelinePortName(topo, l.node, l.port), -1,
                            "signal_blip",
                            LinkName(topo.nodes()[l.node].name, topo.nodes()[peer].name) + " lost its signal for " +
                                FormatTime(lost) + ", within its " + FormatTime(l.debounce) +
                                " debounce: not reported, what crossed it meanwhile lost");
    return;
  }
  if (l.up_time == 0 || !l.retrain) fabric_->SetLinkUp(l.node, l.port, true);
  else Start(l, l.up_time, kTrained);
}

void LinkPhy::AdminUp(int node, int port) {
  Link& l = At(node, port);
  if (l.lost_at >= 0 || fabric_->device(l.node).Carrier(l.port)) return;
  ++l.epoch;
  if (l.up_time == 0) fabric_->SetLinkUp(l.node, l.port, true);
  else Start(l, l.up_time, kTrained);
}

void LinkPhy::SetPcsFailure(int node, int port, const PcsFailure& f) {
  auto [it, fresh] = receivers_.try_emplace({node, port});
  Receiver& r = it->second;
  if (fresh) {
    r.node = node;
    r.port = port;
    r.rng = Rng(fabric_->scenario().seed, 0x9C5000000ull + (static_cast<uint64_t>(node) << 8) + static_cast<uint64_t>(port));
  }
  r.failure = f;
  ++r.epoch;
  if (r.failed_at >= 0) return PcsRecovers(r);  // a new error rate: what failed ends, and it decides what fails next
  // The PCS's windows run on their own clock: the first ends anywhere within one.
  ArmPcs(r, r.rng.Uniform());
}

uint64_t LinkPhy::Draw(Rng& rng, double p) { return p >= 1 ? 0 : rng.Geometric(std::log1p(-p)); }

void LinkPhy::ArmPcs(Receiver& r, double phase) {
  const PcsFailure& f = r.failure;
  if (!f.Fails()) return;
  // The first failing window, and the first failing block: whichever ends first.
  Time in = -1;
  auto consider = [&](Time period, double p, bool hi_ser) {
    if (!(p > 0) || period <= 0) return;
    const uint64_t n = Draw(r.rng, p);
    if (n >= static_cast<uint64_t>(INT64_MAX / period) - 1) return;  // beyond any run
    const Time t = static_cast<Time>(n) * period + static_cast<Time>(phase * static_cast<double>(period));
    if (in < 0 || t < in) in = t, r.hi_ser = hi_ser;
  };
  consider(f.window, f.p_window, false);
  consider(f.block, f.p_block, true);
  if (in >= 0) StartPcs(r, in, kPcsFails);
}

void LinkPhy::StartPcs(Receiver& r, Time in, uint32_t kind) {
  receiver_timers_.push_back({&r, r.epoch});
  fabric_->ScheduleAt(fabric_->now() + in, this, kind, static_cast<uint32_t>(receiver_timers_.size() - 1));
}

void LinkPhy::PcsFails(Receiver& r) {
  Link& l = At(r.node, r.port);
  // A link down for another reason (shut, dark, training) decodes nothing to fail on.
  if (l.lost_at >= 0 || !fabric_->device(r.node).Carrier(r.port)) return ArmPcs(r);
  const Topology& topo = fabric_->topology();
  const int peer = topo.nodes()[r.node].ports[r.port].peer_node;
  const PcsFailure& f = r.failure;
  Time lasts;
  std::string why;
  if (r.hi_ser) {
    // The hold, then the PCS's first window without invalid headers.
    const Time hold = ScaledTimer(f.hold, fabric_->scenario().timer_scale);
    lasts = hold + f.window;
    why = "FEC symbol errors over the threshold in a block of codewords (hi_ser): every sync header invalid for " +
          FormatTime(hold);
  } else {
    // This window failed; so does each next one with the same chance, and the first that does not ends it.
    lasts = static_cast<Time>(1 + std::min<uint64_t>(Draw(r.rng, 1 - f.p_window), 1u << 20)) * f.window;
    why = "errors past FEC invalidate 97 sync headers in a window (PCS hi_ber): no frames until a window has fewer";
  }
  r.failed_at = fabric_->now();
  SetPcsFault(r, true);
  fabric_->timeline().Add(fabric_->now(), topo.nodes()[r.node].name, TimelinePortName(topo, r.node, r.port), -1,
                          r.hi_ser ? "fec_hi_ser" : "pcs_hi_ber",
                          LinkName(topo.nodes()[r.node].name, topo.nodes()[peer].name) + ": " + why);
  LoseSignal(r.node, r.port, false);
  StartPcs(r, lasts, kPcsRecovers);
}

void LinkPhy::PcsRecovers(Receiver& r) {
  Link& l = At(r.node, r.port);
  const bool ours = l.lost_at == r.failed_at && !l.retrain;
  r.failed_at = -1;
  SetPcsFault(r, false);
  if (ours) RestoreSignal(r.node, r.port);
  ArmPcs(r);
}

void LinkPhy::HandleEvent(uint32_t kind, uint32_t arg, Packet*) {
  if (kind == kPcsFails || kind == kPcsRecovers) {
    const ReceiverTimer t = receiver_timers_[arg];
    if (t.epoch != t.receiver->epoch) return;
    if (kind == kPcsFails) PcsFails(*t.receiver);
    else PcsRecovers(*t.receiver);
    return;
  }
  const Timer t = timers_[arg];
  if (t.epoch != t.link->epoch) return;  // the signal came back, or went again, since
  // The debounce ran out with the signal still gone: the ports report it. Or the link trained.
  fabric_->SetLinkUp(t.link->node, t.link->port, kind == kTrained);
}

}  // namespace rocelab
