#!/usr/bin/env python3
"""Prints a shipped fault scenario (scenarios/faults/*.yaml) as production runs it.

- The monitor reads the switches' counters at their polls (SONiC's counterpoll: ports every 1 s,
  queues every 10 s, watermarks every 60 s) with a scrape every 1 s at its own phase
  (`monitor: {interval: 1s, phase: random}`), the probes kept where the scenario has them.
- The queue pairs time out as NCCL sets them (`nic: {profile: nccl}`: IB_TIMEOUT 20, IB_RETRY_CNT 7,
  about 34 s), not as the verbs default does (14: about half a second).
- The story runs `--times` times as long (default 10: 400 ms at timers x 0.01, 40 s of production):
  the AllReduce for as many iterations, the storage clients reading again every shipped duration
  (a hot spot that recurs, as storage reads do), a fault that repeats (a flap's `count`) as often.
  The fault itself is injected once and stays.

    scripts/at-production.py SCENARIO [--times N] [--recovery auto|off]
"""
import re
import sys


def at_production(text, times=10, recovery=None):
    if re.search(r"^nic:", text, re.M):
        raise ValueError("has a nic line; production sets its own")
    monitor = re.compile(r"^monitor: \{interval: 100ms, phase: random, refresh: instant(, probes: \{[^}]*\})?\}.*$", re.M)
    if not monitor.search(text):
        raise ValueError("has no line 'monitor: {interval: 100ms, phase: random, refresh: instant...}'")
    text = monitor.sub(lambda m: "monitor: {interval: 1s, phase: random" + (m.group(1) or "") + "}", text)
    d = re.search(r"^duration: (\d+)ms", text, re.M)
    if not d:
        raise ValueError("has no line 'duration: Nms'")
    shipped = int(d.group(1))
    text = re.sub(r"^duration: \d+ms", f"duration: {shipped * times}ms", text, flags=re.M)
    if recovery:
        text = re.sub(r"^recovery: \{mode: \w+\}", f"recovery: {{mode: {recovery}}}", text, flags=re.M)
    out = []
    for line in text.splitlines():
        if re.match(r"^ *- \{kind: ", line):
            line = re.sub(r"count: (\d+)", lambda m: f"count: {int(m.group(1)) * times}", line)
        if re.match(r"^ *- \{type: allreduce", line):
            line = re.sub(r"iterations: (\d+)", lambda m: f"iterations: {int(m.group(1)) * times}", line)
        out.append(line)
        start = re.search(r"start: (\d+)ms", line)
        if re.match(r"^ *- \{type: incast", line) and start:
            for k in range(1, times):
                out.append(line.replace(start.group(0), f"start: {int(start.group(1)) + k * shipped}ms"))
    return "\n".join(out) + "\nnic: {profile: nccl}\n"


def main(argv):
    args, times, recovery = [], 10, None
    i = 0
    while i < len(argv):
        if argv[i] == "--times" and i + 1 < len(argv):
            times, i = int(argv[i + 1]), i + 2
        elif argv[i] == "--recovery" and i + 1 < len(argv):
            recovery, i = argv[i + 1], i + 2
        else:
            args, i = args + [argv[i]], i + 1
    if len(args) != 1 or times < 1 or recovery not in (None, "auto", "off"):
        sys.stderr.write("usage: at-production.py SCENARIO [--times N] [--recovery auto|off]\n")
        return 2
    try:
        sys.stdout.write(at_production(open(args[0]).read(), times, recovery))
    except (OSError, ValueError) as e:
        sys.stderr.write(f"at-production: {args[0]}: {e}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
