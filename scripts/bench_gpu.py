#!/usr/bin/python3
"""Writes the GPU section of docs/PERFORMANCE.md from `nbody bench --json` files.

usage: scripts/bench_gpu.py [--doc docs/PERFORMANCE.md] std_float.json std_double.json sweep_*.json

The section lies between <!-- gpu-begin --> and <!-- gpu-end -->; the rest of the document (the
CPU section) is left as it is. Files named std_* give the side-by-side table, sweep_* the tuning
tables. Standard library only.
"""
import argparse
import json
import os
import sys

BEGIN, END = "<!-- gpu-begin -->", "<!-- gpu-end -->"


def load(paths):
    runs = []
    for p in paths:
        with open(p) as f:
            runs.append((os.path.basename(p).rsplit(".", 1)[0], json.load(f)))
    return runs


def others(r):
    t = {k: v for k, v in r["tunables"].items() if k != "block_size"}
    return " ".join(f"{k}={v}" for k, v in sorted(t.items())) or "-"


def block(r):
    return str(r["tunables"].get("block_size", "-"))


def e(x):
    return f"{x:.3g}"


def side_by_side(rows):
    out = ["| N | kernel | precision | block | other | ms/step (median) | min | max | "
           "interactions/s | GFLOP/s | speedup vs naive | error norm-wise | error max |",
           "|---:|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sorted(rows, key=lambda r: (r["precision"], r["n"], r["kernel"])):
        m = r["ms_per_step"]
        out.append(f"| {r['n']:,} | {r['kernel']} | {r['precision']} | {block(r)} | {others(r)} | "
                   f"{m['median']:.4f} | {m['min']:.4f} | {m['max']:.4f} | "
                   f"{r['interactions_per_s']:.3e} | {r['gflops']:.0f} | "
                   f"{r['speedup_vs_baseline']:.2f} | {e(r['error']['normwise'])} | "
                   f"{e(r['error']['max'])} |")
    return out


def ratios(rows):
    by = {}
    for r in rows:
        key = (r["precision"], r["n"])
        by.setdefault(key, {})[r["kernel"]] = max(
            by.get(key, {}).get(r["kernel"], 0), r["interactions_per_s"])
    out = ["| precision | N | tiled / naive | tiled2d / tiled | tiled2d / naive |",
           "|---|---:|---:|---:|---:|"]
    for (prec, n), k in sorted(by.items()):
        def q(a, b):
            return f"{k[a] / k[b]:.2f}" if a in k and b in k and k[b] else "-"
        out.append(f"| {prec} | {n:,} | {q('tiled', 'naive')} | {q('tiled2d', 'tiled')} | "
                   f"{q('tiled2d', 'naive')} |")
    return out


def best_per_n(rows):
    best = {}
    for r in rows:
        key = (r["precision"], r["n"])
        if key not in best or r["interactions_per_s"] > best[key]["interactions_per_s"]:
            best[key] = r
    out = ["| precision | N | best kernel | block | other | ms/step | interactions/s | GFLOP/s |",
           "|---|---:|---|---:|---|---:|---:|---:|"]
    for (prec, n), r in sorted(best.items()):
        out.append(f"| {prec} | {n:,} | {r['kernel']} | {block(r)} | {others(r)} | "
                   f"{r['ms_per_step']['median']:.4f} | {r['interactions_per_s']:.3e} | "
                   f"{r['gflops']:.0f} |")
    return out


def sweep(rows, top=8):
    out = ["| kernel | precision | N | block | other | ms/step | interactions/s | error norm-wise |",
           "|---|---|---:|---:|---|---:|---:|---:|"]
    groups = {}
    for r in rows:
        groups.setdefault((r["kernel"], r["precision"], r["n"]), []).append(r)
    for key in sorted(groups):
        g = sorted(groups[key], key=lambda r: -r["interactions_per_s"])
        shown = g[:top] + ([g[-1]] if len(g) > top else [])
        for i, r in enumerate(shown):
            tag = " (worst)" if len(g) > top and i == len(shown) - 1 else ""
            out.append(f"| {r['kernel']} | {r['precision']} | {r['n']:,} | {block(r)} | "
                       f"{others(r)}{tag} | {r['ms_per_step']['median']:.4f} | "
                       f"{r['interactions_per_s']:.3e} | {e(r['error']['normwise'])} |")
    return out


# issue 3's targets for the best kernel: (precision, N) -> interactions/s
TARGETS = {("float", 16384): 1.5e12, ("float", 65536): 2.0e12, ("float", 262144): 2.1e12,
           ("float", 1048576): 2.15e12, ("double", 262144): 0.9e12}


def targets(std, allrows):
    out = ["| precision | N | target | tiled2d at its defaults | best measured (config) | |",
           "|---|---:|---:|---:|---|---|"]
    for (prec, n), goal in sorted(TARGETS.items()):
        d = [r for r in std if r["kernel"] == "tiled2d" and (r["precision"], r["n"]) == (prec, n)]
        a = [r for r in allrows if (r["precision"], r["n"]) == (prec, n)]
        if not a:
            continue
        best = max(a, key=lambda r: r["interactions_per_s"])
        dv = d[0]["interactions_per_s"] if d else None
        got = dv if dv is not None else best["interactions_per_s"]
        verdict = ("met" if got >= goal else f"missed by {100 * (1 - got / goal):.1f}%") + (
            "" if dv is not None else " (best config)")
        out.append(f"| {prec} | {n:,} | {goal:.3g} | {dv:.3e} | " if dv is not None else
                   f"| {prec} | {n:,} | {goal:.3g} | - | ")
        out[-1] += (f"{best['interactions_per_s']:.3e} ({best['kernel']} block {block(best)} "
                    f"{others(best)}) | {verdict} |")
    return out


def section(runs):
    std = [r for name, j in runs if name.startswith("std") for r in j["results"]]
    swp = [r for name, j in runs if name.startswith("sweep") for r in j["results"]]
    head = runs[0][1]
    lines = [BEGIN, "## GPU kernels (naive, tiled, tiled2d)", "",
             f"Measured {head['date']} on **{head['device']}** with `scripts/bench_gpu.sh` "
             f"(`nbody bench`: {head['steps']} leapfrog steps x {head['repeats']} repeats after "
             "a warm-up, CUDA events, median; interactions/s = N² / time per step, which includes "
             "the kick/drift kernels; GFLOP/s at 20 flops per interaction in float and 30 in "
             f"double; error vs the double-precision direct sum on {head['sample']} bodies; "
             f"uniform sphere, ε = {head['softening']}).", ""]
    if std:
        lines += ["### Side by side at the default tunables", ""] + side_by_side(std) + [""]
        lines += ["### Ratios (the seeds' comparisons)", ""] + ratios(std) + [""]
    allrows = std + swp
    if allrows:
        lines += ["### Targets of issue 3 (met or missed at the defaults)", ""] + targets(
            std, allrows) + [""]
        lines += ["### Best configuration per N (all runs)", ""] + best_per_n(allrows) + [""]
    if swp:
        lines += ["### Tuning sweeps (best 8 per N and the worst)", ""] + sweep(swp) + [""]
    lines += ["Regenerate: `scripts/bench_gpu.sh build/bin out/bench-gpu docs/PERFORMANCE.md` "
              "on the GPU machine, or `scripts/bench_gpu.py --doc docs/PERFORMANCE.md "
              "out/bench-gpu/*.json` from saved JSON.", END]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doc", default="docs/PERFORMANCE.md")
    ap.add_argument("json", nargs="+")
    a = ap.parse_args()
    text = section(load(a.json))
    doc = open(a.doc).read() if os.path.exists(a.doc) else "# Performance\n\n"
    if BEGIN in doc and END in doc:
        pre, rest = doc.split(BEGIN, 1)
        post = rest.split(END, 1)[1].lstrip("\n")
        doc = pre + text + ("\n" + post if post else "")
    else:
        doc = doc.rstrip("\n") + "\n\n" + text
    os.makedirs(os.path.dirname(a.doc) or ".", exist_ok=True)
    with open(a.doc, "w") as f:
        f.write(doc)
    print(f"bench_gpu: wrote the GPU section of {a.doc}")


if __name__ == "__main__":
    sys.exit(main())
