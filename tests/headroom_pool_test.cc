// The shared headroom pool (switch.pfc.over_subscribe_ratio): the lossless PGs' headroom pooled
// at its sum over the ratio. The buffer it frees goes to the shared pool; the bet is that few PGs
// are in headroom at once, and an incast from every port loses it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "diagnose/diagnose.h"
#include "file_util.h"
#include "lab/lab.h"
#include "lab/lab_session.h"
#include "plan/buffer_plan.h"
#include "report/compare.h"
#include "test_util.h"

namespace rocelab {
namespace {

// Seven senders on leaf0 into h0 at line rate, no congestion control: seven ingress PGs of
// leaf0 cross their threshold together and spill into headroom at once.
std::string SevenIntoOne(const std::string& pfc) {
  std::string flows;
  for (int h = 1; h <= 7; ++h) flows += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 2MB, priority: 3}\n";
  return "duration: 500ms\n" + ExampleFabric("  pfc: " + pfc + "\n", "{mtu: 4096, cc: none}", "2MB") + "workload:\n" + flows;
}

uint64_t SumOfHeadroom(const Switch& sw) {
  uint64_t sum = 0;
  for (int p = 0; p < sw.num_ports(); ++p) sum += sw.headroom(p);  // one lossless PG (priority 3)
  return sum;
}

// The findings of `rocelab diagnose` on the run's summary.json.
std::vector<Diagnosis> DiagnoseRun(const TestRun& r, const std::string& tag) {
  const std::string file = WriteFile(TempDir(tag) + "/summary.json", SummaryJson(*r.run));
  return Diagnose(LoadEvidence({file}));
}

TEST(HeadroomPool, ThePoolIsTheHeadroomOverTheRatioAndTheRestIsShared) {
  auto own = StartYaml(SevenIntoOne("{headroom: auto}"));
  auto pooled = StartYaml(SevenIntoOne("{headroom: auto, over_subscribe_ratio: 4}"));
  const Switch& a = own->sw("leaf0");
  const Switch& b = pooled->sw("leaf0");
  const uint64_t sum = SumOfHeadroom(a);
  ASSERT_GT(sum, 0u);
  EXPECT_EQ(a.headroom_pool(), 0u);
  EXPECT_EQ(b.headroom_pool(), (sum / 4 + 255) / 256 * 256);
  // Each PG keeps its own limit; what the pool saves is shared.
  for (int p = 0; p < a.num_ports(); ++p) EXPECT_EQ(a.headroom(p), b.headroom(p));
  EXPECT_EQ(b.shared_pool() - a.shared_pool(), sum - b.headroom_pool());
  // The plan says the same.
  for (const SwitchBudget& s : PlanBuffers(pooled->scenario()))
    if (s.name == "leaf0") {
      EXPECT_EQ(s.headroom_total, sum);
      EXPECT_EQ(s.headroom_reserved, b.headroom_pool());
      EXPECT_EQ(s.shared_left, static_cast<int64_t>(b.spec().buffer - b.headroom_pool()));
      EXPECT_NE(s.verdict.find("over ratio 4"), std::string::npos) << s.verdict;
    }
}

TEST(HeadroomPool, AnIncastFromEveryPortOverflowsAnOversubscribedPoolButNotAWholeOne) {
  auto whole = RunYaml(SevenIntoOne("{headroom: auto, over_subscribe_ratio: 1}"));
  auto thin = RunYaml(SevenIntoOne("{headroom: auto, over_subscribe_ratio: 8}"));
  const Switch& w = whole->sw("leaf0");
  const Switch& t = thin->sw("leaf0");
  // Ratio 1 pools every PG's headroom whole: as lossless as reserving it each.
  EXPECT_EQ(ComputeTotals(*whole).drops_lossless, 0u);
  EXPECT_EQ(w.headroom_pool_drops(), 0u);
  // Seven PGs in headroom together need more than an eighth of ten ports' headroom.
  EXPECT_GT(w.headroom_pool_watermark(), t.headroom_pool()) << "the incast's headroom use at once";
  EXPECT_GT(t.headroom_pool_drops(), 0u);
  EXPECT_EQ(t.headroom_pool_drops(), t.lossless_drops()) << "every lossless drop is the pool's: no PG's own headroom ran out";
  EXPECT_GE(t.headroom_pool_watermark() + 12288, t.headroom_pool());
  EXPECT_LE(t.headroom_pool_watermark(), t.headroom_pool());
  // Go-back-N delivers it all even so.
  const Totals tt = ComputeTotals(*thin);
  EXPECT_EQ(tt.bytes_delivered, 7u * (2u << 20));
}

// What the pool frees is shared: the dynamic threshold (alpha x the free shared pool) is higher,
// so a burst that a switch reserving each PG's headroom answers with pauses passes unpaused.
TEST(HeadroomPool, TheBufferItFreesAbsorbsABurstWithoutPausing) {
  auto burst = [](const std::string& pfc) {
    std::string flows;
    for (int h = 1; h <= 3; ++h) flows += "  - {type: flow, src: h" + std::to_string(h) + ", dst: h0, size: 200KB, priority: 3}\n";
    return RunYaml("duration: 10ms\n" + ExampleFabric("  pfc: " + pfc + "\n", "{mtu: 4096, cc: none}", "2MB") +
                   "workload:\n" + flows);
  };
  auto own = burst("{headroom: auto}");
  auto pooled = burst("{headroom: auto, over_subscribe_ratio: 2}");
  const Totals a = ComputeTotals(*own), b = ComputeTotals(*pooled);
  EXPECT_GT(a.pause_frames_tx, 0u);
  EXPECT_EQ(b.pause_frames_tx, 0u);
  EXPECT_EQ(a.drops_lossless + b.drops_lossless, 0u);
  EXPECT_EQ(b.bytes_delivered, 3u * 200u * 1024u);
}

TEST(HeadroomPool, DiagnoseNamesTheFullPoolAndTheRatio) {
  auto thin = RunYaml(SevenIntoOne("{headroom: auto, over_subscribe_ratio: 8}"));
  bool found = false;
  for (const Diagnosis& d : DiagnoseRun(thin, "pool")) {
    if (d.rule != "drop.lossless_pg_headroom") continue;
    found = true;
    EXPECT_NE(d.title.find("shared headroom pool full"), std::string::npos) << d.title;
    EXPECT_NE(d.evidence.find("shared headroom pool reached"), std::string::npos) << d.evidence;
    EXPECT_NE(d.action.find("over_subscribe_ratio"), std::string::npos) << d.action;
  }
  EXPECT_TRUE(found);
  // Without a pool the same rule tells the PG's own headroom to grow.
  auto tiny = RunYaml(SevenIntoOne("{headroom: 2KB}"));
  found = false;
  for (const Diagnosis& d : DiagnoseRun(tiny, "own")) {
    if (d.rule != "drop.lossless_pg_headroom") continue;
    found = true;
    EXPECT_NE(d.title.find("PG headroom overflow"), std::string::npos) << d.title;
    EXPECT_EQ(d.action.find("over_subscribe_ratio"), std::string::npos) << d.action;
  }
  EXPECT_TRUE(found);
}

// In a lab the pool shows as SONiC shows it: `mmuconfig -l` gives the pool's xoff and profiles
// that reserve none of their own; `show headroom-pool watermark` how full it got.
TEST(HeadroomPool, ALabShowsThePoolAndHowFullItGot) {
  LabSession thin(LabOfScenario("pool.yaml", SevenIntoOne("{headroom: auto, over_subscribe_ratio: 8}")));
  thin.Execute("run 5ms");
  const std::string mmu = thin.Execute("on leaf0 mmuconfig -l");
  EXPECT_NE(mmu.find("xoff  118528"), std::string::npos) << mmu;
  EXPECT_NE(mmu.find("size        0"), std::string::npos) << mmu;
  const std::string wm = thin.Execute("on leaf0 show headroom-pool watermark");
  EXPECT_NE(wm.find("ingress_lossless_pool"), std::string::npos) << wm;
  EXPECT_NE(wm.find("117,504"), std::string::npos) << wm;
  LabSession own(LabOfScenario("own.yaml", SevenIntoOne("{headroom: auto}")));
  EXPECT_NE(own.Execute("on leaf0 show headroom-pool watermark").find("has no shared headroom pool"), std::string::npos);
  const std::string own_mmu = own.Execute("on leaf0 mmuconfig -l");
  const std::string own_pool = own_mmu.substr(0, own_mmu.find("Profile:"));
  EXPECT_EQ(own_pool.find("xoff"), std::string::npos) << own_mmu;
  EXPECT_EQ(own_mmu.find("size        0\n"), std::string::npos) << own_mmu;
}

// The pool and the pipeline are settings: summary.json's switch config has them when set, and
// `rocelab compare` lists them among the settings that differ.
TEST(HeadroomPool, CompareListsThePoolAndThePipelineAsSettings) {
  const std::string dir = TempDir("pool-compare");
  auto own = RunYaml(SevenIntoOne("{headroom: auto}"));
  auto pooled = RunYaml(SevenIntoOne("{headroom: auto, over_subscribe_ratio: 2}\n  pipeline_latency: 300ns"));
  WriteFile(dir + "/own/summary.json", SummaryJson(*own.run));
  WriteFile(dir + "/pooled/summary.json", SummaryJson(*pooled.run));
  const Comparison c = Compare(dir + "/own", dir + "/pooled");
  std::set<std::string> keys;
  for (const SettingChange& s : c.settings)
    if (s.device == "leaf0") {
      keys.insert(s.key);
      EXPECT_FALSE(s.a.has_value()) << s.key;
      EXPECT_TRUE(s.b.has_value()) << s.key;
      if (s.key == "pipeline_latency_ns") {
        EXPECT_EQ(*s.b, "300");
      }
      if (s.key == "buffer.headroom_pool_bytes") {
        EXPECT_EQ(*s.b, std::to_string(pooled->sw("leaf0").headroom_pool()));
      }
    }
  EXPECT_EQ(keys, (std::set<std::string>{"over_subscribe_ratio", "pipeline_latency_ns", "buffer.headroom_pool_bytes"}));
}

TEST(HeadroomPool, ARatioBelowOneIsRefused) {
  const std::string what = Refusal(SevenIntoOne("{over_subscribe_ratio: 0.5}"), "pool.yaml");
  ASSERT_FALSE(what.empty()) << "a ratio of 0.5 was taken";
  EXPECT_NE(what.find("pool.yaml"), std::string::npos) << what;
  EXPECT_NE(what.find("switch.pfc.over_subscribe_ratio"), std::string::npos) << what;
  EXPECT_EQ(Refusal(SevenIntoOne("{over_subscribe_ratio: 0}"), "pool.yaml"), "");
}

}  // namespace
}  // namespace rocelab
