// Feeds arbitrary bytes to every parser behind `rocelab diagnose`: the command
// outputs, summary.json (then the rules over what it gave) and a bundle's
// manifest.json. Bad input must end in ParseError, never a crash, a hang, a
// sanitizer report or an exception of nlohmann's own.
#include <cstddef>
#include <cstdint>
#include <string>

#include "diagnose/diagnose.h"
#include "diagnose/parsers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocelab;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto guard = [](auto f) {
    try {
      f();
    } catch (const ParseError&) {
    }
  };
  guard([&] { ParseCounterList(text, "f"); });
  guard([&] {
    PortEvidence p;
    ParseMlnxQos(text, "f", &p);
  });
  guard([&] {
    PortEvidence p;
    ParseMlxconfig(text, "f", &p);
  });
  guard([&] { ParsePfcwdStats(text, "f"); });
  guard([&] {
    Evidence ev;
    ev.ports = ParseQueueCounters(text, "f");
    Diagnose(ev);
  });
  guard([&] {
    Evidence ev;
    ev.perftest = ParsePerftest(text, "f");
    Diagnose(ev);
  });
  guard([&] {
    Evidence ev;
    ParseSummaryJson(text, "f", &ev);
    Diagnose(ev);
  });
  guard([&] { ParseManifest(text, "f"); });
  (void)DetectOutputKind(text);
  return 0;
}
