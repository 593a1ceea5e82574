// Evidence from a real Linux RDMA host: per RDMA device and its netdev, the
// port counters and hw_counters from sysfs, the DCQCN parameters
// (ecn/roce_np, ecn/roce_rp), MTU, speed and carrier changes, and the output
// of ethtool -S, mlnx_qos, dcb and rdma where those tools exist (an absent
// tool is recorded, not fatal). Two samples `interval` apart so rates can be
// computed, and a manifest with host, time and versions. Commands are run
// with execvp and an argument vector: a device name never passes through a
// shell.
#ifndef ROCELAB_COLLECT_COLLECT_H_
#define ROCELAB_COLLECT_COLLECT_H_

#include <string>
#include <vector>

namespace rocelab {

struct CollectOptions {
  std::string root = "/";  // a captured sysfs/proc tree instead of the live one
  std::string out;         // the bundle folder (must not exist)
  double interval_s = 1.0;
};

struct CollectSummary {
  int devices = 0;
  std::vector<std::string> tools;  // "name: status"
};

// Throws std::runtime_error with a clear message; leaves no partial bundle.
CollectSummary Collect(const CollectOptions& options);

}  // namespace rocelab

#endif  // ROCELAB_COLLECT_COLLECT_H_
