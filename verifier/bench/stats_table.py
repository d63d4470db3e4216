#!/usr/bin/env python3
"""Where kverify's time goes, from a `kverify --stats --format=json` report.

usage: stats_table.py REPORT.json [--top N]
       stats_table.py --run "KVERIFY_ARGS..." PATH... [--top N]   (runs kverify itself)

Prints the CPU time by stage summed over every kernel (and the front end's parsing), then
the N slowest kernels (default 20), each with its stages, slowest first, and their
queries: what to make cheaper first.
"""
import argparse
import json
import shlex
import subprocess
import sys
from collections import defaultdict


def load(args):
    if args.run is None:
        with open(args.paths[0]) as f:
            return json.load(f)
    cmd = [args.kverify, "--stats", "--format=json"] + shlex.split(args.run) + args.paths
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"stats_table: {' '.join(cmd)} exited {out.returncode}")
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--run", help="kverify arguments: run kverify on PATHs instead of reading a report")
    ap.add_argument("--kverify", default="kverify")
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()
    report = load(args)
    kernels = report.get("kernels", [])
    if not any("stats" in k for k in kernels):
        sys.exit("stats_table: the report has no stats (run kverify with --stats --format=json)")
    parse = sum(f["parse_ms"] for f in report.get("file_stats", []))
    by_stage = defaultdict(lambda: [0.0, 0, 0.0])  # cpu ms, queries, solver ms
    for k in kernels:
        for s in k.get("stats", []):
            t = by_stage[s["stage"]]
            t[0] += s["cpu_ms"]
            t[1] += s["queries"]
            t[2] += s["solver_ms"]
    total = parse + sum(t[0] for t in by_stage.values())
    per_file = defaultdict(float)  # parse and analysis
    for f in report.get("file_stats", []):
        per_file[f["file"]] += f["parse_ms"]
    for k in kernels:
        per_file[k["file"]] += sum(s["cpu_ms"] for s in k.get("stats", []))
    times = sorted(per_file.values())
    at = lambda q: times[min(len(times) - 1, int(q * len(times)))] / 1000 if times else 0
    print(f"{len(report.get('file_stats', []))} files, {len(kernels)} kernels, {total / 1000:.2f} s of CPU; "
          f"per file: median {at(0.5):.3f} s, p95 {at(0.95):.3f} s, max {at(1.0):.3f} s\n")
    print(f"{'stage':<14}{'CPU s':>9}{'share':>8}{'queries':>9}{'solver s':>10}")
    rows = [("parse", parse, 0, 0.0)] + [(n, t[0], t[1], t[2]) for n, t in by_stage.items()]
    for name, ms, q, solver in sorted(rows, key=lambda r: -r[1]):
        share = 100 * ms / total if total else 0
        print(f"{name:<14}{ms / 1000:>9.2f}{share:>7.1f}%{q:>9}{solver / 1000:>10.2f}")
    cpu = lambda k: sum(s["cpu_ms"] for s in k.get("stats", []))
    print(f"\nthe {min(args.top, len(kernels))} slowest kernels:")
    for k in sorted(kernels, key=lambda k: -cpu(k))[: args.top]:
        stages = sorted(k.get("stats", []), key=lambda s: -s["cpu_ms"])
        why = ", ".join(f"{s['stage']} {s['cpu_ms'] / 1000:.2f} s ({s['queries']} q)" for s in stages[:3])
        print(f"  {cpu(k) / 1000:7.2f} s  {k['name']} ({k['file']}, {k['verdict']}): {why}")


if __name__ == "__main__":
    main()
