#!/usr/bin/env bash
# The congestion controls side by side, the tables docs/congestion-control.md holds.
#
# Two flows (scenarios/cc/two-to-one.yaml): two long flows into one 100G port, the second joining
# at 5 ms. For each nic.cc, over the second half of the run: each flow's goodput and its share of
# the two, the queue toward the receiver (mean and deepest), PFC pause frames; and the time from
# the join until both flows' goodput (1 ms averages) stays within 10 % of half the two's.
#
# WebSearch (--websearch; scenarios/sweeps/cc-websearch.yaml): one trace at 50 % load on a k=4
# fat-tree per congestion control: FCT slowdown p50/p95/p99 of the short (< 100 KB) and the long
# flows, pause frames sent, the deepest switch queue.
#
#   scripts/cc-compare.sh [--bin BUILD/rocelab] [CC...]   (default: dcqcn dctcp timely hpcc none)
#   scripts/cc-compare.sh --websearch [--bin BUILD/rocelab]
#   scripts/cc-compare.sh --check [--bin BUILD/rocelab]   both tables in docs/congestion-control.md, as run
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rocelab=$root/build/rocelab
check=false
websearch=false
ccs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) rocelab=$2; shift 2 ;;
    --check) check=true; shift ;;
    --websearch) websearch=true; shift ;;
    *) ccs+=("$1"); shift ;;
  esac
done
scenario=$root/scenarios/cc/two-to-one.yaml
[ ${#ccs[@]} -gt 0 ] || ccs=(dcqcn dctcp timely hpcc none)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

table() {
echo "| nic.cc | flow 1 (Gb/s) | flow 2 (Gb/s) | flow 2's share | converged after the join | queue mean (KB) | queue max (KB) | PFC pauses |"
echo "|---|---|---|---|---|---|---|---|"
for cc in "${ccs[@]}"; do
  sed "s/^nic: {mtu: 4096, cc: dcqcn}/nic: {mtu: 4096, cc: $cc}/" "$scenario" > "$work/$cc.yaml"
  "$rocelab" run "$work/$cc.yaml" --out "$work/$cc" --quiet --no-report
  pauses=$(grep -o '"pause_frames_tx": *[0-9]*' "$work/$cc/summary.json" | head -1 | grep -o '[0-9]*$')
  awk -F, -v cc="$cc" -v pauses="$pauses" -v step_ns=1e5 -v join_ns=5e6 -v end_ns=50e6 '
    NR == 1 { next }
    $5 == "flow_rate" && $4 == 3 {
      t = $1 + 0; slot = int(t / step_ns + 0.5); q = ($3 == "qp0") ? 0 : 1
      rate[q, slot] = $6 + 0
      if (t > end_ns / 2) { sum[q] += $6; n[q]++ }
    }
    $5 == "queue_depth" && $2 == "leaf0" && $3 == "Ethernet0" && $4 == 3 && $1 + 0 > end_ns / 2 {
      qsum += $6; qn++; if ($6 + 0 > qmax) qmax = $6 + 0
    }
    END {
      a = sum[0] / n[0]; b = sum[1] / n[1]
      # 1 ms averages (ten samples) after the join: converged from the end of the last one out of band.
      first = int(join_ns / step_ns) + 10; last = int(end_ns / step_ns)
      last_bad = join_ns
      for (i = first; i <= last; i++) {
        ra = 0; rb = 0
        for (j = i - 9; j <= i; j++) { ra += rate[0, j]; rb += rate[1, j] }
        fair = (ra + rb) / 2
        if (fair <= 0 || ra < 0.9 * fair || ra > 1.1 * fair || rb < 0.9 * fair || rb > 1.1 * fair) last_bad = i * step_ns
      }
      conv = (last_bad >= last * step_ns) ? "never" : sprintf("%.1f ms", (last_bad - join_ns) / 1e6)
      printf "| %s | %.1f | %.1f | %.3f | %s | %.0f | %.0f | %s |\n", cc, a, b, b / (a + b), conv, qsum / qn / 1024, qmax / 1024, pauses
    }' "$work/$cc/series.csv"
done
}

websearch_table() {
  "$rocelab" sweep "$root/scenarios/sweeps/cc-websearch.yaml" --out "$work/websearch" -j 2 > /dev/null
  "$rocelab" sweep --table "$work/websearch" | cut -c19-
}

if ! $check; then
  if $websearch; then websearch_table; else table; fi
  exit 0
fi
doc=$root/docs/congestion-control.md
table > "$work/measured.md"
awk '/^\| nic.cc \| flow 1/ { on = 1 } on && !/^\|/ { exit } on' "$doc" > "$work/documented.md"
websearch_table >> "$work/measured.md"
awk '/^nic.cc  / { on = 1 } on && /^```/ { exit } on' "$doc" >> "$work/documented.md"
if ! diff -u "$work/documented.md" "$work/measured.md"; then
  echo "docs/congestion-control.md's tables are not what scripts/cc-compare.sh measures (above: - documented, + measured)" >&2
  exit 1
fi
echo "docs/congestion-control.md's tables hold"
