// Typed, unit-checked access to one YAML mapping. Every read names an Option of
// options.h, which gives the key, the unit and the range; every key read is
// marked, and Finish() rejects the keys nobody asked for, so a typo never passes
// silently. Errors name the file, the line and column and the key path as
// written ("devices.leaf1.pfc.alpha"). An error about a key points at the key;
// one about a name or a list item, at the name or the item.
#ifndef ROCELAB_SCENARIO_CONFIG_READER_H_
#define ROCELAB_SCENARIO_CONFIG_READER_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/options.h"
#include "scenario/scenario.h"
#include "util/config_error.h"
#include "util/yaml.h"

namespace rocelab {

class ConfigReader {
 public:
  // `path` is the key path of this mapping as written ("" at the top, "devices.leaf1").
  ConfigReader(const std::string& file, const YamlNode& node, const std::string& path);

  bool Has(const Option& o) const { return node_.Find(o.leaf()) != nullptr; }
  // The value of `o`, marked as read; nullptr if absent. A required option fails instead
  // of being absent, in Get and in every read below.
  const YamlNode* Get(const Option& o);
  std::string PathOf(const Option& o) const { return PathOf(o.leaf()); }

  // Each returns false when the key is absent and fails on a bad value or one out of range.
  bool Size(const Option& o, uint64_t* out);
  bool Rate(const Option& o, uint64_t* out);
  bool Duration(const Option& o, Time* out);
  bool Bool(const Option& o, bool* out);
  bool Number(const Option& o, double* out);
  template <typename T>
  bool Int(const Option& o, T* out) {
    int64_t v;
    if (!Integer(o, &v)) return false;
    *out = static_cast<T>(v);
    return true;
  }
  bool Choice(const Option& o, std::string* out);  // one of o.values
  bool Text(const Option& o, std::string* out);
  bool Name(const Option& o, NameRef* out);
  bool Names(const Option& o, std::vector<NameRef>* out);  // a list of host names
  bool Priorities(const Option& o, uint8_t* mask);         // a list of priorities, or one
  bool Integers(const Option& o, std::vector<int64_t>* out);
  bool DscpMap(const Option& o, std::array<uint8_t, 64>* map);  // sets the entries given
  // Whether `o` is given as a word it takes instead of a quantity ("auto"); `which` gets it.
  bool IsWord(const Option& o, std::string* which = nullptr);

  void Finish() const;  // throws on unknown keys
  [[noreturn]] void Fail(const Option& o, const std::string& message) const;
  [[noreturn]] void FailRequired(const Option& o) const;
  [[noreturn]] void FailAt(int line, int column, const std::string& key_path, const std::string& message) const;
  [[noreturn]] void FailRange(const Option& o, const std::string& value) const;

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  int line() const { return node_.line; }
  int column() const { return node_.column; }

 private:
  std::string PathOf(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  [[noreturn]] void Fail(const char* key, const std::string& message) const;
  // Checks that `o` is a listed option of `unit`, then Get.
  const YamlNode* Find(const Option& o, Unit unit);
  const YamlNode& Scalar(const Option& o, const YamlNode* n) const;
  bool Integer(const Option& o, int64_t* out);

  std::string file_;
  const YamlNode& node_;
  std::string path_;
  std::vector<std::string> used_;
};

}  // namespace rocelab

#endif  // ROCELAB_SCENARIO_CONFIG_READER_H_
