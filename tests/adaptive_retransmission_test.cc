// ConnectX adaptive retransmission: a tail lost with nothing behind it is
// resent after the QP's short first timeout, not its 67 ms ACK timeout, and
// the QP still fails only after its whole budget without progress.
#include <gtest/gtest.h>

#include "test_util.h"

namespace rocelab {
namespace {

// One 1 MB WRITE h0 -> h1 at 100G (about 85 us on the wire), production timers; every frame on
// leaf0's link to h1 vanishes from 70 us for `drop_for`: the tail, with nothing after it to NAK.
TestRun TailLoss(const std::string& adp, Time drop_for, const std::string& cc = "dcqcn") {
  const std::string yaml =
      "duration: 1s\n"
      "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2, host_link: {rate: 100G, delay: 1us}}\n"
      "nic: {cc: " + cc + ", adaptive_retransmission: " + adp + "}\n"
      "workload:\n" + FlowsTo(0, 0, "h1", "1MB") +
      "faults:\n  - {kind: gray_drop, target: leaf0-h1, at: 70us, duration: " + std::to_string(drop_for / kNanosecond) +
      "ns, rate: 1}\n";
  return RunYaml(yaml);
}

Time Fct(const TestRun& f) {
  const QueuePair& qp = f->qps().front();
  EXPECT_TRUE(qp.done);
  return qp.finish - qp.start;
}

TEST(AdaptiveRetransmission, ATailLossIsResentAfterTheFirstShortTimeout) {
  TestRun on = TailLoss("{}", 30 * kMicrosecond);
  TestRun off = TailLoss("{enabled: false}", 30 * kMicrosecond);
  const RdmaCounters& adp = on->nics()[0]->rdma();
  const RdmaCounters& ibta = off->nics()[0]->rdma();
  // The first timeout is 4 us x 2^10..2^13 (4.1 to 32.8 ms) from the last packet sent.
  EXPECT_GT(Fct(on), 4096 * kMicrosecond);
  EXPECT_LT(Fct(on), 33 * kMillisecond);
  // The IBTA timer: 4.096 us x 2^14 = 67 ms.
  EXPECT_GT(Fct(off), 67 * kMillisecond);
  EXPECT_EQ(adp.roce_adp_retrans, 1u);
  EXPECT_EQ(adp.local_ack_timeout_err, 1u);
  EXPECT_EQ(adp.roce_adp_retrans_to, 0u) << "the first timeout is far below the ACK timeout";
  EXPECT_EQ(adp.roce_slow_restart_trans, 1u);
  EXPECT_GE(adp.rp_cnp_handled, 0u);
  EXPECT_EQ(ibta.roce_adp_retrans, 0u);
  EXPECT_EQ(ibta.local_ack_timeout_err, 1u);
}

TEST(AdaptiveRetransmission, EachExpiryDoublesTheTimeoutUpToTheAckTimeout) {
  // Everything after 70 us is lost for 40 ms: the timer expires at t0 + T, + 2T, + 4T, ...
  TestRun f = TailLoss("{initial_low: 7, initial_range: 1}", 40 * kMillisecond);
  const RdmaCounters& r = f->nics()[0]->rdma();
  // T = 512 us: expiries at 0.5, 1.5, 3.6, 7.7, 15.9, 32.3 ms after the tail, then one at 65.5 ms
  // after the drop ended (the seventh, 32.8 ms later): 7 resends.
  EXPECT_EQ(r.roce_adp_retrans, 7u);
  EXPECT_GT(Fct(f), 40 * kMillisecond);
  EXPECT_LT(Fct(f), 70 * kMillisecond);
}

TEST(AdaptiveRetransmission, TheQueuePairFailsOnlyAfterItsWholeBudget) {
  // A path that never comes back: (retry_count 7 + 1) x ACK timeout 67 ms = 537 ms without
  // progress, as the IBTA timer would fail it.
  TestRun f = TailLoss("{}", 900 * kMillisecond);
  const QueuePair& qp = f->qps().front();
  EXPECT_TRUE(qp.failed);
  EXPECT_EQ(f->nics()[0]->rdma().req_transport_retries_exceeded, 1u);
  EXPECT_GE(qp.finish - 70 * kMicrosecond, 8 * LocalAckTimeout(14));
  EXPECT_LT(qp.finish - 70 * kMicrosecond, 9 * LocalAckTimeout(14));
  EXPECT_GT(f->nics()[0]->rdma().roce_adp_retrans_to, 0u) << "the timeout grew to the ACK timeout";
}

TEST(AdaptiveRetransmission, SlowRestartIsOneKeyAway) {
  TestRun f = TailLoss("{slow_restart: false}", 30 * kMicrosecond);
  EXPECT_EQ(f->nics()[0]->rdma().roce_slow_restart, 0u);
  EXPECT_EQ(f->nics()[0]->rdma().roce_adp_retrans, 1u);
}

TEST(AdaptiveRetransmission, TheTimeBaseIsAPowerOfTwoMicroseconds) {
  const std::string base = "topology: {type: spine-leaf}\n";
  auto with = [&](const char* t) {
    return base + "nic: {adaptive_retransmission: {time_base: " + t + "}}\n";
  };
  EXPECT_EQ(ParseScenarioText(with("8us"), "t.yaml").nic.adaptive_retransmission.time_base, 8 * kMicrosecond);
  for (const char* bad : {"6us", "4500ns"}) {
    try {
      ParseScenarioText(with(bad), "t.yaml");
      ADD_FAILURE() << bad << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("power of two"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("t.yaml:2"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace rocelab
