#!/usr/bin/env bash
# Proves that a change leaves every result as it was: runs each shipped
# scenario (the fault scenarios too), the demo and the ns-3 reference experiments, removes the
# wall-clock `engine` block from each summary.json and compares what is left.
#
#   scripts/summary-digests.sh [--bin BUILD/rocelab] [--keep DIR]  compare with tests/golden/summary-digests.txt
#   scripts/summary-digests.sh --update                       rewrite the golden digests (a change meant to move numbers)
#   scripts/summary-digests.sh --against REV [--keep DIR]     build REV in a scratch worktree and diff every summary
#
# Exit status 0 when everything matches, 1 when a summary differs or any of them dropped a
# lossless packet.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin="$root/build/rocelab"
golden="$root/tests/golden/summary-digests.txt"
shared="${ROCELAB_SHARED_DATA:-$root/../shared/data}"
mode=check
against=""
keep=""
while (($#)); do
  case "$1" in
    --bin) bin=$(realpath "$2"); shift 2 ;;
    --update) mode=update; shift ;;
    --against) mode=against; against="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    *) echo "usage: $0 [--bin BIN] [--update | --against REV [--keep DIR]]" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Writes DIR/NAME.json for every run, engine block removed.
summaries() {
  local b="$1" dir="$2"
  mkdir -p "$dir"
  local s name
  for s in "$root"/scenarios/*.yaml "$root"/scenarios/faults/*.yaml; do
    name=$(basename "$s" .yaml)
    [[ "$s" == */faults/* ]] && name="faults-$name"
    "$b" run "$s" --out "$work/run" --quiet >/dev/null
    strip "$work/run/summary.json" >"$dir/$name.json"
  done
  "$b" demo --out "$work/run" --quiet >/dev/null
  strip "$work/run/summary.json" >"$dir/demo.json"
  for n in dcqcn-websearch30-1ms dcqcn-websearch30-1ms-incast; do
    [[ -f "$shared/ns3-rdma/$n/config.txt" ]] || continue
    # From the data folder, so the run's name (which holds the path) is the same in any checkout.
    (cd "$shared" && "$b" run --ns3-config "ns3-rdma/$n/config.txt" --out "$work/run" --quiet >/dev/null)
    strip "$work/run/summary.json" >"$dir/ns3-$n.json"
  done
  rm -rf "$work/run"
}

# summary.json keeps wall-clock figures only in its top-level "engine" object.
strip() { sed '/^  "engine": {$/,/^  },$/d' "$1"; }

digests() { (cd "$1" && sha256sum -- *.json); }

case "$mode" in
  update)
    summaries "$bin" "$work/new"
    mkdir -p "$(dirname "$golden")"
    digests "$work/new" >"$golden"
    echo "wrote $golden ($(wc -l <"$golden") summaries)"
    ;;
  check)
    summaries "$bin" "$work/new"
    # A lossless class loses nothing in any shipped scenario, the demo or the ns-3 runs (the fault
    # scenarios under scenarios/faults/, some of which drop by design, are checked by fault-table.sh).
    if lossy=$(ls "$work/new"/*.json | grep -v '/faults-' | xargs grep -l '"drops_lossless": [1-9]'); then
      echo "lossless packets dropped in: $lossy"
      exit 1
    fi
    [[ -n "$keep" ]] && { mkdir -p "$keep"; cp -r "$work/new/." "$keep/"; }
    if diff <(digests "$work/new") "$golden" >"$work/diff"; then
      echo "summaries: $(wc -l <"$golden") identical to tests/golden/summary-digests.txt"
    else
      echo "summaries differ from tests/golden/summary-digests.txt (< now, > golden):"
      cat "$work/diff"
      exit 1
    fi
    ;;
  against)
    git worktree add --detach "$work/ref" "$against" >/dev/null 2>&1
    cmake -S "$work/ref" -B "$work/ref-build" -DCMAKE_BUILD_TYPE=Release -DROCELAB_TESTS=OFF -DROCELAB_BENCH=OFF >/dev/null
    cmake --build "$work/ref-build" -j"$(nproc)" --target rocelab >/dev/null
    summaries "$work/ref-build/rocelab" "$work/old"
    summaries "$bin" "$work/new"
    git worktree remove --force "$work/ref" >/dev/null
    [[ -n "$keep" ]] && { mkdir -p "$keep"; cp -r "$work/old" "$work/new" "$keep/"; }
    if diff -r "$work/old" "$work/new" >"$work/diff"; then
      echo "summaries: $(ls "$work/new" | wc -l) identical to $against"
    else
      echo "summaries differ from $against:"
      head -100 "$work/diff"
      exit 1
    fi
    ;;
esac
