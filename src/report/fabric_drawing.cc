#include "report/fabric_drawing.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_map>

#include "report/html_page.h"

namespace rocelab {
namespace {

constexpr double kMargin = 24, kTierGap = 96, kMaxSpacing = 90, kMinSpacing = 12, kTargetWidth = 1200;
constexpr double kLabelSpacing = 44;  // narrower than this, names are tooltips only

std::string Num(double v) { return FormatFixed(v, 1); }

struct Place {
  int tier = -1;
  double x = 0, y = 0;
};

// A place named as the scenario or the monitor names it, resolved on the drawing.
struct Mark {
  int device = -1;  // a device, or the device of a port
  int link = -1;    // a link, or the link of a port
  bool port = false;
};

class Drawing {
 public:
  explicit Drawing(const FabricDrawing& f) : f_(f) {
    for (size_t i = 0; i < f.devices.size(); ++i) by_name_.emplace(f.devices[i].name, static_cast<int>(i));
    adj_.resize(f.devices.size());
    for (size_t l = 0; l < f.links.size(); ++l) {
      const int a = Find(f.links[l].a.device), b = Find(f.links[l].b.device);
      if (a < 0 || b < 0) continue;
      adj_[a].push_back(b);
      adj_[b].push_back(a);
    }
    Layout();
  }

  std::string Svg() const {
    std::string svg = "<svg class=\"topology\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(width_) +
                      "\" height=\"" + Num(height_) + "\" viewBox=\"0 0 " + Num(width_) + " " + Num(height_) +
                      "\" role=\"img\" aria-label=\"the fabric and its congestion tree\">\n";
    // Fault places under everything, so they read as a halo.
    for (const std::string& t : f_.fault_targets) svg += Highlight(t, "fault");
    for (size_t l = 0; l < f_.links.size(); ++l) svg += LinkSvg(f_.links[l]);
    for (size_t i = 0; i < f_.devices.size(); ++i) svg += DeviceSvg(static_cast<int>(i));
    for (const std::string& t : f_.localized) svg += Highlight(t, "localized");
    svg += "</svg>\n";
    return svg;
  }

 private:
  int Find(const std::string& name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? -1 : it->second;
  }

  void Layout() {
    const size_t n = f_.devices.size();
    place_.assign(n, Place{});
    // Tiers: hosts 0, every switch its distance from the nearest host.
    std::deque<int> q;
    for (size_t i = 0; i < n; ++i)
      if (!f_.devices[i].is_switch) place_[i].tier = 0, q.push_back(static_cast<int>(i));
    while (!q.empty()) {
      const int d = q.front();
      q.pop_front();
      for (int e : adj_[d])
        if (place_[e].tier < 0) place_[e].tier = place_[d].tier + 1, q.push_back(e);
    }
    int top = 0;
    for (const Place& p : place_) top = std::max(top, p.tier);
    for (Place& p : place_)
      if (p.tier < 0) p.tier = top + 1;  // a switch no host reaches: above the rest
    for (const Place& p : place_) top = std::max(top, p.tier);
    tiers_.assign(static_cast<size_t>(top) + 1, {});
    for (size_t i = 0; i < n; ++i) tiers_[place_[i].tier].push_back(static_cast<int>(i));
    // Hosts under the first switch they hang from, in that switch's order.
    if (tiers_.size() > 1) {
      std::vector<size_t> rank(n, SIZE_MAX);
      for (size_t k = 0; k < tiers_[1].size(); ++k) rank[tiers_[1][k]] = k;
      auto under = [&](int h) {
        size_t r = SIZE_MAX;
        for (int e : adj_[h]) r = std::min(r, rank[e]);
        return r;
      };
      std::stable_sort(tiers_[0].begin(), tiers_[0].end(), [&](int a, int b) { return under(a) < under(b); });
    }
    // The widest tier sets the width; every tier spreads over it (a core of 16 above 128 hosts
    // still spans the fabric), no closer than kMinSpacing and no farther than kMaxSpacing apart.
    size_t widest = 1;
    for (const auto& t : tiers_) widest = std::max(widest, t.size());
    const double span = std::clamp(kTargetWidth / static_cast<double>(widest), kMinSpacing, kMaxSpacing) *
                        static_cast<double>(widest);
    width_ = 2 * kMargin + span;
    height_ = 2 * kMargin + kTierGap * static_cast<double>(tiers_.size() - 1) + 20;
    spacing_.assign(tiers_.size(), kMaxSpacing);
    for (size_t t = 0; t < tiers_.size(); ++t) {
      const double n = static_cast<double>(std::max<size_t>(tiers_[t].size(), 1));
      spacing_[t] = std::min(kMaxSpacing, span / n);
      const double row = spacing_[t] * n;
      for (size_t k = 0; k < tiers_[t].size(); ++k) {
        Place& p = place_[tiers_[t][k]];
        p.x = (width_ - row) / 2 + spacing_[t] * (static_cast<double>(k) + 0.5);
        p.y = kMargin + 10 + kTierGap * static_cast<double>(tiers_.size() - 1 - t);
      }
    }
  }

  double Spacing(int d) const { return spacing_[place_[d].tier]; }
  double Radius(int d) const {
    return f_.devices[d].is_switch ? std::min(Spacing(d) / 2 - 2, 30.0) : std::min(Spacing(d) / 2 - 1, 8.0);
  }

  // A point `off` along the line from device a toward b.
  void Along(int a, int b, double off, double* x, double* y) const {
    const double dx = place_[b].x - place_[a].x, dy = place_[b].y - place_[a].y;
    const double len = std::max(1e-9, std::hypot(dx, dy));
    *x = place_[a].x + dx / len * off;
    *y = place_[a].y + dy / len * off;
  }

  std::string PauseArrow(const DrawnLinkEnd& from, const DrawnLinkEnd& to, int a, int b) const {
    const double dx = place_[b].x - place_[a].x, dy = place_[b].y - place_[a].y;
    const double len = std::max(1e-9, std::hypot(dx, dy));
    const double ux = dx / len, uy = dy / len;
    const double tipx = place_[a].x + dx * 0.62, tipy = place_[a].y + dy * 0.62;
    const double s = 7;
    const std::string what = from.device + ":" + from.port + " sent " + FormatCount(static_cast<double>(from.pause_sent)) +
                             " PAUSE frames (priority " + from.pause_priorities + ") to " + to.device + ":" + to.port +
                             ", whose transmitter was held paused " + FormatTimeNs(to.paused_ns);
    std::string out = "<path class=\"pause-arrow\" data-from=\"" + HtmlEscape(from.device) + "\" data-to=\"" +
                      HtmlEscape(to.device) + "\" fill=\"#d92d20\" d=\"M" + Num(tipx) + " " + Num(tipy) + "L" +
                      Num(tipx - ux * s * 1.6 - uy * s) + " " + Num(tipy - uy * s * 1.6 + ux * s) + "L" +
                      Num(tipx - ux * s * 1.6 + uy * s) + " " + Num(tipy - uy * s * 1.6 - ux * s) + "Z\"><title>" +
                      HtmlEscape(what) + "</title></path>\n";
    // The stopped port: a dot at the paused device's end.
    double px, py;
    Along(b, a, Radius(b) + 5, &px, &py);
    out += "<circle class=\"paused-port\" data-port=\"" + HtmlEscape(to.device + ":" + to.port) + "\" cx=\"" + Num(px) +
           "\" cy=\"" + Num(py) + "\" r=\"3.5\"><title>" + HtmlEscape(to.device + ":" + to.port) + " held paused " +
           HtmlEscape(FormatTimeNs(to.paused_ns)) + "</title></circle>\n";
    return out;
  }

  std::string LinkSvg(const DrawnLink& l) const {
    const int a = Find(l.a.device), b = Find(l.b.device);
    if (a < 0 || b < 0) return "";
    const bool paused = l.a.pause_sent || l.b.pause_sent;
    std::string out = "<line class=\"link" + std::string(paused ? " paused" : "") + "\" data-link=\"" +
                      HtmlEscape(l.a.device + "-" + l.b.device) + "\" x1=\"" + Num(place_[a].x) + "\" y1=\"" +
                      Num(place_[a].y) + "\" x2=\"" + Num(place_[b].x) + "\" y2=\"" + Num(place_[b].y) + "\"><title>" +
                      HtmlEscape(l.a.device + ":" + l.a.port + " - " + l.b.device + ":" + l.b.port) + "</title></line>\n";
    if (l.a.pause_sent) out += PauseArrow(l.a, l.b, a, b);
    if (l.b.pause_sent) out += PauseArrow(l.b, l.a, b, a);
    return out;
  }

  std::string DeviceSvg(int d) const {
    const DrawnDevice& dev = f_.devices[d];
    const Place& p = place_[d];
    const double r = Radius(d);
    std::string out = "<g class=\"device\" data-device=\"" + HtmlEscape(dev.name) + "\"><title>" + HtmlEscape(dev.name) +
                      "</title>";
    if (dev.is_switch)
      out += "<rect class=\"switch\" x=\"" + Num(p.x - r) + "\" y=\"" + Num(p.y - 11) + "\" width=\"" + Num(2 * r) +
             "\" height=\"22\" rx=\"4\"/>";
    else
      out += "<circle class=\"host\" cx=\"" + Num(p.x) + "\" cy=\"" + Num(p.y) + "\" r=\"" + Num(r) + "\"/>";
    if (Spacing(d) >= kLabelSpacing)
      out += "<text x=\"" + Num(p.x) + "\" y=\"" + Num(dev.is_switch ? p.y + 4 : p.y + r + 12) +
             "\" font-size=\"11\" text-anchor=\"middle\">" + HtmlEscape(dev.name) + "</text>";
    return out + "</g>\n";
  }

  Mark Resolve(const std::string& place) const {
    // "h0 (mlx5_0/eth0)", "leaf0:Ethernet0 facing h0": the place is the first word.
    const std::string name = place.substr(0, place.find(' '));
    Mark m;
    const size_t colon = name.find(':');
    if (colon != std::string::npos) {
      m.device = Find(name.substr(0, colon));
      std::string port = name.substr(colon + 1);
      port = port.substr(0, port.find(':'));  // leaf0:Ethernet0:3: the queue is not drawn
      for (size_t l = 0; l < f_.links.size() && m.device >= 0; ++l) {
        const DrawnLink& k = f_.links[l];
        const DrawnLinkEnd* mine = k.a.device == name.substr(0, colon) ? &k.a : k.b.device == name.substr(0, colon) ? &k.b : nullptr;
        if (!mine) continue;
        const DrawnLinkEnd& other = mine == &k.a ? k.b : k.a;
        if (mine->port == port || other.device == port) {
          m.link = static_cast<int>(l);
          m.port = true;
        }
      }
      return m;
    }
    const size_t dash = name.find('-');
    if (dash != std::string::npos) {
      const std::string a = name.substr(0, dash), b = name.substr(dash + 1);
      for (size_t l = 0; l < f_.links.size(); ++l) {
        const DrawnLink& k = f_.links[l];
        if ((k.a.device == a && k.b.device == b) || (k.a.device == b && k.b.device == a)) m.link = static_cast<int>(l);
      }
      return m;
    }
    m.device = Find(name);
    return m;
  }

  std::string Highlight(const std::string& place, const char* css) const {
    const Mark m = Resolve(place);
    const std::string attrs = std::string(" class=\"") + css + "\" data-place=\"" + HtmlEscape(place) + "\"";
    const std::string title = "<title>" + HtmlEscape(std::string(css) == "fault" ? "fault: " : "localized: ") +
                              HtmlEscape(place) + "</title>";
    if (m.port && m.link >= 0) {
      const DrawnLink& k = f_.links[m.link];
      const int d = m.device, other = Find(k.a.device) == d ? Find(k.b.device) : Find(k.a.device);
      double x, y;
      Along(d, other, Radius(d) + 6, &x, &y);
      return "<circle" + attrs + " cx=\"" + Num(x) + "\" cy=\"" + Num(y) + "\" r=\"7\">" + title + "</circle>\n";
    }
    if (m.link >= 0) {
      const int a = Find(f_.links[m.link].a.device), b = Find(f_.links[m.link].b.device);
      return "<line" + attrs + " x1=\"" + Num(place_[a].x) + "\" y1=\"" + Num(place_[a].y) + "\" x2=\"" +
             Num(place_[b].x) + "\" y2=\"" + Num(place_[b].y) + "\">" + title + "</line>\n";
    }
    if (m.device >= 0) {
      const Place& p = place_[m.device];
      return "<circle" + attrs + " cx=\"" + Num(p.x) + "\" cy=\"" + Num(p.y) + "\" r=\"" + Num(Radius(m.device) + 6) +
             "\">" + title + "</circle>\n";
    }
    return "";
  }

  const FabricDrawing& f_;
  std::unordered_map<std::string, int> by_name_;
  std::vector<std::vector<int>> adj_;
  std::vector<Place> place_;
  std::vector<std::vector<int>> tiers_;
  std::vector<double> spacing_;  // per tier
  double width_ = 0, height_ = 0;
};

std::string Legend() {
  return "<p class=\"note\">Hosts (circles) at the bottom, switches (boxes) in tiers above them. "
         "<span style=\"color:#d92d20\">Red</span> links carried PFC PAUSE frames; the arrow points the way the frames "
         "travelled, and the red dot marks the port they held paused. "
         "<span style=\"color:#f79009\">Orange</span>: where a fault was put; "
         "<span style=\"color:#1570ef\">dashed blue</span>: where the monitor placed it. "
         "Hover a device, link or arrow for its names and figures.</p>\n";
}

}  // namespace

std::string SvgFabric(const FabricDrawing& fabric) {
  if (fabric.devices.size() > kMaxDrawnDevices)
    return HtmlParagraph("The fabric has " + FormatCount(static_cast<double>(fabric.devices.size())) +
                         " devices, more than the " + FormatCount(kMaxDrawnDevices) +
                         " drawn: the congestion tree is in the tables below.", "note");
  if (fabric.devices.empty()) return "";
  return "<div class=\"figure\">\n" + Drawing(fabric).Svg() + "</div>\n" + Legend();
}

}  // namespace rocelab
