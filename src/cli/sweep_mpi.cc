#include "cli/sweep_mpi.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "cli/cli.h"

#ifdef ROCELAB_MPI
#include <mpi.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>

#include "util/config_error.h"
#endif

namespace rocelab {

int LaunchedRanks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* v = std::getenv(name)) return std::max(1, std::atoi(v));
  return 1;
}

#ifndef ROCELAB_MPI

bool HaveMpi() { return false; }

int SweepOverMpi(const std::string&, const std::string&, const RunOutputs&, const std::function<SweepPlan()>&,
                 const RunDone&) {
  return kExitInternal;  // not reached: the command refuses MPI launches first
}

#else

bool HaveMpi() { return true; }

namespace {

constexpr int kWorkTag = 1;    // rank 0 to a worker: the index of a run, or kStop
constexpr int kResultTag = 2;  // a worker to rank 0: a result
constexpr int64_t kStop = -1;
// The index a result carries when it is none: a worker's first word, or its campaign unreadable.
constexpr int64_t kReady = -1, kCannotLoad = -2;

// MPI, from MPI_Init to MPI_Finalize, in one scope.
class MpiSession {
 public:
  MpiSession() {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiSession() { MPI_Finalize(); }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
};

// A result on the wire: the run's index, an exit status, then the summary (or what went wrong).
std::string Encode(int64_t index, int32_t status, const std::string& text) {
  std::string m(sizeof index + sizeof status, '\0');
  std::memcpy(&m[0], &index, sizeof index);
  std::memcpy(&m[sizeof index], &status, sizeof status);
  return m + text;
}

void SendResult(int64_t index, int32_t status, const std::string& text) {
  std::string m = Encode(index, status, text);
  if (m.size() > static_cast<size_t>(INT_MAX)) m = Encode(index, kExitInternal, "the summary is larger than 2 GB");
  MPI_Send(m.data(), static_cast<int>(m.size()), MPI_CHAR, 0, kResultTag, MPI_COMM_WORLD);
}

struct Result {
  int source;
  int64_t index;
  int32_t status;
  std::string text;
};

// Waits for the next result without spinning a core: the machine's cores are the workers'.
Result NextResult() {
  int arrived = 0;
  MPI_Status st;
  while (MPI_Iprobe(MPI_ANY_SOURCE, kResultTag, MPI_COMM_WORLD, &arrived, &st), !arrived) usleep(1000);
  int n = 0;
  MPI_Get_count(&st, MPI_CHAR, &n);
  std::string m(static_cast<size_t>(n), '\0');
  MPI_Recv(&m[0], n, MPI_CHAR, st.MPI_SOURCE, kResultTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  Result r{st.MPI_SOURCE, kCannotLoad, kExitInternal, ""};
  if (m.size() >= sizeof r.index + sizeof r.status) {
    std::memcpy(&r.index, m.data(), sizeof r.index);
    std::memcpy(&r.status, m.data() + sizeof r.index, sizeof r.status);
    r.text = m.substr(sizeof r.index + sizeof r.status);
  }
  return r;
}

int Coordinate(const MpiSession& mpi, const std::function<SweepPlan()>& prepare, const RunDone& done) {
  SweepPlan plan;
  int go = kExitOk;
  std::exception_ptr failure;
  try {
    plan = prepare();
  } catch (const ConfigError&) {
    go = kExitBadInput;
    failure = std::current_exception();
  } catch (const UsageError&) {
    go = kExitBadInput;
    failure = std::current_exception();
  } catch (...) {
    go = kExitInternal;
    failure = std::current_exception();
  }
  // Every rank hears whether there is a sweep; rank 0 says why not, as any command does.
  MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (failure) std::rethrow_exception(failure);
  size_t next = 0;
  int workers = mpi.size() - 1;
  while (workers > 0) {
    const Result r = NextResult();
    int64_t work = next < plan.todo.size() ? static_cast<int64_t>(plan.todo[next]) : kStop;
    if (r.index == kCannotLoad) {
      std::fprintf(stderr, "rocelab sweep: rank %d stops: %s\n", r.source, r.text.c_str());
      work = kStop;
    } else if (r.index >= 0 && static_cast<size_t>(r.index) < plan.campaign.runs.size()) {
      const SweepRun& run = plan.campaign.runs[static_cast<size_t>(r.index)];
      if (r.status == kExitOk) done(run, &r.text, "");
      else done(run, nullptr, "on rank " + std::to_string(r.source) + ": " + r.text);
    }
    if (work != kStop) ++next;
    MPI_Send(&work, 1, MPI_INT64_T, r.source, kWorkTag, MPI_COMM_WORLD);
    if (work == kStop) --workers;
  }
  if (next < plan.todo.size())
    std::fprintf(stderr, "rocelab sweep: no rank could make the %zu runs left; --resume makes them\n",
                 plan.todo.size() - next);
  return kExitOk;
}

int Work(const std::string& campaign_file, const std::string& sweep_dir, const RunOutputs& outputs) {
  int go = kExitOk;
  MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // Refused: rank 0 says why and its status is the job's. A worker leaving with a failing
  // status of its own could have mpirun abort the job before rank 0 has printed the reason.
  if (go != kExitOk) return kExitOk;
  Campaign c;
  try {
    c = LoadCampaign(campaign_file);
    SendResult(kReady, kExitOk, "");
  } catch (const std::exception& e) {
    SendResult(kCannotLoad, kExitBadInput, e.what());
  }
  for (;;) {
    int64_t index = kStop;
    MPI_Recv(&index, 1, MPI_INT64_T, 0, kWorkTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (index < 0 || static_cast<size_t>(index) >= c.runs.size()) break;
    const SweepRun& run = c.runs[static_cast<size_t>(index)];
    try {
      SendResult(index, kExitOk, RunOne(RunScenario(c, run), RunFolder(sweep_dir, run.id), outputs));
    } catch (const std::exception& e) {
      SendResult(index, kExitInternal, e.what());
    }
  }
  return kExitOk;
}

}  // namespace

int SweepOverMpi(const std::string& campaign_file, const std::string& sweep_dir, const RunOutputs& outputs,
                 const std::function<SweepPlan()>& prepare, const RunDone& done) {
  // Die with the launcher's process: a job killed leaves no rank running on.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  MpiSession mpi;
  if (mpi.rank() != 0) return Work(campaign_file, sweep_dir, outputs);
  return Coordinate(mpi, prepare, done);
}

#endif  // ROCELAB_MPI

}  // namespace rocelab
