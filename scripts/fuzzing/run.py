"""Runs kverify on one input under a wall-clock and an address-space limit, and says how it
went: a class (ok or a kind of failure) and a key that tells failures of a class apart.

kverify's documented exit statuses (README, "Using kverify"): 0 no finding, 1 findings
(the report on stdout ends with the summary line `kverify: N kernels in ...`), 2 usage
errors, unreadable or unparsable sources (a message on stderr) and kernels in `error` (the
report says why, and its summary counts them). A crash inside kverify is caught by its own
handler and is also exit 2, with "kverify crashed" or "kverify aborted" on stderr: this
module counts that as a failure."""
import collections
import os
import re
import resource
import signal
import subprocess

OK = "ok"
CRASH = "crash"
MEMORY = "memory"
HANG = "hang"
SILENT_ERROR = "silent-error"
NO_SUMMARY = "no-summary"
PYTHON_EXCEPTION = "python-exception"
FAILURE_CLASSES = [CRASH, MEMORY, HANG, SILENT_ERROR, NO_SUMMARY, PYTHON_EXCEPTION]

# Each marker matches at the start of a line, not in the source excerpts of clang's
# diagnostics (which are indented). kverify's own crash line says "(out of memory, or an
# internal error)" whatever the cause, so it is no evidence of memory; these are.
MEMORY_MARKERS = re.compile(r"^(terminate called after throwing an instance of 'std::bad_alloc'"
                            r"|LLVM ERROR: (out of memory|pthread_create failed)"
                            r"|.*Cannot allocate memory|\(error \"out of memory\"\))", re.M)
CRASH_MARKERS = re.compile(r"^(kverify: error: .*kverify (crashed|aborted)|terminate called"
                           r"|Stack dump:|LLVM ERROR|.*Assertion `.*' failed"
                           r"|UNREACHABLE executed|ASSERTION VIOLATION)", re.M)
SUMMARY = re.compile(r"^kverify: \d+ kernels? in \d+ files?.*", re.M)
TAIL_BYTES = 4096

Outcome = collections.namedtuple("Outcome", "cls key status stderr_tail seconds")


def limit_memory(limit_bytes):
    """A preexec_fn: the child's address space is at most `limit_bytes`."""
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    return apply


def tail(path, size=TAIL_BYTES):
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - size))
        return f.read().decode("utf-8", "replace")


def failure_key(stderr, input_path):
    """The last line of stderr, after the first crash or memory marker line when that is
    another (the exception an abort threw), with the input's name and all numbers taken out."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    parts = lines[-1:]
    marker = MEMORY_MARKERS.search(stderr) or CRASH_MARKERS.search(stderr)
    if marker:
        first = stderr[marker.start():].split("\n", 1)[0]
        if first not in parts:
            parts.insert(0, first)
    key = " | ".join(parts)
    key = key.replace(input_path, "<input>").replace(os.path.basename(input_path), "<input>")
    return re.sub(r"\d+", "", key).strip()


def classify(status, stdout_tail, stderr, timed_out, expect_summary=True):
    """The class of a run: `status` is Popen's returncode (negative: killed by a signal).
    `expect_summary`: the text report goes to stdout (no --format or --output given)."""
    if timed_out:
        return HANG
    if MEMORY_MARKERS.search(stderr):
        return MEMORY
    if status == -signal.SIGKILL:
        return MEMORY  # not killed by us: the kernel's OOM killer
    if status < 0 or status not in (0, 1, 2):
        return CRASH
    if CRASH_MARKERS.search(stderr):
        return CRASH
    summary = SUMMARY.search(stdout_tail)
    if status == 2:
        # a kernel in `error` is explained in the report, on stdout, not on stderr
        explained = stderr.strip() or not expect_summary or \
            (summary and re.search(r"\berror|does not parse", summary.group()))
        return OK if explained else SILENT_ERROR
    return OK if summary or not expect_summary else NO_SUMMARY


def run_kverify(command, input_path, workdir, wall_seconds, memory_bytes, expect_summary=True):
    """Runs `command` (which names `input_path`) in `workdir`; stdout and stderr go to files
    there, since a hostile input can make either huge."""
    out_path = os.path.join(workdir, "stdout.txt")
    err_path = os.path.join(workdir, "stderr.txt")
    start = os.times().elapsed
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        # a session of its own: a hang is killed with every process it started
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                 cwd=workdir, preexec_fn=limit_memory(memory_bytes),
                                 start_new_session=True)
        timed_out = False
        try:
            child.wait(timeout=wall_seconds)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:  # a hang, or the fuzzer interrupted: no kverify outlives the run
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    seconds = os.times().elapsed - start
    stderr = tail(err_path)
    cls = classify(child.returncode, tail(out_path), stderr, timed_out, expect_summary)
    key = "" if cls == OK else failure_key(stderr, input_path)
    return Outcome(cls, key, child.returncode, stderr, seconds)
