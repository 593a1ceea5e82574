#include "report/openmetrics.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "report/prometheus.h"
#include "report/series_rows.h"
#include "util/config_error.h"
#include "util/utf8.h"

namespace rocelab {
namespace {


// What each series.csv metric becomes (docs/telemetry.md says what it measures).
struct SeriesFamily {
  const char* metric;  // in series.csv
  const char* name;
  const char* unit;  // OpenMetrics UNIT, the name's suffix; "" for none
  double factor;     // series.csv's unit to the family's
  const char* help;
};

// In name order, the order the families are written in.
const SeriesFamily kFamilies[] = {
    {"cc_rate", "rocelab_series_cc_rate_bytes_per_second", "bytes_per_second", 1e9 / 8,
     "The QP's DCQCN rate, line rate when uncut (device: the flow's sender, port: qp<N>); series.csv cc_rate, in Gb/s "
     "there"},
    {"flow_rate", "rocelab_series_flow_rate_bytes_per_second", "bytes_per_second", 1e9 / 8,
     "Payload the flow delivered in order over the last interval (device: the flow's sender, port: qp<N>); series.csv "
     "flow_rate, in Gb/s there"},
    {"link_util", "rocelab_series_link_util_ratio", "ratio", 1,
     "Share of the last interval the port spent sending; series.csv link_util"},
    {"pause_state", "rocelab_series_pause_state", "", 1,
     "1 while the port is held paused by its peer on the priority; series.csv pause_state"},
    {"pg_occupancy", "rocelab_series_pg_occupancy_bytes", "bytes", 1,
     "Bytes charged to the switch's ingress priority group (priority: the PG), shared and headroom; series.csv "
     "pg_occupancy"},
    {"queue_depth", "rocelab_series_queue_depth_bytes", "bytes", 1,
     "Bytes waiting in the switch's egress queue (priority: the queue); series.csv queue_depth"},
};
constexpr size_t kNumFamilies = sizeof kFamilies / sizeof kFamilies[0];

struct Sample {
  double t_ns;
  double value;
  int64_t ms;  // since start
  int line;
};

struct Series {
  size_t family;
  std::string labels;  // {device="..",port="..",priority=".."}
  std::vector<Sample> samples;
};

[[noreturn]] void Fail(const std::string& file, int line, int column, const std::string& what) {
  throw ConfigError(file, line, column, "", what);
}

std::string Labels(const std::string& device, const std::string& port, const std::string& priority) {
  std::string l = "{device=\"" + PrometheusLabelValue(device) + '"';
  if (!port.empty()) l += ",port=\"" + PrometheusLabelValue(port) + '"';
  if (!priority.empty()) l += ",priority=\"" + priority + '"';
  return l + '}';
}

// A value or a scale: whole numbers as integers (12500000000, not 1.25e+10), others shortest.
std::string Number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  return PrometheusNumber(v);
}

// Seconds.milliseconds, as OpenMetrics writes a timestamp.
std::string Timestamp(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ms / 1000), static_cast<long long>(ms % 1000));
  return buf;
}

// Days from 1970-01-01 to the date, in the proleptic Gregorian calendar.
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = y / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

constexpr int64_t kLastSecond = 253402300799;  // 9999-12-31T23:59:59Z

}  // namespace

std::string OpenMetricsFromSeries(const std::string& series_csv, const std::string& file, const OpenMetricsTime& time) {
  std::istringstream in(WellFormedUtf8(series_csv));
  std::vector<Series> series;
  std::unordered_map<std::string, size_t> index;  // family name + labels -> series
  ForEachSeriesRow(in, file, [&](const SeriesRow& r, int line) {
    size_t family = kNumFamilies;
    for (size_t k = 0; k < kNumFamilies; ++k)
      if (r.metric == kFamilies[k].metric) family = k;
    if (family == kNumFamilies) {
      std::string known;
      for (const SeriesFamily& k : kFamilies) known += std::string(known.empty() ? "" : ", ") + k.metric;
      FailSeriesRow(file, line, r, 4, "unknown metric '" + r.metric + "' (series.csv has " + known + ")");
    }
    const double t = r.t_ns;
    const double ms = std::round(t * time.time_scale / 1e6);
    if (ms > 1e15)  // past year 30000 at any start: the file's times are not a run's
      FailSeriesRow(file, line, r, 0, "t_ns " + Number(t) + " is beyond any date at time scale " + Number(time.time_scale));
    const std::string labels = Labels(r.device, r.port, r.priority < 0 ? "" : std::to_string(r.priority));
    auto [it, fresh] = index.try_emplace(kFamilies[family].name + labels, series.size());
    if (fresh) series.push_back({family, labels, {}});
    Series& s = series[it->second];
    if (!s.samples.empty() && t <= s.samples.back().t_ns)
      FailSeriesRow(file, line, r, 0,
                    "t_ns " + Number(t) + (t == s.samples.back().t_ns ? " again" : " goes back") + " for " +
                        kFamilies[family].name + labels + " (line " + std::to_string(s.samples.back().line) + ")");
    s.samples.push_back({t, r.value, static_cast<int64_t>(ms), line});
  });

  // Prometheus keeps one sample per millisecond of a series: two that round to the same one
  // would lose a value. The error names the smallest time scale that keeps every pair apart.
  double min_gap = std::numeric_limits<double>::infinity();
  const Sample* clash = nullptr;
  const Series* clash_series = nullptr;
  for (const Series& s : series)
    for (size_t i = 1; i < s.samples.size(); ++i) {
      min_gap = std::min(min_gap, s.samples[i].t_ns - s.samples[i - 1].t_ns);
      if (!clash && s.samples[i].ms == s.samples[i - 1].ms) {
        clash = &s.samples[i];
        clash_series = &s;
      }
    }
  if (clash) {
    const Sample& before = *(clash - 1);
    const double needed = std::ceil(1e6 / min_gap);
    char ns[2][32];
    std::snprintf(ns[0], sizeof ns[0], "%.3f", before.t_ns);
    std::snprintf(ns[1], sizeof ns[1], "%.3f", clash->t_ns);
    Fail(file, clash->line, 1,
         std::string("samples at t_ns ") + ns[0] + " (line " + std::to_string(before.line) + ") and " + ns[1] + " of " +
             kFamilies[clash_series->family].name + clash_series->labels + " fall in one millisecond at time scale " +
             Number(time.time_scale) + ", and Prometheus keeps one sample per millisecond: " +
             (needed <= kMaxTimeScale ? "a time scale of " + Number(needed) + " or more keeps every sample"
                                      : std::string("no time scale keeps them apart")));
  }

  const std::string timing = " Timestamps are " + FormatStartTime(time.start_s) + " plus simulated time x " +
                             Number(time.time_scale) + ", to the millisecond.";
  std::string out;
  const int64_t start_ms = time.start_s * 1000;
  for (size_t k = 0; k < kNumFamilies; ++k) {
    const SeriesFamily& fam = kFamilies[k];
    bool any = false;
    for (const Series& s : series) any |= s.family == k;
    if (!any) continue;
    out += std::string("# TYPE ") + fam.name + " gauge\n";
    if (*fam.unit) out += std::string("# UNIT ") + fam.name + ' ' + fam.unit + '\n';
    out += std::string("# HELP ") + fam.name + ' ' + PrometheusHelpText(fam.help + std::string(".") + timing) + '\n';
    for (const Series& s : series) {
      if (s.family != k) continue;
      const std::string head = fam.name + s.labels + ' ';
      for (const Sample& x : s.samples)
        out += head + Number(x.value * fam.factor) + ' ' + Timestamp(start_ms + x.ms) + '\n';
    }
  }
  return out + "# EOF\n";
}

bool ParseStartTime(const std::string& text, int64_t* seconds, std::string* error) {
  const std::string form = "a UTC time as 2026-01-01T00:00:00Z or seconds since 1970";
  bool digits = !text.empty();
  for (char c : text) digits &= c >= '0' && c <= '9';
  if (digits) {
    if (text.size() > 12 || std::stoll(text) > kLastSecond) {
      *error = "'" + text + "' is after 9999-12-31T23:59:59Z";
      return false;
    }
    *seconds = std::stoll(text);
    return true;
  }
  int y, mo, d, h, mi, s;
  char z;
  int n = 0;
  if (text.size() != 20 || std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &y, &mo, &d, &h, &mi, &s, &z, &n) != 7 ||
      n != 20 || z != 'Z' || text[4] != '-' || text[7] != '-' || text[13] != ':' || text[16] != ':') {
    *error = "'" + text + "' is not " + form;
    return false;
  }
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18})
    if (text[i] < '0' || text[i] > '9') {
      *error = "'" + text + "' is not " + form;
      return false;
    }
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  const int month_days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > month_days[mo - 1] || h > 23 || mi > 59 || s > 59) {
    *error = "'" + text + "' is not a date and time from 1970 to 9999";
    return false;
  }
  *seconds = DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
  return true;
}

std::string FormatStartTime(int64_t seconds) {
  int64_t days = seconds / 86400, rest = seconds % 86400;
  // civil_from_days
  days += 719468;
  const int64_t era = days / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp + (mp < 10 ? 3 : -9);
  const int64_t y = yoe + era * 400 + (m <= 2);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d), static_cast<long long>(rest / 3600),
                static_cast<long long>(rest % 3600 / 60), static_cast<long long>(rest % 60));
  return buf;
}

}  // namespace rocelab
