#!/usr/bin/env python3
"""The prelude against the toolkit's own headers: which files parse, and how fast.

usage: real_headers.py [--kverify BIN] [--clang clang++-22] [--cuda /usr/local/cuda]
                       NAME=DIR[:FLAGS] ...

For every .cu file of each project (fragments that another source #includes left out, as
real_projects.py does), two runs, one at a time:
  - kverify's front end with its prelude: `kverify --dump-model FILE -- FLAGS`
    (parsed: exit 0; the model of every kernel, with the prelude's declarations);
  - a newer Clang on the toolkit's real headers, device side, syntax only:
    `clang++ -x cuda --cuda-device-only -fsyntax-only -I CUDA/include/cccl FLAGS FILE`
    (`-Xclang -target-sdk-version=` the toolkit's version: without it Clang 22 declares
    no launch API for CUDA 13 and every `<<<...>>>` in host code is an error).
It prints, per project, the files each parsed, the median and largest wall time, and the
most common first errors of the real headers. docs/PRELUDE.md keeps the figures and the
decision they support. Not a test: it needs clang-22 (`apt-get install clang-22`).
"""
import argparse
import collections
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_projects import fragments, sources  # noqa: E402


def timed(cmd):
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=300)
        return p.returncode == 0, time.monotonic() - start, p.stderr
    except subprocess.TimeoutExpired:
        return False, time.monotonic() - start, "error: timed out"


def first_error(stderr):
    for line in stderr.splitlines():
        m = re.search(r"(?:fatal )?error: (.*)", line)
        if m:
            return re.sub(r"'[^']*\.h' file not found", "a header not found", m.group(1))[:80]
    return "exit status non-zero, no error line"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kverify", default=os.path.join(os.path.dirname(__file__), "../../build/verifier/kverify"))
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--sdk-version", default="13.0")
    ap.add_argument("projects", nargs="+", metavar="NAME=DIR[:FLAGS]")
    a = ap.parse_args()
    print("| project | files | prelude parses | real headers parse | prelude median / max s | real headers median / max s |")
    print("|---|---|---|---|---|---|")
    causes = {}
    for spec in a.projects:
        name, _, rest = spec.partition("=")
        root, _, flags = rest.partition(":")
        files = [f for f in sources(root) if f.endswith(".cu")]
        files = [f for f in files if f not in fragments(files)]
        extra = shlex.split(flags)
        rows = []
        for f in files:
            local = ["-I", os.path.dirname(f)]
            prelude = timed([a.kverify, "--dump-model", f, "--"] + local + extra)
            real = timed([a.clang, "-x", "cuda", f"--cuda-path={a.cuda}", "--cuda-gpu-arch=sm_90",
                          "-nocudalib", "--cuda-device-only", "-fsyntax-only", "-std=c++17",
                          "-Xclang", f"-target-sdk-version={a.sdk_version}", "-Wno-unknown-cuda-version",
                          "-I", os.path.join(a.cuda, "include/cccl")] + local + extra + [f])
            rows.append((prelude, real))
        causes[name] = collections.Counter(first_error(r[2]) for _, r in rows if not r[0])
        p_ok = sum(p[0] for p, _ in rows)
        r_ok = sum(r[0] for _, r in rows)
        pt = [p[1] for p, _ in rows]
        rt = [r[1] for _, r in rows]
        print(f"| {name} | {len(rows)} | {p_ok} | {r_ok} | {statistics.median(pt):.2f} / {max(pt):.2f} "
              f"| {statistics.median(rt):.2f} / {max(rt):.2f} |", flush=True)
    for name, c in causes.items():
        print(f"\n{name}: first errors with the real headers")
        for text, n in c.most_common(6):
            print(f"  {n:3d}  {text}")


if __name__ == "__main__":
    main()
