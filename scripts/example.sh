#!/usr/bin/env bash
# The main job on the bundled example: set up, build, compile the example
# Java project, and list the coverage goals of its BoundedStack class.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release -q -p ferrosuite
out=target/example-classes
rm -rf "$out" && mkdir -p "$out"
javac -g -d "$out" examples/src/example/*.java
target/release/ferrosuite goals --classpath "$out" --class example.BoundedStack
