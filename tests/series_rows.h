// series.csv read back by the tests that check what a run sampled (series_test) or what was
// made of it (openmetrics_test).
#ifndef ROCELAB_TESTS_SERIES_ROWS_H_
#define ROCELAB_TESTS_SERIES_ROWS_H_

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace rocelab {

struct SeriesRow {
  double t;
  std::string device, port;
  int priority;  // -1: none
  std::string metric;
  double value;
};

// The rows of a series.csv text; a header other than series.csv's, or a row without six
// fields, fails the test.
inline std::vector<SeriesRow> SeriesRows(const std::string& text) {
  std::vector<SeriesRow> rows;
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "t_ns,device,port,priority,metric,value");
  while (std::getline(in, line)) {
    std::vector<std::string> f6;
    std::stringstream ls(line);
    std::string cell;
    while (std::getline(ls, cell, ',')) f6.push_back(cell);
    if (f6.size() == 5) f6.push_back("");
    EXPECT_EQ(f6.size(), 6u) << line;
    if (f6.size() != 6) continue;
    rows.push_back({std::stod(f6[0]), f6[1], f6[2], f6[3].empty() ? -1 : std::stoi(f6[3]), f6[4], std::stod(f6[5])});
  }
  return rows;
}

}  // namespace rocelab

#endif  // ROCELAB_TESTS_SERIES_ROWS_H_
