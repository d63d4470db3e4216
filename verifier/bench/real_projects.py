#!/usr/bin/env python3
"""Run kverify over real CUDA projects and tabulate what it made of them.

usage: real_projects.py [--kverify BIN] [--args "ARGS"] [-j N] [--timeout S] [--json OUT]
                        NAME=DIR[:FLAGS] ...

Each NAME=DIR is one project: every .cu and .cuh file under DIR (recursively; as kverify
reads a directory) is checked, but the fragments (a .cu file that another source #includes:
nvcc compiles it only as part of its includer, and kverify analyses its kernels there), one
kverify process per file (so one crash or hang costs one file), with FLAGS (clang
arguments after `--`, e.g. "-I DIR/common -DUSE_X") split on spaces. The per-project row
gives files, files that did not parse, kernels, each verdict, time, and the most common
causes of `error` and `unsupported` (the first line of a kernel's diagnostic or its
unsupported construct), and of skipped headers. Kernels analysed = kernels whose verdict is
neither `error` nor `unsupported`.

Keep the projects outside the repository (their own licences): fetch them, point at them.
"""
import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

VERDICTS = ["verified", "benign-race", "race", "divergence", "oob", "vacuous", "unknown",
            "unsupported", "error"]


def sources(root):
    out = []
    for d, _, files in os.walk(root):
        out += [os.path.join(d, f) for f in files if f.endswith((".cu", ".cuh"))]
    return sorted(out)


def fragments(files):
    """The .cu files another source of the project #includes: nvcc compiles them only as
    part of their includer (Rodinia's kernel_gpu_cuda.cu), so they are counted apart."""
    included = set()
    for f in files:
        try:
            text = open(f, errors="replace").read()
        except OSError:
            continue
        for name in re.findall(r'^\s*#\s*include\s*"([^"]+\.cu)"', text, re.M):
            included.add(os.path.normpath(os.path.join(os.path.dirname(f), name)))
    return {f for f in files if os.path.normpath(f) in included}


def cause(text):
    # "use of undeclared identifier 'foo'" -> keep; long messages cut at a clause
    text = re.sub(r"\s+", " ", text).strip()
    return text[:90]


def run_file(binary, kverify_args, path, flags, timeout):
    cmd = [binary, "--no-cache", "--format=json"] + kverify_args + [path] + (["--"] + flags if flags else [])
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"file": path, "status": "timeout", "seconds": time.time() - start}
    seconds = time.time() - start
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"file": path, "status": "crash" if p.returncode < 0 else "no report",
                "seconds": seconds, "stderr": p.stderr[-400:]}
    return {"file": path, "status": "ok", "seconds": seconds, "report": report}


def tabulate(name, results):
    row = collections.Counter()
    causes = {"error": collections.Counter(), "unsupported": collections.Counter(),
              "skipped header": collections.Counter(), "file": collections.Counter()}
    seconds = 0.0
    for r in results:
        seconds += r["seconds"]
        row["files"] += 1
        if r.get("fragment"):
            row["fragments"] += 1
            continue
        if r["status"] != "ok":
            row["files " + r["status"]] += 1
            causes["file"][r["status"]] += 1
            continue
        report = r["report"]
        for n in report.get("notes", []):
            m = re.match(r"header '([^']*)' not found", n.get("message", ""))
            if m:
                causes["skipped header"][m.group(1)] += 1
        for k in report.get("kernels", []):
            if k.get("name") == "<file>":
                row["files not parsed"] += 1
                diags = [d for d in k.get("diagnostics", []) if d.get("severity") in ("error", "fatal")]
                causes["file"][cause(diags[0]["message"]) if diags else "does not parse"] += 1
                continue
            v = k.get("verdict")
            row["kernels"] += 1
            row[v] += 1
            if v == "error":
                diags = [d for d in k.get("diagnostics", []) if d.get("severity") in ("error", "fatal")]
                causes["error"][cause(diags[0]["message"]) if diags else "error"] += 1
            elif v == "unsupported":
                for u in k.get("unsupported", [])[:1]:
                    causes["unsupported"][u.get("construct", "?")] += 1
    row["seconds"] = round(seconds, 1)
    return row, causes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kverify", default=os.path.join(os.path.dirname(__file__), "../../build/verifier/kverify"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--args", default="", help="kverify arguments, e.g. \"--timeout=10\"")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per file")
    ap.add_argument("--json", help="also write every file's result here")
    ap.add_argument("projects", nargs="+", metavar="NAME=DIR[:FLAGS]")
    args = ap.parse_args()

    table, all_results = [], {}
    for spec in args.projects:
        name, _, rest = spec.partition("=")
        root, _, flags = rest.partition(":")
        files = sources(root)
        parts = fragments(files)
        with ThreadPoolExecutor(max_workers=args.j) as pool:
            results = list(pool.map(lambda f: run_file(args.kverify, shlex.split(args.args), f, shlex.split(flags), args.timeout)
                                    if f not in parts else {"file": f, "fragment": True, "seconds": 0.0}, files))
        all_results[name] = results
        row, causes = tabulate(name, results)
        table.append((name, row, causes))

    cols = ["files", "fragments", "files not parsed", "kernels"] + VERDICTS + ["seconds"]
    print("| project | " + " | ".join(cols) + " | analysed |")
    print("|---" * (len(cols) + 2) + "|")
    for name, row, _ in table:
        analysed = row["kernels"] - row["error"] - row["unsupported"]
        share = "%d%%" % (100 * analysed / row["kernels"]) if row["kernels"] else "-"
        print("| %s | %s | %s |" % (name, " | ".join(str(row[c]) for c in cols), share))
    for name, row, causes in table:
        extra = {k: v for k, v in row.items() if k.startswith("files ") and k != "files not parsed"}
        print("\n%s%s" % (name, (" " + str(dict(extra))) if extra else ""))
        for what, counter in causes.items():
            if counter:
                print("  top %s causes: %s" % (what, "; ".join("%s (%d)" % kv for kv in counter.most_common(6))))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(all_results, out, indent=1)


if __name__ == "__main__":
    sys.exit(main())
