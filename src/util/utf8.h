// Well-formed UTF-8 for text that came from a file.
//
// JsonWriter copies the bytes it is given (a Latin-1 scenario name, say), while
// nlohmann refuses a whole document for one ill-formed byte and the Prometheus
// text format requires UTF-8. Readers of summary.json therefore mend the text
// first, byte for byte, so that line numbers in their errors stay right.
#ifndef ROCELAB_UTIL_UTF8_H_
#define ROCELAB_UTIL_UTF8_H_

#include <string>

namespace rocelab {

// `s` with each byte that starts no well-formed sequence replaced by '?'.
std::string WellFormedUtf8(const std::string& s);
// Whether `s` is well-formed as it is: a reader then need not copy it (a summary.json can be
// tens of megabytes).
bool IsWellFormedUtf8(const std::string& s);

}  // namespace rocelab

#endif  // ROCELAB_UTIL_UTF8_H_
