#!/usr/bin/env bash
# Installs what rocelab needs from Debian (only what is missing) and builds it.
#   scripts/setup.sh            release build in build/
#   scripts/setup.sh --all      also the sanitizer build (build-asan/) and the fuzzer (build-fuzz/)
set -euo pipefail
cd "$(dirname "$0")/.."

# prometheus: its promtool checks the Prometheus exposition in the tests; tshark reads the captures back;
# chromium renders report.html headless. SQLite holds a sweep's results; Open MPI runs sweeps across
# the ranks of an MPI job (mpirun). tmux gives the lab's interactive shell a real terminal in its test.
packages=(g++ cmake make libgtest-dev libbenchmark-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev prometheus tshark tmux
          chromium libsqlite3-dev openmpi-bin libopenmpi-dev)
if [[ "${1:-}" == "--all" ]]; then packages+=(clang libclang-rt-14-dev); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  # Only promtool is wanted: where the package started its server, stop it.
  if [[ " ${missing[*]} " == *" prometheus "* ]] && command -v systemctl >/dev/null; then
    $SUDO systemctl disable --now prometheus >/dev/null 2>&1 || true
  fi
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${ROCELAB_CMAKE_ARGS:-} >/dev/null
cmake --build build -j"$jobs"

if [[ "${1:-}" == "--all" ]]; then
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROCELAB_SANITIZE=ON -DROCELAB_BENCH=OFF >/dev/null
  cmake --build build-asan -j"$jobs"
  CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROCELAB_FUZZ=ON -DROCELAB_SANITIZE=ON \
    -DROCELAB_TESTS=OFF -DROCELAB_BENCH=OFF >/dev/null
  cmake --build build-fuzz -j"$jobs" --target scenario_fuzzer diagnose_fuzzer
  # The release tests compare against the sanitizer build and run the fuzzer briefly.
  cmake -S . -B build -DROCELAB_REFERENCE_BINARY="$PWD/build-asan/rocelab" \
    -DROCELAB_FUZZ_DIR="$PWD/build-fuzz/fuzz" >/dev/null
  cmake --build build -j"$jobs"
fi
