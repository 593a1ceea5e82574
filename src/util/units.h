// Quantities with explicit units, as every scenario value must carry one.
// Sizes are powers of 1024 (2MB = 2097152 bytes; KiB/MiB/GiB accepted too),
// rates powers of 1000 in bits per second, times in ps/ns/us/ms/s, lengths in
// m/km. Every parser takes blanks between number and unit ("1 us", "100 G")
// and around the value. Each returns false and fills `error` with the reason
// on bad input; a range it gives is written in units it takes back.
#ifndef ROCELAB_UTIL_UNITS_H_
#define ROCELAB_UTIL_UNITS_H_

#include <cstdint>
#include <string>

#include "sim/time.h"

namespace rocelab {

bool ParseSize(const std::string& text, uint64_t* bytes, std::string* error);
bool ParseRate(const std::string& text, uint64_t* bps, std::string* error);
bool ParseTime(const std::string& text, Time* t, std::string* error);
bool ParseLength(const std::string& text, double* meters, std::string* error);
bool ParseNumber(const std::string& text, double* value, std::string* error);
bool ParseInteger(const std::string& text, int64_t* value, std::string* error);
bool ParseBool(const std::string& text, bool* value, std::string* error);

// A cable's one-way delay and back: light in fibre covers a metre in about 5 ns (2e8 m/s).
inline Time CableDelay(double meters) { return static_cast<Time>(meters * 5.0 * kNanosecond + 0.5); }
inline double CableMeters(Time delay) { return static_cast<double>(delay) / (5.0 * kNanosecond); }

// "100G", "25G", "400G": the short form reports and port names use.
std::string FormatRate(uint64_t bps);
// "10ms", "400us", "1500ns": the largest unit that keeps the time whole ("0s" for zero).
std::string FormatTime(Time t);

}  // namespace rocelab

#endif  // ROCELAB_UTIL_UNITS_H_
