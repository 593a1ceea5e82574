// One diagnosis engine for real evidence and simulation outputs.
#include "diagnose/diagnose.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "collect/collect.h"
#include "diagnose/parsers.h"
#include "test_util.h"

#include "file_util.h"

namespace rocelab {

namespace {

std::string Sample(const std::string& name) { return std::string(ROCELAB_SHARED_DATA) + "/samples/" + name; }

const Diagnosis* Find(const std::vector<Diagnosis>& ds, const std::string& words) {
  for (const Diagnosis& d : ds)
    if (d.title.find(words) != std::string::npos) return &d;
  return nullptr;
}

int Problems(const std::vector<Diagnosis>& ds) {
  int n = 0;
  for (const Diagnosis& d : ds) n += d.severity != Severity::kInfo;
  return n;
}

std::string Dump(const std::vector<Diagnosis>& ds) {
  std::string s;
  for (const Diagnosis& d : ds) s += d.layer + " " + SeverityName(d.severity) + " " + d.title + " @ " + d.location + "\n";
  return s;
}

}  // namespace

TEST(DiagnoseSamples, EthtoolWithoutPauseCountersMeansPfcOff) {
  Evidence ev = LoadEvidence({Sample("ethtool_S_mlx5_cx4lx_k415.txt")});
  ASSERT_EQ(ev.ports.size(), 1u);
  EXPECT_EQ(ev.ports[0].counters.size(), 751u);  // every counter line parsed
  EXPECT_DOUBLE_EQ(ev.ports[0].counters.at("rx_prio0_bytes"), 2202570777997.0);
  std::vector<Diagnosis> ds = Diagnose(ev);
  const Diagnosis* d = Find(ds, "PFC is off on every priority");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->evidence.find("no rx_prioN_pause counters"), std::string::npos);
  EXPECT_EQ(Problems(ds), 1) << Dump(ds);
}

// PFC off on every priority of a NIC is one cause: one finding (an error: RoCE there is lossy), not
// a classification error beside a PFC warning.
TEST(DiagnoseSamples, PfcOffOnANicIsOneFinding) {
  std::string text = ReadFile(Sample("mlnx_qos_trust_dscp_pfc3.txt"));
  const size_t at = text.find("enabled     0   0   0   1");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 25, "enabled     0   0   0   0");
  const std::string file = TempDir("pfcoff") + "/mlnx_qos.txt";
  WriteFile(file, text);
  std::vector<Diagnosis> ds = Diagnose(LoadEvidence({file}));
  int about_pfc = 0;
  for (const Diagnosis& d : ds) about_pfc += d.severity != Severity::kInfo;
  EXPECT_EQ(about_pfc, 1) << Dump(ds);
  const Diagnosis* d = Find(ds, "PFC is off on every priority");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->severity, Severity::kError);
  EXPECT_NE(d->evidence.find("DSCP 26 -> priority 3"), std::string::npos) << d->evidence;
}

TEST(DiagnoseSamples, MlnxQosTrustDscpPfc3IsLossless) {
  Evidence ev = LoadEvidence({Sample("mlnx_qos_trust_dscp_pfc3.txt")});
  ASSERT_EQ(ev.ports.size(), 1u);
  const PortEvidence& p = ev.ports[0];
  EXPECT_EQ(p.trust, "dscp");
  ASSERT_TRUE(p.pfc_enabled.has_value());
  for (int i = 0; i < 8; ++i) EXPECT_EQ((*p.pfc_enabled)[i], i == 3);
  EXPECT_EQ((*p.dscp_to_priority)[26], 3);
  EXPECT_EQ((*p.dscp_to_priority)[48], 6);
  std::vector<Diagnosis> ds = Diagnose(ev);
  ASSERT_NE(Find(ds, "RoCE on DSCP 26 is lossless"), nullptr) << Dump(ds);
  EXPECT_EQ(Problems(ds), 0) << Dump(ds);
}

TEST(DiagnoseSamples, MlxconfigDcqcnDefaults) {
  Evidence ev = LoadEvidence({Sample("mlxconfig_q_cx5_dcqcn_defaults.txt")});
  ASSERT_EQ(ev.ports.size(), 1u);
  const auto& cc = ev.ports[0].cc_params;
  EXPECT_EQ(cc.at("DCE_TCP_G_P1"), "1019");
  EXPECT_EQ(cc.at("RPG_BYTE_RESET_P1"), "32767");
  EXPECT_EQ(cc.at("MIN_TIME_BETWEEN_CNPS_P1"), "2");
  EXPECT_EQ(cc.at("CLAMP_TGT_RATE_AFTER_TIME_INC_P1"), "True(1)");
  std::vector<Diagnosis> ds = Diagnose(ev);
  ASSERT_NE(Find(ds, "DCQCN is enabled in firmware"), nullptr) << Dump(ds);
}

TEST(DiagnoseSamples, PfcwdStormIsFoundWithItsQueue) {
  Evidence ev = LoadEvidence({Sample("sonic_pfcwd_show_stats_storm_z9332.txt")});
  ASSERT_EQ(ev.watchdog.size(), 1u);  // the newest of three snapshots
  EXPECT_EQ(ev.watchdog[0].status, "stormed");
  EXPECT_DOUBLE_EQ(ev.watchdog[0].tx_drop, 46497254.0);
  std::vector<Diagnosis> ds = Diagnose(ev);
  const Diagnosis* d = Find(ds, "PFC storm in progress on Ethernet4 queue 3");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->severity, Severity::kError);
  EXPECT_NE(d->evidence.find("2/1"), std::string::npos);
  EXPECT_NE(d->evidence.find("recurring"), std::string::npos);
  EXPECT_NE(d->action.find("TX OK 0: nothing has got through this queue"), std::string::npos) << d->action;
  // The same storm on a queue that carried traffic between its storms: no "TX OK 0" advice.
  std::string text = ReadFile(Sample("sonic_pfcwd_show_stats_storm_z9332.txt"));
  const size_t last = text.rfind("0/46497254");
  ASSERT_NE(last, std::string::npos);
  text.replace(last, 10, "100000/46497254");
  const std::string file = TempDir("pfcwd") + "/pfcwd.txt";
  WriteFile(file, text);
  std::vector<Diagnosis> carried = Diagnose(LoadEvidence({file}));
  const Diagnosis* c = Find(carried, "PFC storm in progress on Ethernet4 queue 3");
  ASSERT_NE(c, nullptr) << Dump(carried);
  EXPECT_EQ(c->action.find("TX OK 0"), std::string::npos) << c->action;
  EXPECT_NE(c->action.find("the queue carried 100,000 frames outside its storms"), std::string::npos) << c->action;
}

TEST(DiagnoseSamples, QueueCountersShowLossyDrops) {
  Evidence ev = LoadEvidence({Sample("sonic_show_queue_counters_lossless_uc3_uc4.txt")});
  ASSERT_EQ(ev.ports.size(), 1u);
  EXPECT_EQ(ev.ports[0].port, "Ethernet196");
  EXPECT_EQ(ev.ports[0].queues.size(), 14u);  // UC0-7, MC8-13: the capture is cut after MC13
  std::vector<Diagnosis> ds = Diagnose(ev);
  const Diagnosis* d = Find(ds, "drops in lossy queue UC1");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->location.find("Ethernet196"), std::string::npos);
  EXPECT_NE(d->title.find("17.6 %"), std::string::npos) << d->title;
  EXPECT_EQ(Find(ds, "lossless queue"), nullptr);  // UC3 and UC4 did not drop
}

TEST(DiagnoseSamples, PerftestResultRow) {
  Evidence ev = LoadEvidence({Sample("perftest_ib_write_bw_roce_postlist.txt")});
  ASSERT_EQ(ev.perftest.size(), 1u);
  const PerftestRow& r = ev.perftest[0];
  EXPECT_TRUE(r.bandwidth);
  EXPECT_TRUE(r.gbits);
  EXPECT_DOUBLE_EQ(r.bytes, 8);
  EXPECT_DOUBLE_EQ(r.iterations, 224958464);
  EXPECT_DOUBLE_EQ(r.bw_average, 0.48);
  EXPECT_DOUBLE_EQ(r.msg_rate_mpps, 7.498617);
  EXPECT_EQ(r.mtu, 4096);
  std::vector<Diagnosis> ds = Diagnose(ev);
  const Diagnosis* d = Find(ds, "perftest bandwidth");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->action.find("message rate"), std::string::npos);
}

// A cut-short copy of a command output is an error naming the line.
void ExpectParseErrorAtLine(const std::string& path, const std::string& text, int line) {
  WriteFile(path, text);
  try {
    LoadEvidence({path});
    ADD_FAILURE() << "no error for " << path;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
  }
}

// SONiC's `show pfc counters` (pfcstat): which ports receive pause and which send it.
TEST(DiagnoseSamples, PfcCountersSayWhichWayThePauseGoes) {
  const std::string dir = TempDir("diag");
  WriteFile(dir + "/leaf0.txt",
        "admin@leaf0:~$ show pfc counters\n"
        "    Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
        "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n"
        "  Ethernet0       0       0       0   1,204       0       0       0       0\n"
        "  Ethernet4       0       0       0       0       0       0       0     N/A\n"
        "\n"
        "    Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
        "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n"
        "  Ethernet0       0       0       0       0       0       0       0       0\n"
        "  Ethernet4       0       0       0     377       0       0       0       0\n");
  std::vector<Diagnosis> ds = Diagnose(LoadEvidence({dir + "/leaf0.txt"}));
  const Diagnosis* rx = Find(ds, "receives pause on priority 3");
  ASSERT_NE(rx, nullptr) << Dump(ds);
  EXPECT_EQ(rx->location, "leaf0:Ethernet0");
  EXPECT_NE(rx->evidence.find("SAI_PORT_STAT_PFC_3_RX_PKTS +1,204"), std::string::npos) << rx->evidence;
  const Diagnosis* tx = Find(ds, "sends pause on priority 3");
  ASSERT_NE(tx, nullptr) << Dump(ds);
  EXPECT_EQ(tx->location, "leaf0:Ethernet4");
  // After a counter clear pfcstat says since when it counts, above its tables.
  WriteFile(dir + "/cleared.txt",
            "admin@leaf0:~$ show pfc counters\n"
            "Last cached time was 2023-10-11T09:15:03.125448\n"
            "    Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
            "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n"
            "  Ethernet0       0       0       0      12       0       0       0       0\n"
            "\n"
            "    Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
            "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n"
            "  Ethernet0       0       0       0       0       0       0       0       0\n");
  std::vector<Diagnosis> cleared = Diagnose(LoadEvidence({dir + "/cleared.txt"}));
  const Diagnosis* since = Find(cleared, "receives pause on priority 3");
  ASSERT_NE(since, nullptr) << Dump(cleared);
  EXPECT_NE(since->evidence.find("SAI_PORT_STAT_PFC_3_RX_PKTS +12"), std::string::npos) << since->evidence;
  // A row cut short names its line.
  ExpectParseErrorAtLine(dir + "/cut.txt",
                         "    Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
                         "  Ethernet0       0       0       0\n",
                         2);
}

// iproute2's `rdma statistic show`: the hw_counters of every port, one record each (wrapped
// when pasted), with the findings ethtool and hw_counters files give.
TEST(DiagnoseSamples, RdmaStatisticGivesTheHwCounterFindings) {
  const std::string dir = TempDir("diag");
  WriteFile(dir + "/host1.txt",
        "# rdma statistic show\n"
        "link mlx5_0/1 rx_write_requests 120 rx_read_requests 0 out_of_buffer 0 out_of_sequence 37\n"
        "duplicate_request 0 rnr_nak_retry_err 0 packet_seq_err 12 implied_nak_seq_err 0 local_ack_timeout_err 0\n"
        "rp_cnp_ignored 0 rp_cnp_handled 0 np_ecn_marked_roce_packets 5,310 np_cnp_sent 0\n"
        "link mlx5_1/1 rx_write_requests 0 np_ecn_marked_roce_packets 0 np_cnp_sent 0 out_of_sequence 0\n");
  std::vector<Diagnosis> ds = Diagnose(LoadEvidence({dir + "/host1.txt"}));
  const Diagnosis* ecn = Find(ds, "no CNPs are sent");
  ASSERT_NE(ecn, nullptr) << Dump(ds);
  EXPECT_EQ(ecn->location, "mlx5_0 (mlx5_0/1)");
  const Diagnosis* loss = Find(ds, "packet loss on the RoCE path");
  ASSERT_NE(loss, nullptr) << Dump(ds);
  EXPECT_EQ(loss->location, "mlx5_0 (mlx5_0/1)");
  for (const Diagnosis& d : ds) EXPECT_EQ(d.location.find("mlx5_1"), std::string::npos) << d.title;
  ExpectParseErrorAtLine(dir + "/cut.txt", "link mlx5_0/1 rx_write_requests 120 out_of_sequence\n", 1);
}

// Drops in the CNP queue (UC6) get CNP advice, not the DSCP-map advice of other lossy queues.
TEST(DiagnoseSamples, CnpQueueDropsGetCnpAdvice) {
  const std::string dir = TempDir("diag");
  WriteFile(dir + "/leaf1.txt",
        "     Port    TxQ    Counter/pkts    Counter/bytes    Drop/pkts    Drop/bytes\n"
        "---------  -----  --------------  ---------------  -----------  ------------\n"
        "Ethernet4    UC6            9000           702000          310         24180\n");
  std::vector<Diagnosis> ds = Diagnose(LoadEvidence({dir + "/leaf1.txt"}));
  const Diagnosis* d = Find(ds, "CNPs dropped in UC6");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->action.find("strict priority"), std::string::npos) << d->action;
  EXPECT_EQ(Find(ds, "drops in lossy queue"), nullptr) << Dump(ds);
}

// "PFC fires but ECN never marks" on a switch whose ECN is on: the advice is not "enable ECN".
TEST(DiagnoseSamples, PfcWithoutMarksWhereEcnIsOnPointsAtKminOrDownstreamPauses) {
  const std::string dir = TempDir("diag");
  auto sw = [](const std::string& name, bool ecn, int pauses, int marks) {
    return "\"" + name + "\": {\"config\": {\"pfc_priorities\": [3], \"trust\": \"dscp\", \"dscp_to_priority\": {\"26\": 3, "
           "\"48\": 6}, \"ecn_enabled\": " + std::string(ecn ? "true" : "false") + ", \"ecn_kmin\": 102400},\n"
           "  \"ports\": {\"Ethernet0\": {\"peer\": \"h0\", \"SAI_PORT_STAT_PFC_3_TX_PKTS\": " + std::to_string(pauses) +
           ", \"SAI_PORT_STAT_PFC_3_RX_PKTS\": 0, \"SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US\": 0,\n"
           "    \"queues\": {\"UC3\": {\"SAI_QUEUE_STAT_PACKETS\": 5000, \"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS\": " +
           std::to_string(marks) + "}}}}}";
  };
  WriteFile(dir + "/summary.json", "{\"sim_time_ns\": 1000000, \"hosts\": {}, \"switches\": {" + sw("leaf0", true, 40, 0) + ",\n" +
                                   sw("leaf1", false, 40, 0) + ",\n" + sw("spine0", true, 0, 300) + "}}\n");
  std::vector<Diagnosis> ds = Diagnose(LoadEvidence({dir}));
  int found = 0;
  for (const Diagnosis& d : ds) {
    if (d.title.find("PFC fires but ECN never marks") == std::string::npos) continue;
    ++found;
    if (d.location == "leaf0") {
      EXPECT_NE(d.action.find("ECN is on here"), std::string::npos) << d.action;
    } else {
      EXPECT_EQ(d.location, "leaf1");
      EXPECT_NE(d.action.find("enable ECN"), std::string::npos) << d.action;
      EXPECT_NE(d.evidence.find("ECN is disabled in its configuration"), std::string::npos) << d.evidence;
    }
  }
  EXPECT_EQ(found, 2) << Dump(ds);
}

// A switch paused by its own downstream passes the pause on: its queues never build, so its ECN
// is not what failed (the pause's root has its finding). Its tier grades it: ECN on, T2 (re-tune);
// off, T3 (roll back).
TEST(DiagnoseSamples, PfcWithoutMarksOnASwitchPausedItselfIsPassedOnPause) {
  const std::string dir = TempDir("diag");
  auto sw = [](const std::string& name, bool ecn, int pause, int rx_pause, int marks) {
    return "\"" + name + "\": {\"config\": {\"pfc_priorities\": [3], \"ecn_enabled\": " + std::string(ecn ? "true" : "false") +
           "},\n  \"ports\": {\"Ethernet0\": {\"peer\": \"h0\", \"SAI_PORT_STAT_PFC_3_TX_PKTS\": " + std::to_string(pause) +
           ", \"SAI_PORT_STAT_PFC_3_RX_PKTS\": " + std::to_string(rx_pause) +
           ", \"queues\": {\"UC3\": {\"SAI_QUEUE_STAT_PACKETS\": 5000, \"SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS\": " +
           std::to_string(marks) + "}}}}}";
  };
  WriteFile(dir + "/summary.json", "{\"sim_time_ns\": 1000000, \"hosts\": {}, \"switches\": {" + sw("leaf0", true, 40, 30, 0) +
                                   ",\n" + sw("leaf1", true, 40, 0, 0) + ",\n" + sw("leaf2", false, 40, 30, 0) + ",\n" +
                                   sw("spine0", true, 0, 0, 300) + "}}\n");
  std::vector<Diagnosis> ds = Diagnose(LoadEvidence({dir}));
  std::map<std::string, std::string> tiers;
  for (const Diagnosis& d : ds)
    if (d.rule == "ecn.pfc_without_ecn") tiers[d.location] = d.tier;
  const std::map<std::string, std::string> want = {{"leaf1", "T2"}, {"leaf2", "T3"}};
  EXPECT_EQ(tiers, want) << Dump(ds);
}

// Frames in flight when the counters are read look lost: many small ones hold few bytes, a few
// large ones are few frames. Only frames lost as bytes too are a gray failure.
TEST(DiagnoseSamples, GrayDropNeedsBothFramesAndBytesLost) {
  auto link = [](int got_frames, int got_bytes) {
    return "{\"sim_time_ns\": 1000000, \"hosts\": {}, \"switches\": {"
           "\"leaf0\": {\"ports\": {\"Ethernet0\": {\"peer\": \"spine0\", \"SAI_PORT_STAT_IF_OUT_UCAST_PKTS\": 3000, "
           "\"SAI_PORT_STAT_IF_OUT_OCTETS\": 6000000, \"SAI_PORT_STAT_IF_IN_UCAST_PKTS\": 0, \"SAI_PORT_STAT_IF_IN_OCTETS\": 0}}},"
           "\"spine0\": {\"ports\": {\"Ethernet0\": {\"peer\": \"leaf0\", \"SAI_PORT_STAT_IF_IN_UCAST_PKTS\": " +
           std::to_string(got_frames) + ", \"SAI_PORT_STAT_IF_IN_OCTETS\": " + std::to_string(got_bytes) +
           ", \"SAI_PORT_STAT_IF_OUT_UCAST_PKTS\": 0, \"SAI_PORT_STAT_IF_OUT_OCTETS\": 0}}}}}\n";
  };
  auto gray = [](const std::string& summary) {
    const std::string dir = TempDir("diag");
    WriteFile(dir + "/summary.json", summary);
    for (const Diagnosis& d : Diagnose(LoadEvidence({dir})))
      if (d.rule == "network.gray_drop") return true;
    return false;
  };
  EXPECT_FALSE(gray(link(2880, 5990000))) << "120 small frames, 10 KB: in flight";
  EXPECT_FALSE(gray(link(2988, 5950000))) << "12 large frames, 50 KB: in flight";
  EXPECT_TRUE(gray(link(2880, 5750000))) << "120 frames, 250 KB: lost";
}

// A handful of marks can all fall within one CNP interval after the last CNP; many cannot.
TEST(DiagnoseSamples, EcnWithoutCnpNeedsMoreMarksThanOneCnpIntervalHolds) {
  auto finding = [](int marked) {
    const std::string dir = TempDir("diag");
    WriteFile(dir + "/rdma.txt", "link mlx5_0/1 np_ecn_marked_roce_packets " + std::to_string(marked) + " np_cnp_sent 0\n");
    for (const Diagnosis& d : Diagnose(LoadEvidence({dir + "/rdma.txt"})))
      if (d.rule == "cc.ecn_without_cnp") return true;
    return false;
  };
  EXPECT_FALSE(finding(6));
  EXPECT_TRUE(finding(60));
}

// A file of another kind says what it is, not which of its lines is no counter.
TEST(DiagnoseSamples, AFileOfTheWrongKindSaysSo) {
  auto error = [](const std::string& path) {
    try {
      LoadEvidence({path});
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string scenario = error(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/incast-15to1.yaml");
  EXPECT_NE(scenario.find("incast-15to1.yaml:"), std::string::npos) << scenario;
  EXPECT_NE(scenario.find("this is a rocelab scenario, not evidence: run it"), std::string::npos) << scenario;
  EXPECT_EQ(scenario.find("whole-number"), std::string::npos) << scenario;
  const std::string readme = error(std::string(ROCELAB_SOURCE_DIR) + "/README.md");
  EXPECT_NE(readme.find("this is not a file diagnose reads"), std::string::npos) << readme;
  EXPECT_NE(readme.find("ethtool -S"), std::string::npos) << readme;
}

TEST(DiagnoseSamples, TruncatedOrGarbledInputNamesFileAndLine) {
  const std::string dir = TempDir("diag");
  struct Case {
    std::string sample;
    std::function<std::string(const std::string&)> damage;
    int line;
  };
  auto cut_at = [](const std::string& text, const std::string& marker) { return text.substr(0, text.find(marker) + marker.size() / 2); };
  const Case cases[] = {
      {"ethtool_S_mlx5_cx4lx_k415.txt", [&](const std::string& t) { return cut_at(t, "rx_prio3_packets"); }, 117},
      {"ethtool_S_mlx5_cx4lx_k415.txt", [](const std::string& t) {
         std::string s = t;
         return s.replace(s.find("rx_bytes: 2195783498134"), 23, "rx_bytes: 21957#3498134");
       }, 3},
      {"mlnx_qos_trust_dscp_pfc3.txt", [](const std::string& t) { return t.substr(0, t.find("PFC configuration")); }, 14},
      {"mlnx_qos_trust_dscp_pfc3.txt", [](const std::string& t) {
         std::string s = t;
         return s.replace(s.find("enabled     0   0   0   1"), 25, "enabled     0   0   0   X");
       }, 17},
      {"sonic_pfcwd_show_stats_storm_z9332.txt", [](const std::string& t) {
         std::string s = t;
         return s.replace(s.find("0/41507426           0/0"), 24, "0/41507426");
       }, 5},
      {"sonic_show_queue_counters_lossless_uc3_uc4.txt", [](const std::string& t) { return t.substr(0, t.find("13638863007480") + 5); }, 6},
      {"perftest_ib_write_bw_roce_postlist.txt", [](const std::string& t) { return t.substr(0, t.find("0.48") + 2); }, 19},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string path = dir + "/bad" + std::to_string(i++) + "_" + c.sample;
    WriteFile(path, c.damage(ReadFile(Sample(c.sample))));
    try {
      LoadEvidence({path});
      ADD_FAILURE() << "no error for " << path;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.file(), path);
      EXPECT_EQ(e.line(), c.line) << e.what();
    }
  }
}

TEST(Collect, CapturedTreeMakesABundleThatDiagnoses) {
  const std::string root = TempDir("diag") + "/root";
  const std::string ib = root + "/sys/class/infiniband/mlx5_0";
  WriteFile(ib + "/ports/1/counters/port_rcv_data", "123456789\n");
  WriteFile(ib + "/ports/1/counters/port_xmit_discards", "0\n");
  WriteFile(ib + "/ports/1/hw_counters/np_ecn_marked_roce_packets", "5000\n");
  WriteFile(ib + "/ports/1/hw_counters/np_cnp_sent", "0\n");
  WriteFile(ib + "/ports/1/hw_counters/out_of_sequence", "42\n");
  WriteFile(ib + "/ports/1/hw_counters/packet_seq_err", "40\n");
  WriteFile(ib + "/ports/1/hw_counters/local_ack_timeout_err", "0\n");
  WriteFile(ib + "/device/net/eth0/ifindex", "2\n");
  WriteFile(root + "/sys/class/net/eth0/mtu", "9000\n");
  WriteFile(root + "/sys/class/net/eth0/speed", "100000\n");
  WriteFile(root + "/sys/class/net/eth0/carrier_changes", "3\n");
  WriteFile(root + "/sys/class/net/eth0/operstate", "down\n");
  WriteFile(root + "/sys/class/net/eth0/ecn/roce_np/enable/3", "0\n");
  WriteFile(root + "/sys/class/net/eth0/ecn/roce_rp/enable/3", "1\n");
  WriteFile(root + "/sys/class/net/eth0/ecn/roce_np/cnp_dscp", "48\n");
  WriteFile(root + "/proc/sys/kernel/hostname", "gpu-node-17\n");
  WriteFile(root + "/proc/version", "Linux version 6.1.0\n");
  std::string ethtool = ReadFile(Sample("ethtool_S_mlx5_cx4lx_k415.txt"));
  WriteFile(root + "/commands/ethtool_S.eth0.txt", ethtool.substr(ethtool.find('\n') + 1));
  std::string qos = ReadFile(Sample("mlnx_qos_trust_dscp_pfc3.txt"));
  WriteFile(root + "/commands/mlnx_qos.eth0.txt", qos.substr(qos.find('\n') + 1));

  CollectOptions o;
  o.root = root;
  o.out = root + "/../bundle";
  o.interval_s = 0;
  CollectSummary s = Collect(o);
  EXPECT_EQ(s.devices, 1);
  for (const char* f : {"/manifest.json", "/sample1/mlx5_0.port1.counters.txt", "/sample1/mlx5_0.port1.hw_counters.txt",
                        "/sample1/eth0.ethtool_S.txt", "/sample1/eth0.link.txt", "/commands/mlnx_qos.eth0.txt"}) {
    struct stat st;
    EXPECT_EQ(stat((o.out + f).c_str(), &st), 0) << f;
  }
  const std::string manifest = ReadFile(o.out + "/manifest.json");
  EXPECT_NE(manifest.find("\"host\": \"gpu-node-17\""), std::string::npos);
  EXPECT_NE(manifest.find("\"roce_np/enable/3\": \"0\""), std::string::npos);
  EXPECT_THROW(Collect(o), std::runtime_error);  // never overwrites a bundle

  Evidence ev = LoadEvidence({o.out});
  ASSERT_EQ(ev.ports.size(), 1u);
  EXPECT_EQ(ev.ports[0].device, "gpu-node-17");
  EXPECT_EQ(ev.ports[0].port, "mlx5_0/eth0");
  std::vector<Diagnosis> ds = Diagnose(ev);
  const Diagnosis* cnp = Find(ds, "ECN-marked RoCE packets arrive but no CNPs are sent");
  ASSERT_NE(cnp, nullptr) << Dump(ds);
  EXPECT_EQ(cnp->location, "gpu-node-17 (mlx5_0/eth0)");
  ASSERT_NE(Find(ds, "packet loss on the RoCE path"), nullptr) << Dump(ds);
  // The netdev's state, kept in the manifest: the link is down now, not only gone and back.
  EXPECT_NE(manifest.find("\"operstate\": \"down\""), std::string::npos) << manifest;
  ASSERT_TRUE(ev.ports[0].oper_up.has_value());
  EXPECT_FALSE(*ev.ports[0].oper_up);
  ASSERT_NE(Find(ds, "the link is down"), nullptr) << Dump(ds);
  ASSERT_NE(Find(ds, "RoCE on DSCP 26 is lossless"), nullptr) << Dump(ds);
}

TEST(Collect, NoRdmaDevicesIsAClearErrorAndLeavesNothing) {
  const std::string dir = TempDir("diag");
  CollectOptions o;
  o.root = dir;
  o.out = dir + "/bundle";
  EXPECT_THROW(Collect(o), std::runtime_error);
  struct stat st;
  EXPECT_NE(stat(o.out.c_str(), &st), 0);
  EXPECT_NE(stat((o.out + ".partial").c_str(), &st), 0);
}

namespace {

std::string IncastScenario(const std::string& nic, const std::string& extra) {
  std::string s = "duration: 20ms\n" +
                  ExampleFabric("  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n", nic) + "workload:\n";
  for (int h = 1; h <= 15; ++h) s += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 1MB, priority: 3}\n";
  return s + extra;
}

std::vector<Diagnosis> DiagnoseRun(const std::string& yaml) {
  const std::string dir = TempDir("diag");
  auto f = RunYaml(yaml);
  WriteFile(dir + "/summary.json", SummaryJson(*f.run));
  return Diagnose(LoadEvidence({dir}));
}

const std::string kNone = "{mtu: 4096, cc: none, timeout: 10}";

// The summary.json of a run, as JSON to edit before it is diagnosed.
nlohmann::ordered_json RunSummary(const std::string& yaml) {
  auto f = RunYaml(yaml);
  return nlohmann::ordered_json::parse(SummaryJson(*f.run));
}

std::vector<Diagnosis> DiagnoseSummary(const nlohmann::ordered_json& summary, const std::string& dir = TempDir("diag")) {
  WriteFile(dir + "/summary.json", summary.dump(2));
  return Diagnose(LoadEvidence({dir}));
}

// What `rocelab run --counters nonzero` writes: every zero counter of the per-device sections
// left out (the configuration stays).
void DropZeroCounters(nlohmann::ordered_json* block) {
  for (auto it = block->begin(); it != block->end();) {
    if (it->is_number() && it->get<double>() == 0) it = block->erase(it);
    else ++it;
  }
}
nlohmann::ordered_json WithoutZeroCounters(nlohmann::ordered_json s) {
  for (auto& [name, h] : s["hosts"].items())
    for (const char* b : {"ethtool", "hw_counters", "rocelab"}) DropZeroCounters(&h[b]);
  for (auto& [name, sw] : s["switches"].items())
    for (auto& [port, p] : sw["ports"].items()) {
      DropZeroCounters(&p);
      for (const char* b : {"queues", "priority_groups"})
        for (auto& [q, c] : p[b].items()) DropZeroCounters(&c);
    }
  return s;
}

}  // namespace

TEST(DiagnoseSimulation, HealthyIncastHasNothingWrong) {
  std::vector<Diagnosis> ds = DiagnoseRun(IncastScenario("{mtu: 4096, cc: dcqcn}", ""));
  EXPECT_EQ(Problems(ds), 0) << Dump(ds);
}

// Congestion control off on purpose (cc: none) is a setting of its own kind, not "ECN without
// CNPs"; with DCQCN on, a notification point that sends nothing is still an error.
TEST(DiagnoseSimulation, CongestionControlOffIsReportedAsSuch) {
  std::vector<Diagnosis> off = DiagnoseRun(IncastScenario(kNone, ""));
  const Diagnosis* d = Find(off, "congestion control is off");
  ASSERT_NE(d, nullptr) << Dump(off);
  EXPECT_EQ(d->severity, Severity::kInfo);
  EXPECT_EQ(d->location, "h0 (mlx5_0/eth0)");
  EXPECT_EQ(Find(off, "no CNPs are sent"), nullptr) << Dump(off);
}

// What summary.json shows plainly about a collective: a ring held back to a slow rank's pace,
// and iterations that never completed in the run.
TEST(DiagnoseSimulation, AllreduceRegressionsAreApplicationFindings) {
  const std::string ring =
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 4, host_link: {rate: 100G, delay: 1us}}\n"
      "nic: {mtu: 4096, cc: dcqcn}\n"
      "workload:\n  - {type: allreduce, hosts: [h0, h1, h2, h3], size: 16MB, iterations: 3}\n";
  // h2 drains at 20G: the ring runs at a fifth of its links.
  std::vector<Diagnosis> slow = DiagnoseRun("duration: 100ms\n" + ring + "devices:\n  h2: {rx_drain_rate: 20G}\n");
  const Diagnosis* d = Find(slow, "AllReduce bus bandwidth is");
  ASSERT_NE(d, nullptr) << Dump(slow);
  EXPECT_EQ(d->severity, Severity::kWarning);
  EXPECT_EQ(Find(slow, "iterations"), nullptr) << Dump(slow);  // all three finished
  // A healthy ring: neither finding.
  std::vector<Diagnosis> ok = DiagnoseRun("duration: 100ms\n" + ring);
  EXPECT_EQ(Find(ok, "AllReduce"), nullptr) << Dump(ok);
  // Too short a run for three iterations of 16 MB (about 250 us each).
  std::vector<Diagnosis> cut = DiagnoseRun("duration: 300us\n" + ring);
  const Diagnosis* c = Find(cut, "iterations");
  ASSERT_NE(c, nullptr) << Dump(cut);
  EXPECT_EQ(c->severity, Severity::kError);
  EXPECT_NE(c->title.find("of its 3 iterations"), std::string::npos) << c->title;
}

// ECN configured off on a switch that carries RoCE, before any pause: DCQCN is blind there.
TEST(DiagnoseSimulation, EcnOffUnderRoceLoadIsFoundBeforePfcFires) {
  std::vector<Diagnosis> ds = DiagnoseRun(
      "duration: 5ms\n" + ExampleFabric("  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}\n", "{mtu: 4096, cc: dcqcn}") +
      "workload:\n  - {type: flow, src: h1, dst: h9, size: 1MB}\ndevices:\n  leaf1: {ecn: {enabled: false}}\n");
  const Diagnosis* d = Find(ds, "ECN is off on this switch");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->location, "leaf1");
  EXPECT_EQ(Find(ds, "PFC fires"), nullptr) << Dump(ds);
}

// Advice follows the evidence: headroom cannot save a port whose sender ignores pause.
TEST(DiagnoseSimulation, HeadroomOverflowFromASenderWithPfcOffSaysSo) {
  std::string yaml = "duration: 20ms\n" + ExampleFabric("", kNone, "1MB") + "workload:\n";
  for (int h = 1; h <= 7; ++h) yaml += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 1MB}\n";
  std::vector<Diagnosis> ds = DiagnoseRun(yaml + "devices:\n  h1: {pfc: false}\n");
  const Diagnosis* d = Find(ds, "PG headroom overflow");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->location.find("facing h1"), std::string::npos) << d->location;
  EXPECT_NE(d->action.find("h1 does not honour pause on priority 3"), std::string::npos) << d->action;
  EXPECT_EQ(d->action.find("raise it"), std::string::npos) << d->action;
}

TEST(DiagnoseSimulation, EcnOffOnOneSwitch) {
  std::vector<Diagnosis> ds = DiagnoseRun(IncastScenario("{mtu: 4096, cc: dcqcn}", "devices:\n  leaf0: {ecn: {enabled: false}}\n"));
  const Diagnosis* d = Find(ds, "PFC fires but ECN never marks");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->location, "leaf0");
}

TEST(DiagnoseSimulation, DriftedDscpMap) {
  std::vector<Diagnosis> ds = DiagnoseRun(IncastScenario(kNone, "devices:\n  leaf0: {dscp_to_priority: {26: 1}}\n"));
  const Diagnosis* d = Find(ds, "RoCE traffic (DSCP 26) rides lossy queue UC1 on leaf0");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->location.find("leaf0:Ethernet0"), std::string::npos);
}

TEST(DiagnoseSimulation, PfcOffOnOneHop) {
  std::vector<Diagnosis> ds = DiagnoseRun(IncastScenario(kNone, "devices:\n  spine0: {pfc: {enabled: false}}\n"));
  const Diagnosis* d = Find(ds, "PFC is off for the RoCE priority 3 on spine0");
  ASSERT_NE(d, nullptr) << Dump(ds);
}

// PFC off on every switch (the map as the NICs have it): PFC is off, not a drifted map, and the fix
// is to enable it, not to remap DSCP 26.
TEST(DiagnoseSimulation, PfcOffOnEverySwitchIsPfcOffNotAMapDrift) {
  std::vector<Diagnosis> ds = DiagnoseRun(IncastScenario(kNone, "devices:\n  spine0: {pfc: {enabled: false}}\n  "
                                                                 "spine1: {pfc: {enabled: false}}\n  leaf0: {pfc: {enabled: "
                                                                 "false}}\n  leaf1: {pfc: {enabled: false}}\n"));
  EXPECT_EQ(Find(ds, "rides lossy queue"), nullptr) << Dump(ds);
  const Diagnosis* d = Find(ds, "PFC is off for the RoCE priority 3 on leaf0");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->rule, "pfc.off_on_hop");
  EXPECT_NE(d->action.find("enable PFC for priority 3 on leaf0"), std::string::npos) << d->action;
}

// A host's own counters of trouble, as a bundle or summary gives them: receive discards for lack of
// buffer, and link downs.
TEST(DiagnoseSimulation, HostDiscardsAndLinkDownsAreFlagged) {
  const std::string dir = TempDir("diag");
  auto f = RunYaml(IncastScenario("{mtu: 4096, cc: dcqcn}", ""));
  nlohmann::ordered_json s = nlohmann::ordered_json::parse(SummaryJson(*f.run));
  s["hosts"]["h3"]["ethtool"]["rx_discards_phy"] = 1234;
  s["hosts"]["h5"]["ethtool"]["link_down_events_phy"] = 2;
  // h6's link went down on errors FEC could not correct: the PCS failed it (hi_ber), and it
  // will again once it is back, so it is no plain link down.
  s["hosts"]["h6"]["ethtool"]["link_down_events_phy"] = 1;
  s["hosts"]["h6"]["fec"] = {{"active_fec", "RS"}, {"code", "rs544"}, {"corrected_blocks", 90000},
                             {"uncorrectable_blocks", 40}, {"corrected_bits", 200000}};
  std::vector<Diagnosis> ds = DiagnoseSummary(s, dir);
  const Diagnosis* discards = Find(ds, "the NIC drops received frames for lack of buffer");
  ASSERT_NE(discards, nullptr) << Dump(ds);
  EXPECT_EQ(discards->location, "h3 (mlx5_0/eth0)");
  EXPECT_NE(discards->evidence.find("rx_discards_phy +1,234"), std::string::npos) << discards->evidence;
  const Diagnosis* down = Find(ds, "the link went down and came back");
  ASSERT_NE(down, nullptr) << Dump(ds);
  EXPECT_EQ(down->location, "h5 (mlx5_0/eth0)");
  EXPECT_EQ(down->rule, "physical.link_down");
  const Diagnosis* hi_ber = Find(ds, "errors past FEC took the link down (hi_ber)");
  ASSERT_NE(hi_ber, nullptr) << Dump(ds);
  EXPECT_EQ(hi_ber->location, "h6 (mlx5_0/eth0)");
  EXPECT_EQ(hi_ber->rule, "physical.hi_ber");
  EXPECT_EQ(hi_ber->tier, "T3");
  EXPECT_NE(hi_ber->evidence.find("uncorrectable_blocks +40"), std::string::npos) << hi_ber->evidence;
  EXPECT_NE(hi_ber->action.find("take it out of service"), std::string::npos) << hi_ber->action;
  for (const Diagnosis& d : ds) EXPECT_FALSE(d.rule == "physical.link_down" && d.location == hi_ber->location);
}

TEST(DiagnoseSimulation, MtuTooSmallOnOneHop) {
  std::vector<Diagnosis> ds = DiagnoseRun(IncastScenario(kNone, "devices:\n  spine1: {mtu: 1500}\n"));
  const Diagnosis* d = Find(ds, "frames discarded at ingress");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->location.find("spine1"), std::string::npos);
}

TEST(DiagnoseSimulation, HeadroomTooSmall) {
  std::vector<Diagnosis> ds = DiagnoseRun(IncastScenario(kNone, "devices:\n  leaf0: {pfc: {headroom: 6KB}}\n"));
  const Diagnosis* d = Find(ds, "PG headroom overflow");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->location.find("leaf0:Ethernet32"), std::string::npos);
  EXPECT_NE(d->location.find("PG3"), std::string::npos);
}

TEST(DiagnoseSimulation, RoutingCycleDeadlocks) {
  std::vector<Diagnosis> ds = DiagnoseRun(
      IncastScenario(kNone, "routes:\n  - {switch: spine0, dst: h0, port: leaf1}\n  - {switch: leaf1, dst: h0, port: spine0}\n"));
  const Diagnosis* d = Find(ds, "PFC deadlock");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_NE(d->location.find("leaf1"), std::string::npos);
  EXPECT_NE(d->location.find("spine0"), std::string::npos);
}

// Two switches that pause each other the whole window. Over a monitor's window that is a
// deadlock only if the paused queues also sent nothing; totals since the counters were cleared
// cannot tell, so there the pause share decides.
TEST(DiagnoseEvidence, ADeadlockedQueueSentNothingInTheWindow) {
  auto cycle = [](bool windowed, double sent) {
    Evidence ev;
    ev.origin = "test";
    ev.interval_s = 1e-3;
    ev.windowed = windowed;
    for (const auto& [dev, peer] : {std::pair{"spine0", "leaf1"}, std::pair{"leaf1", "spine0"}}) {
      PortEvidence p;
      p.device = dev;
      p.port = "Ethernet0";
      p.is_switch = true;
      p.peer = peer;
      p.counters["SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US"] = 1000;
      p.deltas = p.counters;
      p.queues["UC3"]["SAI_QUEUE_STAT_PACKETS"] = sent;
      ev.ports.push_back(p);
    }
    for (const Diagnosis& d : Diagnose(ev, false))
      if (d.rule == "pfc.deadlock") return true;
    return false;
  };
  EXPECT_TRUE(cycle(/*windowed=*/true, /*sent=*/0));
  EXPECT_FALSE(cycle(true, 12));
  EXPECT_TRUE(cycle(false, 12));
}

// With the switches' routes (what a monitor reads from them), a queue waits only on the peer's
// queues that forward what it sends: two ports that pause each other, each stopped, are a
// deadlock only if their traffic turns back into each other. Without routes (a bundle, a
// summary) the pause alone decides.
TEST(DiagnoseEvidence, AWaitForCycleRunsThroughQueuesThatFeedEachOther) {
  struct Routes : RouteView {
    std::set<std::string> feeds;  // "device:port>peer:peer_port"
    bool Feeds(const std::string& d, const std::string& p, const std::string& n, const std::string& q) const override {
      return feeds.count(d + ":" + p + ">" + n + ":" + q) > 0;
    }
  };
  auto deadlock = [](const RouteView* routes) {
    Evidence ev;
    ev.origin = "test";
    ev.interval_s = 1e-3;
    ev.windowed = true;
    ev.routes = routes;
    for (const auto& [dev, port, peer] : {std::tuple{"spine0", "Ethernet0", "leaf1"}, std::tuple{"leaf1", "Ethernet24", "spine0"}}) {
      PortEvidence p;
      p.device = dev;
      p.port = port;
      p.is_switch = true;
      p.peer = peer;
      p.counters["SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US"] = 1000;
      p.deltas = p.counters;
      p.queues["UC3"]["SAI_QUEUE_STAT_PACKETS"] = 0;
      ev.ports.push_back(p);
    }
    for (const Diagnosis& d : Diagnose(ev, false))
      if (d.rule == "pfc.deadlock") return d.location;
    return std::string();
  };
  Routes loop, one_way;
  loop.feeds = {"spine0:Ethernet0>leaf1:Ethernet24", "leaf1:Ethernet24>spine0:Ethernet0"};
  one_way.feeds = {"spine0:Ethernet0>leaf1:Ethernet24"};
  EXPECT_EQ(deadlock(&loop), "leaf1 -> spine0 -> leaf1");
  EXPECT_EQ(deadlock(&one_way), "") << "leaf1 sends nothing that spine0 turns back into it";
  EXPECT_EQ(deadlock(nullptr), "leaf1 -> spine0 -> leaf1");
}

TEST(DiagnoseSimulation, BitErrorsAreAPhysicalFinding) {
  std::vector<Diagnosis> ds = DiagnoseRun(
      "duration: 50ms\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2,\n"
      "           host_link: {rate: 100G, delay: 1us, ber: 1e-6}}\n"
      "nic: {cc: none, timeout: 8}\n"
      "workload:\n  - {type: flow, src: h0, dst: h1, size: 4MB}\n");
  const Diagnosis* d = Find(ds, "bit errors on the link");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(d->layer, "physical");
}

// A summary written without its per-device counters (`rocelab run --counters none`) cannot
// show a healthy fabric: diagnose says there is nothing to look at, and still reports flows.
TEST(DiagnoseSimulation, SummaryWithoutDeviceCountersSaysSoInsteadOfHealthy) {
  const nlohmann::ordered_json full = RunSummary("duration: 300us\n" + ExampleFabric("", "{mtu: 4096, cc: dcqcn}") +
                                                 "workload:\n  - {type: flow, src: h1, dst: h9, size: 10MB}\n");
  nlohmann::ordered_json absent = full, empty = full, config_only = full, empty_blocks = full;
  absent.erase("hosts");
  absent.erase("switches");
  empty["hosts"] = nlohmann::ordered_json::object();
  empty["switches"] = nlohmann::ordered_json::object();
  for (auto& [name, h] : config_only["hosts"].items())
    for (const char* b : {"ethtool", "hw_counters", "rocelab"}) h.erase(b);
  for (auto& [name, sw] : config_only["switches"].items()) sw.erase("ports");
  for (auto& [name, h] : empty_blocks["hosts"].items())
    for (const char* b : {"ethtool", "hw_counters", "rocelab"}) h[b] = nlohmann::ordered_json::object();
  for (auto& [name, sw] : empty_blocks["switches"].items())
    for (auto& [port, p] : sw["ports"].items()) p = {{"peer", p["peer"]}, {"queues", nlohmann::ordered_json::object()}};
  for (const auto* s : {&absent, &empty, &config_only, &empty_blocks}) {
    std::vector<Diagnosis> ds = DiagnoseSummary(*s);
    const Diagnosis* d = Find(ds, "summary.json has no per-device counters (written with --counters none)");
    ASSERT_NE(d, nullptr) << Dump(ds);
    EXPECT_EQ(d->severity, Severity::kWarning);  // so the command does not end in "nothing wrong found"
    EXPECT_EQ(d->layer, "evidence");
    EXPECT_EQ(&ds.front(), d) << Dump(ds);  // before anything else
    EXPECT_NE(Find(ds, "flows did not finish"), nullptr) << Dump(ds);  // the flows are still read
  }
  // Only the switches missing: said of them alone.
  nlohmann::ordered_json no_switches = full;
  no_switches.erase("switches");
  std::vector<Diagnosis> ds = DiagnoseSummary(no_switches);
  const Diagnosis* d = Find(ds, "summary.json has no counters for its switches");
  ASSERT_NE(d, nullptr) << Dump(ds);
  EXPECT_EQ(Find(DiagnoseSummary(full), "summary.json has no"), nullptr);
}

// `--counters nonzero` leaves out zero counters: the diagnosis must not change, a missing
// counter being zero (also for the rules that ask whether a device shows a counter at all).
TEST(DiagnoseSimulation, MissingCountersCountAsZero) {
  const std::vector<std::string> runs = {
      IncastScenario("{mtu: 4096, cc: dcqcn}", ""),
      IncastScenario("{mtu: 4096, cc: dcqcn}", "devices:\n  leaf0: {ecn: {enabled: false}}\n"),
      IncastScenario(kNone, "devices:\n  leaf0: {dscp_to_priority: {26: 1}}\n"),
      IncastScenario(kNone, "devices:\n  spine0: {pfc: {enabled: false}}\n"),
      IncastScenario(kNone, "devices:\n  leaf0: {pfc: {headroom: 6KB}}\n"),
      IncastScenario(kNone, "devices:\n  spine1: {mtu: 1500}\n"),
  };
  for (const std::string& yaml : runs) {
    const nlohmann::ordered_json full = RunSummary(yaml);
    const nlohmann::ordered_json sparse = WithoutZeroCounters(full);
    ASSERT_LT(sparse.dump().size(), full.dump().size());
    const std::string dir = TempDir("diag");  // the same origin in both
    EXPECT_EQ(Dump(DiagnoseSummary(sparse, dir)), Dump(DiagnoseSummary(full, dir))) << yaml;
  }
  // A switch port that received a few pause frames, held less than a microsecond in all:
  // its pause-duration counter is 0 and left out, yet the port shows durations (SAI does), so
  // the frame-count-only finding of pfcstat must not appear.
  nlohmann::ordered_json s = nlohmann::ordered_json::parse(R"({"sim_time_ns": 1000000, "hosts": {}, "switches": {
    "leaf0": {"config": {"pfc_priorities": [3], "trust": "dscp", "dscp_to_priority": {"26": 3, "48": 6}},
              "ports": {"Ethernet0": {"peer": "h0", "SAI_PORT_STAT_PFC_3_RX_PKTS": 4, "SAI_PORT_STAT_PFC_3_TX_PKTS": 0,
                                      "SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US": 0, "SAI_PORT_STAT_PFC_3_TX_PAUSE_DURATION_US": 0}}}}})");
  EXPECT_EQ(Find(DiagnoseSummary(s), "receives pause"), nullptr);
  EXPECT_EQ(Find(DiagnoseSummary(WithoutZeroCounters(s)), "receives pause"), nullptr) << Dump(DiagnoseSummary(WithoutZeroCounters(s)));
}

// summary.json and manifests come from other machines and hand edits: a value of the wrong
// type is an error naming the file and the key, a syntax error one naming the line.
TEST(DiagnoseSamples, BadJsonNamesFileAndKeyOrLine) {
  const std::string dir = TempDir("diag");
  struct Case {
    std::string file, text, words;
    int line;
  };
  const std::string sw = R"("switches": {"leaf0": {"ports": {"Ethernet0": {"peer": "h0", "queues": {"UC3": {"SAI_QUEUE_STAT_PACKETS": 5}}}}}})";
  const Case cases[] = {
      {"s1/summary.json", R"({"sim_time_ns": "soon", "hosts": {}, )" + sw + "}", "key 'sim_time_ns': expected a number, found string", 0},
      {"s2/summary.json", R"({"hosts": [], )" + sw + "}", "key 'hosts': expected an object, found array", 0},
      {"s3/summary.json", R"({"hosts": {"h0": {"ethtool": {"rx_bytes_phy": "12"}}}, "switches": {}})", "key 'hosts.h0.ethtool.rx_bytes_phy': expected a number", 0},
      {"s4/summary.json", R"({"hosts": {"h0": {"config": {"pfc_priorities": [9]}}}, "switches": {}})", "key 'hosts.h0.config.pfc_priorities[0]': expected a whole number from 0 to 7", 0},
      {"s5/summary.json", R"({"flows": [{"state": 3}], "hosts": {}, "switches": {}})", "key 'flows[0].state': expected a string, found number", 0},
      {"s6/summary.json", R"({"hosts": {}, "switches": {"leaf0": {"ports": {"Ethernet0": {"queues": {"UC3": []}}}}}})", "key 'switches.leaf0.ports.Ethernet0.queues.UC3': expected an object", 0},
      {"s7/summary.json", "{\"hosts\": {},\n \"switches\": {\n", "unexpected end of input", 3},
      {"s8/summary.json", "{\"hosts\": {},\n \"switches\": {}},\n", "syntax error", 2},
      {"s9/summary.json", "[1, 2]", "not a rocelab summary.json", 0},
      {"b1/manifest.json", R"({"samples": 1, "devices": {"x": 1}})", "key 'devices': expected a list, found object", 0},
      {"b2/manifest.json", R"({"samples": 1.5, "devices": []})", "key 'samples': expected a whole number", 0},
      {"b3/manifest.json", R"({"samples": 1, "devices": [{"counter_files": ["../../etc/passwd"]}]})", "key 'devices[0].counter_files[0]': '../../etc/passwd' is not a file inside the bundle", 0},
      {"b4/manifest.json", R"({"samples": 1, "devices": [{"cc_params": {"roce_np/enable/3": [1]}}]})", "key 'devices[0].cc_params.roce_np/enable/3': expected a string or a number", 0},
  };
  for (const Case& c : cases) {
    const std::string path = dir + "/" + c.file;
    WriteFile(path, c.text);
    try {
      LoadEvidence({path.substr(0, path.rfind('/'))});
      ADD_FAILURE() << "no error for " << c.text;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.file(), path);
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.words), std::string::npos) << e.what();
    }
  }
}

// Bytes that are not UTF-8 (a scenario name written in Latin-1) do not make a summary unreadable.
TEST(DiagnoseSamples, SummaryWithLatin1NameIsRead) {
  const std::string dir = TempDir("diag");
  WriteFile(dir + "/summary.json", "{\"scenario\": \"caf\xe9\", \"sim_time_ns\": 1000, \"hosts\": {\"h0\": {\"ethtool\": "
                               "{\"rx_crc_errors_phy\": 7}}}, \"switches\": {}}\n");
  std::vector<Diagnosis> ds = Diagnose(LoadEvidence({dir}));
  EXPECT_NE(Find(ds, "bit errors on the link"), nullptr) << Dump(ds);
}

}  // namespace rocelab
