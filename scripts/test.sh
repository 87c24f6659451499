#!/usr/bin/env bash
# The test suite: set up prerequisites when missing, then run every test
# (unit tests, integration tests that run the real binary and a real JVM).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo test --workspace --release "$@"
