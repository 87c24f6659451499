#!/usr/bin/env bash
# Builds the Palus fixtures of testdata/palus for `bench ablation`:
# OUT/protocols.jar (the classes under test) and OUT/tests (their JUnit 4
# sample tests). Usage: bench/palus/build.sh OUT
set -euo pipefail
out=${1:?usage: bench/palus/build.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out" && mkdir -p "$out/classes" "$out/tests"
javac -g -nowarn -d "$out/classes" "$root"/testdata/palus/src/protocols/*.java
jar cf "$out/protocols.jar" -C "$out/classes" .
javac -g -nowarn -cp "$out/classes:/usr/share/java/junit4.jar" -d "$out/tests" "$root"/testdata/palus/tests/protocols/*.java
echo "built $out/protocols.jar and $out/tests"
