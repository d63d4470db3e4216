#!/usr/bin/env python3
"""Benchmark kverify over a corpus of .cu files (searched recursively): one process per
file, end to end (process start, parse, analysis, report), wall time and peak RSS per
file, without the result cache.

usage: bench_corpus.py [--kverify BIN]... [--corpus DIR] [--timeout SECONDS]
With several --kverify binaries, each file is run by each binary in turn (side by side,
so load on the machine falls on all of them alike). Prints the slowest files of the
first binary, then per binary the median and p95 wall time and the peak RSS."""
import argparse, os, subprocess, sys, time

def corpus_files(root):
    out = []
    for d, _, names in os.walk(root):
        out += [os.path.join(d, n) for n in names if n.endswith(".cu")]
    return sorted(out)

def run(binary, path, timeout):
    cmd = [binary, "--no-cache", "--format=json", path]
    if timeout:
        cmd.insert(1, "--timeout=" + timeout)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return time.monotonic() - t0, ru.ru_maxrss * 1024  # Linux: KiB

def summary(walls):
    walls = sorted(walls)
    n = len(walls)
    median = walls[n // 2] if n % 2 else (walls[n // 2 - 1] + walls[n // 2]) / 2
    p95 = walls[max(0, min(n - 1, int(round(0.95 * n + 0.5)) - 1))]
    return median, p95

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--kverify", action="append")
    ap.add_argument("--corpus", default=os.path.join(root, "tests", "fixtures", "verifier"))
    ap.add_argument("--timeout", default=None, help="passed to kverify --timeout")
    ap.add_argument("--top", type=int, default=10)
    a = ap.parse_args()
    binaries = a.kverify or [os.path.join(root, "build", "verifier", "kverify")]
    for b in binaries:
        if not os.path.exists(b):
            sys.exit("no kverify binary at %s (use --kverify)" % b)
    files = corpus_files(a.corpus)
    rows = {b: [] for b in binaries}
    for f in files:
        for b in binaries:
            wall, rss = run(b, f, a.timeout)
            rows[b].append((wall, rss, os.path.relpath(f, a.corpus)))
    for wall, rss, f in sorted(rows[binaries[0]], reverse=True)[: a.top]:
        print("%8.0f ms %7.1f MiB  %s" % (wall * 1000, rss / 2**20, f))
    print("files: %d" % len(files))
    for b in binaries:
        median, p95 = summary([r[0] for r in rows[b]])
        peak = max((r[1] for r in rows[b]), default=0)
        print("%s\n  median wall: %.0f ms\n  p95 wall:    %.0f ms\n  peak RSS:    %.1f MiB"
              % (b, median * 1000, p95 * 1000, peak / 2**20))

if __name__ == "__main__":
    main()
