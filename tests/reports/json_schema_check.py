#!/usr/bin/env python3
"""kverify's JSON report against its schema, docs/report.schema.json.

First the schema's enums (verdicts, rules, assumption kinds, confirmation statuses and
tools, --stats stages) are compared with the names the code defines, and the example in
docs/REPORT.md is validated. Then it runs `kverify --format=json` on fixtures that give
every verdict (verified, benign-race, race, divergence, oob, vacuous, unknown,
unsupported, error) and the report's optional parts (skipped templates, front-end notes,
inlined calls, dead code, annotations not checked, a witness's memory, Python files,
--confirm), each three times: into a fresh result cache, again from that cache, and with
--stats. Every report must validate, each case's verdicts must be the expected ones, and
every optional part must show up somewhere. A self-check then breaks valid reports (an
unknown verdict, extra fields, a witness of the wrong shape) and requires the validator to
reject each, so the test cannot pass with a schema that accepts anything.
Exit 0: all good; 1: a check failed; 77: python3 jsonschema is not installed (CTest
reports the test as skipped).
"""
import argparse
import copy
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIP = 77

# (fixture under tests/fixtures, kverify's options after those of its `// kverify:` line,
#  the kernels' verdicts in report order, what the case is there for)
CASES = [
    ("verifier/matmul_tiled_ok.cu", [], ["verified"], "verified, --assume"),
    ("verifier/scan_hillis_steele_inplace_race.cu", [], ["race"], "race, phases, loops"),
    ("verifier/bfs_frontier_flags_benign_race.cu", [], ["benign-race"], "benign race"),
    ("verifier/early_return_before_barrier_divergence.cu", [], ["divergence"], "divergence"),
    ("verifier/histogram64_rotating_index_off_by_one_oob.cu", [], ["oob"],
     "oob: one thread, the loop iteration of thread 0"),
    ("verifier/unreachable_guard_vacuous.cu", [], ["vacuous"], "vacuous: unreachable code"),
    ("verifier/matmul_tiled_ok.cu", ["--kernel-timeout=0.001"], ["unknown"],
     "unknown: out_of_time, undecided"),
    ("verifier/unsupported_recursion.cu", [], ["unsupported"], "unsupported"),
    ("frontend/bad_syntax.cu", [], ["error"], "a file that does not parse"),
    ("premises/contradictory_kv_assume.cu", [], ["error"], "contradictory premises: diagnostics"),
    ("frontend/templates.cu", [], ["oob", "verified"], "skipped templates"),
    ("frontend/missing_include.cu", [], ["race"], "front-end notes"),
    ("verifier/device_function_race.cu", [], ["race"], "called_from"),
    ("verifier/constant_false_branch_ok.cu", [], ["verified"], "dead code by construction"),
    ("verifier/gpuverify_requires_ok.cu", [], ["verified"], "not-checked assumptions"),
    ("verifier/stream_compaction_step_param_race.cu", [], ["race"], "witness memory, param_order"),
    ("frontend/host_code.cu", [], ["verified"], "a launch read from host code"),
    ("python/pycuda_two_launches.py", [], ["verified", "oob"], "a .py file, two launches"),
    ("python/unsupported_source_from_file.py", [], ["unsupported"], "a .py file kverify cannot read"),
]

# With --confirm the findings carry a confirmation (on a machine without a GPU: "not run").
CONFIRM_CASE = "verifier/scan_hillis_steele_inplace_race.cu"

# Optional parts of the report the cases above must show (a path of keys, [] for a list's
# items, * for any key; the value, where it matters), so that a fixture changed to give a
# simpler report does not leave them unchecked. Only out_of_memory is not produced.
COVERED = [
    "/skipped[]/reason", "/notes[]/severity", "/file_stats[]/parse_ms",
    "/kernels[]/unsupported[]/construct", "/kernels[]/diagnostics[]/severity",
    "/kernels[]/unknown_query", "/kernels[]/undecided[]", "/kernels[]/out_of_time",
    "/kernels[]/unreachable[]/because[]", "/kernels[]/unreachable[]/by_construction",
    "/kernels[]/phases[]/begin/line", "/kernels[]/rules/*", "/kernels[]/stats[]/stage",
    "/kernels[]/end_line", "/kernels[]/findings[]/array", "/kernels[]/findings[]/space",
    "/kernels[]/findings[]/explanation", "/kernels[]/findings[]/confirmation/status",
    "/kernels[]/findings[]/confirmation/tool", "/kernels[]/findings[]/confirmation/program",
    "/kernels[]/findings[]/accesses[]/called_from[]/function",
    "/kernels[]/findings[]/witness/thread2/threadIdx[]", "/kernels[]/findings[]/witness/index",
    "/kernels[]/findings[]/witness/param_order[]", "/kernels[]/findings[]/witness/params/*",
    "/kernels[]/findings[]/witness/loops[]/iteration", "/kernels[]/findings[]/witness/memory[]/value",
    ("/kernels[]/assumptions[]/kind", "launch"), ("/kernels[]/assumptions[]/kind", "assumed"),
    ("/kernels[]/assumptions[]/kind", "not-checked"), ("/kernels[]/name", "<file>"),
]

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def header_options(path):
    """The options of a fixture's `// kverify:` header line (as the corpus tests read it)."""
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("//"):
                break
            if line.startswith("// kverify:"):
                return shlex.split(line[len("// kverify:"):])
    return []


def paths(doc, at="", out=None):
    """Every (path, value) of doc: keys of rules, params and summary are *."""
    out = set() if out is None else out
    if isinstance(doc, dict):
        for k, v in doc.items():
            p = at + "/" + ("*" if at.endswith(("/rules", "/params", "/summary")) else k)
            out.add((p, None))
            paths(v, p, out)
    elif isinstance(doc, list):
        for v in doc:
            out.add((at + "[]", None))
            paths(v, at + "[]", out)
    elif isinstance(doc, (str, bool, int, float)):
        out.add((at, doc))
    return out


def schema_errors(validator, doc):
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(root)", e.message)
            for e in validator.iter_errors(doc)]


def run_kverify(kverify, args, what):
    """kverify's JSON report on stdout, parsed (None, and a failure, when there is none),
    and its stderr."""
    p = subprocess.run([kverify, "--format=json"] + args, capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 1, 2):
        fail("%s: exit status %d; stderr:\n%s" % (what, p.returncode, p.stderr))
    try:
        return json.loads(p.stdout), p.stderr
    except ValueError as e:
        fail("%s: no JSON report (%s); stderr:\n%s" % (what, e, p.stderr))
        return None, p.stderr


def check_report(validator, doc, what, verdicts):
    errors = schema_errors(validator, doc)
    for e in errors:
        fail("%s: schema: %s" % (what, e))
    got = [k.get("verdict") for k in doc.get("kernels", [])]
    if verdicts is not None and got != verdicts:
        fail("%s: verdicts %s, expected %s" % (what, got, verdicts))
    return not errors


def check_fixtures(args, validator, work):
    """Every case's report, from a fresh cache, from that cache and with --stats."""
    valid = {}
    seen_verdicts = set()
    seen = set()
    from_cache = 0
    cache = "--cache-dir=" + os.path.join(work, "cache")
    for fixture, options, verdicts, purpose in CASES:
        src = os.path.join(args.fixtures, fixture)
        opts = header_options(src) + options
        # (--stats reads and writes no results in the cache; the prelude's PCH goes there)
        for mode, extra in (("", [cache]), (" (cached)", [cache]), (" --stats", [cache, "--stats"])):
            what = shlex.join([fixture] + opts) + mode
            doc, stderr = run_kverify(args.kverify, extra + opts + [src], what)
            if doc is None:
                continue
            if mode == " (cached)" and "from cache" in stderr:
                from_cache += 1
            ok = check_report(validator, doc, what, verdicts)
            if mode == " --stats":
                if "file_stats" not in doc:
                    fail("%s: no file_stats" % what)
                # kernels that are unsupported or do not compile have no analysis to time
                if any(k["verdict"] not in ("unsupported", "error") and "stats" not in k
                       for k in doc["kernels"]):
                    fail("%s: an analysed kernel without stats" % what)
            elif ok:
                valid.setdefault(fixture, doc)
            seen_verdicts.update(k.get("verdict") for k in doc.get("kernels", []))
            paths(doc, "", seen)
            print("%s: %s, %s" % (what, [k.get("verdict") for k in doc.get("kernels", [])],
                                  "schema ok" if ok else "SCHEMA ERRORS"))
    if not from_cache:
        fail("no second run read its results from the cache: the cached reports were not checked")
    verdict_names = set(validator.schema.get("$defs", {}).get("verdict", {}).get("enum", []))
    if seen_verdicts != verdict_names:
        fail("the fixtures give the verdicts %s, not every one of %s" % (sorted(seen_verdicts),
                                                                        sorted(verdict_names)))
    return valid, seen


def check_covered(seen):
    """Each optional part of the report was in some report that was validated."""
    keys = {p for p, _ in seen}
    for c in COVERED:
        path, value = c if isinstance(c, tuple) else (c, None)
        if (path not in keys) if value is None else ((path, value) not in seen):
            shown = path if value is None else "%s = %r" % (path, value)
            fail("no report had %s: a case no longer shows it" % shown)
    print("%d optional parts of the report covered" % len(COVERED))


def check_confirm(args, validator, work):
    """--confirm --confirm-dir, the report written with --json=FILE."""
    fixture = CONFIRM_CASE
    opts = header_options(os.path.join(args.fixtures, fixture))
    out = os.path.join(work, "confirm.json")
    cmd = [args.kverify, "--cache-dir=" + os.path.join(work, "cache"), "--confirm",
           "--confirm-dir=" + os.path.join(work, "replays"), "--json=" + out]
    p = subprocess.run(cmd + opts + [os.path.join(args.fixtures, fixture)], capture_output=True, text=True,
                       timeout=600)
    try:
        with open(out) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail("--confirm: no JSON report in --json=FILE (%s); stderr:\n%s" % (e, p.stderr))
        return None, False
    ok = check_report(validator, doc, "--confirm " + fixture, ["race"])
    statuses = [f.get("confirmation", {}).get("status") for k in doc["kernels"] for f in k["findings"]]
    if not statuses or None in statuses:
        fail("--confirm: a finding without a confirmation: %s" % statuses)
    print("--confirm %s: confirmation %s, %s" % (fixture, statuses, "schema ok" if ok else "SCHEMA ERRORS"))
    return doc, ok


def check_examples(validator, page):
    """The JSON examples of docs/REPORT.md are reports the schema accepts."""
    try:
        with open(page) as f:
            blocks = re.findall(r"```json\n(.*?)```", f.read(), re.S)
    except OSError as e:
        fail("cannot read %s: %s" % (page, e))
        return
    if not blocks:
        fail("%s has no JSON example" % page)
    for i, block in enumerate(blocks):
        try:
            doc = json.loads(block)
        except ValueError as e:
            fail("%s: example %d is not JSON: %s" % (page, i + 1, e))
            continue
        for e in schema_errors(validator, doc):
            fail("%s: example %d: schema: %s" % (page, i + 1, e))
    print("%s: %d JSON example(s) checked" % (os.path.basename(page), len(blocks)))


def read(source, path):
    with open(os.path.join(source, path)) as f:
        return f.read()


def check_enums(source, schema):
    """The schema's enums are the names the code defines (the name functions' switches),
    so a new verdict, rule, kind or stage fails here until the schema lists it."""
    d = schema.get("$defs", {})
    result = read(source, "verifier/result/result.hpp")
    analysis = "".join(read(source, os.path.join("verifier/analysis", f))
                       for f in sorted(os.listdir(os.path.join(source, "verifier/analysis")))
                       if f.endswith(".cpp"))

    def cases(text, enum):
        return set(re.findall(r"case %s::\w+:\s*return \"([^\"]+)\";" % re.escape(enum), text))

    def schema_enum(*path):
        node = d
        for p in path:
            node = node.get(p, {}) if isinstance(node, dict) else {}
        return set(node.get("enum", [])) if isinstance(node, dict) else set()

    kernel = d.get("kernel", {}).get("properties", {})
    assumption_kind = kernel.get("assumptions", {}).get("items", {}).get("properties", {}).get("kind", {})
    confirmation = d.get("confirmation", {}).get("properties", {})
    stages = set(re.findall(r"\bStage\s*\w*\(\s*\"(\w+)\"", analysis) +
                 re.findall(r"run(?:Stage|Check)\(\"(\w+)\"", analysis) +
                 re.findall(r"optional<Stage>\s*\w+\(std::in_place,\s*\"(\w+)\"", analysis))
    checks = [
        ("verdicts", cases(result, "Verdict"), schema_enum("verdict")),
        ("rules", cases(result, "Rule"), schema_enum("rule")),
        ("assumption kinds", cases(result, "Assumption::Kind"), set(assumption_kind.get("enum", []))),
        ("confirmation statuses", cases(result, "Confirmation::Status") - {"not asked"},
         set(confirmation.get("status", {}).get("enum", []))),
        ("confirmation tools", cases(read(source, "verifier/confirm/program.cpp"), "Tool"),
         set(confirmation.get("tool", {}).get("enum", []))),
        ("--stats stages", stages, schema_enum("stage")),
    ]
    for what, code, listed in checks:
        if not code:
            fail("no %s found in the code: the patterns this check reads them with are out of date" % what)
        elif code != listed:
            fail("%s: in the code, not in the schema: %s; in the schema, not in the code: %s" %
                 (what, sorted(code - listed), sorted(listed - code)))
        else:
            print("%s: the schema lists the code's %d" % (what, len(code)))


def self_check(validator, valid, confirmed):
    """Reports broken on purpose must fail validation; variants the writer can produce pass."""
    race = valid.get("verifier/scan_hillis_steele_inplace_race.cu")
    oob = valid.get("verifier/histogram64_rotating_index_off_by_one_oob.cu")
    if race is None or oob is None or confirmed is None:
        fail("self-check: no valid race, oob or --confirm report to start from")
        return

    def breaks(name, doc, mutate):
        bad = copy.deepcopy(doc)
        mutate(bad)
        if schema_errors(validator, bad):
            print("self-check: rejected as it must be: %s" % name)
        else:
            fail("self-check: the schema accepts a report with %s" % name)

    def accepts(name, doc, mutate):
        good = copy.deepcopy(doc)
        mutate(good)
        errors = schema_errors(validator, good)
        if errors:
            fail("self-check: the schema rejects a report with %s: %s" % (name, errors[0]))
        else:
            print("self-check: accepted as it must be: %s" % name)

    def setitem(path, key, value):
        def mutate(doc):
            node = doc
            for p in path:
                node = node[p]
            node[key] = value
        return mutate

    def finding(d):
        return d["kernels"][0]["findings"][0]

    breaks("an unknown verdict name ('racy')", race, setitem(["kernels", 0], "verdict", "racy"))
    breaks("a verdict name in another spelling ('benign_race')", race,
           setitem(["kernels", 0], "verdict", "benign_race"))
    breaks("an extra field in a kernel", race, setitem(["kernels", 0], "severity", "high"))
    breaks("an extra field at the top", race, setitem([], "version", 1))
    breaks("an extra field in a witness", race,
           setitem(["kernels", 0, "findings", 0, "witness"], "thread3", {}))
    breaks("an extra field in an access", race,
           setitem(["kernels", 0, "findings", 0, "accesses", 0], "note", ""))
    breaks("an extra key in the summary", race, setitem(["summary"], "racy", 1))
    breaks("a kernel without its verdict", race, lambda d: d["kernels"][0].pop("verdict"))
    breaks("a finding of kind 'unknown'", race, setitem(["kernels", 0, "findings", 0], "kind", "unknown"))
    breaks("an unknown rule name", race, setitem(["kernels", 0, "rules"], "closed_form.mul", 1))
    breaks("an unknown assumption kind", race, setitem(["kernels", 0, "assumptions", 0], "kind", "assume"))
    breaks("a blockDim of two components", race,
           setitem(["kernels", 0, "findings", 0, "witness"], "blockDim", [256, 1]))
    breaks("a race witness without thread2", race, lambda d: finding(d)["witness"].pop("thread2"))
    breaks("an oob witness with a thread2", oob,
           setitem(["kernels", 0, "findings", 0, "witness"], "thread2", finding(oob)["witness"]["thread1"]))
    breaks("end_line without end_col", race, lambda d: d["kernels"][0].pop("end_col"))
    breaks("a confirmation status 'not asked'", confirmed,
           setitem(["kernels", 0, "findings", 0, "confirmation"], "status", "not asked"))
    accepts("a confirmed finding with the run's output", confirmed,
            lambda d: finding(d)["confirmation"].update(status="confirmed", output="========= RACECHECK"))
    accepts("a kernel out of memory", race, setitem(["kernels", 0], "out_of_memory", True))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kverify", required=True)
    ap.add_argument("--schema", required=True, help="docs/report.schema.json")
    ap.add_argument("--fixtures", required=True, help="tests/fixtures")
    ap.add_argument("--source", required=True, help="the repository (for the enums' names in the code)")
    args = ap.parse_args()
    try:
        import jsonschema
    except ImportError:
        print("SKIP: python3 jsonschema is not installed (Debian: python3-jsonschema)")
        return SKIP
    with open(args.schema) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    work = tempfile.mkdtemp(prefix="kv_json_schema_")
    try:
        check_enums(args.source, schema)
        check_examples(validator, os.path.join(args.source, "docs", "REPORT.md"))
        valid, seen = check_fixtures(args, validator, work)
        confirmed, ok = check_confirm(args, validator, work)
        if confirmed is not None:
            paths(confirmed, "", seen)
        check_covered(seen)
        self_check(validator, valid, confirmed if ok else None)
    finally:
        shutil.rmtree(work)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
