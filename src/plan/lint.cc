#include "plan/lint.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "fault/fault_target.h"
#include "plan/buffer_plan.h"
#include "plan/deadlock.h"
#include "plan/headroom.h"
#include "sim/packet.h"
#include "topo/topology.h"
#include "util/config_error.h"
#include "util/units.h"

namespace rocelab {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    default: return "info";
  }
}

namespace {

std::string Kb(double bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f KB", bytes / 1024.0);
  return buf;
}

std::string PriorityList(uint8_t mask) {
  std::string s = "[";
  for (int p = 0; p < 8; ++p)
    if (mask & (1u << p)) s += (s.size() > 1 ? ", " : "") + std::to_string(p);
  return s + "]";
}

class Linter {
 public:
  Linter(const Scenario& sc, const LintOptions& options)
      : sc_(sc), options_(options), topo_(Topology::Build(sc.topology)) {
    // Only traffic the scenario means to be lossless needs the lossless checks: the TCP-like
    // background class is lossy on purpose.
    for (const FlowSpec& f : sc.flows)
      if (!f.background) roce_dscps_.insert(f.dscp);
    for (const PermutationSpec& p : sc.permutations) roce_dscps_.insert(p.dscp);
    for (const IncastSpec& i : sc.incasts) roce_dscps_.insert(i.dscp);
    for (const AllToAllSpec& a : sc.all_to_alls) roce_dscps_.insert(a.dscp);
    for (const TraceSpec& t : sc.traces) roce_dscps_.insert(t.dscp);
    if (roce_dscps_.empty()) roce_dscps_.insert(kRoceDscp);
    ResolveFaultTargets(topo_, sc_);  // a fault whose target does not fit its kind is bad input, as in a run
  }

  LintReport Run() {
    CheckClassification();
    CheckCnp();
    CheckSwitches();
    CheckBufferBudget();
    CheckDeadlock();
    GroupSharedFindings();
    std::stable_sort(report_.findings.begin(), report_.findings.end(), [](const Finding& a, const Finding& b) {
      return static_cast<int>(a.severity) < static_cast<int>(b.severity);
    });
    for (const Finding& f : report_.findings) {
      if (f.severity == Severity::kError) ++report_.errors;
      if (f.severity == Severity::kWarning) ++report_.warnings;
    }
    return report_;
  }

 private:
  // Where a device's setting comes from: its `devices` entry when that entry writes it, else
  // the fabric-wide block (which the user wrote, or whose default applies).
  std::string KeyFor(const std::string& device, bool is_switch, const std::string& sub) const {
    for (const auto& d : sc_.devices)
      if (d.device.name == device && d.keys.count(sub)) return "devices." + device + "." + sub;
    return std::string(is_switch ? "switch." : "nic.") + sub;
  }

  // A finding that several devices share word for word (a fabric-wide setting) is one finding
  // naming them all.
  void GroupSharedFindings() {
    std::vector<Finding> out;
    std::map<std::string, size_t> first;  // severity, check, port, key, evidence, fix -> index in out
    for (const Finding& f : report_.findings) {
      const std::string id = std::string(SeverityName(f.severity)) + "\x1f" + f.check + "\x1f" + f.port + "\x1f" + f.key +
                             "\x1f" + f.evidence + "\x1f" + f.fix;
      auto it = first.find(id);
      if (it == first.end()) {
        first[id] = out.size();
        out.push_back(f);
      } else {
        out[it->second].device += ", " + f.device;
      }
    }
    report_.findings = std::move(out);
  }

  void Add(Severity s, const std::string& check, const std::string& device, const std::string& port,
           const std::string& key, const std::string& evidence, const std::string& fix) {
    report_.findings.push_back({s, check, device, port, key, evidence, fix});
  }

  struct Device {
    std::string name;
    bool is_switch;
    const std::array<uint8_t, 64>* map;
    uint8_t lossless;
    bool pfc;
    bool trust_dscp;
  };

  std::vector<Device> Devices() const {
    std::vector<Device> v;
    for (int id : topo_.switches()) {
      const std::string& n = topo_.nodes()[id].name;
      const SwitchSpec& s = SwitchSpecFor(sc_, n);
      v.push_back({n, true, &s.dscp_to_priority, s.lossless_mask, s.pfc.enabled, s.trust_dscp});
    }
    for (int id : topo_.hosts()) {
      const std::string& n = topo_.nodes()[id].name;
      const NicSpec& s = NicSpecFor(sc_, n);
      v.push_back({n, false, &s.dscp_to_priority, s.lossless_mask, s.pfc_enabled, s.trust_dscp});
    }
    return v;
  }

  void CheckClassification() {
    std::vector<Device> devs = Devices();
    // The reference map: the one most devices use.
    std::map<std::array<uint8_t, 64>, int> votes;
    for (const Device& d : devs) votes[*d.map]++;
    const std::array<uint8_t, 64>* ref = &votes.begin()->first;
    int best = 0;
    for (const auto& [m, n] : votes)
      if (n > best) best = n, ref = &m;
    // Hosts with identical findings are summarised, not listed one by one.
    std::map<std::string, std::vector<std::string>> host_groups;
    auto add = [&](const Device& d, Severity s, const std::string& check, const std::string& key, const std::string& ev,
                   const std::string& fix) {
      if (!d.is_switch) {
        std::string group_key = check + "\x1f" + key + "\x1f" + ev + "\x1f" + fix + "\x1f" + SeverityName(s);
        host_groups[group_key].push_back(d.name);
        return;
      }
      Add(s, check, d.name, "", key, ev, fix);
    };
    for (const Device& d : devs) {
      if (!d.trust_dscp)
        add(d, Severity::kError, "trust-mode", KeyFor(d.name, d.is_switch, "trust"),
            "classifies by 802.1p PCP while the fabric trusts DSCP; PCP does not survive a routed hop",
            "set trust: dscp (mlnx_qos --trust dscp on NICs; DSCP_TO_TC_MAP on SONiC)");
      if (!d.pfc) {
        // A NIC whose PFC follows the switches' (nic.pfc not given) is off by the switches' key:
        // one key, one finding naming every device it turned off.
        std::string key = KeyFor(d.name, d.is_switch, d.is_switch ? "pfc.enabled" : "pfc");
        if (!d.is_switch && key == "nic.pfc" && sc_.nic_pfc_follows_switch) key = KeyFor(d.name, true, "pfc.enabled");
        add(d, Severity::kError, "pfc-enabled", key, "PFC is disabled: the RoCE priority is lossy there",
            "enable PFC on the lossless priorities");
      }
      for (uint8_t dscp : roce_dscps_) {
        const int p = (*d.map)[dscp];
        if (d.pfc && !(d.lossless & (1u << p))) {
          const int ref_p = (*ref)[dscp];
          if (p == ref_p)
            add(d, Severity::kError, "pfc-enabled", KeyFor(d.name, d.is_switch, "lossless_priorities"),
                "RoCE priority " + std::to_string(p) + " is not lossless here (lossless " + PriorityList(d.lossless) + ")",
                "add priority " + std::to_string(p) + " to lossless_priorities");
          else
            add(d, Severity::kError, "roce-dscp-lossless", KeyFor(d.name, d.is_switch, "dscp_to_priority"),
                "DSCP " + std::to_string(dscp) + " maps to priority " + std::to_string(p) + ", which is lossy here (lossless " +
                    PriorityList(d.lossless) + ")",
                "map DSCP " + std::to_string(dscp) + " to priority " + std::to_string(ref_p));
        }
      }
      if (*d.map != *ref) {
        std::string diff;
        int shown = 0;
        for (int x = 0; x < 64; ++x)
          if ((*d.map)[x] != (*ref)[x] && shown++ < 4)
            diff += (diff.empty() ? "" : ", ") + std::to_string(x) + "->" + std::to_string((*d.map)[x]) + " (others " +
                    std::to_string((*ref)[x]) + ")";
        add(d, Severity::kError, "dscp-map-consistent", KeyFor(d.name, d.is_switch, "dscp_to_priority"),
            "DSCP map differs from the rest of the fabric: " + diff,
            "use the same DSCP-to-priority map on every hop");
      }
    }
    for (const auto& [k, hosts] : host_groups) {
      std::vector<std::string> parts;
      size_t start = 0;
      for (size_t i = 0; i <= k.size(); ++i)
        if (i == k.size() || k[i] == '\x1f') {
          parts.push_back(k.substr(start, i - start));
          start = i + 1;
        }
      Severity s = parts[4] == "error" ? Severity::kError : parts[4] == "warning" ? Severity::kWarning : Severity::kInfo;
      std::string who = hosts.size() == 1 ? hosts[0] : hosts[0] + " and " + std::to_string(hosts.size() - 1) + " more hosts";
      Add(s, parts[0], who, "", parts[1], parts[2], parts[3]);
    }
  }

  void CheckCnp() {
    const uint8_t roce = *roce_dscps_.begin();
    std::set<std::string> seen;
    for (int id : topo_.hosts()) {
      const std::string& n = topo_.nodes()[id].name;
      const NicSpec& nic = NicSpecFor(sc_, n);
      const int c = nic.dscp_to_priority[nic.cnp_dscp], r = nic.dscp_to_priority[roce];
      if (c == r && seen.insert("nic").second)
        Add(Severity::kError, "cnp-priority", n, "", KeyFor(n, false, "cnp_dscp"),
            "CNPs (DSCP " + std::to_string(nic.cnp_dscp) + ") ride priority " + std::to_string(c) +
                ", the RoCE priority: when it is paused, the congestion signal waits behind the congestion",
            "send CNPs on their own priority (cnp_dscp 48 -> priority 6, strict)");
    }
    const NicSpec& nic = sc_.nic;
    for (int id : topo_.switches()) {
      const std::string& n = topo_.nodes()[id].name;
      const SwitchSpec& s = SwitchSpecFor(sc_, n);
      const int c = s.dscp_to_priority[nic.cnp_dscp], r = s.dscp_to_priority[roce];
      if (c == r) {
        Add(Severity::kError, "cnp-priority", n, "", KeyFor(n, true, "dscp_to_priority"),
            "CNP DSCP " + std::to_string(nic.cnp_dscp) + " shares queue " + std::to_string(c) + " with RoCE data",
            "map the CNP DSCP to its own queue (6) and make it strict");
      } else if (!(s.strict_mask & (1u << c))) {
        Add(Severity::kWarning, "cnp-priority", n, "", KeyFor(n, true, "ets.strict"),
            "the CNP queue " + std::to_string(c) + " is not strict priority: CNPs can wait behind bulk traffic",
            "add queue " + std::to_string(c) + " to ets.strict");
      }
    }
  }

  void CheckSwitches() {
    std::vector<SwitchBudget> budgets = PlanBuffers(sc_);
    uint32_t max_frame = 0;
    for (int id : topo_.hosts())
      max_frame = std::max(max_frame, DataFrameBytes(NicSpecFor(sc_, topo_.nodes()[id].name).mtu, true));
    std::map<uint32_t, int> mtus;
    for (int id : topo_.switches()) mtus[SwitchSpecFor(sc_, topo_.nodes()[id].name).mtu]++;
    uint32_t common_mtu = 0;
    int best = 0;
    for (auto [m, n] : mtus)
      if (n > best) best = n, common_mtu = m;
    for (size_t i = 0; i < topo_.switches().size(); ++i) {
      const TopoNode& node = topo_.nodes()[topo_.switches()[i]];
      const std::string& n = node.name;
      const SwitchSpec& s = SwitchSpecFor(sc_, n);
      const SwitchBudget& b = budgets[i];
      if (s.pfc.enabled && s.lossless_mask && !s.ecn.enabled)
        Add(Severity::kError, "ecn-enabled", n, "", KeyFor(n, true, "ecn.enabled"),
            "ECN marking is off on the lossless queues: DCQCN gets no signal and PFC alone handles congestion",
            "enable ECN (WRED ecn_all) on the RoCE queue");
      else if (s.pfc.enabled && s.ecn.enabled && (s.lossless_mask & ~s.ecn_mask))
        Add(Severity::kError, "ecn-enabled", n, "", KeyFor(n, true, "ecn.priorities"),
            "a lossless queue has no WRED/ECN profile: DCQCN gets no signal there and PFC alone handles congestion",
            "bind the WRED profile (ecn_all) to every lossless queue");
      if (s.pfc.enabled && s.ecn.enabled && b.shared_left > 0) {
        // N ingress ports feeding one egress queue share it equally: each PG holds Q/N. The PG
        // pauses when Q/N >= alpha (S - Q), i.e. Q >= alpha S N / (1 + alpha N), smallest at N = 1.
        const double S = static_cast<double>(b.shared_left), a = s.pfc.alpha;
        const int ports = static_cast<int>(node.ports.size());
        double worst = 0;
        int worst_n = 1;
        for (int fan = 1; fan <= ports; ++fan) {
          double q = a * S * fan / (1 + a * fan);
          if (fan == 1 || q < worst) worst = q, worst_n = fan;
        }
        if (static_cast<double>(s.ecn.kmin) >= worst)
          Add(Severity::kError, "ecn-before-pfc", n, "", KeyFor(n, true, "ecn.kmin"),
              "with fan-in " + std::to_string(worst_n) + " an ingress PG reaches XOFF when the egress queue holds " +
                  Kb(worst) + " (alpha " + std::to_string(a).substr(0, 6) + ", shared pool " + Kb(S) +
                  "), before ECN's Kmin " + Kb(static_cast<double>(s.ecn.kmin)) + ": PFC fires before any mark",
              "lower ecn.kmin (and kmax) well below " + Kb(worst) + ", or raise pfc.alpha");
        else if (static_cast<double>(s.ecn.kmax) >= worst)
          Add(Severity::kWarning, "ecn-before-pfc", n, "", KeyFor(n, true, "ecn.kmax"),
              "Kmax " + Kb(static_cast<double>(s.ecn.kmax)) + " is above the XOFF point " + Kb(worst) +
                  " (fan-in " + std::to_string(worst_n) + "): PFC fires before marking reaches Pmax",
              "lower ecn.kmax below " + Kb(worst));
      }
      if (s.pfc.enabled && !s.pfc.headroom_auto) {
        for (size_t p = 0; p < node.ports.size(); ++p) {
          const TopoPort& tp = node.ports[p];
          SwitchSpec automatic = s;
          automatic.pfc.headroom_auto = true;
          const uint64_t need = PortHeadroom(automatic, tp.link.rate_bps, tp.link.delay, WorstCellFillFrame(sc_, s.cell));
          if (s.pfc.headroom < need) {
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "headroom %s per lossless PG, but %s at %.0fG over %.0f m of cable (%lld ns) needs %s",
                          Kb(static_cast<double>(s.pfc.headroom)).c_str(), topo_.nodes()[tp.peer_node].name.c_str(),
                          tp.link.rate_bps / 1e9, CableMeters(tp.link.delay), (long long)(tp.link.delay / kNanosecond),
                          Kb(static_cast<double>(need)).c_str());
            Add(Severity::kError, "headroom-cable", n, SwitchPortAlias(static_cast<int>(p)), KeyFor(n, true, "pfc.headroom"),
                buf, "raise pfc.headroom to at least " + std::to_string(need) + " B (rocelab plan headroom)");
          }
        }
      }
      if (s.pfc.enabled && s.lossless_mask && s.mmu != SwitchSpec::Mmu::kNs3Hpcc) CheckSmallFrameHeadroom(node, s);
      if (s.mtu + kEthHeader + kFcs < max_frame)
        Add(Severity::kError, "mtu", n, "", KeyFor(n, true, "mtu"),
            "port MTU " + std::to_string(s.mtu) + " B carries frames up to " + std::to_string(s.mtu + kEthHeader + kFcs) +
                " B, below the largest RoCE frame " + std::to_string(max_frame) + " B: those packets are dropped",
            "raise the MTU to at least " + std::to_string(max_frame - kEthHeader - kFcs) + " (9100 or 9216 is usual)");
      else if (s.mtu != common_mtu)
        Add(Severity::kWarning, "mtu", n, "", KeyFor(n, true, "mtu"),
            "MTU " + std::to_string(s.mtu) + " differs from the rest of the fabric (" + std::to_string(common_mtu) + ")",
            "use one MTU on every hop");
      if (s.pfc.enabled && !s.pfc_watchdog.enabled)
        Add(Severity::kWarning, "pfc-watchdog", n, "", KeyFor(n, true, "pfc_watchdog.enabled"),
            "no PFC watchdog: a pause storm from a stuck receiver will spread and never be broken",
            "enable the PFC watchdog (SONiC: pfcwd start_default; detection 200 ms, action drop)");
      if (s.pfc.enabled && s.pfc.expiry) {
        // A pause shorter than two maximum frames expires before its refresh can follow
        // (refreshes are at least one maximum frame apart): the peer keeps resuming.
        const uint64_t pause_bits = static_cast<uint64_t>(s.pfc.quanta) * 512;
        const uint64_t two_frames_bits = 2ull * 8 * (kMaxJumboFrame + kEthHeader + kFcs + kWireOverhead);
        if (pause_bits < two_frames_bits)
          Add(Severity::kWarning, "pfc-quanta", n, "", KeyFor(n, true, "pfc.quanta"),
              "pause quanta " + std::to_string(s.pfc.quanta) + " (" + std::to_string(pause_bits) +
                  " bit times) expire before a refresh can follow: the peer resumes between pauses",
              "use the default 65535 quanta; a pause is ended by XON, not by a short quanta");
      }
      uint32_t sum = 0;
      for (int q = 0; q < 8; ++q)
        if (!(s.strict_mask & (1u << q))) sum += s.ets_weights[q];
      if (sum != 100)
        Add(Severity::kError, "ets-weights", n, "", KeyFor(n, true, "ets.weights"),
            "DWRR weights of the non-strict queues sum to " + std::to_string(sum) + ", not 100",
            "make the ETS weights percentages that sum to 100");
    }
  }

  // Headroom sized in data frames, against a line-rate burst of minimum-size frames: ACKs held
  // behind a pause leave together when it ends, and each takes a whole cell, so such a burst
  // fills the headroom faster than its bytes say (plan/headroom.h SmallFrameBurstOf). Seen in
  // the simulator: a spine's PG dropping lossless frames under a slow receiver's tree
  // (docs/faults.md). Information, not a warning: a headroom given, or sized with fewer than all
  // small frames (switch.pfc.small_packet_percentage), leaves it open whenever cells are larger
  // than such frames. One finding per link class (speed and cable), so switches that share it
  // share the finding.
  void CheckSmallFrameHeadroom(const TopoNode& node, const SwitchSpec& s) {
    const uint32_t fill = WorstCellFillFrame(sc_, s.cell);
    std::set<std::pair<uint64_t, Time>> seen;
    for (const TopoPort& tp : node.ports) {
      if (!seen.insert({tp.link.rate_bps, tp.link.delay}).second) continue;
      HeadroomBreakdown h = Ieee8021QbbHeadroom(tp.link.rate_bps, tp.link.delay, s.mtu + kEthHeader + kFcs, s.cell,
                                                PeerResponseQuanta(tp.link.rate_bps), fill);
      h.total = PortHeadroom(s, tp.link.rate_bps, tp.link.delay, fill);
      const SmallFrameBurst burst = SmallFrameBurstOf(h, tp.link.rate_bps, s.cell);
      if (!burst.overflows()) continue;
      char buf[320];
      std::snprintf(buf, sizeof buf,
                    "ports at %.0fG over %.0f m of cable: a line-rate burst of 64 B frames (ACKs released together "
                    "when a pause ends) takes a %u B cell each and fills the %s headroom in %.0f ns of the %.0f ns "
                    "pause round trip",
                    tp.link.rate_bps / 1e9, CableMeters(tp.link.delay), s.cell, Kb(static_cast<double>(h.total)).c_str(),
                    static_cast<double>(burst.covered) / kNanosecond, static_cast<double>(burst.round_trip) / kNanosecond);
      char fix[320];
      std::snprintf(fix, sizeof fix,
                    "where ACK bursts meet a pause, give the lossless PGs %llu B of headroom (rocelab plan headroom "
                    "--speed %.0fG --cable %.0fm --mtu %u --roce-mtu %u --cell %uB), or headroom: auto with "
                    "small_packet_percentage: 100 (SONiC's LOSSLESS_TRAFFIC_PATTERN)",
                    static_cast<unsigned long long>(burst.all_small_total), tp.link.rate_bps / 1e9,
                    CableMeters(tp.link.delay), s.mtu + kEthHeader + kFcs, fill > kRoceHeaders ? fill - kRoceHeaders : 0, s.cell);
      Add(Severity::kInfo, "headroom-small-frames", node.name, "", KeyFor(node.name, true, "pfc.headroom"), buf, fix);
    }
  }

  // The headroom every lossless PG reserves must fit the buffer (plan buffer's arithmetic).
  void CheckBufferBudget() {
    for (const SwitchBudget& b : PlanBuffers(sc_)) {
      if (b.fits) continue;
      char ev[256];
      std::snprintf(ev, sizeof ev,
                    "headroom for %zu ports x %d lossless PGs needs %.2f MB, the buffer is %.2f MB: %.2f MB short, "
                    "nothing left for the shared pool",
                    b.ports.size(), b.lossless_pgs, b.headroom_total / 1048576.0, b.buffer / 1048576.0,
                    -static_cast<double>(b.shared_left) / 1048576.0);
      Add(Severity::kError, "buffer-budget", b.name, "", KeyFor(b.name, true, "buffer"), ev,
          "raise the buffer, shorten the cables or lower the port speeds, or make fewer priorities lossless "
          "(rocelab plan buffer shows each port's share)");
    }
  }

  void CheckDeadlock() {
    for (const StaticRoute& r : ResolveRoutes(topo_, sc_)) topo_.OverrideRoute(r.node, r.host, r.port);
    try {
      DeadlockChecker dc(topo_);
      std::vector<BufferRef> cycle = dc.FindCycle();
      if (!cycle.empty()) {
        const BufferRef& first = cycle.front();
        Add(Severity::kError, "deadlock-free", topo_.nodes()[first.node].name, SwitchPortAlias(first.port),
            sc_.routes.empty() ? "topology" : "routes",
            "cyclic buffer dependency (a PFC deadlock can form): " + dc.Describe(cycle),
            "remove the route overrides that send lossless traffic back up, or route with up*/down* only");
        return;
      }
      if (!options_.single_link_failures) return;
      std::vector<FailureCycle> failures = dc.CheckSingleLinkFailures(3);
      report_.links_failed_and_checked = dc.links_checked();
      for (const FailureCycle& f : failures)
        Add(Severity::kWarning, "deadlock-free", topo_.nodes()[f.node_a].name, SwitchPortAlias(f.port_a), "routes",
            "if the link " + topo_.nodes()[f.node_a].name + ":" + SwitchPortAlias(f.port_a) + " - " +
                topo_.nodes()[f.node_b].name + ":" + SwitchPortAlias(f.port_b) +
                " fails, rerouting creates a cyclic buffer dependency: " + dc.Describe(f.cycle),
            "keep lossless routes up*/down* under failures (e.g. Tagger-style priority changes), or drop instead of "
            "rerouting on that link");
    } catch (const std::invalid_argument& e) {
      Add(Severity::kInfo, "deadlock-free", "", "", "topology", std::string("not checked: ") + e.what(), "");
    }
  }

  const Scenario& sc_;
  const LintOptions options_;
  Topology topo_;
  std::set<uint8_t> roce_dscps_;
  LintReport report_;
};

}  // namespace

LintReport LintFabric(const Scenario& sc, const LintOptions& options) { return Linter(sc, options).Run(); }

}  // namespace rocelab
