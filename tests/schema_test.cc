// The scenario keys are declared once (scenario/options.h): `rocelab schema` prints them, the
// README's key table is that output, and the declared defaults are what the readers and the
// structs use.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "scenario/options.h"
#include "scenario/scenario.h"

namespace rocelab {
namespace {

std::string RocelabOutput(const std::string& args) {
  const std::string cmd = std::string(ROCELAB_BINARY) + " " + args;
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  EXPECT_EQ(pclose(p), 0) << cmd;
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// "| `a` | b \| c | d |" -> {"`a`", "b \| c", "d"}: cells split at unescaped bars.
std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  std::string cur;
  for (size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '|' && row[i - 1] != '\\') {
      size_t a = cur.find_first_not_of(' '), b = cur.find_last_not_of(' ');
      cells.push_back(a == std::string::npos ? "" : cur.substr(a, b - a + 1));
      cur.clear();
    } else {
      cur += row[i];
    }
  }
  return cells;
}

struct Table {
  std::vector<std::string> keys;                         // in order
  std::map<std::string, std::vector<std::string>> rows;  // key -> cells
};

// The table that starts at the line equal to `header` (its rows: the lines after the rule).
Table ParseTable(const std::vector<std::string>& lines, const std::string& header) {
  Table t;
  size_t i = 0;
  while (i < lines.size() && lines[i] != header) ++i;
  EXPECT_LT(i, lines.size()) << "no table with the header " << header;
  for (i += 2; i < lines.size() && !lines[i].empty() && lines[i][0] == '|'; ++i) {
    std::vector<std::string> cells = Cells(lines[i]);
    if (cells.empty()) continue;
    std::string key = cells[0];
    if (key.size() > 1 && key.front() == '`' && key.back() == '`') key = key.substr(1, key.size() - 2);
    EXPECT_EQ(t.rows.count(key), 0u) << "key listed twice: " << key;
    t.keys.push_back(key);
    t.rows[key] = cells;
  }
  return t;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Schema, TheReadmeKeyTableIsTheSchema) {
  const std::vector<std::string> schema_lines = Lines(RocelabOutput("schema"));
  ASSERT_GT(schema_lines.size(), 2u);
  const std::string header = schema_lines[0];
  const Table schema = ParseTable(schema_lines, header);
  const Table readme = ParseTable(Lines(ReadFile(std::string(ROCELAB_SOURCE_DIR) + "/README.md")), header);
  const char* fix = " (the README's table under 'The scenario file' is the output of `rocelab schema`)";
  for (const std::string& key : schema.keys) {
    auto it = readme.rows.find(key);
    if (it == readme.rows.end()) {
      ADD_FAILURE() << "the README does not list '" << key << "'" << fix;
      continue;
    }
    const std::vector<std::string>& want = schema.rows.at(key);
    const std::vector<std::string>& have = it->second;
    ASSERT_EQ(have.size(), want.size()) << key << fix;
    EXPECT_EQ(have[1], want[1]) << "unit of " << key << fix;
    EXPECT_EQ(have[2], want[2]) << "range of " << key << fix;
    EXPECT_EQ(have[3], want[3]) << "default of " << key << fix;
    EXPECT_EQ(have[4], want[4]) << "meaning of " << key << fix;
  }
  for (const std::string& key : readme.keys)
    EXPECT_TRUE(schema.rows.count(key)) << "the README lists '" << key << "', which no reader takes" << fix;
  EXPECT_EQ(readme.keys, schema.keys) << "the order differs" << fix;
}

TEST(Schema, JsonListsTheSameKeysAndDefaults) {
  const nlohmann::json json = nlohmann::json::parse(RocelabOutput("schema --json"));
  const std::vector<const Option*>& options = ScenarioOptions();
  ASSERT_TRUE(json.is_array());
  ASSERT_EQ(json.size(), options.size());
  for (size_t i = 0; i < options.size(); ++i) {
    const nlohmann::json& o = json[i];
    ASSERT_TRUE(o.is_object());
    EXPECT_EQ(o.value("key", ""), options[i]->key);
    EXPECT_EQ(o.value("default", ""), DefaultText(*options[i])) << options[i]->key;
    EXPECT_EQ(o.value("required", false), options[i]->required != nullptr) << options[i]->key;
  }
}

TEST(Schema, EveryOptionIsDeclaredOnceWithOneLineOfHelp) {
  std::set<std::string> keys;
  for (const Option* o : ScenarioOptions()) {
    EXPECT_TRUE(keys.insert(o->key).second) << "declared twice: " << o->key;
    EXPECT_NE(std::string(o->leaf()), "") << o->key;
    const std::string help = o->help;
    EXPECT_FALSE(help.empty()) << o->key;
    EXPECT_EQ(help.find('\n'), std::string::npos) << o->key;
    if (o->unit == Unit::kChoice && !o->required && !o->default_in_words) {
      EXPECT_NE(ChoiceList(*o).find(o->def_text), std::string::npos) << o->key;
    }
  }
}

std::string Join(const std::vector<std::string>& items, const char* open, const char* close) {
  std::string s = open;
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
  return s + close;
}

// The few defaults written as text (not numbers the structs take from options.h) agree with the code.
TEST(Schema, DefaultsWrittenAsTextAgreeWithTheStructs) {
  std::vector<std::string> weights;
  for (uint32_t w : SwitchSpec().ets_weights) weights.push_back(std::to_string(w));
  EXPECT_EQ(DefaultText(opt::kSwitchEtsWeights), Join(weights, "[", "]"));
  std::vector<std::string> map;
  const std::array<uint8_t, 64> dscp = DefaultDscpMap();
  for (int d = 0; d < 64; ++d)
    if (dscp[d]) map.push_back(std::to_string(d) + ": " + std::to_string(dscp[d]));
  EXPECT_EQ(DefaultText(opt::kSwitchDscpToPriority), Join(map, "{", "}"));
  EXPECT_EQ(DefaultText(opt::kNicDscpToPriority), Join(map, "{", "}"));
  EXPECT_EQ(NicSpec().dcqcn.profile, DefaultText(opt::kNicDcqcnProfile));
  EXPECT_EQ(Scenario().name, DefaultText(opt::kName));
}

// `a.b.c` with value v -> "a: {b: {c: v}}"; a key under topology goes beside its type, and a
// key that acts only beside another gets that one too (a runbook's delay, a price's currency).
std::string YamlSetting(const std::string& key, const std::string& value) {
  const std::string top = "topology: {type: spine-leaf}\n";
  if (key.rfind("recovery.delay.", 0) == 0)
    return top + "monitor: {refresh: instant, interval: 1ms}\nrecovery: {mode: runbook, delay: {" + key.substr(15) + ": " + value + "}}\n";
  if (key == "cost.currency") return top + "cost: {per_hour: 1, currency: " + value + "}\n";
  if (key.rfind("cost.checkpoint.", 0) == 0)
    return top + "cost: {per_hour: 1, checkpoint: {interval: 4h, " + key.substr(16) + ": " + value + "}}\n";
  if (key.rfind("nic.dctcp.", 0) == 0) return top + "nic: {cc: dctcp, dctcp: {" + key.substr(10) + ": " + value + "}}\n";
  if (key.rfind("nic.timely.", 0) == 0) return top + "nic: {cc: timely, timely: {" + key.substr(11) + ": " + value + "}}\n";
  if (key.rfind("nic.hpcc.", 0) == 0) return top + "nic: {cc: hpcc, hpcc: {" + key.substr(9) + ": " + value + "}}\n";
  if (key.rfind("cost.response.", 0) == 0) return top + "cost: {per_hour: 1, response: {" + key.substr(14) + ": " + value + "}}\n";
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  std::string yaml = value;
  for (size_t i = parts.size(); i-- > 1;) yaml = "{" + parts[i] + ": " + yaml + "}";
  if (parts[0] != "topology") return "topology: {type: spine-leaf}\n" + parts[0] + ": " + yaml + "\n";
  const char* type = key == "topology.k" ? "fat-tree" : "spine-leaf";
  return "topology: {type: " + std::string(type) + ", " + yaml.substr(1) + "\n";
}

// Setting a key to its declared default is accepted: the key, its unit, its range and the
// default agree with the reader that takes it.
TEST(Schema, EveryDeclaredDefaultIsAcceptedWhereItIsDeclared) {
  int checked = 0;
  for (const Option* o : ScenarioOptions()) {
    const std::string key = o->key, def = DefaultText(*o);
    if (def.empty() || o->required || o->default_in_words || key.find_first_of("[<") != std::string::npos) continue;
    const std::string yaml = YamlSetting(key, def);
    try {
      ParseScenarioText(yaml, "default.yaml");
      ++checked;
    } catch (const ConfigError& e) {
      ADD_FAILURE() << key << ": " << e.what() << "\n" << yaml;
    }
  }
  EXPECT_GT(checked, 40);
}

}  // namespace
}  // namespace rocelab
