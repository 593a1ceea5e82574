#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: the release build (which
# also checks its summaries against the sanitizer build and smoke-runs the
# scenario fuzzer), then the same suite under AddressSanitizer and UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --all
jobs=$(nproc 2>/dev/null || echo 2)
echo "== release build"
(cd build && ctest -j"$jobs" --output-on-failure --timeout 900)
echo "== sanitizer build (ASan + UBSan)"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest -j"$jobs" --output-on-failure --timeout 1800)
