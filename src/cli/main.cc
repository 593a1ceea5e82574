// rocelab: the command line.
//   rocelab run SCENARIO.yaml --out DIR [--seed N] [--quiet]
//   rocelab demo --out DIR
//   rocelab schema [--json]
// Exit status: 0 success, 2 bad input or usage (nothing written), 1 internal error.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/demo_scenario.h"
#include "diagnose/diagnose.h"
#include "interop/ns3.h"
#include "report/summary.h"
#include "run/experiment.h"
#include "scenario/scenario.h"
#include "util/config_error.h"

namespace rocelab {
namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  rocelab run SCENARIO.yaml --out DIR [--seed N] [--quiet]\n"
    "  rocelab run --ns3-config config.txt --out DIR   (the HPCC ns-3 simulator's inputs)\n"
    "  rocelab demo --out DIR [--quiet]\n"
    "  rocelab plan headroom|buffer|ecn ...   (rocelab plan for details)\n"
    "  rocelab lint FABRIC_OR_SCENARIO.yaml [--json]\n"
    "  rocelab schema [--json]   (every scenario key: unit, range, default, meaning)\n"
    "  rocelab perftest write_bw|send_bw|read_bw|write_lat|send_lat|read_lat [--size N | -a] [--iters N]\n"
    "                   [--qps N]"
    " [--report_gbits] [--scenario FILE] [--src h0 --dst h1]\n"
    "  rocelab collect --out BUNDLE [--root DIR] [--interval 1s]\n"
    "  rocelab diagnose BUNDLE | RUN_OUT_DIR | FILE... [--json]\n"
    "  rocelab version\n";

void PrintReport(const Experiment& x) {
  const Fabric& f = x.fabric();
  const Totals t = ComputeTotals(f);
  const EngineStats& e = f.engine();
  int finished = 0, failed = 0;
  size_t flows = 0;
  double fct_sum = 0, fct_max = 0;
  for (const QueuePair& qp : f.qps()) {
    if (qp.open) continue;
    ++flows;
    if (qp.done) {
      ++finished;
      double fct = static_cast<double>(qp.finish - qp.start) / kMicrosecond;
      fct_sum += fct;
      if (fct > fct_max) fct_max = fct;
    }
    if (qp.failed) ++failed;
  }
  std::printf("scenario %s  seed %llu  simulated %.3f us\n", f.scenario().name.c_str(),
              static_cast<unsigned long long>(f.scenario().seed), static_cast<double>(f.now()) / kMicrosecond);
  std::printf("flows: %zu  finished %d  qp errors %d  mean FCT %.1f us  max FCT %.1f us\n", flows, finished,
              failed, finished ? fct_sum / finished : 0.0, fct_max);
  std::printf("delivered %llu B  lossless drops %llu  lossy drops %llu  PFC tx %llu rx %llu\n",
              (unsigned long long)t.bytes_delivered, (unsigned long long)t.drops_lossless,
              (unsigned long long)t.drops_lossy, (unsigned long long)t.pause_frames_tx,
              (unsigned long long)t.pause_frames_rx);
  std::printf("ECN marked %llu  CNP sent %llu handled %llu  retransmitted %llu  CRC errors %llu\n",
              (unsigned long long)t.ecn_marked, (unsigned long long)t.cnp_sent, (unsigned long long)t.cnp_handled,
              (unsigned long long)t.retransmitted_packets, (unsigned long long)t.crc_errors);
  if (flows > 1 && finished > 0) {
    std::printf("FCT slowdown   %-11s %7s %9s %9s %9s\n", "size", "flows", "p50", "p95", "p99");
    for (const SlowdownRow& r : SlowdownTable(f))
      if (r.count) std::printf("               %-11s %7zu %9.3f %9.3f %9.3f\n", r.bucket.c_str(), r.count, r.p50, r.p95, r.p99);
  }
  for (const auto& d : x.drivers()) std::printf("%s\n", d->ReportLine().c_str());
  // Long flows still running: their rates over the last fifth of the run (converged shares).
  const std::vector<uint64_t>& at_tail = x.delivered_at_tail();
  const double tail_s = static_cast<double>(f.now() - x.tail_start()) / kSecond;
  for (const QueuePair& qp : f.qps()) {
    if (qp.open || qp.done || qp.failed || qp.id >= at_tail.size() || tail_s <= 0) continue;
    const auto& names = f.topology();
    std::printf("flow %u %s -> %s still running: %.2f Gb/s over the last fifth of the run (%.1f..%.1f ms)\n", qp.id,
                names.nodes()[names.hosts()[qp.src]].name.c_str(), names.nodes()[names.hosts()[qp.dst]].name.c_str(),
                static_cast<double>(qp.delivered - at_tail[qp.id]) * 8 / tail_s / 1e9,
                static_cast<double>(x.tail_start()) / kMillisecond, static_cast<double>(f.now()) / kMillisecond);
  }
  const double sim_s = static_cast<double>(f.now()) / kSecond;
  std::printf("engine: %.3f s wall  %.2f M packet-hops/s  %.2f M events/s  sim/wall %.4f  peak RSS %llu KiB  "
              "%.0f B per in-flight packet\n",
              e.wall_s, e.wall_s > 0 ? e.packet_hops / e.wall_s / 1e6 : 0.0, e.wall_s > 0 ? e.events / e.wall_s / 1e6 : 0.0,
              e.wall_s > 0 ? sim_s / e.wall_s : 0.0, (unsigned long long)PeakRssKb(), e.bytes_per_packet);
}

// The demo ends the way an operator would: by diagnosing what it just produced.
void PrintDiagnosis(const std::string& out_dir) {
  std::vector<Diagnosis> ds = Diagnose(LoadEvidence({out_dir}));
  int problems = 0;
  for (const Diagnosis& d : ds) {
    if (d.severity == Severity::kInfo) continue;
    ++problems;
    std::printf("diagnosis: %s %s: %s (%s)\n", d.layer.c_str(), SeverityName(d.severity), d.title.c_str(), d.location.c_str());
  }
  if (!problems) std::printf("diagnosis: nothing wrong found (rocelab diagnose %s)\n", out_dir.c_str());
}

int RunScenario(Scenario sc, const std::string& out_dir, bool quiet, bool diagnose = false) {
  Experiment run(sc);  // may throw ConfigError: nothing written yet
  std::string err;
  if (!MakeDirs(out_dir, &err)) throw UsageError("--out: " + err);
  run.Run();
  WriteFileAtomically(out_dir + "/summary.json", SummaryJson(run));
  if (!quiet) {
    PrintReport(run);
    std::printf("wrote %s/summary.json\n", out_dir.c_str());
    if (diagnose) PrintDiagnosis(out_dir);
  }
  return 0;
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) throw UsageError("no command given");
  const std::string cmd = args[0];
  if (cmd == "plan") return PlanCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  if (cmd == "lint") return LintCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  if (cmd == "perftest") return PerftestCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  if (cmd == "collect") return CollectCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  if (cmd == "diagnose") return DiagnoseCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  if (cmd == "schema") return SchemaCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  if (cmd == "version" || cmd == "--version") {
    std::printf("rocelab 0.1.0\n");
    return 0;
  }
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    std::printf("%s", kUsage);
    return 0;
  }
  std::string out, file, ns3_config;
  bool quiet = false, have_seed = false;
  uint64_t seed = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--out" && i + 1 < args.size()) {
      out = args[++i];
    } else if (a == "--seed" && i + 1 < args.size()) {
      const std::string& v = args[++i];
      char* end = nullptr;
      errno = 0;
      unsigned long long s = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end || errno || v[0] == '-') throw UsageError("--seed expects a non-negative whole number");
      seed = s;
      have_seed = true;
    } else if (a == "--ns3-config" && i + 1 < args.size()) {
      ns3_config = args[++i];
    } else if (a == "--quiet") {
      quiet = true;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("unknown option '" + a + "'");
    } else if (file.empty() && cmd == "run") {
      file = a;
    } else {
      throw UsageError("unexpected argument '" + a + "'");
    }
  }
  if (cmd == "run" || cmd == "demo") {
    if (out.empty()) throw UsageError(cmd + ": --out DIR is required");
    Scenario sc;
    if (cmd == "run" && !ns3_config.empty()) {
      if (!file.empty()) throw UsageError("run: give a scenario file or --ns3-config, not both");
      Ns3Run run = LoadNs3Config(ns3_config);
      if (have_seed) run.scenario.seed = seed;
      Experiment x(run.scenario);
      std::string err;
      if (!MakeDirs(out, &err)) throw UsageError("--out: " + err);
      x.Run();
      WriteFileAtomically(out + "/summary.json", SummaryJson(x));
      WriteFileAtomically(out + "/" + run.fct_file_name, Ns3FctText(x.fabric(), run));
      if (!quiet) {
        PrintReport(x);
        std::printf("wrote %s/summary.json and %s/%s\n", out.c_str(), out.c_str(), run.fct_file_name.c_str());
      }
      return 0;
    }
    if (cmd == "run") {
      if (file.empty()) throw UsageError("run: a scenario file is required");
      sc = LoadScenarioFile(file);
    } else {
      sc = ParseScenarioText(DemoScenarioYaml(), "<demo>");
    }
    if (have_seed) sc.seed = seed;
    return RunScenario(sc, out, quiet, cmd == "demo");
  }
  throw UsageError("unknown command '" + cmd + "'");
}

}  // namespace
}  // namespace rocelab

int main(int argc, char** argv) {
  try {
    return rocelab::Main(argc, argv);
  } catch (const rocelab::ConfigError& e) {
    std::fprintf(stderr, "rocelab: error: %s\n", e.what());
    return 2;
  } catch (const rocelab::UsageError& e) {
    std::fprintf(stderr, "rocelab: %s\n%s", e.what(), rocelab::kUsage);
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "rocelab: out of memory (is the fabric or workload too large?)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rocelab: internal error: %s\n", e.what());
    return 1;
  }
}
