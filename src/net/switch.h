// A shared-buffer switch. Ingress: each (port, priority group) is charged for
// the cells its packets occupy, against a dynamic threshold on the free shared
// pool (alpha x free); a lossless PG that crosses it asserts PFC XOFF upstream
// and spills into its reserved headroom. Its occupancy above the XOFF point is
// headroom use, so departures free headroom first; XON goes out once the PG has
// drained xon_offset below the threshold, or to the static XON (`pfc.xon`) if that
// is higher. Egress: eight queues per port, strict
// priority then DWRR (ETS), RED/ECN marking on the instantaneous queue.
// Forwarding: shortest-path ECMP on a hash of the 5-tuple.
//
// Under the ns-3 compatibility profile the ingress accounting is the HPCC code's
// own switch-mmu.cc instead (SwitchSpec::Mmu::kNs3Hpcc; docs/ns3-interop.md).
#ifndef ROCELAB_NET_SWITCH_H_
#define ROCELAB_NET_SWITCH_H_

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "net/node.h"
#include "scenario/scenario.h"
#include "topo/topology.h"

namespace rocelab {

class Switch : public Node {
 public:
  Switch(SimContext* ctx, const std::string& name, int num_ports, int topo_node, const Topology* topo,
         const SwitchSpec& spec);

  // Reserved headroom for each lossless PG of `port` (set after Connect).
  void SetHeadroom(int port, uint64_t bytes);
  // Computes the shared pool once all headroom is reserved: the buffer less the lossless PGs'
  // headroom, or less the shared headroom pool that holds it (pfc.over_subscribe_ratio).
  void FinishSetup();

  const SwitchSpec& spec() const { return spec_; }
  size_t StateBytes() const override {
    return Node::StateBytes() + ports_.size() * (sizeof(PortState) + sizeof(pgs_[0]) + sizeof(queues_[0]));
  }

  // Configuration changed while running (fault/fault_injector.h). Packets already buffered
  // stay charged where they are; the buffer pools keep their sizes.
  // The marking profile of egress port `port`; with `switch_wide`, also what the switch
  // reports as its ECN setting.
  const EcnSpec& port_ecn(int port) const { return port_ecn_[port]; }
  void SetPortEcn(int port, const EcnSpec& e);
  void SetConfiguredEcn(const EcnSpec& e) {
    spec_.ecn = e;
    SyncFrameConfig();
  }
  // Every port's marking as `spec` configures it (a rollback to a known configuration).
  void SetEcnFrom(const SwitchSpec& spec);
  // Classification (DSCP map and trust) and the PFC priorities.
  void SetQos(const std::array<uint8_t, 64>& dscp_to_priority, bool trust_dscp, uint8_t lossless_mask,
              uint8_t ecn_mask);
  // What the switch reports as its MTU (a port's lowered MTU acts in Node's fault state).
  void SetConfiguredMtu(uint32_t mtu) {
    spec_.mtu = mtu;
    SyncFrameConfig();
  }

  // The PFC watchdog's drop action (net/pfc_watchdog.h) on egress queue `prio` of `port`: its
  // packets are discarded and so is every new one for it, and every packet that arrives on
  // `port` on that priority, all before the buffer is charged. Counted per queue.
  void SetStormDrop(int port, int prio, bool drop);
  bool QueueEmpty(int port, int prio) const { return queues_[port][prio].fifo.empty(); }
  // Bytes waiting in an egress queue, and bytes charged to an ingress PG (shared and headroom).
  uint64_t queue_bytes(int port, int prio) const { return queues_[port][prio].fifo.bytes(); }
  uint64_t pg_bytes(int port, int pg) const { return pgs_[port][pg].shared + pgs_[port][pg].headroom; }
  uint64_t storm_tx_drops(int port, int prio) const { return storm_drops_ ? storm_drops_[port].tx[prio] : 0; }
  uint64_t storm_rx_drops(int port, int prio) const { return storm_drops_ ? storm_drops_[port].rx[prio] : 0; }
  // Frame bytes the watchdog's drop action discarded on `port`, both ways, every priority.
  uint64_t storm_drop_bytes(int port) const { return storm_drops_ ? storm_drops_[port].bytes : 0; }
  // The egress port a packet takes here now (ECMP on its 5-tuple; -1: no route). Public so that
  // the lifecycle figures can walk a queue pair's path over the routes in force (run/ring_ceiling.h).
  int Route(const Packet* pkt) const;
  // Chooses among next hops as the HPCC ns-3 code does (net/ecmp_hash.h), this switch hashing
  // with `seed` and hosts addressed by `host_ipv4` (by host index; it must outlive the switch).
  void UseNs3Ecmp(uint32_t seed, const std::vector<uint32_t>* host_ipv4) {
    ns3_seed_ = seed;
    ns3_host_ipv4_ = host_ipv4;
  }
  // The port's counters as the switch reports them. A switch counts the frames a port receives
  // once, in the PG each is charged to (a frame's arrival then writes one line fewer), so the
  // received counts of `port(i).counters` stay 0: read them here, or with `received`.
  PortCounters port_counters(int port) const;
  PortCounters::PriorityTraffic received(int port, int prio) const {
    return {pgs_[port][prio].counters.packets, pgs_[port][prio].counters.bytes};
  }
  const QueueCounters& queue_counters(int port, int q) const { return queues_[port][q].counters; }
  const PriorityGroupCounters& pg_counters(int port, int pg) const { return pgs_[port][pg].counters; }
  uint64_t headroom(int port) const { return ingress_[port].headroom; }
  // The cable the port's lossless profile was sized for, as SONiC's CABLE_LENGTH table holds it
  // (a one-way delay at 5 ns/m): the port's own cable unless a change said otherwise. Only the
  // headroom set with it follows it; the frames take the real cable's time.
  Time profile_cable(int port) const { return profile_cable_[port] >= 0 ? profile_cable_[port] : this->port(port).delay; }
  void SetProfileCable(int port, Time delay) { profile_cable_[port] = delay; }
  uint64_t shared_pool() const { return shared_size_; }
  // The shared headroom pool (0: none, each PG reserves its own), its high-water mark, and the
  // lossless frames dropped because it was full while their PG's own headroom had room.
  uint64_t headroom_pool() const { return headroom_pool_limit_ == kNoHeadroomPool ? 0 : headroom_pool_limit_; }
  uint64_t headroom_pool_watermark() const { return headroom_pool_watermark_; }
  uint64_t headroom_pool_drops() const { return headroom_pool_drops_; }
  uint64_t shared_used() const { return shared_used_; }
  uint64_t shared_watermark() const { return shared_watermark_; }
  uint64_t lossless_drops() const { return lossless_drops_; }
  uint64_t lossy_drops() const { return lossy_drops_; }
  uint64_t ecn_marked() const { return ecn_marked_; }
  uint64_t ttl_expired() const { return ttl_expired_; }
  // Frame bytes discarded at ingress for want of a route (counted in SAI_PORT_STAT_IF_IN_DISCARDS).
  uint64_t no_route_drop_bytes() const { return no_route_drop_bytes_; }

 protected:
  Packet* NextFrame(int port) override;
  bool HasBacklog(int port) const override { return port_state_[port].queued > 0; }
  void OnFrame(int port, Packet* pkt) override;
  void PrefetchFrame(int port, const Packet* pkt) const override;
  uint32_t HotLines() const override;
  const Packet* LikelyNext(int port) const override;
  void PrefetchSend(int port, const Packet* likely) const override;
  void OnNodeEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  // A line each, so that a frame's admission, and its departure later, read one line of its PG.
  struct alignas(64) PriorityGroup {
    uint64_t shared = 0;    // bytes charged to the shared pool
    uint64_t headroom = 0;  // bytes in the reserved headroom
    PriorityGroupCounters counters;
    // The PG has asked for XOFF (Xoff) and not released it since: the port's xoff_sent for this
    // priority, kept here as well so that a departure need not read the port's PFC state.
    bool xoff = false;
  };
  // Aligned, so that the queue and the counters every frame through it updates share a line.
  struct alignas(64) EgressQueue {
    PacketFifo fifo;
    QueueCounters counters;
  };
  static_assert(sizeof(PriorityGroup) == 64, "a PG fills one cache line");
  static_assert(sizeof(PacketFifo) + offsetof(QueueCounters, watermark_bytes) + sizeof(uint64_t) <= 64,
                "a queue and the counters every frame updates fill one cache line");

  // Ingress admission: charges `bytes` (in cells) to the (port, priority) PG and asserts
  // XOFF where the model says so; false when the packet must be dropped.
  bool AdmitShared(int in_port, int prio, int out, uint64_t bytes);
  bool AdmitNs3(int in_port, int prio, uint64_t bytes);
  // An admitted frame joins egress queue `prio` of `out` (after the pipeline, when it has a latency).
  void Enqueue(int out, int prio, Packet* pkt);
  enum : uint32_t {
    kPipelineExit = kFirstNodeEvent,  // arg: out port * 8 + priority, pkt: the frame
  };
  // The packet leaves its egress queue: its bytes leave its ingress PG, XON where due.
  void ReleaseShared(int in_port, int prio, uint64_t bytes);
  void ReleaseNs3(int in_port, int prio, uint64_t bytes);
  // A packet leaves its egress queue (sent or dropped): its cells leave its ingress PG.
  void Release(const Packet* pkt) {
    if (frame_.ns3_mmu) ReleaseNs3(pkt->in_port, pkt->priority, Cells(pkt->frame_bytes));
    else ReleaseShared(pkt->in_port, pkt->priority, Cells(pkt->frame_bytes));
  }
  // The HPCC code's threshold: the free shared space shifted by the port's alpha shift.
  uint64_t Ns3Threshold(int port) const {
    return ns3_free_base_ > shared_used_ ? (ns3_free_base_ - shared_used_) >> ingress_[port].ns3_shift : 0;
  }
  uint64_t Ns3SharedPart(const PriorityGroup& pg) const { return pg.shared > kNs3Reserve ? pg.shared - kNs3Reserve : 0; }
  uint64_t Cells(uint32_t frame_bytes) const {
    return (frame_bytes + frame_.cell - 1) / frame_.cell * frame_.cell;
  }
  bool Lossless(int prio) const { return frame_.lossless & (1u << prio); }
  // The priority a frame of DSCP `dscp` is classified to, under DSCP trust.
  int PriorityOfDscp(uint8_t dscp) const {
    return dscp_priority_nibbles_[(dscp & 63) >> 1] >> ((dscp & 1) * 4) & 0xF;
  }
  uint64_t DynamicLimit(double alpha) const {
    return static_cast<uint64_t>(alpha * static_cast<double>(shared_size_ - shared_used_));
  }
  void MaybeMarkEcn(int port, EgressQueue& q, int prio, Packet* pkt, bool departing);
  // HPCC's in-band telemetry: a packet that asks for it gets this hop's record as it starts
  // to leave `port` (cc/int_hop.h): the time, the bytes the port has sent (on the wire, before
  // this packet), the bytes still queued behind it, the port's rate.
  void StampInt(int port, Packet* pkt) const;
  // Hints for sending on `port`: the lines any frame sent there reads (its sending line, its
  // state, the wire it sends on), and those a frame of priority `prio` adds (its queue and the
  // port's sent counters for that priority).
  void PrefetchSendingPort(int port) const;
  void PrefetchSendingQueue(int port, int prio) const;
  // The PG (in_port, prio) asks its peer for XOFF, or releases it.
  void Xoff(int in_port, int prio) {
    pgs_[in_port][prio].xoff = true;
    AssertPause(in_port, prio);
  }
  void Xon(int in_port, int prio) {
    pgs_[in_port][prio].xoff = false;
    ReleasePause(in_port, prio);
  }
  // Copies the port's marking profile into its PortState.
  void SyncEcn(int port);

  // An egress port's own figures that every frame through it reads or writes, in one cache line:
  // where they were in arrays of their own, a frame touched a line of each.
  struct alignas(64) PortState {
    uint32_t queued = 0;     // packets waiting in the port's egress queues
    uint8_t backlogged = 0;  // a bit for each egress queue holding a frame
    uint8_t rr = 0;          // DWRR position
    uint8_t rr_fresh = 1;    // the DWRR position was just reached
    bool ecn = false;        // the port marks ECN (its profile below is port_ecn_'s)
    int32_t deficit[kNumPriorities] = {};  // DWRR deficit per queue, bytes (under quantum + a frame)
    // The marking profile's thresholds, as port_ecn_ holds them, where marking reads them.
    uint64_t kmin = 0, kmax = 0;
    double pmax = 0;
  };
  static_assert(sizeof(PortState) == 64, "a port's egress state fills one cache line");
  // An ingress port's figures, read when a PG goes into its headroom (and, under kNs3Hpcc, on
  // every admission).
  struct PortIngress {
    uint64_t headroom = 0;  // reserved headroom for each lossless PG of the port
    uint8_t ns3_shift = 3;  // kNs3Hpcc: the ingress threshold's alpha = 2^-shift
  };
  // The watchdog's drop action: per port, the priorities dropped and what was dropped.
  struct StormDrops {
    uint8_t mask = 0;
    uint64_t tx[kNumPriorities] = {}, rx[kNumPriorities] = {};
    uint64_t bytes = 0;  // frame bytes of all of them

    bool Drops(int prio) const { return mask & (1u << prio); }
    void Count(uint64_t* by_prio, int prio, uint32_t frame_bytes) {
      by_prio[prio]++;
      bytes += frame_bytes;
    }
  };

  // The configuration's fields that every frame reads, copied from spec_ (SyncFrameConfig,
  // wherever spec_ changes) onto the switch's first line of its own.
  struct FrameConfig {
    uint32_t cell = 0;
    uint32_t mtu = 0;
    uint8_t lossless = 0;       // the priorities PFC protects: lossless_mask, while PFC is on
    uint8_t ecn_mask = 0;       // the queues ECN marks (SwitchSpec::ecn_mask), PFC or not
    uint8_t strict_mask = 0;
    bool trust_dscp = false;
    bool ns3_mmu = false;  // SwitchSpec::Mmu::kNs3Hpcc
    bool mark_on_dequeue = false;
    Time pipeline_latency = 0;  // SwitchSpec::pipeline_latency
  };
  // Copies spec_ into frame_, the nibble map and the alphas, and sets the node's PFC priorities.
  void SyncFrameConfig();

  // Cold: read at setup, on a PG's way into headroom, by the ns-3 profile.
  std::vector<PortIngress> ingress_;
  std::vector<Time> profile_cable_;  // per port; -1: the port's own cable
  std::vector<EcnSpec> port_ecn_;  // the marking profile of each egress port (by its speed)

  // What every frame reads of the switch comes next, on two lines of their own (the node's
  // first line holds its ports and wires): the bases of the per-port records, the shared pool's
  // figures and the configuration's per-frame fields; the DSCP map at four bits a DSCP, and
  // what admission and release read. The round robin's quanta follow. Spread over the vectors
  // and spec_, a frame read seven or eight lines of the switch object, which a large fabric
  // seldom has in cache.
  alignas(64) std::unique_ptr<PortState[]> port_state_;
  std::unique_ptr<std::array<PriorityGroup, kNumPriorities>[]> pgs_;
  std::unique_ptr<std::array<EgressQueue, kNumPriorities>[]> queues_;
  std::unique_ptr<StormDrops[]> storm_drops_;  // null until a watchdog first drops
  uint64_t shared_size_ = 0, shared_used_ = 0;
  FrameConfig frame_;
  alignas(64) std::array<uint8_t, 32> dscp_priority_nibbles_{};  // spec_'s map, 4 bits a DSCP
  uint64_t shared_watermark_ = 0;
  double pfc_alpha_ = 0, lossy_alpha_ = 0, egress_lossy_alpha_ = 0;  // spec_'s, copied
  std::array<int32_t, kNumPriorities> quantum_{};

  // Headroom in use over all PGs, and what it may reach: the shared headroom pool's size, or
  // no limit but each PG's own when there is none. Read on a PG's way into and out of headroom.
  static constexpr uint64_t kNoHeadroomPool = ~0ull;
  uint64_t headroom_used_ = 0, headroom_pool_limit_ = kNoHeadroomPool;
  uint64_t headroom_pool_watermark_ = 0, headroom_pool_drops_ = 0;
  uint64_t ns3_free_base_ = 0;      // buffer - all ports' headroom - one reserve per port
  const Topology* topo_;
  int topo_node_;
  uint32_t ns3_seed_ = 0;
  uint64_t ecmp_seed_;
  const std::vector<uint32_t>* ns3_host_ipv4_ = nullptr;  // set: the ns-3 profile's hash
  SwitchSpec spec_;
  // kNs3Hpcc: a 4 KB reserve per ingress queue before the shared pool (switch-mmu.cc).
  static constexpr uint64_t kNs3Reserve = 4 * 1024;
  Rng ecn_rng_;
  uint64_t buffer_cells_bytes_;
  uint64_t lossless_drops_ = 0, lossy_drops_ = 0, ecn_marked_ = 0, ttl_expired_ = 0;
  uint64_t no_route_drop_bytes_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_NET_SWITCH_H_
