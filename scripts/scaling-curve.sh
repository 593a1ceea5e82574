#!/usr/bin/env bash
# The engine's scaling curve: the same load and simulated time on fat-trees of growing size.
#   scripts/scaling-curve.sh [--bin build/rocelab] [--ks "4 8 12 16 24"] [--duration 1ms] [--runs 3]
# Each fabric carries WebSearch flow sizes at 30 % load with Poisson arrivals for the whole
# run, DCQCN, PFC and ECN as in scenarios/fat-tree-k8-websearch50.yaml. Prints a Markdown
# table: wall time, events/s, packet-hops/s, peak RSS, and events/s as a share of the bare
# event loop (build/bench/event_queue_bench at 10k pending events) measured in the same run,
# so figures from a busy machine can still be compared. The fabrics run in --runs rounds of one
# run each, and the table gives each fabric's median run (a k=4 run lasts about 10 ms, so one run
# alone swings widely). The last lines give the events/s of the smallest fabric over that of the
# largest: from the medians, and round by round.
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
  loop_eps=$("$bench" --benchmark_filter='BM_EventHold/10000$' --benchmark_format=csv 2>/dev/null |
             awk -F, '/BM_EventHold/ {for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9.e+]+$/) v = $i} END {print v}')
fi

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
done
# Rounds: each runs every fabric once, smallest first. A large fabric's speed follows the memory
# the machine's other tenants leave it, which can move by half within minutes, so the fabrics of
# one round are compared with each other, not with runs made minutes apart.
for ((r = 1; r <= runs; ++r)); do
  for k in $ks; do
    rm -rf "$work/out$k"
    "$bin" run "$work/k$k.yaml" --out "$work/out$k" --quiet --counters none
    cp "$work/out$k/summary.json" "$work/k$k.run$r.json"
  done
done

python3 - "$loop_eps" "$runs" "$work" $ks <<'PY'
import json, statistics, sys
loop, runs, work, ks = sys.argv[1], int(sys.argv[2]), sys.argv[3], [int(k) for k in sys.argv[4:]]
print("| k | hosts | flows | events | wall s | M events/s | M packet-hops/s | peak RSS MB | share of bare loop |")
print("|---|---|---|---|---|---|---|---|---|")
eps = {}
for k in ks:
    rs = [json.load(open(f"{work}/k{k}.run{r}.json")) for r in range(1, runs + 1)]
    if len({s["engine"]["events"] for s in rs}) > 1:
        sys.exit(f"scaling-curve: the runs of k={k} processed different numbers of events: "
                 f"{[s['engine']['events'] for s in rs]} (a run must replay exactly)")
    eps[k] = [s["engine"]["events_per_s"] for s in rs]
    s = sorted(rs, key=lambda s: s["engine"]["wall_s"])[(runs - 1) // 2]  # the median run (the faster of the middle two)
    e = s["engine"]
    share = f'{e["events_per_s"] / float(loop):.2f}' if loop else "n/a"
    print(f'| {k} | {k**3 // 4} | {len(s["flows"])} | {e["events"]} | {e["wall_s"]:.2f} | {e["events_per_s"] / 1e6:.2f} | '
          f'{e["packet_hops_per_s"] / 1e6:.2f} | {e["peak_rss_kb"] / 1024:.0f} | {share} |')
if len(ks) > 1:
    lo, hi = ks[0], ks[-1]
    per_round = sorted(a / b for a, b in zip(eps[lo], eps[hi]))
    print(f"(events/s at k={lo} over k={hi}: {statistics.median(eps[lo]) / statistics.median(eps[hi]):.2f}x from the medians; "
          f"round by round {', '.join(f'{x:.2f}x' for x in per_round)}, median {statistics.median(per_round):.2f}x)")
if loop:
    print(f"(bare event loop, 10k pending: {float(loop) / 1e6:.1f} M events/s)")
PY
