// rocelab plan headroom | buffer | ecn
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "plan/buffer_plan.h"
#include "plan/ecn_plan.h"
#include "plan/headroom.h"
#include "plan/sonic_headroom.h"
#include "run/memory_estimate.h"
#include "scenario/scenario.h"
#include "sim/packet.h"
#include "util/json_writer.h"
#include "util/units.h"

namespace rocelab {
namespace {

uint64_t RateArg(const Args& a, const std::string& opt) {
  uint64_t v;
  std::string err;
  if (!ParseRate(a.Require(opt), &v, &err)) throw UsageError(a.command() + ": " + opt + ": " + err);
  return v;
}

int64_t IntArg(const Args& a, const std::string& opt, int64_t fallback, int64_t lo, int64_t hi) {
  if (!a.Has(opt)) return fallback;
  int64_t v;
  std::string err;
  if (!ParseInteger(a.Get(opt), &v, &err)) throw UsageError(a.command() + ": " + opt + ": " + err);
  if (v < lo || v > hi)
    throw UsageError(a.command() + ": " + opt + ": out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")");
  return v;
}

std::string Bytes(double b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%10.1f", b);
  return buf;
}

// A headroom plan's three numbers and how it is printed.
struct HeadroomPlan {
  uint64_t xon = 0, xoff = 0, size = 0;
  std::string text, json;
};

// The IEEE 802.1Qbb sum, term by term.
HeadroomPlan IeeeHeadroomPlan(const Args& a, uint64_t speed, double cable_m, uint32_t mtu) {
  std::string err;
  uint32_t cell = 1;
  if (a.Has("--cell")) {
    uint64_t c;
    if (!ParseSize(a.Get("--cell"), &c, &err) || c == 0 || c > 4096) throw UsageError("plan headroom: --cell: " + (err.empty() ? "1B to 4KB" : err));
    cell = static_cast<uint32_t>(c);
  }
  uint32_t quanta = PeerResponseQuanta(speed);
  if (a.Has("--response-time")) {
    std::string rt = a.Get("--response-time");
    if (!rt.empty() && rt.back() == 'q') {
      int64_t q;
      if (!ParseInteger(rt.substr(0, rt.size() - 1), &q, &err) || q < 0 || q > 65535)
        throw UsageError("plan headroom: --response-time: quanta must be 0 to 65535 (e.g. 394q)");
      quanta = static_cast<uint32_t>(q);
    } else {
      Time t;
      if (!ParseTime(rt, &t, &err)) throw UsageError("plan headroom: --response-time: " + err + " (or quanta, e.g. 394q)");
      // Quanta are 512 bit times at the port speed.
      quanta = static_cast<uint32_t>(std::ceil(static_cast<double>(t) * static_cast<double>(speed) / 512.0 / 1e12));
    }
  }
  // The RoCE frames whose cell waste the headroom covers (the simulator's headroom: auto).
  const uint32_t roce_mtu = static_cast<uint32_t>(IntArg(a, "--roce-mtu", 0, 0, 9000));
  const uint32_t fill_frame = roce_mtu ? std::max(kMinFrame, kRoceHeaders + roce_mtu) : 0;
  // The share of the round trip's frames taken to be 64 B ones (switch.pfc.small_packet_percentage).
  const int small_percent = static_cast<int>(IntArg(a, "--small-packet-percentage", 0, 0, 100));
  const Time delay = CableDelay(cable_m);
  const HeadroomBreakdown h = Ieee8021QbbHeadroom(speed, delay, mtu, cell, quanta, fill_frame, small_percent);
  HeadroomPlan p;
  p.xoff = h.total;
  p.xon = static_cast<uint64_t>(std::ceil(2.0 * mtu / cell)) * cell;
  p.size = p.xoff + p.xon;
  JsonWriter w;
  w.BeginObject();
  w.String("model", "ieee-802.1qbb").Uint("speed_bps", speed).Double("cable_m", cable_m, 3).Uint("mtu", mtu);
  w.Uint("cell", cell).Uint("response_quanta", quanta).Uint("roce_mtu", roce_mtu);
  w.Uint("small_packet_percentage", static_cast<uint64_t>(small_percent));
  w.BeginObject("terms");
  w.Uint("our_frame_in_flight", h.our_frame).Uint("pfc_frame", h.pfc_frame);
  w.Uint("cable_round_trip", h.cable_round_trip).Uint("peer_response", h.peer_response);
  w.Uint("peer_frame_in_flight", h.peer_frame).Uint("cell_overhead", h.cell_overhead).Uint("cell_rounding", h.cell_rounding);
  w.EndObject();
  w.Uint("xoff", p.xoff).Uint("xon", p.xon).Uint("size", p.size);
  const SmallFrameBurst burst = SmallFrameBurstOf(h, speed, cell);
  w.BeginObject("small_frame_burst");
  w.Double("covered_ns", static_cast<double>(burst.covered) / kNanosecond, 3);
  w.Double("round_trip_ns", static_cast<double>(burst.round_trip) / kNanosecond, 3);
  w.Bool("overflows", burst.overflows()).Uint("all_small_xoff", burst.all_small_total);
  w.EndObject();
  w.EndObject();
  p.json = w.str();
  char buf[512];
  std::snprintf(buf, sizeof buf, "PFC headroom, IEEE 802.1Qbb method: %s, %.1f m cable, %u B frames, cell %u B\n",
                FormatRate(speed).c_str(), cable_m, mtu, cell);
  p.text += buf;
  p.text += "  our frame in flight      " + Bytes(h.our_frame) + " B  (max frame + preamble/IFG: delays our PFC frame)\n";
  p.text += "  PFC frame                " + Bytes(h.pfc_frame) + " B  (64 B + preamble/IFG)\n";
  p.text += "  cable round trip         " + Bytes(h.cable_round_trip) + " B  (2 x " +
            std::to_string(static_cast<long long>(delay / kNanosecond)) + " ns at 5 ns/m)\n";
  p.text += "  peer response            " + Bytes(h.peer_response) + " B  (" + std::to_string(quanta) +
            " quanta x 512 bit, IEEE 802.3 31B.3.7)\n";
  p.text += "  peer frame in flight     " + Bytes(h.peer_frame) + " B  (the frame the peer has started)\n";
  if (small_percent > 0)
    p.text += "  cell overhead            " + Bytes(h.cell_overhead) + " B  (" + std::to_string(small_percent) +
              " % of the frames 64 B ones, a cell each" +
              (small_percent == 100 ? std::string()
               : fill_frame         ? "; the rest " + std::to_string(fill_frame) + " B RoCE frames"
                                    : std::string("; the rest their bytes")) +
              ")\n";
  else if (fill_frame)
    p.text += "  cell overhead            " + Bytes(h.cell_overhead) + " B  (" + std::to_string(fill_frame) +
              " B RoCE frames fill whole cells)\n";
  p.text += "  cell rounding            " + Bytes(h.cell_rounding) + " B\n";
  p.text += "  xoff (headroom)          " + Bytes(p.xoff) + " B\n";
  p.text += "  xon (resume offset)      " + Bytes(p.xon) + " B  (2 max frames)\n";
  p.text += "  size                     " + Bytes(p.size) + " B\n";
  std::snprintf(buf, sizeof buf,
                "small frames: a line-rate burst of 64 B frames (ACKs queued behind a pause leave together) takes a "
                "cell each and fills the xoff in %.0f ns; the pause round trip lasts %.0f ns%s\n",
                static_cast<double>(burst.covered) / kNanosecond, static_cast<double>(burst.round_trip) / kNanosecond,
                burst.overflows() ? ": such a burst overflows it" : ": covered");
  p.text += buf;
  if (burst.overflows())
    p.text += "  an xoff of " + std::to_string(burst.all_small_total) +
              " B covers it (all small frames: --small-packet-percentage 100)\n";
  return p;
}

// What SONiC's buffer_headroom_mellanox.lua computes on Spectrum switches.
HeadroomPlan SonicHeadroomPlan(const Args& a, uint64_t speed, double cable_m, uint32_t mtu) {
  std::string err;
  SonicHeadroomInput in;
  in.speed_bps = speed;
  in.cable_m = cable_m;
  in.port_mtu = mtu;
  if (a.Has("--asic") && !ParseSpectrumAsic(a.Get("--asic"), &in.asic))
    throw UsageError("plan headroom: --asic is spectrum1, spectrum2, spectrum3, spectrum4 or spectrum5");
  in.lossless_mtu = static_cast<uint32_t>(IntArg(a, "--lossless-mtu", 1024, 64, 16384));
  in.small_packet_percentage = static_cast<uint32_t>(IntArg(a, "--small-packet-percentage", 50, 0, 100));
  if (a.Has("--gearbox-delay")) {
    Time g;
    if (!ParseTime(a.Get("--gearbox-delay"), &g, &err)) throw UsageError("plan headroom: --gearbox-delay: " + err);
    in.gearbox_delay_ns = static_cast<double>(g) / kNanosecond;
  }
  in.shared_headroom_pool = a.Has("--shared-headroom-pool");
  SonicHeadroom h;
  if (!SonicMellanoxHeadroom(in, &h, &err)) throw UsageError("plan headroom: --speed: " + err);
  HeadroomPlan p;
  p.xon = h.xon;
  p.xoff = h.xoff;
  p.size = h.size;
  JsonWriter w;
  w.BeginObject();
  w.String("model", "sonic-mellanox").Uint("speed_bps", speed).Double("cable_m", cable_m, 3).Uint("port_mtu", mtu);
  w.Uint("cell", h.cell).Uint("pause_quanta", h.pause_quanta);
  w.BeginObject("terms");
  w.Double("peer_response", h.peer_response, 3).Double("cable", h.cable, 3).Double("gearbox", h.gearbox, 3);
  w.Double("mac_phy_delay", h.mac_phy_delay, 3).Double("speed_overhead", h.speed_overhead, 3);
  w.Double("propagation", h.propagation, 3).Uint("worst_case_factor", h.worst_case_factor);
  w.Double("small_packet_share", h.small_packet_share, 6).Double("cell_occupancy", h.cell_occupancy, 6);
  w.Bool("two_kb_rule", h.two_kb_rule);
  w.EndObject();
  w.Uint("xoff", p.xoff).Uint("xon", p.xon).Uint("size", p.size);
  w.EndObject();
  p.json = w.str();
  char buf[2048];
  std::snprintf(buf, sizeof buf,
                "PFC headroom as SONiC computes it on %s (buffer_headroom_mellanox.lua): %s, %.1f m, port MTU %u\n"
                "  peer response      %12.3f B  (%u quanta x 512 / 8)\n"
                "  cable (both ways)  %12.3f B  (2 x %.1f m x speed / 198e6 m/s / 8)\n"
                "  gearbox (x2)       %12.3f B\n"
                "  MAC/PHY delay      %12.3f B  (0.8 KB)\n"
                "  Spectrum-4/5 extra %12.3f B\n"
                "  propagation        %12.3f B  (port MTU + the above)\n"
                "  small packets: %u %% of packets are 64 B (--small-packet-percentage), the rest the %u B lossless MTU\n"
                "    (--lossless-mtu): a mean packet of %.1f B. SONiC counts s = 100 x 64 / %.1f = %.4f %% of the\n"
                "    propagation bytes %u times over (a 64 B packet fills a whole %u B cell: SONiC's worst-case factor),\n"
                "    the rest once: cell occupancy = (100 - s + %u s) / 100 = %.6f\n"
                "  xoff = ceil1K(%u + propagation x occupancy)%s = %llu\n"
                "  xon  = ceil1K(pipeline latency 19 KB) = %llu\n"
                "  size = %llu\n",
                a.Get("--asic", "spectrum2").c_str(), FormatRate(speed).c_str(), cable_m, mtu, h.peer_response,
                h.pause_quanta, h.cable, cable_m, 2 * h.gearbox, h.mac_phy_delay, h.speed_overhead, h.propagation,
                in.small_packet_percentage, in.lossless_mtu, h.mean_packet, h.mean_packet, h.small_packet_share,
                h.worst_case_factor, h.cell, h.worst_case_factor, h.cell_occupancy, in.lossless_mtu,
                h.two_kb_rule ? " + 2 KB (still below the all-small-packets xoff)" : "",
                (unsigned long long)p.xoff, (unsigned long long)p.xon, (unsigned long long)p.size);
  p.text = buf;
  return p;
}

// The plan as SONiC config_db entries: a lossless buffer profile and the PG that uses it.
std::string SonicBufferProfileJson(uint64_t speed, double cable_m, const HeadroomPlan& p) {
  char cable[32];
  std::snprintf(cable, sizeof cable, "%gm", cable_m);
  const std::string profile = "pg_lossless_" + std::to_string(speed / 1000000) + "_" + cable + "_profile";
  JsonWriter s;
  s.BeginObject();
  s.BeginObject("BUFFER_PROFILE").BeginObject(profile.c_str());
  s.String("pool", "ingress_lossless_pool").String("xon", std::to_string(p.xon)).String("xoff", std::to_string(p.xoff));
  s.String("size", std::to_string(p.size)).String("dynamic_th", "0");
  s.EndObject().EndObject();
  s.BeginObject("BUFFER_PG").BeginObject("Ethernet0|3-4").String("profile", profile).EndObject().EndObject();
  s.EndObject();
  return s.str();
}

int PlanHeadroom(const Args& a) {
  const uint64_t speed = RateArg(a, "--speed");
  double cable_m;
  std::string err;
  if (!ParseLength(a.Require("--cable"), &cable_m, &err)) throw UsageError("plan headroom: --cable: " + err);
  a.Require("--mtu");
  const uint32_t mtu = static_cast<uint32_t>(IntArg(a, "--mtu", 0, 64, 16384));
  const std::string model = a.Get("--model", "ieee");
  const std::string format = a.Get("--format", "text");
  if (format != "text" && format != "sonic") throw UsageError("plan headroom: --format is text or sonic");
  HeadroomPlan p;
  if (model == "ieee") p = IeeeHeadroomPlan(a, speed, cable_m, mtu);
  else if (model == "sonic-mellanox") p = SonicHeadroomPlan(a, speed, cable_m, mtu);
  else throw UsageError("plan headroom: --model is ieee or sonic-mellanox");
  if (format == "sonic") std::printf("%s", SonicBufferProfileJson(speed, cable_m, p).c_str());
  else std::printf("%s", a.Has("--json") ? p.json.c_str() : p.text.c_str());
  return kExitOk;
}

int PlanBuffer(const Args& a) {
  Scenario sc = LoadScenarioFile(a.positional()[0]);
  std::vector<SwitchBudget> budgets = PlanBuffers(sc);
  bool all_fit = true;
  if (a.Has("--json")) {
    JsonWriter w;
    w.BeginObject();
    w.BeginArray("switches");
    for (const auto& b : budgets) {
      w.BeginObject();
      w.String("switch", b.name).Uint("buffer", b.buffer).Int("lossless_pgs", b.lossless_pgs);
      w.Uint("headroom_total", b.headroom_total);
      if (b.over_subscribe_ratio > 0) w.Double("over_subscribe_ratio", b.over_subscribe_ratio, 3).Uint("headroom_pool", b.headroom_reserved);
      w.Int("shared_left", b.shared_left).Bool("fits", b.fits);
      w.String("verdict", b.verdict);
      w.BeginArray("ports");
      for (const auto& p : b.ports) {
        w.BeginObject();
        w.String("port", p.port).String("peer", p.peer).Uint("rate_bps", p.rate_bps);
        w.Uint("delay_ns", static_cast<uint64_t>(p.delay / kNanosecond)).Uint("headroom_per_pg", p.headroom_per_pg);
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
      all_fit &= b.fits;
    }
    w.EndArray();
    w.EndObject();
    std::printf("%s", w.str().c_str());
  } else {
    std::printf("%-10s %6s %4s %14s %14s %14s  %s\n", "switch", "ports", "PGs", "buffer B", "headroom B", "shared left B",
                "verdict");
    for (const auto& b : budgets) {
      std::printf("%-10s %6zu %4d %14llu %14llu %14lld  %s\n", b.name.c_str(), b.ports.size(), b.lossless_pgs,
                  (unsigned long long)b.buffer, (unsigned long long)b.headroom_reserved, (long long)b.shared_left,
                  b.verdict.c_str());
      all_fit &= b.fits;
    }
  }
  return all_fit ? kExitOk : kExitFound;
}

int PlanEcn(const Args& a) {
  const uint64_t speed = RateArg(a, "--speed");
  Time rtt;
  std::string err;
  if (!ParseTime(a.Require("--rtt"), &rtt, &err) || rtt <= 0) throw UsageError("plan ecn: --rtt: " + (err.empty() ? "must be > 0" : err));
  const int64_t mtu = IntArg(a, "--mtu", 4096, 256, 4096);
  if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096)
    throw UsageError("plan ecn: --mtu is a RoCE MTU: 256, 512, 1024, 2048 or 4096");
  TemplateInput t;
  t.ecn = PlanDcqcnEcn(speed, rtt, static_cast<uint32_t>(mtu));
  t.ports = static_cast<int>(IntArg(a, "--ports", 32, 1, 512));
  t.lossless = {static_cast<int>(IntArg(a, "--lossless", 3, 0, 7))};
  // The lossless PG profile the config carries: what SONiC computes for this speed, cable and ASIC.
  SonicHeadroomInput hin;
  hin.speed_bps = speed;
  const std::string cable = a.Get("--cable", "5m");
  if (!ParseLength(cable, &hin.cable_m, &err)) throw UsageError("plan ecn: --cable: " + err);
  const std::string asic = a.Get("--asic", "spectrum2");
  if (!ParseSpectrumAsic(asic, &hin.asic))
    throw UsageError("plan ecn: --asic is spectrum1, spectrum2, spectrum3, spectrum4 or spectrum5");
  SonicHeadroom h;
  if (!SonicMellanoxHeadroom(hin, &h, &err)) throw UsageError("plan ecn: --speed: " + err);
  t.xon = h.xon;
  t.xoff = h.xoff;
  t.size = h.size;
  char cable_name[32];
  std::snprintf(cable_name, sizeof cable_name, "%gm", hin.cable_m);
  t.cable = cable_name;
  // The lossless pool is what the buffer holds beyond the headroom every lossless PG reserves, as
  // SONiC's Mellanox defaults size their ingress pools (Spectrum-1 T0: 4 MB lossless and 7 MB lossy
  // ingress pools of a 16 MB buffer, the rest headroom); this plan defines no lossy pool, so it all
  // goes to the lossless one. A pool of the headroom profiles alone leaves nothing shared.
  uint64_t buffer = SpectrumBufferBytes(hin.asic);
  if (a.Has("--buffer")) {
    if (!ParseSize(a.Get("--buffer"), &buffer, &err) || buffer == 0)
      throw UsageError("plan ecn: --buffer: " + (err.empty() ? "must be > 0" : err));
  } else if (buffer == 0) {
    throw UsageError("plan ecn: the packet buffer of " + asic + " is not published: give it with --buffer SIZE");
  }
  const uint64_t headroom = static_cast<uint64_t>(t.ports) * t.lossless.size() * t.size;
  if (headroom >= buffer)
    throw UsageError("plan ecn: the headroom of " + std::to_string(t.ports) + " ports x " + std::to_string(t.lossless.size()) +
                     " lossless PG x " + std::to_string(t.size) + " B = " + std::to_string(headroom) +
                     " B does not fit the " + std::to_string(buffer) + " B buffer: fewer ports (--ports) or a shorter cable");
  const uint64_t room = buffer - headroom;
  t.lossless_pool = room;
  if (a.Has("--lossless-pool")) {
    if (!ParseSize(a.Get("--lossless-pool"), &t.lossless_pool, &err) || t.lossless_pool == 0)
      throw UsageError("plan ecn: --lossless-pool: " + (err.empty() ? "must be > 0" : err));
    if (t.lossless_pool > room)
      throw UsageError("plan ecn: --lossless-pool " + std::to_string(t.lossless_pool) + " B is more than the " +
                       std::to_string(room) + " B the buffer (" + std::to_string(buffer) + " B) holds beyond the " +
                       std::to_string(headroom) + " B of headroom");
  }
  const std::string assumptions = "headroom for " + std::string(cable_name) + " of cable on " + asic +
                                  " (--cable, --asic); a " + FormatBytes(buffer) + " buffer (--buffer); " +
                                  std::to_string(t.ports) + " ports (--ports); lossless priority " +
                                  std::to_string(t.lossless.front()) + " (--lossless); DSCP 26 RoCE, 48 CNP";
  const std::vector<std::string> nic = NicQosCommands(t, "eth0", "mlx5_0");
  if (a.Has("--json")) {
    JsonWriter w;
    w.BeginObject();
    w.Uint("speed_bps", speed).Double("rtt_us", static_cast<double>(rtt) / kMicrosecond, 3);
    w.Uint("bdp_bytes", t.ecn.bdp).Uint("kmin", t.ecn.kmin).Uint("kmax", t.ecn.kmax).Double("pmax", t.ecn.pmax, 3);
    w.String("assumptions", assumptions);
    w.BeginArray("reasoning");
    for (const auto& r : t.ecn.reasoning) w.StringValue(r);
    w.EndArray();
    w.Raw("config_db", SonicQosTemplate(t));
    w.BeginArray("nic_commands");
    for (const auto& c : nic) w.StringValue(c);
    w.EndArray();
    w.EndObject();
    std::printf("%s", w.str().c_str());
    return kExitOk;
  }
  std::printf("DCQCN ECN thresholds for %s, RTT %.2f us, RoCE MTU %lld\n", FormatRate(speed).c_str(),
              static_cast<double>(rtt) / kMicrosecond, (long long)mtu);
  std::printf("  Kmin %llu B   Kmax %llu B   Pmax %.2f\n\n", (unsigned long long)t.ecn.kmin,
              (unsigned long long)t.ecn.kmax, t.ecn.pmax);
  for (const auto& r : t.ecn.reasoning) std::printf("  - %s\n", r.c_str());
  std::printf("\nAssumed: %s.\n", assumptions.c_str());
  if (a.Has("--config-db")) {
    std::printf("\nSONiC config_db (switch):\n%s\nNIC (per host):\n", SonicQosTemplate(t).c_str());
  } else {
    // What the config_db sets, one line each; --config-db prints it whole, ready to load.
    const int prio = t.lossless.front();
    const PfcWatchdogSpec wd;
    std::printf("\nSONiC (switch; --config-db prints the whole config_db, %d ports):\n", t.ports);
    std::printf("  WRED_PROFILE ROCE_LOSSLESS on queue %d: ecn_all, green_min_threshold %llu, green_max_threshold %llu, "
                "green_drop_probability %d\n",
                prio, (unsigned long long)t.ecn.kmin, (unsigned long long)t.ecn.kmax, static_cast<int>(t.ecn.pmax * 100 + 0.5));
    std::printf("  BUFFER_PROFILE for PG %d: xon %llu, xoff %llu, size %llu (%s)\n", prio, (unsigned long long)t.xon,
                (unsigned long long)t.xoff, (unsigned long long)t.size, cable_name);
    std::printf("  BUFFER_POOL ingress_lossless_pool: size %llu (the %s buffer less %d ports x %zu PG x %llu B of headroom)\n",
                (unsigned long long)t.lossless_pool, FormatBytes(buffer).c_str(), t.ports, t.lossless.size(),
                (unsigned long long)t.size);
    std::printf("  PORT_QOS_MAP: pfc_enable %d; DSCP %d -> TC %d, DSCP %d (CNP) -> TC 6 on a strict queue\n", prio,
                t.roce_dscp, prio, t.cnp_dscp);
    std::printf("  PFC_WD: detection %lld ms, restoration %lld ms, action %s; POLL_INTERVAL %lld ms\n",
                (long long)(wd.detection_time / kMillisecond), (long long)(wd.restoration_time / kMillisecond),
                wd.action.c_str(), (long long)(wd.poll_interval / kMillisecond));
    std::printf("\nNIC (per host):\n");
  }
  for (const auto& c : nic) std::printf("  %s\n", c.c_str());
  return 0;
}

}  // namespace

void AddPlanCommand(CLI::App* root) {
  CLI::App* plan = AddCommand(root, "plan", "Plan PFC headroom, a switch's buffer budget or ECN thresholds", nullptr);
  CLI::App* h = AddCommand(plan, "headroom", "PFC headroom (xoff, xon, size) for one port", PlanHeadroom);
  AddValue(h, "--speed", "RATE", "port speed, e.g. 100G (required)");
  AddValue(h, "--cable", "LENGTH", "cable length, e.g. 100m (required)");
  AddValue(h, "--mtu", "BYTES", "port MTU, the largest frame (required; 64 to 16384)");
  AddValue(h, "--cell", "SIZE", "buffer cell size, e.g. 256B (ieee model; default 1 B: no cell rounding)");
  AddValue(h, "--response-time", "TIME|Nq", "the peer's pause response, as time (2us) or quanta (394q)");
  AddValue(h, "--roce-mtu", "BYTES", "RoCE MTU whose frames fill whole cells (ieee model; 0: none)");
  AddValue(h, "--model", "ieee|sonic-mellanox", "the IEEE 802.1Qbb sum (default) or SONiC's Mellanox formula");
  AddValue(h, "--asic", "spectrumN", "sonic-mellanox: spectrum1 to spectrum5 (default spectrum2)");
  AddValue(h, "--lossless-mtu", "BYTES", "sonic-mellanox: the lossless MTU (default 1024)");
  AddValue(h, "--small-packet-percentage", "PCT",
           "share of 64 B packets: of the round trip's frames (ieee, as switch.pfc.small_packet_percentage; "
           "default 0), or in SONiC's formula (sonic-mellanox; default 50)");
  AddValue(h, "--gearbox-delay", "TIME", "sonic-mellanox: gearbox delay (default 0ns)");
  AddFlag(h, "--shared-headroom-pool", "sonic-mellanox: the shared headroom pool is on");
  AddValue(h, "--format", "text|sonic", "text (default), or SONiC config_db BUFFER_PROFILE and BUFFER_PG");
  AddFlag(h, "--json", "the plan as JSON");
  CLI::App* b = AddCommand(plan, "buffer", "Headroom and shared pool of every switch of a fabric", PlanBuffer,
                           "FABRIC.yaml", 1, 1);
  AddFlag(b, "--json", "the budgets as JSON");
  CLI::App* e = AddCommand(plan, "ecn", "DCQCN ECN thresholds with SONiC and NIC configuration", PlanEcn);
  AddValue(e, "--speed", "RATE", "port speed, e.g. 100G (required)");
  AddValue(e, "--rtt", "TIME", "base round-trip time, e.g. 10us (required)");
  AddValue(e, "--mtu", "BYTES", "RoCE MTU: 256, 512, 1024, 2048 or 4096 (default 4096)");
  AddValue(e, "--ports", "N", "ports the SONiC config covers (default 32)");
  AddValue(e, "--lossless", "PRIORITY", "the lossless priority (default 3)");
  AddValue(e, "--cable", "LENGTH", "cable length for the lossless profile's headroom (default 5m)");
  AddValue(e, "--asic", "spectrumN", "spectrum1 to spectrum5 (default spectrum2)");
  AddValue(e, "--buffer", "SIZE", "the switch's packet buffer (default: the ASIC's where published: 16, 42, 64 MB for spectrum1-3)");
  AddValue(e, "--lossless-pool", "SIZE", "ingress_lossless_pool size (default: the buffer less the PGs' headroom)");
  AddFlag(e, "--config-db", "print the whole SONiC config_db (by default a line per table)");
  AddFlag(e, "--json", "the plan as JSON (with the whole config_db)");
}

}  // namespace rocelab
