#!/usr/bin/env bash
# Installs what ferrosuite needs on Debian when it is missing: the JDK 17,
# JUnit, hamcrest, JaCoCo and the library jars used by tests and benchmarks
# (the last ten for the wide corpus, corpus/wide.txt).
# Safe to run again: it does nothing when everything is present.
set -euo pipefail

packages=(openjdk-17-jdk-headless junit4 junit5 libhamcrest-java libjacoco-java
  libcommons-lang3-java libcommons-collections4-java libcommons-math3-java
  libguava-java libasm-java libbcel-java libjsoup-java libjoda-time-java
  libcommons-cli-java openjdk-17-source
  libcommons-io-java libcommons-text-java libcommons-csv-java libgoogle-gson-java
  libjackson2-core-java libyaml-snake-java libxz-java libcommons-validator-java
  libantlr4-runtime-java libjoda-convert-java)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found; install Rust (https://rustup.rs) first" >&2
  exit 1
fi
