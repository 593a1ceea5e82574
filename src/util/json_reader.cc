#include "util/json_reader.h"

#include <cstdlib>

namespace rocelab {

const JsonValue* JsonValue::Get(const std::string& key) const {
  for (const auto& m : members)
    if (m.first == key) return &m.second;
  return nullptr;
}

namespace {

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}

  JsonValue Document() {
    JsonValue v = Value(0);
    Space();
    if (p_ != s_.size()) Fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void Fail(const std::string& m) { throw JsonError(line_, m); }

  void Space() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r')) {
      if (s_[p_] == '\n') ++line_;
      ++p_;
    }
  }

  void Expect(char c) {
    Space();
    if (p_ >= s_.size() || s_[p_] != c) Fail(std::string("expected '") + c + "'");
    ++p_;
  }

  JsonValue Value(int depth) {
    if (depth > 200) Fail("nesting deeper than 200 levels");
    Space();
    if (p_ >= s_.size()) Fail("unexpected end of input (truncated file?)");
    JsonValue v;
    char c = s_[p_];
    if (c == '{') {
      v.kind = JsonValue::Kind::kObject;
      ++p_;
      Space();
      if (p_ < s_.size() && s_[p_] == '}') {
        ++p_;
        return v;
      }
      for (;;) {
        Space();
        if (p_ >= s_.size() || s_[p_] != '"') Fail("expected a string key");
        std::string key = String();
        Expect(':');
        v.members.emplace_back(std::move(key), Value(depth + 1));
        Space();
        if (p_ < s_.size() && s_[p_] == ',') {
          ++p_;
          continue;
        }
        Expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = JsonValue::Kind::kArray;
      ++p_;
      Space();
      if (p_ < s_.size() && s_[p_] == ']') {
        ++p_;
        return v;
      }
      for (;;) {
        v.items.push_back(Value(depth + 1));
        Space();
        if (p_ < s_.size() && s_[p_] == ',') {
          ++p_;
          continue;
        }
        Expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = JsonValue::Kind::kString;
      v.text = String();
      return v;
    }
    if (s_.compare(p_, 4, "true") == 0) {
      p_ += 4;
      v.kind = JsonValue::Kind::kBool;
      v.boolean = true;
      return v;
    }
    if (s_.compare(p_, 5, "false") == 0) {
      p_ += 5;
      v.kind = JsonValue::Kind::kBool;
      return v;
    }
    if (s_.compare(p_, 4, "null") == 0) {
      p_ += 4;
      return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      size_t start = p_;
      while (p_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[p_])) || s_[p_] == '-' || s_[p_] == '+' ||
                                s_[p_] == '.' || s_[p_] == 'e' || s_[p_] == 'E'))
        ++p_;
      v.kind = JsonValue::Kind::kNumber;
      v.text = s_.substr(start, p_ - start);
      char* end = nullptr;
      v.number = std::strtod(v.text.c_str(), &end);
      if (!end || *end) Fail("bad number '" + v.text + "'");
      return v;
    }
    Fail(std::string("unexpected character '") + c + "'");
  }

  std::string String() {
    ++p_;  // opening quote
    std::string out;
    for (;;) {
      if (p_ >= s_.size()) Fail("unterminated string (truncated file?)");
      char c = s_[p_++];
      if (c == '"') return out;
      if (c == '\n') Fail("newline inside a string");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (p_ >= s_.size()) Fail("unterminated string");
      char e = s_[p_++];
      switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          if (p_ + 4 > s_.size()) Fail("bad \\u escape");
          unsigned code = static_cast<unsigned>(std::strtoul(s_.substr(p_, 4).c_str(), nullptr, 16));
          p_ += 4;
          if (code < 0x80) out.push_back(static_cast<char>(code));
          else out += '?';
          break;
        }
        default: Fail("bad escape in a string");
      }
    }
  }

  const std::string& s_;
  size_t p_ = 0;
  int line_ = 1;
};

}  // namespace

JsonValue ParseJson(const std::string& text) { return Reader(text).Document(); }

}  // namespace rocelab
