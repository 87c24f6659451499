#!/usr/bin/env python3
"""Share of emitted tests that assert nothing (issue 19).

Usage: share.py DIR...   (output folders of `ferrosuite generate` or of
`bench coverage --out`, searched recursively for *_FerroTest.java)

A test asserts something when its body calls an `assert...` method or
`fail(` (an expected exception). Prints per suite: tests, tests without an
assertion; then the totals and the share. Where the folders hold
`report.json` files of binaries that count them (`unasserted_tests`,
`unasserted_observable`), it also prints the share of tests that end with
something observable yet assert nothing, over all tests.
"""
import json
import re
import sys
from pathlib import Path

TEST = re.compile(r"@Test\b[^\n]*\n\s*public void (\w+)\(\)[^{]*\{")


def bodies(text):
    """(name, body) of each @Test method, by brace matching outside
    string and character literals."""
    for m in TEST.finditer(text):
        depth, i, quote = 1, m.end(), None
        while depth and i < len(text):
            c = text[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = None
            elif c in "\"'":
                quote = c
            else:
                depth += {"{": 1, "}": -1}.get(c, 0)
            i += 1
        yield m.group(1), text[m.end():i]


def main(dirs):
    total = bare = 0
    for d in dirs:
        for f in sorted(Path(d).rglob("*_FerroTest.java")):
            tests = list(bodies(f.read_text(errors="replace")))
            without = [n for n, b in tests if not re.search(r"\bassert\w*\(|\bfail\(", b)]
            total += len(tests)
            bare += len(without)
            print(f"{f.stem}\t{len(tests)}\t{len(without)}")
    share = 100.0 * bare / total if total else 0.0
    print(f"total\t{total}\t{bare}\t{share:.1f}%")
    reports = [c for d in dirs for f in sorted(Path(d).rglob("report.json"))
               for c in json.loads(f.read_text()).get("classes", []) if "unasserted_observable" in c]
    if reports:
        tests = sum(c["tests"] for c in reports)
        observable = sum(c["unasserted_observable"] for c in reports)
        unasserted = sum(c["unasserted_tests"] for c in reports)
        print(f"report.json\ttests {tests}\twithout an assertion {unasserted}"
              f"\tof those ending observably {observable} ({100.0 * observable / tests if tests else 0:.1f}% of all tests)")
        ends = sum(c.get("observable_tests", 0) for c in reports if "observable_tests" in c)
        if ends:
            print(f"report.json\ttests ending observably {ends}\tof those without an assertion {observable}"
                  f" ({100.0 * observable / ends:.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1:])
