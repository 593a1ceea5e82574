#include "net/flow_paths.h"

#include "net/fabric.h"

namespace rocelab {

void FlowPaths::Stamp(Packet* pkt) {
  pkt->path_hops = 0;
  if (!enabled_ || pkt->qp == Packet::kNoQp || pkt->ttl != kSendTtl) return;
  Current();  // paths worked out under routes no longer in force are forgotten first
  // Requests (WRITE data, READ requests) and what goes the other way hash apart in the ns-3
  // ECMP, so each has its own path.
  const bool request = pkt->type == PacketType::kData || pkt->type == PacketType::kReadRequest;
  const size_t at = 2 * static_cast<size_t>(pkt->qp) + request;
  if (at >= paths_.size()) paths_.resize(2 * (static_cast<size_t>(pkt->qp) + 1));
  Path& path = paths_[at];
  if (path.hops == kUnknown || !Fits(path, *pkt)) WorkOut(*pkt, &path);
  pkt->path_hops = path.hops;
  for (int i = 0; i < path.hops; ++i) pkt->path[i] = path.port[i];
}

void FlowPaths::WorkOut(const Packet& pkt, Path* path) const {
  path->src = pkt.src;
  path->dst = pkt.dst;
  path->sport = pkt.udp_sport;
  path->dport = pkt.udp_dport;
  path->hops = 0;
  // The links from the source host's port on: each after the first leaves a switch.
  const std::vector<std::pair<int, int>> links = fabric_->PathOf(pkt);
  if (links.empty() || links.size() - 1 > sizeof(path->port)) return;
  for (size_t i = 1; i < links.size(); ++i)
    if (links[i].second > UINT8_MAX) return;
  for (size_t i = 1; i < links.size(); ++i) path->port[i - 1] = static_cast<uint8_t>(links[i].second);
  path->hops = static_cast<uint8_t>(links.size() - 1);
}

bool FlowPaths::Clear() {
  epoch_ = topo_->routing_epoch();
  for (Path& path : paths_) path.hops = kUnknown;
  pool_->ForEach([](Packet& p) { p.path_hops = 0; });
  return false;
}

}  // namespace rocelab
