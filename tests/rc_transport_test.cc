// The RC transport on its own: a requester and a responder driven packet by packet
// through a carrier that records what the NIC would be asked to do.
#include "transport/rc_transport.h"

#include <gtest/gtest.h>

#include <vector>

#include "test_util.h"

namespace rocelab {
namespace {

class RecordingCarrier : public RcCarrier {
 public:
  explicit RecordingCarrier(PacketPool* pool) : pool_(pool) {}
  ~RecordingCarrier() override {
    for (Packet* p : sent) pool_->Put(p);
  }
  void SendControl(Packet* pkt) override { sent.push_back(pkt); }
  void Wake() override { ++wakes; }
  void ArmTimer(Timer, Time, uint32_t) override {}
  void Responding(uint32_t) override {}
  void Finished(QueuePair& qp) override { finished.push_back(qp.id); }

  std::vector<Packet*> sent;
  std::vector<uint32_t> finished;
  int wakes = 0;

 private:
  PacketPool* pool_;
};

struct Bench {
  Simulator sim;
  PacketPool pool;
  NicSpec spec;
  std::vector<QueuePair> qps;
  RdmaCounters rdma;
  RecordingCarrier carrier{&pool};
  RcTransport rc{&sim, &pool, &spec, 20, &qps, &rdma, &carrier};

  explicit Bench(NicSpec s = NicSpec(), Verb verb = Verb::kWrite) : spec(s) {
    spec.dscp_to_priority = DefaultDscpMap();
    QueuePair qp;
    qp.mtu = 1024;
    qp.Post(verb, 64 * 1024, 0, 0);
    qp.started = true;
    qps.push_back(qp);
    rc.Start(qps[0]);
  }
  // The requester sends `n` packets.
  void Send(int n) {
    for (int i = 0; i < n; ++i) pool.Put(rc.NextRequest(qps[0]));
  }
  void Deliver(PacketType type, uint32_t psn, uint8_t ecn = kNotEct) {
    Packet* p = pool.Get();
    p->type = type;
    p->qp = 0;
    p->psn = psn;
    p->ecn = ecn;
    p->payload = qps[0].mtu;
    rc.Receive(p);
    pool.Put(p);
  }
};

TEST(RcTransport, SequenceErrorNaksUseUpTheRetryBudget) {
  Bench b;
  ASSERT_EQ(b.spec.retry_count, 7);
  b.Send(8);
  // The same gap NAKed again and again, with no positive ACK in between: seven retries,
  // then the QP fails (IBA: retry count exceeded).
  for (int i = 0; i < 7; ++i) {
    b.Deliver(PacketType::kNak, 2);
    ASSERT_TRUE(b.carrier.finished.empty()) << "after NAK " << i + 1;
    EXPECT_EQ(b.qps[0].snd_nxt, 2u);  // went back N
    b.Send(3);
  }
  b.Deliver(PacketType::kNak, 2);
  ASSERT_EQ(b.carrier.finished.size(), 1u);
  EXPECT_TRUE(b.qps[0].failed);
  EXPECT_EQ(b.rdma.req_transport_retries_exceeded, 1u);
  EXPECT_EQ(b.rdma.packet_seq_err, 8u);
}

// A QP in error completes its oldest work request in error and flushes the ones behind it.
TEST(RcTransport, AFailedQueuePairCompletesOneInErrorAndFlushesTheRest) {
  NicSpec s;
  s.retry_count = 0;
  Bench b(s);
  b.qps[0].Post(Verb::kWrite, 4096, 0, 1);
  b.qps[0].Post(Verb::kWrite, 4096, 0, 2);
  b.Send(8);
  b.Deliver(PacketType::kNak, 2);
  ASSERT_TRUE(b.qps[0].failed);
  EXPECT_EQ(b.rdma.req_transport_retries_exceeded, 1u);
  EXPECT_EQ(b.rdma.req_cqe_error, 1u);
  EXPECT_EQ(b.rdma.req_cqe_flush_error, 2u);
}

// A READ response beyond the next expected PSN is an implied NAK: the requester asks again,
// once per gap, and that retry comes from the budget a NAK's does.
TEST(RcTransport, AnImpliedNakUsesARetry) {
  for (int retries : {1, 0}) {
    NicSpec s;
    s.retry_count = retries;
    Bench b(s, Verb::kRead);
    b.pool.Put(b.rc.NextRequest(b.qps[0]));  // one request for all 64 responses
    b.Deliver(PacketType::kReadResponse, 0);
    b.Deliver(PacketType::kReadResponse, 2);  // 1 was lost
    b.Deliver(PacketType::kReadResponse, 3);  // the same gap: no second retry (nothing for a failed QP)
    EXPECT_EQ(b.rdma.implied_nak_seq_err, retries ? 2u : 1u);
    if (retries == 1) {
      EXPECT_FALSE(b.qps[0].failed);
      EXPECT_EQ(b.qps[0].retries_left, 0);
      EXPECT_EQ(b.qps[0].snd_nxt, 1u) << "asks again from the first missing PSN";
    } else {
      EXPECT_TRUE(b.qps[0].failed) << "no retry left";
      EXPECT_EQ(b.rdma.req_transport_retries_exceeded, 1u);
    }
  }
}

TEST(RcTransport, OnlyAPositiveAckRefillsTheRetryBudget) {
  Bench b;
  b.Send(8);
  for (int i = 0; i < 5; ++i) b.Deliver(PacketType::kNak, 2 + static_cast<uint32_t>(i));  // each NAK advances
  EXPECT_EQ(b.qps[0].retries_left, 2);  // advancing NAKs do not refill it
  b.Send(3);
  b.Deliver(PacketType::kAck, 7);
  EXPECT_EQ(b.qps[0].retries_left, 7);
  EXPECT_EQ(b.qps[0].snd_una, 8u);
}

TEST(RcTransport, EchoedCongestionCountsOnlyCnpsThatLeave) {
  NicSpec s;
  s.cnp_on_ack = true;
  s.ack_every = 4;  // three of every four CE marks ride no ACK
  Bench b(s);
  b.qps[0].rp.Init(&b.spec.dcqcn, 100000000000ull);
  for (uint32_t psn = 0; psn < 8; ++psn) b.Deliver(PacketType::kData, psn, kCe);
  EXPECT_EQ(b.rdma.np_ecn_marked_roce_packets, 8u);
  EXPECT_EQ(b.carrier.sent.size(), 2u);  // two ACKs, each echoing CE
  EXPECT_EQ(b.rdma.np_cnp_sent, 2u);
}

TEST(RcTransport, OneNakPerGapUntilAnInOrderPacket) {
  Bench b;
  b.Deliver(PacketType::kData, 0);
  b.Deliver(PacketType::kData, 2);  // 1 lost: NAK 1
  b.Deliver(PacketType::kData, 3);  // same gap: nothing more
  b.Deliver(PacketType::kData, 4);
  ASSERT_EQ(b.carrier.sent.size(), 2u);  // ACK 0, NAK 1
  EXPECT_EQ(b.carrier.sent[1]->type, PacketType::kNak);
  EXPECT_EQ(b.carrier.sent[1]->psn, 1u);
  EXPECT_EQ(b.rdma.out_of_sequence, 3u);
}

// The ns-3 profile's receiver (its ReceiverCheckSeq): the same expected PSN is NAKed again only
// for an out-of-order packet arriving nak_interval (500 us) after the last NAK.
TEST(RcTransport, NakIntervalRegeneratesANakForTheSameGap) {
  NicSpec s;
  s.nak_interval = 500 * kMicrosecond;
  Bench b(s);
  auto naks = [&] {
    int n = 0;
    for (const Packet* p : b.carrier.sent) n += p->type == PacketType::kNak;
    return n;
  };
  b.Deliver(PacketType::kData, 1);  // 0 lost
  EXPECT_EQ(naks(), 1);
  b.sim.RunUntil(499 * kMicrosecond);
  b.Deliver(PacketType::kData, 2);
  EXPECT_EQ(naks(), 1);  // suppressed
  b.sim.RunUntil(500 * kMicrosecond);
  b.Deliver(PacketType::kData, 3);
  EXPECT_EQ(naks(), 2);  // regenerated
  b.sim.RunUntil(2 * kMillisecond);
  EXPECT_EQ(naks(), 2);  // not a timer: only an arrival regenerates it
}

}  // namespace
}  // namespace rocelab

namespace rocelab {
namespace {

// Retries exhausted: the QP goes to the error state and every work request not yet completed
// completes in error, the oldest with "retry count exceeded", the rest flushed, in order.
TEST(RcTransport, RetryExhaustionFlushesTheOutstandingWorkRequests) {
  Simulator sim;
  PacketPool pool;
  NicSpec spec;
  spec.dscp_to_priority = DefaultDscpMap();
  spec.retry_count = 1;
  std::vector<QueuePair> qps(1);
  QueuePair& qp = qps[0];
  qp.mtu = 1024;
  qp.open = true;
  CountCompletions listener;
  qp.listener = &listener;
  for (int m = 0; m < 3; ++m) qp.Post(Verb::kWrite, 4096, 0, m);  // 4 packets each
  qp.started = true;
  RdmaCounters rdma;
  RecordingCarrier carrier(&pool);
  RcTransport rc(&sim, &pool, &spec, 20, &qps, &rdma, &carrier);
  rc.Start(qp);
  for (int i = 0; i < 6; ++i) pool.Put(rc.NextRequest(qp));
  Packet* ack = pool.Get();
  ack->type = PacketType::kAck;
  ack->qp = 0;
  ack->psn = 3;  // the first message completes
  rc.Receive(ack);
  ack->type = PacketType::kNak;
  ack->psn = 5;  // one retry, then none left
  rc.Receive(ack);
  rc.Receive(ack);
  pool.Put(ack);
  EXPECT_EQ(listener.done, 1);
  EXPECT_TRUE(qp.failed);
  EXPECT_EQ(listener.retry_exceeded, 1);
  EXPECT_EQ(listener.flushed, 1);
  EXPECT_EQ(rdma.req_transport_retries_exceeded, 1u);
  ASSERT_EQ(carrier.finished.size(), 1u);
}

}  // namespace
}  // namespace rocelab
