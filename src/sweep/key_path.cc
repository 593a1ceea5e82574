#include "sweep/key_path.h"

#include <cstdlib>

namespace rocelab {

bool KeyPath::Step::Index(size_t* index) const {
  if (!is_item || item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos)
    return false;
  *index = static_cast<size_t>(std::strtoul(item.c_str(), nullptr, 10));
  return true;
}

bool ParseKeyPath(const std::string& text, KeyPath* path, std::string* error) {
  path->text = text;
  path->steps.clear();
  size_t i = 0;
  while (i < text.size()) {
    KeyPath::Step step;
    if (text[i] == '[') {
      const size_t close = text.find(']', i);
      if (path->steps.empty()) return *error = "a key path starts with a key, not a bracket", false;
      if (close == std::string::npos) return *error = "a '[' without its ']'", false;
      step.is_item = true;
      step.item = text.substr(i + 1, close - i - 1);
      if (step.item.empty()) return *error = "empty brackets: give an entry's number, [0] for the first", false;
      i = close + 1;
      if (i < text.size() && text[i] != '.' && text[i] != '[')
        return *error = "expected '.' or '[' after ']'", false;
    } else {
      if (text[i] == '.') {
        if (path->steps.empty()) return *error = "a key path starts with a key, not a dot", false;
        ++i;
      }
      const size_t end = text.find_first_of(".[]", i);
      step.key = text.substr(i, end == std::string::npos ? std::string::npos : end - i);
      if (step.key.empty()) return *error = "an empty key (two dots, or a dot at the end)", false;
      i = end == std::string::npos ? text.size() : end;
      if (i < text.size() && text[i] == ']') return *error = "a ']' without its '['", false;
    }
    path->steps.push_back(std::move(step));
  }
  if (path->steps.empty()) return *error = "an empty key path", false;
  return true;
}

namespace {

// The path as written up to (not including) step `n`, for messages.
std::string Prefix(const KeyPath& path, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i)
    s += path.steps[i].is_item ? "[" + path.steps[i].item + "]" : (i ? "." : "") + path.steps[i].key;
  return s;
}

const char* KindName(const YamlNode& n) {
  return n.IsScalar() ? "a single value" : n.IsSeq() ? "a list" : n.IsMap() ? "a mapping" : "empty";
}

}  // namespace

bool SetAtKeyPath(YamlNode* root, const KeyPath& path, const YamlNode& value, int line, int column,
                  std::string* error) {
  YamlNode* at = root;
  for (size_t i = 0; i < path.steps.size(); ++i) {
    const KeyPath::Step& step = path.steps[i];
    const std::string where = i ? "'" + Prefix(path, i) + "'" : "the scenario";
    if (step.is_item) {
      size_t index;
      if (!step.Index(&index)) return *error = "[" + step.item + "]: a list entry is picked by its number, from 0", false;
      if (at->IsNull()) return *error = "the base scenario has no " + where + " to pick entry [" + step.item + "] of", false;
      if (!at->IsSeq()) return *error = where + " is " + KindName(*at) + " in the base scenario, not a list", false;
      if (index >= at->seq.size())
        return *error = where + " has " + std::to_string(at->seq.size()) +
                        (at->seq.size() == 1 ? " entry" : " entries") + " in the base scenario: no [" + step.item + "]",
               false;
      at = &at->seq[index];
      continue;
    }
    if (at->IsNull()) {  // `switch:` with nothing under it, or a section the path adds
      at->kind = YamlNode::Kind::kMap;
      at->line = line;
      at->column = column;
    }
    if (!at->IsMap()) return *error = where + " is " + KindName(*at) + " in the base scenario, not a mapping", false;
    YamlNode* next = nullptr;
    for (YamlEntry& e : at->map)
      if (e.key == step.key) next = &e.value;
    if (!next) {
      YamlEntry e;
      e.key = step.key;
      e.line = e.value.line = line;
      e.column = e.value.column = column;
      at->map.push_back(std::move(e));
      next = &at->map.back().value;
    }
    at = next;
  }
  *at = value;
  return true;
}

}  // namespace rocelab
