// `rocelab sweep --plot DIR --x KEY --metric M`: one metric against one swept
// key, as a self-contained HTML page (report/html_page.h) with one chart.
//
// The x axis is labelled at the key's values as the campaign wrote them; they
// are placed by their quantity when every value reads as one kind (plain
// numbers, sizes, times or rates: 50KB, 100KB and 200KB fall where 50, 100
// and 200 KB do), else evenly in the campaign's order. Each combination of
// the other swept keys is a line; runs that differ only in their seed are one
// point, their mean (the marker's tooltip gives the runs, min and max). A run
// without the metric (or with a value that is not a number) is left out and
// counted in the note under the chart.
#ifndef ROCELAB_SWEEP_SWEEP_PLOT_H_
#define ROCELAB_SWEEP_SWEEP_PLOT_H_

#include <string>
#include <vector>

#include "report/svg_chart.h"
#include "sweep/results_db.h"

namespace rocelab {

// The chart. A key that is not swept, or a metric no run has, is a ConfigError naming `file`.
XYChart MakeSweepPlot(const std::vector<RunRecord>& runs, const std::vector<std::string>& keys,
                      const std::string& x_key, const std::string& metric, const std::string& file);

// The page around it: titled with the sweep's folder `dir`.
std::string SweepPlotHtml(const XYChart& chart, const std::string& dir);

}  // namespace rocelab

#endif  // ROCELAB_SWEEP_SWEEP_PLOT_H_
