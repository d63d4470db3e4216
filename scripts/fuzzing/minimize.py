"""Delta debugging (Zeller's ddmin): the smallest sublist of an input that still fails the
same way, first over lines, then over characters."""


class OutOfRuns(Exception):
    pass


class CachedTest:
    """`fails(text)` with each text tried once, and at most `max_runs` distinct runs."""

    def __init__(self, fails, max_runs):
        self.fails = fails
        self.max_runs = max_runs
        self.runs = 0
        self.seen = {}

    def __call__(self, text):
        if text not in self.seen:
            if self.runs >= self.max_runs:
                raise OutOfRuns()
            self.runs += 1
            self.seen[text] = self.fails(text)
        return self.seen[text]


def ddmin(items, fails_on):
    """A 1-minimal sublist of `items` (removing any one chunk of the final granularity
    makes it pass) on which `fails_on(list)` holds; `fails_on(items)` must hold."""
    n = 2
    while len(items) >= 2:
        size = -(-len(items) // n)
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        for chunk in chunks:
            if fails_on(chunk):
                items, n = chunk, 2
                break
        else:
            for i in range(len(chunks)):
                rest = [x for j, c in enumerate(chunks) if j != i for x in c]
                if fails_on(rest):
                    items, n = rest, max(n - 1, 2)
                    break
            else:
                if n >= len(items):
                    break
                n = min(len(items), 2 * n)
    return items


def minimize(text, fails, max_runs=2000, log=lambda message: None):
    """The smallest text found that `fails` like `text` does; stops early after `max_runs`
    runs of `fails`, returning the smallest failing text so far."""
    test = CachedTest(fails, max_runs)
    best = [text]

    def keep_smallest(candidate):
        if not test(candidate):
            return False
        if len(candidate) < len(best[0]):
            best[0] = candidate
        return True

    try:
        lines = best[0].splitlines(keepends=True)
        ddmin(lines, lambda ls: keep_smallest("".join(ls)))
        log("lines: %d bytes after %d runs" % (len(best[0]), test.runs))
        ddmin(list(best[0]), lambda cs: keep_smallest("".join(cs)))
        log("characters: %d bytes after %d runs" % (len(best[0]), test.runs))
    except OutOfRuns:
        log("stopped after %d runs: %d bytes" % (test.runs, len(best[0])))
    return best[0]
