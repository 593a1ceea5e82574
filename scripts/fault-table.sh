#!/usr/bin/env bash
# Runs every ready fault scenario (scenarios/faults/*.yaml, monitor on, recovery
# auto) and writes what each run measured into docs/faults.md, between the
# fault-table markers: the class, the rule that detected it, where it was
# localized, the tier and actions of recovery, what "recovered" means for it
# (the `# recovered:` line of its scenario), the MTTD, when no finding named the
# fault's devices any more (quiet), the MTTR (quiet and every workload back by its
# own measure) and the time the workloads lost.
#
#   scripts/fault-table.sh [--bin BUILD/rocelab]           rewrite the table
#   scripts/fault-table.sh [--bin BUILD/rocelab] --check   compare, write nothing
#
# Exit status 0 when written or identical, 1 when --check finds it differs, 2 on
# bad usage or a scenario that does not run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/build/rocelab"
check=false
while (($#)); do
  case "$1" in
    --bin) bin=$(realpath "$2"); shift 2 ;;
    --check) check=true; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--bin BIN] [--check]" >&2; exit 2 ;;
  esac
done
[[ -x "$bin" ]] || { echo "fault-table: $bin is not an executable (build it, or give --bin)" >&2; exit 2; }
cd "$root"
doc=docs/faults.md
begin='<!-- fault-table: begin (scripts/fault-table.sh writes this table) -->'
end='<!-- fault-table: end -->'
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
for c in $classes; do
  "$bin" run "scenarios/faults/$c.yaml" --out "$work/$c" --quiet >/dev/null ||
    { echo "fault-table: scenarios/faults/$c.yaml did not run" >&2; exit 2; }
done

python3 - "$work" "$doc" "$begin" "$end" $classes >"$work/faults.md" <<'PY'
import json, sys
work, doc, begin, end, classes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]

def ms(ns):
    return "—" if ns is None else f"{ns / 1e6:.1f} ms"

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

rows = ["| class | detector (rule) | localized to | tier: action | recovered means | MTTD | quiet | MTTR | lost |",
        "|---|---|---|---|---|---|---|---|---|"]
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
    rows.append(f"| `{c}` | {detector} | {f['localized_to'] or '—'} | {'; '.join(actions) or '—'} | {recovered} | "
                f"{ms(f['mttd_ns'])} | {since(f, 'quiet_ns')} | {mttr(s, f)} | {ms(f['lost_ns'])} |")

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
