// Sweeps, the quick part: key paths, how a campaign enumerates its runs and names
// them, bad campaigns refused before any run (file, line, key and value), the
// refusals that keep one folder one sweep, and the results table. The sweeps
// themselves, in parallel, under mpirun, killed and resumed, are in
// sweep_parallel_test.cc.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report/html_page.h"
#include "sweep/campaign.h"
#include "sweep/key_path.h"
#include "sweep/key_figures.h"
#include "sweep/sweep_plot.h"
#include "sweep_util.h"
#include "util/config_error.h"
#include "util/json_value.h"

namespace rocelab {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

}  // namespace

TEST(SweepCampaign, KeyPathsReadAndSet) {
  KeyPath p;
  std::string err;
  ASSERT_TRUE(ParseKeyPath("faults[0].kind", &p, &err)) << err;
  ASSERT_EQ(p.steps.size(), 3u);
  size_t index = 9;
  EXPECT_EQ(p.steps[0].key, "faults");
  EXPECT_TRUE(p.steps[1].Index(&index));
  EXPECT_EQ(index, 0u);
  EXPECT_EQ(p.steps[2].key, "kind");
  for (const char* bad : {"", "a..b", "a.", ".a", "[0]", "a[0", "a]", "a[]", "a[0]b"})
    EXPECT_FALSE(ParseKeyPath(bad, &p, &err)) << bad;

  YamlNode tree = ParseYaml("switch: {buffer: 32MB}\nfaults:\n  - {kind: link_down}\n");
  YamlNode v = ParseYaml("50KB");
  ASSERT_TRUE(ParseKeyPath("switch.ecn.kmin", &p, &err));
  ASSERT_TRUE(SetAtKeyPath(&tree, p, v, 7, 3, &err)) << err;  // adds ecn: {kmin: 50KB}
  const YamlNode* ecn = tree.Find("switch")->Find("ecn");
  ASSERT_TRUE(ecn && ecn->IsMap());
  EXPECT_EQ(ecn->Find("kmin")->scalar, "50KB");
  EXPECT_EQ(tree.Find("switch")->map.back().line, 7);  // where the campaign wrote it
  ASSERT_TRUE(ParseKeyPath("faults[0].kind", &p, &err));
  ASSERT_TRUE(SetAtKeyPath(&tree, p, ParseYaml("link_flap"), 1, 1, &err)) << err;
  EXPECT_EQ(tree.Find("faults")->seq[0].Find("kind")->scalar, "link_flap");
  ASSERT_TRUE(ParseKeyPath("faults[1].kind", &p, &err));
  EXPECT_FALSE(SetAtKeyPath(&tree, p, v, 1, 1, &err));
  EXPECT_NE(err.find("has 1 entry"), std::string::npos) << err;
  ASSERT_TRUE(ParseKeyPath("switch.buffer.x", &p, &err));
  EXPECT_FALSE(SetAtKeyPath(&tree, p, v, 1, 1, &err));
  EXPECT_NE(err.find("'switch.buffer' is a single value"), std::string::npos) << err;
}

TEST(SweepCampaign, ListTimesGridInOrderEachRunNamedByItsOverrides) {
  const std::string dir = CampaignDir("campaign",
                                      "base: base.yaml\n"
                                      "list:\n"
                                      "  - {switch.pfc.enabled: true}\n"
                                      "  - {switch.pfc.enabled: false, nic.cc: none}\n"
                                      "grid:\n"
                                      "  switch.ecn.kmin: [50KB, 200KB]\n"
                                      "  seed: 3..5\n");
  const Campaign c = LoadCampaign(dir + "/camp.yaml");
  ASSERT_EQ(c.runs.size(), 12u);  // 2 list entries x 2 x 3
  EXPECT_EQ(OverridesText(c.runs[0]), "switch.pfc.enabled=true switch.ecn.kmin=50KB seed=3");
  EXPECT_EQ(OverridesText(c.runs[1]), "switch.pfc.enabled=true switch.ecn.kmin=50KB seed=4");
  EXPECT_EQ(OverridesText(c.runs[3]), "switch.pfc.enabled=true switch.ecn.kmin=200KB seed=3");
  EXPECT_EQ(OverridesText(c.runs[11]), "switch.pfc.enabled=false nic.cc=none switch.ecn.kmin=200KB seed=5");
  EXPECT_EQ(OverridesJson(c.runs[11]), R"({"switch.pfc.enabled":"false","nic.cc":"none","switch.ecn.kmin":"200KB","seed":"5"})");
  EXPECT_EQ(c.keys, (std::vector<std::string>{"switch.pfc.enabled", "nic.cc", "switch.ecn.kmin", "seed"}));
  std::set<std::string> ids;
  for (const SweepRun& r : c.runs) {
    EXPECT_EQ(r.id.size(), 16u);
    ids.insert(r.id);
  }
  EXPECT_EQ(ids.size(), 12u);
  // Each run's scenario is the base with the overrides set.
  const Scenario last = RunScenario(c, c.runs[11]);
  EXPECT_EQ(last.seed, 5u);
  EXPECT_EQ(last.sw.ecn.kmin, 200u * 1024);
  EXPECT_FALSE(last.sw.pfc.enabled);
  EXPECT_EQ(last.nic.cc, NicSpec::Cc::kNone);
  EXPECT_EQ(last.sw.ecn.kmax, 400u * 1024);  // the base's
  // The same overrides in another order are the same runs, by the same names.
  WriteFile(dir + "/swapped.yaml",
            "base: base.yaml\ngrid: {seed: [5, 3, 4], switch.ecn.kmin: [200KB, 50KB]}\n"
            "list: [{nic.cc: none, switch.pfc.enabled: false}, {switch.pfc.enabled: true}]\n");
  const Campaign swapped = LoadCampaign(dir + "/swapped.yaml");
  std::set<std::string> swapped_ids;
  for (const SweepRun& r : swapped.runs) swapped_ids.insert(r.id);
  EXPECT_EQ(swapped_ids, ids);
  EXPECT_EQ(swapped.base_digest, c.base_digest);
}

TEST(SweepCampaign, InlineScenarioAndOneValueKeys) {
  const std::string dir = TempDir("inline");
  WriteFile(dir + "/camp.yaml", "scenario:\n" + [] {
    std::string s;
    for (const std::string& l : Lines(TinyBase())) s += "  " + l + "\n";
    return s;
  }() + "grid: {nic.cc: none, seed: [1, 2]}\n");
  const Campaign c = LoadCampaign(dir + "/camp.yaml");
  ASSERT_EQ(c.runs.size(), 2u);
  EXPECT_EQ(c.base_file, dir + "/camp.yaml");
  EXPECT_EQ(RunScenario(c, c.runs[1]).nic.cc, NicSpec::Cc::kNone);
  EXPECT_EQ(CheckEveryRun(c) > 0, true);
}

// Each bad campaign: exit status 2, the campaign's file, line, key and value named, and
// nothing written: no folder, no database, no run.
TEST(SweepCampaign, BadCampaignsAreRefusedBeforeAnyRun) {
  struct Case {
    std::string campaign, where, key, says;
  };
  const std::vector<Case> cases = {
      {"base: base.yaml\ngrid:\n  switch.ecn.kminn: [20KB]\n", "camp.yaml:3:22:", "key 'switch.ecn.kminn'", "unknown key"},
      // The first value is good: the second is refused before the first run.
      {"base: base.yaml\ngrid:\n  seed: [1, 2]\n  switch.ecn.kmin: [50KB, 5XB]\n", "camp.yaml:4:27:",
       "key 'switch.ecn.kmin'", "value '5XB': '5XB' has an unknown size unit"},
      {"base: base.yaml\ngrid:\n  seed: 5..1\n", "camp.yaml:3:9:", "key 'grid.seed'", "the range 5..1 is empty"},
      {"base: base.yaml\ngrid:\n  seed: 1..x\n", "camp.yaml:3:9:", "key 'grid.seed'", "'1..x' is not a range"},
      {"base: base.yaml\ngrid:\n  seed: 1..1000000\n", "camp.yaml:3:9:", "key 'grid.seed'", "more than 100000 values"},
      {"base: nothere.yaml\ngrid: {seed: [1]}\n", "camp.yaml:1:7:", "key 'base'", "nothere.yaml': no such file"},
      {"grid: {seed: [1]}\n", "camp.yaml:1:", "key 'base'", "needs a base scenario"},
      {"base: base.yaml\ngrid:\n  faults[0].kind: [link_down]\n", "camp.yaml:3:20:", "key 'faults[0].kind'",
       "the base scenario has no 'faults'"},
      {"base: base.yaml\ngrid:\n  workload[1].size: [1MB]\n", "camp.yaml:3:22:", "key 'workload[1].size'",
       "'workload' has 1 entry in the base scenario: no [1]"},
      {"base: base.yaml\ngrid:\n  workload[0].dst: [h0, h99]\n", "camp.yaml:3:25:", "key 'workload[0].dst'",
       "value 'h99': no host named 'h99'"},
      {"base: base.yaml\nlist:\n  - {\"workload[0]\": {type: incast, senders: 6, dst: h0, size: 2XB}}\n", "camp.yaml:3:57:",
       "key 'workload[0].size'", "'2XB' has an unknown size unit"},
      // A value good alone, refused with the base's kmax: the run and the base's line are named.
      {"base: base.yaml\ngrid:\n  switch.ecn.kmin: [900KB]\n", "camp.yaml:3:21:", "key 'switch.ecn.kmin'",
       "the run switch.ecn.kmin=900KB: "},
      {"base: base.yaml\ngrid:\n  switch..ecn: [1]\n", "camp.yaml:3:3:", "key 'grid.switch..ecn'", "not a key path"},
      {"base: base.yaml\ngird:\n  seed: [1]\n", "camp.yaml:2:1:", "key 'gird'", "unknown key"},
      {"base: base.yaml\ngrid:\n  seed: [1, 1]\n", "camp.yaml:3:13:", "key 'seed'", "run 1 (seed=1) is run 0 again"},
      {"base: base.yaml\nlist: [{seed: 2}]\ngrid: {seed: [1, 2]}\n", "camp.yaml:2:15:", "key 'seed'", "set twice in one run"},
      {"base: base.yaml\ngrid:\n  switch.ecn: [{kmin: 1KB}]\n  switch.ecn.kmax: [2KB]\n", "camp.yaml:4:", "key 'switch.ecn.kmax'",
       "inside 'switch.ecn'"},
  };
  for (const Case& c : cases) {
    const std::string dir = CampaignDir("bad", c.campaign);
    const CommandResult r = Rocelab("sweep " + dir + "/camp.yaml --out " + dir + "/out -j 2");
    EXPECT_EQ(r.status, 2) << c.campaign << r.output;
    EXPECT_NE(r.output.find(dir + "/" + c.where), std::string::npos) << c.campaign << r.output;
    EXPECT_NE(r.output.find(c.key), std::string::npos) << c.campaign << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.campaign << r.output;
    EXPECT_FALSE(Exists(dir + "/out")) << c.campaign;
  }
  // The base's own line, for a combination it refuses.
  const std::string dir = CampaignDir("bad", cases[11].campaign);
  EXPECT_NE(Rocelab("sweep " + dir + "/camp.yaml --out " + dir + "/out").output.find(dir + "/base.yaml:7:"), std::string::npos);
}

// A campaign grown with a bad value does not touch the sweep it would resume.
TEST(SweepCampaign, ABadCampaignAddsNothingToASweep) {
  const std::string dir = CampaignDir("grown", "base: base.yaml\ngrid: {seed: [1, 2]}\n");
  const std::string sweep = "sweep " + dir + "/camp.yaml --out " + dir + "/out --quiet";
  ASSERT_EQ(Rocelab(sweep).status, 0);
  ASSERT_EQ(RecordedRuns(dir + "/out"), 2u);
  WriteFile(dir + "/camp.yaml", "base: base.yaml\ngrid: {seed: [1, 2, 3], switch.ecn.pmax: [0.2, 7]}\n");
  const CommandResult r = Rocelab(sweep + " --resume");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("camp.yaml:2:48: key 'switch.ecn.pmax': value '7'"), std::string::npos) << r.output;
  EXPECT_EQ(RecordedRuns(dir + "/out"), 2u);
  EXPECT_EQ(RunCommand("ls " + dir + "/out/runs | wc -l"), "2\n");
}

// One folder holds one sweep: no second sweep over it, no resume with another base or shard.
TEST(SweepCampaign, OneFolderOneSweep) {
  const std::string dir = CampaignDir("one", "base: base.yaml\ngrid: {seed: [1, 2]}\n");
  const std::string sweep = "sweep " + dir + "/camp.yaml --out " + dir + "/out --quiet";
  ASSERT_EQ(Rocelab(sweep).status, 0);
  CommandResult r = Rocelab(sweep);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("holds a sweep already: --resume"), std::string::npos) << r.output;
  r = Rocelab(sweep + " --resume");  // nothing left to make
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(RecordedRuns(dir + "/out"), 2u);
  WriteFile(dir + "/base.yaml", TinyBase("128KB"));
  r = Rocelab(sweep + " --resume");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("another base scenario"), std::string::npos) << r.output;
  WriteFile(dir + "/base.yaml", TinyBase());
  r = Rocelab(sweep + " --resume --shard 1/2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("holds a whole sweep, not shard 1/2"), std::string::npos) << r.output;
  for (const char* bad : {"--shard 2/2", "--shard 1", "-j 0", "--counters some", "--metrics x"}) {
    r = Rocelab(sweep + " --resume " + bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.output.find("see: rocelab sweep --help"), std::string::npos) << r.output;
  }
  EXPECT_EQ(RecordedRuns(dir + "/out"), 2u);
}

TEST(SweepCampaign, TableShowsEachRunsOverridesAndMetrics) {
  const std::string dir = CampaignDir("table",
                                      "base: base.yaml\n"
                                      "grid: {switch.ecn.kmin: [50KB, 200KB], seed: [1, 2]}\n"
                                      "metrics: [fct_p99_slowdown, ecn_marked]\n");
  const std::string out = dir + "/out";
  ASSERT_EQ(Rocelab("sweep " + dir + "/camp.yaml --out " + out + " --quiet -j 2").status, 0);
  const std::vector<std::string> table = Lines(Rocelab("sweep --table " + out).output);
  ASSERT_EQ(table.size(), 5u);
  EXPECT_EQ(table[0], "run               switch.ecn.kmin  seed  fct_p99_slowdown  ecn_marked");
  const Campaign c = LoadCampaign(dir + "/camp.yaml");
  for (size_t i = 0; i < 4; ++i) {
    const SweepRun& run = c.runs[i];
    // Each row is its run's, in the campaign's order, with the figures of its summary.json.
    std::istringstream row(table[i + 1]);
    std::string id, kmin, seed, p99, marked;
    row >> id >> kmin >> seed >> p99 >> marked;
    EXPECT_EQ(id, run.id);
    EXPECT_EQ(kmin + " " + seed, i < 2 ? "50KB " + std::to_string(i + 1) : "200KB " + std::to_string(i - 1));
    const std::string path = out + "/runs/" + id + "/summary.json";
    const JsonDocument s = JsonDocument::parse(ReadFile(path));
    EXPECT_EQ(std::stod(p99), s["fct_slowdown"][0]["p99"].get<double>());
    EXPECT_EQ(std::stoull(marked), s["totals"]["ecn_marked"].get<uint64_t>());
    EXPECT_GT(std::stoull(marked), 0u);
    EXPECT_FALSE(Exists(out + "/runs/" + id + "/report.html"));
  }
  // Any figure of the summary by its key path, and CSV.
  const std::vector<std::string> csv =
      Lines(Rocelab("sweep --table " + out + " --metrics 'totals.cnp_handled,fct_slowdown[>=1MB].flows,events' --csv -").output);
  ASSERT_EQ(csv.size(), 5u);
  EXPECT_EQ(csv[0], "run,switch.ecn.kmin,seed,totals.cnp_handled,fct_slowdown[>=1MB].flows,events");
  std::vector<std::string> fields;
  std::istringstream first(csv[1]);
  for (std::string f; std::getline(first, f, ',');) fields.push_back(f);
  ASSERT_EQ(fields.size(), 6u) << csv[1];
  EXPECT_EQ(fields[0], c.runs[0].id);
  EXPECT_EQ(fields[1] + " " + fields[2], "50KB 1");
  EXPECT_GT(std::stoull(fields[3]), 0u);  // CNPs handled
  EXPECT_EQ(fields[4], "0");              // no flow of 1 MB or more
  EXPECT_GT(std::stoull(fields[5]), 1000u);
  CommandResult r = Rocelab("sweep --table " + out + " --csv " + dir + "/table.csv");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(Lines(ReadFile(dir + "/table.csv")).size(), 5u);
  r = Rocelab("sweep --table " + out + " --metrics no_such_metric");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("no run has a metric 'no_such_metric'"), std::string::npos) << r.output;
  r = Rocelab("sweep --table " + dir);  // not a sweep's folder
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find(dir + "/results.sqlite: no such file"), std::string::npos) << r.output;
  WriteFile(dir + "/garbage/results.sqlite", "not a database at all, just some text\n");
  r = Rocelab("sweep --table " + dir + "/garbage");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("not a rocelab sweep's results"), std::string::npos) << r.output;
}

// A metric against a swept key, from the results alone: sizes placed to scale, the seeds of a
// setting one point (their mean), a line per value of the other keys, a run without the metric
// left out and counted, the refusals naming the database.
TEST(SweepPlot, AMetricAgainstASweptKey) {
  std::vector<RunRecord> runs;
  auto add = [&](const std::string& kmin, int seed, const std::string& mode, const std::string& summary) {
    runs.push_back({"r" + std::to_string(runs.size()), static_cast<int64_t>(runs.size()),
                    "{\"switch.ecn.kmin\": \"" + kmin + "\", \"seed\": " + std::to_string(seed) + ", \"nic.cc\": \"" +
                        mode + "\"}",
                    summary});
  };
  auto with = [](double v) { return "{\"totals\": {\"pause_frames_tx\": " + FormatFixed(v, 1) + "}}"; };
  add("50KB", 1, "dcqcn", with(10));
  add("50KB", 2, "dcqcn", with(20));
  add("200KB", 1, "dcqcn", with(40));
  add("100KB", 1, "dcqcn", with(30));
  add("50KB", 1, "none", with(100));
  add("200KB", 1, "none", "{\"totals\": {}}");  // no such figure: left out
  const std::vector<std::string> keys = {"switch.ecn.kmin", "seed", "nic.cc"};
  const XYChart c = MakeSweepPlot(runs, keys, "switch.ecn.kmin", "totals.pause_frames_tx", "db.sqlite");
  ASSERT_EQ(c.x_ticks.size(), 3u);
  EXPECT_EQ(c.x_ticks[0], (std::pair<double, std::string>{50.0 * 1024, "50KB"}));
  EXPECT_EQ(c.x_ticks[1], (std::pair<double, std::string>{100.0 * 1024, "100KB"}));
  EXPECT_EQ(c.x_ticks[2], (std::pair<double, std::string>{200.0 * 1024, "200KB"}));
  ASSERT_EQ(c.lines.size(), 2u);
  EXPECT_EQ(c.lines[0].name, "nic.cc dcqcn");
  EXPECT_EQ(c.lines[1].name, "nic.cc none");
  const std::vector<XYPoint>& dcqcn = c.lines[0].points;
  ASSERT_EQ(dcqcn.size(), 3u);
  EXPECT_EQ(dcqcn[0].x, 50.0 * 1024);
  EXPECT_EQ(dcqcn[0].y, 15.0);  // the mean of the two seeds
  EXPECT_NE(dcqcn[0].title.find("mean of 2 runs, min 10.0000, max 20.0000"), std::string::npos) << dcqcn[0].title;
  EXPECT_EQ(dcqcn[1].x, 100.0 * 1024);
  EXPECT_EQ(dcqcn[1].y, 30.0);
  EXPECT_EQ(dcqcn[2].y, 40.0);
  ASSERT_EQ(c.lines[1].points.size(), 1u);
  EXPECT_NE(c.note.find("1 runs without a value of totals.pause_frames_tx left out"), std::string::npos) << c.note;
  EXPECT_EQ(dcqcn[0].lo, 10.0);
  EXPECT_EQ(dcqcn[0].hi, 20.0);
  EXPECT_EQ(dcqcn[1].lo, dcqcn[1].hi) << "one seed: no spread";
  EXPECT_FALSE(c.categorical);
  EXPECT_EQ(c.x_label, "switch.ecn.kmin (a size, to scale)");
  EXPECT_EQ(c.y_label, "totals.pause_frames_tx") << "a key path that names no unit";
  EXPECT_NE(c.note.find("each point the mean over seeds, the shaded band their lowest to highest"), std::string::npos) << c.note;
  const std::string svg = SvgXYChart(c);
  EXPECT_EQ(Occurrences(svg, "<polyline class=\"line\""), 2u);
  EXPECT_EQ(Occurrences(svg, "<circle class=\"point\""), 4u);
  // The seeds' spread: one band, on the dcqcn line (the only one with two seeds at a point).
  EXPECT_EQ(Occurrences(svg, "<polygon class=\"band\""), 1u);
  EXPECT_EQ(Occurrences(svg, "<line class=\"spread\""), 0u);
  EXPECT_EQ(MakeSweepPlot(runs, keys, "seed", "pause_frames_tx", "db.sqlite").y_label, "pause_frames_tx (frames)");
  EXPECT_EQ(MetricUnit("fct_p99_slowdown"), "× the ideal FCT");
  EXPECT_EQ(MetricUnit("workloads[0].iteration_ns[0]"), "ns");
  EXPECT_EQ(MetricUnit("totals.bytes_delivered"), "bytes");

  // Values that are no one kind of quantity: in the campaign's order, evenly.
  const XYChart modes = MakeSweepPlot(runs, keys, "nic.cc", "totals.pause_frames_tx", "db.sqlite");
  ASSERT_EQ(modes.x_ticks.size(), 2u);
  EXPECT_EQ(modes.x_ticks[0], (std::pair<double, std::string>{0, "dcqcn"}));
  EXPECT_EQ(modes.x_ticks[1], (std::pair<double, std::string>{1, "none"}));
  // Names are categories: points with the seeds' spread as a bar through each, no line between
  // them (a line would say "dcqcn" and "none" have something in between).
  EXPECT_TRUE(modes.categorical);
  EXPECT_EQ(modes.x_label, "nic.cc (in the campaign's order)");
  const std::string by_mode = SvgXYChart(modes);
  for (const std::string& line : {std::string("50KB"), std::string("100KB"), std::string("200KB")})
    EXPECT_NE(by_mode.find("data-name=\"switch.ecn.kmin " + line + "\" stroke=\"#"), std::string::npos) << line;
  EXPECT_EQ(Occurrences(by_mode, "\" points=\"\""), 3u) << "no line joins the categories";
  EXPECT_EQ(Occurrences(by_mode, "<line class=\"spread\""), 1u) << "50KB on dcqcn: seeds 1 and 2";
  EXPECT_EQ(Occurrences(by_mode, "<polygon class=\"band\""), 0u);

  try {
    MakeSweepPlot(runs, keys, "switch.ecn.kmax", "totals.pause_frames_tx", "db.sqlite");
    ADD_FAILURE() << "a key that was not swept";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("db.sqlite"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'switch.ecn.kmax' is not a swept key: plot against one of switch.ecn.kmin, seed, nic.cc"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(MakeSweepPlot(runs, keys, "seed", "no_such_metric", "db.sqlite"), ConfigError);
}

// The command: a page beside the sweep, one line a setting of the other keys, and the usage.
TEST(SweepPlot, TheCommandWritesAPageAndRefusesWhatDoesNotGo) {
  const std::string dir = CampaignDir("plot", "base: base.yaml\ngrid: {switch.ecn.kmin: [50KB, 200KB], seed: [1, 2]}\n");
  const std::string out = dir + "/out";
  ASSERT_EQ(Rocelab("sweep " + dir + "/camp.yaml --out " + out + " --quiet -j 2").status, 0);
  CommandResult r = Rocelab("sweep --plot " + out + " --x switch.ecn.kmin --metric fct_p99_slowdown");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("wrote " + out + "/plot.html (fct_p99_slowdown against switch.ecn.kmin; 4 runs"), std::string::npos)
      << r.output;
  const std::string page = ReadFile(out + "/plot.html");
  EXPECT_EQ(Occurrences(page, "<polyline class=\"line\""), 1u);
  EXPECT_EQ(Occurrences(page, "<circle class=\"point\""), 2u);
  EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
  r = Rocelab("sweep --plot " + out + " --x seed --metric fct_p99_slowdown --html " + dir + "/seeds.html");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(Occurrences(ReadFile(dir + "/seeds.html"), "<polyline class=\"line\""), 2u);  // one per kmin
  for (const std::string& bad : {"sweep --plot " + out + " --metric fct_p99_slowdown",
                                 "sweep --table " + out + " --x seed",
                                 "sweep --plot " + out + " --x seed --metric fct_p99_slowdown --csv -"}) {
    r = Rocelab(bad);
    EXPECT_EQ(r.status, 2) << bad << "\n" << r.output;
  }
  r = Rocelab("sweep --plot " + out + " --x switch.ecn.kmax --metric fct_p99_slowdown --html " + dir + "/no.html");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("not a swept key"), std::string::npos) << r.output;
  EXPECT_FALSE(Exists(dir + "/no.html"));
}

// report.html only when asked, and then the page `rocelab export html` makes of the run's folder.
TEST(SweepCampaign, ReportOnlyWhenAsked) {
  const std::string dir = CampaignDir("report", "base: base.yaml\ngrid: {seed: [1, 2]}\n");
  ASSERT_EQ(Rocelab("sweep " + dir + "/camp.yaml --quiet --report --out " + dir + "/out").status, 0);
  for (const std::string& id : RecordedIds(dir + "/out")) {
    const std::string run = dir + "/out/runs/" + id;
    ASSERT_TRUE(Exists(run + "/report.html")) << id;
    ASSERT_EQ(Rocelab("export html " + run + " --out " + dir + "/" + id + ".html").status, 0);
    EXPECT_TRUE(ReadFile(run + "/report.html") == ReadFile(dir + "/" + id + ".html")) << id;
    EXPECT_NE(ReadFile(run + "/report.html").find("<svg"), std::string::npos);
  }
}

TEST(SweepCampaign, AnswersHelp) {
  for (const auto& [cmd, option] : std::vector<std::pair<std::string, std::string>>{
           {"sweep", "--resume"}, {"sweep", "--shard"}, {"sweep", "--table"}, {"sweep", "--plot"}, {"sweep merge", "SHARD_DIR"}}) {
    const CommandResult r = Rocelab(cmd + " --help");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("Usage: rocelab " + cmd), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(option), std::string::npos) << r.output;
  }
  const CommandResult r = Rocelab("sweep");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("a campaign file is required"), std::string::npos) << r.output;
}

}  // namespace rocelab
