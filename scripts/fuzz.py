#!/usr/bin/env python3
"""Mutation fuzzer for kverify: hostile and huge inputs must end in a verdict or an error
message, never in a crash, a hang, an allocation failure or a silent exit.

usage: fuzz.py [--seed S] [--iterations N | --minutes M] [--jobs J] [--out DIR] [SEED_PATH...]
       fuzz.py --minimize DIR/<class>/<hash>.cu

Mutates the seeds (default: the .cu, .cuh and .py files under tests/fixtures and kernels)
byte by byte and CUDA-aware (lines, barriers, extreme literals, deep nesting, repeated
statements, odd `// kverify:` launch comments, truncation), runs kverify on each mutant
under a wall-clock and an address-space limit, and saves each new kind of failure (class,
last stderr line without numbers) as DIR/<class>/<hash>.<ext> with a .txt of the command,
exit status and stderr; every failing run is a line of DIR/failures.tsv. Classes: crash,
memory, hang, silent-error (exit 2, nothing said), no-summary (exit 0 or 1 without the
report's summary line), python-exception (a bug of this script). Exit status: 0 when every
run was ok, 1 when any failed, 2 on usage errors. --minimize delta-debugs one saved input
(lines, then characters) to a smaller one that fails the same way, written beside it as
<hash>.min.<ext>."""
import argparse
import collections
import concurrent.futures
import os
import shlex
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzzing import campaign, minimize, run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OPTIONS = "--timeout=2 --kernel-timeout=10 --no-cache"


def parse_arguments(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seeds", nargs="*", help="seed files or directories "
                    "(default: tests/fixtures and kernels of the repository)")
    ap.add_argument("--kverify", default=os.environ.get(
        "KVERIFY", os.path.join(ROOT, "build", "verifier", "kverify")))
    ap.add_argument("--kverify-options", default=DEFAULT_OPTIONS, metavar="OPTIONS",
                    help="kverify's options, one string (default: %(default)s)")
    ap.add_argument("--include", action="append", metavar="DIR",
                    help="clang include directory besides the seed's own "
                    "(default: kernels/include of the repository)")
    ap.add_argument("--seed", type=int, default=0, help="the campaign's random seed")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run side by side")
    ap.add_argument("--iterations", type=int, help="mutants to run")
    ap.add_argument("--minutes", type=float, help="stop starting mutants after this long")
    ap.add_argument("--out", default="fuzz-out", help="where failures are saved")
    ap.add_argument("--wall", type=float, default=60, help="seconds per run before a hang")
    ap.add_argument("--memory-gib", type=float, default=4, help="address-space limit per run")
    ap.add_argument("--minimize", metavar="FILE", help="delta-debug one saved failing input")
    ap.add_argument("--max-runs", type=int, default=2000, help="kverify runs --minimize may make")
    args = ap.parse_args(argv)
    if args.iterations is None and args.minutes is None:
        args.iterations = 100
    if args.include is None:
        default = os.path.join(ROOT, "kernels", "include")
        args.include = [default] if os.path.isdir(default) else []
    args.options = shlex.split(args.kverify_options)
    args.limits = (args.wall, int(args.memory_gib * (1 << 30)),
                   not any(o.startswith(("--format", "--output")) for o in args.options))
    return args


def fuzz(args):
    seeds = campaign.load_seeds(args.seeds or [os.path.join(ROOT, "tests", "fixtures"),
                                              os.path.join(ROOT, "kernels")])
    if not seeds:
        sys.exit("fuzz.py: no .cu, .cuh or .py seed under %s" % " ".join(args.seeds))
    known = campaign.known_failures(args.out)
    runs, distinct = collections.Counter(), collections.Counter()
    workdir = tempfile.mkdtemp(prefix="kverify-fuzz-")
    start = time.monotonic()

    def more(iteration):
        return (args.iterations is None or iteration < args.iterations) and \
            (args.minutes is None or time.monotonic() - start < args.minutes * 60)

    def one(iteration):
        """Mutant `iteration` (a function of --seed and the iteration alone) run in a folder
        of its own (--jobs run side by side)."""
        text, seed, applied = campaign.make_mutant(seeds, args.seed, iteration)
        ext = campaign.suffix(seed.path)
        folder = os.path.join(workdir, str(iteration))
        os.makedirs(folder)
        input_path = os.path.join(folder, "mutant" + ext)
        with open(input_path, "wb") as f:
            f.write(text.encode("latin-1"))
        command = campaign.kverify_command(args.kverify, args.options, input_path,
                                           [os.path.dirname(seed.path)] + args.include)
        outcome = campaign.run_guarded(command, input_path, folder, args.limits)
        return iteration, text, seed, applied, ext, command, input_path, outcome

    def record(result):
        iteration, text, seed, applied, ext, command, input_path, outcome = result
        runs[outcome.cls] += 1
        if outcome.cls != run.OK:
            log_failure(args.out, iteration, outcome, seed, applied)
        if outcome.cls != run.OK and (outcome.cls, outcome.key) not in known:
            known.add((outcome.cls, outcome.key))
            distinct[outcome.cls] += 1
            details = ["seed file: " + seed.path, "mutations: " + ", ".join(applied),
                       "iteration: %d of --seed %d" % (iteration, args.seed)]
            saved = campaign.write_failure(args.out, outcome, text, ext, command,
                                           input_path, details)
            print("[%d] %s: %s\n    %s" % (iteration, outcome.cls, outcome.key, saved),
                  flush=True)
        shutil.rmtree(os.path.dirname(input_path), ignore_errors=True)
        done = sum(runs.values())
        if done % 100 == 0:
            print("%d runs in %.0f s: %s" % (done, time.monotonic() - start, dict(runs)),
                  flush=True)

    iteration = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            pending = set()
            while pending or more(iteration):
                while len(pending) < args.jobs and more(iteration):
                    pending.add(pool.submit(one, iteration))
                    iteration += 1
                finished, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for f in finished:
                    record(f.result())
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print_summary(runs, distinct, iteration, time.monotonic() - start, args.seed)
    return 1 if any(runs[c] for c in run.FAILURE_CLASSES) else 0


def log_failure(out_dir, iteration, outcome, seed, applied):
    """One line per failing run in out_dir/failures.tsv, saved or not: a kind seen before
    may still come from other mutations (hangs all share the empty key)."""
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "failures.tsv"), "a") as f:
        f.write("\t".join([str(iteration), outcome.cls, "%.1f" % outcome.seconds,
                           ",".join(applied), seed.path, outcome.key]) + "\n")


def print_summary(runs, distinct, iterations, seconds, seed):
    print("\n%-18s %8s %10s" % ("class", "runs", "new kinds"))
    for cls in [run.OK] + run.FAILURE_CLASSES:
        print("%-18s %8d %10s" % (cls, runs[cls], "" if cls == run.OK else distinct[cls]))
    print("%d mutants in %.0f s (--seed %d)" % (iterations, seconds, seed))


def minimize_saved(args):
    """Reduces a saved input to a smaller one with the same class and key (a hang: the same
    class only, since where the run was stopped is incidental)."""
    path = os.path.abspath(args.minimize)
    stem, ext = os.path.splitext(path)
    record = campaign.read_record(stem + ".txt") if os.path.exists(stem + ".txt") else {}
    saved_command = shlex.split(record["command"]) if "command" in record else \
        campaign.kverify_command(args.kverify, args.options, path, args.include)
    workdir = tempfile.mkdtemp(prefix="kverify-minimize-")
    candidate = os.path.join(workdir, "input" + ext)
    command = [candidate if os.path.basename(a) == os.path.basename(path) else a
               for a in saved_command]

    def outcome_of(text):
        with open(candidate, "wb") as f:
            f.write(text.encode("latin-1"))
        return campaign.run_guarded(command, candidate, workdir, args.limits)

    try:
        with open(path, "rb") as f:
            original = f.read().decode("latin-1")
        target = outcome_of(original)
        print("%s: %s: %s (%d bytes)" % (path, target.cls, target.key, len(original)))
        if target.cls == run.OK:
            print("fuzz.py: the input does not fail (any more); nothing to minimize")
            return 2

        def fails_alike(text):
            got = outcome_of(text)
            return got.cls == target.cls and (got.cls == run.HANG or got.key == target.key)

        smallest = minimize.minimize(original, fails_alike, args.max_runs, log=print)
        final = outcome_of(smallest)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    minimized = stem + ".min" + ext
    with open(minimized, "wb") as f:
        f.write(smallest.encode("latin-1"))
    campaign.write_record(minimized, final, [a if a != candidate else minimized for a in command])
    print("%s (%d bytes)" % (minimized, len(smallest)))
    return 1


def main(argv):
    args = parse_arguments(argv)
    return minimize_saved(args) if args.minimize else fuzz(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
