#!/usr/bin/env python3
"""The include layering holds: each library compiles with the include paths of its own
stage and of what it links (verifier/CMakeLists.txt, kverify_stage_headers), so a header
of another stage is not found. For a source of each library, its compile command from
compile_commands.json is run (-fsyntax-only) on a one-line probe in its place: the
headers it may use must compile, the ones it must not see must fail as not found.

  check_layering.py BUILD_DIR
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

# library (one of its sources) -> headers it sees, headers it must not
RULES = {
    "verifier/model/model.cpp": (["model/model.hpp"], ["result/result.hpp", "analysis/exec.hpp"]),
    "verifier/oracle/interpret.cpp": (["oracle/oracle.hpp", "model/model.hpp"],
                                      ["analysis/exec.hpp", "frontend/extractor.hpp"]),
    "verifier/analysis/encoder.cpp": (["analysis/exec.hpp", "result/result.hpp"],
                                      ["frontend/extractor.hpp", "python/module.hpp", "oracle/oracle.hpp",
                                       "cli/gate.hpp"]),
    "verifier/confirm/program.cpp": (["confirm/program.hpp", "result/result.hpp"],
                                     ["analysis/exec.hpp", "frontend/extractor.hpp"]),
    "reports/src/text.cpp": (["kverify/reports/render.hpp", "result/result.hpp"],
                             ["analysis/exec.hpp", "frontend/extractor.hpp", "cli/gate.hpp"]),
}


def command_for(commands, source):
    for c in commands:
        if c["file"].endswith("/" + source):
            args = c["arguments"] if "arguments" in c else shlex.split(c["command"])
            return c["directory"], args, c["file"]
    sys.exit(f"check_layering: {source} is not in compile_commands.json")


def compiles(directory, args, source, header, probe_dir):
    probe = os.path.join(probe_dir, os.path.basename(source))
    with open(probe, "w") as f:
        f.write(f'#include "{header}"\n')
    out = [a for a in args if a != source]
    if "-o" in out:
        i = out.index("-o")
        del out[i:i + 2]
    out = [a for a in out if a not in ("-c",) and not a.startswith(("-MD", "-MF", "-MT"))]
    drop = {i + 1 for i, a in enumerate(out) if a in ("-MF", "-MT")}
    out = [a for i, a in enumerate(out) if i not in drop]
    r = subprocess.run(out + ["-fsyntax-only", probe], cwd=directory, capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def main():
    build = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = json.load(f)
    failures = 0
    with tempfile.TemporaryDirectory() as probe_dir:
        for source, (allowed, forbidden) in RULES.items():
            directory, args, path = command_for(commands, source)
            for header in allowed:
                ok, err = compiles(directory, args, path, header, probe_dir)
                if not ok:
                    failures += 1
                    print(f"FAIL {source}: #include \"{header}\" should compile:\n{err}")
            for header in forbidden:
                if not os.path.exists(os.path.join(root, "verifier", header)):  # else the probe proves nothing
                    sys.exit(f"check_layering: verifier/{header} does not exist: name a header that does")
                ok, err = compiles(directory, args, path, header, probe_dir)
                if ok or "No such file" not in err:
                    failures += 1
                    print(f"FAIL {source}: #include \"{header}\" should not be found" + (f":\n{err}" if not ok else ""))
    checked = sum(len(a) + len(f) for a, f in RULES.values())
    print(f"check_layering: {checked} includes of {len(RULES)} libraries, {failures} wrong")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
