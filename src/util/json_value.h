// Reading JSON that rocelab did not necessarily write: a run's summary.json, a
// bundle's manifest.json. They may come from another machine, another version
// or a hand edit, so nothing in them is trusted: a syntax error names the file
// and the line, a value of the wrong type names the file and the key path
// ("hosts.h0.ethtool"), and no input ever reaches nlohmann's own type_error.
//
// Each reader says how its errors are thrown (diagnose throws ParseError, the
// exporters ConfigError), so the values are read one way everywhere.
#ifndef ROCELAB_UTIL_JSON_VALUE_H_
#define ROCELAB_UTIL_JSON_VALUE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace rocelab {

// Objects keep the order of the file: summary.json lists hosts and switches in the order the
// fabric built them, and what is read from it keeps that order.
using JsonDocument = nlohmann::ordered_json;

// Throws the reader's error for `file` (`line` 0: the file as a whole, for a value whose line
// nlohmann does not keep), at `key` ("" for none).
using JsonErrorThrower = void (*)(const std::string& file, int line, const std::string& key, const std::string& what);

// Parses `text` (mended to well-formed UTF-8 first). A syntax error is thrown with its line and
// nlohmann's reason without its "[json.exception...]" prefix, after `context` ("" or, say,
// "not a rocelab summary.json: ").
JsonDocument ParseJsonDocument(const std::string& text, const std::string& file, JsonErrorThrower fail,
                               const std::string& context = "");

// A value of a document with its key path. Every read checks the type first, so a wrong one is
// an error naming file and key. An absent member and null read alike: as absent (0, "", false,
// nothing to iterate).
class JsonValue {
 public:
  JsonValue(const JsonDocument* v, const std::string& file, std::string key, JsonErrorThrower fail)
      : v_(v && !v->is_null() ? v : nullptr), file_(&file), key_(std::move(key)), fail_(fail) {}

  bool present() const { return v_ != nullptr; }
  bool IsNumber() const { return v_ && v_->is_number(); }
  const std::string& key() const { return key_; }
  // The value itself, for a reader with its own notion of a number's text; nullptr if absent.
  const JsonDocument* raw() const { return v_; }

  // The member `name` of an object.
  JsonValue operator[](const std::string& name) const;
  std::vector<std::pair<std::string, JsonValue>> Members() const;
  std::vector<JsonValue> Items() const;

  double Number() const;
  int Int(int lo, int hi) const;
  std::string String() const;
  bool Bool() const;
  // A setting or a label as text: a string as it is, a number or boolean as JSON writes it.
  // Whole numbers read back as written; others in nlohmann's shortest form (1e5 is 100000.0).
  std::string Text() const;

  [[noreturn]] void Fail(const std::string& what) const;
  [[noreturn]] void Expected(const char* what) const;

 private:
  JsonValue Child(const JsonDocument* v, const std::string& name) const {
    return JsonValue(v, *file_, key_.empty() ? name : key_ + "." + name, fail_);
  }

  const JsonDocument* v_;
  const std::string* file_;
  std::string key_;
  JsonErrorThrower fail_;
};

}  // namespace rocelab

#endif  // ROCELAB_UTIL_JSON_VALUE_H_
