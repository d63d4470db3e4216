#!/usr/bin/env python3
"""Front-end wall time per fixture, process start included (not a timed test).

  verifier/bench/frontend_bench.py [--kverify PATH] [--runs N] [FILES or DIRS...]

Runs `kverify --dump-model FILE` N times per file and prints the median and the
minimum wall time in milliseconds. Defaults: build/verifier/kverify (scripts/build.sh), 7 runs, the benchmark's
typical 100-line file plus tests/fixtures/seed003 and tests/fixtures/frontend.
Target: <= 150 ms for a typical 100-line kernel file.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sources(paths):
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                if name.endswith((".cu", ".cuh")):
                    yield os.path.join(p, name)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kverify", default=os.path.join(ROOT, "build", "verifier", "kverify"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("paths", nargs="*", default=[
        os.path.join(ROOT, "verifier", "bench", "typical_100_lines.cu"),
        os.path.join(ROOT, "tests", "fixtures", "seed003"),
        os.path.join(ROOT, "tests", "fixtures", "frontend")])
    args = ap.parse_args()
    if not os.access(args.kverify, os.X_OK):
        sys.exit(f"kverify not found at {args.kverify} (build it, or pass --kverify)")
    print(f"{'file':48} {'lines':>5} {'median ms':>10} {'min ms':>8} {'exit':>4}")
    for path in sources(args.paths):
        times, status = [], None
        for _ in range(args.runs):
            start = time.perf_counter()
            status = subprocess.run([args.kverify, "--dump-model", path],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            times.append((time.perf_counter() - start) * 1000.0)
        with open(path, "rb") as f:
            lines = f.read().count(b"\n")
        name = os.path.relpath(path, ROOT)
        print(f"{name:48} {lines:5d} {statistics.median(times):10.1f} {min(times):8.1f} {status:4d}")


if __name__ == "__main__":
    main()
