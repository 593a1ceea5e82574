#include "util/text_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace rocelab {

bool ReadTextFile(const std::string& path, std::string* text, std::string* error, uint64_t max_bytes) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    *error = errno == ENOENT || errno == ENOTDIR ? "no such file" : "cannot open the file (" + std::string(std::strerror(errno)) + ")";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = "not a regular file";
    return false;
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    *error = "larger than " + std::to_string(max_bytes >> 20) + " MB";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open the file";
    return false;
  }
  // Into a string of the file's size, in one read: a summary.json of a hundred thousand flows
  // is tens of megabytes, which a string stream would copy twice over.
  text->assign(static_cast<size_t>(st.st_size), '\0');
  in.read(text->data(), static_cast<std::streamsize>(text->size()));
  text->resize(static_cast<size_t>(in.gcount()));
  // What the file grew by while it was read (a /proc file, whose size reads 0, is all of that).
  text->append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (text->size() > max_bytes) {  // grew while we read it
    *error = "larger than " + std::to_string(max_bytes >> 20) + " MB";
    return false;
  }
  return true;
}

}  // namespace rocelab
