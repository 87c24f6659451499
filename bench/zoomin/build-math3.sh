#!/usr/bin/env bash
# Prepares real upstream JUnit 4 tests of Apache commons-math3 as manual tests
# for a few classes under test, compiled against Debian's binary jar.
#
# Usage: bench/zoomin/build-math3.sh OUT
#
#   1. makes sure apt knows a deb-src entry (a twin of the deb.debian.org/debian
#      stanza of /etc/apt/sources.list.d/debian.sources, added only when no
#      deb-src entry exists, and left there), downloads the commons-math3 source
#      package into OUT/src-pkg (skipped when its .orig.tar.xz is there) and
#      unpacks the upstream tree into OUT/upstream;
#   2. compiles (javac --release 8 -g) the test classes listed in TESTS below
#      with -sourcepath OUT/upstream/src/test/java -implicit:class, so only the
#      test-support sources they reference are compiled too, against
#      /usr/share/java/commons-math3.jar + junit4 + hamcrest (the upstream main
#      sources are NOT compiled), into OUT/test-classes;
#   3. runs each test class once with JUnit 4 (full output in OUT/junit/) and
#      prints how many tests ran and failed per class; some may fail against
#      the Debian jar, which is only reported;
#   4. prints the --manual-tests argument: OUT/test-classes:Class1:Class2:...
#
# Needs root (apt-get) the first time. Idempotent: rerunning reuses the
# download and the unpacked tree, and recompiles and reruns the tests.
set -euo pipefail

out=${1:?usage: bench/zoomin/build-math3.sh OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Test classes: the upstream test of each class under test.
#   ComplexTest         -> org.apache.commons.math3.complex.Complex
#   FractionTest        -> org.apache.commons.math3.fraction.Fraction
#   ArithmeticUtilsTest -> org.apache.commons.math3.util.ArithmeticUtils
#   MathUtilsTest       -> org.apache.commons.math3.util.MathUtils
#   MeanTest            -> org.apache.commons.math3.stat.descriptive.moment.Mean
TESTS=(
  org.apache.commons.math3.complex.ComplexTest
  org.apache.commons.math3.fraction.FractionTest
  org.apache.commons.math3.util.ArithmeticUtilsTest
  org.apache.commons.math3.util.MathUtilsTest
  org.apache.commons.math3.stat.descriptive.moment.MeanTest
)

math3_jar=/usr/share/java/commons-math3.jar
junit_jar=/usr/share/java/junit4.jar
sources_file=/etc/apt/sources.list.d/debian.sources

# --- 0. Binary packages: the jar under test, JUnit 4, hamcrest. -------------
missing=()
[[ -f $math3_jar ]] || missing+=(libcommons-math3-java)
[[ -f $junit_jar ]] || missing+=(junit4)
[[ -f /usr/share/java/hamcrest-core.jar || -f /usr/share/java/hamcrest.jar ]] || missing+=(libhamcrest-java)
if ((${#missing[@]})); then
  echo "installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
if [[ -f /usr/share/java/hamcrest-core.jar ]]; then
  hamcrest_jar=/usr/share/java/hamcrest-core.jar
else
  hamcrest_jar=/usr/share/java/hamcrest.jar
fi
cp_libs="$math3_jar:$junit_jar:$hamcrest_jar"

# --- 1. Source package -> OUT/upstream. --------------------------------------
src_pkg=$out/src-pkg
mkdir -p "$src_pkg"
orig() { compgen -G "$src_pkg/commons-math3_*.orig.tar.*" | head -n 1 || true; }

if [[ -z $(orig) ]]; then
  # A deb-src entry: if no apt source file has one, append a copy of the
  # deb.debian.org/debian stanza of debian.sources with "Types: deb-src".
  if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "adding a deb-src entry to $sources_file" >&2
    stanza=$(awk -v RS= '/URIs: *http:\/\/deb\.debian\.org\/debian( |$|\n)/ { print; exit }' "$sources_file")
    [[ -n $stanza ]] || { echo "no deb.debian.org/debian stanza in $sources_file" >&2; exit 1; }
    printf '\n%s\n' "$(sed 's/^Types:.*/Types: deb-src/' <<<"$stanza")" >>"$sources_file"
    apt-get update -qq
  elif [[ -z $(apt-cache showsrc commons-math3 2>/dev/null) ]]; then
    apt-get update -qq   # the entry exists but the source index is not there yet
  fi
  # Prefer the source version of the installed jar; fall back to any version.
  # The .debian.tar.xz may fail to download (apt-get then exits non-zero):
  # only the .orig tarball matters, so success is judged by its presence.
  ver=$(dpkg-query -W -f='${source:Version}' libcommons-math3-java 2>/dev/null || true)
  if [[ -n $ver ]]; then
    (cd "$src_pkg" && apt-get source --download-only "commons-math3=$ver") >&2 || true
  fi
  if [[ -z $(orig) ]]; then
    (cd "$src_pkg" && apt-get source --download-only commons-math3) >&2 || true
  fi
  [[ -n $(orig) ]] || { echo "download of the commons-math3 .orig tarball failed" >&2; exit 1; }
fi
orig_tar=$(orig)

# Unpack once per tarball (stamp file names it); the tarball has one top folder.
upstream=$out/upstream
if [[ $(cat "$upstream/.unpacked-from" 2>/dev/null) != "$(basename "$orig_tar")" ]]; then
  rm -rf "$upstream" && mkdir -p "$upstream"
  tar -xf "$orig_tar" -C "$upstream" --strip-components=1
  basename "$orig_tar" >"$upstream/.unpacked-from"
fi
test_src=$upstream/src/test/java
[[ -d $test_src ]] || { echo "no $test_src in $orig_tar" >&2; exit 1; }

# --- 2. Compile only the listed tests and the test sources they reference. ---
classes=$out/test-classes
rm -rf "$classes" && mkdir -p "$classes"
files=()
for t in "${TESTS[@]}"; do files+=("$test_src/${t//.//}.java"); done
# javac's "Note:" lines (deprecation, unchecked) are dropped; errors are shown.
if ! javac --release 8 -g -nowarn -encoding UTF-8 \
     -cp "$cp_libs" -sourcepath "$test_src" -implicit:class \
     -d "$classes" "${files[@]}" 2>"$out/javac.log"; then
  cat "$out/javac.log" >&2; exit 1
fi
grep -v '^Note: ' "$out/javac.log" >&2 || true
echo "compiled $(find "$classes" -name '*.class' | wc -l) class files" \
  "($(find "$classes" -name '*.class' ! -name '*$*' | wc -l) top-level) into $classes"

# --- 3. Run each test class once with JUnit 4. -------------------------------
logs=$out/junit
rm -rf "$logs" && mkdir -p "$logs"
printf '%-58s %5s %7s\n' "test class" "run" "failed"
for t in "${TESTS[@]}"; do
  log=$logs/$t.txt
  java -cp "$classes:$cp_libs" org.junit.runner.JUnitCore "$t" >"$log" 2>&1 || true
  if ok=$(grep -oE '^OK \([0-9]+ tests?\)' "$log"); then
    run=$(grep -oE '[0-9]+' <<<"$ok"); failed=0
  elif line=$(grep -E '^Tests run: [0-9]+, +Failures: [0-9]+' "$log"); then
    run=$(sed -E 's/^Tests run: ([0-9]+).*/\1/' <<<"$line")
    failed=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
  else
    run=?; failed=?   # JUnit did not finish: see the log
  fi
  printf '%-58s %5s %7s\n' "$t" "$run" "$failed"
done
echo "JUnit output per class in $logs"

# --- 4. The --manual-tests argument. -----------------------------------------
arg=$classes
for t in "${TESTS[@]}"; do arg+=":$t"; done
echo "--manual-tests $arg"
