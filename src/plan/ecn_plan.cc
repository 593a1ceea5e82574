#include "plan/ecn_plan.h"

#include <algorithm>
#include <cstdio>

#include "scenario/options.h"
#include "sim/packet.h"
#include "util/json_writer.h"

namespace rocelab {

namespace {
std::string Kb(uint64_t b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(b) / 1024);
  return buf;
}
}  // namespace

EcnPlan PlanDcqcnEcn(uint64_t rate_bps, Time rtt, uint32_t roce_mtu) {
  EcnPlan p;
  p.rate_bps = rate_bps;
  p.rtt = rtt;
  p.frame = DataFrameBytes(roce_mtu, false) + kWireOverhead;
  const unsigned __int128 bits_ps = static_cast<unsigned __int128>(rtt) * rate_bps;
  p.bdp = static_cast<uint64_t>(bits_ps / 8000000000000ull);
  p.kmin = std::max<uint64_t>(5ull * p.frame, p.bdp / 2);
  p.kmax = std::max<uint64_t>(p.kmin + 10ull * p.frame, 2 * p.bdp);
  p.pmax = 0.2;
  p.reasoning = {
      "BDP = rate x RTT / 8 = " + Kb(p.bdp) + ": the data one flow has in flight at line rate.",
      "Kmin = max(5 frames, BDP/2) = " + Kb(p.kmin) +
          ": below half an RTT of queue, a line-rate burst is normal and marking it would only cut rates "
          "that are not causing congestion; 5 frames keeps ordinary packet trains unmarked.",
      "Kmax = max(Kmin + 10 frames, 2 x BDP) = " + Kb(p.kmax) +
          ": by two RTTs of queue every packet is marked, so every sender gets a CNP within one "
          "min_time_between_cnps; the Kmin..Kmax ramp keeps marking proportional in between.",
      "Pmax = 0.2 (the DCQCN setting of the HPCC code base): the NIC sends at most one CNP per QP per "
      "min_time_between_cnps, so a higher probability adds little signal and a lower one delays the first cut.",
      "Check: Kmax must stay below the queue depth at which the PFC XOFF of any feeding ingress PG "
      "fires (rocelab lint checks this for 1..N fan-in); otherwise PFC, not ECN, governs congestion.",
  };
  return p;
}

std::string SonicQosTemplate(const TemplateInput& in) {
  std::string lossless_list, pg_range;
  for (size_t i = 0; i < in.lossless.size(); ++i) lossless_list += (i ? "," : "") + std::to_string(in.lossless[i]);
  int lo = *std::min_element(in.lossless.begin(), in.lossless.end());
  int hi = *std::max_element(in.lossless.begin(), in.lossless.end());
  pg_range = lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
  const std::string speed = std::to_string(in.ecn.rate_bps / 1000000);  // SONiC speeds are in Mb/s
  const std::string profile = "pg_lossless_" + speed + "_" + in.cable + "_profile";
  std::vector<std::string> ports;
  for (int i = 0; i < in.ports; ++i) ports.push_back("Ethernet" + std::to_string(4 * i));

  const uint64_t pool = in.lossless_pool ? in.lossless_pool : in.size * in.lossless.size() * ports.size();
  JsonWriter w;
  w.BeginObject();
  w.BeginObject("BUFFER_POOL");
  w.BeginObject("ingress_lossless_pool");
  w.String("size", std::to_string(pool)).String("type", "ingress").String("mode", "dynamic");
  w.EndObject();
  w.EndObject();
  w.BeginObject("BUFFER_PROFILE");
  w.BeginObject(profile.c_str());
  w.String("pool", "ingress_lossless_pool").String("xon", std::to_string(in.xon));
  w.String("xoff", std::to_string(in.xoff)).String("size", std::to_string(in.size)).String("dynamic_th", "0");
  w.EndObject();
  w.EndObject();
  w.BeginObject("BUFFER_PG");
  for (const auto& p : ports) {
    w.BeginObject((p + "|" + pg_range).c_str());
    w.String("profile", profile);
    w.EndObject();
  }
  w.EndObject();
  w.BeginObject("WRED_PROFILE");
  w.BeginObject("ROCE_LOSSLESS");
  w.String("ecn", "ecn_all").String("wred_green_enable", "true");
  w.String("green_min_threshold", std::to_string(in.ecn.kmin));
  w.String("green_max_threshold", std::to_string(in.ecn.kmax));
  w.String("green_drop_probability", std::to_string(static_cast<int>(in.ecn.pmax * 100 + 0.5)));
  w.EndObject();
  w.EndObject();
  // One DWRR scheduler per weight the queues use, and one strict for the CNP queue.
  auto scheduler_of = [&](int q) {
    return q == 6 ? std::string("scheduler.strict") : "scheduler.dwrr" + std::to_string(in.ets_weights[q]);
  };
  w.BeginObject("SCHEDULER");
  std::vector<std::string> defined;
  for (int q = 0; q < 8; ++q) {
    const std::string name = scheduler_of(q);
    if (std::find(defined.begin(), defined.end(), name) != defined.end()) continue;
    defined.push_back(name);
    w.BeginObject(name.c_str());
    if (q == 6) w.String("type", "STRICT");
    else w.String("type", "DWRR").String("weight", std::to_string(in.ets_weights[q]));
    w.EndObject();
  }
  w.EndObject();
  w.BeginObject("QUEUE");
  for (const auto& p : ports) {
    for (int q = 0; q < 8; ++q) {
      const bool ll = std::find(in.lossless.begin(), in.lossless.end(), q) != in.lossless.end();
      w.BeginObject((p + "|" + std::to_string(q)).c_str());
      if (ll) w.String("wred_profile", "ROCE_LOSSLESS");
      w.String("scheduler", scheduler_of(q));
      w.EndObject();
    }
  }
  w.EndObject();
  w.BeginObject("PORT_QOS_MAP");
  for (const auto& p : ports) {
    w.BeginObject(p.c_str());
    w.String("dscp_to_tc_map", "ROCE").String("tc_to_pg_map", "ROCE").String("tc_to_queue_map", "ROCE");
    w.String("pfc_enable", lossless_list).String("pfc_to_queue_map", "ROCE");
    w.EndObject();
  }
  w.EndObject();
  w.BeginObject("DSCP_TO_TC_MAP");
  w.BeginObject("ROCE");
  // The simulator's default map (NVIDIA's RoCE defaults): RoCE to its lossless TC, CNPs to the
  // strict TC 6, everything else to TC 0. (SONiC's own default sends DSCP 26 to TC 1, lossy.)
  for (int d = 0; d < 64; ++d) {
    const int tc = d == in.roce_dscp ? in.lossless.front() : d == in.cnp_dscp ? 6 : 0;
    w.String(std::to_string(d), std::to_string(tc));
  }
  w.EndObject();
  w.EndObject();
  w.BeginObject("TC_TO_PRIORITY_GROUP_MAP");
  w.BeginObject("ROCE");
  for (int tc = 0; tc < 8; ++tc) {
    bool ll = std::find(in.lossless.begin(), in.lossless.end(), tc) != in.lossless.end();
    w.String(std::to_string(tc), ll ? std::to_string(tc) : "0");
  }
  w.EndObject();
  w.EndObject();
  w.BeginObject("TC_TO_QUEUE_MAP");
  w.BeginObject("ROCE");
  for (int tc = 0; tc < 8; ++tc) w.String(std::to_string(tc), std::to_string(tc));
  w.EndObject();
  w.EndObject();
  w.BeginObject("MAP_PFC_PRIORITY_TO_QUEUE");
  w.BeginObject("ROCE");
  for (int p = 0; p < 8; ++p) w.String(std::to_string(p), std::to_string(p));
  w.EndObject();
  w.EndObject();
  w.BeginObject("PFC_WD");
  // What a rocelab switch runs with by default (switch.pfc_watchdog), so that the plan deployed
  // and the plan simulated agree: sonic-utilities `pfcwd start_default`'s detection and
  // restoration (200 ms, action drop) and orchagent's poll interval (100 ms). start_default
  // itself would poll every 200 ms x ceil(ports / 32).
  const auto ms = [](Time t) { return std::to_string(t / kMillisecond); };
  for (const auto& p : ports) {
    w.BeginObject(p.c_str());
    w.String("action", std::string(opt::kSwitchPfcWatchdogAction.def_text))
        .String("detection_time", ms(static_cast<Time>(opt::kSwitchPfcWatchdogDetectionTime.def)))
        .String("restoration_time", ms(static_cast<Time>(opt::kSwitchPfcWatchdogRestorationTime.def)));
    w.EndObject();
  }
  w.BeginObject("GLOBAL");
  w.String("POLL_INTERVAL", ms(static_cast<Time>(opt::kSwitchPfcWatchdogPollInterval.def)));
  w.EndObject();
  w.EndObject();
  w.EndObject();
  return w.str();
}

std::vector<std::string> NicQosCommands(const TemplateInput& in, const std::string& netdev, const std::string& rdma_dev) {
  std::string pfc;
  for (int p = 0; p < 8; ++p) {
    bool ll = std::find(in.lossless.begin(), in.lossless.end(), p) != in.lossless.end();
    pfc += (p ? "," : "") + std::string(ll ? "1" : "0");
  }
  const int prio = in.lossless.front();
  std::vector<std::string> c = {
      "# NVIDIA mlnx_qos (MLNX_OFED): trust DSCP and enable PFC on the RoCE priority",
      "mlnx_qos -i " + netdev + " --trust dscp --pfc " + pfc,
      "# or with iproute2's dcb",
      "dcb pfc set dev " + netdev + " prio-pfc " + std::to_string(prio) + ":on",
      "dcb app add dev " + netdev + " dscp-prio " + std::to_string(in.roce_dscp) + ":" + std::to_string(prio),
      "# RoCE traffic class: DSCP " + std::to_string(in.roce_dscp) + " with ECT(0) = ToS " +
          std::to_string(in.roce_dscp * 4 + 2),
      "cma_roce_tos -d " + rdma_dev + " -t " + std::to_string(in.roce_dscp * 4 + 2),
      "# DCQCN on the RoCE priority (MLNX_OFED sysfs)",
      "echo 1 > /sys/class/net/" + netdev + "/ecn/roce_np/enable/" + std::to_string(prio),
      "echo 1 > /sys/class/net/" + netdev + "/ecn/roce_rp/enable/" + std::to_string(prio),
      "echo " + std::to_string(in.cnp_dscp) + " > /sys/class/net/" + netdev + "/ecn/roce_np/cnp_dscp",
      "echo 6 > /sys/class/net/" + netdev + "/ecn/roce_np/cnp_802p_prio",
  };
  return c;
}

}  // namespace rocelab
