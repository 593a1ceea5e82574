// What a collector reads from a device is what the device last wrote to its
// counter database, not what the hardware counts at the moment of the read.
//
// A SONiC switch's syncd polls the ASIC in flex counter groups, each on its own
// timer, into COUNTERS_DB; a read between two polls returns the last poll's
// values. The groups and their default intervals (`counterpoll show`;
// sonic-utilities counterpoll/main.py): PORT_STAT 1 s (a port's packets, octets,
// discards, errors and PFC counters), QUEUE_STAT and PG_DROP 10 s (a queue's
// packets, drops and ECN marks; a priority group's packets and drops),
// PG_WATERMARK and QUEUE_WATERMARK 60 s. The PFC watchdog writes its own
// statistics at its poll (net/pfc_watchdog.h), and a port's oper status is
// written when it changes: both are read as they are.
//
// A host's agent reads the NIC when it is scraped: `ethtool -S` queries the
// device, and RDMA hw_counters are cached for RDMA_HW_STATS_DEFAULT_LIFESPAN
// (10 ms, include/rdma/ib_verbs.h), shorter than any scrape. Its reads come at
// its own moment in each window.
//
// Nothing lines the devices' timers up: each group of each switch, and each
// host's scrape, runs at its own phase, drawn from the seed.
#ifndef ROCELAB_RUN_COUNTER_DB_H_
#define ROCELAB_RUN_COUNTER_DB_H_

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "diagnose/evidence.h"
#include "sim/time.h"

namespace rocelab {

class Sampler;

enum class CounterGroup : uint8_t { kPort, kQueue, kWatermark, kHost };
constexpr int kCounterGroups = 4;

// One group of one port's counters as a poll wrote them, and when (-1: never polled).
struct CounterPoll {
  CounterMap values;
  Time t = -1;
};

class CounterDb {
 public:
  struct Periods {
    Time port = 0, queue = 0, watermark = 0;  // a switch's groups; 0: each read polls all of them
    Time host = 0;                            // a host's scrape
  };

  // `read(device)` reads one device's counters live (every device's for ""), its ports always
  // in one order; `clock` says when. Polls every group of every port now; with periods,
  // schedules each device's polls on `sampler`.
  CounterDb(std::function<Evidence(const std::string& device)> read, std::function<Time()> clock, const Periods& periods, Sampler* sampler,
            uint64_t seed);
  CounterDb(const CounterDb&) = delete;
  CounterDb& operator=(const CounterDb&) = delete;

  // Without periods: polls every group of every port from `live`, read at `now`.
  void PollAll(const Evidence& live, Time now);
  bool instant() const { return periods_.port == 0; }

  // Port `i`'s group `g`: its latest poll, and the one before it.
  const CounterPoll& Latest(size_t i, CounterGroup g) const { return latest_[i][static_cast<int>(g)]; }
  const CounterPoll& Previous(size_t i, CounterGroup g) const { return previous_[i][static_cast<int>(g)]; }

  // A port's counters by group (queues and priority groups flattened, "UC3|SAI_QUEUE_STAT_..."),
  // and back: the groups' maps put into `p`'s counters, deltas, queues and priority groups.
  using Groups = std::array<CounterMap, kCounterGroups>;
  static Groups Split(const PortEvidence& p);
  static CounterMap Split(const PortEvidence& p, CounterGroup g);
  static void Join(const Groups& values, const Groups& deltas, PortEvidence* p);

 private:
  void Poll(const std::string& device, CounterGroup g);

  std::function<Evidence(const std::string&)> read_;
  Periods periods_;
  std::map<std::string, std::vector<size_t>> ports_of_;  // a device's ports, as indices in the evidence
  std::vector<std::array<CounterPoll, kCounterGroups>> latest_, previous_;
  std::function<Time()> clock_;
};

}  // namespace rocelab

#endif  // ROCELAB_RUN_COUNTER_DB_H_
