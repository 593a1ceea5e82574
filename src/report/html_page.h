// The pieces every rocelab HTML page is made of: escaped text, tables,
// sections and the self-contained document around them.
//
// A page is one file: inline CSS, inline SVG, no script, no font or image
// fetched from anywhere, and a Content-Security-Policy that forbids both, so
// it opens the same from a laptop's disk, a mail attachment or an air-gapped
// lab. Every string that came from an input (a scenario's name, a device, a
// finding's text) goes through HtmlEscape on its way in: a section's body is
// HTML already, everything else is text.
//
// The run report (html_report.h) and any other page (a comparison of runs)
// are lists of HtmlSection handed to HtmlDocument.
#ifndef ROCELAB_REPORT_HTML_PAGE_H_
#define ROCELAB_REPORT_HTML_PAGE_H_

#include <string>
#include <vector>

namespace rocelab {

// `text` safe in element content and in a quoted attribute value: & < > " ' as entities.
std::string HtmlEscape(const std::string& text);

// One part of a page, with its own heading and an entry in the page's contents.
struct HtmlSection {
  std::string id;     // the anchor: letters, digits and '-' ("faults")
  std::string title;  // text
  std::string body;   // HTML
};

// The whole document: <title> and <h1> `title`, `subtitle` (text) under it, the contents, then
// the sections in order.
std::string HtmlDocument(const std::string& title, const std::string& subtitle,
                         const std::vector<HtmlSection>& sections);

// A table of text cells (no header row when `header` is empty). A cell that reads as a number is right-aligned, so columns of
// figures line up.
class HtmlTable {
 public:
  explicit HtmlTable(std::vector<std::string> header, std::string css_class = "");
  // `row_class` styles the row ("error", "warning": its first cell in that colour).
  void AddRow(std::vector<std::string> cells, std::string row_class = "");
  size_t rows() const { return rows_.size(); }
  std::string Html() const;

 private:
  std::vector<std::string> header_;
  std::string css_class_;
  struct Row {
    std::vector<std::string> cells;
    std::string css_class;
  };
  std::vector<Row> rows_;
};

// A paragraph of text; `css_class` "note" for the smaller print.
std::string HtmlParagraph(const std::string& text, const std::string& css_class = "");

// How a page writes numbers. All deterministic: the same value, the same text. Sizes are
// written by FormatBytes (run/memory_estimate.h): "3.4 MB", powers of 1024 as in scenarios.
std::string FormatFixed(double value, int decimals);  // 1234.5 -> "1234.50" with 2
std::string FormatCount(double value);                // 1234567 -> "1,234,567" (rounded)
std::string FormatCountOf(double value, const std::string& one);  // (3, "port") -> "3 ports"
// A simulated time given in ns in the unit that suits it, to the µs, ns or ps: "812 ns",
// "3.100 ms", "1.200 s"; `trim`: without the zeros after the point ("3.1 ms", "10 µs").
std::string FormatTimeNs(double ns, bool trim = false);
// A share as a percentage: 0.4321 -> "43.2 %".
std::string FormatShare(double share);

}  // namespace rocelab

#endif  // ROCELAB_REPORT_HTML_PAGE_H_
