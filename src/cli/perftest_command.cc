// rocelab perftest TEST [--size N | -a] [--iters N] [--qps N] [--tx-depth N] [--report_gbits]
//                       [--scenario FILE] [--src h0 --dst h1]
// perftest's short options (-s, -a, -n, -q, -t) are accepted too.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli.h"
#include "scenario/scenario.h"
#include "util/units.h"
#include "workload/perftest.h"

namespace rocelab {

namespace {

// A two-host fabric through one switch: what a back-to-back perftest setup looks like.
constexpr const char* kTwoHosts =
    "name: perftest\n"
    "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 2, host_link: {rate: 100G, delay: 1us}}\n";

int Perftest(const Args& a) {
  PerftestOptions o;
  o.test = a.positional()[0];
  auto number = [&](const char* opt, int64_t lo, int64_t hi) -> int64_t {
    int64_t v;
    std::string err;
    if (!ParseInteger(a.Get(opt), &v, &err) || v < lo || v > hi)
      throw UsageError(std::string("perftest: ") + opt + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return v;
  };
  if (a.Has("--size") && a.Has("--all")) throw UsageError("perftest: give --size or -a, not both");
  if (a.Has("--size")) o.sizes = {static_cast<uint64_t>(number("--size", 1, 8388608))};
  if (a.Has("--all")) o.sizes = PerftestAllSizes();
  if (a.Has("--iters")) o.iters = static_cast<int>(number("--iters", 5, 1000000));
  if (a.Has("--qps")) o.qps = static_cast<int>(number("--qps", 1, 1024));
  if (a.Has("--tx-depth")) o.tx_depth = static_cast<int>(number("--tx-depth", 1, 15000));
  o.report_gbits = a.Has("--report_gbits");
  o.src = a.Get("--src", "h0");
  o.dst = a.Get("--dst", "h1");
  Scenario sc = a.Has("--scenario") ? LoadScenarioFile(a.Get("--scenario")) : ParseScenarioText(kTwoHosts, "<perftest>");
  // READ responses come back unacknowledged: nothing echoes their marks to the responder.
  if (o.test.rfind("read", 0) == 0 && AckDriven(sc.nic.cc))
    throw UsageError("perftest: " + o.test + " under nic.cc " + CcName(sc.nic.cc) +
                     ": READ responses get no ACKs to echo their marks or times on, so nothing would control their "
                     "rate; run it with dcqcn");
  PerftestResult r = RunPerftest(sc, o);
  std::printf("%s", r.report.c_str());
  return r.qp_error ? kExitFound : kExitOk;  // the test ran and found its queue pair failing
}

}  // namespace

void AddPerftestCommand(CLI::App* root) {
  CLI::App* c = AddCommand(root, "perftest",
                           "ib_write_bw and friends on the simulated fabric: write_bw, send_bw, read_bw, write_lat, "
                           "send_lat or read_lat",
                           Perftest, "TEST", 1, 1);
  AddValue(c, "-s,--size", "BYTES", "message size (default 65536 for bandwidth tests, 2 for latency tests)");
  AddFlag(c, "-a,--all", "every size from 2 B to 8 MB");
  AddValue(c, "-n,--iters", "N", "iterations per size (default 5000 for bandwidth, 1000 for latency)");
  AddValue(c, "-q,--qps", "N", "queue pairs (default 1)");
  AddValue(c, "-t,--tx-depth", "N", "outstanding work requests per queue pair (default 128)");
  AddFlag(c, "-R,--report_gbits", "bandwidth in Gb/s instead of MB/s");
  AddValue(c, "--scenario", "FILE", "run on this scenario's fabric instead of two hosts on one switch");
  AddValue(c, "--src", "HOST", "the client host (default h0)");
  AddValue(c, "--dst", "HOST", "the server host (default h1)");
}

}  // namespace rocelab
