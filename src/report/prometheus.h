// A run's counters in the Prometheus text exposition format (version 0.0.4),
// for a Prometheus server, a node_exporter textfile directory or promtool.
//
// The exposition is made from summary.json's text, not from the fabric, so
// `rocelab export prom RUN_OUT` on a finished run and `rocelab run --prom FILE`
// write the same bytes, and a summary written elsewhere exports as well.
//
// The naming scheme (docs/prometheus.md lists every family):
//  - rocelab_<where>_<what>[_<unit>][_total]. <where> is nic (ethtool -S, the
//    netdev's sysfs and FEC statistics, rocelab's own NIC figures), rdma (the
//    RDMA hw_counters), switch, switch_port, switch_queue, switch_pg,
//    switch_pfcwd, fabric (summary.json's totals), flow, fct, fault or run.
//  - Counters end in _total. Gauges (settings, watermarks, states, the
//    per-flow results) do not.
//  - Units are Prometheus base units in the name: _bytes, _seconds. Durations
//    the devices count in microseconds or nanoseconds become seconds.
//  - A counter a device keeps once per priority (rx_prio3_pause) or lane
//    (rx_err_lane_0_phy) is one family with a `priority` (`lane`) label.
//  - Every sample read from a device's counter, or from the totals, carries the
//    name summary.json gives it as `counter`, so the device's own name is one
//    label away: counter="rx_prio3_pause". Labels also name the `device` (h3,
//    leaf0), the `port` (eth0, Ethernet8), `queue` and `pg` (3 for UC3, PG3).
//  - A counter this version has no metric for is not dropped: it appears
//    untyped in rocelab_<where>_other, named by its `counter` label.
//
// Families come sorted by name, each with one HELP and one TYPE line; samples
// carry no timestamp (the textfile collector refuses them): every value is the
// run's at its end. The engine block, the only wall-clock figures of
// summary.json, is left out, so a scenario and seed give the same bytes.
#ifndef ROCELAB_REPORT_PROMETHEUS_H_
#define ROCELAB_REPORT_PROMETHEUS_H_

#include <string>
#include <vector>

namespace rocelab {

// The exposition of a summary.json; `file` names it in errors. Throws ConfigError, naming the
// file and the key, for text that is not a rocelab summary.json or holds a value of the wrong
// type (a counter that is not a number, or is negative).
std::string PrometheusText(const std::string& summary_json, const std::string& file);

// A label value as the format writes it between double quotes: backslash, double quote and
// line feed escaped (\\, \", \n).
std::string PrometheusLabelValue(const std::string& value);
// A HELP text: backslash and line feed escaped.
std::string PrometheusHelpText(const std::string& text);
// A sample value: the shortest text that reads back as the same double; NaN, +Inf, -Inf.
std::string PrometheusNumber(double d);

// What one device counter (or total) becomes.
struct PrometheusCounterMetric {
  std::string block;    // where summary.json keeps it: "ethtool", "hw_counters", "ports", "queues", "totals", ...
  std::string counter;  // its name there; <N> stands for the priority or lane: "rx_prio<N>_pause"
  std::string unit;     // what one count is (telemetry/counter_names.h): "frames", "us", ...
  std::string metric;   // "rocelab_nic_rx_pause_frames_total"
  bool is_counter;      // false: a gauge
};
std::vector<PrometheusCounterMetric> PrometheusCounterMetrics();

}  // namespace rocelab

#endif  // ROCELAB_REPORT_PROMETHEUS_H_
