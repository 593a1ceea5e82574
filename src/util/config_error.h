// A bad input: names the file, the line, the column where known, and the key,
// so the message points at the spot to fix ("fabric.yaml:12:3: key
// 'switch.buffer': ..."). Every reader of user files (scenarios, the ns-3
// inputs, flow-size CDFs) throws it.
#ifndef ROCELAB_UTIL_CONFIG_ERROR_H_
#define ROCELAB_UTIL_CONFIG_ERROR_H_

#include <stdexcept>
#include <string>
#include <utility>

namespace rocelab {

class ConfigError : public std::runtime_error {
 public:
  // `line` 0: the file as a whole; `column` 0: not known (a line-oriented
  // file); `key` "": no key (a syntax error, say).
  ConfigError(std::string file, int line, int column, std::string key, const std::string& message)
      : std::runtime_error(Format(file, line, column, key, message)),
        file_(std::move(file)), line_(line), column_(line > 0 ? column : 0), key_(std::move(key)), message_(message) {}
  ConfigError(std::string file, int line, std::string key, const std::string& message)
      : ConfigError(std::move(file), line, 0, std::move(key), message) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& key() const { return key_; }
  // What is wrong, without the place (what() has both).
  const std::string& message() const { return message_; }

 private:
  static std::string Format(const std::string& f, int l, int c, const std::string& k, const std::string& m) {
    std::string s = f;
    if (l > 0) s += ":" + std::to_string(l);
    if (l > 0 && c > 0) s += ":" + std::to_string(c);
    s += ": ";
    if (!k.empty()) s += "key '" + k + "': ";
    return s + m;
  }
  std::string file_;
  int line_;
  int column_;
  std::string key_;
  std::string message_;
};

}  // namespace rocelab

#endif  // ROCELAB_UTIL_CONFIG_ERROR_H_
