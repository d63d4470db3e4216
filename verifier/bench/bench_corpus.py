#!/usr/bin/env python3
"""Benchmark kverify over corpora of .cu files (searched recursively): one process per
file, end to end (process start, parse, analysis, report), without the result cache; per
file its CPU time (user + system: what the issue's targets are stated in, and nearly
independent of the machine's load), wall time and peak RSS.

usage: bench_corpus.py [--kverify BIN]... [--corpus DIR]... [--jobs N] [--timeout SECONDS]
With several --kverify binaries, each file is run by each binary in turn (side by side,
so load on the machine falls on all of them alike). Prints the slowest files of each
binary, then per binary the median, p95 and max CPU time, the median wall time and
the peak RSS."""
import argparse, concurrent.futures, os, subprocess, sys, time

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
    return ru.ru_utime + ru.ru_stime, time.monotonic() - t0, ru.ru_maxrss * 1024  # Linux: KiB

def quantile(values, q):
    values = sorted(values)
    return values[max(0, min(len(values) - 1, int(round(q * len(values) + 0.5)) - 1))]

def median(values):
    values, n = sorted(values), len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--kverify", action="append")
    ap.add_argument("--corpus", action="append")
    ap.add_argument("--jobs", type=int, default=1, help="files run at once")
    ap.add_argument("--timeout", default=None, help="passed to kverify --timeout")
    ap.add_argument("--top", type=int, default=10)
    a = ap.parse_args()
    binaries = a.kverify or [os.path.join(root, "build", "verifier", "kverify")]
    for b in binaries:
        if not os.path.exists(b):
            sys.exit("no kverify binary at %s (use --kverify)" % b)
    corpora = a.corpus or [os.path.join(root, "tests", "fixtures", "verifier")]
    files = [f for c in corpora for f in corpus_files(c)]
    rows = {b: [] for b in binaries}

    def side_by_side(f):
        return [(b, run(b, f, a.timeout)) for b in binaries]

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for f, results in zip(files, pool.map(side_by_side, files)):
            for b, (cpu, wall, rss) in results:
                rows[b].append((cpu, wall, rss, os.path.relpath(f, root)))
    print("files: %d" % len(files))
    for b in binaries:
        print("%s: the %d slowest files" % (b, a.top))
        for cpu, wall, rss, f in sorted(rows[b], reverse=True)[: a.top]:
            print("%8.0f ms CPU %8.0f ms wall %7.1f MiB  %s" % (cpu * 1000, wall * 1000, rss / 2**20, f))
    for b in binaries:
        cpus = [r[0] for r in rows[b]]
        print("%s\n  CPU per file: median %.0f ms, p95 %.0f ms, max %.0f ms (total %.1f s)\n"
              "  median wall:  %.0f ms\n  peak RSS:     %.1f MiB"
              % (b, median(cpus) * 1000, quantile(cpus, 0.95) * 1000, max(cpus) * 1000, sum(cpus),
                 median([r[1] for r in rows[b]]) * 1000, max(r[2] for r in rows[b]) / 2**20))

if __name__ == "__main__":
    main()
