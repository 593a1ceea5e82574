// Charts over simulated time, drawn as inline SVG text: no script, nothing
// fetched, the same bytes for the same data.
//
//   SvgLineChart  values over time, one polyline per series, axes in the unit
//                 that suits the run (ns, µs, ms, s) and the values (bytes,
//                 shares, Gb/s), a legend naming each line.
//   SvgSpanChart  one row per element, bars where something held (a port
//                 paused, a fault in force) and marks at instants (detected,
//                 acted on, recovered).
//
// Both time charts draw the marks they are given across the plot, as dashed
// vertical lines (a fault injected, detected, acted on, recovered), so every
// chart of a run shows where its story happened.
//   SvgXYChart    values against a quantity that is not time (a sweep's swept
//                 setting), a marker at each point, the x axis labelled at
//                 the values given.
//
// The caller decides what goes in (which series, how many points: see
// series_reader.h); the charts draw what they are given. Every name is
// escaped; each line is a <polyline class="line" data-name=...> and each bar a
// <rect class="span...">, so a reader of the page (or a test) can count them.
#ifndef ROCELAB_REPORT_SVG_CHART_H_
#define ROCELAB_REPORT_SVG_CHART_H_

#include <string>
#include <utility>
#include <vector>

namespace rocelab {

struct ChartPoint {
  double t_ns;
  double value;
};

struct ChartLine {
  std::string name;
  std::vector<ChartPoint> points;  // in time order
  int colour = -1;                 // the palette's entry; -1: the line's place in the chart
  bool dashed = false;             // drawn dashed (the "before" of a comparison)
};

// What the values of a chart count, for its axis labels.
enum class ChartUnit { kBytes, kShare, kGbps, kCount };

struct ChartMark {
  double t_ns;
  std::string kind;  // injected, detected, action, recovered or event: its colour
  std::string title;
};

struct LineChart {
  std::string id;     // the <svg>'s data-chart ("queue_depth")
  std::string title;  // above the chart
  std::string note;   // under the title: what was left out, how points were thinned
  ChartUnit unit = ChartUnit::kCount;
  double t_end_ns = 0;  // the time axis runs from 0 to here
  std::vector<ChartLine> lines;
  std::vector<ChartMark> marks;  // drawn across the plot: <line class="marker marker-KIND">
};

// A figure: the title, the note, then the <svg class="chart">.
std::string SvgLineChart(const LineChart& chart);

struct ChartSpan {
  double from_ns, to_ns;
  std::string title;  // the tooltip
};
struct SpanRow {
  std::string name;
  std::string span_class = "span";  // "span" (red) or "fault-span" (orange)
  std::vector<ChartSpan> spans;
  std::vector<ChartMark> marks;
};
struct SpanChart {
  std::string id, title, note;
  double t_end_ns = 0;
  std::vector<SpanRow> rows;
  std::vector<ChartMark> marks;  // the whole chart's, drawn across every row
};

std::string SvgSpanChart(const SpanChart& chart);

struct XYPoint {
  double x, y;
  std::string title;  // the marker's tooltip
  double lo = y, hi = y;  // the spread of the runs behind it (the seeds' min and max)
};
struct XYLine {
  std::string name;
  std::vector<XYPoint> points;  // in x order
};
struct XYChart {
  std::string id, title, note;
  std::string x_label, y_label;
  // Where the x axis is labelled: (x, text), the axis spanning the first to the last.
  std::vector<std::pair<double, std::string>> x_ticks;
  std::vector<XYLine> lines;
  bool categorical = false;  // x is a set of names, not a quantity: points, no line between them
};

// Each line a <polyline class="line" data-name=...> (with no points when categorical), each point
// a <circle class="point">; a point's spread (lo < hi) a <polygon class="band"> along a line, or a
// <line class="spread"> at a categorical point.
std::string SvgXYChart(const XYChart& chart);

// The time axis's ticks for a run of `t_end_ns`: a step of 1, 2 or 5 times a power of ten, and
// the unit their labels are written in ("µs"), as (t_ns, label) pairs from 0.
std::vector<std::pair<double, std::string>> TimeTicks(double t_end_ns);

}  // namespace rocelab

#endif  // ROCELAB_REPORT_SVG_CHART_H_
