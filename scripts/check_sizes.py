#!/usr/bin/env python3
"""Size limits of the project's own code: no file over 600 lines and no function over 80
in verifier/, reports/, runtime/, properties/ (generated and data files aside).

  scripts/check_sizes.py           fails (exit 1) on a file or function over its limit that
                                   scripts/size_exceptions.txt does not list, or that grew
                                   past the size listed there (the list only shrinks)
  scripts/check_sizes.py --update  rewrites the list from the tree as it is

A function is a definition whose signature starts at column 0 (over up to 8 lines, up to
its `{`) and that ends at the first `}` at column 0 after it: the project's layout.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ["verifier", "reports", "runtime", "properties"]
EXCEPTIONS = os.path.join(ROOT, "scripts", "size_exceptions.txt")
FILE_LIMIT, FUNCTION_LIMIT = 600, 80
SOURCE = (".cpp", ".hpp", ".cu", ".cuh", ".h")
SIGNATURE = re.compile(r"^[A-Za-z_][^;{}]*\(")  # a line at column 0 that opens a parameter list


def sources():
    for folder in FOLDERS:
        for root, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = [d for d in dirs if d not in ("prelude", "bench")]
            for name in sorted(files):
                if name.endswith(SOURCE):
                    yield os.path.relpath(os.path.join(root, name), ROOT)


def measure():
    """{"file PATH": lines, "function PATH:LINE NAME": lines} over the limits."""
    found = {}
    for path in sources():
        with open(os.path.join(ROOT, path), errors="replace") as f:
            lines = f.read().split("\n")
        if len(lines) > FILE_LIMIT:
            found[f"file {path}"] = len(lines)
        start = None
        for i, line in enumerate(lines):
            if start is None and SIGNATURE.match(line) and not line.startswith(("namespace", "struct", "class")):
                for j in range(i, min(i + 8, len(lines))):
                    if ";" in lines[j] or (j > i and lines[j][:1] not in (" ", "\t")):
                        break
                    if lines[j].rstrip().endswith("{"):
                        start = i
                        break
            elif start is not None and line.startswith("}"):
                length = i - start + 1
                if length > FUNCTION_LIMIT:
                    name = re.search(r"([\w:~]+)\s*\(", lines[start])
                    found[f"function {path} {name.group(1) if name else lines[start][:40]}"] = length
                start = None
    return found


def main():
    found = measure()
    if "--update" in sys.argv:
        with open(EXCEPTIONS, "w") as f:
            f.write("# Files over 600 lines and functions over 80 (scripts/check_sizes.py): each may only\n"
                    "# shrink. Remove a line once its code is split; never add one.\n")
            for key in sorted(found):
                f.write(f"{found[key]} {key}\n")
        print(f"{len(found)} exceptions written to {os.path.relpath(EXCEPTIONS, ROOT)}")
        return 0
    allowed = {}
    with open(EXCEPTIONS) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                size, key = line.rstrip("\n").split(" ", 1)
                allowed[key] = int(size)
    problems = [f"{key}: {size} lines (limit {FILE_LIMIT if key.startswith('file') else FUNCTION_LIMIT})"
                for key, size in sorted(found.items()) if key not in allowed]
    problems += [f"{key}: grew from {allowed[key]} to {size} lines"
                 for key, size in sorted(found.items()) if key in allowed and size > allowed[key]]
    for p in problems:
        print("check_sizes: " + p)
    print(f"check_sizes: {len(found)} over the limits, all listed" if not problems else
          f"check_sizes: {len(problems)} new or grown (split the code; scripts/size_exceptions.txt only shrinks)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
