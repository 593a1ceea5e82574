#include "sweep/campaign.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "run/experiment.h"
#include "run/memory_estimate.h"
#include "sim/rng.h"
#include "util/config_error.h"
#include "util/text_file.h"
#include "util/units.h"

namespace rocelab {
namespace {

// The campaign's values as JSON: a scalar as the text written, null, lists and mappings.
template <typename Json>
Json ToJson(const YamlNode& n) {
  switch (n.kind) {
    case YamlNode::Kind::kScalar:
      return n.scalar;
    case YamlNode::Kind::kSeq: {
      Json a = Json::array();
      for (const YamlNode& v : n.seq) a.push_back(ToJson<Json>(v));
      return a;
    }
    case YamlNode::Kind::kMap: {
      Json o = Json::object();
      for (const YamlEntry& e : n.map) o[e.key] = ToJson<Json>(e.value);
      return o;
    }
    default:
      return nullptr;
  }
}

std::string Hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string ValueText(const YamlNode& v) {
  return v.IsScalar() ? v.scalar : ToJson<nlohmann::ordered_json>(v).dump();
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

// `a` names a value inside the one `b` names (or the same one).
bool Within(const std::string& a, const std::string& b) {
  return a == b || StartsWith(a, b + ".") || StartsWith(a, b + "[");
}

// A plain scalar that starts like a number and holds "..": a range, FIRST..LAST.
bool LooksLikeRange(const YamlNode& v) {
  if (!v.IsScalar() || v.quoted || v.scalar.find("..") == std::string::npos) return false;
  const std::string& s = v.scalar;
  return !s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) ||
                        (s.size() > 1 && (s[0] == '-' || s[0] == '+') && std::isdigit(static_cast<unsigned char>(s[1]))));
}

// The values a grid key takes: a list, a range of whole numbers, or one value.
std::vector<YamlNode> AxisValues(const std::string& file, const YamlEntry& e) {
  const YamlNode& v = e.value;
  if (v.IsSeq()) {
    if (v.seq.empty()) throw ConfigError(file, e.line, e.column, "grid." + e.key, "no values: give a list of one or more");
    return v.seq;
  }
  if (v.IsMap() || v.IsNull())
    throw ConfigError(file, e.line, e.column, "grid." + e.key, "expected a list of values ([50KB, 100KB]) or a range (1..10)");
  if (!LooksLikeRange(v)) return {v};
  const size_t dots = v.scalar.find("..");
  int64_t first = 0, last = 0;
  std::string err;
  if (!ParseInteger(v.scalar.substr(0, dots), &first, &err) || !ParseInteger(v.scalar.substr(dots + 2), &last, &err))
    throw ConfigError(file, v.line, v.column, "grid." + e.key,
                      "'" + v.scalar + "' is not a range: FIRST..LAST, both whole numbers (1..10)");
  if (last < first)
    throw ConfigError(file, v.line, v.column, "grid." + e.key, "the range " + v.scalar + " is empty (it counts down)");
  if (static_cast<uint64_t>(last - first) >= kMaxSweepRuns)
    throw ConfigError(file, v.line, v.column, "grid." + e.key,
                      "the range " + v.scalar + " has more than " + std::to_string(kMaxSweepRuns) + " values");
  std::vector<YamlNode> values;
  for (int64_t x = first; x <= last; ++x) {
    YamlNode n = v;
    n.scalar = std::to_string(x);
    values.push_back(n);
  }
  return values;
}

KeyPath ReadKeyPath(const std::string& file, const YamlEntry& e, const std::string& section) {
  KeyPath p;
  std::string err;
  if (!ParseKeyPath(e.key, &p, &err)) throw ConfigError(file, e.line, e.column, section + e.key, "not a key path: " + err);
  return p;
}

struct Axis {
  KeyPath path;
  std::vector<YamlNode> values;
};

// Refuses a run that sets a value and also a value inside it: which one wins would depend on
// the order of the keys.
void CheckNoOverlap(const std::string& file, const SweepRun& run) {
  for (size_t i = 0; i < run.overrides.size(); ++i)
    for (size_t j = 0; j < run.overrides.size(); ++j) {
      const Override& a = run.overrides[i];
      const Override& b = run.overrides[j];
      if (i != j && Within(a.path.text, b.path.text))
        throw ConfigError(file, a.line, a.column, a.path.text,
                          a.path.text == b.path.text ? "set twice in one run (in the list and in the grid)"
                                                     : "inside '" + b.path.text + "', which the same run sets as a whole");
    }
}

void ReadBase(Campaign* c, const YamlNode& root) {
  const YamlEntry* base = nullptr;
  const YamlEntry* inline_scenario = nullptr;
  for (const YamlEntry& e : root.map) {
    if (e.key == "base") base = &e;
    if (e.key == "scenario") inline_scenario = &e;
  }
  if (base && inline_scenario)
    throw ConfigError(c->file, inline_scenario->line, inline_scenario->column, "scenario",
                      "give either base (a scenario file) or scenario (the scenario itself), not both");
  if (!base && !inline_scenario)
    throw ConfigError(c->file, 1, "base", "a campaign needs a base scenario: base: FILE, or scenario: {...}");
  if (inline_scenario) {
    if (!inline_scenario->value.IsMap())
      throw ConfigError(c->file, inline_scenario->line, inline_scenario->column, "scenario", "expected the scenario's mapping");
    c->base_file = c->file;
    c->base = inline_scenario->value;
    return;
  }
  const YamlNode& v = base->value;
  if (!v.IsScalar() || v.scalar.empty())
    throw ConfigError(c->file, base->line, base->column, "base", "expected the base scenario's file name");
  // Relative to the campaign, as a scenario's CDF file is relative to the scenario.
  const size_t slash = c->file.rfind('/');
  c->base_file = v.scalar[0] == '/' || slash == std::string::npos ? v.scalar : c->file.substr(0, slash + 1) + v.scalar;
  std::string text, err;
  if (!ReadTextFile(c->base_file, &text, &err, 64ull << 20))
    throw ConfigError(c->file, v.line, v.column, "base", "'" + c->base_file + "': " + err);
  try {
    c->base = ParseYaml(text);
  } catch (const YamlError& e) {
    throw ConfigError(c->base_file, e.line(), e.column(), "", e.what());
  }
  if (!c->base.IsMap()) throw ConfigError(c->base_file, 1, "", "expected a scenario (a mapping of its keys)");
}

}  // namespace

Campaign LoadCampaign(const std::string& path) {
  Campaign c;
  c.file = path;
  std::string text, err;
  if (!ReadTextFile(path, &text, &err)) throw ConfigError(path, 0, "", err);
  YamlNode root;
  try {
    root = ParseYaml(text);
  } catch (const YamlError& e) {
    throw ConfigError(path, e.line(), e.column(), "", e.what());
  }
  if (!root.IsMap()) throw ConfigError(path, root.IsNull() ? 1 : root.line, "", "expected a campaign: base, grid, list, metrics");
  for (const YamlEntry& e : root.map)
    if (e.key != "base" && e.key != "scenario" && e.key != "grid" && e.key != "list" && e.key != "metrics")
      throw ConfigError(path, e.line, e.column, e.key, "unknown key (a campaign has base or scenario, grid, list, metrics)");
  ReadBase(&c, root);
  c.base_digest = Hex(NameHash(ToJson<nlohmann::ordered_json>(c.base).dump()));

  // The list's entries (one run each, or one run of no overrides), each times the grid.
  std::vector<std::vector<Override>> entries;
  std::vector<Axis> grid;
  const auto remember = [&](const std::string& key) {
    if (std::find(c.keys.begin(), c.keys.end(), key) == c.keys.end()) c.keys.push_back(key);
  };
  if (const YamlNode* list = root.Find("list")) {
    if (!list->IsSeq() || list->seq.empty())
      throw ConfigError(path, list->line, list->column, "list", "expected a list of combinations, each {key path: value, ...}");
    for (size_t i = 0; i < list->seq.size(); ++i) {
      const YamlNode& entry = list->seq[i];
      const std::string where = "list[" + std::to_string(i) + "]";
      if (!entry.IsMap() || entry.map.empty())
        throw ConfigError(path, entry.line, entry.column, where, "expected {key path: value, ...}");
      std::vector<Override> overrides;
      for (const YamlEntry& e : entry.map) {
        overrides.push_back({ReadKeyPath(path, e, where + "."), e.value, e.value.line, e.value.column});
        remember(e.key);
      }
      entries.push_back(std::move(overrides));
    }
  } else {
    entries.emplace_back();
  }
  uint64_t runs = entries.size();
  if (const YamlNode* g = root.Find("grid")) {
    if (!g->IsMap() || g->map.empty())
      throw ConfigError(path, g->line, g->column, "grid", "expected {key path: [values], ...}");
    for (const YamlEntry& e : g->map) {
      grid.push_back({ReadKeyPath(path, e, "grid."), AxisValues(path, e)});
      remember(e.key);
      runs *= grid.back().values.size();
      if (runs > kMaxSweepRuns)
        throw ConfigError(path, e.line, e.column, "grid." + e.key,
                          "the campaign makes more than " + std::to_string(kMaxSweepRuns) + " runs");
    }
  }
  if (const YamlNode* m = root.Find("metrics")) {
    c.metrics_line = m->line;
    if (!m->IsSeq()) throw ConfigError(path, m->line, m->column, "metrics", "expected a list of metric names");
    for (const YamlNode& v : m->seq) {
      KeyPath p;
      if (!v.IsScalar() || !ParseKeyPath(v.scalar, &p, &err))
        throw ConfigError(path, v.line, v.column, "metrics", "not a metric: " + (v.IsScalar() ? err : "expected a name"));
      c.metrics.push_back(v.scalar);
    }
  }

  for (const std::vector<Override>& entry : entries) {
    std::vector<size_t> at(grid.size(), 0);  // an odometer over the grid, the last key fastest
    do {
      SweepRun run;
      run.index = c.runs.size();
      run.overrides = entry;
      for (size_t k = 0; k < grid.size(); ++k) {
        const YamlNode& v = grid[k].values[at[k]];
        run.overrides.push_back({grid[k].path, v, v.line, v.column});
      }
      CheckNoOverlap(path, run);
      run.id = Hex(NameHash(OverridesKey(run)));
      c.runs.push_back(std::move(run));
      size_t k = grid.size();
      while (k > 0 && ++at[k - 1] == grid[k - 1].values.size()) at[--k] = 0;
      if (k == 0) break;
    } while (true);
  }
  // The same overrides twice would be one run recorded twice.
  std::vector<std::pair<std::string, size_t>> ids;
  for (const SweepRun& r : c.runs) ids.emplace_back(r.id, r.index);
  std::sort(ids.begin(), ids.end());
  for (size_t i = 1; i < ids.size(); ++i)
    if (ids[i].first == ids[i - 1].first) {
      const SweepRun& a = c.runs[std::min(ids[i].second, ids[i - 1].second)];
      const SweepRun& b = c.runs[std::max(ids[i].second, ids[i - 1].second)];
      const Override* o = b.overrides.empty() ? nullptr : &b.overrides.front();
      throw ConfigError(path, o ? o->line : 0, o ? o->column : 0, o ? o->path.text : "",
                        "run " + std::to_string(b.index) + " (" + OverridesText(b) + ") is run " +
                            std::to_string(a.index) + " again");
    }
  return c;
}

namespace {

// What the scenario reader or the fabric builder said about a run, said about the campaign: an
// error at or inside an override points at the override's value; any other names the run.
ConfigError InCampaignTerms(const Campaign& c, const SweepRun& run, const ConfigError& e) {
  for (const Override& o : run.overrides) {
    const std::string& key = o.path.text;
    const std::string value = "value '" + ValueText(o.value) + "': ";
    // Inside a list or mapping the override gives, the nodes are the campaign's own, lines included.
    if (e.key() != key && Within(e.key(), key) && e.line() > 0)
      return ConfigError(c.file, e.line(), e.column(), e.key(), e.message());
    if (!e.key().empty() && Within(key, e.key())) return ConfigError(c.file, o.line, o.column, key, value + e.message());
  }
  const ConfigError where = e.file().empty() ? ConfigError(c.base_file, e.line(), e.column(), e.key(), e.message()) : e;
  if (run.overrides.empty()) return where;
  const Override& first = run.overrides.front();
  return ConfigError(c.file, first.line, first.column, first.path.text,
                     "the run " + OverridesText(run) + ": " + where.what());
}

}  // namespace

Scenario RunScenario(const Campaign& c, const SweepRun& run) {
  YamlNode tree = c.base;
  std::string err;
  for (const Override& o : run.overrides)
    if (!SetAtKeyPath(&tree, o.path, o.value, o.line, o.column, &err))
      throw ConfigError(c.file, o.line, o.column, o.path.text, err);
  try {
    return ParseScenarioTree(tree, c.base_file);
  } catch (const ConfigError& e) {
    throw InCampaignTerms(c, run, e);
  }
}

uint64_t CheckEveryRun(const Campaign& c, uint64_t memory_limit, const std::string& limit_what) {
  uint64_t largest = 0;
  for (const SweepRun& run : c.runs) {
    const Scenario sc = RunScenario(c, run);
    const MemoryEstimate m = EstimateMemory(sc);
    largest = std::max(largest, m.total);
    if (memory_limit && m.total > memory_limit)
      throw InCampaignTerms(c, run, ConfigError(c.base_file, 0, "", "needs an estimated " + FormatBytes(m.total) + " (" +
                                                                          m.Describe() + "), more than " + limit_what));
    try {
      Experiment built(sc);
    } catch (const ConfigError& e) {
      throw InCampaignTerms(c, run, e);
    }
  }
  return largest;
}

std::string OverridesJson(const SweepRun& run) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  for (const Override& v : run.overrides) o[v.path.text] = ToJson<nlohmann::ordered_json>(v.value);
  return o.dump();
}

std::string OverridesKey(const SweepRun& run) {
  nlohmann::json o = nlohmann::json::object();  // keys sorted
  for (const Override& v : run.overrides) o[v.path.text] = ToJson<nlohmann::json>(v.value);
  return o.dump();
}

std::string OverridesText(const SweepRun& run) {
  std::string s;
  for (const Override& o : run.overrides) s += (s.empty() ? "" : " ") + o.path.text + "=" + ValueText(o.value);
  return s.empty() ? "the base scenario" : s;
}

}  // namespace rocelab
