// rocelab lab: a running, broken fabric to fix with the commands used in
// production (lab/lab.h, lab/lab_session.h).

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "cli/cli.h"
#include "lab/lab.h"
#include "lab/lab_session.h"
#include "lab/line_editor.h"
#include "util/units.h"
#include "util/text_file.h"

namespace rocelab {
namespace {

int LabList(const Args&) {
  std::printf("The labs (rocelab lab start NAME):\n");
  for (const Lab& l : Labs()) std::printf("  %-14s %s\n", l.name.c_str(), l.title.c_str());
  return kExitOk;
}

int LabStart(const Args& a) {
  Lab lab;
  if (a.Has("--scenario")) {
    if (!a.positional().empty()) throw UsageError("lab start: give a lab's NAME or --scenario FILE, not both");
    const std::string path = a.Get("--scenario");
    std::string text, err;
    if (!ReadTextFile(path, &text, &err)) throw UsageError("lab start: " + err);
    lab = LabOfScenario(path, text);
  } else {
    if (a.positional().empty()) throw UsageError("lab start: name a lab (rocelab lab list) or give --scenario FILE");
    const Lab* found = FindLab(a.positional()[0]);
    if (!found) throw UsageError("lab start: no lab named '" + a.positional()[0] + "' (rocelab lab list)");
    lab = *found;
  }
  std::istream* in = &std::cin;
  std::ifstream file;
  const bool scripted = a.Has("--commands");
  if (scripted && a.Get("--commands") != "-") {
    file.open(a.Get("--commands"));
    if (!file) throw UsageError("lab start: cannot read " + a.Get("--commands"));
    in = &file;
  }
  double pace = 0;
  if (a.Has("--pace")) {
    std::string err;
    if (!ParseNumber(a.Get("--pace"), &pace, &err) || pace < 0 || pace > 1)
      throw UsageError("lab start: --pace takes simulated seconds per wall second, 0 to 1 (1e-3: a millisecond a second)");
  }
  LabSession s(lab);  // a scenario that does not load: ConfigError, exit status 2
  s.SetPace(pace);
  std::printf("%s\n", s.Welcome().c_str());
  if (!scripted && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
    // A person at a terminal: the line editor, with history and completion.
    std::fflush(stdout);
    LineEditor editor(STDIN_FILENO, STDOUT_FILENO, [&s](const std::string& l) { return s.Complete(l); });
    // The fabric runs on between keys at the chosen pace: the prompt's time moves.
    constexpr int kIdleMs = 100;
    editor.SetIdle([&s] { return s.Tick(kIdleMs / 1000.0) ? s.Prompt() : std::string(); }, kIdleMs);
    std::string line;
    while (!s.quit() && editor.ReadLine(s.Prompt(), &line)) {
      std::printf("%s", s.Execute(line).c_str());
      std::fflush(stdout);
    }
    return kExitOk;
  }
  // A transcript echoes each command after its prompt, as the terminal showed it.
  const bool echo = scripted || !isatty(STDIN_FILENO);
  std::string line;
  while (!s.quit()) {
    std::printf("%s", s.Prompt().c_str());
    std::fflush(stdout);
    if (!std::getline(*in, line)) {
      std::printf("\n");
      break;
    }
    if (echo) std::printf("%s\n", line.c_str());
    std::printf("%s", s.Execute(line).c_str());
  }
  return kExitOk;
}

}  // namespace

void AddLabCommand(CLI::App* root) {
  CLI::App* lab = AddCommand(root, "lab", "Fault labs: fix a running, broken fabric with the commands used in production", nullptr);
  AddCommand(lab, "list", "The labs rocelab ships", LabList);
  CLI::App* start = AddCommand(lab, "start", "Start a lab: its ticket, then a shell on the running fabric", LabStart, "NAME", 0, 1);
  AddValue(start, "--scenario", "FILE", "a lab of your own scenario (its faults are what to find)");
  AddValue(start, "--commands", "FILE", "read the commands from FILE (- for standard input) and print the transcript");
  AddValue(start, "--pace", "RATIO", "at a terminal, the fabric runs on its own at RATIO simulated seconds per wall second (pause, resume)");
}

}  // namespace rocelab
