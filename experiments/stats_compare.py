#!/usr/bin/env python3
"""Compare two folders written by experiments/stats_snapshot.sh, run by run and counter by counter.
Prints every counter whose value differs or that disappeared, and a summary line; counters that exist only in
the second folder (new stats) are listed by name, not counted as differences; sim.* (the engine's own work, unit
visits) is summed, not compared. Exit status 1 on any difference.
Usage: experiments/stats_compare.py BEFORE_DIR AFTER_DIR"""
import os
import sys


def load(path):
    stats = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition(" ")
            stats[key] = value
    return stats


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = sys.argv[1], sys.argv[2]
    diffs, runs, new = 0, 0, set()
    effort = [0, 0]  # sim.unit_visits summed over the runs: the engine's work, not the simulated machine
    for name in sorted(os.listdir(before)):
        other = os.path.join(after, name)
        if not os.path.exists(other):
            print(f"{name}: missing in {after}")
            diffs += 1
            continue
        a, b = load(os.path.join(before, name)), load(other)
        runs += 1
        effort[0] += float(a.get("sim.unit_visits", 0))
        effort[1] += float(b.get("sim.unit_visits", 0))
        for key, value in a.items():
            if key.startswith("sim."):
                continue
            if key not in b:
                print(f"{name}: {key} disappeared")
                diffs += 1
            elif b[key] != value:
                print(f"{name}: {key} {value} -> {b[key]}")
                diffs += 1
        new |= {k.split(".")[0] + "." + k.split(".")[-1] for k in set(b) - set(a)}
    print(f"{runs} runs compared, {diffs} differences" + (f"; new counters: {', '.join(sorted(new))}" if new else ""))
    if effort[0] and effort[1]:
        print(f"unit visits (sim.unit_visits, not compared): {effort[0]:.0f} -> {effort[1]:.0f}")
    sys.exit(1 if diffs else 0)


main()
