#include "util/yaml.h"

#include <gtest/gtest.h>

namespace rocelab {

TEST(Yaml, BlockAndFlowCollectionsWithLines) {
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
  EXPECT_EQ(n.Find("switch")->Find("lossless_priorities")->seq.size(), 2u);
  const YamlNode* w = n.Find("workload");
  ASSERT_TRUE(w->IsSeq());
  ASSERT_EQ(w->seq.size(), 2u);
  EXPECT_EQ(w->seq[1].Find("dst")->scalar, "h 8");
  EXPECT_EQ(w->seq[1].map[1].line, 10);
}

TEST(Yaml, SequenceAtTheSameIndentAsItsKey) {
  YamlNode n = ParseYaml("workload:\n- a\n- b\nother: 1\n");
  ASSERT_EQ(n.Find("workload")->seq.size(), 2u);
  EXPECT_EQ(n.Find("other")->scalar, "1");
}

TEST(Yaml, ErrorsCarryTheLine) {
  auto line_of = [](const char* text) {
    try {
      ParseYaml(text);
    } catch (const YamlError& e) {
      return e.line();
    }
    return -1;
  };
  EXPECT_EQ(line_of("a: 1\nb: {c: 2\n"), 3);        // unterminated flow map
  EXPECT_EQ(line_of("a: 1\n  b: 2\n"), 2);          // bad indentation
  EXPECT_EQ(line_of("a: 1\na: 2\n"), 2);            // duplicate key
  EXPECT_EQ(line_of("a: \"open\n"), 1);             // unterminated string
  EXPECT_EQ(line_of("a: &x 1\n"), 1);               // anchors refused
  EXPECT_EQ(line_of("x: 1\n---\ny: 2\n"), 2);       // one document only
  EXPECT_EQ(line_of("a:\n\tb: 1\n"), 2);            // tab indentation
}

TEST(Yaml, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  EXPECT_THROW(ParseYaml("a: " + deep), YamlError);
  std::string block;
  for (int i = 0; i < 200; ++i) block += std::string(i, ' ') + "k:\n";
  EXPECT_THROW(ParseYaml(block), YamlError);
}

}  // namespace rocelab
