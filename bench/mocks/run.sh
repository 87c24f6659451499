#!/usr/bin/env bash
# Mocks on and off (issue 19): compiles testdata/mocks into a jar, then runs
# `bench ablation --feature mocks` on it: branch coverage measured by JaCoCo
# with the emitted suites run under JUnit with Debian's Mockito, per seed,
# with and without mocks. Usage: bench/mocks/run.sh [SEEDS] [BUDGET_SECS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seeds=${1:-3}
budget=${2:-30}
work=$(mktemp -d)
mkdir -p "$work/classes"
javac -d "$work/classes" testdata/mocks/src/shop/*.java
jar cf "$work/shop.jar" -C "$work/classes" .
target/release/ferrosuite bench ablation --feature mocks --corpus bench/mocks/corpus.txt \
  --jar-dir "$work" --budget-secs "$budget" --seeds "$seeds" --out "$work/ablation"
