#include "report/series_reader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <unordered_map>
#include <utility>

#include "util/config_error.h"

namespace rocelab {
namespace {

const char kHeader[] = "t_ns,device,port,priority,metric,value";
const char* const kColumns[] = {"t_ns", "device", "port", "priority", "metric", "value"};
constexpr size_t kPauseMergeSlices = 1000;  // pause spans closer than 1/1000 of the run are one

struct Row {
  double t = 0, value = 0;
  std::string device, port, metric;
  int priority = -1;
};

// One line of the file, split and checked.
class RowParser {
 public:
  RowParser(const std::string& file) : file_(file) {}

  // False for a blank line.
  bool Parse(const std::string& line, int number, Row* row) {
    if (line.empty()) return false;
    size_t start = 0;
    std::string field[6];
    size_t column[6];
    int n = 0;
    for (size_t i = 0; i <= line.size(); ++i) {
      if (i < line.size() && line[i] != ',') continue;
      if (n == 6) Fail(number, static_cast<int>(i) + 1, "", "more than 6 fields (" + std::string(kHeader) + ")");
      column[n] = start + 1;
      field[n++] = line.substr(start, i - start);
      start = i + 1;
    }
    if (n != 6) Fail(number, 0, "", "6 fields expected (" + std::string(kHeader) + "), found " + std::to_string(n));
    row->t = Number(field[0], number, column[0], 0);
    if (row->t < 0) Fail(number, column[0], kColumns[0], "a time cannot be negative");
    row->device = std::move(field[1]);
    row->port = std::move(field[2]);
    row->priority = -1;
    if (!field[3].empty()) {
      const double p = Number(field[3], number, column[3], 3);
      if (p != std::floor(p) || p < 0 || p > 7) Fail(number, column[3], kColumns[3], "a priority is 0..7, found " + field[3]);
      row->priority = static_cast<int>(p);
    }
    row->metric = std::move(field[4]);
    if (row->metric.empty()) Fail(number, column[4], kColumns[4], "no metric named");
    row->value = Number(field[5], number, column[5], 5);
    return true;
  }

  [[noreturn]] void Fail(int line, size_t column, const std::string& key, const std::string& what) const {
    throw ConfigError(file_, line, static_cast<int>(column), key, what);
  }

 private:
  double Number(const std::string& s, int line, size_t column, int index) const {
    errno = 0;
    char* end = nullptr;
    const double v = s.empty() ? 0 : std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
      Fail(line, column, kColumns[index], "a number expected, found '" + s + "'");
    return v;
  }

  const std::string& file_;
};

// The one text naming a series: its metric, element and priority, joined by a byte no name holds.
// Into `*key`, so a pass over a large file reuses one buffer.
void SeriesKey(const std::string& metric, const std::string& device, const std::string& port, int priority,
               std::string* key) {
  *key = metric;
  *key += '\x1f';
  *key += device;
  *key += '\x1f';
  *key += port;
  *key += '\x1f';
  *key += std::to_string(priority);
}

// Reads the lines of `in` from the top, handing each parsed row to `f` with its line number.
template <typename F>
void ForEachRow(std::istream& in, const std::string& file, F f) {
  in.clear();
  in.seekg(0);
  RowParser parser(file);
  std::string line;
  int number = 0;
  Row row;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1) {
      if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a byte-order mark a spreadsheet added
      if (line != kHeader)
        parser.Fail(1, 0, "", "not a rocelab series.csv: the first line is not '" + std::string(kHeader) + "'");
      continue;
    }
    if (parser.Parse(line, number, &row)) f(row, number, parser);
  }
  if (in.bad()) parser.Fail(0, 0, "", "cannot read the file");
  if (number == 0) parser.Fail(0, 0, "", "empty: not a rocelab series.csv");
}

// The points of one series, at most `limit`: every point until there are more, then the
// lowest and highest of each slice of the run.
class Thinner {
 public:
  Thinner(size_t limit, double t_span) : limit_(std::max<size_t>(limit, 2)), t_span_(t_span) {}

  void Add(ChartPoint p) {
    if (!thinned_) {
      raw_.push_back(p);
      if (raw_.size() <= limit_) return;
      thinned_ = true;
      slices_.assign(limit_ / 2, Slice{});
      for (const ChartPoint& q : raw_) ToSlice(q);
      raw_.clear();
      raw_.shrink_to_fit();
      return;
    }
    ToSlice(p);
  }

  std::vector<ChartPoint> Points() const {
    if (!thinned_) return raw_;
    std::vector<ChartPoint> out;
    for (const Slice& s : slices_) {
      if (!s.count) continue;
      const bool low_first = s.low_index <= s.high_index;
      out.push_back(low_first ? s.low : s.high);
      if (s.low_index != s.high_index) out.push_back(low_first ? s.high : s.low);
    }
    return out;
  }

 private:
  struct Slice {
    ChartPoint low{0, 0}, high{0, 0};
    size_t low_index = 0, high_index = 0, count = 0;
  };

  void ToSlice(ChartPoint p) {
    const double at = t_span_ > 0 ? p.t_ns / t_span_ : 0;
    const size_t i = std::min(slices_.size() - 1, static_cast<size_t>(std::max(0.0, at * static_cast<double>(slices_.size()))));
    Slice& s = slices_[i];
    const size_t index = seen_++;
    if (!s.count || p.value < s.low.value) s.low = p, s.low_index = index;
    if (!s.count || p.value > s.high.value) s.high = p, s.high_index = index;
    ++s.count;
  }

  size_t limit_;
  double t_span_;
  bool thinned_ = false;
  size_t seen_ = 0;
  std::vector<ChartPoint> raw_;
  std::vector<Slice> slices_;
};

// What the first pass learns of one series.
struct Seen {
  std::string device, port, metric;
  int priority;
  double peak = 0;
  double sum = 0;             // of the values: among equal peaks, the series that held it longer
  size_t rows = 0, held = 0;  // held: rows with a value above zero
  size_t order = 0;           // first appearance: ties keep the file's order
};

// The second pass's state of a chosen series.
struct Kept {
  SeriesTrace* trace;
  bool pause;
  Thinner thinner;
  bool any = false;
  ChartPoint last{0, 0};
  double open_from = -1;  // pause: when the current span began; -1 while not paused
};

}  // namespace

const std::vector<std::string>& SeriesMetricNames() {
  static const std::vector<std::string> kNames = {"queue_depth", "pg_occupancy", "link_util",
                                                  "flow_rate",   "cc_rate",      "pause_state"};
  return kNames;
}

SeriesData ReadSeries(std::istream& in, const std::string& file, double t_end_ns, const SeriesLimits& limits) {
  SeriesData data;
  std::unordered_map<std::string, size_t> index;
  std::vector<Seen> seen;
  double last_t = -1;
  std::string key;
  ForEachRow(in, file, [&](const Row& r, int number, const RowParser& parser) {
    if (r.t < last_t)
      parser.Fail(number, 1, kColumns[0], "the rows go back in time (" + std::to_string(r.t) + " after " +
                                              std::to_string(last_t) + ")");
    if (last_t >= 0 && r.t > last_t && (data.interval_ns == 0 || r.t - last_t < data.interval_ns))
      data.interval_ns = r.t - last_t;
    last_t = r.t;
    ++data.rows;
    SeriesKey(r.metric, r.device, r.port, r.priority, &key);
    auto [it, fresh] = index.try_emplace(key, seen.size());
    if (fresh) seen.push_back(Seen{r.device, r.port, r.metric, r.priority, r.value, 0, 0, 0, seen.size()});
    Seen& s = seen[it->second];
    s.peak = std::max(s.peak, r.value);
    s.sum += r.value;
    ++s.rows;
    if (r.value > 0) ++s.held;
  });
  data.last_t_ns = std::max(0.0, last_t);
  // With one sample time only, the interval is the time from the start to it.
  if (data.interval_ns == 0) data.interval_ns = data.last_t_ns;
  const double t_span = std::max(t_end_ns, data.last_t_ns);

  // The metrics in the report's order, then the others in the order the file has them.
  std::vector<std::string> metrics = SeriesMetricNames();
  for (const Seen& s : seen)
    if (std::find(metrics.begin(), metrics.end(), s.metric) == metrics.end()) metrics.push_back(s.metric);
  const std::vector<std::string>& known = SeriesMetricNames();
  for (const std::string& m : metrics) {
    MetricTraces mt;
    mt.metric = m;
    std::vector<const Seen*> of;
    for (const Seen& s : seen)
      if (s.metric == m) of.push_back(&s), mt.rows += s.rows;
    mt.series = of.size();
    if (of.empty() && std::find(known.begin(), known.end(), m) == known.end()) continue;
    const bool pause = m == "pause_state";
    std::stable_sort(of.begin(), of.end(), [&](const Seen* a, const Seen* b) {
      if (pause) return a->held > b->held;
      return a->peak != b->peak ? a->peak > b->peak : a->sum > b->sum;
    });
    const size_t keep = pause ? limits.pause_rows : limits.lines;
    for (const Seen* s : of) {
      if (mt.top.size() == keep || (pause ? s->held == 0 : s->peak <= 0)) break;
      SeriesTrace t;
      t.device = s->device, t.port = s->port, t.priority = s->priority, t.peak = s->peak, t.rows = s->rows;
      t.held_ns = static_cast<double>(s->held) * data.interval_ns;
      mt.top.push_back(std::move(t));
    }
    data.metrics.push_back(std::move(mt));
  }

  // The second pass: the points (or spans) of the chosen series.
  std::unordered_map<std::string, Kept> kept;
  for (MetricTraces& mt : data.metrics)
    for (SeriesTrace& t : mt.top) {
      SeriesKey(mt.metric, t.device, t.port, t.priority, &key);
      kept.emplace(key, Kept{&t, mt.metric == "pause_state", Thinner(limits.points, t_span)});
    }
  if (kept.empty()) return data;
  const double interval = data.interval_ns;
  const double merge = t_span / kPauseMergeSlices;
  ForEachRow(in, file, [&](const Row& r, int, const RowParser&) {
    SeriesKey(r.metric, r.device, r.port, r.priority, &key);
    auto it = kept.find(key);
    if (it == kept.end()) return;
    Kept& k = it->second;
    if (k.pause) {
      std::vector<ChartSpan>& spans = k.trace->spans;
      if (r.value > 0 && k.open_from < 0) {
        // Close to the span before: one span, so a flickering pause stays a bounded list.
        if (!spans.empty() && r.t - spans.back().to_ns <= merge) {
          k.open_from = spans.back().from_ns;
          spans.pop_back();
        } else {
          k.open_from = r.t;
        }
      } else if (r.value <= 0 && k.open_from >= 0) {
        spans.push_back({k.open_from, r.t, ""});
        k.open_from = -1;
      }
      return;
    }
    // Zero before the first row, and between a return to zero and the next row.
    const bool from_zero = !k.any || k.last.value == 0;
    if (from_zero && r.value != 0 && r.t - interval > (k.any ? k.last.t_ns : -1) + interval / 2)
      k.thinner.Add({r.t - interval, 0});
    k.thinner.Add({r.t, r.value});
    k.any = true;
    k.last = {r.t, r.value};
  });
  for (auto& [key_, k] : kept) {
    if (k.pause) {
      if (k.open_from >= 0) k.trace->spans.push_back({k.open_from, t_span, ""});  // paused to the end
    } else {
      k.trace->points = k.thinner.Points();
    }
  }
  return data;
}

}  // namespace rocelab
