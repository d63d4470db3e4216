#!/usr/bin/env python3
"""The merged HTML report in a real browser: kverify's JSON over a few fixtures and
CTest's JUnit XML of real RapidCheck properties go through `kverify merge-report`; headless
Chromium renders the page, its DOM must hold the expected rows, and screenshots at 1366 px
and at a phone's width are kept in --out. Exit 77 (CTest: skipped) when Chromium is absent."""
import argparse
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77

FIXTURES = [  # (file, verdict): each verdict the page groups and filters by
    ("convolution_separable_missing_barrier_race.cu", "race"),
    ("barrier_under_bounds_check_divergence.cu", "divergence"),
    ("histogram64_rotating_index_off_by_one_oob.cu", "oob"),
    ("curand_mtgp32_unsupported.cu", "unsupported"),
    ("convolution_separable_sdk_ok.cu", "verified"),
    ("grid_sync_jacobi_ok.cu", "verified"),
]

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-quic", "--hide-scrollbars"]


class Dom(html.parser.HTMLParser):
    """Elements with the attributes the checks look for, and the text inside them."""

    def __init__(self):
        super().__init__()
        self.elements = []  # (tag, attrs dict)
        self.text = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def having(self, tag, **attrs):
        return [a for t, a in self.elements
                if t == tag and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(cmd, ok_codes=(0,), **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode not in ok_codes:
        fail("%s exited %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p


def junit_of_properties(demo, work):
    """Runs the demo properties the way CTest runs GoogleTest tests, writing CTest's JUnit."""
    tests = os.path.join(work, "ctest")
    os.makedirs(tests)
    with open(os.path.join(tests, "CTestTestfile.cmake"), "w") as f:
        for name in ("SumMatchesReference", "ReverseTwiceIsIdentity", "NeedsAGpu"):
            f.write('add_test([=[DemoProps.%s]=] "%s" "--gtest_filter=DemoProps.%s")\n'
                    % (name, demo, name))
            f.write('set_tests_properties([=[DemoProps.%s]=] PROPERTIES '
                    'SKIP_REGULAR_EXPRESSION "\\\\[  SKIPPED \\\\]")\n' % name)
    junit = os.path.join(work, "properties.xml")
    run(["ctest", "--test-dir", tests, "--output-junit", junit], ok_codes=(0, 8))
    return junit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kverify", required=True)
    ap.add_argument("--demo", required=True, help="the property demo binary")
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--out", required=True, help="where the page and screenshots are kept")
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", ""))
    args = ap.parse_args()
    args.out, args.kverify, args.demo = map(os.path.abspath, (args.out, args.kverify, args.demo))

    chromium = args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: chromium not installed (scripts/setup.sh installs Debian's chromium)")
        return SKIP

    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="kverify-html-")
    try:
        report = os.path.join(work, "kverify.json")
        # From the fixtures' folder, as a CI job runs from its checkout: the page names
        # files as given, and merge-report reads the excerpts from them.
        run([args.kverify, "--no-cache", "--format=json", "--output=" + report]
            + [f for f, _ in FIXTURES], ok_codes=(0, 1), cwd=args.fixtures)
        junit = junit_of_properties(args.demo, work)
        page = os.path.join(args.out, "report.html")
        run([args.kverify, "merge-report", "--html=" + page, report, junit], cwd=args.fixtures)

        profile = os.path.join(work, "profile")
        url = "file://" + os.path.abspath(page)
        dom_text = run([chromium, *CHROMIUM_FLAGS, "--user-data-dir=" + profile,
                        "--dump-dom", url], timeout=120).stdout
        with open(os.path.join(args.out, "report.dom.html"), "w") as f:
            f.write(dom_text)
        dom = Dom()
        dom.feed(dom_text)
        check(dom, dom_text)

        # Tall enough for the whole page: findings, property tests and the file list.
        for name, size in (("report-1366.png", "1366,6000"), ("report-phone.png", "390,3000")):
            shot = os.path.join(args.out, name)
            run([chromium, *CHROMIUM_FLAGS, "--user-data-dir=" + profile,
                 "--screenshot=" + shot, "--window-size=" + size, url], timeout=120)
            if not os.path.exists(shot) or os.path.getsize(shot) < 10000:
                fail("no screenshot at " + shot)
        print("ok: page, DOM and screenshots in " + args.out)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(dom, dom_text):
    if dom.having("script"):
        fail("the page has a script")
    findings = [a for a in dom.having("article") if a.get("class") == "kernel"]
    got = sorted(a["data-v"] for a in findings)
    want = sorted(v for _, v in FIXTURES if v != "verified")
    if got != want:
        fail("finding rows %s, expected %s" % (got, want))
    files = [a for a in dom.having("details") if "file" in a.get("class", "").split()]
    if len(files) != len(FIXTURES):
        fail("%d file groups, expected %d" % (len(files), len(FIXTURES)))
    verified_rows = dom.having("li", data_v="verified")
    if len(verified_rows) < 2:
        fail("expected a row for each verified kernel, got %d" % len(verified_rows))
    for verdict in {v for _, v in FIXTURES}:
        if not dom.having("input", id="show-" + verdict, type="radio"):
            fail("no filter for " + verdict)
    failed = dom.having("article", data_o="failed")
    if len(failed) != 1:
        fail("expected one failed property test, got %d" % len(failed))
    text = "".join(dom.text)
    for expected in ("DemoProps.SumMatchesReference", "Minimal counterexample",
                     "RC_PARAMS=\"reproduce=", "RC_ASSERT(got == expected)",
                     "no GPU <in this demo> & nothing to run on", "1 passed", "1 skipped",
                     "This verdict assumes:", "barrier phases", "Witness", "thread 1"):
        if expected not in text:
            fail("the page does not show %r" % expected)
    if "<in this demo>" in dom_text:
        fail("test output reached the page unescaped")


if __name__ == "__main__":
    sys.exit(main())
