// rocelab sweep CAMPAIGN.yaml --out DIR [-j N] [--shard I/N] [--resume] [--counters all|nonzero|none]
//                                       [--max-memory SIZE] [--report] [--quiet]
// rocelab sweep --table DIR [--metrics A,B,...] [--csv FILE]
// rocelab sweep --plot DIR --x KEY --metric M [--html FILE]
// rocelab sweep merge OUT SHARD_DIR...
// Under mpirun the same command line runs on every rank (cli/sweep_mpi.h). docs/sweep.md.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/sweep_mpi.h"
#include "cli/sweep_run.h"
#include "run/memory_estimate.h"
#include "sweep/campaign.h"
#include "sweep/merge.h"
#include "sweep/results_db.h"
#include "sweep/sweep_plot.h"
#include "sweep/sweep_table.h"
#include "util/units.h"

namespace rocelab {
namespace {

struct SweepOptions {
  std::string campaign, out;
  int jobs = 1;
  int shard = 0, shards = 1;
  bool resume = false, quiet = false;
  RunOutputs outputs;
  uint64_t max_memory = 0;  // 0: what the machine has
};

int Integer(const std::string& text, const std::string& what, int lo) {
  int64_t v = 0;
  std::string err;
  if (!ParseInteger(text, &v, &err) || v < lo || v > 1 << 20)
    throw UsageError("sweep: " + what + " expects a whole number from " + std::to_string(lo));
  return static_cast<int>(v);
}

SweepOptions ReadOptions(const Args& a) {
  SweepOptions o;
  if (a.positional().empty()) throw UsageError("sweep: a campaign file is required (or --table DIR, or --plot DIR)");
  o.campaign = a.positional()[0];
  o.out = a.Require("--out");
  if (a.Has("--jobs")) o.jobs = Integer(a.Get("--jobs"), "-j", 1);
  if (a.Has("--shard")) {
    const std::string s = a.Get("--shard");
    const size_t slash = s.find('/');
    if (slash == std::string::npos) throw UsageError("sweep: --shard is I/N: this job's slice, 0 to N-1, of N");
    o.shard = Integer(s.substr(0, slash), "--shard I", 0);
    o.shards = Integer(s.substr(slash + 1), "--shard N", 1);
    if (o.shard >= o.shards) throw UsageError("sweep: --shard " + s + ": I counts from 0 to N-1");
  }
  o.resume = a.Has("--resume");
  o.quiet = a.Has("--quiet");
  const std::string counters = a.Get("--counters", "all");
  bool known = false;
  for (DeviceCounters c : {DeviceCounters::kAll, DeviceCounters::kNonzero, DeviceCounters::kNone})
    if (counters == DeviceCountersName(c)) o.outputs.counters = c, known = true;
  if (!known) throw UsageError("sweep: --counters is all, nonzero or none");
  o.outputs.report = a.Has("--report");
  if (a.Has("--max-memory")) {
    std::string err;
    if (!ParseSize(a.Get("--max-memory"), &o.max_memory, &err)) throw UsageError("sweep: --max-memory: " + err);
  }
  for (const char* table_only : {"--metrics", "--csv"})
    if (a.Has(table_only)) throw UsageError(std::string("sweep: ") + table_only + " goes with --table DIR");
  for (const char* plot_only : {"--x", "--metric", "--html"})
    if (a.Has(plot_only)) throw UsageError(std::string("sweep: ") + plot_only + " goes with --plot DIR");
  return o;
}

// One sweep of a folder at a time: a second one would make the same runs again.
class FolderLock {
 public:
  explicit FolderLock(const std::string& dir) : fd_(::open((dir + "/sweep.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw UsageError("sweep: --out: cannot write in " + dir);
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      throw UsageError("sweep: another sweep is writing " + dir + " now; wait for it, or give another --out");
    }
  }
  ~FolderLock() { ::close(fd_); }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_;
};

std::string JsonList(const std::vector<std::string>& v) { return nlohmann::json(v).dump(); }

std::vector<std::string> ReadJsonList(const std::string& text) {
  std::vector<std::string> v;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_array())
    for (const auto& s : j)
      if (s.is_string()) v.push_back(s.get<std::string>());
  return v;
}

// Loads and checks the campaign, then opens (or makes) the folder and its database: a bad
// campaign is refused before anything is written.
SweepPlan Prepare(const SweepOptions& o, std::unique_ptr<FolderLock>* lock, std::unique_ptr<ResultsDb>* db) {
  SweepPlan plan;
  plan.campaign = LoadCampaign(o.campaign);
  const Campaign& c = plan.campaign;
  // Each of the -j runs at once needs its own memory.
  const uint64_t available = AvailableMemoryBytes();
  const uint64_t limit = o.max_memory ? o.max_memory : available / static_cast<uint64_t>(o.jobs);
  const std::string what = o.max_memory ? "--max-memory " + FormatBytes(o.max_memory)
                                        : FormatBytes(available) + " available on this machine, shared by " +
                                              std::to_string(o.jobs) + " runs at once (-j)";
  CheckEveryRun(c, limit, what);
  const std::string path = ResultsPath(o.out);
  const bool exists = ::access(path.c_str(), F_OK) == 0;
  if (exists && !o.resume)
    throw UsageError("sweep: " + o.out + " holds a sweep already: --resume goes on with it; or give another --out");
  std::string err;
  if (!MakeDirs(o.out, &err)) throw UsageError("sweep: --out: " + err);
  *lock = std::make_unique<FolderLock>(o.out);
  const std::string shard = o.shards > 1 ? std::to_string(o.shard) + "/" + std::to_string(o.shards) : "";
  if (exists) {
    *db = ResultsDb::Open(path);
    if ((*db)->Meta("base_digest") != c.base_digest)
      throw UsageError("sweep: --resume: " + path + " holds runs of another base scenario than " + c.base_file +
                       "'s; resume with the campaign that made it, or give another --out");
    if ((*db)->Meta("shard") != shard)
      throw UsageError("sweep: --resume: " + o.out + " holds " +
                       ((*db)->Meta("shard").empty() ? "a whole sweep" : "shard " + (*db)->Meta("shard")) +
                       ", not " + (shard.empty() ? "a whole sweep" : "shard " + shard));
    std::vector<std::string> keys = ReadJsonList((*db)->Meta("keys"));  // a grid may have grown
    for (const std::string& k : c.keys)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    (*db)->SetMeta("keys", JsonList(keys));
  } else {
    *db = ResultsDb::Create(path, {{"campaign", o.campaign},
                                   {"base_digest", c.base_digest},
                                   {"keys", JsonList(c.keys)},
                                   {"metrics", JsonList(c.metrics)},
                                   {"shard", shard}});
  }
  const std::set<std::string> done = (*db)->Ids();
  for (const SweepRun& r : c.runs)
    if (static_cast<int>(r.index % static_cast<size_t>(o.shards)) == o.shard && !done.count(r.id))
      plan.todo.push_back(r.index);
  return plan;
}

int Sweep(const Args& a) {
  const SweepOptions o = ReadOptions(a);
  const int ranks = LaunchedRanks();
  if (ranks > 1 && !HaveMpi())
    throw UsageError("sweep: started by mpirun, but this rocelab was built without MPI (install libopenmpi-dev and "
                     "build again); without mpirun, -j N runs on this machine's cores");
  if (ranks > 1 && o.jobs > 1) throw UsageError("sweep: -j is for one machine; under mpirun each rank makes one run at a time");

  std::unique_ptr<FolderLock> lock;
  std::unique_ptr<ResultsDb> db;
  size_t total = 0, recorded = 0, failed = 0;
  const auto prepare = [&] {
    SweepPlan plan = Prepare(o, &lock, &db);
    total = plan.todo.size();
    if (!o.quiet) {
      std::printf("sweep %s: %zu runs%s, %zu to make%s\n", o.campaign.c_str(), plan.campaign.runs.size(),
                  o.shards > 1 ? (" (shard " + std::to_string(o.shard) + "/" + std::to_string(o.shards) + ")").c_str() : "",
                  total, ranks > 1 ? (" on " + std::to_string(ranks - 1) + " ranks").c_str()
                                   : (" on " + std::to_string(o.jobs) + " core" + (o.jobs > 1 ? "s" : "")).c_str());
      std::fflush(stdout);
    }
    return plan;
  };
  const RunDone done = [&](const SweepRun& run, const std::string* summary, const std::string& error) {
    if (!summary) {
      ++failed;
      std::fprintf(stderr, "rocelab sweep: run %s (%s) failed: %s\n", run.id.c_str(), OverridesText(run).c_str(),
                   error.c_str());
      return;
    }
    if (!db->Record({run.id, static_cast<int64_t>(run.index), OverridesJson(run), *summary}))
      std::fprintf(stderr, "rocelab sweep: run %s was recorded already: made twice, kept once\n", run.id.c_str());
    ++recorded;
    if (!o.quiet) {
      std::printf("[%zu/%zu] %s  %s\n", recorded + failed, total, run.id.c_str(), OverridesText(run).c_str());
      std::fflush(stdout);
    }
  };
  if (ranks > 1) {
    const int status = SweepOverMpi(o.campaign, o.out, o.outputs, prepare, done);
    if (!db) return status;  // a rank other than 0
  } else {
    RunLocally(prepare(), o.jobs, o.out, o.outputs, done);
  }
  if (!o.quiet) std::printf("%zu runs recorded in %s; see them: rocelab sweep --table %s\n", db->Count(),
                            db->path().c_str(), o.out.c_str());
  if (failed) {
    std::fprintf(stderr, "rocelab sweep: %zu of %zu runs failed; --resume makes them again\n", failed, total);
    return kExitInternal;
  }
  return kExitOk;
}

int Table(const Args& a) {
  if (!a.positional().empty() || a.Has("--out"))
    throw UsageError("sweep: --table DIR shows a sweep made already: no campaign or --out with it");
  for (const char* plot_only : {"--x", "--metric", "--html"})
    if (a.Has(plot_only)) throw UsageError(std::string("sweep: ") + plot_only + " goes with --plot DIR");
  const std::string dir = a.Get("--table");
  const std::unique_ptr<ResultsDb> db = ResultsDb::Open(ResultsPath(dir));
  std::vector<std::string> metrics = ReadJsonList(db->Meta("metrics"));
  if (a.Has("--metrics")) {
    metrics.clear();
    std::string list = a.Get("--metrics") + ",";
    for (size_t at = 0, comma; (comma = list.find(',', at)) != std::string::npos; at = comma + 1)
      if (comma > at) metrics.push_back(list.substr(at, comma - at));
    if (metrics.empty()) throw UsageError("sweep: --metrics names one or more metrics: fct_p99_slowdown,pause_frames_tx");
  }
  const SweepTable t = MakeSweepTable(db->Runs(), ReadJsonList(db->Meta("keys")), metrics, db->path());
  if (!a.Has("--csv")) {
    std::printf("%s", TableText(t).c_str());
    return kExitOk;
  }
  const std::string csv = a.Get("--csv");
  if (csv == "-") {
    std::printf("%s", TableCsv(t).c_str());
    return kExitOk;
  }
  CheckOutputFile(csv, "sweep: --csv");
  WriteFileAtomically(csv, TableCsv(t));
  std::printf("wrote %s (%zu runs)\n", csv.c_str(), t.rows.size());
  return kExitOk;
}

int Plot(const Args& a) {
  if (!a.positional().empty() || a.Has("--out") || a.Has("--table"))
    throw UsageError("sweep: --plot DIR draws a sweep made already: no campaign, --out or --table with it");
  for (const char* table_only : {"--metrics", "--csv"})
    if (a.Has(table_only)) throw UsageError(std::string("sweep: ") + table_only + " goes with --table DIR");
  const std::string dir = a.Get("--plot");
  const std::string x = a.Require("--x"), metric = a.Require("--metric");
  const std::string html = a.Get("--html", dir + "/plot.html");
  CheckOutputFile(html, "sweep: --html");
  const std::unique_ptr<ResultsDb> db = ResultsDb::Open(ResultsPath(dir));
  const XYChart chart = MakeSweepPlot(db->Runs(), ReadJsonList(db->Meta("keys")), x, metric, db->path());
  WriteFileAtomically(html, SweepPlotHtml(chart, dir));
  std::printf("wrote %s (%s; %s)\n", html.c_str(), chart.title.c_str(), chart.note.c_str());
  return kExitOk;
}

int SweepOrTable(const Args& a) { return a.Has("--plot") ? Plot(a) : a.Has("--table") ? Table(a) : Sweep(a); }

int Merge(const Args& a) {
  const std::vector<std::string>& dirs = a.positional();
  const std::vector<std::string> shards(dirs.begin() + 1, dirs.end());
  const MergeCount n = MergeSweeps(dirs[0], shards);
  std::printf("merged %zu runs from %zu sweeps into %s%s\n", n.added, shards.size(), ResultsPath(dirs[0]).c_str(),
              n.duplicates ? (" (" + std::to_string(n.duplicates) + " found twice with the same result)").c_str() : "");
  return kExitOk;
}

}  // namespace

void AddSweepCommand(CLI::App* root) {
  CLI::App* sweep = AddCommand(root, "sweep",
                               "Run a campaign: a base scenario under a grid or list of overrides, in parallel, into one "
                               "results database (docs/sweep.md)",
                               SweepOrTable, "CAMPAIGN.yaml", 0, 1);
  AddValue(sweep, "--out", "DIR", "the sweep's folder: results.sqlite and runs/<id>/ (required; created if missing)");
  AddValue(sweep, "-j,--jobs", "N", "runs at once on this machine, each in its own process (default 1)");
  AddValue(sweep, "--shard", "I/N", "make only slice I (0..N-1) of N: the runs whose number mod N is I");
  AddFlag(sweep, "--resume", "go on with the sweep in --out: make only the runs it has not recorded");
  AddValue(sweep, "--counters", "all|nonzero|none", "per-device counters in each summary.json (as run; default all)");
  AddValue(sweep, "--max-memory", "SIZE",
           "refuse a run whose estimated memory exceeds this (default: the memory available, shared by -j runs)");
  AddFlag(sweep, "--report", "also write each run's report.html (docs/report.md); without it a sweep writes none");
  AddFlag(sweep, "--quiet", "print nothing but errors");
  AddValue(sweep, "--table", "DIR", "print a sweep's results: a row a run, its overrides and metrics");
  AddValue(sweep, "--metrics", "A,B,...",
           "with --table: the metrics to show (key figures, or key paths into summary.json such as totals.cnp_handled)");
  AddValue(sweep, "--csv", "FILE", "with --table: write the table as CSV to FILE (- for stdout)");
  AddValue(sweep, "--plot", "DIR", "draw a metric of a sweep against a swept key, as an HTML page (--x, --metric)");
  AddValue(sweep, "--x", "KEY", "with --plot: the swept key along the x axis (switch.ecn.kmin)");
  AddValue(sweep, "--metric", "M", "with --plot: the metric (a key figure, or a key path into summary.json)");
  AddValue(sweep, "--html", "FILE", "with --plot: where to write the page (default DIR/plot.html)");
  AddCommand(sweep, "merge", "Combine the folders of a campaign's shards (--shard I/N) into one sweep folder", Merge,
             "OUT SHARD_DIR...", 2, -1);
}

}  // namespace rocelab
