// HPCC's sender (cc/hpcc.h) and its INT records (cc/int_hop.h) against hand-computed values:
// one record at a time.
#include "cc/hpcc.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rocelab {

namespace {

constexpr uint64_t k100G = 100000000000ull;
constexpr Time kBaseRtt = 10 * kMicrosecond;
constexpr uint64_t kBdp = 125000;  // 10 us at 100 Gb/s
const IntFormat kFine = IntFormat::Of(IntFormat::Kind::kFine, 4);

// A record of one 100G hop: `ns` nanoseconds, `bytes` sent by then, `qlen` queued.
uint64_t Hop(uint64_t ns, uint64_t bytes, uint64_t qlen, const IntFormat& f = kFine) {
  uint64_t code = 0;
  IntHop::RateCode(k100G, &code);
  return IntHop::Stamp(f, static_cast<Time>(ns) * kNanosecond, bytes, qlen, code);
}

// A sender on a one-hop path whose first ACK brought `first` (a reference, nothing more).
struct Sender {
  HpccParams p;
  HpccRp rp;
  explicit Sender(HpccParams params = {}) : p(params) { rp.Init(&p, k100G, kBaseRtt, kBdp); }
  // An ACK acknowledging up to `una` while `snd_nxt` is next, with one hop record.
  void Ack(uint32_t una, uint32_t snd_nxt, uint64_t hop) { rp.OnAck(una, snd_nxt, &hop, 1, kFine); }
};

}  // namespace

// A record keeps what it was given, to its units, and differences wrap with the fields.
TEST(IntHop, RecordsReadBackInTheirUnits) {
  const IntFormat ns3 = IntFormat::Of(IntFormat::Kind::kNs3, 4);  // 512 B and 320 B units
  const IntHop a(Hop(1000, 5000, 6400, ns3), ns3), b(Hop(1500, 5000 + 12500, 9000, ns3), ns3);
  EXPECT_EQ(a.rate_bps(), k100G);
  EXPECT_EQ(a.qlen(), 6400u);
  EXPECT_EQ(b.qlen(), 8960u) << "9000 B in 320 B units";
  EXPECT_EQ(b.NsSince(a), 500u);
  EXPECT_EQ(b.BytesSince(a), (17500u / 512 - 5000u / 512) * 512);
  // The fine format counts every byte; its 26 bits wrap after 64 MB, and the difference holds.
  const uint64_t wrap = uint64_t{1} << 26;
  const IntHop c(Hop(100, wrap - 1000, 0), kFine), d(Hop(200, wrap + 3000, 0), kFine);
  EXPECT_EQ(d.BytesSince(c), 4000u);
  // Time wraps after 2^24 ns.
  const IntHop e(Hop((uint64_t{1} << 24) - 10, 0, 0), kFine), g(Hop((uint64_t{1} << 24) + 30, 0, 0), kFine);
  EXPECT_EQ(g.NsSince(e), 40u);
  // A queue longer than 11 bits of 80 B saturates rather than wrapping to a small one.
  EXPECT_EQ(IntHop(Hop(0, 0, 10u << 20), kFine).qlen(), 2047u * 80);
  EXPECT_EQ(IntHop(Hop(0, 0, 8050), kFine).qlen(), 8000u);
  uint64_t code;
  EXPECT_FALSE(IntHop::RateCode(123000000000ull, &code));
}

// The first ACK's records only set the reference: the rate stays at the line.
TEST(Hpcc, TheFirstRecordsOnlySetTheReference) {
  Sender s;
  s.Ack(1, 10, Hop(0, 0, 32000));
  EXPECT_DOUBLE_EQ(s.rp.rate_bps(), 1e11);
  EXPECT_DOUBLE_EQ(s.rp.utilization(), 1.0);
}

// A round trip's ACK with a busy hop: the port sent 12,500 B in 1 us (its line rate, u = 1) and
// held 32,000 B in both records (32,000 / 125,000 = 0.256 more). U moves 1 us of the 10 us base
// RTT toward 1.256: U = (1 x 9 + 1.256 x 1) / 10 = 1.0256, and the rate is Rc / (U / 0.95) + R_AI
// = 100 Gb/s x 0.95 / 1.0256 + 40 Mb/s (the line rate / 2500). Rc moves with it.
TEST(Hpcc, ARoundTripsRecordSetsTheRateFromUtilization) {
  Sender s;
  s.Ack(1, 10, Hop(0, 0, 32000));
  s.Ack(11, 20, Hop(1000, 12500, 32000));
  const double u = (1.0 * 9 + 1.256 * 1) / 10;
  EXPECT_NEAR(s.rp.utilization(), u, 1e-9);
  const double expected = 1e11 * 0.95 / u + 4e7;
  EXPECT_NEAR(s.rp.rate_bps(), expected, 1.0);
  EXPECT_NEAR(s.rp.reference_rate_bps(), expected, 1.0);
  EXPECT_EQ(s.rp.stage(), 0);
}

// An ACK within the round trip (una not past the PSN that was next at the last update) reacts
// at once from Rc but leaves Rc where it was (FAST_REACT); without fast_react it does nothing.
TEST(Hpcc, AckWithinTheRoundTripReactsFromTheReferenceRate) {
  Sender s;
  s.Ack(1, 10, Hop(0, 0, 0));
  s.Ack(11, 20, Hop(1000, 12500, 0));  // u = 1: U = 1, rate = 100 G x 0.95 + 40 M
  const double rc = s.rp.reference_rate_bps();
  EXPECT_NEAR(rc, 95.04e9, 1.0);
  // Half a microsecond later the port sent at half its rate: u = 0.5, U = (1 x 9.5 + 0.5 x 0.5) / 10.
  s.Ack(15, 25, Hop(1500, 12500 + 3125, 0));
  const double u = (1.0 * 9.5 + 0.5 * 0.5) / 10;
  EXPECT_NEAR(s.rp.rate_bps(), std::min(1e11, rc / (u / 0.95) + 4e7), 1.0);
  EXPECT_DOUBLE_EQ(s.rp.reference_rate_bps(), rc);

  HpccParams slow;
  slow.fast_react = false;
  Sender t(slow);
  t.Ack(1, 10, Hop(0, 0, 0));
  t.Ack(11, 20, Hop(1000, 12500, 0));
  const double before = t.rp.rate_bps();
  t.Ack(15, 25, Hop(1500, 12500 + 3125, 0));
  EXPECT_DOUBLE_EQ(t.rp.rate_bps(), before);
}

// Below the target, max_stage updates add R_AI to Rc before a multiplicative one.
TEST(Hpcc, BelowTheTargetMaxStageUpdatesAreAdditive) {
  HpccParams p;
  p.max_stage = 2;
  p.rate_ai_bps = 1000000000;  // 1 Gb/s, to see it
  Sender s(p);
  s.Ack(1, 10, Hop(0, 0, 0));
  // A port at 40 % for 10 us, round trip after round trip: U falls toward 0.4.
  uint64_t ns = 0, bytes = 0;
  uint32_t psn = 10;
  auto round_trip = [&] {
    ns += 10000;
    bytes += 50000;
    s.Ack(psn + 1, psn + 10, Hop(ns, bytes, 0));
    psn += 10;
  };
  round_trip();
  EXPECT_NEAR(s.rp.rate_bps(), 1e11, 1.0) << "Rc + 1 Gb/s, held at the line";
  EXPECT_EQ(s.rp.stage(), 1);
  round_trip();
  EXPECT_EQ(s.rp.stage(), 2);
  round_trip();  // the third is multiplicative: Rc / (U / eta) is past the line, held there
  EXPECT_EQ(s.rp.stage(), 0);
  EXPECT_NEAR(s.rp.utilization(), 0.4, 1e-9);
}

// The rate never falls below min_rate, whatever the records say.
TEST(Hpcc, CutsStopAtMinRate) {
  Sender s;
  s.Ack(1, 10, Hop(0, 0, 500000));
  uint32_t psn = 10;
  for (uint64_t ns = 10000; ns <= 200000; ns += 10000, psn += 10)
    s.Ack(psn + 1, psn + 10, Hop(ns, ns * 12500 / 1000, 500000));  // a 500 KB queue, the port at line rate
  EXPECT_DOUBLE_EQ(s.rp.rate_bps(), 1e8);
}

// sample_feedback: a fast reaction skips a hop whose queue is empty; a round trip's update does not.
TEST(Hpcc, SampleFeedbackSkipsEmptyQueuesBetweenUpdates) {
  HpccParams p;
  p.sample_feedback = true;
  Sender s(p);
  s.Ack(1, 10, Hop(0, 0, 0));
  s.Ack(11, 20, Hop(1000, 12500, 0));  // a round trip's: it counts, queue or not
  const double after_update = s.rp.rate_bps();
  EXPECT_NEAR(after_update, 95.04e9, 1.0);
  s.Ack(15, 25, Hop(1500, 12500 + 3125, 0));  // within the round trip, queue empty: skipped
  EXPECT_DOUBLE_EQ(s.rp.rate_bps(), after_update);
  s.Ack(16, 25, Hop(2000, 12500 + 3125 + 6250, 8000));  // a queue: it counts
  EXPECT_NE(s.rp.rate_bps(), after_update);
}

// More hops than the header holds (five): the records are not the path's and are ignored.
TEST(Hpcc, APathLongerThanTheHeaderIsIgnored) {
  HpccParams p;
  HpccRp rp;
  rp.Init(&p, k100G, kBaseRtt, kBdp);
  uint64_t hops[kMaxIntHops];
  for (int i = 0; i < kMaxIntHops; ++i) hops[i] = Hop(0, 0, 0);
  rp.OnAck(1, 10, hops, 5, kFine);
  for (int i = 0; i < kMaxIntHops; ++i) hops[i] = Hop(1000, 25000, 100000);  // twice the line: a cut
  rp.OnAck(11, 20, hops, 6, kFine);
  EXPECT_DOUBLE_EQ(rp.rate_bps(), 1e11);
  rp.OnAck(21, 30, hops, 5, kFine);
  EXPECT_LT(rp.rate_bps(), 1e11);
}

}  // namespace rocelab
