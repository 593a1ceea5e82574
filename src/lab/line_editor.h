// Reading a lab's commands from a terminal as a shell would: the line edited
// in place (arrows, Home/End, Backspace/Delete, Ctrl-A/E/U/K/W), the history
// (Up/Down), completion of the word under the cursor (Tab: the one match, or
// the longest common prefix, and the candidates listed on a second Tab),
// Ctrl-C to abandon a line, Ctrl-D on an empty line to leave. The terminal is
// put in raw mode only while a line is read, and always put back.
#ifndef ROCELAB_LAB_LINE_EDITOR_H_
#define ROCELAB_LAB_LINE_EDITOR_H_

#include <functional>
#include <string>
#include <vector>

namespace rocelab {

class LineEditor {
 public:
  // `complete(line)`: the words that can end `line` (its last word's completions).
  using Completer = std::function<std::vector<std::string>(const std::string& line)>;
  LineEditor(int in_fd, int out_fd, Completer complete) : in_(in_fd), out_(out_fd), complete_(std::move(complete)) {}

  // Shows `prompt` and reads one line into `*line`; false at the end of the input.
  bool ReadLine(const std::string& prompt, std::string* line);
  // While no key comes, calls `idle()` every `period_ms`; a prompt it returns (not "") replaces
  // the one shown, the line being typed kept: a fabric that runs on while a person types.
  void SetIdle(std::function<std::string()> idle, int period_ms) {
    idle_ = std::move(idle);
    idle_period_ms_ = period_ms;
  }
  const std::vector<std::string>& history() const { return history_; }

  // The longest prefix every candidate shares.
  static std::string CommonPrefix(const std::vector<std::string>& words);

 private:
  void Write(const std::string& s) const;
  void Redraw(const std::string& prompt, const std::string& line, size_t cursor) const;
  int ReadByte() const;  // -1 at the end of the input
  // The next key; while none comes, the idle call, redrawing `*prompt` when it changes.
  int NextKey(std::string* prompt, const std::string& line, size_t cursor) const;

  int in_, out_;
  Completer complete_;
  std::vector<std::string> history_;
  std::function<std::string()> idle_;
  int idle_period_ms_ = 0;
};

}  // namespace rocelab

#endif  // ROCELAB_LAB_LINE_EDITOR_H_
