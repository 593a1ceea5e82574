// Sweeps made in parallel: on one core, on two, and across three MPI ranks
// they record the same results, each the summary a plain `rocelab run` of that
// combination writes; killed with SIGKILL (the sweep, or the whole mpirun job,
// or one rank of it) and resumed, every run is recorded exactly once with the
// same results; shards merged are the sweep made at once.
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "sweep/campaign.h"
#include "sweep_util.h"
#include "test_util.h"
#include "util/config_error.h"
#include "util/json_value.h"

namespace rocelab {
namespace {

const std::string kBinary = ROCELAB_BINARY;

// Open MPI 4.1 in a container: no cross-memory attach between ranks; more ranks than cores.
const std::string kMpiEnv = "env OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1 ";

// `mpirun -np N` of this rocelab, or "" (and the test fails) where there is no mpirun.
std::string Mpirun(int ranks) {
  const std::string path = RunCommand("command -v mpirun");
  if (path.empty()) {
    ADD_FAILURE() << "no mpirun: scripts/setup.sh installs openmpi-bin";
    return "";
  }
  return kMpiEnv + path.substr(0, path.size() - 1) + " -np " + std::to_string(ranks) +
         " --oversubscribe --allow-run-as-root " + kBinary;
}

// A shell command line started in the background, its pid the command's own (exec); killed
// when the test leaves it running (a failed assertion).
class Job {
 public:
  explicit Job(const std::string& cmd) : pid_(fork()) {
    if (pid_ == 0) {
      execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~Job() {
    if (!ended_) kill(pid_, SIGKILL), Wait();
  }
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;
  pid_t pid() const { return pid_; }
  bool Ended() {
    if (!ended_ && waitpid(pid_, &status_, WNOHANG) == pid_) ended_ = true;
    return ended_;
  }
  int Wait() {
    if (!ended_ && waitpid(pid_, &status_, 0) == pid_) ended_ = true;
    return status_;
  }

 private:
  pid_t pid_;
  bool ended_ = false;
  int status_ = 0;
};

// Waits until `dir` has recorded `n` runs; false if the job ended first or a minute passed.
bool WaitForRuns(const std::string& dir, size_t n, Job& job) {
  for (int i = 0; i < 6000; ++i) {
    if (RecordedRuns(dir) >= n) return true;
    if (job.Ended()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

std::string ProcFile(const std::string& pid, const char* name) {
  std::string s = ReadFile("/proc/" + pid + "/" + name);
  for (char& c : s)
    if (c == '\0') c = ' ';
  return s;
}

// Processes whose command line holds `text`, and whose environment holds `env` too.
std::vector<pid_t> ProcessesWith(const std::string& text, const std::string& env = "") {
  std::vector<pid_t> found;
  DIR* d = opendir("/proc");
  while (dirent* e = readdir(d)) {
    const std::string pid = e->d_name;
    if (pid.find_first_not_of("0123456789") != std::string::npos || std::stoi(pid) == getpid()) continue;
    if (ProcFile(pid, "cmdline").find(text) == std::string::npos) continue;
    if (!env.empty() && (" " + ProcFile(pid, "environ")).find(" " + env + " ") == std::string::npos) continue;
    found.push_back(std::stoi(pid));
  }
  closedir(d);
  return found;
}

// Waits until each of `pids` has exited (gone, or a zombie nobody reaps); false after ten seconds.
// A process killed in a system call finishes that call first: rank 0 killed while it appends a
// commit to the results' log still appends it, and the run is recorded.
bool AllExited(const std::vector<pid_t>& pids) {
  for (int i = 0; i < 1000; ++i) {
    bool running = false;
    for (pid_t pid : pids) {
      const std::string stat = ReadFile("/proc/" + std::to_string(pid) + "/stat");
      const size_t name_end = stat.rfind(')');
      if (name_end != std::string::npos && stat.size() > name_end + 2 && stat[name_end + 2] != 'Z' &&
          stat[name_end + 2] != 'X')
        running = true;
    }
    if (!running) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The runs that wrote their summary.json in a sweep's folder, recorded or not.
size_t SummariesWritten(const std::string& out) {
  return static_cast<size_t>(std::stoul("0" + RunCommand("ls " + out + "/runs/*/summary.json 2>/dev/null | wc -l")));
}

// No process of a killed sweep left: children and ranks die at once with what started them
// (a run takes a quarter of a second: one left running would write its summary.json).
void ExpectNoneLeft(const std::string& out) {
  // Killed ranks can take a while to be gone on a loaded machine (the suite runs two tests at once).
  for (int i = 0; i < 500 && !ProcessesWith(out).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(ProcessesWith(out).empty()) << "still running on " << out;
  const size_t written = SummariesWritten(out);
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  EXPECT_EQ(SummariesWritten(out), written) << "runs went on after the sweep was killed";
}

// Kills the job (or `victim`, a process of it) with SIGKILL once `dir` has recorded `n` runs;
// returns how many it had then.
size_t KillAfter(const std::string& dir, size_t n, Job& job, pid_t victim = 0) {
  EXPECT_TRUE(WaitForRuns(dir, n, job)) << "the sweep ended before " << n << " runs";
  const std::vector<pid_t> processes = ProcessesWith(dir);  // the sweep and its children, or mpirun and its ranks
  kill(victim ? victim : job.pid(), SIGKILL);
  const int status = job.Wait();
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the job ended well although killed";
  // The count is taken once no process of the job can finish a commit it had begun.
  EXPECT_TRUE(AllExited(processes)) << "a process of the killed job still runs";
  const size_t recorded = RecordedRuns(dir);
  ExpectNoneLeft(dir);
  EXPECT_EQ(RecordedRuns(dir), recorded) << "runs recorded after the kill";
  return recorded;
}

// Two sweeps hold the same results: the same runs, each with the same summary but `engine`.
void ExpectSameSweep(const std::string& a, const std::string& b) {
  const std::vector<RunRecord> x = ResultsDb::Open(ResultsPath(a))->Runs();
  const std::vector<RunRecord> y = ResultsDb::Open(ResultsPath(b))->Runs();
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].id, y[i].id);
    EXPECT_EQ(x[i].overrides, y[i].overrides);
    EXPECT_TRUE(WithoutEngine(x[i].summary) == WithoutEngine(y[i].summary)) << "run " << x[i].id << " differs";
  }
  EXPECT_EQ(Rocelab("sweep --table " + a).output, Rocelab("sweep --table " + b).output);
}

std::set<std::string> CampaignIds(const std::string& campaign) {
  std::set<std::string> ids;
  for (const SweepRun& r : LoadCampaign(campaign).runs) ids.insert(r.id);
  return ids;
}

// 56 flows of 8 MB among 8 hosts: about a quarter of a second a run in a release build, long
// enough to kill a sweep in the middle.
std::string SlowBase() {
  return "name: slow\nduration: 50ms\n"
         "topology: {type: spine-leaf, spines: 1, leaves: 2, hosts_per_leaf: 4,\n"
         "           host_link: {rate: 100G, delay: 1us}, fabric_link: {rate: 100G, delay: 1us}}\n"
         "workload:\n  - {type: all-to-all, size: 8MB}\n";
}

// The slow campaign made at once, on two cores, for the killed sweeps to be compared with.
const std::string& SlowReference() {
  static const std::string dir = [] {
    const std::string d = CampaignDir("slow-ref", TwelveRuns(), SlowBase());
    EXPECT_EQ(Rocelab("sweep " + d + "/camp.yaml --out " + d + "/out -j 2 --quiet").status, 0);
    return d + "/out";
  }();
  return dir;
}

void Sql(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(h);
  sqlite3_close(h);
}

}  // namespace

TEST(Sweep, OneCoreTwoCoresAndThreeMpiRanksRecordWhatPlainRunsWrite) {
  const std::string campaign = std::string(ROCELAB_SOURCE_DIR) + "/scenarios/sweeps/incast-ecn.yaml";
  const std::string dir = TempDir("same");
  for (const char* jobs : {"1", "2"}) {
    const CommandResult r = Rocelab("sweep " + campaign + " --out " + dir + "/j" + jobs + " -j " + jobs);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("12 runs, 12 to make on " + std::string(jobs) + " core"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("[12/12]"), std::string::npos) << r.output;
  }
#ifdef ROCELAB_SANITIZED
  GTEST_SKIP() << "the sanitizer build has no MPI: LeakSanitizer reports Open MPI's own allocations at MPI_Init "
                  "(docs/sweep.md); the release build runs mpirun";
#endif
  const std::string mpirun = Mpirun(3);
  ASSERT_FALSE(mpirun.empty());
  const CommandResult mpi = Shell(mpirun + " sweep " + campaign + " --out " + dir + "/mpi");
  ASSERT_EQ(mpi.status, 0) << mpi.output;
  EXPECT_NE(mpi.output.find("12 runs, 12 to make on 2 ranks"), std::string::npos) << mpi.output;
  EXPECT_EQ(mpi.output.find("recorded already"), std::string::npos) << mpi.output;  // no run made twice

  // A bad campaign under mpirun: refused by rank 0 before any run, every rank stopping.
  const std::string bad = CampaignDir("mpi-bad", "base: base.yaml\ngrid:\n  switch.ecn.kmin: [20KB, 5XB]\n");
  const CommandResult refused = Shell(mpirun + " sweep " + bad + "/camp.yaml --out " + bad + "/out");
  EXPECT_EQ(refused.status, 2) << refused.output;
  EXPECT_NE(refused.output.find(bad + "/camp.yaml:3:27: key 'switch.ecn.kmin': value '5XB'"), std::string::npos)
      << refused.output;
  EXPECT_FALSE(Exists(bad + "/out"));

  ExpectSameSweep(dir + "/j1", dir + "/j2");
  ExpectSameSweep(dir + "/j1", dir + "/mpi");
  EXPECT_EQ(RecordedIds(dir + "/mpi"), CampaignIds(campaign));
  // Each recorded summary is its run's summary.json, and what `rocelab run` writes for the base
  // with that threshold and seed.
  const std::string base = ReadFile(std::string(ROCELAB_SOURCE_DIR) + "/scenarios/incast-15to1.yaml");
  ASSERT_NE(base.find("kmin: 100KB"), std::string::npos);
  for (const RunRecord& r : ResultsDb::Open(ResultsPath(dir + "/mpi"))->Runs()) {
    EXPECT_TRUE(ReadFile(dir + "/mpi/runs/" + r.id + "/summary.json") == r.summary) << r.id << ": not its summary.json";
    const JsonDocument o = JsonDocument::parse(r.overrides);
    std::string scenario = base;
    scenario.replace(scenario.find("kmin: 100KB"), 11, "kmin: " + o["switch.ecn.kmin"].get<std::string>());
    const std::string file = WriteFile(dir + "/plain/" + r.id + ".yaml", scenario);
    const CommandResult plain = Rocelab("run " + file + " --seed " + o["seed"].get<std::string>() + " --out " + dir +
                                        "/plain/" + r.id + " --quiet");
    ASSERT_EQ(plain.status, 0) << plain.output;
    EXPECT_TRUE(WithoutEngine(ReadFile(dir + "/plain/" + r.id + "/summary.json")) == WithoutEngine(r.summary))
        << r.overrides << ": not what rocelab run writes";
  }
}

TEST(Sweep, KilledAndResumedRecordsEveryRunOnce) {
  const std::string dir = CampaignDir("killed", TwelveRuns(), SlowBase());
  const std::string out = dir + "/out";
  const std::string sweep = kBinary + " sweep " + dir + "/camp.yaml --out " + out;
  Job job(sweep + " -j 2 > " + dir + "/log 2>&1");
  const size_t recorded = KillAfter(out, 3, job);
  EXPECT_LT(recorded, 12u) << "the killed sweep made every run";
  const CommandResult r = Shell(sweep + " -j 2 --resume");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("12 runs, " + std::to_string(12 - recorded) + " to make"), std::string::npos) << r.output;
  EXPECT_EQ(RecordedIds(out), CampaignIds(dir + "/camp.yaml"));
  ExpectSameSweep(SlowReference(), out);
}

TEST(Sweep, KilledMpiJobAndDeadRankResumeRecordingEveryRunOnce) {
#ifdef ROCELAB_SANITIZED
  GTEST_SKIP() << "the sanitizer build has no MPI (docs/sweep.md); the release build runs this";
#endif
  const std::string mpirun = Mpirun(3);
  ASSERT_FALSE(mpirun.empty());
  const std::string dir = CampaignDir("mpi-killed", TwelveRuns(), SlowBase());
  const std::string out = dir + "/out";
  const std::string sweep = mpirun + " sweep " + dir + "/camp.yaml --out " + out;
  // The whole job, mpirun itself, killed: its ranks die with it.
  Job whole(sweep + " > " + dir + "/log1 2>&1");
  const size_t first = KillAfter(out, 3, whole);
  EXPECT_LT(first, 12u) << "the killed job made every run";
  // Resumed, and this time one worker rank dies: MPI ends the job.
  Job resumed(sweep + " --resume > " + dir + "/log2 2>&1");
  ASSERT_TRUE(WaitForRuns(out, first + 1, resumed));
  const std::vector<pid_t> rank1 = ProcessesWith(out, "OMPI_COMM_WORLD_RANK=1");
  ASSERT_EQ(rank1.size(), 1u);
  const size_t second = KillAfter(out, first + 1, resumed, rank1[0]);
  EXPECT_LT(second, 12u) << "the killed job made every run";
  // And resumed to the end.
  const CommandResult r = Shell(sweep + " --resume");
  ASSERT_EQ(r.status, 0) << r.output << ReadFile(dir + "/log2");
  EXPECT_NE(r.output.find("12 runs, " + std::to_string(12 - second) + " to make on 2 ranks"), std::string::npos) << r.output;
  EXPECT_EQ(RecordedIds(out), CampaignIds(dir + "/camp.yaml"));
  ExpectSameSweep(SlowReference(), out);
}

TEST(Sweep, ShardsMergedAreTheSweepMadeAtOnce) {
  const std::string dir = CampaignDir("shards", TwelveRuns());
  const std::string sweep = "sweep " + dir + "/camp.yaml --quiet --out " + dir;
  ASSERT_EQ(Rocelab(sweep + "/whole -j 2").status, 0);
  std::set<std::string> seen;
  for (int i = 0; i < 3; ++i) {
    const std::string shard = dir + "/s" + std::to_string(i);
    ASSERT_EQ(Rocelab(sweep + "/s" + std::to_string(i) + " --shard " + std::to_string(i) + "/3").status, 0);
    const std::set<std::string> ids = RecordedIds(shard);
    EXPECT_EQ(ids.size(), 4u);
    for (const RunRecord& r : ResultsDb::Open(ResultsPath(shard))->Runs()) EXPECT_EQ(r.idx % 3, i);
    seen.insert(ids.begin(), ids.end());
  }
  EXPECT_EQ(seen.size(), 12u);  // the slices do not overlap
  const std::string shards = " " + dir + "/s0 " + dir + "/s1 " + dir + "/s2";
  CommandResult r = Rocelab("sweep merge " + dir + "/merged" + shards);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("merged 12 runs from 3 sweeps"), std::string::npos) << r.output;
  ExpectSameSweep(dir + "/whole", dir + "/merged");
  for (const std::string& id : seen) EXPECT_TRUE(Exists(dir + "/merged/runs/" + id + "/summary.json")) << id;
  // Merged again, or with the whole sweep too: the same results, nothing twice.
  r = Rocelab("sweep merge " + dir + "/merged" + shards + " " + dir + "/whole");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("merged 0 runs from 4 sweeps"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("24 found twice with the same result"), std::string::npos) << r.output;
  EXPECT_EQ(RecordedRuns(dir + "/merged"), 12u);
  // A run with another result in one shard than in the whole sweep: nothing merged.
  const std::string id = *RecordedIds(dir + "/s1").begin();
  Sql(ResultsPath(dir + "/s1"), "UPDATE runs SET summary = replace(summary, '\"sim_time_ns\": ', '\"sim_time_ns\": 1') WHERE id = '" + id + "'");
  r = Rocelab("sweep merge " + dir + "/again" + shards + " " + dir + "/whole");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("run " + id + " has another result"), std::string::npos) << r.output;
  EXPECT_FALSE(Exists(dir + "/again"));
  r = Rocelab("sweep merge " + dir + "/merged " + dir + "/s1");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(RecordedRuns(dir + "/merged"), 12u);
  // A sweep of another base is not a shard of this campaign.
  const std::string other = CampaignDir("other", TwelveRuns(), TinyBase("128KB"));
  ASSERT_EQ(Rocelab("sweep " + other + "/camp.yaml --quiet --out " + other + "/out --shard 0/3").status, 0);
  r = Rocelab("sweep merge " + dir + "/again " + dir + "/s0 " + other + "/out");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("another base scenario"), std::string::npos) << r.output;
  EXPECT_FALSE(Exists(dir + "/again"));
}

// A reader that polls a sweep's folder while the sweep makes its database (as sweep --table, or
// the kill tests above, do) never meets a file without tables, and never stops the sweep.
TEST(Sweep, ADatabaseIsWholeTheMomentItsNameAppears) {
  const std::string dir = TempDir("db-race");
  for (int i = 0; i < 40; ++i) {
    const std::string folder = dir + "/s" + std::to_string(i);
    ASSERT_EQ(::mkdir(folder.c_str(), 0755), 0);
    std::atomic<bool> made{false};
    std::atomic<int> half_made{0};
    std::thread reader([&] {
      while (!made) {
        try {
          ResultsDb::Open(ResultsPath(folder));
        } catch (const std::exception& e) {
          if (std::string(e.what()).find("no such file") == std::string::npos) ++half_made;
        }
      }
    });
    try {
      ResultsDb::Create(ResultsPath(folder), {{"campaign", "c"}});
    } catch (const std::exception& e) {
      ADD_FAILURE() << "creation " << i << " failed: " << e.what();
    }
    made = true;
    reader.join();
    EXPECT_EQ(half_made, 0) << "creation " << i << ": a reader opened a database without its tables";
    EXPECT_FALSE(Exists(ResultsPath(folder) + ".new"));
  }
  // A creation killed half way leaves its file beside the name; the next one starts afresh.
  ASSERT_EQ(::mkdir((dir + "/left").c_str(), 0755), 0);
  WriteFile(ResultsPath(dir + "/left") + ".new", "half a database");
  EXPECT_EQ(ResultsDb::Create(ResultsPath(dir + "/left"), {{"campaign", "c"}})->Count(), 0u);
  // A name taken is refused.
  try {
    ResultsDb::Create(ResultsPath(dir + "/left"), {{"campaign", "c"}});
    ADD_FAILURE() << "a second database was made over the first";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("exists already"), std::string::npos) << e.what();
  }
}

}  // namespace rocelab
