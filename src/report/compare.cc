#include "report/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "report/compare_inputs.h"
#include "util/json_writer.h"

namespace rocelab {

std::optional<double> FigureChange::change() const {
  if (!a || !b) return std::nullopt;
  return *b - *a;
}

std::optional<double> FigureChange::change_pct() const {
  if (!a || !b || *a == 0) return std::nullopt;
  return (*b - *a) / std::fabs(*a) * 100;
}

namespace {

// ---- numbers as the table writes them ---------------------------------------------------------

int Decimals(const std::string& unit, double v) {
  if (unit.empty()) return v == std::floor(v) ? 0 : 1;  // counts, and sums of them
  if (unit == "×") return 3;
  if (unit == "Gb/s") return 2;
  return 1;  // µs, %
}

std::string Fixed(double v, int decimals, bool sign = false) {
  char buf[64];
  std::snprintf(buf, sizeof buf, sign ? "%+.*f" : "%.*f", decimals, v);
  std::string s = buf;
  if (s == "-0" || s.rfind("-0.", 0) == 0) {  // a change too small to show is no change
    bool zero = true;
    for (char c : s) zero &= c == '-' || c == '0' || c == '.';
    if (zero) s = sign ? "+" + s.substr(1) : s.substr(1);
  }
  return s;
}

std::string WithUnit(double v, const std::string& unit, bool sign = false) {
  const std::string n = Fixed(v, Decimals(unit, v), sign);
  return unit.empty() ? n : unit == "×" ? n + "×" : n + " " + unit;
}

std::string Percent(double p) { return Fixed(p, std::fabs(p) < 10 ? 1 : 0, true) + " %"; }

// ---- the comparison --------------------------------------------------------------------------

using Key = std::pair<std::string, std::string>;

std::vector<SettingChange> DifferingSettings(const CompareSide& a, const CompareSide& b,
                                             const std::set<std::string>& skip) {
  std::map<Key, std::string> va, vb;
  std::vector<Key> order;
  for (const Setting& s : a.settings)
    if (va.emplace(Key{s.device, s.key}, s.value).second) order.push_back({s.device, s.key});
  for (const Setting& s : b.settings)
    if (vb.emplace(Key{s.device, s.key}, s.value).second && !va.count({s.device, s.key}))
      order.push_back({s.device, s.key});
  std::vector<SettingChange> out;
  for (const Key& k : order) {
    if (skip.count(k.first)) continue;
    SettingChange c{k.first, k.second, std::nullopt, std::nullopt};
    if (va.count(k)) c.a = va[k];
    if (vb.count(k)) c.b = vb[k];
    if (c.a != c.b) out.push_back(std::move(c));
  }
  return out;
}

// A's figures in order; one B alone has goes right after the figure it follows in B.
std::vector<FigureChange> MatchFigures(const CompareSide& a, const CompareSide& b) {
  std::vector<FigureChange> out;
  auto key = [](const Figure& f) { return Key{f.section, f.name}; };
  auto find = [&out](const Key& k) {
    for (size_t i = 0; i < out.size(); ++i)
      if (out[i].section == k.first && out[i].name == k.second) return i;
    return out.size();
  };
  auto make = [](const Figure& f) {
    FigureChange c;
    c.section = f.section;
    c.name = f.name;
    c.label = f.label;
    c.unit = f.unit;
    c.better = f.better;
    c.weight = f.weight;
    return c;
  };
  std::set<Key> optional;
  for (const CompareSide* side : {&a, &b})
    for (const Figure& f : side->figures)
      if (f.only_if_nonzero) optional.insert(key(f));
  for (const Figure& f : a.figures) {
    if (find(key(f)) != out.size()) continue;  // the first of two with one name
    out.push_back(make(f));
    out.back().a = f.value;
    out.back().a_detail = f.detail;
  }
  size_t after = 0;  // where B's previous figure is
  for (const Figure& f : b.figures) {
    size_t at = find(key(f));
    if (at == out.size()) {
      at = std::min(after, out.size());
      out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), make(f));
    }
    if (!out[at].b) {
      out[at].b = f.value;
      out[at].b_detail = f.detail;
    }
    after = at + 1;
  }
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const FigureChange& f) {
                             return optional.count({f.section, f.name}) && f.a.value_or(0) == 0 && f.b.value_or(0) == 0;
                           }),
            out.end());
  return out;
}

// "AllReduce iteration time (mean) +23 % (412 µs → 507 µs)"; from zero, "0 → 218"; with its
// direction (", worse") unless `bare`.
std::string Describe(const FigureChange& f, bool bare = false) {
  std::string s = f.label + " ";
  if (f.change_pct()) s += Percent(*f.change_pct()) + " (";
  s += WithUnit(*f.a, f.unit) + " → " + WithUnit(*f.b, f.unit);
  if (f.change_pct()) s += ")";
  const bool up = *f.b > *f.a;
  if (!bare && f.better != Better::kNeither) s += (up == (f.better == Better::kHigher)) ? ", better" : ", worse";
  return s;
}

bool GotWorse(const FigureChange& f) { return f.changed() && f.better != Better::kNeither && (*f.b > *f.a) != (f.better == Better::kHigher); }
bool GotBetter(const FigureChange& f) { return f.changed() && f.better != Better::kNeither && !GotWorse(f); }

// FCT tails are over the flows that finished: where the two finished different numbers, say so.
std::string OverFinished(const Comparison& c, const FigureChange& f, std::string line) {
  if (f.section != "FCT slowdown") return line;
  for (const FigureChange& g : c.figures)
    if (g.section == "Flows" && g.name == "finished" && g.changed())
      return line + " (over the flows that finished: " + WithUnit(*g.a, "") + " in A, " + WithUnit(*g.b, "") + " in B)";
  return line;
}

void Judge(Comparison* c) {
  // The headline figures that moved one way or the other, by weight (what was lost first), and
  // within a weight by relative change (from zero first), ties in table order.
  std::vector<const FigureChange*> moved;
  for (const FigureChange& f : c->figures)
    if (f.headline() && f.changed() && f.better != Better::kNeither) moved.push_back(&f);
  auto score = [](const FigureChange* f) {
    return f->change_pct() ? std::fabs(*f->change_pct()) : std::numeric_limits<double>::infinity();
  };
  std::stable_sort(moved.begin(), moved.end(), [&](const FigureChange* x, const FigureChange* y) {
    if (x->weight != y->weight) return x->weight < y->weight;
    return score(x) > score(y);
  });
  if (moved.empty()) {
    bool any = false;
    for (const FigureChange& f : c->figures) any |= f.changed();
    if (any) c->verdict = "No headline figure changed; the table shows what did";
    else if (!c->settings.empty()) c->verdict = "The settings differ, and no figure the two have in common changed";
    else c->verdict = "No difference: the same settings and the same figures";
    return;
  }
  // The heaviest weight that moved decides: worse, better, or mixed within it.
  const Weight deciding = moved.front()->weight;
  std::vector<const FigureChange*> worse, better;
  for (const FigureChange* f : moved)
    if (f->weight == deciding) (GotWorse(*f) ? worse : better).push_back(f);
  auto list = [c](const std::vector<const FigureChange*>& fs) {
    std::string s;
    for (size_t i = 0; i < fs.size() && i < 2; ++i) s += (i ? "; " : "") + OverFinished(*c, *fs[i], Describe(*fs[i], true));
    return s;
  };
  if (better.empty()) c->verdict = "B is worse: " + list(worse);
  else if (worse.empty()) c->verdict = "B is better: " + list(better);
  else c->verdict = "Mixed: worse " + list(worse) + ", but better " + list(better);
  // The next figures that moved, lighter weights; a mechanism that improved while what was lost
  // or served got worse is said to be no gain.
  const bool lost_ground = !worse.empty() && better.empty();
  for (const FigureChange* f : moved) {
    if (c->also.size() == 2) break;
    if (f->weight == deciding && std::find(worse.begin(), worse.begin() + std::min<size_t>(worse.size(), 2), f) !=
                                     worse.begin() + std::min<size_t>(worse.size(), 2))
      continue;
    if (f->weight == deciding && std::find(better.begin(), better.begin() + std::min<size_t>(better.size(), 2), f) !=
                                     better.begin() + std::min<size_t>(better.size(), 2))
      continue;
    std::string line = OverFinished(*c, *f, Describe(*f));
    if (lost_ground && f->weight == Weight::kMechanism && GotBetter(*f)) line += " only in name: it came with the loss above";
    c->also.push_back(line);
  }
}

}  // namespace

Comparison Compare(const std::string& path_a, const std::string& path_b) {
  const CompareSide a = ReadCompareSide(path_a);
  const CompareSide b = ReadCompareSide(path_b);
  Comparison c;
  c.a = a.input;
  c.b = b.input;
  const std::set<std::string> in_a(a.devices.begin(), a.devices.end()), in_b(b.devices.begin(), b.devices.end());
  std::set<std::string> alone;
  for (const std::string& d : a.devices)
    if (!in_b.count(d)) {
      c.devices_only_in_a.push_back(d);
      alone.insert(d);
    }
  for (const std::string& d : b.devices)
    if (!in_a.count(d)) {
      c.devices_only_in_b.push_back(d);
      alone.insert(d);
    }
  // A run's own settings (scenario, seed, workloads) and a bundle's (its interval) are not the
  // same things: across kinds only devices are compared.
  if (a.input.kind != b.input.kind) alone.insert("");
  c.settings = DifferingSettings(a, b, alone);
  c.figures = MatchFigures(a, b);
  c.notes = a.notes;
  c.notes.insert(c.notes.end(), b.notes.begin(), b.notes.end());
  if (a.input.kind != b.input.kind)
    c.notes.push_back("A is a " + a.input.kind + " and B a " + b.input.kind +
                      ": a run counts the whole simulated fabric over the run, a bundle one host's NIC ports between "
                      "its samples; a figure only one of them has is shown for it alone");
  else if (a.input.kind == "bundle" && a.input.seconds != b.input.seconds)
    c.notes.push_back("A's counters cover " + Fixed(a.input.seconds, 3) + " s and B's " + Fixed(b.input.seconds, 3) +
                      " s: their counts are over different spans");
  if (!a.devices.empty() && !b.devices.empty() && c.devices_only_in_a.size() == a.devices.size())
    c.notes.push_back("no device is in both, so no device's settings are compared");
  Judge(&c);
  return c;
}

std::string CompactDeviceNames(const std::vector<std::string>& names) {
  // Split into stem and number ("leaf12" -> "leaf", 12); a name without a number stands alone.
  auto split = [](const std::string& n, std::string* stem, long* number) {
    size_t i = n.size();
    while (i > 0 && n[i - 1] >= '0' && n[i - 1] <= '9') --i;
    if (i == n.size() || n.size() - i > 9 || (n.size() - i > 1 && n[i] == '0')) return false;
    *stem = n.substr(0, i);
    *number = std::stol(n.substr(i));
    return true;
  };
  std::string out;
  for (size_t i = 0; i < names.size();) {
    std::string stem, s2;
    long first, n;
    size_t j = i + 1;
    if (split(names[i], &stem, &first)) {
      long last = first;
      while (j < names.size() && split(names[j], &s2, &n) && s2 == stem && n == last + 1) {
        last = n;
        ++j;
      }
    }
    if (!out.empty()) out += ", ";
    out += j - i >= 3 ? names[i] + ".." + names[j - 1] : names[i];
    if (j - i == 2) out += ", " + names[i + 1];
    i = j;
  }
  return out;
}

// ---- text ------------------------------------------------------------------------------------

namespace {

// Columns count characters, not bytes: µ, → and × are two or three bytes each.
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
  return n;
}

std::string Pad(const std::string& s, size_t width, bool right = false) {
  const std::string fill(width > Width(s) ? width - Width(s) : 0, ' ');
  return right ? fill + s : s + fill;
}

std::string Cell(const std::optional<double>& v, const std::string& unit, const std::string& detail) {
  if (!v) return "—";
  return WithUnit(*v, unit) + (detail.empty() ? "" : " (" + detail + ")");
}

// A figure's row as every renderer writes it: A, B, the change and the change in %.
struct FigureCells {
  std::string a, b, change, pct;
};
FigureCells CellsOf(const FigureChange& f) {
  FigureCells c{Cell(f.a, f.unit, f.a_detail), Cell(f.b, f.unit, f.b_detail), "", ""};
  if (f.change() && *f.change() == 0) {
    c.change = "0";
  } else if (f.change()) {
    // A change of a share is in percentage points; of a slowdown, a plain number.
    c.change = f.unit == "%" ? Fixed(*f.change(), 1, true) + " pp"
               : f.unit == "×" ? Fixed(*f.change(), 3, true)
                               : WithUnit(*f.change(), f.unit, true);
    c.pct = f.change_pct() ? Percent(*f.change_pct()) : "new";
  }
  return c;
}

// Whether B's value is worse than A's, for a figure that should move one way.
bool Worse(const FigureChange& f) {
  if (!f.changed() || f.better == Better::kNeither) return false;
  return (*f.b > *f.a) != (f.better == Better::kHigher);
}

}  // namespace

std::string CompareText(const Comparison& c) {
  std::string out = c.verdict + "\n";
  for (const std::string& s : c.also) out += "  also: " + s + "\n";
  out += "\nA: " + c.a.path + "  (" + c.a.title + ")\n";
  out += "B: " + c.b.path + "  (" + c.b.title + ")\n";
  for (const std::string& n : c.notes) out += "note: " + n + "\n";

  out += "\nSettings that differ (A → B)";
  if (c.settings.empty() && c.devices_only_in_a.empty() && c.devices_only_in_b.empty()) out += ": none";
  out += "\n";
  // Devices with the same changes share one entry.
  std::vector<std::pair<std::vector<const SettingChange*>, std::vector<std::string>>> groups;
  std::map<std::string, std::vector<const SettingChange*>> by_device;
  std::vector<std::string> device_order;
  for (const SettingChange& s : c.settings) {
    if (!by_device.count(s.device)) device_order.push_back(s.device);
    by_device[s.device].push_back(&s);
  }
  auto same = [](const std::vector<const SettingChange*>& x, const std::vector<const SettingChange*>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i]->key != y[i]->key || x[i]->a != y[i]->a || x[i]->b != y[i]->b) return false;
    return true;
  };
  for (const std::string& d : device_order) {
    bool placed = false;
    for (auto& g : groups)
      if (!placed && same(g.first, by_device[d])) {
        g.second.push_back(d);
        placed = true;
      }
    if (!placed) groups.push_back({by_device[d], {d}});
  }
  auto value = [](const std::optional<std::string>& v) { return v ? *v : std::string("—"); };
  for (const auto& [changes, devices] : groups) {
    const std::string who = devices.size() == 1 && devices[0].empty()
                                ? "(" + c.a.kind + (c.a.kind == c.b.kind ? "" : "/" + c.b.kind) + ")"
                                : CompactDeviceNames(devices);
    if (changes.size() == 1) {
      out += "  " + who + ": " + changes[0]->key + " " + value(changes[0]->a) + " → " + value(changes[0]->b) + "\n";
      continue;
    }
    out += "  " + who + ":\n";
    size_t w = 0;
    for (const SettingChange* s : changes) w = std::max(w, Width(s->key));
    for (const SettingChange* s : changes) out += "    " + Pad(s->key, w) + "  " + value(s->a) + " → " + value(s->b) + "\n";
  }
  if (!c.devices_only_in_a.empty()) out += "  only in A: " + CompactDeviceNames(c.devices_only_in_a) + "\n";
  if (!c.devices_only_in_b.empty()) out += "  only in B: " + CompactDeviceNames(c.devices_only_in_b) + "\n";

  // The figures, one table for all sections so the columns line up.
  struct Line {
    std::string name, a, b, change, pct;
    bool section;
  };
  std::vector<Line> lines;
  std::string section;
  for (const FigureChange& f : c.figures) {
    if (f.section != section) {
      section = f.section;
      lines.push_back({section, "", "", "", "", true});
    }
    const FigureCells cells = CellsOf(f);
    lines.push_back({"  " + f.name, cells.a, cells.b, cells.change, cells.pct, false});
  }
  Line head{"Figures", "A", "B", "change", "", true};
  size_t w[5] = {Width(head.name), Width(head.a), Width(head.b), Width(head.change), 0};
  for (const Line& l : lines) {
    if (l.section) continue;
    w[0] = std::max(w[0], Width(l.name));
    w[1] = std::max(w[1], Width(l.a));
    w[2] = std::max(w[2], Width(l.b));
    w[3] = std::max(w[3], Width(l.change));
    w[4] = std::max(w[4], Width(l.pct));
  }
  auto row = [&](const Line& l) {
    std::string r = Pad(l.name, w[0]) + "  " + Pad(l.a, w[1], true) + "  " + Pad(l.b, w[2], true) + "  " +
                    Pad(l.change, w[3], true) + "  " + Pad(l.pct, w[4], true);
    while (!r.empty() && r.back() == ' ') r.pop_back();
    return r + "\n";
  };
  out += "\n" + row(head);
  for (const Line& l : lines) out += l.section ? l.name + "\n" : row(l);
  return out;
}

// ---- JSON ------------------------------------------------------------------------------------

namespace {

void Number(JsonWriter& w, const std::string& key, const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) {
    w.Null(key);
    return;
  }
  if (*v == std::floor(*v) && std::fabs(*v) < 1e15) {
    w.Int(key, static_cast<int64_t>(*v));
    return;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", *v);
  w.Raw(key, buf);
}

void Input(JsonWriter& w, const char* key, const CompareInput& in) {
  w.BeginObject(key);
  w.String("path", in.path).String("kind", in.kind).String("title", in.title);
  Number(w, "seconds", in.seconds);
  w.EndObject();
}

void Strings(JsonWriter& w, const char* key, const std::vector<std::string>& list) {
  w.BeginArray(key);
  for (const std::string& s : list) w.StringValue(s);
  w.EndArray();
}

const char* BetterName(Better b) {
  switch (b) {
    case Better::kHigher: return "higher";
    case Better::kLower: return "lower";
    case Better::kNeither: return "neither";
  }
  return "neither";
}

}  // namespace

std::string CompareJson(const Comparison& c) {
  JsonWriter w;
  w.BeginObject();
  Input(w, "a", c.a);
  Input(w, "b", c.b);
  w.String("verdict", c.verdict);
  Strings(w, "also", c.also);
  Strings(w, "notes", c.notes);
  w.BeginArray("settings");
  for (const SettingChange& s : c.settings) {
    w.BeginObject();
    w.String("device", s.device).String("key", s.key);
    for (const auto& [key, v] : {std::pair{"a", &s.a}, std::pair{"b", &s.b}}) {
      if (*v) w.String(key, **v);
      else w.Null(key);
    }
    w.EndObject();
  }
  w.EndArray();
  Strings(w, "devices_only_in_a", c.devices_only_in_a);
  Strings(w, "devices_only_in_b", c.devices_only_in_b);
  w.BeginArray("figures");
  for (const FigureChange& f : c.figures) {
    w.BeginObject();
    w.String("section", f.section).String("name", f.name).String("label", f.label).String("unit", f.unit);
    Number(w, "a", f.a);
    Number(w, "b", f.b);
    Number(w, "change", f.change());
    Number(w, "change_pct", f.change_pct());
    if (!f.a_detail.empty()) w.String("a_detail", f.a_detail);
    if (!f.b_detail.empty()) w.String("b_detail", f.b_detail);
    w.String("better", BetterName(f.better)).Bool("headline", f.headline());
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.str() + "\n";
}

HtmlSection CompareHtmlSection(const Comparison& c) {
  std::string body = HtmlParagraph(c.verdict);
  for (const std::string& s : c.also) body += HtmlParagraph("also: " + s, "note");
  HtmlTable sides({"", "what", "path"});
  sides.AddRow({"A", c.a.title, c.a.path});
  sides.AddRow({"B", c.b.title, c.b.path});
  body += sides.Html();
  for (const std::string& n : c.notes) body += HtmlParagraph("note: " + n, "note");
  body += "<h3>Settings that differ (A → B)</h3>\n";
  if (c.settings.empty() && c.devices_only_in_a.empty() && c.devices_only_in_b.empty()) {
    body += HtmlParagraph("none");
  } else {
    HtmlTable settings({"device", "setting", "A", "B"});
    for (const SettingChange& s : c.settings)
      settings.AddRow({s.device.empty() ? "(" + c.a.kind + ")" : s.device, s.key, s.a ? *s.a : "—", s.b ? *s.b : "—"});
    if (!c.devices_only_in_a.empty()) settings.AddRow({CompactDeviceNames(c.devices_only_in_a), "only in A", "", ""});
    if (!c.devices_only_in_b.empty()) settings.AddRow({CompactDeviceNames(c.devices_only_in_b), "only in B", "", ""});
    body += settings.Html();
  }
  body += "<h3>Figures</h3>\n";
  std::string section;
  std::unique_ptr<HtmlTable> table;
  auto flush = [&] {
    if (table) body += "<h4>" + HtmlEscape(section) + "</h4>\n" + table->Html();
  };
  for (const FigureChange& f : c.figures) {
    if (!table || f.section != section) {
      flush();
      section = f.section;
      table = std::make_unique<HtmlTable>(std::vector<std::string>{"figure", "A", "B", "change", "%"});
    }
    const FigureCells cells = CellsOf(f);
    // A row that got worse is styled as an error, one that got better plainly.
    table->AddRow({f.name, cells.a, cells.b, cells.change, cells.pct}, Worse(f) ? "error" : "");
  }
  flush();
  return {"compare", "Compared with " + c.a.path, body};
}

}  // namespace rocelab
