#!/usr/bin/env python3
"""Benchmark kverify over the fixture corpus: one process per file, end to end
(process start, parse, analysis, report), wall time and peak RSS per file.

usage: bench_corpus.py [--kverify BIN] [--corpus DIR] [--timeout SECONDS]
Prints per-file times (slowest first), then median and p95 wall time and peak RSS."""
import argparse, os, resource, subprocess, sys, time

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--kverify", default=os.path.join(root, "build", "verifier", "kverify"))
    ap.add_argument("--corpus", default=os.path.join(root, "tests", "fixtures", "verifier"))
    ap.add_argument("--timeout", default=None, help="passed to kverify --timeout")
    ap.add_argument("--top", type=int, default=10)
    a = ap.parse_args()
    if not os.path.exists(a.kverify):
        sys.exit("no kverify binary at %s (use --kverify)" % a.kverify)
    files = sorted(f for f in os.listdir(a.corpus) if f.endswith(".cu"))
    rows = []
    peak = 0
    for f in files:
        cmd = [a.kverify, "--format=json", os.path.join(a.corpus, f)]
        if a.timeout:
            cmd.insert(1, "--timeout=" + a.timeout)
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        rss = ru.ru_maxrss * 1024  # Linux: KiB
        peak = max(peak, rss)
        rows.append((wall, rss, f))
    walls = sorted(r[0] for r in rows)
    def pct(p):
        k = max(0, min(len(walls) - 1, int(round(p / 100.0 * len(walls) + 0.5)) - 1))
        return walls[k]
    median = walls[len(walls) // 2] if len(walls) % 2 else (walls[len(walls) // 2 - 1] + walls[len(walls) // 2]) / 2
    for wall, rss, f in sorted(rows, reverse=True)[: a.top]:
        print("%8.0f ms %7.1f MiB  %s" % (wall * 1000, rss / 2**20, f))
    print("files: %d" % len(rows))
    print("median wall: %.0f ms" % (median * 1000))
    print("p95 wall:    %.0f ms" % (pct(95) * 1000))
    print("peak RSS:    %.1f MiB" % (peak / 2**20))

if __name__ == "__main__":
    main()
