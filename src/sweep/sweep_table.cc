#include "sweep/sweep_table.h"

#include <algorithm>

#include "sweep/key_figures.h"
#include "util/config_error.h"
#include "util/json_value.h"

namespace rocelab {
namespace {

[[noreturn]] void Throw(const std::string& file, int line, const std::string& key, const std::string& what) {
  throw ConfigError(file, line, key, what);
}

}  // namespace

SweepTable MakeSweepTable(const std::vector<RunRecord>& runs, const std::vector<std::string>& keys,
                          const std::vector<std::string>& metrics, const std::string& file) {
  const bool chosen = !metrics.empty();
  const std::vector<std::string> names = chosen ? metrics : DefaultMetrics();
  std::vector<std::vector<std::string>> cells(runs.size());
  std::vector<bool> seen(names.size(), false);
  for (size_t r = 0; r < runs.size(); ++r) {
    const JsonDocument overrides = ParseJsonDocument(runs[r].overrides, file + " (run " + runs[r].id + ")", Throw);
    const JsonDocument summary = ParseJsonDocument(runs[r].summary, file + " (run " + runs[r].id + ")", Throw);
    cells[r].push_back(runs[r].id);
    for (const std::string& k : keys) cells[r].push_back(CellText(overrides.is_object() && overrides.contains(k) ? &overrides[k] : nullptr));
    for (size_t m = 0; m < names.size(); ++m) {
      const JsonDocument* v = MetricValue(summary, names[m], file);
      seen[m] = seen[m] || v;
      cells[r].push_back(CellText(v));
    }
  }
  std::string all;
  for (const KeyFigure& f : KeyFigures()) all += std::string(all.empty() ? "" : ", ") + f.name;
  for (size_t m = 0; m < names.size(); ++m)
    if (chosen && !seen[m] && !runs.empty())
      throw ConfigError(file, 0, "", "no run has a metric '" + names[m] + "': name one of " + all +
                                         ", or a key path into summary.json (totals.cnp_handled)");
  SweepTable t;
  t.header.push_back("run");
  t.header.insert(t.header.end(), keys.begin(), keys.end());
  const size_t first = t.header.size();
  for (size_t m = 0; m < names.size(); ++m)
    if (seen[m] || chosen) t.header.push_back(names[m]);
  for (std::vector<std::string>& row : cells) {
    std::vector<std::string> kept(row.begin(), row.begin() + static_cast<long>(first));
    for (size_t m = 0; m < names.size(); ++m)
      if (seen[m] || chosen) kept.push_back(row[first + m]);
    t.rows.push_back(std::move(kept));
  }
  return t;
}

std::string TableText(const SweepTable& t) {
  std::vector<size_t> width(t.header.size(), 0);
  const auto measure = [&](const std::vector<std::string>& row) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  };
  measure(t.header);
  for (const auto& row : t.rows) measure(row);
  std::string out;
  const auto line = [&](const std::vector<std::string>& row) {
    std::string s;
    for (size_t i = 0; i < row.size(); ++i) {
      s += row[i];
      if (i + 1 < row.size()) s += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out += s + "\n";
  };
  line(t.header);
  for (const auto& row : t.rows) line(row);
  return out;
}

std::string TableCsv(const SweepTable& t) {
  const auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string out;
  const auto line = [&](const std::vector<std::string>& row) {
    for (size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + field(row[i]);
    out += "\n";
  };
  line(t.header);
  for (const auto& row : t.rows) line(row);
  return out;
}

}  // namespace rocelab
