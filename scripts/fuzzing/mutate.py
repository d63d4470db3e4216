"""Mutations of kverify inputs: byte-level ones, and CUDA-aware ones on lines and tokens.

Texts are str decoded as latin-1, so every byte is one character and writing them back
as latin-1 gives the exact bytes. Each mutation takes (text, rng, other) -- `other` is a
second seed, for splicing -- and returns the new text, or None where it does not apply
(no integer literal to replace, no statement to repeat)."""
import re

INTEGER = re.compile(r"(?<![\w.])(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*(?![\w.])")
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")
TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|\"(?:[^\"\\\n]|\\.)*\"")
STATEMENT = re.compile(r"^[ \t]+[^#\n]*;[ \t]*$", re.M)
SYNC = re.compile(r"__syncthreads\s*\(\s*\)\s*;")

EXTREME_INTEGERS = ["0", "-1", "1", "2147483647", "2147483648", "-2147483648", "4294967295",
                    "4294967296", "9223372036854775807", "18446744073709551615",
                    "18446744073709551616", "0x7fffffff", "0xffffffffffffffff",
                    "1" + "0" * 30, "1" * 400, "1e30", "1e308", "(-1u)", "(1 << 31)"]
BUILTINS = ["threadIdx.x", "threadIdx.y", "blockIdx.x", "blockDim.x", "gridDim.x", "warpSize",
            "0", "n", "i", "s", "__syncthreads", "__shared__", "__global__", "int", "void"]
ODD_LAUNCH_OPTIONS = [
    "--block-dim=0", "--block-dim=-1", "--block-dim=1025", "--block-dim=4294967296",
    "--block-dim=1,1,65", "--block-dim=1024,1024", "--block-dim=abc", "--block-dim=",
    "--block-dim=1,2,3,4", "--block-dim=0x10", "--block-dim=1e3", "--block-dim=256,,",
    "--block-dim=99999999999999999999", "--grid-dim=0", "--grid-dim=2147483648",
    "--grid-dim=1,65536", "--grid-dim=-5", "--blockDim=[32,1", "--gridDim=[]",
    "--assume='n <'", "--assume=\"", "--assume='" + "(" * 2000 + "n" + ")" * 2000 + "'",
    "--assume='n == 1 && n == 2'", "--assume='blockDim.x / 0 == 1'", "--zero-init=",
    "--zero-init=nosucharray", "--kernel=", "--allow-unreachable --block-dim=32 --block-dim=64",
    "--no-such-option", "--block-dim=256 " * 200,
]
INTERESTING_BYTES = ["\0", "\xff", "\n", "{", "}", "(", ")", "\"", "'", "\\", "/*", "#",
                     "<<<", ">>>", "??/", "\\\n", "\r", "\t", "\x1a", "\xef\xbb\xbf"]


def pick(rng, seq):
    return seq[rng.randrange(len(seq))] if seq else None


def span(rng, text, longest=64):
    start = rng.randrange(len(text))
    return start, min(len(text), start + 1 + rng.randrange(longest))


# byte-level

def flip_byte(text, rng, other):
    if not text:
        return None
    at = rng.randrange(len(text))
    return text[:at] + chr(ord(text[at]) ^ (1 << rng.randrange(8))) + text[at + 1:]


def insert_bytes(text, rng, other):
    at = rng.randrange(len(text) + 1)
    if rng.random() < 0.5:
        chunk = pick(rng, INTERESTING_BYTES)
    else:
        chunk = "".join(chr(rng.randrange(256)) for _ in range(1 + rng.randrange(8)))
    return text[:at] + chunk + text[at:]


def delete_span(text, rng, other):
    if not text:
        return None
    start, end = span(rng, text)
    return text[:start] + text[end:]


def duplicate_span(text, rng, other):
    if not text:
        return None
    start, end = span(rng, text, 512)
    return text[:end] + text[start:end] + text[end:]


def splice(text, rng, other):
    if not text or not other:
        return None
    return text[:rng.randrange(len(text))] + other[rng.randrange(len(other)):]


# lines and tokens

def duplicate_line(text, rng, other):
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    return "\n".join(lines[:at + 1] + lines[at:])


def delete_line(text, rng, other):
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    at = rng.randrange(len(lines))
    return "\n".join(lines[:at] + lines[at + 1:])


def toggle_syncthreads(text, rng, other):
    barriers = list(SYNC.finditer(text))
    if barriers and rng.random() < 0.5:
        m = pick(rng, barriers)
        return text[:m.start()] + text[m.end():]
    statements = list(STATEMENT.finditer(text))
    if not statements:
        return None
    m = pick(rng, statements)
    return text[:m.end()] + "\n__syncthreads();" + text[m.end():]


def extreme_integer(text, rng, other):
    m = pick(rng, list(INTEGER.finditer(text)))
    if not m:
        return None
    return text[:m.start()] + pick(rng, EXTREME_INTEGERS) + text[m.end():]


def deep_nesting(depth, form, operand):
    if form == "parens":
        return "(" * depth + operand + ")" * depth
    if form == "unary":
        return "-~" * (depth // 2) + "(" + operand + ")"
    if form == "sum":
        return "(" + " + ".join([operand] * depth) + ")"
    return "(" + "(threadIdx.x & 1) ? " * depth + operand + " : 0" * depth + ")"  # ternary


def nest_expression(text, rng, other):
    operands = [m for m in re.finditer(r"(?<![\w.])(?:\d+|threadIdx\.x|[a-z]\w*)(?![\w(])", text)
                if not text[text.rfind("\n", 0, m.start()) + 1:m.start()].lstrip().startswith("#")]
    m = pick(rng, operands)
    if not m:
        return None
    form = pick(rng, ["parens", "unary", "sum", "ternary"])
    depth = 500 if form == "parens" else pick(rng, [500, 5000, 50000])
    return text[:m.start()] + deep_nesting(depth, form, m.group()) + text[m.end():]


def repeat_statement(text, rng, other):
    m = pick(rng, list(STATEMENT.finditer(text)))
    if not m:
        return None
    times = pick(rng, [1000, 1000, 1000, 10000])
    return text[:m.end()] + ("\n" + m.group()) * (times - 1) + text[m.end():]


def replace_identifier(text, rng, other):
    names = list(IDENTIFIER.finditer(text))
    m = pick(rng, names)
    if not m:
        return None
    replacement = pick(rng, BUILTINS) if rng.random() < 0.3 else pick(rng, names).group()
    return text[:m.start()] + replacement + text[m.end():]


def launch_comment(text, rng, other, comment="//"):
    line = comment + " kverify: " + pick(rng, ODD_LAUNCH_OPTIONS) + "\n"
    kernels = [m.start() for m in re.finditer(r"^.*__global__", text, re.M)]
    at = pick(rng, kernels) if kernels and rng.random() < 0.5 else 0
    return text[:at] + line + text[at:]


def truncate_in_token(text, rng, other):
    tokens = [m for m in TOKEN.finditer(text) if m.end() - m.start() > 1]
    m = pick(rng, tokens)
    if not m:
        return None
    return text[:m.start() + 1 + rng.randrange(m.end() - m.start() - 1)]


BYTE_MUTATIONS = [flip_byte, insert_bytes, delete_span, duplicate_span, splice]
TOKEN_MUTATIONS = [duplicate_line, delete_line, toggle_syncthreads, extreme_integer,
                   nest_expression, repeat_statement, replace_identifier, launch_comment,
                   truncate_in_token]
MUTATIONS = BYTE_MUTATIONS + TOKEN_MUTATIONS
LARGEST_MUTANT = 16 << 20  # bytes: hostile, but not a test of the disk


def mutate(text, other, rng, is_python=False):
    """One to three stacked mutations of `text`: the new text and the mutations' names."""
    applied = []
    for _ in range(pick(rng, [1, 1, 1, 2, 3])):
        for _attempt in range(10):
            mutation = pick(rng, MUTATIONS)
            if mutation is launch_comment and is_python:
                new = launch_comment(text, rng, other, comment="#")
            else:
                new = mutation(text, rng, other)
            if new is not None and new != text and len(new) <= LARGEST_MUTANT:
                text = new
                applied.append(mutation.__name__)
                break
    return text, applied
