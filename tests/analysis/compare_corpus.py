#!/usr/bin/env python3
"""Compare kverify's JSON verdicts with the fixture headers (// expect: ...).

usage: compare_corpus.py <fixtures dir> <kverify JSON report>
Prints one line per mismatch and a summary; exit 1 on any mismatch."""
import json, os, re, sys

def expectations(path):
    out = []
    for line in open(path, encoding="utf-8", errors="replace"):
        if not line.startswith("//"):
            break
        m = re.match(r"//\s*expect:\s*(?:(\S+):\s+)?(\w+)(?:\s+on\s+(\S+))?", line)
        if m:
            out.append((m.group(1), m.group(2), m.group(3)))
    return out

def main():
    d, report = sys.argv[1], sys.argv[2]
    run = json.load(open(report))
    by_file = {}
    for k in run["kernels"]:
        by_file.setdefault(os.path.basename(k["file"]), []).append(k)
    bad = ok = 0
    for name in sorted(os.listdir(d)):
        if not name.endswith(".cu"):
            continue
        exp = expectations(os.path.join(d, name))
        got = by_file.get(name, [])
        for kernel, verdict, array in exp:
            ks = [k for k in got if kernel is None or k["name"].split("<")[0] == kernel or k["name"] == kernel]
            if not ks:
                print("MISSING %s: no result" % name); bad += 1; continue
            vs = set(k["verdict"] for k in ks)
            arrays = set(f.get("array") for k in ks for f in k.get("findings", []))
            good = vs == {verdict} and (array is None or array in arrays)
            # soundness: a racy fixture must never be verified, a race-free one never get a finding
            if good:
                ok += 1
            else:
                bad += 1
                detail = "; ".join("%s%s" % (k["verdict"], (" [" + k.get("unknown_query", "") + "]") if k["verdict"] == "unknown" else "") for k in ks)
                print("MISMATCH %s: expected %s%s, got %s arrays=%s" % (name, verdict, " on " + array if array else "", detail, sorted(a for a in arrays if a)))
    print("%d match, %d mismatch" % (ok, bad))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
