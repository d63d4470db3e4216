"""A fuzzing campaign: seeds in, mutants through kverify, failures saved once per kind.

Mutant i of a campaign depends only on the seeds, --seed and i (its own random generator),
so a failure found after an hour is mutant i of any run with the same seed."""
import collections
import hashlib
import os
import random
import re
import shlex
import signal
import traceback

from fuzzing import mutate, run

SOURCE_SUFFIXES = (".cu", ".cuh", ".py")
Seed = collections.namedtuple("Seed", "path text")


def load_seeds(paths):
    """Every .cu, .cuh and .py file under `paths`, in a fixed order."""
    files = []
    for path in paths:
        if os.path.isfile(path):
            files.append(path)
        for root, _dirs, names in os.walk(path):
            files += [os.path.join(root, n) for n in names if n.endswith(SOURCE_SUFFIXES)]
    seeds = []
    for path in sorted(set(os.path.abspath(f) for f in files)):
        with open(path, "rb") as f:
            seeds.append(Seed(path, f.read().decode("latin-1")))
    return seeds


def suffix(path):
    return os.path.splitext(path)[1] or ".cu"


def make_mutant(seeds, campaign_seed, iteration):
    """(text, the seed it came from, the mutations applied) of mutant `iteration`."""
    rng = random.Random("%d:%d" % (campaign_seed, iteration))
    seed = mutate.pick(rng, seeds)
    other = mutate.pick(rng, seeds)
    text, applied = mutate.mutate(seed.text, other.text, rng, seed.path.endswith(".py"))
    if other.path != seed.path and "splice" in applied:
        applied[applied.index("splice")] = "splice(%s)" % os.path.basename(other.path)
    return text, seed, applied


def kverify_command(kverify, options, input_path, include_dirs):
    """kverify's command line; clang's include path gets the given directories (the seed's
    own first, so its `#include "..."` files are found from a copy elsewhere)."""
    clang = ["-I" + d for d in include_dirs]
    if "--" in options:  # clang arguments of the user's: ours go after them
        split = options.index("--")
        return [kverify] + options[:split] + [input_path] + options[split:] + clang
    return [kverify] + options + [input_path, "--"] + clang


def describe_status(status):
    if status is None:
        return "none (the fuzzer failed)"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "signal %d" % -status
        return "%d (killed by %s)" % (status, name)
    return str(status)


def write_failure(out_dir, outcome, text, ext, command, input_path, details):
    """Saves `text` as out_dir/<class>/<hash><ext>, with its record beside it."""
    folder = os.path.join(out_dir, outcome.cls)
    os.makedirs(folder, exist_ok=True)
    data = text.encode("latin-1")
    saved = os.path.abspath(os.path.join(folder, hashlib.sha1(data).hexdigest()[:16] + ext))
    with open(saved, "wb") as f:
        f.write(data)
    write_record(saved, outcome, [saved if arg == input_path else arg for arg in command],
                 details)
    return saved


def write_record(saved, outcome, command, details=()):
    """<saved without its suffix>.txt: the class, the key, the command, the exit status,
    `details` and the tail of stderr."""
    lines = ["class: " + outcome.cls, "key: " + outcome.key, "command: " + shlex.join(command),
             "exit status: " + describe_status(outcome.status),
             "seconds: %.1f" % outcome.seconds] + list(details)
    with open(os.path.splitext(saved)[0] + ".txt", "w") as f:
        f.write("\n".join(lines) + "\nstderr (tail):\n" + outcome.stderr_tail + "\n")


def read_record(txt_path):
    """The `name: value` header lines of a saved failure's .txt."""
    record = {}
    with open(txt_path, errors="replace") as f:
        for line in f:
            if line.startswith("stderr (tail):"):
                break
            name, _, value = line.rstrip("\n").partition(": ")
            record[name] = value
    return record


def known_failures(out_dir):
    """(class, key) of the failures an earlier campaign saved in out_dir."""
    known = set()
    for cls in run.FAILURE_CLASSES:
        folder = os.path.join(out_dir, cls)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if name.endswith(".txt") and ".min." not in name:
                known.add((cls, read_record(os.path.join(folder, name)).get("key", "")))
    return known


def run_guarded(command, input_path, workdir, limits):
    """run.run_kverify, with an exception of the fuzzer itself as an outcome of its own."""
    try:
        return run.run_kverify(command, input_path, workdir, *limits)
    except Exception as e:  # noqa: BLE001 -- any bug of the harness is a finding to keep
        key = re.sub(r"\d+", "", "%s: %s" % (type(e).__name__, e))
        return run.Outcome(run.PYTHON_EXCEPTION, key, None, traceback.format_exc(), 0.0)
