#!/usr/bin/env bash
# The test suite: set up prerequisites when missing, then run every test
# (unit tests, integration tests that run the real binary and a real JVM)
# on the default JDK (17), then the tests of the executor, the sandbox, the
# instrumentation and verification once more on the newest JDK 21+ in
# /usr/lib/jvm, when there is one (issue 12: JDK 20+ has no Thread.stop).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo test --workspace --release "$@"

newest=""
newest_version=0
for home in /usr/lib/jvm/*; do
  [ -x "$home/bin/javac" ] && [ -f "$home/release" ] || continue
  version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  if [ -n "$version" ] && [ "$version" -ge 21 ] && [ "$version" -gt "$newest_version" ]; then
    newest=$home
    newest_version=$version
  fi
done
if [ -z "$newest" ]; then
  echo "test.sh: no JDK 21 or later in /usr/lib/jvm: the second pass on a modern JDK is skipped" >&2
  exit 0
fi
echo "test.sh: again on JDK $newest_version ($newest)" >&2
JAVA_HOME=$newest cargo test --release -p ferrosuite "$@" \
  --test hostile --test executor --test rogue --test instrument_differential \
  --test environment --test static_reset --test verification --test generate
