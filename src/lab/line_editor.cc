#include "lab/line_editor.h"

#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>

namespace rocelab {
namespace {

// Raw mode for as long as it lives: bytes as typed, no echo, no signals from Ctrl-C.
class RawMode {
 public:
  explicit RawMode(int fd) : fd_(fd) {
    if (tcgetattr(fd_, &saved_) != 0) return;
    termios raw = saved_;
    raw.c_iflag &= ~static_cast<tcflag_t>(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    raw.c_lflag &= ~static_cast<tcflag_t>(ECHO | ICANON | IEXTEN | ISIG);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    ok_ = tcsetattr(fd_, TCSAFLUSH, &raw) == 0;
  }
  ~RawMode() {
    if (ok_) tcsetattr(fd_, TCSAFLUSH, &saved_);
  }
  RawMode(const RawMode&) = delete;
  RawMode& operator=(const RawMode&) = delete;

 private:
  int fd_;
  termios saved_{};
  bool ok_ = false;
};

constexpr int kCtrlA = 1, kCtrlC = 3, kCtrlD = 4, kCtrlE = 5, kTab = 9, kCtrlK = 11, kCtrlL = 12, kEnter = 13,
              kNewline = 10, kCtrlU = 21, kCtrlW = 23, kEsc = 27, kBackspace = 127, kCtrlH = 8;

}  // namespace

std::string LineEditor::CommonPrefix(const std::vector<std::string>& words) {
  if (words.empty()) return "";
  std::string p = words[0];
  for (const std::string& w : words) {
    size_t i = 0;
    while (i < p.size() && i < w.size() && p[i] == w[i]) ++i;
    p.resize(i);
  }
  return p;
}

void LineEditor::Write(const std::string& s) const {
  for (size_t done = 0; done < s.size();) {
    const ssize_t n = ::write(out_, s.data() + done, s.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

int LineEditor::ReadByte() const {
  unsigned char c;
  return ::read(in_, &c, 1) == 1 ? c : -1;
}

int LineEditor::NextKey(std::string* prompt, const std::string& line, size_t cursor) const {
  if (!idle_) return ReadByte();
  for (;;) {
    pollfd p{in_, POLLIN, 0};
    const int ready = ::poll(&p, 1, idle_period_ms_);
    if (ready != 0) return ReadByte();
    const std::string next = idle_();
    if (!next.empty() && next != *prompt) {
      *prompt = next;
      Redraw(*prompt, line, cursor);
    }
  }
}

void LineEditor::Redraw(const std::string& prompt, const std::string& line, size_t cursor) const {
  std::string s = "\r" + prompt + line + "\x1b[K";
  if (cursor < line.size()) s += "\x1b[" + std::to_string(line.size() - cursor) + "D";
  Write(s);
}

bool LineEditor::ReadLine(const std::string& first_prompt, std::string* line) {
  RawMode raw(in_);
  std::string prompt = first_prompt;
  std::string l;
  size_t cursor = 0;
  size_t recalled = history_.size();  // the history entry shown (size: the line being typed)
  std::string typed;                  // the line being typed, kept while the history is browsed
  bool tabbed = false;                // the last key was a Tab that left the line as it was
  Write(prompt);
  for (;;) {
    const int c = NextKey(&prompt, l, cursor);
    if (c < 0) {
      Write("\r\n");
      return false;
    }
    const bool tab = c == kTab;
    if (c == kEnter || c == kNewline) {
      Write("\r\n");
      if (!l.empty() && (history_.empty() || history_.back() != l)) history_.push_back(l);
      *line = l;
      return true;
    } else if (c == kCtrlC) {
      Write("^C\r\n");
      l.clear();
      cursor = 0;
      recalled = history_.size();
      Write(prompt);
      continue;
    } else if (c == kCtrlD) {
      if (l.empty()) {
        Write("\r\n");
        return false;
      }
      if (cursor < l.size()) l.erase(cursor, 1);
    } else if (c == kBackspace || c == kCtrlH) {
      if (cursor > 0) l.erase(--cursor, 1);
    } else if (c == kCtrlA) {
      cursor = 0;
    } else if (c == kCtrlE) {
      cursor = l.size();
    } else if (c == kCtrlU) {
      l.erase(0, cursor);
      cursor = 0;
    } else if (c == kCtrlK) {
      l.erase(cursor);
    } else if (c == kCtrlW) {
      size_t from = cursor;
      while (from > 0 && l[from - 1] == ' ') --from;
      while (from > 0 && l[from - 1] != ' ') --from;
      l.erase(from, cursor - from);
      cursor = from;
    } else if (c == kCtrlL) {
      Write("\x1b[H\x1b[2J");
    } else if (c == kEsc) {
      const int a = ReadByte();
      const int b = a == '[' || a == 'O' ? ReadByte() : -1;
      if (b >= '0' && b <= '9') {  // ESC [ 3 ~ (Delete), 1~/7~ Home, 4~/8~ End
        if (ReadByte() == '~') {
          if (b == '3' && cursor < l.size()) l.erase(cursor, 1);
          if (b == '1' || b == '7') cursor = 0;
          if (b == '4' || b == '8') cursor = l.size();
        }
      } else if (b == 'D' && cursor > 0) {
        --cursor;
      } else if (b == 'C' && cursor < l.size()) {
        ++cursor;
      } else if (b == 'H') {
        cursor = 0;
      } else if (b == 'F') {
        cursor = l.size();
      } else if ((b == 'A' && recalled > 0) || (b == 'B' && recalled < history_.size())) {
        if (recalled == history_.size()) typed = l;
        recalled += b == 'A' ? -1 : 1;
        l = recalled == history_.size() ? typed : history_[recalled];
        cursor = l.size();
      }
    } else if (tab) {
      // Complete the word that ends at the cursor.
      const std::string before = l.substr(0, cursor);
      const size_t start = before.find_last_of(' ') == std::string::npos ? 0 : before.find_last_of(' ') + 1;
      const std::vector<std::string> options = complete_(before);
      if (options.size() == 1) {
        l.replace(start, cursor - start, options[0] + " ");
        cursor = start + options[0].size() + 1;
      } else if (!options.empty()) {
        const std::string common = CommonPrefix(options);
        if (common.size() > cursor - start) {
          l.replace(start, cursor - start, common);
          cursor = start + common.size();
        } else if (tabbed) {
          std::string list = "\r\n";
          for (const std::string& o : options) list += o + "  ";
          Write(list + "\r\n");
        }
      }
    } else if (c >= 32 && c < 127) {
      l.insert(cursor++, 1, static_cast<char>(c));
    }
    tabbed = tab;
    Redraw(prompt, l, cursor);
  }
}

}  // namespace rocelab
