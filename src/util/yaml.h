// The YAML tree of a scenario file, read with yaml-cpp. Every node and every
// mapping key keeps its line and column, so that every later error can name
// file, line, column and key.
//
// What a scenario needs of YAML is read as YAML 1.2 reads it: block and flow
// collections (a trailing comma in a flow collection is fine), plain, quoted
// and block scalars ('|', '>'), comments, a UTF-8 byte-order mark. Beyond that:
//   - An alias (*name) is a copy of its anchored node (&name), positions
//     included: an error inside an alias points at the anchor.
//   - The merge key `<<: *base` (or `<<: [*a, *b]`) copies the entries of the
//     mappings named into the mapping that holds it, where the `<<` stands.
//     Keys the mapping writes itself win, then the earlier mapping of a list.
//   - A key written twice in one mapping is an error (YAML says so; yaml-cpp
//     alone would keep the first one silently).
// Refused with a message rather than half-understood: more than one document,
// explicit tags (!!str, !foo: every value is typed by its key), keys that are
// not scalars, null keys, nesting deeper than kMaxYamlDepth, aliases that
// expand past kMaxYamlCopies values, control characters.
#ifndef ROCELAB_UTIL_YAML_H_
#define ROCELAB_UTIL_YAML_H_

#include <stdexcept>
#include <string>
#include <vector>

namespace rocelab {

constexpr int kMaxYamlDepth = 64;           // nested collections
constexpr long kMaxYamlCopies = 1L << 18;   // values copied by aliases ("billion laughs")

struct YamlEntry;

struct YamlNode {
  enum class Kind { kNull, kScalar, kMap, kSeq };
  Kind kind = Kind::kNull;
  std::string scalar;
  // Written in quotes or as a block scalar: the text as written, never null
  // ('' is an empty text where a bare `key:` is no value at all).
  bool quoted = false;
  std::vector<YamlEntry> map;  // in file order
  std::vector<YamlNode> seq;
  int line = 0;    // 1-based; a null mapping value has its key's position
  int column = 0;  // 1-based, in bytes

  bool IsMap() const { return kind == Kind::kMap; }
  bool IsSeq() const { return kind == Kind::kSeq; }
  bool IsScalar() const { return kind == Kind::kScalar; }
  bool IsNull() const { return kind == Kind::kNull; }
  const YamlNode* Find(const std::string& key) const;
};

struct YamlEntry {
  std::string key;
  int line = 0;  // of the key
  int column = 0;
  YamlNode value;
};

class YamlError : public std::runtime_error {
 public:
  YamlError(int line, int column, const std::string& what)
      : std::runtime_error(what), line_(line), column_(column) {}
  int line() const { return line_; }
  int column() const { return column_; }  // 0: not known

 private:
  int line_;
  int column_;
};

// Parses one document; empty text (or only comments) is a null node. Throws
// YamlError with a 1-based line and column on bad syntax and on the refusals
// above.
YamlNode ParseYaml(const std::string& text);

}  // namespace rocelab

#endif  // ROCELAB_UTIL_YAML_H_
