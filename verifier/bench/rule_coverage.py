#!/usr/bin/env python3
"""Which precision rules and model node kinds a corpus exercises: the fixtures against the
random kernel generator (tests/differential/kernel_gen.hpp).

For each corpus, kverify runs once with --format=json (each kernel's "rules": the precision
rules the analysis applied, result/result.hpp's Rule) and once with --dump-model (the
statement and expression kinds of each kernel's model). Prints two tables: per rule and
per node kind, in how many kernels of each corpus it occurs (and how often in all), and
lists the rules the generator never exercises.

  verifier/bench/rule_coverage.py [--build build] [-n 200] [--seed 1] [-j 2] [--out FILE]
"""
import argparse
import collections
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]

# result/result.hpp's Rule, in its order (names as the JSON report writes them)
RULES = [
    "closed_form.add", "closed_form.shift", "closed_form.affine", "closed_form.flip",
    "closed_form.swap", "closed_form.set", "loop.induction_no_wrap", "loop.havoc_uniform",
    "loop.shared_trips", "loop.range_invariant", "loop.constant_invariant", "value.read_only",
    "value.array_premise",
    "value.shared_reads", "value.reread", "value.block_vote", "ticket", "ticket.block",
    "benign.same_value", "benign.own_value", "message_passing", "uniform_barriers",
]


class Tally:
    """Per key: the kernels it occurs in, and its total count."""

    def __init__(self):
        self.kernels = collections.Counter()
        self.total = collections.Counter()
        self.n = 0

    def add_kernel(self, counts):
        self.n += 1
        for key, value in counts.items():
            if value:
                self.kernels[key] += 1
                self.total[key] += value


def run_json(kverify, files, jobs, extra):
    """kverify's JSON output over `files` (in batches: the command line stays short)."""
    docs = []
    for i in range(0, len(files), 100):
        cmd = [str(kverify), "--no-cache", f"-j{jobs}", *extra, *map(str, files[i:i + 100])]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if not out.stdout.strip():
            sys.exit(f"rule_coverage: {' '.join(cmd[:4])} ... printed nothing:\n{out.stderr[-2000:]}")
        docs.append(json.loads(out.stdout))
    return docs


def node_kinds(body):
    """Counts of the model's statement and expression kinds in a kernel body."""
    counts = collections.Counter()

    def expr(e):
        if not isinstance(e, dict) or "kind" not in e:
            return
        kind = e["kind"]
        counts["expr." + kind + ("." + e["op"] if kind in ("binary", "unary") and "op" in e else "")] += 1
        for a in e.get("args", []):
            expr(a)

    def stmts(ss):
        for s in ss:
            kind = s.get("stmt", "?")
            sub = {"access": "access", "barrier": "barrier", "loop": "loop"}.get(kind)
            counts["stmt." + kind + ("." + str(s.get(sub)) if sub else "")] += 1
            for key in ("index", "operand", "value", "cond", "mask", "predicate", "order"):
                expr(s.get(key))
            for key in ("then", "else", "body", "step"):
                if isinstance(s.get(key), list):
                    stmts(s[key])

    stmts(body)
    return counts


def corpus(kverify, files, jobs):
    rules, kinds = Tally(), Tally()
    verdicts = collections.Counter()
    for doc in run_json(kverify, files, jobs, ["--format=json"]):
        for k in doc.get("kernels", []):
            verdicts[k.get("verdict", "?")] += 1
            rules.add_kernel(k.get("rules", {}))
    for doc in run_json(kverify, files, jobs, ["--dump-model"]):
        for f in doc.get("files", []):
            for k in f.get("kernels", []):
                counts = node_kinds(k.get("body", []))
                for a in k.get("arrays", []):
                    shape = "struct" if a.get("elem_type") == "other" else "scalar"
                    counts[f"array.{a.get('space')}.{shape}"] += 1
                kinds.add_kernel(counts)
    return rules, kinds, verdicts


def table(title, keys, a, b):
    lines = [f"| {title} | fixtures: kernels (count) | generator: kernels (count) |", "|---|---|---|"]
    for key in keys:
        lines.append(f"| {key} | {a.kernels[key]} ({a.total[key]}) | {b.kernels[key]} ({b.total[key]}) |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="build directory (kverify, the export tool)")
    ap.add_argument("--fixtures", default=str(ROOT / "tests/fixtures/verifier"))
    ap.add_argument("-n", type=int, default=200, help="generated kernels")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--out", help="also write the tables (markdown) here")
    args = ap.parse_args()
    build = pathlib.Path(args.build)
    if not build.is_absolute():
        build = ROOT / build
    kverify = build / "verifier/kverify"
    export = build / "tests/differential/differential_export_gpu_cases"
    for tool in (kverify, export):
        if not tool.exists():
            sys.exit(f"rule_coverage: {tool} not built")

    fixtures = sorted(pathlib.Path(args.fixtures).glob("*.cu"))
    with tempfile.TemporaryDirectory(prefix="kverify_rules_") as tmp:
        subprocess.run([str(export), tmp, str(args.n), str(args.seed), "--kernels-only"], check=True,
                       capture_output=True)
        generated = sorted(pathlib.Path(tmp).glob("kernel_*.cu"))
        fr, fk, fv = corpus(kverify, fixtures, args.j)
        gr, gk, gv = corpus(kverify, generated, args.j)

    rule_keys = RULES + sorted((set(fr.kernels) | set(gr.kernels)) - set(RULES))
    kind_keys = sorted(set(fk.kernels) | set(gk.kernels))
    out = [f"fixtures: {len(fixtures)} files, {fr.n} kernels, verdicts {dict(sorted(fv.items()))}",
           f"generator: {len(generated)} kernels (seed {args.seed}), verdicts {dict(sorted(gv.items()))}",
           "", table("rule", rule_keys, fr, gr), "", table("model node kind", kind_keys, fk, gk), ""]
    missing = [r for r in rule_keys if not gr.kernels[r]]
    out.append("rules the generator never exercises: " + (", ".join(missing) if missing else "none"))
    missing_kinds = [k for k in kind_keys if fk.kernels[k] and not gk.kernels[k]]
    out.append("node kinds of the fixtures the generator never makes: " +
               (", ".join(missing_kinds) if missing_kinds else "none"))
    text = "\n".join(out)
    print(text)
    if args.out:
        pathlib.Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
