#include "util/units.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace rocelab {

namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// Splits "12.5us" into 12.5 and "us". The number must be a plain decimal. Blanks around the
// value and between number and unit are allowed everywhere: "1 us", "100 G", " 32MB ".
bool SplitNumber(const std::string& quantity, double* value, std::string* unit, std::string* error) {
  size_t first = 0, last = quantity.size();
  while (first < last && IsBlank(quantity[first])) ++first;
  while (last > first && IsBlank(quantity[last - 1])) --last;
  const std::string text = quantity.substr(first, last - first);
  size_t i = 0;
  const size_t n = text.size();
  bool digits = false;
  while (i < n && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' ||
                   (i == 0 && (text[i] == '+' || text[i] == '-')))) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) digits = true;
    ++i;
  }
  // exponent, e.g. 1e-6
  if (digits && i < n && (text[i] == 'e' || text[i] == 'E') && i + 1 < n &&
      (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-' || text[i + 1] == '+')) {
    size_t j = i + 1;
    if (text[j] == '-' || text[j] == '+') ++j;
    if (j < n && std::isdigit(static_cast<unsigned char>(text[j]))) {
      while (j < n && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      i = j;
    }
  }
  if (!digits) {
    *error = "'" + quantity + "' is not a number";
    return false;
  }
  std::string num = text.substr(0, i);
  char* end = nullptr;
  double v = std::strtod(num.c_str(), &end);
  if (end == nullptr || *end != '\0' || !std::isfinite(v)) {
    *error = "'" + quantity + "' is not a number";
    return false;
  }
  *value = v;
  size_t u = i;
  while (u < n && IsBlank(text[u])) ++u;
  *unit = text.substr(u);
  return true;
}

}  // namespace

bool ParseNumber(const std::string& text, double* value, std::string* error) {
  std::string unit;
  if (!SplitNumber(text, value, &unit, error)) return false;
  if (!unit.empty()) {
    *error = "'" + text + "' should be a plain number";
    return false;
  }
  return true;
}

bool ParseInteger(const std::string& text, int64_t* value, std::string* error) {
  double v;
  if (!ParseNumber(text, &v, error)) return false;
  if (v != std::floor(v) || std::fabs(v) > 9.0e15) {
    *error = "'" + text + "' should be a whole number";
    return false;
  }
  *value = static_cast<int64_t>(v);
  return true;
}

bool ParseBool(const std::string& text, bool* value, std::string* error) {
  if (text == "true" || text == "on" || text == "yes") {
    *value = true;
    return true;
  }
  if (text == "false" || text == "off" || text == "no") {
    *value = false;
    return true;
  }
  *error = "'" + text + "' should be true or false";
  return false;
}

bool ParseSize(const std::string& text, uint64_t* bytes, std::string* error) {
  double v;
  std::string unit;
  if (!SplitNumber(text, &v, &unit, error)) return false;
  double mult;
  if (unit == "B") mult = 1;
  else if (unit == "KB" || unit == "KiB") mult = 1024.0;
  else if (unit == "MB" || unit == "MiB") mult = 1024.0 * 1024;
  else if (unit == "GB" || unit == "GiB") mult = 1024.0 * 1024 * 1024;
  else {
    *error = unit.empty() ? "'" + text + "' has no unit (use B, KB, MB or GB)"
                          : "'" + text + "' has an unknown size unit '" + unit + "' (use B, KB, MB or GB)";
    return false;
  }
  // 2^50 bytes: a bound that is whole in the units above, to print as the user writes it.
  double b = v * mult;
  if (b < 0 || b > 1024.0 * 1024 * 1024 * 1024 * 1024) {
    *error = "'" + text + "' is out of range (0B to 1048576GB)";
    return false;
  }
  if (b != std::floor(b)) {
    *error = "'" + text + "' is not a whole number of bytes";
    return false;
  }
  *bytes = static_cast<uint64_t>(b);
  return true;
}

bool ParseRate(const std::string& text, uint64_t* bps, std::string* error) {
  double v;
  std::string unit;
  if (!SplitNumber(text, &v, &unit, error)) return false;
  double mult;
  if (unit == "bps") mult = 1;
  else if (unit == "K" || unit == "Kbps") mult = 1e3;
  else if (unit == "M" || unit == "Mbps") mult = 1e6;
  else if (unit == "G" || unit == "Gbps") mult = 1e9;
  else if (unit == "T" || unit == "Tbps") mult = 1e12;
  else {
    *error = unit.empty() ? "'" + text + "' has no unit (use bps, Kbps, Mbps, Gbps or K/M/G/T)"
                          : "'" + text + "' has an unknown rate unit '" + unit + "'";
    return false;
  }
  double r = std::round(v * mult);
  if (r < 1 || r > 1.0e13) {
    *error = "'" + text + "' is out of range (1bps to 10T)";
    return false;
  }
  *bps = static_cast<uint64_t>(r);
  return true;
}

bool ParseTime(const std::string& text, Time* t, std::string* error) {
  double v;
  std::string unit;
  if (!SplitNumber(text, &v, &unit, error)) return false;
  double mult;
  if (unit == "ps") mult = 1;
  else if (unit == "ns") mult = 1e3;
  else if (unit == "us") mult = 1e6;
  else if (unit == "ms") mult = 1e9;
  else if (unit == "s") mult = 1e12;
  else if (unit == "min") mult = 60e12;  // an operator's delay (recovery.delay) is minutes
  else if (unit == "h") mult = 3600e12;  // a training job's checkpoint interval (cost.checkpoint) is hours
  else {
    *error = unit.empty() ? "'" + text + "' has no unit (use ns, us, ms, s, min or h)"
                          : "'" + text + "' has an unknown time unit '" + unit + "' (use ns, us, ms, s, min or h)";
    return false;
  }
  double ps = std::round(v * mult);
  if (ps < 0 || ps > 720 * 3600e12) {  // 30 days; each setting has its own, narrower range
    *error = "'" + text + "' is out of range (0s to 720h)";
    return false;
  }
  *t = static_cast<Time>(ps);
  return true;
}

bool ParseLength(const std::string& text, double* meters, std::string* error) {
  double v;
  std::string unit;
  if (!SplitNumber(text, &v, &unit, error)) return false;
  double mult;
  if (unit == "m") mult = 1;
  else if (unit == "km") mult = 1000;
  else if (unit == "cm") mult = 0.01;
  else {
    *error = unit.empty() ? "'" + text + "' has no unit (use cm, m or km)"
                          : "'" + text + "' has an unknown length unit '" + unit + "' (use cm, m or km)";
    return false;
  }
  double m = v * mult;
  if (m < 0 || m > 100000) {
    *error = "'" + text + "' is out of range (0m to 100km)";
    return false;
  }
  *meters = m;
  return true;
}

std::string FormatRate(uint64_t bps) {
  char buf[64];
  if (bps % 1000000000000ull == 0) std::snprintf(buf, sizeof buf, "%lluT", (unsigned long long)(bps / 1000000000000ull));
  else if (bps % 1000000000ull == 0) std::snprintf(buf, sizeof buf, "%lluG", (unsigned long long)(bps / 1000000000ull));
  else if (bps % 1000000ull == 0) std::snprintf(buf, sizeof buf, "%lluM", (unsigned long long)(bps / 1000000ull));
  else std::snprintf(buf, sizeof buf, "%llubps", (unsigned long long)bps);
  return buf;
}

std::string FormatTime(Time t) {
  const char* units[] = {"s", "ms", "us", "ns"};
  const Time scale[] = {kSecond, kMillisecond, kMicrosecond, kNanosecond};
  if (t == 0) return "0s";
  for (int i = 0; i < 4; ++i)
    if (t % scale[i] == 0) return std::to_string(t / scale[i]) + units[i];
  return std::to_string(t) + "ps";
}

}  // namespace rocelab
