// A small JSON reader (RFC 8259) for rocelab's own outputs and bundle
// manifests: objects keep their key order, numbers are kept as text and as
// double, errors carry the line.
#ifndef ROCELAB_UTIL_JSON_READER_H_
#define ROCELAB_UTIL_JSON_READER_H_

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rocelab {

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;  // string value, or the number as written
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  const JsonValue* Get(const std::string& key) const;
  bool IsObject() const { return kind == Kind::kObject; }
  bool IsNumber() const { return kind == Kind::kNumber; }
  bool IsString() const { return kind == Kind::kString; }
};

class JsonError : public std::runtime_error {
 public:
  JsonError(int line, const std::string& what) : std::runtime_error(what), line_(line) {}
  int line() const { return line_; }

 private:
  int line_;
};

JsonValue ParseJson(const std::string& text);

}  // namespace rocelab

#endif  // ROCELAB_UTIL_JSON_READER_H_
