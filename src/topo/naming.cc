#include "topo/naming.h"

#include <cctype>

namespace rocelab {

std::string DeviceNameProblem(const std::string& name) {
  if (name.empty()) return "a device name cannot be empty";
  if (name.size() > 64) return "a device name has at most 64 characters";
  if (!std::isalpha(static_cast<unsigned char>(name[0]))) return "a device name starts with a letter";
  for (unsigned char c : name)
    if (!std::isalnum(c) && c != '_' && c != '.')
      return std::string("a device name holds letters, digits, '_' and '.' only ('") + static_cast<char>(c) +
             "' would make link, port and priority names ambiguous)";
  return "";
}

}  // namespace rocelab
