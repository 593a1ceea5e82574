#include "scenario/config_reader.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "util/units.h"

namespace rocelab {

ConfigReader::ConfigReader(const std::string& file, const YamlNode& node, const std::string& path)
    : file_(file), node_(node), path_(path) {
  if (!node.IsMap()) {
    throw ConfigError(file, node.line, node.column, path, node.IsNull() ? "expected a mapping, found nothing"
                                                           : "expected a mapping of 'key: value'");
  }
}

const YamlNode* ConfigReader::Get(const Option& o) {
  // A reader asking for a key the schema does not list is a bug here, not bad input.
  if (!IsScenarioOption(o)) throw std::logic_error(std::string("option '") + o.key + "' is not in ScenarioOptions()");
  const char* key = o.leaf();
  const YamlNode* n = node_.Find(key);
  if (n) used_.emplace_back(key);
  else if (o.required) FailRequired(o);
  return n;
}

const YamlNode* ConfigReader::Find(const Option& o, Unit unit) {
  if (o.unit != unit) throw std::logic_error(std::string("option '") + o.key + "' is not a " + UnitName(unit));
  return Get(o);
}

void ConfigReader::Fail(const char* key, const std::string& message) const {
  // At the key where it is written, else at the mapping that lacks it.
  for (const auto& e : node_.map)
    if (e.key == key) throw ConfigError(file_, e.line, e.column, PathOf(key), message);
  throw ConfigError(file_, node_.line, node_.column, PathOf(key), message);
}

void ConfigReader::Fail(const Option& o, const std::string& message) const { Fail(o.leaf(), message); }

void ConfigReader::FailRequired(const Option& o) const {
  std::string what = o.required ? o.required : "";
  if (what.empty() && o.unit == Unit::kChoice) what = ChoiceList(o);
  Fail(o, what.empty() ? "is required" : "is required (" + what + ")");
}

// The bounds as the schema prints them (64KB to 16GB, 1ns to 3600s, 0.0009765625 to 64): a
// form the reader takes back, so the user can paste a bound into the file.
void ConfigReader::FailRange(const Option& o, const std::string& value) const {
  const std::string range = RangeText(o);
  Fail(o, "'" + value + "' is out of range" + (range.empty() ? "" : " (" + range + ")"));
}

void ConfigReader::FailAt(int line, int column, const std::string& key_path, const std::string& message) const {
  throw ConfigError(file_, line, column, key_path, message);
}

const YamlNode& ConfigReader::Scalar(const Option& o, const YamlNode* n) const {
  if (!n->IsScalar()) Fail(o, n->IsNull() ? "has no value" : "expected a single value, not a list or mapping");
  return *n;
}

namespace {

// A word that is not a number, for a key that also takes words (`auto`): say both. A number
// that did not parse (no unit, say) keeps its own message.
std::string NeitherNor(const Option& o, const std::string& value, const char* quantity, const std::string& err) {
  if (!o.values || err.find("is not a number") == std::string::npos) return err;
  std::string words = o.values;
  for (size_t i = words.find('|'); i != std::string::npos; i = words.find('|', i)) words.replace(i, 1, " or ");
  return "'" + value + "' is neither " + quantity + " nor " + words;
}

}  // namespace

bool ConfigReader::Size(const Option& o, uint64_t* out) {
  const YamlNode* n = Find(o, Unit::kSize);
  if (!n) return false;
  std::string err;
  uint64_t v;
  if (!ParseSize(Scalar(o, n).scalar, &v, &err)) Fail(o, NeitherNor(o, n->scalar, "a size such as 64KB", err));
  const double b = static_cast<double>(v);
  if (b < o.min || b > o.max) FailRange(o, n->scalar);
  *out = v;
  return true;
}

bool ConfigReader::Rate(const Option& o, uint64_t* out) {
  const YamlNode* n = Find(o, Unit::kRate);
  if (!n) return false;
  std::string err;
  if (!ParseRate(Scalar(o, n).scalar, out, &err)) Fail(o, err);
  return true;
}

bool ConfigReader::Duration(const Option& o, Time* out) {
  const YamlNode* n = Find(o, Unit::kTime);
  if (!n) return false;
  std::string err;
  Time v;
  if (!ParseTime(Scalar(o, n).scalar, &v, &err)) Fail(o, NeitherNor(o, n->scalar, "a time such as 1us", err));
  const double ps = static_cast<double>(v);
  if (ps < o.min || ps > o.max) FailRange(o, n->scalar);
  *out = v;
  return true;
}

bool ConfigReader::Bool(const Option& o, bool* out) {
  const YamlNode* n = Find(o, Unit::kBool);
  if (!n) return false;
  std::string err;
  if (!ParseBool(Scalar(o, n).scalar, out, &err)) Fail(o, err);
  return true;
}

bool ConfigReader::Integer(const Option& o, int64_t* out) {
  const YamlNode* n = Find(o, Unit::kInteger);
  if (!n) return false;
  std::string err;
  int64_t v;
  if (!ParseInteger(Scalar(o, n).scalar, &v, &err)) Fail(o, err);
  if (static_cast<double>(v) < o.min || static_cast<double>(v) > o.max) FailRange(o, n->scalar);
  *out = v;
  return true;
}

bool ConfigReader::Number(const Option& o, double* out) {
  const YamlNode* n = Find(o, Unit::kNumber);
  if (!n) return false;
  std::string err;
  double v;
  if (!ParseNumber(Scalar(o, n).scalar, &v, &err)) Fail(o, err);
  if (!(v >= o.min && v <= o.max)) FailRange(o, n->scalar);
  *out = v;
  return true;
}

bool ConfigReader::Choice(const Option& o, std::string* out) {
  const YamlNode* n = Find(o, Unit::kChoice);
  if (!n) return false;
  const std::string& v = Scalar(o, n).scalar;
  bool known = false;
  std::string word;
  for (const char* c = o.values;; ++c) {
    if (*c == '|' || *c == '\0') {
      known = known || word == v;
      word.clear();
      if (!*c) break;
    } else {
      word += *c;
    }
  }
  if (!known) Fail(o, "'" + v + "' should be " + ChoiceList(o));
  *out = v;
  return true;
}

bool ConfigReader::Text(const Option& o, std::string* out) {
  const YamlNode* n = Find(o, Unit::kText);
  if (!n) return false;
  *out = Scalar(o, n).scalar;
  return true;
}

bool ConfigReader::Name(const Option& o, NameRef* out) {
  const YamlNode* n = Find(o, Unit::kName);
  if (!n) return false;
  out->name = Scalar(o, n).scalar;
  out->line = n->line;
  out->column = n->column;
  out->key = PathOf(o);
  return true;
}

bool ConfigReader::Names(const Option& o, std::vector<NameRef>* out) {
  const YamlNode* n = Find(o, Unit::kNames);
  if (!n) return false;
  if (!n->IsSeq()) Fail(o, "expected a list of names");
  for (const YamlNode& h : n->seq) {
    if (!h.IsScalar()) FailAt(h.line, h.column, PathOf(o), "expected names");
    out->push_back({h.scalar, h.line, PathOf(o), h.column});
  }
  return true;
}

bool ConfigReader::Integers(const Option& o, std::vector<int64_t>* out) {
  const YamlNode* n = o.unit == Unit::kPriorities ? Find(o, Unit::kPriorities) : Find(o, Unit::kIntegers);
  if (!n) return false;
  out->clear();
  std::vector<const YamlNode*> items;
  if (n->IsSeq()) {
    for (const auto& i : n->seq) items.push_back(&i);
  } else if (n->IsScalar()) {
    items.push_back(n);
  } else if (!n->IsNull()) {
    Fail(o, "expected a list of numbers");
  }
  for (const YamlNode* i : items) {
    std::string err;
    int64_t v;
    if (!i->IsScalar() || !ParseInteger(i->scalar, &v, &err)) Fail(o, "expected a list of whole numbers");
    if (static_cast<double>(v) < o.min || static_cast<double>(v) > o.max) FailRange(o, std::to_string(v));
    out->push_back(v);
  }
  return true;
}

bool ConfigReader::Priorities(const Option& o, uint8_t* mask) {
  std::vector<int64_t> list;
  if (!Integers(o, &list)) return false;
  *mask = 0;
  for (int64_t p : list) *mask |= static_cast<uint8_t>(1u << p);
  return true;
}

bool ConfigReader::DscpMap(const Option& o, std::array<uint8_t, 64>* map) {
  const YamlNode* n = Find(o, Unit::kDscpMap);
  if (!n) return false;
  if (!n->IsMap()) Fail(o, "expected a mapping of DSCP: priority, e.g. {26: 3, 48: 6}");
  for (const auto& e : n->map) {
    std::string err;
    int64_t dscp, prio;
    const std::string path = PathOf(o) + "." + e.key;
    if (!ParseInteger(e.key, &dscp, &err) || dscp < 0 || dscp > 63)
      FailAt(e.line, e.column, path, "DSCP must be a whole number from 0 to 63");
    if (!e.value.IsScalar() || !ParseInteger(e.value.scalar, &prio, &err) || prio < 0 || prio > 7)
      FailAt(e.line, e.column, path, "priority must be a whole number from 0 to 7");
    (*map)[dscp] = static_cast<uint8_t>(prio);
  }
  return true;
}

bool ConfigReader::IsWord(const Option& o, std::string* which) {
  const YamlNode* n = node_.Find(o.leaf());
  if (!o.values || !n || !n->IsScalar()) return false;
  // o.values lists the words: "auto" or "auto|off".
  const std::string words = std::string("|") + o.values + "|";
  if (n->scalar.empty() || n->scalar.find('|') != std::string::npos ||
      words.find("|" + n->scalar + "|") == std::string::npos)
    return false;
  Get(o);
  if (which) *which = n->scalar;
  return true;
}

void ConfigReader::Finish() const {
  for (const auto& e : node_.map) {
    if (std::find(used_.begin(), used_.end(), e.key) == used_.end())
      throw ConfigError(file_, e.line, e.column, PathOf(e.key), "unknown key");
  }
}

}  // namespace rocelab
