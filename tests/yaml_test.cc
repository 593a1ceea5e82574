#include "util/yaml.h"

#include <gtest/gtest.h>

#include <string>

namespace rocelab {

namespace {

// The error ParseYaml throws for `text`, or a YamlError with line -1.
YamlError ErrorOf(const std::string& text) {
  try {
    ParseYaml(text);
  } catch (const YamlError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return YamlError(-1, -1, "");
}

bool Says(const YamlError& e, const std::string& words) {
  return std::string(e.what()).find(words) != std::string::npos;
}

}  // namespace

TEST(Yaml, BlockAndFlowCollectionsWithLinesAndColumns) {
  const char* text =
      "name: incast  # a comment\n"
      "seed: 7\n"
      "topology: {type: spine-leaf, spines: 2,\n"
      "           host_link: {rate: 100G, delay: 1us}}\n"
      "switch:\n"
      "  lossless_priorities: [3, 4]\n"
      "workload:\n"
      "  - {type: flow, src: h0}\n"
      "  - type: flow\n"
      "    dst: 'h 8'\n";
  YamlNode n = ParseYaml(text);
  ASSERT_TRUE(n.IsMap());
  EXPECT_EQ(n.Find("name")->scalar, "incast");
  const YamlNode* topo = n.Find("topology");
  ASSERT_TRUE(topo->IsMap());
  EXPECT_EQ(topo->Find("host_link")->Find("delay")->scalar, "1us");
  EXPECT_EQ(topo->Find("host_link")->line, 4);
  EXPECT_EQ(topo->Find("host_link")->column, 23);
  EXPECT_EQ(topo->map[2].key, "host_link");
  EXPECT_EQ(topo->map[2].column, 12);
  EXPECT_EQ(n.Find("switch")->Find("lossless_priorities")->seq.size(), 2u);
  EXPECT_EQ(n.Find("switch")->Find("lossless_priorities")->seq[1].column, 28);
  const YamlNode* w = n.Find("workload");
  ASSERT_TRUE(w->IsSeq());
  ASSERT_EQ(w->seq.size(), 2u);
  EXPECT_EQ(w->seq[1].Find("dst")->scalar, "h 8");
  EXPECT_TRUE(w->seq[1].Find("dst")->quoted);
  EXPECT_FALSE(w->seq[1].Find("type")->quoted);
  EXPECT_EQ(w->seq[1].map[1].line, 10);
  EXPECT_EQ(w->seq[1].map[1].column, 5);
}

TEST(Yaml, SequenceAtTheSameIndentAsItsKey) {
  YamlNode n = ParseYaml("workload:\n- a\n- b\nother: 1\n");
  ASSERT_EQ(n.Find("workload")->seq.size(), 2u);
  EXPECT_EQ(n.Find("other")->scalar, "1");
}

TEST(Yaml, ScalarsReadAsWritten) {
  YamlNode n = ParseYaml(
      "\xEF\xBB\xBF"  // a byte-order mark: not part of the first key
      "first: 1\n"
      "literal: |\n  two\n  lines\n"
      "folded: >-\n  one\n  line\n"
      "escaped: \"caf\\u00e9\"  # a comment after a quoted value\n"
      "single: 'it''s'\n"
      "trailing: [3, 4,]\n"
      "empty: ''\n"
      "none:\n"
      "tilde: ~\n"
      "word: null\n");
  ASSERT_NE(n.Find("first"), nullptr);
  EXPECT_EQ(n.map[0].column, 1);  // the mark takes no column
  EXPECT_EQ(n.Find("literal")->scalar, "two\nlines\n");
  EXPECT_EQ(n.Find("folded")->scalar, "one line");
  EXPECT_TRUE(n.Find("folded")->quoted);
  EXPECT_EQ(n.Find("escaped")->scalar, "caf\xC3\xA9");
  EXPECT_EQ(n.Find("single")->scalar, "it's");
  ASSERT_EQ(n.Find("trailing")->seq.size(), 2u);
  EXPECT_EQ(n.Find("trailing")->seq[1].scalar, "4");
  EXPECT_TRUE(n.Find("empty")->IsScalar());
  EXPECT_EQ(n.Find("empty")->scalar, "");
  for (const char* key : {"none", "tilde", "word"}) EXPECT_TRUE(n.Find(key)->IsNull()) << key;
  // A bare `key:` is placed at its key, not at whatever follows it.
  EXPECT_EQ(n.Find("none")->line, 12);
  EXPECT_EQ(n.Find("none")->column, 1);
}

TEST(Yaml, AnAliasIsACopyOfItsAnchorPositionsIncluded) {
  YamlNode n = ParseYaml(
      "link: &l {rate: 100G,\n"
      "          delay: 1us}\n"
      "other: *l\n"
      "names: &n [a, b]\n"
      "again: *n\n");
  const YamlNode* other = n.Find("other");
  ASSERT_TRUE(other->IsMap());
  EXPECT_EQ(other->Find("delay")->scalar, "1us");
  EXPECT_EQ(other->map[1].line, 2);  // where the anchor wrote it
  EXPECT_EQ(other->map[1].column, 11);
  ASSERT_EQ(n.Find("again")->seq.size(), 2u);
  EXPECT_EQ(n.Find("again")->seq[1].scalar, "b");
  EXPECT_EQ(n.map[1].line, 3);  // the key holding the alias is where it is written
}

TEST(Yaml, MergeKeys) {
  YamlNode n = ParseYaml(
      "a: &a {x: 1, y: 1}\n"
      "b: &b {y: 2, z: 2}\n"
      "one:\n"
      "  w: 0\n"
      "  <<: *a\n"
      "  x: 3\n"
      "two: {<<: [*a, *b], v: 4}\n");
  const YamlNode* one = n.Find("one");
  ASSERT_EQ(one->map.size(), 3u);
  // The merged entries stand where the `<<` does; the mapping's own x wins.
  EXPECT_EQ(one->map[0].key, "w");
  EXPECT_EQ(one->map[1].key, "y");
  EXPECT_EQ(one->map[1].line, 1);
  EXPECT_EQ(one->map[2].key, "x");
  EXPECT_EQ(one->Find("x")->scalar, "3");
  // From a list, the earlier mapping wins.
  const YamlNode* two = n.Find("two");
  ASSERT_EQ(two->map.size(), 4u);
  EXPECT_EQ(two->Find("x")->scalar, "1");
  EXPECT_EQ(two->Find("y")->scalar, "1");
  EXPECT_EQ(two->Find("z")->scalar, "2");
  EXPECT_EQ(two->Find("v")->scalar, "4");
  EXPECT_EQ(two->Find("<<"), nullptr);
  // A quoted '<<' is an ordinary key.
  EXPECT_EQ(ParseYaml("a: {'<<': 1}\n").Find("a")->Find("<<")->scalar, "1");
  YamlError e = ErrorOf("a: {<<: 5}\n");
  EXPECT_EQ(e.line(), 1);
  EXPECT_EQ(e.column(), 9);
  EXPECT_TRUE(Says(e, "'<<' merges a mapping")) << e.what();
  EXPECT_TRUE(Says(ErrorOf("a: &a [1]\nb: {<<: [*a]}\n"), "'<<' merges a mapping"));
}

TEST(Yaml, DuplicateKeysNameBothLines) {
  YamlError e = ErrorOf("a: 1\nb:\n  c: 1\n  c: 2\n");
  EXPECT_EQ(e.line(), 4);
  EXPECT_EQ(e.column(), 3);
  EXPECT_TRUE(Says(e, "key 'c' written twice in one mapping (first on line 3)")) << e.what();
  EXPECT_EQ(ErrorOf("x: {k: 1, k: 2}\n").column(), 11);
  EXPECT_EQ(ErrorOf("a: 1\n'a': 2\n").line(), 2);  // quoting does not make it another key
  // Keys a merge brings in are not duplicates: the mapping's own win.
  EXPECT_NO_THROW(ParseYaml("a: &a {k: 1}\nb: {<<: *a, k: 2}\n"));
}

TEST(Yaml, ErrorsCarryLineAndColumn) {
  struct Case {
    std::string text;
    int line, column;
    const char* words;
  };
  const Case cases[] = {
      {"a: 1\nb: {c: 2\n", 3, 1, "end of map flow not found"},
      {"a: 1\n  b: 2\n", 2, 4, "illegal map value"},
      {"a: \"open\nb: 1\n", 1, 4, "without its closing"},
      {"a: 'open\n", 1, 4, "without its closing"},
      {"a:\n\tb: 1\n", 2, 3, "tab in the indentation"},
      {"a: b: c\n", 1, 5, "illegal map value"},
      {"a: \"\\q\"\n", 1, 7, "unknown escape character"},
      {"a: [1, 2\nb: 3\n", 2, 2, "end of sequence flow not found"},
      {"a: 1\n  \x01", 2, 3, "control character 0x01"},
      {std::string("a: \0", 4), 1, 4, "NUL byte"},
  };
  for (const Case& c : cases) {
    YamlError e = ErrorOf(c.text);
    EXPECT_EQ(e.line(), c.line) << c.text << ": " << e.what();
    EXPECT_EQ(e.column(), c.column) << c.text << ": " << e.what();
    EXPECT_TRUE(Says(e, c.words)) << c.text << ": " << e.what();
  }
}

TEST(Yaml, OneDocumentOnly) {
  YamlError e = ErrorOf("x: 1\n---\ny: 2\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_TRUE(Says(e, "a second YAML document")) << e.what();
  EXPECT_EQ(ErrorOf("x: 1\n...\ny: 2\n").line(), 3);
  // One document marked as such is fine, and so is no document at all.
  EXPECT_EQ(ParseYaml("---\nx: 1\n...\n").Find("x")->scalar, "1");
  EXPECT_TRUE(ParseYaml("# nothing but a comment\n").IsNull());
}

TEST(Yaml, UnknownAndSelfReferringAliasesAreErrors) {
  YamlError e = ErrorOf("a: 1\nb: [1, *nope]\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.column(), 8);
  EXPECT_TRUE(Says(e, "unknown alias '*nope'")) << e.what();
  // An anchor counts from where it stands on, not before.
  EXPECT_TRUE(Says(ErrorOf("a: *x\nb: &x 1\n"), "unknown alias '*x'"));
  YamlError self = ErrorOf("a: &x [1, *x]\n");
  EXPECT_EQ(self.column(), 11);
  EXPECT_TRUE(Says(self, "alias '*x' inside the node it names")) << self.what();
}

TEST(Yaml, WhatAScenarioHasNoUseForIsRefused) {
  YamlError tag = ErrorOf("a: 1\nb: !!str 5\n");
  EXPECT_EQ(tag.line(), 2);
  EXPECT_EQ(tag.column(), 4);
  EXPECT_TRUE(Says(tag, "tag '!!str'")) << tag.what();
  EXPECT_TRUE(Says(ErrorOf("a: !custom {b: 1}\n"), "tag '!custom'"));
  EXPECT_TRUE(Says(ErrorOf("[a, b]: 1\n"), "a list or mapping as a mapping key"));
  EXPECT_TRUE(Says(ErrorOf("? {a: 1}\n: 2\n"), "a list or mapping as a mapping key"));
  EXPECT_TRUE(Says(ErrorOf("~: 1\n"), "empty or null"));
}

TEST(Yaml, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  EXPECT_TRUE(Says(ErrorOf("a: " + deep), "nesting deeper than 64 levels"));
  std::string closed = "a: " + std::string(70, '[') + std::string(70, ']');
  YamlError e = ErrorOf(closed);
  EXPECT_EQ(e.column(), 3 + kMaxYamlDepth);  // the first '[' past the limit (the top mapping is one level)
  std::string block;
  for (int i = 0; i < 200; ++i) block += std::string(i, ' ') + "k:\n";
  EXPECT_EQ(ErrorOf(block).line(), kMaxYamlDepth + 1);
  // 64 levels are fine.
  EXPECT_NO_THROW(ParseYaml(std::string(kMaxYamlDepth, '[') + std::string(kMaxYamlDepth, ']')));
}

TEST(Yaml, AliasesCannotExpandWithoutBound) {
  // Each line holds ten aliases of the one before: 10^12 values if copied out.
  std::string text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'm'; ++c) {
    text += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i) text += std::string(i ? ", " : "") + "*" + static_cast<char>(c - 1);
    text += "]\n";
  }
  YamlError e = ErrorOf(text);
  EXPECT_TRUE(Says(e, "aliases expand to more than")) << e.what();
  EXPECT_LT(e.line(), 8);
}

}  // namespace rocelab
