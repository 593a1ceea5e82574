#include "util/yaml.h"

#include <cstddef>

namespace rocelab {

const YamlNode* YamlNode::Find(const std::string& key) const {
  for (const auto& e : map)
    if (e.key == key) return &e.value;
  return nullptr;
}

namespace {

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  YamlNode ParseDocument() {
    SkipBlankLines();
    if (AtEnd()) return YamlNode{};
    if (LineStartsWith("---")) {
      pos_ += 3;
      SkipSpaces();
      if (!AtLineEnd()) Fail("content after '---' is not supported");
      NextLine();
      SkipBlankLines();
    }
    YamlNode root = ParseBlock(0, 0);
    SkipBlankLines();
    if (!AtEnd()) {
      if (LineStartsWith("---") || LineStartsWith("...")) Fail("only one YAML document per file is supported");
      Fail("unexpected content (check the indentation)");
    }
    return root;
  }

 private:
  [[noreturn]] void Fail(const std::string& msg) { throw YamlError(line_, msg); }

  bool AtEnd() const { return pos_ >= s_.size(); }
  char Peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
  int Column() const { return static_cast<int>(pos_ - line_start_); }

  bool AtLineEnd() const {
    if (AtEnd()) return true;
    char c = s_[pos_];
    if (c == '\n' || c == '\r') return true;
    return c == '#' && (pos_ == line_start_ || s_[pos_ - 1] == ' ' || s_[pos_ - 1] == '\t');
  }

  void SkipSpaces() {
    while (!AtEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }

  // Moves past the rest of the current line (which must be blank or a comment).
  void NextLine() {
    while (!AtEnd() && s_[pos_] != '\n') ++pos_;
    if (!AtEnd()) {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    }
  }

  // Positions at the first non-space character of the next non-blank,
  // non-comment line, or at the end. Tabs in indentation are refused.
  void SkipBlankLines() {
    for (;;) {
      if (AtEnd()) return;
      if (pos_ != line_start_) {
        SkipSpaces();
        if (!AtLineEnd()) return;
        NextLine();
        continue;
      }
      size_t p = pos_;
      while (p < s_.size() && s_[p] == ' ') ++p;
      if (p < s_.size() && s_[p] == '\t') {
        // a tab before content on an otherwise non-blank line
        size_t q = p;
        while (q < s_.size() && (s_[q] == ' ' || s_[q] == '\t')) ++q;
        if (q < s_.size() && s_[q] != '\n' && s_[q] != '\r' && s_[q] != '#')
          Fail("tab character in indentation (YAML indents with spaces)");
      }
      pos_ = p;
      SkipSpaces();
      if (AtEnd()) return;
      if (!AtLineEnd()) {
        pos_ = p;
        return;
      }
      NextLine();
      if (AtEnd()) return;
    }
  }

  bool LineStartsWith(const char* t) const {
    size_t n = std::char_traits<char>::length(t);
    return pos_ == line_start_ && s_.compare(pos_, n, t) == 0 &&
           (pos_ + n >= s_.size() || s_[pos_ + n] == ' ' || s_[pos_ + n] == '\n' || s_[pos_ + n] == '\r');
  }

  bool AtSeqDash() const {
    return Peek() == '-' && (Peek(1) == ' ' || Peek(1) == '\n' || Peek(1) == '\r' || Peek(1) == '\0');
  }

  // A block node whose first token is at the current position, at column `indent`.
  YamlNode ParseBlock(int indent, int depth) {
    if (depth > kMaxDepth) Fail("nesting deeper than 64 levels");
    if (AtSeqDash()) return ParseBlockSeq(indent, depth);
    if (LooksLikeKey()) return ParseBlockMap(indent, depth);
    YamlNode n = ParseInlineValue(depth);
    return n;
  }

  // True when the current line, from the current position, is `key: ...`.
  bool LooksLikeKey() const {
    size_t p = pos_;
    if (p < s_.size() && (s_[p] == '"' || s_[p] == '\'')) {
      char q = s_[p++];
      while (p < s_.size() && s_[p] != q && s_[p] != '\n') ++p;
      if (p >= s_.size() || s_[p] != q) return false;
      ++p;
      while (p < s_.size() && s_[p] == ' ') ++p;
      return p < s_.size() && s_[p] == ':';
    }
    if (p < s_.size() && (s_[p] == '{' || s_[p] == '[')) return false;
    for (; p < s_.size() && s_[p] != '\n'; ++p) {
      if (s_[p] == '#' && p > 0 && (s_[p - 1] == ' ' || s_[p - 1] == '\t')) return false;
      if (s_[p] == ':' && (p + 1 >= s_.size() || s_[p + 1] == ' ' || s_[p + 1] == '\n' ||
                           s_[p + 1] == '\r' || s_[p + 1] == '\t'))
        return true;
    }
    return false;
  }

  std::string ParseKey() {
    std::string key;
    if (Peek() == '"' || Peek() == '\'') {
      key = ParseQuoted();
      SkipSpaces();
    } else {
      size_t start = pos_;
      while (!AtEnd() && !(s_[pos_] == ':' && (Peek(1) == ' ' || Peek(1) == '\n' || Peek(1) == '\r' ||
                                              Peek(1) == '\t' || Peek(1) == '\0')))
        ++pos_;
      key = s_.substr(start, pos_ - start);
      while (!key.empty() && key.back() == ' ') key.pop_back();
    }
    if (Peek() != ':') Fail("expected ':' after key '" + key + "'");
    ++pos_;
    if (key.empty()) Fail("empty mapping key");
    if (key[0] == '&' || key[0] == '*' || key[0] == '!' || key[0] == '?')
      Fail("anchors, aliases, tags and complex keys are not supported");
    return key;
  }

  YamlNode ParseBlockMap(int indent, int depth) {
    YamlNode node;
    node.kind = YamlNode::Kind::kMap;
    node.line = line_;
    for (;;) {
      YamlEntry entry;
      entry.line = line_;
      entry.key = ParseKey();
      for (const auto& e : node.map)
        if (e.key == entry.key) Fail("duplicate key '" + entry.key + "'");
      SkipSpaces();
      if (AtLineEnd()) {
        NextLine();
        SkipBlankLines();
        int child_indent = AtEnd() ? -1 : Column();
        if (!AtEnd() && (child_indent > indent || (child_indent == indent && AtSeqDash()))) {
          entry.value = ParseBlock(child_indent, depth + 1);
        } else {
          entry.value.kind = YamlNode::Kind::kNull;
          entry.value.line = entry.line;
        }
      } else {
        entry.value = ParseInlineValue(depth + 1);
        SkipSpaces();
        if (!AtLineEnd()) Fail("unexpected text after the value of '" + entry.key + "'");
        NextLine();
      }
      node.map.push_back(std::move(entry));
      SkipBlankLines();
      if (AtEnd()) break;
      int col = Column();
      if (col < indent) break;
      if (col > indent) Fail("bad indentation (expected column " + std::to_string(indent + 1) + ")");
      if (AtSeqDash()) break;  // a sequence at the same indent belongs to the parent key
      if (!LooksLikeKey()) Fail("expected 'key: value'");
    }
    return node;
  }

  YamlNode ParseBlockSeq(int indent, int depth) {
    YamlNode node;
    node.kind = YamlNode::Kind::kSeq;
    node.line = line_;
    for (;;) {
      ++pos_;  // the dash
      SkipSpaces();
      if (AtLineEnd()) {
        NextLine();
        SkipBlankLines();
        int child = AtEnd() ? -1 : Column();
        if (!AtEnd() && child > indent) {
          node.seq.push_back(ParseBlock(child, depth + 1));
        } else {
          YamlNode n;
          n.line = line_;
          node.seq.push_back(n);
        }
      } else {
        int col = Column();
        if (AtSeqDash() || LooksLikeKey()) {
          node.seq.push_back(ParseBlock(col, depth + 1));
        } else {
          node.seq.push_back(ParseInlineValue(depth + 1));
          SkipSpaces();
          if (!AtLineEnd()) Fail("unexpected text after a sequence item");
          NextLine();
        }
      }
      SkipBlankLines();
      if (AtEnd()) break;
      int col = Column();
      if (col < indent) break;
      if (col > indent) Fail("bad indentation in a sequence");
      if (!AtSeqDash()) break;
    }
    return node;
  }

  // A value on the current line: flow collection, quoted or plain scalar.
  YamlNode ParseInlineValue(int depth) {
    if (depth > kMaxDepth) Fail("nesting deeper than 64 levels");
    char c = Peek();
    if (c == '{' || c == '[') return ParseFlow(depth);
    if (c == '|' || c == '>') Fail("block scalars ('|' and '>') are not supported");
    if (c == '&' || c == '*' || c == '!') Fail("anchors, aliases and tags are not supported");
    if (c == '"' || c == '\'') return Quoted();
    size_t start = pos_;
    while (!AtLineEnd()) ++pos_;
    std::string v = s_.substr(start, pos_ - start);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.pop_back();
    return Plain(v);
  }

  YamlNode Quoted() {
    YamlNode n;
    n.line = line_;
    n.kind = YamlNode::Kind::kScalar;
    n.scalar = ParseQuoted();
    n.quoted = true;
    return n;
  }

  // A plain scalar; empty, ~ and null are the null value.
  YamlNode Plain(const std::string& v) const {
    YamlNode n;
    n.line = line_;
    if (v.empty() || v == "~" || v == "null") {
      n.kind = YamlNode::Kind::kNull;
    } else {
      n.kind = YamlNode::Kind::kScalar;
      n.scalar = v;
    }
    return n;
  }

  std::string ParseQuoted() {
    char q = s_[pos_++];
    std::string out;
    for (;;) {
      if (AtEnd() || s_[pos_] == '\n') Fail("unterminated quoted string");
      char c = s_[pos_++];
      if (c == q) {
        if (q == '\'' && Peek() == '\'') {
          out.push_back('\'');
          ++pos_;
          continue;
        }
        break;
      }
      if (q == '"' && c == '\\') {
        if (AtEnd()) Fail("unterminated quoted string");
        char e = s_[pos_++];
        switch (e) {
          case 'n': out.push_back('\n'); break;
          case 't': out.push_back('\t'); break;
          case '\\': out.push_back('\\'); break;
          case '"': out.push_back('"'); break;
          case '/': out.push_back('/'); break;
          default: Fail(std::string("unsupported escape '\\") + e + "' in a quoted string");
        }
        continue;
      }
      out.push_back(c);
    }
    return out;
  }

  // Skips spaces, newlines and comments inside a flow collection.
  void SkipFlowSpace() {
    for (;;) {
      if (AtEnd()) Fail("unterminated flow collection ('{' or '[' without its closing bracket)");
      char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '\n') {
        NextLine();
      } else if (c == '#') {
        while (!AtEnd() && s_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  std::string ParseFlowPlain(bool is_key) {
    size_t start = pos_;
    while (!AtEnd()) {
      char c = s_[pos_];
      if (c == ',' || c == ']' || c == '}' || c == '\n' || c == '[' || c == '{') break;
      if (c == ':' && (is_key || Peek(1) == ' ' || Peek(1) == ',' || Peek(1) == '}')) break;
      if (c == '#' && pos_ > start && s_[pos_ - 1] == ' ') break;
      ++pos_;
    }
    std::string v = s_.substr(start, pos_ - start);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r')) v.pop_back();
    return v;
  }

  YamlNode ParseFlowValue(int depth) {
    if (depth > kMaxDepth) Fail("nesting deeper than 64 levels");
    SkipFlowSpace();
    char c = Peek();
    if (c == '{' || c == '[') return ParseFlow(depth);
    if (c == '"' || c == '\'') return Quoted();
    if (c == '&' || c == '*' || c == '!') Fail("anchors, aliases and tags are not supported");
    return Plain(ParseFlowPlain(false));
  }

  YamlNode ParseFlow(int depth) {
    if (depth > kMaxDepth) Fail("nesting deeper than 64 levels");
    YamlNode node;
    node.line = line_;
    char open = s_[pos_++];
    char close = open == '{' ? '}' : ']';
    node.kind = open == '{' ? YamlNode::Kind::kMap : YamlNode::Kind::kSeq;
    SkipFlowSpace();
    if (Peek() == close) {
      ++pos_;
      return node;
    }
    for (;;) {
      SkipFlowSpace();
      if (node.kind == YamlNode::Kind::kMap) {
        YamlEntry e;
        e.line = line_;
        if (Peek() == '"' || Peek() == '\'') {
          e.key = ParseQuoted();
        } else {
          e.key = ParseFlowPlain(true);
        }
        if (e.key.empty()) Fail("empty key in a flow mapping");
        SkipFlowSpace();
        if (Peek() != ':') Fail("expected ':' after key '" + e.key + "' in a flow mapping");
        ++pos_;
        for (const auto& x : node.map)
          if (x.key == e.key) Fail("duplicate key '" + e.key + "'");
        e.value = ParseFlowValue(depth + 1);
        node.map.push_back(std::move(e));
      } else {
        node.seq.push_back(ParseFlowValue(depth + 1));
      }
      SkipFlowSpace();
      if (Peek() == ',') {
        ++pos_;
        SkipFlowSpace();
        if (Peek() == close) Fail("trailing ',' in a flow collection");
        continue;
      }
      if (Peek() == close) {
        ++pos_;
        return node;
      }
      Fail(std::string("expected ',' or '") + close + "' in a flow collection");
    }
  }

  const std::string& s_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
};

}  // namespace

YamlNode ParseYaml(const std::string& text) {
  if (text.find('\0') != std::string::npos) throw YamlError(1, "file contains a NUL byte (not a text file)");
  Parser p(text);
  return p.ParseDocument();
}

}  // namespace rocelab
