#!/usr/bin/env bash
# The classifier ablation of issue 17: feasible (satisfiable) alternatives
# among the first 30 that the DSE step selects, k-NN versus FIFO versus
# random, on the needle fixtures (testdata/tardis/src/needles), SEEDS seeds
# each, `generate --dse --dse-strategy S` at BUDGET seconds.
# usage: bench/tardis/classifier.sh OUT [SEEDS=10] [BUDGET=20]
# Prints one row per (class, strategy): runs, selected (mean), satisfiable of
# the first 30 (mean), their share, and the mean branch coverage of the runs.
set -euo pipefail
out=$1; seeds=${2:-10}; budget=${3:-20}
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=${FERROSUITE:-$here/target/release/ferrosuite}
mkdir -p "$out/classes"
javac -d "$out/classes" "$here"/testdata/tardis/src/needles/*.java
for class in FlagBag Ledger Tag; do
  for strategy in knn fifo random; do
    for seed in $(seq 1 "$seeds"); do
      run=$out/$class-$strategy-$seed
      [ -f "$run/report.json" ] || "$bin" generate -c "$out/classes" --class "needles.$class" --budget "$budget" \
        --seed "$seed" --out "$run" --dse --dse-strategy "$strategy" > "$run.log" 2>&1 || true
    done
  done
done
python3 - "$out" "$seeds" <<'PY'
import json, pathlib, sys
out, seeds = pathlib.Path(sys.argv[1]), int(sys.argv[2])
print("| class | strategy | runs | selected (mean) | satisfiable of the first 30 (mean) | share | branch coverage (mean) |")
print("|---|---|---|---|---|---|---|")
for cls in ["FlagBag", "Ledger", "Tag"]:
    for strategy in ["knn", "fifo", "random"]:
        rows = []
        for seed in range(1, seeds + 1):
            f = out / f"{cls}-{strategy}-{seed}" / "report.json"
            if not f.exists():
                continue
            c = json.loads(f.read_text())["classes"][0]
            t = c.get("techniques", {}).get("tardis", {})
            first = min(t.get("selected", 0), 30)
            g = c["goals"]["branch"]
            rows.append((t.get("selected", 0), t.get("solved_of_first_30", 0), first, g["covered"] / g["total"]))
        if not rows:
            continue
        n = len(rows)
        sel = sum(r[0] for r in rows) / n
        sat = sum(r[1] for r in rows) / n
        share = sum(r[1] for r in rows) / max(1, sum(r[2] for r in rows))
        cov = sum(r[3] for r in rows) / n
        print(f"| {cls} | {strategy} | {n} | {sel:.1f} | {sat:.1f} | {share:.0%} | {cov:.1%} |")
PY
