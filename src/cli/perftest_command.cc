// rocelab perftest TEST [--size N | -a] [--iters N] [--qps N] [--tx-depth N] [--report_gbits]
//                       [--scenario FILE] [--src h0 --dst h1]
// perftest's short options (-s, -a, -n, -q, -t) are accepted too.
#include <cstdio>
#include <map>

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

}  // namespace

int PerftestCommand(const std::vector<std::string>& argv) {
  static const std::map<std::string, std::string> kShort = {
      {"-s", "--size"}, {"-a", "--all"}, {"-n", "--iters"}, {"-q", "--qps"}, {"-t", "--tx-depth"}, {"-R", "--report_gbits"}};
  std::vector<std::string> args;
  for (const std::string& a : argv) args.push_back(kShort.count(a) ? kShort.at(a) : a);
  Args a(args, {"--size", "--iters", "--qps", "--tx-depth", "--scenario", "--src", "--dst"}, {"--all", "--report_gbits"},
         "perftest");
  if (a.positional().size() != 1)
    throw UsageError("perftest: one test is required: write_bw, send_bw, read_bw, write_lat, send_lat or read_lat");
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
  PerftestResult r = RunPerftest(sc, o);
  std::printf("%s", r.report.c_str());
  return r.qp_error ? 1 : 0;  // the test ran and found its queue pair failing
}

}  // namespace rocelab
