#!/usr/bin/env python3
"""Per-instruction coalescing of a workload model, from its exported trace.

    build/moonwarp trace --workload rodinia.hotspot --size tiny --out DIR
    python3 experiments/coalescing.py DIR

For every global load, store and atomic (kernel, PC, opcode): its element size, the warp instructions and active
lanes, the pattern of lane addresses (the most frequent of: one address for every lane; consecutive lanes
`width` apart; lanes S bytes apart; runs of 16 (or 4) consecutive lanes, each run consecutive; otherwise a
gather) and the requests the coalescer makes of it in line mode with 128 B lines (engine/coalescer.c: one per
128 B line touched, 32 B units for 1-byte elements; a request is 32 or 64 B when its sectors lie in one aligned
32 B or 64 B block, else 128 B). The last lines give, over the loads, the requests by size and the fine-grain
ratio (32 B and 64 B requests over all) that DyCache's monitor would see with every load reaching L1D. Per kernel,
the 128 B lines its loads touch, counted once per CTA, once per SM (CTA i on SM i mod 15) and once per launch,
over its load requests: the miss rate of an L1D of unbounded capacity that kept the lines of one CTA only, of
one SM's CTAs, and of one L1D shared by the whole launch (the compulsory misses), every launch starting empty.
"""
import collections
import os
import sys

LINE, SECTOR = 128, 32
SMS = 15  # gtx480.yaml: CTA i counted on SM i mod 15 (the first round of the engine's dispatch)
MEM_OPS = ("LDG", "STG", "ATOMG", "LDL", "STL")


def requests(addrs, width):
    """The coalescer's requests for one warp instruction: a list of sizes."""
    unit = 32 if width == 1 else 64 if width == 2 else LINE
    units = collections.OrderedDict()
    for a in addrs:
        e = a + width - 1
        for lo, hi in ((a, e),) if a // unit == e // unit else ((a, (a // unit + 1) * unit - 1), ((e // unit) * unit, e)):
            sec = units.setdefault(lo // unit, set())
            sec.add((lo % LINE) // SECTOR)
            sec.add((hi % LINE) // SECTOR)
    sizes = []
    for sec in units.values():
        lo, hi = min(sec), max(sec)
        sizes.append(32 if lo == hi else 64 if hi - lo == 1 and lo % 2 == 0 else LINE)
    return sizes


def decode(mode, f, n):
    """The active lanes' addresses: mode 0 a list, 1 a base and a stride, 2 a base and each next lane's delta."""
    if mode == 0:
        return [int(x, 16) for x in f[:n]]
    base = int(f[0], 16)
    if mode == 1:
        return [base + i * int(f[1]) for i in range(n)]
    out = [base]
    for x in f[1:n]:
        out.append(out[-1] + int(x))
    return out


def pattern(lanes, addrs, width):
    if len(set(addrs)) == 1:
        return "broadcast" if len(addrs) > 1 else "one lane"
    steps = set()
    for i in range(1, len(lanes)):
        d = addrs[i] - addrs[i - 1]
        dl = lanes[i] - lanes[i - 1]
        steps.add(d / dl if d % dl == 0 else None)
    if len(steps) == 1 and None not in steps:
        s = int(steps.pop())
        return "consecutive" if s == width else "stride %d B" % s
    for run in (16, 4):  # rows of `run` consecutive lanes (16x16 tiles, 4x4 blocks), each row consecutive
        ok = True
        for i in range(1, len(lanes)):
            if lanes[i] // run == lanes[i - 1] // run and addrs[i] - addrs[i - 1] != (lanes[i] - lanes[i - 1]) * width:
                ok = False
                break
        if ok and len({lanes[i] // run for i in range(len(lanes))}) > 1:
            return "%d-lane rows" % run
    return "gather"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: coalescing.py TRACE_DIR")
    d = sys.argv[1]
    with open(os.path.join(d, "kernelslist.g")) as f:
        files = [ln.split()[0] for ln in f if ln.strip() and not ln.startswith("MemcpyHtoD")]
    stat = collections.OrderedDict()
    # kernel: load requests, lines per CTA, lines per launch, lines per SM
    reuse = collections.defaultdict(lambda: [0, 0, 0, 0])
    for fn in files:
        kname = "?"
        launch_lines, cta_lines = set(), set()
        per_sm = [set() for _ in range(SMS)]
        sm_lines, ncta = per_sm[0], 0
        with open(os.path.join(d, fn)) as f:
            for ln in f:
                if ln.startswith("-kernel name"):
                    kname = ln.split("=", 1)[1].strip()
                    continue
                if ln.startswith("thread block"):
                    reuse[kname][1] += len(cta_lines)
                    cta_lines = set()
                    sm_lines = per_sm[ncta % SMS]
                    ncta += 1
                    continue
                t = ln.split()
                # PC mask dest_num [dests] opcode src_num [srcs] width compress addrs...
                try:
                    nd = int(t[2])
                    op = t[3 + nd]
                except (ValueError, IndexError):
                    continue
                if not op.startswith(MEM_OPS):
                    continue
                ns = int(t[4 + nd])
                width = int(t[5 + nd + ns])
                if width == 0:
                    continue
                mask = int(t[1], 16)
                lanes = [l for l in range(32) if mask >> l & 1]
                addrs = decode(int(t[6 + nd + ns]), t[7 + nd + ns:], len(lanes))
                key = (kname, t[0], op)
                s = stat.setdefault(key, {"w": width, "n": 0, "lanes": 0, "pat": collections.Counter(),
                                          "req": collections.Counter()})
                s["n"] += 1
                s["lanes"] += len(lanes)
                s["pat"][pattern(lanes, addrs, width)] += 1
                for z in requests(addrs, width):
                    s["req"][z] += 1
                if op.startswith(("LDG", "LDL")):
                    lines = {a // LINE for a in addrs} | {(a + width - 1) // LINE for a in addrs}
                    launch_lines |= lines
                    cta_lines |= lines
                    sm_lines |= lines
                    reuse[kname][0] += len(requests(addrs, width))
        reuse[kname][1] += len(cta_lines)
        reuse[kname][2] += len(launch_lines)
        reuse[kname][3] += sum(len(x) for x in per_sm)
    print("%-26s %-5s %-8s %5s %9s %6s  %-30s %8s  %s" % ("kernel", "pc", "op", "width", "warp-insts", "lanes",
                                                        "pattern (share)", "req/inst", "32/64/128 B"))
    tot = collections.Counter()
    for (k, pc, op), s in stat.items():
        pat, c = s["pat"].most_common(1)[0]
        nreq = sum(s["req"].values())
        print("%-26s %-5s %-8s %5d %9d %6.1f  %-30s %8.2f  %d/%d/%d" % (
            k[:26], pc, op, s["w"], s["n"], s["lanes"] / s["n"], "%s (%.2f)" % (pat, c / s["n"]), nreq / s["n"],
            s["req"][32], s["req"][64], s["req"][128]))
        if op.startswith(("LDG", "LDL")):
            tot += s["req"]
    for k, (nreq, cta, launch, sm) in reuse.items():
        if nreq:
            print("%s: %d load requests; distinct 128 B lines / requests: per CTA %.3f, per SM %.3f, per launch %.3f" % (
                k, nreq, cta / nreq, sm / nreq, launch / nreq))
    n = sum(tot.values())
    print("load requests: %d (32 B %d, 64 B %d, 128 B %d); fine-grain ratio %.3f" % (
        n, tot[32], tot[64], tot[128], (tot[32] + tot[64]) / n if n else 0.0))


if __name__ == "__main__":
    main()
