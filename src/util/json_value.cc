#include "util/json_value.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "util/utf8.h"

namespace rocelab {

JsonDocument ParseJsonDocument(const std::string& text, const std::string& file, JsonErrorThrower fail,
                               const std::string& context) {
  try {
    return IsWellFormedUtf8(text) ? JsonDocument::parse(text) : JsonDocument::parse(WellFormedUtf8(text));
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's words without its "[json.exception.parse_error.101] parse error at line 3,
    // column 5: " prefix: the line is the error's to say.
    std::string why = e.what();
    const size_t colon = why.find(": ");
    if (why.rfind("[json.exception.", 0) == 0 && colon != std::string::npos) why = why.substr(colon + 2);
    if (why.find("unexpected end of input") != std::string::npos) why += " (truncated file?)";
    int line = 0;  // a number too large for a double: no position given
    if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
      // byte is 1-based: the byte the parser stopped at.
      const size_t upto = std::min(text.size(), parse->byte > 0 ? static_cast<size_t>(parse->byte - 1) : size_t{0});
      line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(upto), '\n'));
    }
    fail(file, line, "", context + why);
    std::abort();  // a thrower that returns is a bug
  }
}

JsonValue JsonValue::operator[](const std::string& name) const {
  if (!v_) return Child(nullptr, name);
  if (!v_->is_object()) Expected("an object");
  const auto it = v_->find(name);
  return Child(it == v_->end() ? nullptr : &*it, name);
}

std::vector<std::pair<std::string, JsonValue>> JsonValue::Members() const {
  std::vector<std::pair<std::string, JsonValue>> out;
  if (!v_) return out;
  if (!v_->is_object()) Expected("an object");
  for (const auto& [k, v] : v_->items()) out.emplace_back(k, Child(&v, k));
  return out;
}

std::vector<JsonValue> JsonValue::Items() const {
  std::vector<JsonValue> out;
  if (!v_) return out;
  if (!v_->is_array()) Expected("a list");
  for (size_t i = 0; i < v_->size(); ++i) out.emplace_back(&(*v_)[i], *file_, key_ + "[" + std::to_string(i) + "]", fail_);
  return out;
}

double JsonValue::Number() const {
  if (!v_) return 0;
  if (!v_->is_number()) Expected("a number");
  return v_->get<double>();
}

int JsonValue::Int(int lo, int hi) const {
  const double d = Number();
  if (d != std::floor(d) || d < lo || d > hi)
    Fail("expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", found " +
         (v_ ? v_->dump() : "nothing"));
  return static_cast<int>(d);
}

std::string JsonValue::String() const {
  if (!v_) return "";
  if (!v_->is_string()) Expected("a string");
  return v_->get<std::string>();
}

bool JsonValue::Bool() const {
  if (!v_) return false;
  if (!v_->is_boolean()) Expected("true or false");
  return v_->get<bool>();
}

std::string JsonValue::Text() const {
  if (!v_) return "";
  if (v_->is_string()) return v_->get<std::string>();
  if (v_->is_number() || v_->is_boolean()) return v_->dump();
  Expected("a string or a number");
}

void JsonValue::Fail(const std::string& what) const {
  fail_(*file_, 0, key_, what);
  std::abort();  // a thrower that returns is a bug
}

void JsonValue::Expected(const char* what) const {
  Fail(std::string("expected ") + what + ", found " + (v_ ? v_->type_name() : "nothing"));
}

}  // namespace rocelab
