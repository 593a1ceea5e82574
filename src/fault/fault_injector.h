// The scenario's faults, acting on the running fabric. Each changes the model
// at its `at` and, when it has a duration, puts back what it changed at
// `at + duration`; a flap loses its signal `count` times (a link's signal, lost
// or back, is its PHYs' to report: net/link_phy.h). Every change is a
// timeline event, and summary.json lists each fault with the times it was
// injected and cleared. docs/faults.md describes each kind and the counters
// it moves.
#ifndef ROCELAB_FAULT_FAULT_INJECTOR_H_
#define ROCELAB_FAULT_FAULT_INJECTOR_H_

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "fault/fault_target.h"
#include "net/fabric.h"

namespace rocelab {

class FaultInjector final : public EventSource {
 public:
  // Resolves every target (ConfigError for one that does not fit its kind) and schedules
  // the faults on the fabric's event loop.
  explicit FaultInjector(Fabric* fabric);

  struct Record {
    std::string kind, target;
    Time injected = -1, cleared = -1;  // -1: not (yet)
  };
  const std::vector<Record>& records() const { return records_; }
  const std::vector<FaultTarget>& targets() const { return targets_; }

  void HandleEvent(uint32_t kind, uint32_t arg, Packet* pkt) override;

 private:
  enum : uint32_t { kInject, kClear, kFlapUp };
  // What a fault changed, to put back when it clears.
  struct Saved {
    std::vector<EcnSpec> port_ecn;
    EcnSpec configured_ecn;
    std::array<uint8_t, 64> dscp_to_priority{};
    bool trust_dscp = true;
    uint8_t lossless_mask = 0, ecn_mask = 0;
    std::vector<uint64_t> headroom;
    std::vector<Time> profile_cable;
    uint32_t mtu = 0;
    uint64_t drain_rate = 0;
    std::vector<std::optional<std::vector<uint16_t>>> routes;  // the exceptions the routes replaced
  };

  void Inject(size_t i);
  void Clear(size_t i);
  // The ports of the target a per-port change applies to: a port, every port of a switch,
  // a host's one port, or both ends of a link.
  std::vector<std::pair<int, int>> Ports(const FaultTarget& t) const;
  void SetEcn(size_t i, bool apply);
  void SetQos(size_t i, bool apply);
  void SetMtu(size_t i, bool apply);
  void SetHeadroom(size_t i, bool apply);
  void SetRoutes(size_t i, bool apply);
  void Log(size_t i, const char* event, const std::string& detail);

  Fabric* fabric_;
  const std::vector<FaultSpec>& specs_;
  std::vector<FaultTarget> targets_;
  std::vector<Saved> saved_;
  std::vector<int> flaps_left_;
  std::vector<Record> records_;
};

}  // namespace rocelab

#endif  // ROCELAB_FAULT_FAULT_INJECTOR_H_
