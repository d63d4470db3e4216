#!/usr/bin/env python3
"""Run kverify over a folder of real kernels and summarise what it made of them.

usage: corpus_report.py [--kverify BIN] [-j N] [--timeout S] DIR

Every .cu file under DIR is checked in its own process. GPUVerify's header flags are
honoured: a comment line `//--blockDim=... --gridDim=...` near the top becomes
`--blockDim=... --gridDim=...`, and its first-line label (`//pass`, `//xfail:...`) is
reported next to the verdict. Prints verdicts by label, then the most frequent parse
errors (the first error of each file that does not parse, numbers elided), unsupported constructs, crashes and time-outs."""
import argparse, collections, json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

def header(path):
    label, flags = "", []
    with open(path, errors="replace") as f:
        lines = [next(f, "") for _ in range(3)]
    if lines[0].startswith("//") and not lines[0].startswith("//--"):
        label = lines[0][2:].strip().split()[0] if lines[0][2:].strip() else ""
    for line in lines:
        if line.startswith("//--") or line.startswith("// --"):
            flags += ["--%s=%s" % (m.group(1), m.group(2))
                      for m in re.finditer(r"--(blockDim|gridDim)=(\S+)", line)]
    return label.lower(), flags

def kind(message):
    # the same message about different numbers counts once ("... 2048 ...", "... 4096 ...")
    return re.sub(r"\b\d+\b", "N", message)

def run(kverify, path, timeout):
    label, flags = header(path)
    cmd = [kverify, "--format=json"] + flags + [path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return label, "hang", [], []
    if p.returncode < 0 or p.returncode > 2:
        return label, "crash", ["exit %d: %s" % (p.returncode, p.stderr.strip()[-200:])], []
    try:
        kernels = json.loads(p.stdout)["kernels"]
    except (ValueError, KeyError):
        return label, "usage-error", [p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "no report"], []
    errors, unsupported = [], []
    for k in kernels:
        errors += [d["message"] for d in k.get("diagnostics", []) if d.get("severity") in ("error", "fatal")][:1]
        unsupported += [u["construct"] for u in k.get("unsupported", [])]
    worst = ["error", "unsupported", "unknown", "vacuous", "divergence", "oob", "race", "benign-race", "verified"]
    verdicts = [k["verdict"] for k in kernels] or ["no kernel"]
    verdict = min(verdicts, key=lambda v: worst.index(v) if v in worst else -1)
    return label, verdict, errors, unsupported

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--kverify", default=os.path.join(here, "..", "..", "build", "verifier", "kverify"))
    ap.add_argument("-j", type=int, default=os.cpu_count())
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--files", action="store_true", help="also list each file: label, verdict, first reason")
    a = ap.parse_args()
    if not os.access(a.kverify, os.X_OK):
        sys.exit("corpus_report.py: no kverify at %s (use --kverify)" % a.kverify)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.dir) for f in fs if f.endswith(".cu"))
    with ThreadPoolExecutor(a.j) as ex:
        rows = list(ex.map(lambda f: run(a.kverify, f, a.timeout), files))
    if a.files:
        for f, (label, verdict, es, us) in zip(files, rows):
            print("%-12s %-12s %s  %s" % (label, verdict, os.path.relpath(f, a.dir), (es + us)[0] if es or us else ""))
        print()
    table = collections.Counter((label, verdict) for label, verdict, _, _ in rows)
    labels = sorted({l for l, _ in table})
    verdicts = sorted({v for _, v in table})
    print("files: %d" % len(rows))
    print("%-28s" % "label \\ verdict" + "".join("%12s" % v for v in verdicts) + "%8s" % "total")
    for l in labels:
        n = [table[(l, v)] for v in verdicts]
        print("%-28s" % (l or "(none)") + "".join("%12d" % x for x in n) + "%8d" % sum(n))
    for title, items in (("parse errors", [kind(e) for _, v, es, _ in rows if v == "error" for e in es]),
                         ("unsupported constructs", [u for _, _, _, us in rows for u in us]),
                         ("crashes and usage errors", [e for _, v, es, _ in rows if v in ("crash", "usage-error") for e in es])):
        if not items:
            continue
        print("\n%s (files):" % title)
        for what, n in collections.Counter(items).most_common(a.top):
            print("%5d  %s" % (n, what))
    return 1 if any(v in ("crash", "hang") for _, v, _, _ in rows) else 0

if __name__ == "__main__":
    sys.exit(main())
