// Feeds arbitrary bytes to every command-output parser behind `rocelab
// diagnose` and to the JSON reader. Bad input must end in ParseError or
// JsonError, never a crash, a hang or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string>

#include "diagnose/diagnose.h"
#include "diagnose/parsers.h"
#include "util/json_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocelab;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto guard = [](auto f) {
    try {
      f();
    } catch (const ParseError&) {
    } catch (const JsonError&) {
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
  guard([&] { ParseJson(text); });
  (void)DetectOutputKind(text);
  return 0;
}
