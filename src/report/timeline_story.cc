#include "report/timeline_story.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace rocelab {

std::vector<StoryLine> TellTimeline(const std::vector<TimelineEvent>& events) {
  std::vector<StoryLine> out;
  std::vector<std::vector<std::string>> places;  // a collapsed line's places, in order
  std::vector<MonitorFinding> findings;
  // (event, tier, rule, title) -> the line that tells it.
  std::map<std::tuple<std::string, std::string, std::string, std::string>, size_t> line_of;
  for (const TimelineEvent& e : events) {
    MonitorFinding f;
    const bool monitor = e.device == "monitor" && (e.event == "detected" || e.event == "congestion" || e.event == "recovery_effect") &&
                         ParseMonitorDetail(e.detail, &f);
    if (monitor) {
      // A finding an action caused says why after its title, with what it has cost so far
      // (bytes dropped for want of a route): one line per rule however the count grows.
      const std::string key = e.event == "recovery_effect" ? std::string() : f.title;
      auto [it, fresh] = line_of.try_emplace(std::make_tuple(e.event, f.tier, f.rule, key), out.size());
      if (!fresh) {
        StoryLine& line = out[it->second];
        if (e.t != line.last) ++line.count;  // times it was found: one instant's places are one
        line.last = e.t;
        std::vector<std::string>& p = places[it->second];
        if (std::find(p.begin(), p.end(), f.location) == p.end()) p.push_back(f.location);
        continue;
      }
    }
    out.push_back({e, 1, e.t});
    places.push_back(monitor ? std::vector<std::string>{f.location} : std::vector<std::string>{});
    findings.push_back(f);
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (places[i].size() < 2) continue;
    MonitorFinding f = findings[i];
    f.location.clear();
    for (const std::string& p : places[i]) f.location += (f.location.empty() ? "" : "; ") + p;
    out[i].event.detail = MonitorDetail(f);
  }
  return out;
}

std::string RepeatNote(const StoryLine& line, const std::string& last_time) {
  if (line.count < 2 || line.last == line.event.t) return "";  // one instant: its places say it all
  return " (" + std::to_string(line.count) + " times until " + last_time + ")";
}

}  // namespace rocelab
