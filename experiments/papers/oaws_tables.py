#!/usr/bin/env python3
"""The tables of docs/papers/oaws.md from a run's store.

    build/moonwarp experiments/papers/oaws.lua OUT full
    build/moonwarp results OUT/results.db --csv > OUT/all.csv
    python3 experiments/papers/oaws_tables.py OUT/all.csv [MORE.csv ...]

A later CSV's benchmarks replace every run of the same benchmarks in the earlier ones (e.g. a rerun of some
benchmarks at another input, `oaws.lua OUT2 full SYRK,SYR2K,FD`).

Prints Markdown: Fig 8 per benchmark with the GMEAN rows, the counters behind OAWS-Dyn's result, Fig 10, Fig 12,
Fig 13, Fig 14, the motivation table (GTO) and Fig 4 (BFS). Ratios are IPC (gpu.ipc) over GTO's on the same input;
geometric means over the divergent (12) and the coherent (8) benchmarks, as oaws.lua's CSVs.
"""
import csv
import math
import sys

DIV = ["ATAX", "BICG", "MVT", "GES", "SYRK", "SYR2K", "PF", "BFS", "SC", "KMN", "SPMV", "IIX"]
COH = ["3DC", "2MM", "SRAD1", "SRAD2", "BP", "FD", "3MM", "LBM"]
SCHEMES = ["SWL-Best", "CCWS", "MASCAR", "OAWS-Static", "OAWS-Dyn"]


def num(r, k):
    v = r.get(k, "")
    try:
        return float(v) if v != "" else 0.0
    except ValueError:
        return 0.0


def gmean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(paths):
    by = {}
    for path in paths:
        rows = [r for r in csv.DictReader(open(path)) if r.get("status", "complete") in ("complete", "ok", "")]
        mine = {r["workload"] for r in rows}
        by = {k: v for k, v in by.items() if k[0] not in mine}
        for r in rows:  # the last stored run of each (workload, policy, config) wins
            by[(r["workload"], r["policy"], r["config"])] = r

    def get(w, p, cfg=""):
        # Fig 13's 32 MSHRs and Fig 14's on-fill are the preset's own values: the store keeps them as Fig 8's runs
        return by.get((w, p, cfg)) or (by.get((w, p, "")) if cfg in ("32", "on_fill") else None)

    def ipc(w, p, cfg=""):
        r = get(w, p, cfg)
        return num(r, "gpu.ipc") if r else None

    def ratio(w, p, cfg="", base=("GTO", "")):
        a, b = ipc(w, p, cfg), ipc(w, *base)
        return a / b if a and b else None

    def pct(r, a, b):
        return 100 * num(r, a) / num(r, b) if r and num(r, b) else None

    f3 = lambda x: "-" if x is None else "%.3f" % x
    f1 = lambda x: "-" if x is None else "%.1f" % x

    # ---- Fig 8 ----
    print("### Fig 8: IPC over GTO\n")
    print("| bench | " + " | ".join(SCHEMES) + " |")
    print("|---" * (len(SCHEMES) + 1) + "|")
    for cls, ws in (("divergent", DIV), ("coherent", COH)):
        for w in ws:
            print("| %s | %s |" % (w, " | ".join(f3(ratio(w, p)) for p in SCHEMES)))
        print("| **GMEAN-%s** | %s |" % (cls, " | ".join(f3(gmean([ratio(w, p) for w in ws])) for p in SCHEMES)))

    # ---- the counters behind OAWS-Dyn ----
    print("\n### Counters, divergent set (GTO / OAWS-Dyn)\n")
    print("| bench | MSHR stall GTO / Dyn % | ICNT stall GTO / Dyn % | FC div GTO / SWL / CCWS / Dyn % "
          "| div loads locality / gated % | mean OCW | OCW up / down | L1D miss rate GTO / Dyn "
          "| MSHR occupancy GTO / Dyn | OAWS-Dyn |")
    print("|---" * 10 + "|")
    for w in DIV:
        g, d = get(w, "GTO"), get(w, "OAWS-Dyn")
        if not g or not d:
            continue
        fc = [pct(get(w, p), "sm.ld_div_fully_cached", "sm.ld_div") for p in ("GTO", "SWL-Best", "CCWS", "OAWS-Dyn")]
        loc, gat = num(d, "policy.warp_scheduler.div_locality"), num(d, "policy.warp_scheduler.div_gated")
        ev = num(d, "policy.warp_scheduler.fully_cached") + num(d, "policy.warp_scheduler.partially_cached")
        ocw = num(d, "policy.warp_scheduler.ocw_sum") / ev if ev else None
        occ = lambda r: num(r, "l1d.mshr_occupancy") / (32 * num(r, "sm.active_cycles")) if num(r, "sm.active_cycles") else None
        print("| %s | %s / %s | %s / %s | %s | %s / %s | %s | %d / %d | %s / %s | %s / %s | %s |" % (
            w, f1(pct(g, "sm.ldst_stall_mshr", "sm.active_cycles")), f1(pct(d, "sm.ldst_stall_mshr", "sm.active_cycles")),
            f1(pct(g, "sm.ldst_stall_miss_queue", "sm.active_cycles")),
            f1(pct(d, "sm.ldst_stall_miss_queue", "sm.active_cycles")),
            " / ".join("%.0f" % x if x is not None else "-" for x in fc),
            "%.0f" % (100 * loc / (loc + gat)) if loc + gat else "-", "%.0f" % (100 * gat / (loc + gat)) if loc + gat else "-",
            "-" if ocw is None else "%.1f" % ocw, num(d, "policy.warp_scheduler.ocw_up"), num(d, "policy.warp_scheduler.ocw_down"),
            f3(num(g, "l1d.miss_rate")), f3(num(d, "l1d.miss_rate")), "%.2f" % occ(g), "%.2f" % occ(d), f3(ratio(w, "OAWS-Dyn"))))

    # ---- Fig 10 ----
    print("\n### Fig 10: fully cached divergent loads, % of divergent loads\n")
    pols = ["GTO"] + SCHEMES
    print("| bench | " + " | ".join(pols) + " |")
    print("|---" * (len(pols) + 1) + "|")
    cols = {p: [] for p in pols}
    for w in DIV:
        v = [pct(get(w, p), "sm.ld_div_fully_cached", "sm.ld_div") for p in pols]
        for p, x in zip(pols, v):
            cols[p].append(x / 100 if x else None)
        print("| %s | %s |" % (w, " | ".join(f1(x) for x in v)))
    print("| **GMEAN-divergent** | %s |" % " | ".join(f1(100 * gmean(cols[p])) for p in pols))
    print("| mean (arithmetic) | %s |" % " | ".join(
        f1(100 * sum(x for x in cols[p] if x is not None) / max(1, len([x for x in cols[p] if x is not None])))
        for p in pols))

    # ---- Fig 12 ----
    smrs = sorted({int(p[4:]) for (_, p, _) in by if p.startswith("SMR-")})
    five = [w for w in ["ATAX", "BICG", "MVT", "BFS", "KMN"] if get(w, "SMR-0")]
    if smrs and five:
        print("\n### Fig 12: static OAWS, SMR sweep, IPC over GTO\n")
        print("| SMR % | " + " | ".join(five) + " | GMEAN |")
        print("|---" * (len(five) + 2) + "|")
        for s in smrs:
            v = [ratio(w, "SMR-%d" % s) for w in five]
            print("| %d | %s | %s |" % (s, " | ".join(f3(x) for x in v), f3(gmean(v))))

    # ---- Fig 13 ----
    mshrs = ["32", "48", "64", "96"]
    if any(get(w, "GTO", "48") for w in DIV):
        print("\n### Fig 13: MSHR entries, IPC over GTO at 32 (the 32 column is Fig 8's runs)\n")
        print("| bench | " + " | ".join("%s %s" % (p, m) for p in ("GTO", "OAWS-Static", "OAWS-Dyn") for m in mshrs) + " |")
        print("|---" * 13 + "|")
        g = {}
        for w in DIV:
            v = []
            for p in ("GTO", "OAWS-Static", "OAWS-Dyn"):
                for m in mshrs:
                    x = ratio(w, p, "" if m == "32" else m) if (m == "32" or get(w, p, m)) else None
                    v.append(x)
                    g.setdefault((p, m), []).append(x)
            print("| %s | %s |" % (w, " | ".join(f3(x) for x in v)))
        print("| **GMEAN-divergent** | %s |" % " | ".join(
            f3(gmean(g[(p, m)])) for p in ("GTO", "OAWS-Static", "OAWS-Dyn") for m in mshrs))

    # ---- Fig 14 ----
    if any(get(w, "GTO", "on_miss") for w in DIV):
        pl = ["GTO", "CCWS", "OAWS-Static", "OAWS-Dyn"]
        print("\n### Fig 14: allocate-on-fill vs on-miss, IPC over GTO on-fill\n")
        print("| bench | " + " | ".join("%s %s" % (p, a) for p in pl for a in ("fill", "miss")) + " |")
        print("|---" * 9 + "|")
        g = {}
        for w in DIV:
            v = []
            for p in pl:
                for a in ("on_fill", "on_miss"):
                    x = ratio(w, p, a, base=("GTO", "on_fill")) if get(w, p, a) and get(w, "GTO", "on_fill") else None
                    v.append(x)
                    g.setdefault((p, a), []).append(x)
            print("| %s | %s |" % (w, " | ".join(f3(x) for x in v)))
        print("| **GMEAN-divergent** | %s |" % " | ".join(f3(gmean(g[(p, a)])) for p in pl for a in ("on_fill", "on_miss")))

    # ---- motivation (GTO) ----
    print("\n### Motivation under GTO\n")
    print("| bench | LD/ST MSHR stall % | LD/ST ICNT stall % (stores) | COAL % | schedulers stalled on LD/ST % "
          "| FC div % | occlusion div / coh loads % | L1D miss rate |")
    print("|---" * 8 + "|")
    for cls, ws in (("divergent", DIV), ("coherent", COH)):
        acc = []
        for w in ws:
            r = get(w, "GTO")
            if not r:
                continue
            v = (pct(r, "sm.ldst_stall_mshr", "sm.active_cycles"), pct(r, "sm.ldst_stall_miss_queue", "sm.active_cycles"),
                 pct(r, "sm.ldst_icnt_store", "sm.active_cycles"), pct(r, "sm.ldst_coal", "sm.active_cycles"),
                 (pct(r, "sm.stall_ldst", "sm.active_cycles") or 0) / 2, pct(r, "sm.ld_div_fully_cached", "sm.ld_div"),
                 pct(r, "sm.ld_div_mshr_wait", "sm.ld_div_latency"), pct(r, "sm.ld_coh_mshr_wait", "sm.ld_coh_latency"))
            acc.append(v)
            print("| %s | %s | %s (%s) | %s | %s | %s | %s / %s | %.3f |" % (
                w, f1(v[0]), f1(v[1]), f1(v[2]), f1(v[3]), f1(v[4]), f1(v[5]), f1(v[6]), f1(v[7]), num(r, "l1d.miss_rate")))
        m = []
        for i in range(8):
            xs = [a[i] for a in acc if a[i] is not None]
            m.append(sum(xs) / len(xs) if xs else None)
        print("| **mean %s** | %s | %s (%s) | %s | %s | %s | %s / %s | |" % ((cls,) + tuple(f1(x) for x in m)))
    fcs = [pct(get(w, "GTO"), "sm.ld_div_fully_cached", "sm.ld_div") for w in DIV]
    print("\nFully cached divergent loads under GTO, geomean over the divergent set: %.1f %%" %
          (100 * gmean([x / 100 for x in fcs if x])))

    # ---- Fig 4 (BFS, GTO) ----
    r = get("BFS", "GTO")
    if r:
        bins = ["0_7", "8_15", "16_23", "24_31", "32_up"]
        ld = [num(r, "sm.ld_age" + b) for b in bins]
        ms = [num(r, "sm.mshr_age" + b) for b in bins]
        print("\nFig 4 (BFS, GTO): loads by age rank 0-7 / 8-15 / 16-23 / 24-31 / 32+: %s %% of loads; MSHR entries "
              "per load %s" % (" / ".join("%.1f" % (100 * x / sum(ld)) for x in ld),
                               " / ".join("%.2f" % (m / l) if l else "-" for m, l in zip(ms, ld))))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: oaws_tables.py STORE.csv [MORE.csv ...]   (build/moonwarp results OUT/results.db --csv > STORE.csv)")
    main(sys.argv[1:])
