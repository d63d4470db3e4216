#!/usr/bin/env python3
"""kverify's SARIF against the official SARIF 2.1.0 schema, and its fingerprints.

Runs `kverify --format=sarif` on fixtures of every outcome (race, benign race,
divergence, oob, verified, unsupported, files that do not parse, contradictory
premises), validates each output with jsonschema, and checks that partialFingerprints
survive lines inserted above a kernel and tell different findings apart. Exit 0: all good; 1: a check failed;
77: python3 jsonschema is not installed (CTest reports the test as skipped).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
KEY = "kverifyFindingHash/v1"

# (fixture, clang arguments, kverify's exit status, the rule ids its results must have)
CASES = [
    ("verifier/scan_hillis_steele_inplace_race.cu", [], 1, {"KV001-data-race"}),
    ("verifier/bfs_frontier_flags_benign_race.cu", [], 0, {"KV007-benign-race"}),
    ("verifier/early_return_before_barrier_divergence.cu", [], 1, {"KV002-barrier-divergence"}),
    ("verifier/shared_oob_neighbor_read.cu", [], 1, {"KV003-shared-out-of-bounds"}),
    ("verifier/matmul_tiled_ok.cu", [], 0, set()),
    ("verifier/unsupported_recursion.cu", [], 0, {"KV005-unsupported"}),
    ("frontend/bad_syntax.cu", [], 2, {"KV006-error"}),
    # clang's error without a source location: the result names the file only
    ("verifier/matmul_tiled_ok.cu", ["--", "-fno-such-flag"], 2, {"KV006-error"}),
    ("premises/contradictory_kv_assume.cu", [], 2, {"KV006-error"}),
]

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run_kverify(kverify, files, cwd, out):
    """kverify's exit status and its parsed SARIF (None when unreadable)."""
    cmd = [kverify, "--format=sarif", "--output=" + out] + files
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    try:
        with open(os.path.join(cwd, out)) as f:
            return p.returncode, json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: no SARIF (%s); stderr:\n%s" % (" ".join(files), e, p.stderr))
        return p.returncode, None


def schema_errors(validator, doc):
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(root)", e.message)
            for e in validator.iter_errors(doc)]


def results(doc):
    return doc["runs"][0].get("results", [])


def fingerprints(doc):
    """Every result's fingerprint, failing on results without a well-formed one."""
    out = []
    for r in results(doc):
        fp = r.get("partialFingerprints", {}).get(KEY, "")
        if not re.fullmatch(r"[0-9a-f]{64}", fp):
            fail("result %s has no %s hash: %r" % (r.get("ruleId"), KEY, fp))
        out.append(fp)
    return out


def start_line(result):
    return result["locations"][0]["physicalLocation"]["region"]["startLine"]


def check_fixtures(args, validator, work):
    valid = []
    for fixture, clang_args, status, rules in CASES:
        src = os.path.join(args.fixtures, fixture)
        code, doc = run_kverify(args.kverify, [src] + clang_args, work, "one.sarif")
        if doc is None:
            continue
        errors = schema_errors(validator, doc)
        for e in errors:
            fail("%s: schema: %s" % (fixture, e))
        got = {r.get("ruleId") for r in results(doc)}
        if code != status:
            fail("%s: exit status %d, expected %d" % (fixture, code, status))
        if got != rules:
            fail("%s: rules %s, expected %s" % (fixture, sorted(got), sorted(rules)))
        fingerprints(doc)
        if not errors:
            valid.append(doc)
        print("%-55s exit %d, %d results, %s" % (
            " ".join([fixture] + clang_args), code, len(results(doc)), "schema ok" if not errors else "SCHEMA ERRORS"))
    # The validator itself must catch a violation, or the checks above prove nothing.
    if valid:
        bad = valid[0]
        bad["runs"][0]["results"].append({"ruleId": "x", "level": "fatal", "message": {}})
        if not schema_errors(validator, bad):
            fail("the schema accepts an invalid result: the validation is not working")


def check_distinct(args, work):
    """All findings of one run over every fixture have distinct fingerprints."""
    srcs = sorted({os.path.join(args.fixtures, c[0]) for c in CASES})
    _, doc = run_kverify(args.kverify, srcs, work, "all.sarif")
    if doc is None:
        return
    fps = fingerprints(doc)
    if len(fps) < 6 or len(set(fps)) != len(fps):
        fail("fingerprints of one run over the fixtures are not distinct: %s" % fps)
    print("%d results in one run, %d distinct fingerprints" % (len(fps), len(set(fps))))


def check_shift(args, work, fixture):
    """A finding keeps its fingerprint when blank lines are inserted above its kernel."""
    with open(os.path.join(args.fixtures, fixture)) as f:
        lines = f.readlines()
    header = 0
    while header < len(lines) and lines[header].startswith("//"):
        header += 1
    shifted = lines[:header] + ["\n"] * 7 + lines[header:]
    docs = []
    for name, text in (("orig", lines), ("shifted", shifted)):
        d = os.path.join(work, os.path.basename(fixture), name)
        os.makedirs(d)
        with open(os.path.join(d, "kernel.cu"), "w") as f:
            f.writelines(text)
        # The same relative path in both runs: the path is part of the fingerprint.
        docs.append(run_kverify(args.kverify, ["kernel.cu"], d, "out.sarif")[1])
    if None in docs:
        return
    a, b = (results(d) for d in docs)
    if not a or len(a) != len(b):
        fail("%s shifted: %d results, original %d" % (fixture, len(b), len(a)))
        return
    for ra, rb, fa, fb in zip(a, b, fingerprints(docs[0]), fingerprints(docs[1])):
        if start_line(rb) != start_line(ra) + 7:
            fail("%s shifted: line %d, expected %d" % (fixture, start_line(rb), start_line(ra) + 7))
        if fa != fb:
            fail("%s: fingerprint changed when lines were inserted above the kernel" % fixture)
    print("%s shifted: %d results moved 7 lines, fingerprints kept" % (fixture, len(a)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kverify", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--fixtures", required=True, help="tests/fixtures")
    args = ap.parse_args()
    try:
        import jsonschema
    except ImportError:
        print("SKIP: python3 jsonschema is not installed (Debian: python3-jsonschema)")
        return SKIP
    with open(args.schema) as f:
        schema = json.load(f)
    jsonschema.Draft4Validator.check_schema(schema)
    validator = jsonschema.Draft4Validator(schema)
    work = tempfile.mkdtemp(prefix="kv_sarif_")
    try:
        check_fixtures(args, validator, work)
        check_distinct(args, work)
        check_shift(args, work, "verifier/scan_hillis_steele_inplace_race.cu")
        # its message names the assumptions' line:col
        check_shift(args, work, "premises/contradictory_kv_assume.cu")
    finally:
        shutil.rmtree(work)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
