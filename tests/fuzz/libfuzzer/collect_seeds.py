#!/usr/bin/env python3
"""Writes each libFuzzer target's seed corpus (seeds/<target>/) from inputs already in the
repository: `--assume` strings, `// kverify:` comment lines, the Python fixtures, the JSON
and JUnit samples the report tests use, and the hand-written samples/<target>/ files. Run from anywhere; rerun when fixtures change.
Files are named by content hash, as libFuzzer names its own corpus entries."""
import hashlib
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[3]
SEEDS = pathlib.Path(__file__).resolve().parent / "seeds"
SAMPLES = pathlib.Path(__file__).resolve().parent / "samples"  # written by hand
TEXT = ("*.cu", "*.cuh", "*.cpp", "*.py", "*.md", "*.sh", "*.cmake", "CMakeLists.txt")


def sources(*dirs):
    for d in dirs:
        for pattern in TEXT:
            for path in sorted((ROOT / d).rglob(pattern)):
                if "seeds" not in path.parts and "samples" not in path.parts:
                    yield path, path.read_text(errors="replace")


def write(target, inputs):
    """seeds/<target>/: `inputs` and samples/<target>/ (hand-written, fuzzers' reproducers)."""
    raw = {d.encode() if isinstance(d, str) else d for d in inputs}
    raw |= {p.read_bytes() for p in (SAMPLES / target).glob("*")}
    out = SEEDS / target
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        old.unlink()
    for data in raw:
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
    print(f"{target}: {len(raw)} seeds")


def unquote(value):
    return value[1:-1] if value[:1] in "'\"" and value[-1:] == value[:1] else value


options, assumes = [], []
for _, text in sources("tests", "kernels", "examples", "docs"):
    for line in text.splitlines():
        at = line.find("kverify:")
        if line.lstrip().startswith(("//", "#")) and at >= 0 and line[at + 8:].strip().startswith("--"):
            options.append(line[at + 8:].strip())
    for m in re.finditer(r"--assume[= ]('[^'\n]*'|\"[^\"\n]*\")", text):
        assumes.append(unquote(m.group(1)))
    for m in re.finditer(r"KV_ASSUME\(([^;\n]*)\);", text):
        assumes.append(m.group(1))
    for m in re.finditer(r"(?:parseAssumption|configure\(cli,|applyOptionString)\(?\s*\"((?:[^\"\\]|\\.)*)\"", text):
        (assumes if "--" not in m.group(1) else options).append(m.group(1))
write("assume_fuzzer", [a for a in assumes if a])
write("options_comment_fuzzer", options)

write("python_module_fuzzer", [p.read_bytes() for p in sorted((ROOT / "tests/fixtures/python").glob("*.py"))])

# The report tests' samples: raw string literals, runs of adjacent C string literals that
# hold a <testsuite>, kernel_json()'s reports; the known-bad baseline; samples/<target>/.
def c_strings(text):
    literal = r'"(?:[^"\\\n]|\\.)*"'
    for m in re.finditer(rf"{literal}(?:\s*{literal})*", text):
        parts = re.findall(literal, m.group(0))
        yield "".join(p[1:-1] for p in parts).encode().decode("unicode_escape")


xml, json = [], [(ROOT / "kernels/known_bad/kverify-baseline.json").read_text()]
for path, text in sources("tests/reports"):
    xml += re.findall(r'R"XML\((.*?)\)XML"', text, re.S)
    xml += [s for s in c_strings(text) if "<testsuite" in s]
for name, verdict in (("k1", "race"), ("k2", "verified")):
    json.append('{"kernels":[{"file":"a.cu","name":"%s","verdict":"%s","findings":[]}],"summary":{}}'
                % (name, verdict))


write("report_json_fuzzer", json)
write("report_junit_fuzzer", xml)
