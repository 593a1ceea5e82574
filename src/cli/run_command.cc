// rocelab run SCENARIO.yaml --out DIR [--seed N] [--counters all|nonzero|none] [--max-memory SIZE] [--prom FILE] [--no-report] [--quiet]
// rocelab run --ns3-config config.txt --out DIR
// rocelab demo --out DIR [--prom FILE] [--no-report] [--quiet]
// Both take a port capture too: --pcap FILE --pcap-port DEVICE:PORT ... (cli/pcap_options.h).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/demo_scenario.h"
#include "cli/pcap_options.h"
#include "diagnose/diagnose.h"
#include "interop/ns3.h"
#include "report/html_report.h"
#include "report/prometheus.h"
#include "report/series.h"
#include "report/summary.h"
#include "report/timeline_story.h"
#include "run/assumptions.h"
#include "run/experiment.h"
#include "run/lifecycle.h"
#include "run/memory_estimate.h"
#include "scenario/scenario.h"
#include "util/text_file.h"
#include "util/units.h"

namespace rocelab {
namespace {

std::string Ms(Time t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(t) / kMillisecond);
  return buf;
}

// A line on the terminal that says how far a long run has come: simulated time done, events/s
// and the time left. Only on a terminal, and only once the run has taken about two seconds.
class ProgressLine : public ProgressListener {
 public:
  explicit ProgressLine(Time end) : end_(end), start_(Clock::now()), last_(start_) {}
  ~ProgressLine() override {
    if (shown_) std::fprintf(stderr, "\r\033[K");
  }

  void OnProgress(Time now, uint64_t events) override {
    const Clock::time_point t = Clock::now();
    const double elapsed = Seconds(t - start_);
    if (elapsed < kAfterSeconds || Seconds(t - last_) < kEverySeconds) return;
    const double rate = static_cast<double>(events - last_events_) / Seconds(t - last_);
    last_ = t;
    last_events_ = events;
    const double done = end_ > 0 ? static_cast<double>(now) / static_cast<double>(end_) : 0;
    char eta[32] = "?";
    if (done > 0) std::snprintf(eta, sizeof eta, "%.0f s", elapsed * (1 - done) / done);
    std::fprintf(stderr, "\r\033[Ksimulated %s of %s (%.0f %%)  %.2f M events/s  ETA %s (at most)",
                 Ms(now).c_str(), Ms(end_).c_str(), 100 * done, rate / 1e6, eta);
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr double kAfterSeconds = 2.0, kEverySeconds = 0.5;
  static double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

  const Time end_;
  const Clock::time_point start_;
  Clock::time_point last_;
  uint64_t last_events_ = 0;
  bool shown_ = false;
};

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
  // Without a finished flow there is no FCT to average: say so rather than print zeros.
  if (finished)
    std::printf("flows: %zu  finished %d  qp errors %d  mean FCT %.1f us  max FCT %.1f us\n", flows, finished, failed,
                fct_sum / finished, fct_max);
  else
    std::printf("flows: %zu  finished 0  qp errors %d  FCT: no flow finished\n", flows, failed);
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
  const std::vector<Assumption> assumed = OutcomeAssumptions(f.scenario());
  if (!assumed.empty())
    std::printf("what this run takes where the sources disagree or say nothing (docs/dcqcn.md, "
                "docs/asic-profiles.md; each one key away):\n");
  for (const Assumption& a : assumed)
    std::printf("  %s: %s; or %s\n", a.key.c_str(), a.assumed.c_str(), a.alternative.c_str());
  if (f.scenario().timer_scale != 1) {
    // Pauses are not scaled: one that holds a queue pair's ACKs up longer than its scaled timeout
    // times out here and would not in production.
    const Time ack_timeout = LocalAckTimeout(f.scenario().nic.timeout);
    std::printf("timers scaled by %g: the PFC agents', the ACK timeout, link detection, route convergence and the "
                "monitor's run at %g of production's; the ACK timeout is %s (%s in production), so a pause that "
                "holds a queue pair up longer times out here and not there\n",
                f.scenario().timer_scale, f.scenario().timer_scale,
                Ms(ScaledTimer(ack_timeout, f.scenario().timer_scale)).c_str(), Ms(ack_timeout).c_str());
  }
  // Each fault, what the monitor made of it, and what it cost (run/lifecycle.h).
  const std::vector<FaultLifecycle> lifecycle = ComputeLifecycle(x);
  for (size_t i = 0; i < x.faults().records().size(); ++i) {
    const FaultInjector::Record& r = x.faults().records()[i];
    if (r.injected < 0) continue;
    std::printf("fault %s on %s: injected at %.3f ms", r.kind.c_str(), r.target.empty() ? "the routes" : r.target.c_str(),
                static_cast<double>(r.injected) / kMillisecond);
    const Monitor::Detection* d = x.FaultDetection(i);
    const Monitor::Detection* l = x.FaultLocalization(i);
    if (d)
      std::printf(", detected at %.3f ms by %s at %s (MTTD %.3f ms)", static_cast<double>(d->t) / kMillisecond,
                  d->rule.c_str(), d->location.c_str(), static_cast<double>(d->t - r.injected) / kMillisecond);
    if (const Monitor::Detection* flap = x.FlapDetection(i))
      std::printf(", as a flap at %.3f ms by %s (%.3f ms after the injection)", static_cast<double>(flap->t) / kMillisecond,
                  flap->rule.c_str(), static_cast<double>(flap->t - r.injected) / kMillisecond);
    if (l && l != d)
      std::printf(", localized at %.3f ms by %s to %s", static_cast<double>(l->t) / kMillisecond, l->rule.c_str(),
                  l->location.c_str());
    else if (d && !l)
      std::printf(", not localized");
    if (!d && x.monitor())
      std::printf(", not detected by the monitor");
    if (r.cleared >= 0) std::printf(", cleared at %.3f ms", static_cast<double>(r.cleared) / kMillisecond);
    std::printf("\n");
    if (i < lifecycle.size())
      for (const std::string& line : LifecycleLines(x, i, lifecycle[i])) std::printf("%s\n", line.c_str());
  }
  if (!lifecycle.empty()) std::printf("%s\n", CounterfactualLine(x).c_str());
  // The timeline, compactly: its story's first lines, a finding detected again and again told
  // once (report/timeline_story.h); summary.json has every event.
  const std::vector<TimelineEvent>& tl = f.timeline().events();
  const std::vector<StoryLine> story = TellTimeline(tl);
  constexpr size_t kTimelineLines = 24;
  if (!tl.empty()) std::printf("timeline: %zu events in %zu lines\n", tl.size(), story.size());
  auto us = [](Time t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f us", static_cast<double>(t) / kMicrosecond);
    return std::string(buf);
  };
  for (size_t i = 0; i < story.size() && i < kTimelineLines; ++i) {
    const TimelineEvent& ev = story[i].event;
    const std::string where = ev.port.empty() ? ev.device : ev.device + ":" + ev.port;
    std::printf("  %10.3f us  %-20s %-16s %s%s\n", static_cast<double>(ev.t) / kMicrosecond, where.c_str(), ev.event.c_str(),
                ev.detail.c_str(), RepeatNote(story[i], us(story[i].last)).c_str());
  }
  if (story.size() > kTimelineLines) std::printf("  ... %zu more lines; summary.json has every event\n", story.size() - kTimelineLines);
  const double sim_s = static_cast<double>(f.now()) / kSecond;
  std::printf("engine: %.3f s wall  %.2f M packet-hops/s  %.2f M events/s  sim/wall %.4f  peak RSS %llu KiB  "
              "(%llu KiB in huge pages)  %.0f B per in-flight packet\n",
              e.wall_s, e.wall_s > 0 ? e.packet_hops / e.wall_s / 1e6 : 0.0, e.wall_s > 0 ? e.events / e.wall_s / 1e6 : 0.0,
              e.wall_s > 0 ? sim_s / e.wall_s : 0.0, (unsigned long long)e.peak_rss_kb,
              (unsigned long long)e.huge_pages_kb, e.bytes_per_packet);
}

// The demo ends the way an operator would: by diagnosing what it just produced.
void PrintDiagnosis(const std::string& out_dir) {
  std::vector<Diagnosis> ds = Diagnose(LoadEvidence({out_dir}));
  int problems = 0, caused = 0;
  for (const Diagnosis& d : ds) {
    if (d.severity == Severity::kInfo) {
      caused += d.title.rfind("caused by the recovery: ", 0) == 0;
      continue;
    }
    ++problems;
    // As the timeline writes a detection: the tier and rule, where, what.
    const std::string tier = d.tier.empty() ? SeverityName(d.severity) : d.tier;
    std::printf("diagnosis: %s\n", MonitorDetail({tier, d.rule, d.location, d.title}).c_str());
  }
  if (!problems) std::printf("diagnosis: nothing wrong found (rocelab diagnose %s)\n", out_dir.c_str());
  if (caused)
    std::printf("diagnosis: and %d finding%s the recovery caused (rocelab diagnose %s)\n", caused, caused == 1 ? "" : "s",
                out_dir.c_str());
}

DeviceCounters CountersArg(const Args& a) {
  const std::string v = a.Get("--counters", "all");
  if (v == "all") return DeviceCounters::kAll;
  if (v == "nonzero") return DeviceCounters::kNonzero;
  if (v == "none") return DeviceCounters::kNone;
  throw UsageError(a.command() + ": --counters is all, nonzero or none");
}

// Refuses, before anything is built or written, a run the machine cannot hold.
void CheckMemory(const Args& a, const Scenario& sc, DeviceCounters counters) {
  uint64_t limit = 0;
  std::string what;
  if (a.Has("--max-memory")) {
    std::string err;
    if (!ParseSize(a.Get("--max-memory"), &limit, &err)) throw UsageError(a.command() + ": --max-memory: " + err);
    what = "--max-memory " + FormatBytes(limit);
  } else {
    limit = AvailableMemoryBytes();
    what = "the " + FormatBytes(limit) + " available on this machine";
  }
  const MemoryEstimate m = EstimateMemory(sc, counters == DeviceCounters::kAll);
  if (limit && m.total > limit)
    throw UsageError(a.command() + ": " + sc.file + " needs an estimated " + FormatBytes(m.total) + " (" + m.Describe() +
                     "), more than " + what + "; nothing was written. Use a smaller fabric" +
                     (a.Has("--max-memory") ? "." : ", or --max-memory to set the limit."));
}

// Builds, runs and writes one scenario; `extra` writes more files beside summary.json.
int RunAndWrite(const Args& a, const Scenario& sc, bool diagnose,
                const std::function<std::string(const Experiment&, const std::string&)>& extra = nullptr) {
  const std::string out = a.Require("--out");
  const DeviceCounters counters = CountersArg(a);
  const bool quiet = a.Has("--quiet");
  PcapOption pcap(a);
  CheckMemory(a, sc, counters);
  const std::string prom = a.Get("--prom");
  if (a.Has("--prom")) CheckOutputFile(prom, a.command() + ": --prom", out);
  Experiment run(sc);  // may throw ConfigError: nothing written yet
  pcap.Start(&run.fabric());
  std::string err;
  if (!MakeDirs(out, &err)) throw UsageError(a.command() + ": --out: " + err);
  // The time series go to disk as they are sampled; the file takes its name when the run is done.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> series(nullptr, &std::fclose);
  std::unique_ptr<SeriesSampler> sampler;
  if (sc.telemetry.enabled) {
    series.reset(std::fopen((out + "/series.csv.tmp").c_str(), "w"));
    if (!series) throw UsageError(a.command() + ": --out: cannot write " + out + "/series.csv");
    sampler = std::make_unique<SeriesSampler>(&run.fabric(), series.get());
  }
  {
    std::unique_ptr<ProgressLine> progress;
    if (!quiet && isatty(STDERR_FILENO)) progress = std::make_unique<ProgressLine>(sc.duration);
    run.fabric().SetProgressListener(progress.get());
    run.Run();
    run.fabric().SetProgressListener(nullptr);
  }
  {
    // The same run without its faults, for the lifecycle figures (lifecycle.counterfactual).
    std::unique_ptr<ProgressLine> progress;
    if (!quiet && isatty(STDERR_FILENO)) progress = std::make_unique<ProgressLine>(sc.duration);
    run.RunCounterfactual(progress.get());
  }
  const std::string captured = pcap.Finish();
  const std::string summary = SummaryJson(run, counters);
  WriteFileAtomically(out + "/summary.json", summary);
  // The exposition reads the summary as `rocelab export prom` would: one writer for both.
  if (a.Has("--prom")) WriteFileAtomically(prom, PrometheusText(summary, out + "/summary.json"));
  std::string also = (extra ? extra(run, out) : "") + captured + (a.Has("--prom") ? " and " + prom : "");
  if (series) {
    const bool ok = std::fflush(series.get()) == 0 && !std::ferror(series.get());
    series.reset();
    if (!ok || std::rename((out + "/series.csv.tmp").c_str(), (out + "/series.csv").c_str()) != 0)
      throw std::runtime_error("cannot write " + out + "/series.csv");
    also += " and " + out + "/series.csv (" + std::to_string(sampler->rows()) + " rows)";
  }
  // The page is made from the files just written, as `rocelab export html` would make it. A
  // summary past what the page reads (every counter of a k=64 fabric) leaves the run's results
  // as they are, without a page, and says so.
  if (!a.Has("--no-report")) {
    if (summary.size() > kMaxInputFileBytes) {
      std::fprintf(stderr,
                   "rocelab: report.html not written: summary.json is %llu MB, more than the page reads (%llu MB); "
                   "--counters nonzero keeps only the devices and ports that saw traffic\n",
                   static_cast<unsigned long long>(summary.size() >> 20),
                   static_cast<unsigned long long>(kMaxInputFileBytes >> 20));
    } else {
      WriteFileAtomically(out + "/report.html", RunReportOfFolder(out));
      also += " and " + out + "/report.html";
    }
  }
  if (!quiet) {
    PrintReport(run);
    std::printf("wrote %s/summary.json%s\n", out.c_str(), also.c_str());
    if (diagnose) PrintDiagnosis(out);
  }
  return kExitOk;
}

uint64_t SeedArg(const Args& a, uint64_t fallback) {
  if (!a.Has("--seed")) return fallback;
  int64_t s;
  std::string err;
  if (!ParseInteger(a.Get("--seed"), &s, &err) || s < 0)
    throw UsageError(a.command() + ": --seed expects a non-negative whole number");
  return static_cast<uint64_t>(s);
}

int Run(const Args& a) {
  if (a.Has("--ns3-config")) {
    if (!a.positional().empty()) throw UsageError("run: give a scenario file or --ns3-config, not both");
    Ns3Run ns3 = LoadNs3Config(a.Get("--ns3-config"));
    ns3.scenario.seed = SeedArg(a, ns3.scenario.seed);
    return RunAndWrite(a, ns3.scenario, false, [&](const Experiment& x, const std::string& out) {
      WriteFileAtomically(out + "/" + ns3.fct_file_name, Ns3FctText(x.fabric(), ns3));
      return " and " + out + "/" + ns3.fct_file_name;
    });
  }
  if (a.positional().empty()) throw UsageError("run: a scenario file is required (or --ns3-config)");
  Scenario sc = LoadScenarioFile(a.positional()[0]);
  sc.seed = SeedArg(a, sc.seed);
  return RunAndWrite(a, sc, false);
}

int Demo(const Args& a) {
  Scenario sc = ParseScenarioText(DemoScenarioYaml(), "<demo>");
  return RunAndWrite(a, sc, true);
}

void AddOutputOptions(CLI::App* c) {
  AddValue(c, "--out", "DIR", "the folder for summary.json and report.html (required; created if missing)");
  AddValue(c, "--counters", "all|nonzero|none",
           "per-device counters in summary.json: every device (default), devices and ports that saw traffic, or none");
  AddValue(c, "--max-memory", "SIZE",
           "refuse a fabric whose estimated memory exceeds this (default: the memory available on this machine)");
  AddValue(c, "--prom", "FILE", "also write the run's counters in the Prometheus text format (docs/prometheus.md)");
  AddFlag(c, "--no-report", "do not write report.html (the run's page: docs/report.md)");
  AddFlag(c, "--quiet", "print nothing; no progress line");
}

}  // namespace

void AddRunCommands(CLI::App* root) {
  CLI::App* run = AddCommand(root, "run", "Simulate a scenario and write summary.json", Run, "SCENARIO.yaml", 0, 1);
  AddOutputOptions(run);
  AddValue(run, "--seed", "N", "the random seed (default: the scenario's)");
  AddValue(run, "--ns3-config", "FILE", "run the HPCC ns-3 simulator's config.txt and its inputs instead");
  AddPcapOptions(run);
  CLI::App* demo = AddCommand(root, "demo", "The built-in demo: a NIC pause storm under a running AllReduce, the PFC watchdog acting, the timeline and the diagnosis", Demo);
  AddOutputOptions(demo);
  AddPcapOptions(demo);
}

}  // namespace rocelab
