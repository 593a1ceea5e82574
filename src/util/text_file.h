// Reading a user-named file safely: only regular files, and only up to a size
// limit, so that a device (/dev/zero), a FIFO or a huge file is a clear error
// instead of a hang or an out-of-memory.
#ifndef ROCELAB_UTIL_TEXT_FILE_H_
#define ROCELAB_UTIL_TEXT_FILE_H_

#include <cstdint>
#include <string>

namespace rocelab {

constexpr uint64_t kMaxInputFileBytes = 256ull << 20;

// Returns false with `error` ("no such file", "cannot open the file (why)", "not a regular
// file", "larger than N MB").
bool ReadTextFile(const std::string& path, std::string* text, std::string* error,
                  uint64_t max_bytes = kMaxInputFileBytes);

}  // namespace rocelab

#endif  // ROCELAB_UTIL_TEXT_FILE_H_
