#!/usr/bin/env python3
"""scripts/fuzz.py on its own, in seconds: mutants are a function of the seed, and runs of a
fake kverify (a shell script that crashes, hangs, aborts or exits on a marker in its input)
are classified, saved, deduplicated and minimized as they should be."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "fuzz.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from fuzzing import campaign, minimize, mutate, run  # noqa: E402

FAKE_KVERIFY = r"""#!/bin/sh
for a; do case $a in *.cu|*.py) input=$a ;; esac; done
if grep -q CRASH_SEGV "$input"; then kill -SEGV $$; fi
if grep -q CRASH_REPORT "$input"; then
  echo "kverify: error: $input: kverify crashed (an internal error); please report it" >&2; exit 2
fi
if grep -q BAD_ALLOC "$input"; then
  echo "terminate called after throwing an instance of 'std::bad_alloc'" >&2
  echo "kverify: error: $input: kverify aborted (out of memory, or an internal error)" >&2; exit 2
fi
if grep -q HANG "$input"; then sleep 30; fi
if grep -q SILENT "$input"; then exit 2; fi
if grep -q EXIT_3 "$input"; then exit 3; fi
if grep -q NO_SUMMARY "$input"; then exit 0; fi
if grep -q PARSE_ERROR "$input"; then
  echo "$input:1:1: error: expected ';' after 7 tokens" >&2; exit 2
fi
echo "$input:1:1: remark: kernel 'k' verified"
echo "kverify: 1 kernel in 1 file: 1 verified"
"""
SEED = """__global__ void k(int *out, int n) {
  __shared__ int s[256];
  s[threadIdx.x] = n + 42;
  __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
}
"""


class FuzzScriptTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fuzz-script-test-")
        self.fake = os.path.join(self.dir, "fake-kverify")
        with open(self.fake, "w") as f:
            f.write(FAKE_KVERIFY)
        os.chmod(self.fake, 0o755)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def outcome(self, text, wall=5.0):
        path = self.write("input.cu", text)
        command = campaign.kverify_command(self.fake, ["--no-cache"], path, [self.dir])
        return run.run_kverify(command, path, self.dir, wall, 4 << 30)

    def test_mutants_are_a_function_of_seed_and_iteration(self):
        seeds = [campaign.Seed("/a.cu", SEED), campaign.Seed("/b.py", "x = 1\n" + SEED)]
        first = [campaign.make_mutant(seeds, 7, i)[0] for i in range(200)]
        again = [campaign.make_mutant(seeds, 7, i)[0] for i in range(200)]
        other = [campaign.make_mutant(seeds, 8, i)[0] for i in range(200)]
        self.assertEqual(first, again)
        self.assertNotEqual(first, other)
        self.assertGreater(len(set(first)), 150)

    def test_every_mutation_applies_to_a_kernel(self):
        import random
        for mutation in mutate.MUTATIONS:
            new = mutation(SEED, random.Random(3), SEED[::-1])
            self.assertIsNotNone(new, mutation.__name__)
            self.assertNotEqual(new, SEED, mutation.__name__)

    def test_fake_runs_are_classified(self):
        cases = {"": run.OK, "PARSE_ERROR": run.OK, "CRASH_SEGV": run.CRASH,
                 "CRASH_REPORT": run.CRASH, "EXIT_3": run.CRASH, "BAD_ALLOC": run.MEMORY,
                 "SILENT": run.SILENT_ERROR, "NO_SUMMARY": run.NO_SUMMARY}
        for marker, expected in cases.items():
            self.assertEqual(self.outcome(SEED + "// " + marker).cls, expected, marker)
        hang = self.outcome("// HANG", wall=0.5)
        self.assertEqual(hang.cls, run.HANG)
        self.assertLess(hang.seconds, 5)

    def test_kernels_in_error_are_explained_on_stdout(self):
        self.assertEqual(run.classify(2, "kverify: 1 kernel in 1 file: 1 error\n", "", False),
                         run.OK)
        self.assertEqual(run.classify(2, "kverify: 1 kernel in 1 file: 1 race\n", "", False),
                         run.SILENT_ERROR)

    def test_markers_in_quoted_source_are_no_crash(self):
        stderr = "in.cu:3:1: error: unknown type\n    3 | terminate called; LLVM ERROR\n"
        self.assertEqual(run.classify(2, "", stderr, False), run.OK)

    def test_key_drops_numbers_and_the_input_name(self):
        crash = self.outcome(SEED + "// CRASH_REPORT")
        self.assertEqual(crash.key, "kverify: error: <input>: kverify crashed "
                                    "(an internal error); please report it")
        memory = self.outcome("// BAD_ALLOC")
        self.assertTrue(memory.key.startswith("terminate called after throwing an instance "
                                              "of 'std::bad_alloc' | kverify: error: <input>"))

    def test_ddmin_finds_the_one_failing_line(self):
        lines = ["line %d\n" % i for i in range(100)]
        self.assertEqual(minimize.ddmin(lines, lambda ls: "line 37\n" in ls), ["line 37\n"])

    def test_campaign_saves_each_kind_once_and_minimizes(self):
        seeds = os.path.join(self.dir, "seeds")
        os.mkdir(seeds)
        with open(os.path.join(seeds, "crash.cu"), "w") as f:
            f.write(SEED.replace("__syncthreads();", "__syncthreads(); // CRASH_REPORT"))
        out = os.path.join(self.dir, "out")
        fuzz = [sys.executable, SCRIPT, "--kverify", self.fake, "--out", out, "--wall", "5"]
        p = subprocess.run(fuzz + ["--iterations", "30", "--seed", "1", seeds],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("crash", p.stdout)
        saved = sorted(os.listdir(os.path.join(out, "crash")))
        self.assertEqual(len(saved), 2, saved)  # the input and its .txt: one kind
        crash_input = os.path.join(out, "crash", saved[0])
        record = campaign.read_record(os.path.splitext(crash_input)[0] + ".txt")
        self.assertIn(crash_input, record["command"])
        p = subprocess.run(fuzz + ["--minimize", crash_input], capture_output=True, text=True)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        with open(os.path.splitext(crash_input)[0] + ".min.cu") as f:
            self.assertEqual(f.read(), "CRASH_REPORT")


if __name__ == "__main__":
    unittest.main()
