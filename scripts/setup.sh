#!/usr/bin/env bash
# Installs what ferrosuite needs on Debian when it is missing: the JDK 17,
# JUnit, hamcrest, JaCoCo and the library jars used by tests and benchmarks
# (the last ten for the wide corpus, corpus/wide.txt), and JaCoCo 0.8.14
# for class files newer than Java 17 (see the end), and z3 (with
# pkg-config) for KAT's static check, and graphviz (the picture of a
# Palus model, `palus model --dot`), and Maven with Debian's packaged
# plugins (project mode's test builds an example project offline).
# Safe to run again: it does nothing when everything is present.
set -euo pipefail

packages=(curl openjdk-17-jdk-headless junit4 junit5 libhamcrest-java libjacoco-java libmockito-java
  libcommons-lang3-java libcommons-collections4-java libcommons-math3-java
  libguava-java libasm-java libbcel-java libjsoup-java libjoda-time-java
  libcommons-cli-java openjdk-17-source
  libcommons-io-java libcommons-text-java libcommons-csv-java libgoogle-gson-java
  libjackson2-core-java libyaml-snake-java libxz-java libcommons-validator-java
  libantlr4-runtime-java libjoda-convert-java
  libz3-dev pkg-config graphviz
  maven libmaven-compiler-plugin-java libsurefire-java libmaven-resources-plugin-java
  libmaven-dependency-plugin-java libmaven-install-plugin-java libmaven-jar-plugin-java)

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

# JaCoCo 0.8.14 (and the ASM 9.9.1 it needs), the first JaCoCo that reads
# Java 25 class files: the reference for class files newer than Java 17,
# which Debian 12's 0.8.6 cannot read. Debian ships it in unstable only, so
# its two packages are fetched from Debian's archive, checked and unpacked
# (not installed: they would replace 0.8.6) into /opt/ferrosuite. Without
# it, the tests that need it say so and skip.
modern_jacoco=/opt/ferrosuite/jacoco-0.8.14
fetch_modern_jacoco() {
  local tmp pool j
  tmp=$(mktemp -d)
  pool=http://deb.debian.org/debian/pool/main
  unpack() { # url sha256: fetch a .deb, check it and unpack it into $tmp/x
    curl -fsSL --retry 3 -o "$tmp/p.deb" "$1" &&
      echo "$2  $tmp/p.deb" | sha256sum -c --quiet - &&
      dpkg-deb -x "$tmp/p.deb" "$tmp/x"
  }
  unpack "$pool/j/jacoco/libjacoco-java_0.8.14-1_all.deb" 1d722a1062b640411f7f1a649f76504b1a932b6d0903831fc6b6e3e18fd23ef7 &&
    unpack "$pool/a/asm/libasm-java_9.9.1-1_all.deb" 06657a64470d1bd7721e91e997dd4e9012cd7b9cb4d478a2d154e967ad5bf56d || {
    rm -rf "$tmp"
    return 1
  }
  j="$tmp/x/usr/share/java"
  $sudo mkdir -p "$modern_jacoco" &&
    $sudo cp "$j/org.jacoco.core-0.8.14.jar" "$modern_jacoco/org.jacoco.core.jar" &&
    $sudo cp "$j/asm-9.9.1.jar" "$modern_jacoco/asm.jar" &&
    $sudo cp "$j/asm-commons-9.9.1.jar" "$modern_jacoco/asm-commons.jar" &&
    $sudo cp "$j/asm-tree-9.9.1.jar" "$modern_jacoco/asm-tree.jar" &&
    $sudo cp "$j/org.jacoco.agent-0.8.14.jar" "$modern_jacoco/org.jacoco.agent.jar"
  local status=$?
  rm -rf "$tmp"
  return $status
}
if [ ! -f "$modern_jacoco/org.jacoco.agent.jar" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if fetch_modern_jacoco; then
    echo "setup: JaCoCo 0.8.14 unpacked into $modern_jacoco" >&2
  else
    $sudo rm -rf "$modern_jacoco"
    echo "setup: warning: could not fetch JaCoCo 0.8.14 from Debian's archive; the tests of Java 18-25 class files against it will skip" >&2
  fi
fi
