#!/usr/bin/env bash
# Sets everything up and runs the built-in demo; results in out/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/rocelab demo --out out/demo
