// One side of `rocelab compare` read into settings and figures: a run's
// summary.json (through JsonValue, and its device counters through the
// diagnose evidence model), or a bundle of `rocelab collect` (through
// LoadEvidence). compare.cc matches two of these; nothing else needs them.
#ifndef ROCELAB_REPORT_COMPARE_INPUTS_H_
#define ROCELAB_REPORT_COMPARE_INPUTS_H_

#include <string>
#include <vector>

#include "report/compare.h"

namespace rocelab {

struct Setting {
  std::string device;  // "" for the run or bundle as a whole
  std::string key;
  std::string value;  // as JSON writes it
};

// A figure of one side: a FigureChange's fields with one value.
struct Figure {
  std::string section, name, label, unit;
  double value = 0;
  std::string detail;
  Better better = Better::kNeither;
  Weight weight = Weight::kNone;
  bool only_if_nonzero = false;  // one of many (a priority's drops): left out where zero on both sides
};

struct CompareSide {
  CompareInput input;
  std::vector<std::string> devices;  // every device it has settings for, in its order
  std::vector<Setting> settings;     // in device order
  std::vector<Figure> figures;       // in section order
  std::vector<std::string> notes;
};

// Reads `path`: a folder holding summary.json (a run) or manifest.json (a bundle), or either
// file. Throws ConfigError naming the file, and the line or key, for anything else.
CompareSide ReadCompareSide(const std::string& path);

}  // namespace rocelab

#endif  // ROCELAB_REPORT_COMPARE_INPUTS_H_
