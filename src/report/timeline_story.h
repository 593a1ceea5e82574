// The timeline as a person reads it: the monitor finds the same thing window
// after window (ACK timeouts at two hosts every millisecond while their flows
// retry), and the story says so once. Every detection of one finding (the same
// event, tier, rule and title, at any of its places) becomes one line at its
// first time, with how many there were, until when, and every place; all other
// events stay as they are, in order. summary.json keeps every event.
#ifndef ROCELAB_REPORT_TIMELINE_STORY_H_
#define ROCELAB_REPORT_TIMELINE_STORY_H_

#include <string>
#include <vector>

#include "telemetry/timeline.h"

namespace rocelab {

struct StoryLine {
  TimelineEvent event;  // the first of them; a collapsed finding's detail names all its places
  int count = 1;        // how many events the line stands for
  Time last = 0;        // the time of the last of them
};

std::vector<StoryLine> TellTimeline(const std::vector<TimelineEvent>& events);

// " (16 times until 11400.000 us)": what a collapsed line adds, its last time as the caller writes
// it; nothing for a line whose events were all at one instant (its places say it all).
std::string RepeatNote(const StoryLine& line, const std::string& last_time);

}  // namespace rocelab

#endif  // ROCELAB_REPORT_TIMELINE_STORY_H_
