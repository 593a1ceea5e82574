// Splitting a text the way every line-oriented reader here needs it: numbered
// lines (from 1, for error messages) without a trailing carriage return, and a
// line's whitespace-separated words.
#ifndef ROCELAB_UTIL_TEXT_LINES_H_
#define ROCELAB_UTIL_TEXT_LINES_H_

#include <sstream>
#include <string>
#include <vector>

namespace rocelab {

struct TextLine {
  int number;
  std::string text;
};

inline std::vector<TextLine> NumberedLines(const std::string& text) {
  std::vector<TextLine> out;
  std::istringstream in(text);
  std::string s;
  int n = 0;
  while (std::getline(in, s)) {
    ++n;
    if (!s.empty() && s.back() == '\r') s.pop_back();
    out.push_back({n, s});
  }
  return out;
}

inline std::vector<std::string> Words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  std::string x;
  while (in >> x) w.push_back(x);
  return w;
}

}  // namespace rocelab

#endif  // ROCELAB_UTIL_TEXT_LINES_H_
