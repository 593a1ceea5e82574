// A key path: where a sweep sets a value in a scenario, or where a figure sits in
// a summary.json. Mapping keys are joined by dots and a list entry is picked in
// brackets, as the scenario's own error messages write them: `switch.ecn.kmin`,
// `faults[0].kind`, `devices.leaf1.pfc.alpha`, `workload[2]`. In a summary a
// bracket may also name an entry by one of its values: `fct_slowdown[all].p99`.
#ifndef ROCELAB_SWEEP_KEY_PATH_H_
#define ROCELAB_SWEEP_KEY_PATH_H_

#include <string>
#include <vector>

#include "util/yaml.h"

namespace rocelab {

struct KeyPath {
  struct Step {
    std::string key;     // a mapping key, or
    std::string item;    // the text in brackets: an index (0, 1, ...) or a name
    bool is_item = false;
    // The index `item` gives; false when it is not a whole number.
    bool Index(size_t* index) const;
  };
  std::string text;  // as written
  std::vector<Step> steps;
};

// Reads `text`; false with `error` when it is not a key path (an empty key, a bracket left
// open, a path that starts with a bracket).
bool ParseKeyPath(const std::string& text, KeyPath* path, std::string* error);

// Sets the value at `path` in the tree `root` to `value`. Keys the tree does not have are added
// (with the mappings on the way), at `line` and `column`, so that what the scenario reader says
// about them points there; a list entry it does not have, or a path through a value that is
// not a mapping or a list, is an error (false, with `error`).
bool SetAtKeyPath(YamlNode* root, const KeyPath& path, const YamlNode& value, int line, int column,
                  std::string* error);

}  // namespace rocelab

#endif  // ROCELAB_SWEEP_KEY_PATH_H_
