// Typed, unit-checked access to one YAML mapping. Every key read is marked;
// Finish() rejects the keys nobody asked for, so a typo never passes silently.
#ifndef ROCELAB_SCENARIO_CONFIG_READER_H_
#define ROCELAB_SCENARIO_CONFIG_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "util/config_error.h"
#include "util/yaml.h"

namespace rocelab {

class ConfigReader {
 public:
  // `path` is the dotted key path of this mapping ("" at the top).
  ConfigReader(const std::string& file, const YamlNode& node, const std::string& path);

  bool Has(const char* key) const { return node_.Find(key) != nullptr; }
  const YamlNode* Get(const char* key);  // marks the key used; nullptr if absent
  int LineOf(const char* key) const;
  std::string PathOf(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  bool Size(const char* key, uint64_t* out, uint64_t min = 0, uint64_t max = UINT64_MAX);
  bool Rate(const char* key, uint64_t* out);
  bool Duration(const char* key, Time* out, Time min = 0, Time max = INT64_MAX);
  bool Bool(const char* key, bool* out);
  bool Int(const char* key, int64_t* out, int64_t min, int64_t max);
  bool Double(const char* key, double* out, double min, double max);
  bool String(const char* key, std::string* out);
  bool Name(const char* key, NameRef* out);
  // A list of integers in [min, max], or one integer.
  bool IntList(const char* key, std::vector<int64_t>* out, int64_t min, int64_t max);

  void Finish() const;  // throws on unknown keys
  [[noreturn]] void Fail(const char* key, const std::string& message) const;
  [[noreturn]] void FailAt(int line, const std::string& key_path, const std::string& message) const;

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  int line() const { return node_.line; }

 private:
  const YamlNode& Scalar(const char* key, const YamlNode* n);
  std::string file_;
  const YamlNode& node_;
  std::string path_;
  std::vector<std::string> used_;
};

}  // namespace rocelab

#endif  // ROCELAB_SCENARIO_CONFIG_READER_H_
