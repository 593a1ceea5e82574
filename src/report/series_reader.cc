#include "report/series_reader.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>

#include "report/series_rows.h"

namespace rocelab {
namespace {

constexpr size_t kPauseMergeSlices = 1000;  // pause spans closer than 1/1000 of the run are one

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
  ForEachSeriesRow(in, file, [&](const SeriesRow& r, int number) {
    if (r.t_ns < last_t)
      FailSeriesRow(file, number, r, 0, "the rows go back in time (" + std::to_string(r.t_ns) + " after " +
                                            std::to_string(last_t) + ")");
    if (last_t >= 0 && r.t_ns > last_t && (data.interval_ns == 0 || r.t_ns - last_t < data.interval_ns))
      data.interval_ns = r.t_ns - last_t;
    last_t = r.t_ns;
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
  ForEachSeriesRow(in, file, [&](const SeriesRow& r, int) {
    SeriesKey(r.metric, r.device, r.port, r.priority, &key);
    auto it = kept.find(key);
    if (it == kept.end()) return;
    Kept& k = it->second;
    if (k.pause) {
      std::vector<ChartSpan>& spans = k.trace->spans;
      if (r.value > 0 && k.open_from < 0) {
        // Close to the span before: one span, so a flickering pause stays a bounded list.
        if (!spans.empty() && r.t_ns - spans.back().to_ns <= merge) {
          k.open_from = spans.back().from_ns;
          spans.pop_back();
        } else {
          k.open_from = r.t_ns;
        }
      } else if (r.value <= 0 && k.open_from >= 0) {
        spans.push_back({k.open_from, r.t_ns, ""});
        k.open_from = -1;
      }
      return;
    }
    // Zero before the first row, and between a return to zero and the next row.
    const bool from_zero = !k.any || k.last.value == 0;
    if (from_zero && r.value != 0 && r.t_ns - interval > (k.any ? k.last.t_ns : -1) + interval / 2)
      k.thinner.Add({r.t_ns - interval, 0});
    k.thinner.Add({r.t_ns, r.value});
    k.any = true;
    k.last = {r.t_ns, r.value};
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
