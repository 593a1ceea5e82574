#include "report/html_page.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace rocelab {
namespace {

// One style sheet for every page: system fonts only (nothing to fetch), figures in tabular
// digits, the chart and drawing colours named by class so the SVG stays small.
const char kStyle[] = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1280px;padding:0 24px 48px;color:#1d2430;background:#fff;line-height:1.4}
h1{font-size:1.6em;margin:24px 0 4px}h2{font-size:1.25em;margin:32px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:1.05em;margin:20px 0 6px}
p.sub{color:#57606a;margin:0 0 12px}p.note{color:#57606a;font-size:.9em;margin:4px 0 10px}
nav ul{margin:8px 0;padding-left:20px;columns:2}
table{border-collapse:collapse;margin:6px 0 14px;font-size:.9em;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}
td{overflow-wrap:anywhere}td.n{text-align:right;white-space:nowrap;overflow-wrap:normal}
table.keyed td:first-child{white-space:nowrap;overflow-wrap:normal}
tr.error td:first-child{color:#b42318;font-weight:600}tr.warning td:first-child{color:#b54708;font-weight:600}
.figure{overflow-x:auto;margin:8px 0 16px}.figure svg{max-width:100%;height:auto}
svg text{font-family:system-ui,sans-serif;fill:#1d2430}
svg .axis{stroke:#57606a;stroke-width:1}svg .grid{stroke:#eaeef2;stroke-width:1}
svg .line{fill:none;stroke-width:1.5;stroke-linejoin:round}
svg .span{fill:#d92d20;opacity:.8}svg .fault-span{fill:#f79009;opacity:.55}
svg .mark-detected{fill:#1570ef}svg .mark-action{fill:#7a5af8}svg .mark-recovered{fill:#12b76a}svg .mark-event{fill:#57606a}
svg .marker{stroke-width:1.5;stroke-dasharray:5 3}svg .marker-injected{stroke:#f79009}svg .marker-detected{stroke:#1570ef}
svg .marker-action{stroke:#7a5af8}svg .marker-recovered{stroke:#12b76a}
svg .band{opacity:.15;stroke:none}svg .spread{stroke-width:2}
svg .link{stroke:#98a2b3;stroke-width:1.2}svg .link.paused{stroke:#d92d20;stroke-width:2.5}
svg .switch{fill:#e4ecf7;stroke:#344054}svg .host{fill:#f2f4f7;stroke:#344054}
svg .paused-port{fill:#d92d20}svg .fault{stroke:#f79009;stroke-width:7;fill:none;opacity:.7}
svg .localized{stroke:#1570ef;stroke-width:2;stroke-dasharray:4 3;fill:none}
)";

// Whether a cell holds a figure: a number (maybe signed, with digit-group commas), alone or
// with its unit after a space ("6.2 MB", "38.4 %"). "100KB-1MB" is a name, and "3.1 ms T2:
// ignore ..." a sentence that begins with a figure (it wraps; a figure does not).
bool LooksNumeric(const std::string& s) {
  size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
  for (; i < s.size() && s[i] != ' '; ++i)
    if ((s[i] < '0' || s[i] > '9') && s[i] != ',' && s[i] != '.') return false;
  if (i == s.size()) return true;
  const std::string unit = s.substr(i + 1);
  return !unit.empty() && unit.size() <= 12 && unit.find(' ') == std::string::npos;
}

}  // namespace

std::string HtmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string HtmlDocument(const std::string& title, const std::string& subtitle,
                         const std::vector<HtmlSection>& sections) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      // Nothing but the inline style may load or run, whatever a name in the page says.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
      HtmlEscape(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<h1>" + HtmlEscape(title) +
      "</h1>\n";
  if (!subtitle.empty()) out += "<p class=\"sub\">" + HtmlEscape(subtitle) + "</p>\n";
  out += "<nav><ul>\n";
  for (const HtmlSection& s : sections)
    out += "<li><a href=\"#" + HtmlEscape(s.id) + "\">" + HtmlEscape(s.title) + "</a></li>\n";
  out += "</ul></nav>\n";
  for (const HtmlSection& s : sections)
    out += "<section id=\"" + HtmlEscape(s.id) + "\">\n<h2>" + HtmlEscape(s.title) + "</h2>\n" + s.body + "</section>\n";
  out += "</body>\n</html>\n";
  return out;
}

HtmlTable::HtmlTable(std::vector<std::string> header, std::string css_class)
    : header_(std::move(header)), css_class_(std::move(css_class)) {}

void HtmlTable::AddRow(std::vector<std::string> cells, std::string row_class) {
  rows_.push_back({std::move(cells), std::move(row_class)});
}

std::string HtmlTable::Html() const {
  std::string out = css_class_.empty() ? "<table>\n" : "<table class=\"" + HtmlEscape(css_class_) + "\">\n";
  if (!header_.empty()) {
    out += "<tr>";
    for (const std::string& h : header_) out += "<th>" + HtmlEscape(h) + "</th>";
    out += "</tr>\n";
  }
  for (const Row& row : rows_) {
    out += row.css_class.empty() ? "<tr>" : "<tr class=\"" + HtmlEscape(row.css_class) + "\">";
    for (const std::string& c : row.cells) out += (LooksNumeric(c) ? "<td class=\"n\">" : "<td>") + HtmlEscape(c) + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string HtmlParagraph(const std::string& text, const std::string& css_class) {
  return (css_class.empty() ? "<p>" : "<p class=\"" + HtmlEscape(css_class) + "\">") + HtmlEscape(text) + "</p>\n";
}

std::string FormatFixed(double value, int decimals) {
  if (!std::isfinite(value)) return std::isnan(value) ? "NaN" : value > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  // No "-0.0": a value that rounds to zero is zero.
  if (buf[0] == '-' && std::strtod(buf, nullptr) == 0) return buf + 1;
  return buf;
}

std::string FormatCount(double value) {
  if (!std::isfinite(value) || std::fabs(value) >= 1e18) return FormatFixed(value, 0);
  const long long v = std::llround(value);
  std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string FormatCountOf(double value, const std::string& one) {
  return FormatCount(value) + " " + one + (value == 1 ? "" : "s");
}

std::string FormatTimeNs(double ns, bool trim) {
  const double a = std::fabs(ns);
  std::string number, unit;
  if (a < 1e3) number = FormatFixed(ns, a == std::floor(a) ? 0 : 1), unit = " ns";
  else if (a < 1e6) number = FormatFixed(ns / 1e3, 3), unit = " µs";
  else if (a < 1e9) number = FormatFixed(ns / 1e6, 3), unit = " ms";
  else number = FormatFixed(ns / 1e9, 3), unit = " s";
  if (trim && number.find('.') != std::string::npos) {
    while (number.back() == '0') number.pop_back();
    if (number.back() == '.') number.pop_back();
  }
  return number + unit;
}

std::string FormatShare(double share) { return FormatFixed(share * 100, 1) + " %"; }

}  // namespace rocelab
