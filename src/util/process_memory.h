// What the kernel says of this process's memory: the figures a run reports under summary.json's
// `engine` key, and whether huge pages are to be had (src/cli/huge_pages.h).
#ifndef ROCELAB_UTIL_PROCESS_MEMORY_H_
#define ROCELAB_UTIL_PROCESS_MEMORY_H_

#include <cstdint>

namespace rocelab {

// Peak resident set size of this process, in KiB (0 where unknown).
uint64_t PeakRssKb();
// The process's anonymous memory now in transparent huge pages, in KiB (0 where the kernel does
// not say).
uint64_t HugePagesKb();
// Whether the kernel gives transparent huge pages to memory that asks for them (its setting is
// "always" or "madvise").
bool KernelOffersHugePages();

}  // namespace rocelab

#endif  // ROCELAB_UTIL_PROCESS_MEMORY_H_
