#include "workload/generators.h"

#include <algorithm>
#include <cmath>

#include "sim/packet.h"
#include "util/config_error.h"
#include "workload/flow_size_cdf.h"

namespace rocelab {

namespace {

int HostIndex(const Topology& topo, const std::string& name) {
  return topo.nodes()[topo.FindNode(name)].kind_index;
}

std::vector<int> HostList(const Topology& topo, const std::vector<NameRef>& names) {
  std::vector<int> out;
  if (names.empty()) {
    for (size_t h = 0; h < topo.hosts().size(); ++h) out.push_back(static_cast<int>(h));
  } else {
    for (const NameRef& n : names) out.push_back(HostIndex(topo, n.name));
  }
  return out;
}

}  // namespace

std::vector<FlowRequest> GenerateFlows(const Scenario& sc, const Topology& topo) {
  std::vector<FlowRequest> flows;
  const int hosts = static_cast<int>(topo.hosts().size());
  for (const FlowSpec& f : sc.flows)
    flows.push_back({HostIndex(topo, f.src.name), HostIndex(topo, f.dst.name), f.size, f.start, f.dscp, f.background,
                     f.background ? f.rto : 0, -1, f.udp_sport, f.udp_dport});

  for (size_t i = 0; i < sc.incasts.size(); ++i) {
    const IncastSpec& in = sc.incasts[i];
    const int dst = HostIndex(topo, in.dst.name);
    std::vector<int> senders;
    for (const NameRef& s : in.senders) senders.push_back(HostIndex(topo, s.name));
    for (int h = 0; h < hosts && static_cast<int>(senders.size()) < in.sender_count; ++h)
      if (h != dst) senders.push_back(h);
    if (in.sender_count > 0 && static_cast<int>(senders.size()) < in.sender_count)
      throw ConfigError(sc.file, in.line, "workload", "an incast of " + std::to_string(in.sender_count) +
                                                          " senders needs that many hosts besides the receiver");
    Rng rng(sc.seed, 0x1CA5700ull + i);
    for (int s : senders) {
      for (int q = 0; q < in.qps; ++q) {
        const Time jitter = in.jitter > 0 ? static_cast<Time>(rng.Below(static_cast<uint64_t>(in.jitter) + 1)) : 0;
        flows.push_back({s, dst, in.size, in.start + jitter, in.dscp});
      }
    }
  }

  for (size_t i = 0; i < sc.permutations.size(); ++i) {
    const PermutationSpec& p = sc.permutations[i];
    if (hosts < 2) throw ConfigError(sc.file, p.line, "workload", "a permutation needs at least two hosts");
    // A random derangement: every host sends to one other host and receives from one.
    Rng rng(sc.seed, 0x9E0000ull + i);
    std::vector<int> perm(hosts);
    for (int h = 0; h < hosts; ++h) perm[h] = h;
    for (;;) {
      for (int h = hosts - 1; h > 0; --h) std::swap(perm[h], perm[rng.Below(static_cast<uint64_t>(h) + 1)]);
      bool fixed = false;
      for (int h = 0; h < hosts; ++h) fixed |= perm[h] == h;
      if (!fixed) break;
    }
    for (int h = 0; h < hosts; ++h) flows.push_back({h, perm[h], p.size, p.start, p.dscp});
  }

  for (const AllToAllSpec& a : sc.all_to_alls) {
    std::vector<int> list = HostList(topo, a.hosts);
    for (int s : list)
      for (int d : list)
        if (s != d) flows.push_back({s, d, a.size, a.start, a.dscp});
  }

  for (size_t i = 0; i < sc.traces.size(); ++i) {
    const TraceSpec& t = sc.traces[i];
    const FlowSizeCdf cdf = FlowSizeCdf::Load(t.cdf_path);
    std::vector<int> list = HostList(topo, t.hosts);
    if (list.size() < 2) throw ConfigError(sc.file, t.line, "workload", "a trace needs at least two hosts");
    std::vector<FlowRequest> trace;
    for (int h : list) {
      // Poisson arrivals at `load` of this host's link rate: mean gap = mean size x 8 / (load x rate).
      const double rate = static_cast<double>(topo.nodes()[topo.hosts()[h]].ports[0].link.rate_bps);
      const double mean_gap_ps = cdf.MeanBytes() * 8.0 / (t.load * rate) * 1e12;
      Rng rng(sc.seed, 0x7ACE0000ull + i * 65536 + static_cast<uint64_t>(h));
      double at = static_cast<double>(t.start);
      for (;;) {
        at += -std::log(1.0 - rng.Uniform()) * mean_gap_ps;
        if (at >= static_cast<double>(t.start + t.duration)) break;
        int dst = list[rng.Below(list.size() - 1)];
        if (dst == h) dst = list.back();
        trace.push_back({h, dst, cdf.Sample(rng), static_cast<Time>(at), t.dscp});
        trace.back().trace = static_cast<int>(i);
      }
    }
    std::stable_sort(trace.begin(), trace.end(), [](const FlowRequest& a, const FlowRequest& b) { return a.start < b.start; });
    flows.insert(flows.end(), trace.begin(), trace.end());
  }
  return flows;
}

}  // namespace rocelab
