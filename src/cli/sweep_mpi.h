// A sweep across the ranks of an MPI job (`mpirun -np N rocelab sweep ...`):
// rank 0 checks the campaign, opens the results database and hands out runs
// one at a time to the ranks that ask, recording each result as it comes; the
// other ranks make the runs, in their own process, and write each run's folder
// (so DIR must be on a filesystem every rank sees). A run handed out is never
// handed out again, and a rank that finishes early gets the next: long and
// short runs balance themselves.
//
// MPI aborts the whole job when a rank dies, so there is no recovery inside a
// job: what was recorded stays, and `--resume` makes the rest. Each rank dies
// with the process that started it (mpirun, orted), so a job killed leaves no
// rank behind still writing.
//
// MPI is initialized only here, only when the process was started by an MPI
// launcher: a rocelab started on its own never needs MPI beyond its library.
#ifndef ROCELAB_CLI_SWEEP_MPI_H_
#define ROCELAB_CLI_SWEEP_MPI_H_

#include <functional>
#include <string>

#include "cli/sweep_run.h"

namespace rocelab {

// How many ranks the MPI launcher started this process among (OMPI_COMM_WORLD_SIZE of Open MPI,
// PMI_SIZE of MPICH and Slurm's PMI); 1 when no launcher started it.
int LaunchedRanks();

// Whether this rocelab was built with MPI (CMake found it).
bool HaveMpi();

// Runs the sweep over the job's ranks. Rank 0 calls `prepare`, which may throw: then every rank
// stops, the other ranks returning the exit status the error calls for and rank 0 throwing it
// on. Rank 0 calls `done` as each run ends. Returns each rank's exit status.
int SweepOverMpi(const std::string& campaign_file, const std::string& sweep_dir, const RunOutputs& outputs,
                 const std::function<SweepPlan()>& prepare, const RunDone& done);

}  // namespace rocelab

#endif  // ROCELAB_CLI_SWEEP_MPI_H_
