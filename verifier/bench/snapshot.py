#!/usr/bin/env python3
"""Record what kverify says about every .cu file under some folders, and compare two records.

usage: snapshot.py record [--kverify BIN] [--args "ARGS"] [-j N] OUT.json DIR...
       snapshot.py compare BEFORE.json AFTER.json

For refactorings that must not change behaviour: `record` keeps, per kernel, the verdict,
each finding's kind and array and whether its witness was validated, the unreachable code,
unsupported constructs, diagnostics, phases and assumptions. Witnesses, and which of
several racing pairs stands for an array, are the solver's choice and left out. GPUVerify
header flags (`//--blockDim=...`) are honoured as in corpus_report.py; `--args` adds kverify
arguments (`--no-cache`, where the binary has a result cache). `compare` prints
every difference and exits 1 when there is one."""
import argparse, json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_report import header  # noqa: E402


def where(a):
    return "%s:%s:%s %s" % (os.path.basename(a.get("file", "")), a.get("line"), a.get("col"), a.get("kind", ""))


def assumption(a):
    """As the text report shows it (a report before assumptions were typed has strings)."""
    if isinstance(a, str):
        return a
    prefix = {"assumed": "assumed: ", "not-checked": "not checked: "}.get(a.get("kind"), "")
    return prefix + a.get("text", "")


def kernel_view(k):
    return {
        "verdict": k["verdict"],
        # which racing pair (and which index) stands for an array is the model's choice
        "findings": sorted(set(
            "%s on %s, validated=%s" % (f["kind"], f.get("array") or where(f["accesses"][0]),
                                        f.get("witness", {}).get("validated"))
            for f in k.get("findings", []))),
        "unreachable": sorted(where(a) for a in k.get("unreachable", [])),
        "unsupported": sorted(u.get("construct", "") + ": " + u.get("detail", "") for u in k.get("unsupported", [])),
        "diagnostics": sorted(d.get("severity", "") + ": " + d.get("message", "") for d in k.get("diagnostics", [])),
        "phases": ["%s-%s %d" % (where(p["begin"]), where(p["end"]), p["accesses"]) for p in k.get("phases", [])],
        "assumptions": [assumption(a) for a in k.get("assumptions", [])],
    }


def record_one(kverify, args, path):
    _, flags = header(path)
    p = subprocess.run([kverify, "--format=json"] + args + flags + [path], capture_output=True, text=True, timeout=600)
    try:
        kernels = json.loads(p.stdout)["kernels"]
    except (ValueError, KeyError):
        return {"exit": p.returncode, "stderr": p.stderr.strip().splitlines()[-1:]}
    return {"exit": p.returncode, "kernels": {k["name"]: kernel_view(k) for k in kernels}}


def record(args):
    files = sorted(os.path.join(r, f) for d in args.dirs for r, _, fs in os.walk(d) for f in fs if f.endswith(".cu"))
    with ThreadPoolExecutor(args.j) as pool:
        views = list(pool.map(lambda f: record_one(args.kverify, args.args.split(), f), files))
    with open(args.out, "w") as out:
        json.dump(dict(zip((os.path.relpath(f) for f in files), views)), out, indent=1, sort_keys=True)
    print("recorded %d files in %s" % (len(files), args.out))


def compare(args):
    before, after = (json.load(open(p)) for p in (args.before, args.after))
    differences = 0
    for f in sorted(set(before) | set(after)):
        b, a = before.get(f), after.get(f)
        if b != a:
            differences += 1
            print("%s\n  before: %s\n  after:  %s" % (f, json.dumps(b, sort_keys=True), json.dumps(a, sort_keys=True)))
    print("%d files, %d differ" % (len(set(before) | set(after)), differences))
    return 1 if differences else 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--kverify", default=os.path.join(here, "..", "..", "build", "verifier", "kverify"))
    r.add_argument("--args", default="", help="more kverify arguments, e.g. --no-cache")
    r.add_argument("-j", type=int, default=os.cpu_count())
    r.add_argument("out")
    r.add_argument("dirs", nargs="+")
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = ap.parse_args()
    return record(args) if args.cmd == "record" else compare(args)


if __name__ == "__main__":
    sys.exit(main() or 0)
