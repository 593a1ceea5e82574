// Transparent huge pages for the simulator's heap. A large fabric's device state (ports,
// priority groups, queues, queue pairs, packets in flight) spreads over a heap of a hundred
// megabytes or more, and a frame's hop touches it in a dozen scattered places: with 4 KB pages
// nearly every one of them misses the TLB as well as the cache. glibc backs malloc's heap with
// transparent huge pages when the tunable glibc.malloc.hugetlb=1 is set (glibc 2.35 and later),
// but it reads its tunables only as a process starts. So rocelab starts itself once more, at
// the top of main, with the tunable set; the restarted process puts the environment back as it
// was, so that what it runs in turn (collect's tools, mpirun) sees the user's own.
//
// It does nothing when the kernel has transparent huge pages off, when the tunable is set
// already (the user's choice stands), under valgrind or a sanitizer (they bring their own
// allocator), or when ROCELAB_HUGE_PAGES=0. A failed restart leaves the run on small pages.
#ifndef ROCELAB_CLI_HUGE_PAGES_H_
#define ROCELAB_CLI_HUGE_PAGES_H_

namespace rocelab {

// Restarts the program with huge pages where that is possible and has not been done; returns
// only when it does not restart. summary.json's engine.huge_pages_kb shows what it gave.
void RestartWithHugePages(char** argv);

}  // namespace rocelab

#endif  // ROCELAB_CLI_HUGE_PAGES_H_
