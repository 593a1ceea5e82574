#include "util/yaml.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace rocelab {

const YamlNode* YamlNode::Find(const std::string& key) const {
  for (const auto& e : map)
    if (e.key == key) return &e.value;
  return nullptr;
}

namespace {

// yaml-cpp reads the byte-order mark itself; its positions count from after it.
bool HasBom(const std::string& text) { return text.compare(0, 3, "\xEF\xBB\xBF") == 0; }

// YAML allows tab, line feed and carriage return of the control characters.
// Refused up front: yaml-cpp takes the byte 0x04 for the end of its input.
void CheckCharacters(const std::string& text) {
  int line = 1;
  size_t line_start = HasBom(text) ? 3 : 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
      const int column = static_cast<int>(i - line_start) + 1;
      if (c == 0) throw YamlError(line, column, "file contains a NUL byte (not a text file)");
      char what[96];
      std::snprintf(what, sizeof what, "control character 0x%02X (YAML text takes tab, line feed and carriage return only)",
                    c);
      throw YamlError(line, column, what);
    }
  }
}

// Builds the YamlNode tree from yaml-cpp's events, keeping every position and
// resolving aliases and merge keys as it goes. Refusals throw YamlError from
// inside the parser, which stops it there: that is also what bounds yaml-cpp's
// recursion to kMaxYamlDepth.
class TreeBuilder : public YAML::EventHandler {
 public:
  // `offset`: the bytes of `text` before yaml-cpp's position 0 (a byte-order mark).
  TreeBuilder(const std::string& text, size_t offset) : text_(text), offset_(offset) {}

  YamlNode TakeRoot() { return std::move(root_); }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1) Fail(mark, "a second YAML document (after '---' or '...'): a scenario file holds one");
  }
  void OnDocumentEnd() override {}

  void OnAnchor(const YAML::Mark&, const std::string& name) override {
    // yaml-cpp numbers the anchors of a document 1, 2, ... in the order it announces them.
    anchor_names_.push_back(name);
  }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    YamlNode n;
    SetPosition(&n, mark);
    // A bare `key:` gets the position of what follows it; its key's is more useful.
    if (!stack_.empty() && stack_.back().node.IsMap() && stack_.back().have_key && n.line != stack_.back().key.line) {
      n.line = stack_.back().key.line;
      n.column = stack_.back().key.column;
    }
    Add(std::move(n), anchor, 1);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    // yaml-cpp's non-specific tags: "?" a plain scalar, "!" a quoted or block one.
    if (tag != "?" && tag != "!") FailTag(mark, tag);
    if (tag == "!") CheckClosingQuote(mark);
    YamlNode n;
    n.kind = YamlNode::Kind::kScalar;
    n.scalar = value;
    n.quoted = tag == "!";
    SetPosition(&n, mark);
    Add(std::move(n), anchor, 1);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) Fail(mark, "alias '*" + AnchorName(anchor) + "' inside the node it names");
    Charge(mark.line + 1, mark.column + 1, it->second.size);
    Add(YamlNode(it->second.node), YAML::NullAnchor, it->second.size);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Begin(mark, tag, anchor, YamlNode::Kind::kSeq);
  }
  void OnSequenceEnd() override { End(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Begin(mark, tag, anchor, YamlNode::Kind::kMap);
  }
  void OnMapEnd() override { End(); }

 private:
  struct Anchored {
    YamlNode node;
    long size;
  };

  // A collection being read.
  struct Frame {
    YamlNode node;
    YAML::anchor_t anchor = YAML::NullAnchor;
    long size = 1;  // nodes in it, itself included: what copying it costs
    // Mappings only. A key waits here for its value.
    bool have_key = false;
    YamlEntry key;
    bool key_plain = false;
    std::unordered_map<std::string, int> key_lines;  // the keys written, for duplicates
    // `<<`: the mappings to merge, at entry `merge_at`.
    std::vector<YamlNode> merges;
    size_t merge_at = 0;
  };

  [[noreturn]] void Fail(int line, int column, const std::string& what) const {
    throw YamlError(line, column, what);
  }
  [[noreturn]] void Fail(const YAML::Mark& mark, const std::string& what) const {
    Fail(mark.line + 1, mark.column + 1, what);
  }
  [[noreturn]] void FailTag(const YAML::Mark& mark, const std::string& tag) const {
    // The standard tags as they are written: tag:yaml.org,2002:str is !!str.
    const std::string standard = "tag:yaml.org,2002:";
    const std::string written = tag.compare(0, standard.size(), standard) == 0 ? "!!" + tag.substr(standard.size()) : tag;
    Fail(mark, "tag '" + written + "': tags are not supported (each key gives its value's type; quote a text instead)");
  }

  static void SetPosition(YamlNode* n, const YAML::Mark& mark) {
    n->line = mark.line + 1;
    n->column = mark.column + 1;
  }

  std::string AnchorName(YAML::anchor_t anchor) const {
    return anchor >= 1 && anchor <= anchor_names_.size() ? anchor_names_[anchor - 1] : "?";
  }

  // Copies made by aliases count against kMaxYamlCopies: a few lines of
  // anchors that alias each other could otherwise expand to billions of nodes.
  void Charge(int line, int column, long size) {
    copies_ += size;
    if (copies_ > kMaxYamlCopies)
      Fail(line, column, "aliases expand to more than " + std::to_string(kMaxYamlCopies) + " values");
  }

  // yaml-cpp 0.7 takes a quoted scalar that reaches the end of the input
  // without its closing quote as ending there, swallowing the rest of the file
  // into it. Finds the closing quote from the opening one, whose position is
  // the scalar's (after its anchor, if any).
  void CheckClosingQuote(const YAML::Mark& mark) const {
    size_t p = static_cast<size_t>(mark.pos) + offset_;
    const size_t n = text_.size();
    while (p < n && (text_[p] == '&' || text_[p] == '!')) {  // properties, then blanks and comments
      while (p < n && text_[p] != ' ' && text_[p] != '\t' && text_[p] != '\r' && text_[p] != '\n') ++p;
      for (;;) {
        while (p < n && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\r' || text_[p] == '\n')) ++p;
        if (p >= n || text_[p] != '#') break;
        while (p < n && text_[p] != '\n') ++p;
      }
    }
    if (p >= n || (text_[p] != '"' && text_[p] != '\'')) return;  // a block scalar
    const char quote = text_[p];
    for (size_t i = p + 1; i < n; ++i) {
      if (quote == '"' && text_[i] == '\\') {
        ++i;
      } else if (text_[i] == quote) {
        if (quote == '\'' && i + 1 < n && text_[i + 1] == '\'') ++i;  // '' is a quote inside
        else return;
      }
    }
    Fail(mark, std::string("quoted text without its closing ") + (quote == '"' ? "'\"'" : "\"'\""));
  }

  void Begin(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor, YamlNode::Kind kind) {
    if (tag != "?") FailTag(mark, tag);
    // A list or mapping as a key is refused once it is complete (in Add): an
    // unclosed '{' can look like one, and yaml-cpp's own message says more.
    if (static_cast<int>(stack_.size()) >= kMaxYamlDepth)
      Fail(mark, "nesting deeper than " + std::to_string(kMaxYamlDepth) + " levels");
    stack_.emplace_back();
    Frame& f = stack_.back();
    f.node.kind = kind;
    SetPosition(&f.node, mark);
    f.anchor = anchor;
  }

  void End() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    if (!f.merges.empty()) Merge(&f);
    Add(std::move(f.node), f.anchor, f.size);
  }

  // Entries of the merged mappings whose keys the mapping does not write,
  // in order, the first mapping to give a key winning.
  static void Merge(Frame* f) {
    std::unordered_set<std::string> seen;
    for (const auto& k : f->key_lines) seen.insert(k.first);
    std::vector<YamlEntry> merged;
    for (YamlNode& m : f->merges)
      for (YamlEntry& e : m.map)
        if (seen.insert(e.key).second) merged.push_back(std::move(e));
    auto& map = f->node.map;
    map.insert(map.begin() + static_cast<std::ptrdiff_t>(f->merge_at), std::make_move_iterator(merged.begin()),
               std::make_move_iterator(merged.end()));
  }

  // A finished node: the document, an item of the list being read, or the key
  // or value of the mapping being read.
  void Add(YamlNode n, YAML::anchor_t anchor, long size) {
    if (anchor != YAML::NullAnchor) {
      Charge(n.line, n.column, size);  // the copy kept for the aliases
      anchors_[anchor] = Anchored{n, size};
    }
    if (stack_.empty()) {
      root_ = std::move(n);
      return;
    }
    Frame& f = stack_.back();
    f.size += size;
    if (f.node.IsSeq()) {
      f.node.seq.push_back(std::move(n));
    } else if (!f.have_key) {
      if (n.IsNull()) Fail(n.line, n.column, "a mapping key that is empty or null");
      if (!n.IsScalar()) Fail(n.line, n.column, "a list or mapping as a mapping key: keys are names");
      auto first = f.key_lines.emplace(n.scalar, n.line);
      if (!first.second) {
        Fail(n.line, n.column,
             "key '" + n.scalar + "' written twice in one mapping (first on line " + std::to_string(first.first->second) + ")");
      }
      f.have_key = true;
      f.key_plain = !n.quoted;
      f.key.key = std::move(n.scalar);
      f.key.line = n.line;
      f.key.column = n.column;
    } else {
      f.have_key = false;
      if (f.key_plain && f.key.key == "<<") {
        AddMerge(&f, std::move(n));
        return;
      }
      f.node.map.push_back(YamlEntry{std::move(f.key.key), f.key.line, f.key.column, std::move(n)});
    }
  }

  void AddMerge(Frame* f, YamlNode n) {
    const char* what = "'<<' merges a mapping or a list of mappings (<<: *base or <<: [*a, *b])";
    f->merge_at = f->node.map.size();
    if (n.IsMap()) {
      f->merges.push_back(std::move(n));
      return;
    }
    if (!n.IsSeq()) Fail(n.line, n.column, what);
    for (YamlNode& m : n.seq) {
      if (!m.IsMap()) Fail(m.line, m.column, what);
      f->merges.push_back(std::move(m));
    }
  }

  const std::string& text_;
  const size_t offset_;
  int documents_ = 0;
  std::vector<Frame> stack_;
  YamlNode root_;
  std::vector<std::string> anchor_names_;
  std::map<YAML::anchor_t, Anchored> anchors_;  // finished anchored nodes
  long copies_ = 0;
};

// yaml-cpp's message, with the alias named and a word on tabs where they are the likely cause.
std::string Explain(const YAML::Exception& e, const std::string& text, size_t offset) {
  std::string msg = e.msg;
  if (e.mark.is_null() || e.mark.pos < 0) return msg;
  const size_t at = static_cast<size_t>(e.mark.pos) + offset;
  if (at > text.size()) return msg;
  if (e.msg == YAML::ErrorMsg::UNKNOWN_ANCHOR && at < text.size() && text[at] == '*') {
    size_t end = at + 1;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\r' && text[end] != '\n' &&
           text[end] != ',' && text[end] != ']' && text[end] != '}')
      ++end;
    const std::string name = text.substr(at + 1, end - at - 1);
    return "unknown alias '*" + name + "' (no anchor '&" + name + "' before it)";
  }
  size_t line_start = at;
  while (line_start > 0 && text[line_start - 1] != '\n') --line_start;
  for (size_t i = line_start; i < text.size() && (text[i] == ' ' || text[i] == '\t'); ++i)
    if (text[i] == '\t') return msg + " (a tab in the indentation: YAML indents with spaces)";
  return msg;
}

}  // namespace

YamlNode ParseYaml(const std::string& text) {
  CheckCharacters(text);
  const size_t offset = HasBom(text) ? 3 : 0;
  std::istringstream in(text);
  YAML::Parser parser(in);
  TreeBuilder builder(text, offset);
  try {
    while (parser.HandleNextDocument(builder)) {
    }
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw YamlError(0, 0, e.msg);
    throw YamlError(e.mark.line + 1, e.mark.column + 1, Explain(e, text, offset));
  }
  return builder.TakeRoot();
}

}  // namespace rocelab
