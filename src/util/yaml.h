// A small YAML reader for scenario and fabric files. It accepts the subset
// that configuration files use — block mappings and sequences, flow mappings
// and sequences (which may span lines), plain and quoted scalars, comments —
// and keeps the line of every key and value so that every later error can name
// file, line and key. Anchors, tags, multi-document streams and block scalars
// are refused with a clear message rather than half-understood.
#ifndef ROCELAB_UTIL_YAML_H_
#define ROCELAB_UTIL_YAML_H_

#include <stdexcept>
#include <string>
#include <vector>

namespace rocelab {

struct YamlEntry;

struct YamlNode {
  enum class Kind { kNull, kScalar, kMap, kSeq };
  Kind kind = Kind::kNull;
  std::string scalar;
  bool quoted = false;
  std::vector<YamlEntry> map;  // in file order
  std::vector<YamlNode> seq;
  int line = 0;

  bool IsMap() const { return kind == Kind::kMap; }
  bool IsSeq() const { return kind == Kind::kSeq; }
  bool IsScalar() const { return kind == Kind::kScalar; }
  bool IsNull() const { return kind == Kind::kNull; }
  const YamlNode* Find(const std::string& key) const;
};

struct YamlEntry {
  std::string key;
  int line = 0;
  YamlNode value;
};

class YamlError : public std::runtime_error {
 public:
  YamlError(int line, const std::string& what) : std::runtime_error(what), line_(line) {}
  int line() const { return line_; }

 private:
  int line_;
};

// Parses one document. Throws YamlError (with a 1-based line) on bad syntax.
YamlNode ParseYaml(const std::string& text);

}  // namespace rocelab

#endif  // ROCELAB_UTIL_YAML_H_
