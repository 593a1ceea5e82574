// Time series of a running fabric, sampled every `telemetry.interval` into
// series.csv in long format, one row per value:
//
//   t_ns,device,port,priority,metric,value
//
// t_ns names the sample's time as the timeline does. The series:
//   queue_depth   bytes in a switch egress queue           (switch, port, priority)
//   pg_occupancy  bytes charged to an ingress PG            (switch, port, priority)
//   link_util     share of the interval the port sent       (device, port)
//   flow_rate     payload delivered over the interval, Gb/s (the flow's sender, "qp<N>")
//   cc_rate       the QP's DCQCN rate, Gb/s                 (the flow's sender, "qp<N>")
//   pause_state   1 while the port is paused by its peer    (device, port, priority)
// A row is written while its value is not zero, and once when it returns to
// zero, so an idle fabric writes almost nothing. Rows go to disk as they are
// made through a fixed buffer: memory does not grow with simulated time.
#ifndef ROCELAB_REPORT_SERIES_H_
#define ROCELAB_REPORT_SERIES_H_

#include <cstdio>
#include <string>
#include <vector>

#include "net/fabric.h"

namespace rocelab {

class SeriesSampler {
 public:
  // Samples `fabric` per its scenario's telemetry section into `out` (not owned; the caller
  // opens and closes it), from one interval on, on the fabric's sampler.
  SeriesSampler(Fabric* fabric, std::FILE* out);

  uint64_t rows() const { return rows_; }
  // What the sampler holds, which stays the same however long the run.
  size_t MemoryBytes() const;

 private:
  void Sample();
  // Writes the row if `value` is not zero or `*last` was not; remembers it in `*last`.
  void Row(const std::string& device, const std::string& port, int priority, const char* metric, double value,
           double* last);

  Fabric* fabric_;
  std::FILE* out_;
  TelemetrySpec spec_;
  Time t_ = 0;
  uint64_t rows_ = 0;
  // The previous sample of each series, to write returns to zero and rates over the interval.
  std::vector<double> last_;
  size_t next_ = 0;  // position in last_ during a sample
  std::vector<Time> busy_;
  std::vector<uint64_t> delivered_;
};

}  // namespace rocelab

#endif  // ROCELAB_REPORT_SERIES_H_
