#include "cli/sweep_run.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>

#include "cli/cli.h"
#include "report/html_report.h"
#include "report/series.h"
#include "run/experiment.h"
#include "util/text_file.h"

namespace rocelab {

std::string RunFolder(const std::string& sweep_dir, const std::string& id) { return sweep_dir + "/runs/" + id; }

std::string RunOne(const Scenario& sc, const std::string& dir, const RunOutputs& outputs) {
  Experiment run(sc);
  std::string err;
  if (!MakeDirs(dir, &err)) throw std::runtime_error("cannot make " + err);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> series(nullptr, &std::fclose);
  std::unique_ptr<SeriesSampler> sampler;
  if (sc.telemetry.enabled) {
    series.reset(std::fopen((dir + "/series.csv.tmp").c_str(), "w"));
    if (!series) throw std::runtime_error("cannot write " + dir + "/series.csv.tmp");
    sampler = std::make_unique<SeriesSampler>(&run.fabric(), series.get());
  }
  run.Run();
  const std::string summary = SummaryJson(run, outputs.counters);
  WriteFileAtomically(dir + "/summary.json", summary);
  if (series) {
    const bool ok = std::fflush(series.get()) == 0 && !std::ferror(series.get());
    series.reset();
    if (!ok || std::rename((dir + "/series.csv.tmp").c_str(), (dir + "/series.csv").c_str()) != 0)
      throw std::runtime_error("cannot write " + dir + "/series.csv");
  }
  // The run's page, as `rocelab run` writes it, made from the files just written.
  if (outputs.report) WriteFileAtomically(dir + "/report.html", RunReportOfFolder(dir));
  return summary;
}

namespace {

// The child: one run, its summary in its folder; exit status 0, or 3 with the reason on stderr.
// _exit, never exit: the parent's open database and buffers are not the child's to close.
[[noreturn]] void RunInChild(const Campaign& c, const SweepRun& run, const std::string& sweep_dir,
                             const RunOutputs& outputs, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(3);  // the parent died before the line above
  try {
    RunOne(RunScenario(c, run), RunFolder(sweep_dir, run.id), outputs);
    std::fflush(nullptr);
    _exit(0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rocelab sweep: run %s (%s): %s\n", run.id.c_str(), OverridesText(run).c_str(), e.what());
  }
  std::fflush(nullptr);
  _exit(3);
}

std::string Status(int status) {
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + std::to_string(WTERMSIG(status));
  return "exit status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

void RunLocally(const SweepPlan& plan, int jobs, const std::string& sweep_dir, const RunOutputs& outputs,
                const RunDone& done) {
  const Campaign& c = plan.campaign;
  std::map<pid_t, const SweepRun*> running;
  size_t next = 0;
  const pid_t self = getpid();
  while (next < plan.todo.size() || !running.empty()) {
    while (next < plan.todo.size() && static_cast<int>(running.size()) < jobs) {
      std::fflush(nullptr);  // or the child would write what the parent has buffered again
      const pid_t pid = fork();
      if (pid < 0) {
        if (running.empty()) throw std::runtime_error("cannot start a run: fork failed");
        break;  // out of processes: wait for one to end
      }
      const SweepRun* run = &c.runs[plan.todo[next++]];
      if (pid == 0) RunInChild(c, *run, sweep_dir, outputs, self);
      running[pid] = run;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("waiting for a run failed");
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const SweepRun& run = *it->second;
    running.erase(it);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      std::string summary, err;
      if (ReadTextFile(RunFolder(sweep_dir, run.id) + "/summary.json", &summary, &err)) {
        done(run, &summary, "");
        continue;
      }
      done(run, nullptr, "its summary.json: " + err);
      continue;
    }
    done(run, nullptr, Status(status));
  }
}

}  // namespace rocelab
