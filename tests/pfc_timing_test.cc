// PFC on one 100G link between two nodes, timed to the picosecond: a received pause lasts
// its quanta (512 bit times each) unless it is refreshed or released, the congested side
// refreshes it while it stays congested, and the paused side stops only after its response
// delay. The nodes are the fabric's own Node (wire, PFC send and receive); only which frame
// goes next and what happens to an arriving one belong to the test.
#include "net/node.h"

#include <gtest/gtest.h>

#include <vector>

#include "plan/headroom.h"

namespace rocelab {
namespace {

constexpr int kPrio = 3;
constexpr uint64_t kRate = 100000000000ull;  // 100 Gb/s
constexpr Time kDelay = kMicrosecond;
constexpr uint32_t kFrame = 1000;  // data frame bytes; 1020 on the wire with preamble and IFG
constexpr Time kFrameTime = 81600;  // 1020 B x 8 / 100 Gb/s = 81.6 ns
constexpr Time kPfcFrameTime = 6720;  // 64 B + 20 B x 8 / 100 Gb/s = 6.72 ns
// One pause quantum is 512 bit times: 5.12 ns at 100 Gb/s.
constexpr Time QuantaTime(uint32_t quanta) { return static_cast<Time>(quanta) * 5120; }

// One end of the link: sends `to_send` data frames back to back on the lossless priority,
// records when each started, and asserts or releases PFC toward its peer when told.
class Endpoint : public Node {
 public:
  enum : uint32_t { kStart = kFirstNodeEvent, kAssert, kRelease };

  Endpoint(SimContext* ctx, const std::string& name) : Node(ctx, name, 1) { set_pfc_mask(1u << kPrio); }

  int to_send = 0;
  std::vector<Time> starts;  // when each data frame went on the wire

  // Data frames that started in [from, to).
  int StartsIn(Time from, Time to) const {
    int n = 0;
    for (Time s : starts) n += s >= from && s < to;
    return n;
  }
  // The first data frame that started at or after `t` (kTimeNever: none).
  Time FirstStartFrom(Time t) const {
    for (Time s : starts)
      if (s >= t) return s;
    return kTimeNever;
  }

 protected:
  Packet* NextFrame(int) override {
    if (to_send == 0 || Paused(0, kPrio)) return nullptr;
    --to_send;
    starts.push_back(Now());
    Packet* p = ctx_->pool.Get();
    p->type = PacketType::kData;
    p->frame_bytes = kFrame;
    p->priority = kPrio;
    return p;
  }
  bool HasBacklog(int) const override { return to_send > 0; }
  void OnFrame(int, Packet* pkt) override { ctx_->pool.Put(pkt); }
  void OnNodeEvent(uint32_t kind, uint32_t, Packet*) override {
    if (kind == kStart) Kick(0);
    if (kind == kAssert) AssertPause(0, kPrio);
    if (kind == kRelease) ReleasePause(0, kPrio);
  }
};

// `a` sends data to `b`; `b` pauses `a`.
struct Link {
  SimContext ctx;
  Endpoint a{&ctx, "a"}, b{&ctx, "b"};

  explicit Link(uint16_t quanta, Time response) {
    a.Connect(0, &b, 0, kRate, kDelay, 0);
    b.Connect(0, &a, 0, kRate, kDelay, 0);
    b.set_pause_quanta(quanta);
    a.port(0).pause_response = response;
    a.to_send = 100000;
    ctx.sim.Schedule(0, &a, Endpoint::kStart);
  }
  // b asserts PFC at `on` and releases it at `off`; runs until `until`.
  void Pause(Time on, Time off, Time until) {
    ctx.sim.Schedule(on, &b, Endpoint::kAssert);
    ctx.sim.Schedule(off, &b, Endpoint::kRelease);
    ctx.sim.RunUntil(until);
  }
};

TEST(PfcTiming, AStartedPortSendsBackToBack) {
  Link l(1000, 0);
  l.ctx.sim.RunUntil(10 * kMicrosecond);
  ASSERT_GT(l.a.starts.size(), 100u);
  for (size_t k = 0; k < l.a.starts.size(); ++k) ASSERT_EQ(l.a.starts[k], static_cast<Time>(k) * kFrameTime);
}

// An XOFF that is neither refreshed nor released stops the peer for exactly its quanta:
// 1000 quanta x 512 bit / 100 Gb/s = 5.12 us, from the frame's arrival (no response delay
// here), then the peer resumes on its own at once.
TEST(PfcTiming, PausedPortResumesWhenTheQuantaExpire) {
  const uint16_t q = 1000;
  Link l(q, 0);
  l.b.set_pause_expiry(false);  // b sends one XOFF and never refreshes it
  const Time on = 10 * kMicrosecond;
  l.Pause(on, kTimeNever, 40 * kMicrosecond);
  const Time arrival = on + kPfcFrameTime + kDelay;  // 11.00672 us
  const Time expiry = arrival + QuantaTime(q);       // 16.12672 us
  ASSERT_EQ(l.a.port(0).counters.rx_pause[kPrio], 1u);
  // The frame on the wire when the XOFF arrived finishes; none starts until the expiry.
  EXPECT_EQ(l.a.StartsIn(arrival, expiry), 0);
  EXPECT_EQ(l.a.FirstStartFrom(arrival - kFrameTime), arrival / kFrameTime * kFrameTime);
  EXPECT_EQ(l.a.FirstStartFrom(arrival), expiry);
  EXPECT_EQ(l.a.port(0).counters.rx_pause_transitions[kPrio], 1u);
  EXPECT_EQ(l.a.port(0).counters.rx_pause_duration[kPrio], QuantaTime(q));
}

// The paused side stops only after its response delay (the 802.1Qbb allowance at 100G:
// 394 quanta = 2.01728 us): every frame whose start falls in it still goes, back to back,
// and the quanta run from the moment the pause takes effect.
TEST(PfcTiming, PortStopsOnlyAfterTheResponseDelay) {
  const uint16_t q = 1000;
  const Time response = QuantaTime(394);
  ASSERT_EQ(response, PeerResponseTime(kRate));
  Link l(q, response);
  l.b.set_pause_expiry(false);
  const Time on = 10 * kMicrosecond;
  l.Pause(on, kTimeNever, 40 * kMicrosecond);
  const Time arrival = on + kPfcFrameTime + kDelay;
  const Time stop = arrival + response;  // 13.024 us
  // Frames start every 81.6 ns until the stop: those with start in [arrival, stop).
  const int expected = static_cast<int>((stop - 1) / kFrameTime - (arrival - 1) / kFrameTime);
  EXPECT_EQ(expected, 25);
  EXPECT_EQ(l.a.StartsIn(arrival, stop), expected);
  EXPECT_EQ(l.a.StartsIn(stop, stop + QuantaTime(q)), 0);
  EXPECT_EQ(l.a.FirstStartFrom(stop), stop + QuantaTime(q));
  EXPECT_EQ(l.a.port(0).counters.rx_pause_duration[kPrio], QuantaTime(q));
}

// While b stays congested it sends the XOFF again every half pause time (1000 quanta:
// 5.12 us, refreshed every 2.56 us), so a stays stopped for the whole 20 us although each
// frame alone would expire after 5.12 us; the XON, delayed like the XOFF by the response
// time, ends it.
TEST(PfcTiming, RefreshHoldsThePauseUntilXon) {
  const uint16_t q = 1000;
  const Time response = QuantaTime(394);
  Link l(q, response);
  const Time on = 10 * kMicrosecond, off = 30 * kMicrosecond;
  l.Pause(on, off, 60 * kMicrosecond);
  const Time refresh = QuantaTime(q) / 2;
  // XOFF at 10 us, refreshes at 10 + k x 2.56 us for k = 1..7 (17.92 us < 20 us), XON at 30 us.
  const uint64_t refreshes = static_cast<uint64_t>((off - on - 1) / refresh);
  EXPECT_EQ(refreshes, 7u);
  EXPECT_EQ(l.b.port(0).counters.tx_pause[kPrio], 1 + refreshes + 1);
  EXPECT_EQ(l.a.port(0).counters.rx_pause[kPrio], 1 + refreshes + 1);
  const Time stop = on + kPfcFrameTime + kDelay + response;
  const Time resume = off + kPfcFrameTime + kDelay + response;
  EXPECT_EQ(l.a.StartsIn(stop, resume), 0);
  EXPECT_EQ(l.a.FirstStartFrom(stop), resume);
  EXPECT_EQ(l.a.port(0).counters.rx_pause_transitions[kPrio], 1u);
  EXPECT_EQ(l.a.port(0).counters.rx_pause_duration[kPrio], off - on);
  EXPECT_EQ(l.b.port(0).counters.tx_pause_duration[kPrio], off - on);
}

// With quanta shorter than two maximum frames the refresh comes once per maximum frame
// (9216 B + 18 B header and FCS + 20 B = 9254 B, 740.32 ns at 100G), later than the
// quanta run out: 100 quanta = 512 ns. Each XOFF then stops a for exactly 512 ns, and a
// sends in between.
TEST(PfcTiming, ShortQuantaExpireBetweenRefreshes) {
  const uint16_t q = 100;
  Link l(q, 0);
  const Time refresh = 740320;
  const Time on = 10 * kMicrosecond, off = on + 27 * refresh + 600 * kNanosecond;  // b releases between pauses
  l.Pause(on, off, 60 * kMicrosecond);
  EXPECT_EQ(l.b.port(0).counters.tx_pause[kPrio], 1u + 27 + 1);
  const PortCounters& a = l.a.port(0).counters;
  EXPECT_EQ(a.rx_pause_transitions[kPrio], 28u);
  EXPECT_EQ(a.rx_pause_duration[kPrio], 28 * QuantaTime(q));
  // In each refresh period a stops for 512 ns and starts again the moment the quanta expire.
  for (int k = 0; k < 28; ++k) {
    const Time stop = on + k * refresh + kPfcFrameTime + kDelay;
    EXPECT_EQ(l.a.StartsIn(stop, stop + QuantaTime(q)), 0) << "pause " << k;
    EXPECT_EQ(l.a.FirstStartFrom(stop), stop + QuantaTime(q)) << "pause " << k;
  }
}

}  // namespace
}  // namespace rocelab
