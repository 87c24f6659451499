#!/usr/bin/env bash
# Digest of what `generate` emits for each class of a corpus, with a fixed
# evaluation budget and seed (which make the output reproducible).
#
#   scripts/output-digest.sh [CORPUS] > digest.txt
#
# Prints one line per class: sha256 of the emitted test file, then the class.
# A refactoring that must not change behaviour is checked by running this
# before and after and comparing the two files (`diff` prints nothing).
# EVALUATIONS (default 3000) and SEED (default 7) set the budget and seed;
# the binary is target/release/ferrosuite (built first).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-corpus/visible.txt}"
evaluations="${EVALUATIONS:-3000}"
seed="${SEED:-7}"
cargo build --release -q -p ferrosuite
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
grep -v '^#' "$corpus" | while read -r jar class; do
  [ -n "$jar" ] || continue
  out="$work/$class"
  target/release/ferrosuite generate --classpath "/usr/share/java/$jar" --class "$class" \
    --evaluations "$evaluations" --seed "$seed" --jobs 2 --out "$out" >/dev/null 2>&1 || true
  file="$(find "$out" -name "*_FerroTest.java" 2>/dev/null | head -n 1 || true)"
  if [ -n "$file" ]; then
    echo "$(sha256sum "$file" | cut -d' ' -f1) $class"
  else
    echo "no-test-file $class"
  fi
done
