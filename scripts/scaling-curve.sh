#!/usr/bin/env bash
# The engine's scaling curve: the same load and simulated time on fat-trees of growing size.
#   scripts/scaling-curve.sh [--bin build/rocelab] [--ks "4 8 12 16 24"] [--duration 1ms] [--runs 3]
# Each fabric carries WebSearch flow sizes at 30 % load with Poisson arrivals for the whole
# run, DCQCN, PFC and ECN as in scenarios/fat-tree-k8-websearch50.yaml. Prints a Markdown
# table: wall time, events/s, packet-hops/s, peak RSS, and events/s as a share of the bare
# event loop (build/bench/event_queue_bench at 10k pending events) measured in the same run,
# so figures from a busy machine can still be compared. Each fabric runs --runs times and the
# table gives the median run (a k=4 run lasts about 10 ms, so one run alone swings widely); the
# last line gives the events/s of the smallest fabric over that of the largest.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/rocelab
ks="4 8 12 16 24"
duration=1ms
runs=3
while (($#)); do
  case "$1" in
    --bin) bin="$2"; shift 2 ;;
    --ks) ks="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) echo "usage: $0 [--bin B] [--ks \"4 8 ...\"] [--duration 1ms] [--runs 3]" >&2; exit 2 ;;
  esac
done
data="${ROCELAB_SHARED_DATA:-$PWD/../shared/data}"
cdf="$data/cdf/WebSearch_distribution.txt"
[[ -f "$cdf" ]] || { echo "scaling-curve: $cdf not found (set ROCELAB_SHARED_DATA)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

loop_eps=""
bench=$(dirname "$bin")/bench/event_queue_bench
if [[ -x "$bench" ]]; then
  loop_eps=$("$bench" --benchmark_filter='BM_EventHold/10000' --benchmark_format=csv 2>/dev/null |
             awk -F, '/BM_EventHold/ {for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9.e+]+$/) v = $i} END {print v}')
fi

echo "| k | hosts | flows | events | wall s | M events/s | M packet-hops/s | peak RSS MB | share of bare loop |"
echo "|---|---|---|---|---|---|---|---|---|"
for k in $ks; do
  cat > "$work/k$k.yaml" <<YAML
name: scaling-k$k
seed: 1
duration: $duration
topology: {type: fat-tree, k: $k, link: {rate: 100G, delay: 1us}}
switch:
  buffer: 32MB
  lossless_priorities: [3]
  ecn: {enabled: true, kmin: 100KB, kmax: 400KB, pmax: 0.2}
nic: {mtu: 4096, cc: dcqcn}
workload:
  - {type: trace, cdf: $cdf, load: 0.3, duration: $duration}
YAML
  for ((r = 1; r <= runs; ++r)); do
    rm -rf "$work/out$k"
    "$bin" run "$work/k$k.yaml" --out "$work/out$k" --quiet --counters none
    cp "$work/out$k/summary.json" "$work/k$k.run$r.json"
  done
  python3 - "$k" "$loop_eps" "$work"/k"$k".run*.json <<'PY' | tee -a "$work/rows"
import json, sys
k, loop = int(sys.argv[1]), sys.argv[2]
runs = sorted((json.load(open(f)) for f in sys.argv[3:]), key=lambda s: s["engine"]["wall_s"])
s = runs[(len(runs) - 1) // 2]  # the median run (the faster of the middle two)
e = s["engine"]
share = f'{e["events_per_s"] / float(loop):.2f}' if loop else "n/a"
print(f'| {k} | {k**3 // 4} | {len(s["flows"])} | {e["events"]} | {e["wall_s"]:.2f} | {e["events_per_s"] / 1e6:.2f} | '
      f'{e["packet_hops_per_s"] / 1e6:.2f} | {e["peak_rss_kb"] / 1024:.0f} | {share} |')
PY
done
awk -F'|' 'NR == 1 {first = $7; k1 = $2} {last = $7; k2 = $2}
           END {if (NR > 1) printf "(events/s at k=%d over k=%d: %.2fx)\n", k1, k2, first / last}' "$work/rows"
[[ -n "$loop_eps" ]] && echo "(bare event loop, 10k pending: $(python3 -c "print(f'{$loop_eps / 1e6:.1f}')") M events/s)"
