#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "report/html_page.h"

namespace rocelab {
namespace {

// Eight colours told apart also by most colour-blind readers (Tableau 10's first eight).
const char* const kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f"};

const char* Colour(size_t i) { return kPalette[i % (sizeof kPalette / sizeof kPalette[0])]; }

// Chart geometry, in SVG user units (pixels at 100 %).
constexpr double kWidth = 960, kLeft = 76, kRight = 250, kTop = 10, kPlotHeight = 220, kBottom = 34;
constexpr double kPlotWidth = kWidth - kLeft - kRight;
constexpr double kSpanLabel = 250, kSpanRow = 18, kSpanPlot = kWidth - kSpanLabel - 20;
constexpr size_t kLegendChars = 34;

// Coordinates with one decimal: enough for a screen, and short.
std::string Num(double v) { return FormatFixed(v, 1); }

// 1, 2 or 5 times a power of ten, at least `raw`.
double NiceStep(double raw) {
  if (!(raw > 0) || !std::isfinite(raw)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw * (1 - 1e-9)) return m * p;
  return 10 * p;
}

// Decimals that write every multiple of `step` (in the label's unit) exactly enough.
int DecimalsFor(double step) {
  int d = 0;
  while (d < 6 && std::fabs(step * std::pow(10.0, d) - std::round(step * std::pow(10.0, d))) > 1e-6) ++d;
  return d;
}

// A legend name no wider than the legend: cut at a character boundary, with an ellipsis.
std::string Shorten(const std::string& name) {
  if (name.size() <= kLegendChars) return name;
  size_t cut = kLegendChars - 1;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
  return name.substr(0, cut) + "…";
}

// Bytes count in powers of 1024, as scenario sizes do: the axis of a chart up to `top` bytes is
// written in the largest unit below it, with steps of 1, 2 or 5 of that unit.
struct ByteUnit {
  double size;
  const char* name;
};
ByteUnit ByteUnitFor(double top) {
  static const ByteUnit kUnits[] = {{1024.0 * 1024 * 1024, "GB"}, {1024.0 * 1024, "MB"}, {1024.0, "KB"}, {1, "B"}};
  for (const ByteUnit& u : kUnits)
    if (top >= u.size) return u;
  return kUnits[3];
}

std::string ValueLabel(double v, ChartUnit unit, double step, double top) {
  switch (unit) {
    case ChartUnit::kBytes: {
      const ByteUnit u = ByteUnitFor(top);
      return FormatFixed(v / u.size, DecimalsFor(step / u.size)) + " " + u.name;
    }
    case ChartUnit::kShare: return FormatFixed(v * 100, DecimalsFor(step * 100)) + " %";
    case ChartUnit::kGbps: return FormatFixed(v, DecimalsFor(step)) + " Gb/s";
    case ChartUnit::kCount: return FormatFixed(v, DecimalsFor(step));
  }
  return FormatFixed(v, 2);
}

double XOf(double t, double t_end, double left, double width) {
  const double x = t_end > 0 ? std::clamp(t / t_end, 0.0, 1.0) : 0;
  return left + x * width;
}

std::string Figure(const std::string& title, const std::string& note, const std::string& svg) {
  std::string out = "<div class=\"figure\">\n<h3>" + HtmlEscape(title) + "</h3>\n";
  if (!note.empty()) out += HtmlParagraph(note, "note");
  return out + svg + "</div>\n";
}

// The time axis under a plot from `left`, `width` wide, at height `y`, with its grid lines up
// to `top`.
std::string TimeAxis(double t_end, double left, double width, double top, double y) {
  std::string out = "<line class=\"axis\" x1=\"" + Num(left) + "\" y1=\"" + Num(y) + "\" x2=\"" + Num(left + width) +
                    "\" y2=\"" + Num(y) + "\"/>\n";
  for (const auto& [t, label] : TimeTicks(t_end)) {
    const std::string x = Num(XOf(t, t_end, left, width));
    out += "<line class=\"grid\" x1=\"" + x + "\" y1=\"" + Num(top) + "\" x2=\"" + x + "\" y2=\"" + Num(y) + "\"/>";
    out += "<text x=\"" + x + "\" y=\"" + Num(y + 14) + "\" font-size=\"11\" text-anchor=\"middle\">" +
           HtmlEscape(label) + "</text>\n";
  }
  out += "<text x=\"" + Num(left + width / 2) + "\" y=\"" + Num(y + 28) +
         "\" font-size=\"11\" text-anchor=\"middle\">simulated time</text>\n";
  return out;
}

// The value axis of a plot: grid lines and labels up to a round top at or above `top_value`.
struct ValueAxis {
  double y_max = 1;
  std::string svg;
  double Y(double v) const { return kTop + kPlotHeight - std::clamp(v / y_max, 0.0, 1.0) * kPlotHeight; }
};
ValueAxis MakeValueAxis(double top_value, ChartUnit unit) {
  // A share axis runs to 100 %: a sample a little over (a frame that straddles two intervals)
  // is drawn at the top.
  if (unit == ChartUnit::kShare) top_value = top_value < 1.1 ? 1.0 : top_value;
  if (!(top_value > 0)) top_value = 1;
  double step = NiceStep(top_value / 5);
  if (unit == ChartUnit::kBytes) {
    const double u = ByteUnitFor(top_value).size;
    step = NiceStep(top_value / 5 / u) * u;
  }
  ValueAxis a;
  a.y_max = step * std::ceil(top_value / step - 1e-9);
  for (int i = 0; i * step <= a.y_max * (1 + 1e-9); ++i) {
    const double v = i * step;
    const std::string y = Num(a.Y(v));
    a.svg += "<line class=\"grid\" x1=\"" + Num(kLeft) + "\" y1=\"" + y + "\" x2=\"" + Num(kLeft + kPlotWidth) + "\" y2=\"" + y +
             "\"/><text x=\"" + Num(kLeft - 6) + "\" y=\"" + Num(a.Y(v) + 4) + "\" font-size=\"11\" text-anchor=\"end\">" +
             HtmlEscape(ValueLabel(v, unit, step, a.y_max)) + "</text>\n";
  }
  a.svg += "<line class=\"axis\" x1=\"" + Num(kLeft) + "\" y1=\"" + Num(kTop) + "\" x2=\"" + Num(kLeft) + "\" y2=\"" +
           Num(kTop + kPlotHeight) + "\"/>\n";
  return a;
}

std::string SvgOpen(const char* css_class, const std::string& id, const std::string& title, double height) {
  return std::string("<svg class=\"") + css_class + "\" data-chart=\"" + HtmlEscape(id) +
         "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(kWidth) + "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " +
         Num(kWidth) + " " + Num(height) + "\" role=\"img\" aria-label=\"" + HtmlEscape(title) + "\">\n";
}

// The legend entry of line `i`, beside the plot.
std::string LegendEntry(size_t i, const std::string& name, size_t colour_index, bool dashed) {
  const char* colour = Colour(colour_index);
  const double ly = kTop + 10 + 16 * static_cast<double>(i);
  return "<line x1=\"" + Num(kWidth - kRight + 12) + "\" y1=\"" + Num(ly - 4) + "\" x2=\"" + Num(kWidth - kRight + 30) +
         "\" y2=\"" + Num(ly - 4) + "\" stroke=\"" + colour + "\" stroke-width=\"3\"" +
         (dashed ? " stroke-dasharray=\"6 3\"" : "") + "/><text x=\"" +
         Num(kWidth - kRight + 36) + "\" y=\"" + Num(ly) + "\" font-size=\"11\">" + HtmlEscape(Shorten(name)) + "<title>" +
         HtmlEscape(name) + "</title></text>\n";
}

// Line `i` of a chart: its polyline through `points` ("x,y x,y"), anything drawn on it (`extra`)
// and its legend entry.
std::string LineWithLegend(size_t i, const std::string& name, const std::string& points, const std::string& extra,
                           int colour_index = -1, bool dashed = false) {
  const size_t c = colour_index < 0 ? i : static_cast<size_t>(colour_index);
  return "<polyline class=\"line\" data-name=\"" + HtmlEscape(name) + "\" stroke=\"" + Colour(c) + "\" points=\"" + points +
         "\"" + (dashed ? " stroke-dasharray=\"6 3\"" : "") + "><title>" + HtmlEscape(name) + "</title></polyline>\n" + extra +
         LegendEntry(i, name, c, dashed);
}

// Each mark as a dashed vertical line from `top` to `bottom`, its text as the tooltip.
std::string MarkerLines(const std::vector<ChartMark>& marks, double t_end, double left, double width, double top,
                        double bottom) {
  std::string svg;
  for (const ChartMark& m : marks) {
    const std::string x = Num(XOf(m.t_ns, t_end, left, width));
    svg += "<line class=\"marker marker-" + HtmlEscape(m.kind) + "\" x1=\"" + x + "\" y1=\"" + Num(top) + "\" x2=\"" + x +
           "\" y2=\"" + Num(bottom) + "\"><title>" + HtmlEscape(m.title) + "</title></line>\n";
  }
  return svg;
}

// What an empty plot says in its middle, then the end of the chart.
std::string CloseChart(std::string svg, bool empty, const char* why, const std::string& title, const std::string& note) {
  if (empty)
    svg += "<text x=\"" + Num(kLeft + kPlotWidth / 2) + "\" y=\"" + Num(kTop + kPlotHeight / 2) +
           "\" font-size=\"13\" text-anchor=\"middle\">" + why + "</text>\n";
  svg += "</svg>\n";
  return Figure(title, note, svg);
}

}  // namespace

std::vector<std::pair<double, std::string>> TimeTicks(double t_end_ns) {
  std::vector<std::pair<double, std::string>> ticks;
  if (!(t_end_ns > 0) || !std::isfinite(t_end_ns)) return {{0, "0"}};
  double div = 1;
  const char* unit = "ns";
  if (t_end_ns >= 1e9) div = 1e9, unit = "s";
  else if (t_end_ns >= 1e6) div = 1e6, unit = "ms";
  else if (t_end_ns >= 1e3) div = 1e3, unit = "µs";
  const double step = NiceStep(t_end_ns / div / 8);
  const int decimals = DecimalsFor(step);
  for (int i = 0;; ++i) {
    const double t = i * step;
    if (t * div > t_end_ns * (1 + 1e-9)) break;
    ticks.emplace_back(t * div, FormatFixed(t, decimals) + " " + unit);
  }
  return ticks;
}

std::string SvgLineChart(const LineChart& c) {
  double top_value = 0;
  for (const ChartLine& l : c.lines)
    for (const ChartPoint& p : l.points)
      if (std::isfinite(p.value)) top_value = std::max(top_value, p.value);
  const ValueAxis axis = MakeValueAxis(top_value, c.unit);
  const double bottom = kTop + kPlotHeight;
  const double height = bottom + kBottom;
  std::string svg = SvgOpen("chart", c.id, c.title, height) + axis.svg;
  svg += TimeAxis(c.t_end_ns, kLeft, kPlotWidth, kTop, bottom);
  svg += MarkerLines(c.marks, c.t_end_ns, kLeft, kPlotWidth, kTop, bottom);
  for (size_t i = 0; i < c.lines.size(); ++i) {
    const ChartLine& l = c.lines[i];
    std::string points;
    for (const ChartPoint& p : l.points) {
      if (!std::isfinite(p.value)) continue;
      if (!points.empty()) points += ' ';
      points += Num(XOf(p.t_ns, c.t_end_ns, kLeft, kPlotWidth)) + "," + Num(axis.Y(p.value));
    }
    svg += LineWithLegend(i, l.name, points, "", l.colour, l.dashed);
  }
  return CloseChart(svg, c.lines.empty(), "no samples", c.title, c.note);
}

std::string SvgSpanChart(const SpanChart& c) {
  const double top = 6;
  const double bottom = top + kSpanRow * static_cast<double>(std::max<size_t>(c.rows.size(), 1));
  const double height = bottom + kBottom;
  std::string svg = SvgOpen("spans", c.id, c.title, height);
  svg += TimeAxis(c.t_end_ns, kSpanLabel, kSpanPlot, top, bottom);
  svg += MarkerLines(c.marks, c.t_end_ns, kSpanLabel, kSpanPlot, top, bottom);
  for (size_t i = 0; i < c.rows.size(); ++i) {
    const SpanRow& r = c.rows[i];
    const double y = top + kSpanRow * static_cast<double>(i);
    svg += "<g class=\"row\" data-name=\"" + HtmlEscape(r.name) + "\"><text x=\"" + Num(kSpanLabel - 8) + "\" y=\"" +
           Num(y + 13) + "\" font-size=\"11\" text-anchor=\"end\">" + HtmlEscape(Shorten(r.name)) + "<title>" +
           HtmlEscape(r.name) + "</title></text>\n";
    for (const ChartSpan& s : r.spans) {
      const double x0 = XOf(s.from_ns, c.t_end_ns, kSpanLabel, kSpanPlot);
      // At least a pixel wide: a short pause is still seen.
      const double x1 = std::max(XOf(s.to_ns, c.t_end_ns, kSpanLabel, kSpanPlot), x0 + 1);
      svg += "<rect class=\"" + HtmlEscape(r.span_class) + "\" x=\"" + Num(x0) + "\" y=\"" + Num(y + 3) + "\" width=\"" +
             Num(x1 - x0) + "\" height=\"" + Num(kSpanRow - 6) + "\"><title>" + HtmlEscape(s.title) + "</title></rect>";
    }
    for (const ChartMark& m : r.marks)
      svg += "<circle class=\"mark-" + HtmlEscape(m.kind) + "\" cx=\"" + Num(XOf(m.t_ns, c.t_end_ns, kSpanLabel, kSpanPlot)) +
             "\" cy=\"" + Num(y + kSpanRow / 2) + "\" r=\"4\"><title>" + HtmlEscape(m.title) + "</title></circle>";
    svg += "</g>\n";
  }
  svg += "</svg>\n";
  return Figure(c.title, c.note, svg);
}

std::string SvgXYChart(const XYChart& c) {
  double top_value = 0;
  for (const XYLine& l : c.lines)
    for (const XYPoint& p : l.points)
      if (std::isfinite(p.y)) top_value = std::max(top_value, p.y);
  const ValueAxis axis = MakeValueAxis(top_value, ChartUnit::kCount);
  const double bottom = kTop + kPlotHeight;
  std::string svg = SvgOpen("chart", c.id, c.title, bottom + kBottom) + axis.svg;
  // The x axis spans the first tick to the last; a single tick sits in the middle.
  const double x0 = c.x_ticks.empty() ? 0 : c.x_ticks.front().first;
  const double x1 = c.x_ticks.empty() ? 1 : c.x_ticks.back().first;
  auto x_of = [&](double x) { return x1 > x0 ? XOf(x - x0, x1 - x0, kLeft, kPlotWidth) : kLeft + kPlotWidth / 2; };
  svg += "<line class=\"axis\" x1=\"" + Num(kLeft) + "\" y1=\"" + Num(bottom) + "\" x2=\"" + Num(kLeft + kPlotWidth) +
         "\" y2=\"" + Num(bottom) + "\"/>\n";
  for (const auto& [x, label] : c.x_ticks) {
    const std::string px = Num(x_of(x));
    svg += "<line class=\"grid\" x1=\"" + px + "\" y1=\"" + Num(kTop) + "\" x2=\"" + px + "\" y2=\"" + Num(bottom) + "\"/>";
    svg += "<text x=\"" + px + "\" y=\"" + Num(bottom + 14) + "\" font-size=\"11\" text-anchor=\"middle\">" +
           HtmlEscape(label) + "</text>\n";
  }
  svg += "<text x=\"" + Num(kLeft + kPlotWidth / 2) + "\" y=\"" + Num(bottom + 28) +
         "\" font-size=\"11\" text-anchor=\"middle\">" + HtmlEscape(c.x_label) + "</text>\n";
  svg += "<text x=\"12\" y=\"" + Num(kTop + kPlotHeight / 2) + "\" font-size=\"11\" text-anchor=\"middle\" transform=\"rotate(-90 12 " +
         Num(kTop + kPlotHeight / 2) + ")\">" + HtmlEscape(c.y_label) + "</text>\n";
  for (size_t i = 0; i < c.lines.size(); ++i) {
    const XYLine& l = c.lines[i];
    const char* colour = Colour(i);
    std::string points, markers, upper, lower;
    bool spread = false;
    for (const XYPoint& p : l.points) {
      if (!std::isfinite(p.y)) continue;
      const std::string at = Num(x_of(p.x)) + "," + Num(axis.Y(p.y));
      if (!c.categorical) points += (points.empty() ? "" : " ") + at;
      const bool has_spread = std::isfinite(p.lo) && std::isfinite(p.hi) && p.lo < p.hi;
      spread = spread || has_spread;
      upper += (upper.empty() ? "" : " ") + Num(x_of(p.x)) + "," + Num(axis.Y(has_spread ? p.hi : p.y));
      lower = Num(x_of(p.x)) + "," + Num(axis.Y(has_spread ? p.lo : p.y)) + (lower.empty() ? "" : " ") + lower;
      if (c.categorical && has_spread)
        markers += "<line class=\"spread\" x1=\"" + Num(x_of(p.x)) + "\" y1=\"" + Num(axis.Y(p.lo)) + "\" x2=\"" +
                   Num(x_of(p.x)) + "\" y2=\"" + Num(axis.Y(p.hi)) + "\" stroke=\"" + colour + "\"/>";
      markers += "<circle class=\"point\" cx=\"" + Num(x_of(p.x)) + "\" cy=\"" + Num(axis.Y(p.y)) + "\" r=\"3\" fill=\"" +
                 colour + "\"><title>" + HtmlEscape(p.title) + "</title></circle>";
    }
    // Along a line, the runs' spread as a band from their lowest to their highest.
    if (!c.categorical && spread)
      svg += "<polygon class=\"band\" fill=\"" + std::string(colour) + "\" points=\"" + upper + " " + lower +
             "\"><title>" + HtmlEscape(l.name) + ": the lowest to the highest of the runs at each point</title></polygon>\n";
    svg += LineWithLegend(i, l.name, points, markers + "\n");
  }
  return CloseChart(svg, c.lines.empty(), "no values", c.title, c.note);
}

}  // namespace rocelab
