#!/usr/bin/env bash
# The time to detect each fault class when the monitor reads counters as production
# collectors do (monitor.refresh: production: each switch's PORT_STAT polled every 1 s,
# QUEUE_STAT every 10 s, watermarks every 60 s, each device at its own phase; a scrape every
# 1 s), beside the same scenario read live every 100 ms (refresh: instant, as shipped).
# Every scenario in scenarios/faults/ runs with its timers at 1/100, so its 40 ms are 4 s of
# production, and again `--long` times as long (default 10, so the 10 s queue poll falls in it).
# Prints a markdown table; MTTDs in production milliseconds (the run's times / timers.scale).
#
#   scripts/production-mttd.sh [--bin BUILD/rocelab] [--seeds "1 2 3"] [--long N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/build/rocelab"
seeds="1 2 3"
long=10
while (($#)); do
  case "$1" in
    --bin) bin=$(realpath "$2"); shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --long) long="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--bin BIN] [--seeds LIST] [--long N]" >&2; exit 2 ;;
  esac
done
[[ -x "$bin" ]] || { echo "production-mttd: $bin is not an executable (build it, or give --bin)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root/scenarios/faults"
printf '| class | live every 100 ms: rule, MTTD | production polls, 1 s scrape: rule, MTTD | the same, %sx as long |\n|---|---|---|---|\n' "$long"
for s in *.yaml; do
  c=$(basename "$s" .yaml)
  row="| $c"
  for variant in instant production long; do
    cell=""
    for seed in $seeds; do
      f="$work/$c-$variant-$seed.yaml"
      { echo "seed: $seed"; grep -v '^seed:' "$s"; } > "$f"
      if [[ $variant != instant ]]; then
        # The scrape every 1 s of production; the probes (if any) kept.
        sed -i -E 's/^monitor: \{interval: 100ms, phase: random, refresh: instant(, probes: (\{[^}]*\}))?\}.*$/monitor: {interval: 1s, phase: random\1}/' "$f"
        grep -q '^monitor: {interval: 1s' "$f" || { echo "production-mttd: $s: no monitor line to change" >&2; exit 2; }
      fi
      if [[ $variant == long ]]; then
        d=$(sed -n -E 's/^duration: ([0-9]+)ms.*/\1/p' "$f")
        sed -i -E "s/^duration: [0-9]+ms/duration: $((d * long))ms/" "$f"
      fi
      "$bin" run "$f" --out "$work/out" --quiet >/dev/null 2>"$work/err" ||
        { echo "production-mttd: $s ($variant, seed $seed) did not run: $(head -3 "$work/err")" >&2; exit 2; }
      cell+=$(python3 - "$work/out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
scale = s["timer_scale"]
f = s["faults"][0]
print(f" {f['detected_by']} {f['mttd_ns'] / 1e6 / scale:.0f};" if f.get("mttd_ns") is not None else " none;", end="")
PY
)
    done
    row+=" |${cell%;}"
  done
  echo "$row |"
done
