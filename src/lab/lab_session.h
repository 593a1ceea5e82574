// One engineer working a lab: the broken fabric running under their commands,
// and beside it the same fabric without the fault (its twin), advanced in step
// and given the same changes, against which `check` judges the job's pace and
// the review prices the time lost.
//
// Commands are the ones typed in production, on the device `on` names: SONiC's
// `show ...` and `config ...` on a switch, `ethtool`, `rdma`, `mlnx_qos` and
// sysfs on a host; the lab's own are `run`, `diagnose`, `timeline`, `check`
// and `review`. `help` lists them. Time moves only when a command says so
// (`run 2ms`, `check`'s verification window); an action takes effect at the
// simulated moment it is typed.
#ifndef ROCELAB_LAB_LAB_SESSION_H_
#define ROCELAB_LAB_LAB_SESSION_H_

#include <memory>
#include <string>
#include <vector>

#include "lab/lab.h"
#include "run/experiment.h"
#include "scenario/scenario.h"
#include "util/json_value.h"

namespace rocelab {

class LabSession {
 public:
  // Builds both fabrics and runs them to the moment the engineer is paged. Throws ConfigError
  // for a scenario that does not load.
  explicit LabSession(const Lab& lab);
  ~LabSession();

  // The ticket and how to begin.
  std::string Welcome() const;
  // Runs one command line and returns what it prints (each line ending in "\n"). A malformed
  // command gets a one-line usage message; nothing a user types stops the fabric.
  std::string Execute(const std::string& line);
  bool quit() const { return quit_; }
  // "leaf0 12.000 ms> ": the device commands go to, and the simulated time.
  std::string Prompt() const;
  // The fabric running on its own at `ratio` simulated seconds per wall second (0: only when a
  // command says so); `pause` and `resume` stop and restart it.
  void SetPace(double ratio) { pace_ = ratio; }
  // `wall_s` of wall time went by: the fabric advances by pace x that, unless paused. Whether it
  // moved.
  bool Tick(double wall_s);
  // Completions of the last word of `line`: commands, then device names and ports.
  std::vector<std::string> Complete(const std::string& line) const;

 private:
  struct Step {
    Time t;
    std::string device, command;
  };
  std::string Run(const std::vector<std::string>& w);
  std::string OnSwitch(const std::string& device, const std::vector<std::string>& w, const std::string& line);
  // One command line typed on a switch, split into words.
  struct SwitchCommand {
    const std::string& device;
    int node;
    const std::vector<std::string>& w;
    const std::string& line;
  };
  std::string SwitchShow(const SwitchCommand& c);
  std::string ConfigRoute(const SwitchCommand& c);
  std::string ConfigInterface(const SwitchCommand& c);
  std::string ConfigQosReload(const SwitchCommand& c);
  std::string ConfigEcn(const SwitchCommand& c);
  std::string ConfigPfcwd(const SwitchCommand& c);
  std::string OnHost(const std::string& device, const std::vector<std::string>& w, const std::string& line);
  std::string Diagnose();
  std::string Timeline() const;
  std::string Pingmesh() const;
  std::string Check();
  std::string Review() const;
  std::string Devices() const;
  // Advances both fabrics to `t` (no further than the scenario's end), keeping the ring's pace.
  void Advance(Time t);
  JsonDocument DeviceBlock(const std::string& device) const;  // summary.json's block of it, now
  // The ring's bytes delivered so far in each fabric (0 without an AllReduce).
  uint64_t RingBytes(const Experiment& x) const;
  void Did(const std::string& device, const std::string& command);

  Lab lab_;
  Scenario sc_;
  std::unique_ptr<Experiment> x_, twin_;
  std::string device_;
  JsonDocument before_;  // every device's counters when the last `run` began
  Time before_t_ = 0;
  std::vector<Step> steps_;      // what the engineer changed, and when
  Time fixed_at_ = -1;           // the end of the first verification window every check held
  size_t fix_steps_ = 0;         // the changes made before it
  double lost_s_ = 0;            // the ring's time lost against the twin, simulated seconds
  bool quit_ = false;
  double pace_ = 0;
  bool paused_ = false;
  double owed_s_ = 0;  // simulated time the pace owes, below a nanosecond
};

}  // namespace rocelab

#endif  // ROCELAB_LAB_LAB_SESSION_H_
