#!/usr/bin/env bash
# The main job on the bundled example: set up (JDK, JUnit, JaCoCo), build
# ferrosuite, compile the example project, generate JUnit tests for each of
# its classes, then compile and run them under JUnit with JaCoCo and print
# the coverage table. Tests land in target/example/generated/<class>/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release -q -p ferrosuite
out=target/example
rm -rf "$out" && mkdir -p "$out/classes"
javac -g -d "$out/classes" examples/src/example/*.java
jar cf "$out/examples.jar" -C "$out/classes" .
target/release/ferrosuite bench coverage --corpus corpus/examples.txt --jar-dir "$out" \
  --budget-secs "${BUDGET_SECS:-10}" --out "$out/generated"
