#include "run/counter_db.h"

#include "sim/rng.h"
#include "telemetry/sampler.h"

namespace rocelab {

namespace {

constexpr char kQueuePrefix = 'q', kPgPrefix = 'g';

bool IsWatermark(const std::string& counter) { return counter.find("WATERMARK") != std::string::npos; }

const char* GroupName(CounterGroup g) {
  switch (g) {
    case CounterGroup::kPort: return "port";
    case CounterGroup::kQueue: return "queue";
    case CounterGroup::kWatermark: return "watermark";
    case CounterGroup::kHost: return "host";
  }
  return "";
}

}  // namespace

CounterDb::Groups CounterDb::Split(const PortEvidence& p) {
  Groups g;
  for (int k = 0; k < kCounterGroups; ++k) g[k] = Split(p, static_cast<CounterGroup>(k));
  return g;
}

CounterMap CounterDb::Split(const PortEvidence& p, CounterGroup g) {
  if (g == CounterGroup::kPort || g == CounterGroup::kHost)
    return g == (p.is_switch ? CounterGroup::kPort : CounterGroup::kHost) ? p.counters : CounterMap{};
  CounterMap m;
  for (const auto& [prefix, blocks] : {std::pair{kQueuePrefix, &p.queues}, std::pair{kPgPrefix, &p.pgs}})
    for (const auto& [name, counters] : *blocks)
      for (const auto& [k, v] : counters)
        if (IsWatermark(k) == (g == CounterGroup::kWatermark)) m[std::string(1, prefix) + name + "|" + k] = v;
  return m;
}

void CounterDb::Join(const Groups& values, const Groups& deltas, PortEvidence* p) {
  const int own = static_cast<int>(p->is_switch ? CounterGroup::kPort : CounterGroup::kHost);
  p->counters = values[own];
  p->deltas = deltas[own];
  p->queues.clear();
  p->pgs.clear();
  for (CounterGroup g : {CounterGroup::kQueue, CounterGroup::kWatermark})
    for (const auto& [k, v] : deltas[static_cast<int>(g)]) {
      const size_t bar = k.find('|');
      auto& blocks = k[0] == kQueuePrefix ? p->queues : p->pgs;
      blocks[k.substr(1, bar - 1)][k.substr(bar + 1)] = v;
    }
}

CounterDb::CounterDb(std::function<Evidence(const std::string&)> read, std::function<Time()> clock, const Periods& periods,
                     Sampler* sampler, uint64_t seed)
    : read_(std::move(read)), periods_(periods), clock_(std::move(clock)) {
  const Evidence live = read_("");
  for (size_t i = 0; i < live.ports.size(); ++i) ports_of_[live.ports[i].device].push_back(i);
  latest_.resize(live.ports.size());
  previous_.resize(live.ports.size());
  PollAll(live, clock_());
  if (instant()) return;
  // Each group of each device on its own timer, its phase drawn from its own stream (the rest
  // of the run draws as before).
  std::vector<std::pair<std::string, bool>> devices;  // (name, is_switch), in the evidence's order
  for (const PortEvidence& p : live.ports)
    if (devices.empty() || devices.back().first != p.device) devices.push_back({p.device, p.is_switch});
  for (const auto& [device, is_switch] : devices) {
    std::vector<std::pair<CounterGroup, Time>> groups;
    if (is_switch)
      groups = {{CounterGroup::kPort, periods_.port}, {CounterGroup::kQueue, periods_.queue},
                {CounterGroup::kWatermark, periods_.watermark}};
    else
      groups = {{CounterGroup::kHost, periods_.host}};
    for (const auto& [g, period] : groups) {
      const Time phase =
          1 + static_cast<Time>(Rng(seed, NameHash(std::string("counterpoll.") + device + "." + GroupName(g))).Uniform() *
                                static_cast<double>(period - 1));
      sampler->Every(period, [this, device = device, g = g] { Poll(device, g); }, phase);
    }
  }
}

void CounterDb::PollAll(const Evidence& live, Time now) {
  for (size_t i = 0; i < live.ports.size() && i < latest_.size(); ++i) {
    const Groups g = Split(live.ports[i]);
    for (int k = 0; k < kCounterGroups; ++k) {
      previous_[i][k] = std::move(latest_[i][k]);
      latest_[i][k] = {g[k], now};
    }
  }
}

void CounterDb::Poll(const std::string& device, CounterGroup g) {
  const Time now = clock_();
  const Evidence live = read_(device);
  const std::vector<size_t>& ports = ports_of_[device];
  const int k = static_cast<int>(g);
  for (size_t j = 0; j < live.ports.size() && j < ports.size(); ++j) {
    const size_t i = ports[j];
    previous_[i][k] = std::move(latest_[i][k]);
    latest_[i][k] = {Split(live.ports[j], g), now};
  }
}

}  // namespace rocelab
