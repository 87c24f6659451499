#!/usr/bin/env python3
"""The needle table of issue 17: in how many seeds each needle line of the
TARDIS fixtures (testdata/tardis/src/needles) is covered, with and without
DSE, from the run folders of `ferrosuite bench ablation --feature tardis`
(OUT/<class>/<with|without>-seed<k>/report.json: a needle is covered when
its line goal is not among the class's uncovered goals).

usage: needle-table.py OUT
"""
import json
import pathlib
import sys

NEEDLES = [
    ("needles.FlagBag", "FlagBag.java:49", "two items match the mixed key (flag in a loop)"),
    ("needles.Ledger", "Ledger.java:23", "exact product of three parameters"),
    ("needles.Ledger", "Ledger.java:26", "exact weighted sum, ordered parameters"),
    ("needles.Tag", "Tag.java:36", "'#' at a computed index and a string hash"),
]


def covered(report, line):
    uncovered = report["classes"][0]["uncovered"]
    return not any(u["kind"] == "line" and u["goal"] == line for u in uncovered)


def main(out):
    print("| class | needle | with DSE (seeds covered) | without | DSE goals first covered (mean) |")
    print("|---|---|---|---|---|")
    for cls, line, what in NEEDLES:
        counts = {}
        dse_goals = []
        for variant in ("with", "without"):
            runs = sorted((out / cls).glob(f"{variant}-seed*/report.json"))
            reports = [json.loads(r.read_text()) for r in runs]
            counts[variant] = (sum(covered(r, line) for r in reports), len(reports))
            if variant == "with":
                for r in reports:
                    t = r["classes"][0].get("techniques", {}).get("tardis", {})
                    dse_goals.append(t.get("goals_covered_by_dse", 0))
        mean = sum(dse_goals) / len(dse_goals) if dse_goals else float("nan")
        w, wo = counts["with"], counts["without"]
        print(f"| {cls} | {line} {what} | {w[0]}/{w[1]} | {wo[0]}/{wo[1]} | {mean:.1f} |")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]))
