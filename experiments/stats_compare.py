#!/usr/bin/env python3
"""Compare two folders written by experiments/stats_snapshot.sh, run by run and counter by counter.
Prints every counter whose value differs or that disappeared, and a summary line; counters that exist only in
the second folder (new stats) are listed by name, not counted as differences. Exit status 1 on any difference.
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
    for name in sorted(os.listdir(before)):
        other = os.path.join(after, name)
        if not os.path.exists(other):
            print(f"{name}: missing in {after}")
            diffs += 1
            continue
        a, b = load(os.path.join(before, name)), load(other)
        runs += 1
        for key, value in a.items():
            if key not in b:
                print(f"{name}: {key} disappeared")
                diffs += 1
            elif b[key] != value:
                print(f"{name}: {key} {value} -> {b[key]}")
                diffs += 1
        new |= {k.split(".")[0] + "." + k.split(".")[-1] for k in set(b) - set(a)}
    print(f"{runs} runs compared, {diffs} differences" + (f"; new counters: {', '.join(sorted(new))}" if new else ""))
    sys.exit(1 if diffs else 0)


main()
