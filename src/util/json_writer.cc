#include "util/json_writer.h"

#include <cmath>
#include <cstdio>

namespace rocelab {

std::string JsonWriter::Escape(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      case '\r': o += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o + "\"";
}

void JsonWriter::Newline() {
  out_ += '\n';
  out_.append(2 * first_.size(), ' ');
}

void JsonWriter::Prefix(const char* key) {
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
    Newline();
  }
  if (key) {
    out_ += Escape(key);
    out_ += ": ";
  }
}

JsonWriter& JsonWriter::BeginObject(const char* key) {
  Prefix(key);
  out_ += '{';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  bool empty = first_.back();
  first_.pop_back();
  if (!empty) Newline();
  out_ += '}';
  if (first_.empty()) out_ += '\n';
  return *this;
}

JsonWriter& JsonWriter::BeginArray(const char* key) {
  Prefix(key);
  out_ += '[';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  bool empty = first_.back();
  first_.pop_back();
  if (!empty) Newline();
  out_ += ']';
  return *this;
}

JsonWriter& JsonWriter::Key(const std::string& key) {
  Prefix(key);
  return *this;
}

JsonWriter& JsonWriter::String(const std::string& key, const std::string& v) {
  Prefix(key);
  out_ += Escape(v);
  return *this;
}

JsonWriter& JsonWriter::Int(const std::string& key, int64_t v) {
  Prefix(key);
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::Uint(const std::string& key, uint64_t v) {
  Prefix(key);
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::Double(const std::string& key, double v, int decimals) {
  Prefix(key);
  if (!std::isfinite(v)) {
    out_ += "null";
    return *this;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  out_ += buf;
  return *this;
}

JsonWriter& JsonWriter::Bool(const std::string& key, bool v) {
  Prefix(key);
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::Null(const std::string& key) {
  Prefix(key);
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::Raw(const std::string& key, const std::string& json) {
  Prefix(key);
  std::string v = json;
  while (!v.empty() && v.back() == '\n') v.pop_back();
  // Re-indent nested lines to the current depth.
  std::string pad(2 * first_.size(), ' ');
  for (char c : v) {
    out_ += c;
    if (c == '\n') out_ += pad;
  }
  return *this;
}

JsonWriter& JsonWriter::StringValue(const std::string& v) {
  Prefix(nullptr);
  out_ += Escape(v);
  return *this;
}

JsonWriter& JsonWriter::UintValue(uint64_t v) {
  Prefix(nullptr);
  out_ += std::to_string(v);
  return *this;
}

}  // namespace rocelab
