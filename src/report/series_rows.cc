#include "report/series_rows.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "util/config_error.h"

namespace rocelab {

const char kSeriesCsvHeader[] = "t_ns,device,port,priority,metric,value";

namespace {

const char* const kColumns[] = {"t_ns", "device", "port", "priority", "metric", "value"};

class RowParser {
 public:
  explicit RowParser(const std::string& file) : file_(file) {}

  // False for a blank line.
  bool Parse(const std::string& line, int number, SeriesRow* row) const {
    if (line.empty()) return false;
    size_t start = 0;
    std::string field[6];
    int n = 0;
    for (size_t i = 0; i <= line.size(); ++i) {
      if (i < line.size() && line[i] != ',') continue;
      if (n == 6) Fail(number, static_cast<int>(i) + 1, "", "more than 6 fields (" + std::string(kSeriesCsvHeader) + ")");
      row->column[n] = static_cast<int>(start) + 1;
      field[n++] = line.substr(start, i - start);
      start = i + 1;
    }
    if (n != 6) Fail(number, 0, "", "6 fields expected (" + std::string(kSeriesCsvHeader) + "), found " + std::to_string(n));
    row->t_ns = Number(field[0], number, *row, 0);
    if (row->t_ns < 0) Fail(number, row->column[0], kColumns[0], "a time cannot be negative");
    if (field[1].empty()) Fail(number, row->column[1], kColumns[1], "no device named");
    row->device = std::move(field[1]);
    row->port = std::move(field[2]);
    row->priority = -1;
    if (!field[3].empty()) {
      const double p = Number(field[3], number, *row, 3);
      if (p != std::floor(p) || p < 0 || p > 7) Fail(number, row->column[3], kColumns[3], "a priority is 0..7, found " + field[3]);
      row->priority = static_cast<int>(p);
    }
    row->metric = std::move(field[4]);
    if (row->metric.empty()) Fail(number, row->column[4], kColumns[4], "no metric named");
    row->value = Number(field[5], number, *row, 5);
    return true;
  }

  [[noreturn]] void Fail(int line, int column, const std::string& key, const std::string& what) const {
    throw ConfigError(file_, line, column, key, what);
  }

 private:
  double Number(const std::string& s, int line, const SeriesRow& row, int index) const {
    errno = 0;
    char* end = nullptr;
    const double v = s.empty() || std::isspace(static_cast<unsigned char>(s[0])) ? NAN : std::strtod(s.c_str(), &end);
    if (std::isnan(v) || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
      Fail(line, row.column[index], kColumns[index], "a number expected, found '" + s + "'");
    return v;
  }

  const std::string& file_;
};

}  // namespace

void FailSeriesRow(const std::string& file, int line, const SeriesRow& row, int index, const std::string& what) {
  throw ConfigError(file, line, row.column[index], kColumns[index], what);
}

void ForEachSeriesRow(std::istream& in, const std::string& file,
                      const std::function<void(const SeriesRow& row, int line)>& f) {
  in.clear();
  in.seekg(0);
  const RowParser parser(file);
  std::string line;
  int number = 0;
  SeriesRow row;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1) {
      if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a byte-order mark a spreadsheet added
      if (line != kSeriesCsvHeader)
        parser.Fail(1, 0, "", "not a rocelab series.csv: the first line is not '" + std::string(kSeriesCsvHeader) + "'");
      continue;
    }
    if (parser.Parse(line, number, &row)) f(row, number);
  }
  if (in.bad()) parser.Fail(0, 0, "", "cannot read the file");
  if (number == 0) parser.Fail(0, 0, "", "empty: not a rocelab series.csv");
}

}  // namespace rocelab
