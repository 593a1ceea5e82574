#!/usr/bin/env bash
# Runs every ready fault scenario (scenarios/faults/*.yaml, monitor on, recovery
# auto) and writes what each run measured into docs/faults.md, between the
# fault-table markers: the class, the rule that detected it, where it was
# localized, the tier and actions of recovery, what "recovered" means for it
# (the `# recovered:` line of its scenario), the MTTD, when no finding named the
# fault's devices any more (quiet), the MTTR (quiet and every workload back by its
# own measure) and the time the workloads lost; then, over seeds 1..8, each drawing the phase of
# the monitor's windows (`monitor.phase: random`), the MTTD's range and, for each class, the lost
# time with recovery and without (`recovery: {mode: off}`), its mean.
#
# --production writes the second table, the same scenarios as production runs them
# (scripts/at-production.py: the monitor at the switches' counter polls with a scrape every 1 s,
# NCCL's timeouts, the story ten times as long: 40 s of production); times in production seconds
# (the run's over `timers.scale`), seeds 1..4.
#
#   scripts/fault-table.sh [--bin BUILD/rocelab] [--production]           rewrite the table
#   scripts/fault-table.sh [--bin BUILD/rocelab] [--production] --check   compare, write nothing
#
# Exit status 0 when written or identical, 1 when --check finds it differs, 2 on
# bad usage or a scenario that does not run, 3 when recovery loses more time than no
# recovery for a class: the mean of the seeds' differences (auto - off, seed by seed)
# above zero by more than twice its standard error, or above zero with every seed
# worse or equal; nothing is written then.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/build/rocelab"
check=false
production=false
seeds="1 2 3 4 5 6 7 8"
while (($#)); do
  case "$1" in
    --bin) bin=$(realpath "$2"); shift 2 ;;
    --check) check=true; shift ;;
    --production) production=true; seeds="1 2 3 4"; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--bin BIN] [--production] [--check]" >&2; exit 2 ;;
  esac
done
[[ -x "$bin" ]] || { echo "fault-table: $bin is not an executable (build it, or give --bin)" >&2; exit 2; }
cd "$root"
doc=docs/faults.md
if $production; then
  begin='<!-- fault-table-production: begin (scripts/fault-table.sh --production writes this table) -->'
  end='<!-- fault-table-production: end -->'
else
  begin='<!-- fault-table: begin (scripts/fault-table.sh writes this table) -->'
  end='<!-- fault-table: end -->'
fi
grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc" || { echo "fault-table: $doc lacks the markers" >&2; exit 2; }

# The classes in the order the table lists them; every scenario in the folder is one of them.
classes="link_down link_flap link_errors gray_drop blackhole ecn_off ecn_thresholds cc_disabled qos_drift mtu headroom
         route_change deadlock pfc_storm slow_receiver"
for s in scenarios/faults/*.yaml; do
  c=$(basename "$s" .yaml)
  [[ " $(echo $classes) " == *" $c "* ]] || { echo "fault-table: $s is not in the script's class list" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each scenario as the table runs it: as shipped, or as production runs it (--production).
mkdir -p "$work/scenarios"
for c in $classes; do
  s="scenarios/faults/$c.yaml" v="$work/scenarios/$c.yaml"
  grep -q '^monitor: {interval: 100ms, phase: random' "$s" ||
    { echo "fault-table: $s has no line 'monitor: {interval: 100ms, phase: random...': its windows would end on the injection" >&2; exit 2; }
  if $production; then
    python3 scripts/at-production.py "$s" >"$v" || exit 2
  else
    cp "$s" "$v"
  fi
  "$bin" run "$v" --out "$work/$c" --quiet >/dev/null ||
    { echo "fault-table: $s did not run" >&2; exit 2; }
done

# Recovery against none: each scenario with `recovery: {mode: auto}` and `{mode: off}`, seeds 1..8,
# on every core. The lost time's mean over the seeds is the measure; auto must not lose more.
mkdir -p "$work/sweep"
for c in $classes; do
  grep -qx 'recovery: {mode: auto}' "scenarios/faults/$c.yaml" ||
    { echo "fault-table: scenarios/faults/$c.yaml has no line 'recovery: {mode: auto}' to sweep" >&2; exit 2; }
  for mode in auto off; do
    # A collector's clock is not the run's: each seed draws the phase of its windows (phase: random).
    # Only the summary is read: no time series.
    sed -e "s/^recovery: {mode: auto}\$/recovery: {mode: $mode}/" -e "/^telemetry:/d" \
        "$work/scenarios/$c.yaml" >"$work/sweep/$c-$mode.yaml"
  done
done
for c in $classes; do for mode in auto off; do for seed in $seeds; do echo "$c-$mode $seed"; done; done; done |
  xargs -P "$(nproc 2>/dev/null || echo 2)" -n 2 sh -c \
    '"$0" run "$1/$2.yaml" --seed "$3" --out "$1/$2-$3" --quiet --no-report >/dev/null || echo "$2 seed $3" >>"$1/failed"' \
    "$bin" "$work/sweep"
[[ -s "$work/sweep/failed" ]] && { echo "fault-table: sweep runs failed: $(tr '\n' ';' <"$work/sweep/failed")" >&2; exit 2; }

python3 - "$work" "$doc" "$begin" "$end" "$seeds" "$production" $classes >"$work/faults.md" <<'PY'
import json, sys
work, doc, begin, end, seeds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].split()
production, classes = sys.argv[6] == "true", sys.argv[7:]
# As run (ms of the run), or in production's seconds: the run's times over its timers.scale.
scale = json.load(open(f"{work}/{classes[0]}/summary.json"))["timer_scale"] if production else 1.0
unit, digits, per_ns = ("s", 2, 1e9 * scale) if production else ("ms", 1, 1e6)

def value(ns):
    return ns / per_ns

def ms(ns):
    return "—" if ns is None else f"{value(ns):.{digits}f} {unit}"

def since(f, key):
    return "—" if f[key] is None else ms(f[key] - f["injected_ns"])

def mttr(s, f):
    # A workload not back by the end of the run: the MTTR is longer than the run.
    if f["mttr_ns"] is not None:
        return ms(f["mttr_ns"])
    return f"> {ms(s['sim_time_ns'] - f['injected_ns'])}" if f["quiet_ns"] is not None else "—"

def short(action):
    # "shut link leaf0-spine1: frames vanish on it; ..." -> "shut link leaf0-spine1"
    for sep in (" (", ": "):
        if sep in action:
            action = action[: action.index(sep)]
    return action

def mttd_range(c):
    # Over the seeds with recovery, each with its own phase of the monitor's windows.
    v = [json.load(open(f"{work}/sweep/{c}-auto-{k}/summary.json"))["faults"][0]["mttd_ns"] for k in seeds]
    v = [value(x) for x in v if x is not None]
    if not v:
        return "—"
    return f"{min(v):.{digits}f}–{max(v):.{digits}f} {unit}" + ("" if len(v) == len(seeds) else f" ({len(seeds) - len(v)} not detected)")

def lost(c, mode, seed):
    return value(json.load(open(f"{work}/sweep/{c}-{mode}-{seed}/summary.json"))["faults"][0]["lost_ns"])

worse = []  # classes where recovery loses more than none, by the mean over the seeds
rows = ["| class | detector (rule) | localized to | tier: action | recovered means | MTTD | "
        f"MTTD over {len(seeds)} phases | quiet | MTTR | lost | lost, auto / off ({len(seeds)} seeds) |",
        "|---|---|---|---|---|---|---|---|---|---|---|"]
for c in classes:
    s = json.load(open(f"{work}/{c}/summary.json"))
    f = s["faults"][0]
    recovered = ""
    for line in open(f"scenarios/faults/{c}.yaml"):
        if line.startswith("# recovered: "):
            recovered = line[len("# recovered: "):].strip()
    actions = []
    for a in f["actions"]:
        text = f"{a['tier']}: {short(a['action'])}"
        if text not in actions:
            actions.append(text)
    detector = f"`{f['detected_by']}` ({f['detected_tier']})" if f["detected_by"] else "not detected"
    if f.get("flap_mttd_ns") is not None:
        detector += f"; as a flap `physical.link_flap` at {ms(f['flap_mttd_ns'])}"
    auto = [lost(c, "auto", k) for k in seeds]
    off = [lost(c, "off", k) for k in seeds]
    mean_auto, mean_off = sum(auto) / len(auto), sum(off) / len(off)
    # Seed by seed: the same seed gives both runs the same traffic, so the difference is the
    # recovery's. Worse means a difference the seeds' spread cannot explain.
    diffs = [a - o for a, o in zip(auto, off)]
    mean_diff = sum(diffs) / len(diffs)
    sd = (sum((d - mean_diff) ** 2 for d in diffs) / (len(diffs) - 1)) ** 0.5 if len(diffs) > 1 else 0.0
    if mean_diff > 1e-9 and (mean_diff > 2 * sd / len(diffs) ** 0.5 or all(d >= 0 for d in diffs)):
        worse.append(f"{c} ({mean_auto:.2f} {unit} with recovery, {mean_off:.2f} {unit} without)")
    seeds_worse = sum(a > o for a, o in zip(auto, off))
    sweep = f"{mean_auto:.{digits}f} / {mean_off:.{digits}f} {unit}" + (f" ({seeds_worse} seed{'s' if seeds_worse > 1 else ''} worse)" if seeds_worse else "")
    # Where the first detection did not name the place, when a later one did.
    where = f["localized_to"] or "—"
    if f["localized_to"] and f["localized_ns"] is not None and f["detected_ns"] is not None and f["localized_ns"] > f["detected_ns"]:
        where += f", at {since(f, 'localized_ns')}"
    rows.append(f"| `{c}` | {detector} | {where} | {'; '.join(actions) or ('none: the switches route around it' if f['detected_by'] == 'physical.link_down' else '—')} | {recovered} | "
                f"{ms(f['mttd_ns'])} | {mttd_range(c)} | {since(f, 'quiet_ns')} | {mttr(s, f)} | {ms(f['lost_ns'])} | {sweep} |")
if worse:
    sys.stderr.write("fault-table: recovery loses more than none (mean over the seeds): " + "; ".join(worse) + "\n")
    sys.exit(3)

text = open(doc).read()
a, b = text.index(begin) + len(begin), text.index(end)
sys.stdout.write(text[:a] + "\n" + "\n".join(rows) + "\n" + text[b:])
PY

if $check; then
  if diff -u "$doc" "$work/faults.md"; then echo "fault-table: $doc is up to date"; else exit 1; fi
else
  cp "$work/faults.md" "$doc"
  echo "fault-table: wrote the table of $(echo $classes | wc -w) fault classes into $doc"
fi
