#include "scenario/config_reader.h"

#include <algorithm>
#include <cmath>

#include "util/units.h"

namespace rocelab {

ConfigReader::ConfigReader(const std::string& file, const YamlNode& node, const std::string& path)
    : file_(file), node_(node), path_(path) {
  if (!node.IsMap()) {
    throw ConfigError(file, node.line, path, node.IsNull() ? "expected a mapping, found nothing"
                                                           : "expected a mapping of 'key: value'");
  }
}

const YamlNode* ConfigReader::Get(const char* key) {
  const YamlNode* n = node_.Find(key);
  if (n) used_.emplace_back(key);
  return n;
}

int ConfigReader::LineOf(const char* key) const {
  for (const auto& e : node_.map)
    if (e.key == key) return e.line;
  return node_.line;
}

void ConfigReader::Fail(const char* key, const std::string& message) const {
  throw ConfigError(file_, LineOf(key), PathOf(key), message);
}

void ConfigReader::FailAt(int line, const std::string& key_path, const std::string& message) const {
  throw ConfigError(file_, line, key_path, message);
}

const YamlNode& ConfigReader::Scalar(const char* key, const YamlNode* n) {
  if (!n->IsScalar()) Fail(key, n->IsNull() ? "has no value" : "expected a single value, not a list or mapping");
  return *n;
}

bool ConfigReader::Size(const char* key, uint64_t* out, uint64_t min, uint64_t max) {
  const YamlNode* n = Get(key);
  if (!n) return false;
  std::string err;
  uint64_t v;
  if (!ParseSize(Scalar(key, n).scalar, &v, &err)) Fail(key, err);
  if (v < min || v > max)
    Fail(key, "'" + n->scalar + "' is out of range (" + std::to_string(min) + " to " + std::to_string(max) + " bytes)");
  *out = v;
  return true;
}

bool ConfigReader::Rate(const char* key, uint64_t* out) {
  const YamlNode* n = Get(key);
  if (!n) return false;
  std::string err;
  if (!ParseRate(Scalar(key, n).scalar, out, &err)) Fail(key, err);
  return true;
}

bool ConfigReader::Duration(const char* key, Time* out, Time min, Time max) {
  const YamlNode* n = Get(key);
  if (!n) return false;
  std::string err;
  Time v;
  if (!ParseTime(Scalar(key, n).scalar, &v, &err)) Fail(key, err);
  if (v < min || v > max) Fail(key, "'" + n->scalar + "' is out of range");
  *out = v;
  return true;
}

bool ConfigReader::Bool(const char* key, bool* out) {
  const YamlNode* n = Get(key);
  if (!n) return false;
  std::string err;
  if (!ParseBool(Scalar(key, n).scalar, out, &err)) Fail(key, err);
  return true;
}

bool ConfigReader::Int(const char* key, int64_t* out, int64_t min, int64_t max) {
  const YamlNode* n = Get(key);
  if (!n) return false;
  std::string err;
  int64_t v;
  if (!ParseInteger(Scalar(key, n).scalar, &v, &err)) Fail(key, err);
  if (v < min || v > max)
    Fail(key, "'" + n->scalar + "' is out of range (" + std::to_string(min) + " to " + std::to_string(max) + ")");
  *out = v;
  return true;
}

bool ConfigReader::Double(const char* key, double* out, double min, double max) {
  const YamlNode* n = Get(key);
  if (!n) return false;
  std::string err;
  double v;
  if (!ParseNumber(Scalar(key, n).scalar, &v, &err)) Fail(key, err);
  if (!(v >= min && v <= max)) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "'%s' is out of range (%g to %g)", n->scalar.c_str(), min, max);
    Fail(key, buf);
  }
  *out = v;
  return true;
}

bool ConfigReader::String(const char* key, std::string* out) {
  const YamlNode* n = Get(key);
  if (!n) return false;
  *out = Scalar(key, n).scalar;
  return true;
}

bool ConfigReader::Name(const char* key, NameRef* out) {
  const YamlNode* n = Get(key);
  if (!n) return false;
  out->name = Scalar(key, n).scalar;
  out->line = n->line;
  out->key = PathOf(key);
  return true;
}

bool ConfigReader::IntList(const char* key, std::vector<int64_t>* out, int64_t min, int64_t max) {
  const YamlNode* n = Get(key);
  if (!n) return false;
  out->clear();
  std::vector<const YamlNode*> items;
  if (n->IsSeq()) {
    for (const auto& i : n->seq) items.push_back(&i);
  } else if (n->IsScalar()) {
    items.push_back(n);
  } else if (!n->IsNull()) {
    Fail(key, "expected a list of numbers");
  }
  for (const YamlNode* i : items) {
    std::string err;
    int64_t v;
    if (!i->IsScalar() || !ParseInteger(i->scalar, &v, &err)) Fail(key, "expected a list of whole numbers");
    if (v < min || v > max)
      Fail(key, std::to_string(v) + " is out of range (" + std::to_string(min) + " to " + std::to_string(max) + ")");
    out->push_back(v);
  }
  return true;
}

void ConfigReader::Finish() const {
  for (const auto& e : node_.map) {
    if (std::find(used_.begin(), used_.end(), e.key) == used_.end())
      throw ConfigError(file_, e.line, PathOf(e.key.c_str()), "unknown key");
  }
}

}  // namespace rocelab
