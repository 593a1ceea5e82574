// PFC headroom: the bytes a lossless priority group must still absorb after
// it decides to pause its peer. The IEEE 802.1Qbb method (802.1Qbb annex N;
// the same terms SONiC's headroom calculation uses) adds
//   our frame in flight      the frame we are sending delays our PFC frame
//   PFC frame                64 B + preamble and IFG
//   cable round trip         bytes on the wire there and back
//   peer response            the time the peer may take to act, in quanta
//   peer frame in flight     the frame it has started keeps coming
// and rounds up to whole buffer cells.
#ifndef ROCELAB_PLAN_HEADROOM_H_
#define ROCELAB_PLAN_HEADROOM_H_

#include <cstdint>

#include "sim/time.h"

namespace rocelab {

// Pause quanta a peer may take to respond, by port speed, as SONiC's headroom
// calculation tabulates them (sonic-swss cfgmgr/buffer_headroom_mellanox.lua):
// 10G 67, 25G 80, 40G 118, 50G 147, 100G 394, 200G 453, 400G 905. Speeds in
// between take the next higher entry; above 400G, scaled from 400G.
uint32_t PeerResponseQuanta(uint64_t rate_bps);
Time PeerResponseTime(uint64_t rate_bps);

struct HeadroomBreakdown {
  uint64_t our_frame = 0;
  uint64_t pfc_frame = 0;
  uint64_t cable_round_trip = 0;
  uint64_t peer_response = 0;
  uint64_t peer_frame = 0;
  // The buffer charges whole cells per frame: a stream of F-byte frames fills
  // ceil(F / cell) x cell bytes. This term covers that waste for the frames the round trip
  // is taken to carry: a share of 64 B ones, a cell each, the rest the full RoCE data frame
  // that wastes most (0 when neither is given).
  uint64_t cell_overhead = 0;
  uint64_t cell_rounding = 0;
  uint64_t total = 0;
};

// `fill_frame`: the data frame whose cell waste the headroom must cover (0: bytes only);
// `small_percent`: the share of the round trip's frames taken to be 64 B ones (SONiC's
// small_packet_percentage), the rest `fill_frame` (or the largest frame).
HeadroomBreakdown Ieee8021QbbHeadroom(uint64_t rate_bps, Time one_way_delay, uint32_t max_frame, uint32_t cell,
                                      uint32_t response_quanta, uint32_t fill_frame = 0, int small_percent = 0);

// A line-rate burst of minimum-size frames (RoCE ACKs are 66 B: ACKs queued behind a pause
// leave together when it ends) charges a whole cell per frame, so it fills a headroom sized
// for data frames several times faster than the bytes say. `covered` is how long such a burst
// takes to fill `h.total`; `round_trip` how long the headroom must absorb (every term but the
// cells', at line rate); `all_small_total` the headroom that would cover the round trip in such
// frames (what SONiC's small_packet_percentage 100 aims at).
struct SmallFrameBurst {
  Time covered = 0, round_trip = 0;
  uint64_t all_small_total = 0;
  bool overflows() const { return covered < round_trip; }
};
SmallFrameBurst SmallFrameBurstOf(const HeadroomBreakdown& h, uint64_t rate_bps, uint32_t cell);

struct Scenario;
struct SwitchSpec;
// Of the full RoCE data frames the scenario's NICs send (MTU payload plus headers), the
// one that wastes the largest share of its cells. Not SONiC's 50 %-small-packet blend:
// at MTU 256 a frame of 318 B fills two 256 B cells, 61 % more than its bytes, and a
// blend sized for less overflows under an incast of such frames.
uint32_t WorstCellFillFrame(const Scenario& sc, uint32_t cell);
// The headroom a switch reserves per lossless PG on a port of this speed and cable:
// configured, or (headroom: auto) the 802.1Qbb sum for the port MTU, in the cells of its
// small_packet_percentage of 64 B frames and the rest `fill_frame` frames.
uint64_t PortHeadroom(const SwitchSpec& spec, uint64_t rate_bps, Time one_way_delay, uint32_t fill_frame);

// What a switch takes out of its buffer for the headroom of all its lossless PGs, whose sum is
// `sum`: all of it, each PG its own (`over_subscribe_ratio` 0), or SONiC's shared headroom pool,
// the sum over the ratio in whole cells (doc/qos/shared-headroom-pool.md: congestion seldom
// reaches every PG at once, so the pool bets on how many will be in headroom together).
uint64_t ReservedHeadroom(uint64_t sum, double over_subscribe_ratio, uint32_t cell);

}  // namespace rocelab

#endif  // ROCELAB_PLAN_HEADROOM_H_
