#include "sweep/sweep_plot.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "report/html_page.h"
#include "sweep/key_figures.h"
#include "sweep/sweep_table.h"
#include "util/config_error.h"
#include "util/units.h"

namespace rocelab {
namespace {

// The quantity `text` stands for, if it reads as `kind`'s (0 plain, 1 size, 2 time, 3 rate).
bool Quantity(const std::string& text, int kind, double* v) {
  std::string error;
  uint64_t u = 0;
  Time t = 0;
  switch (kind) {
    case 0: return ParseNumber(text, v, &error);
    case 1: return ParseSize(text, &u, &error) && (*v = static_cast<double>(u), true);
    case 2: return ParseTime(text, &t, &error) && (*v = static_cast<double>(t), true);
    case 3: return ParseRate(text, &u, &error) && (*v = static_cast<double>(u), true);
  }
  return false;
}

bool Number(const std::string& text, double* v) {
  std::string error;
  return !text.empty() && ParseNumber(text, v, &error) && std::isfinite(*v);
}

}  // namespace

XYChart MakeSweepPlot(const std::vector<RunRecord>& runs, const std::vector<std::string>& keys,
                      const std::string& x_key, const std::string& metric, const std::string& file) {
  const auto x_at = std::find(keys.begin(), keys.end(), x_key);
  if (x_at == keys.end()) {
    std::string swept;
    for (const std::string& k : keys) swept += (swept.empty() ? "" : ", ") + k;
    throw ConfigError(file, 0, "", "'" + x_key + "' is not a swept key: plot against one of " + swept);
  }
  const SweepTable t = MakeSweepTable(runs, keys, {metric}, file);
  const size_t x_col = 1 + static_cast<size_t>(x_at - keys.begin()), m_col = 1 + keys.size();

  // The key's values in the campaign's order, and where each goes on the axis.
  std::vector<std::string> values;
  for (const auto& row : t.rows)
    if (std::find(values.begin(), values.end(), row[x_col]) == values.end()) values.push_back(row[x_col]);
  std::map<std::string, double> x_of;
  int kind_found = 0;
  for (int kind = 0; kind < 4 && x_of.empty(); ++kind) {
    std::map<std::string, double> xs;
    for (const std::string& v : values) {
      double x;
      if (!Quantity(v, kind, &x)) break;
      xs[v] = x;
    }
    if (xs.size() == values.size()) x_of = xs, kind_found = kind;
  }
  const bool by_quantity = !x_of.empty();
  if (!by_quantity)
    for (size_t i = 0; i < values.size(); ++i) x_of[values[i]] = static_cast<double>(i);

  XYChart c;
  c.id = "sweep_plot";
  c.title = metric + " against " + x_key;
  static const char* const kKind[] = {"", "a size", "a time", "a rate"};
  c.categorical = !by_quantity;
  c.x_label = x_key + (by_quantity ? (*kKind[kind_found] ? std::string(" (") + kKind[kind_found] + ", to scale)" : " (to scale)")
                                   : " (in the campaign's order)");
  const std::string unit = MetricUnit(metric);
  c.y_label = metric + (unit.empty() ? "" : " (" + unit + ")");
  for (const std::string& v : values) c.x_ticks.emplace_back(x_of[v], v.empty() ? "(base)" : v);
  std::sort(c.x_ticks.begin(), c.x_ticks.end());

  // A line per combination of the other keys (seed aside), in the order they first appear.
  struct Cell {
    std::vector<double> ys;
    std::vector<std::string> ids;
  };
  std::vector<std::string> line_names;
  std::map<std::string, std::map<double, Cell>> lines;
  size_t left_out = 0;
  for (const auto& row : t.rows) {
    std::string name;
    for (size_t k = 0; k < keys.size(); ++k) {
      if (1 + k == x_col || keys[k] == "seed") continue;
      name += (name.empty() ? "" : ", ") + keys[k] + " " + (row[1 + k].empty() ? "(base)" : row[1 + k]);
    }
    if (name.empty()) name = "all runs";
    double y;
    if (!Number(row[m_col], &y)) {
      ++left_out;
      continue;
    }
    if (!lines.count(name)) line_names.push_back(name);
    Cell& cell = lines[name][x_of[row[x_col]]];
    cell.ys.push_back(y);
    cell.ids.push_back(row[0]);
  }
  for (const std::string& name : line_names) {
    XYLine line{name, {}};
    for (const auto& [x, cell] : lines[name]) {
      double sum = 0;
      for (double y : cell.ys) sum += y;
      const double mean = sum / static_cast<double>(cell.ys.size());
      std::string title = name + ": " + metric + " " + FormatFixed(mean, 4);
      const auto [lo, hi] = std::minmax_element(cell.ys.begin(), cell.ys.end());
      if (cell.ys.size() > 1)
        title += " (mean of " + std::to_string(cell.ys.size()) + " runs, min " + FormatFixed(*lo, 4) + ", max " +
                 FormatFixed(*hi, 4) + ")";
      std::string ids;
      for (const std::string& id : cell.ids) ids += (ids.empty() ? "" : " ") + id;
      line.points.push_back({x, mean, title + "; runs " + ids, *lo, *hi});
    }
    c.lines.push_back(std::move(line));
  }
  c.note = std::to_string(t.rows.size() - left_out) + " runs" +
           (by_quantity ? "; " + x_key + " to scale" : "; " + x_key + " in the campaign's order") +
           (std::find(keys.begin(), keys.end(), "seed") != keys.end() && x_key != "seed"
                ? std::string("; each point the mean over seeds, ") +
                      (by_quantity ? "the shaded band" : "the bar through it") + " their lowest to highest"
                : "") +
           (left_out ? "; " + std::to_string(left_out) + " runs without a value of " + metric + " left out" : "");
  return c;
}

std::string SweepPlotHtml(const XYChart& chart, const std::string& dir) {
  return HtmlDocument("rocelab sweep: " + chart.title, dir, {{"plot", chart.title, SvgXYChart(chart)}});
}

}  // namespace rocelab
