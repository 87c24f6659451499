//! Helpers for integration tests: run the real `ferrosuite` binary, a real
//! JDK, and compile the Java fixtures of `testdata/`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The JDK home: `$JAVA_HOME` or Debian's JDK 17.
pub fn jdk() -> PathBuf {
    std::env::var_os("JAVA_HOME")
        .map(PathBuf::from)
        .filter(|h| h.join("bin/javac").exists())
        .unwrap_or_else(|| PathBuf::from("/usr/lib/jvm/java-17-openjdk-amd64"))
}

/// Runs a JDK tool and returns its output; panics with stderr on failure.
pub fn jdk_tool(tool: &str, args: &[&str]) -> Output {
    let out = Command::new(jdk().join("bin").join(tool)).args(args).output().unwrap();
    assert!(out.status.success(), "{tool} {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Runs `java ARGS` and returns stdout; panics on a non-zero exit.
pub fn java(args: &[&str]) -> String {
    String::from_utf8(jdk_tool("java", args).stdout).unwrap()
}

/// Compiles every `.java` file under `src_dir` into `out` with `javac -g`
/// and the given extra flags (e.g. `["--release", "8"]`).
pub fn javac_dir(src_dir: &Path, out: &Path, flags: &[&str]) {
    let mut files: Vec<String> = Vec::new();
    collect_java(src_dir, &mut files);
    files.sort();
    let mut args: Vec<&str> = vec!["-g", "-nowarn", "-d", out.to_str().unwrap()];
    args.extend_from_slice(flags);
    args.extend(files.iter().map(String::as_str));
    jdk_tool("javac", &args);
}

fn collect_java(dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_java(&p, out);
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p.to_str().unwrap().to_string());
        }
    }
}

/// Compiles `src` into `dir/classes` and packs it into `jar` with a
/// manifest that says `Sealed: true` (every package of the jar sealed).
pub fn sealed_jar(src: &Path, dir: &Path, jar: &Path) {
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    javac_dir(src, &classes, &[]);
    let manifest = dir.join("manifest.txt");
    std::fs::write(&manifest, "Sealed: true\n").unwrap();
    let (m, j, c) = (manifest.to_str().unwrap(), jar.to_str().unwrap(), classes.to_str().unwrap());
    let packed = jdk_tool("jar", &["--create", "--file", j, "--manifest", m, "-C", c, "."]);
    assert!(packed.status.success(), "{packed:?}");
}

/// Packs a directory of classes into a jar with the JDK's `jar` tool.
pub fn jar_dir(classes: &Path, jar: &Path) {
    jdk_tool("jar", &["cf", jar.to_str().unwrap(), "-C", classes.to_str().unwrap(), "."]);
}

/// A jar `dir/p.jar` of `n` small classes `p.C0`, `p.C1`, ... of growing
/// size (`p.C{i}` has i + 1 methods with one branch each), for the tests of
/// sharding.
pub fn sized_classes_jar(dir: &Path, n: usize) -> PathBuf {
    let sources: Vec<(String, String)> = (0..n)
        .map(|i| {
            let methods: String = (0..=i)
                .map(|m| format!("public int f{m}(int x) {{ if (x > {m}) {{ return 1; }} return 2; }} "))
                .collect();
            (format!("p/C{i}.java"), format!("package p; public class C{i} {{ {methods}}}"))
        })
        .collect();
    let sources: Vec<(&str, &str)> = sources.iter().map(|(p, s)| (p.as_str(), s.as_str())).collect();
    let classes = compile(&dir.join("build"), &sources, &[]);
    let jar = dir.join("p.jar");
    jar_dir(&classes, &jar);
    jar
}

/// Packs a directory of classes into a jar without compression (entries
/// stored), so that a test can find and damage a class's bytes in it.
pub fn jar_dir_stored(classes: &Path, jar: &Path) {
    jdk_tool(
        "jar",
        &["--create", "--no-compress", "--file", jar.to_str().unwrap(), "-C", classes.to_str().unwrap(), "."],
    );
}

/// Writes `sources` (path under `dir/src`, text) and compiles them with
/// `javac -encoding UTF-8` and `flags` into `dir/classes`, which it returns.
pub fn compile(dir: &Path, sources: &[(&str, &str)], flags: &[&str]) -> PathBuf {
    let src = dir.join("src");
    for (path, text) in sources {
        let file = src.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    let mut all = vec!["-encoding", "UTF-8"];
    all.extend_from_slice(flags);
    javac_dir(&src, &classes, &all);
    classes
}

/// Runs the real `ferrosuite` binary with `FERROSUITE_*` variables cleared.
pub fn ferrosuite(args: &[&str]) -> Output {
    ferrosuite_in(Path::new("."), args)
}

/// Like [`ferrosuite`], with `cwd` as the working directory.
pub fn ferrosuite_in(cwd: &Path, args: &[&str]) -> Output {
    // `option_env!`: other crates' tests include this module too (they do not run the binary).
    let Some(exe) = option_env!("CARGO_BIN_EXE_ferrosuite") else {
        panic!("only the ferrosuite crate's tests run the binary");
    };
    let mut cmd = Command::new(exe);
    for (k, _) in std::env::vars() {
        if k.starts_with("FERROSUITE_") {
            cmd.env_remove(k);
        }
    }
    cmd.current_dir(cwd).args(args).output().unwrap()
}

/// Like [`ferrosuite`] but panics unless the exit code is 0; returns stdout.
pub fn ferrosuite_ok(args: &[&str]) -> String {
    let out = ferrosuite(args);
    assert!(out.status.success(), "ferrosuite {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `ferrosuite generate` on class `class` of the class path `jar`
/// with `--out out` and the further `args`; panics unless it exits with 0
/// and reports the class `ok`. Returns the class's entry of `report.json`.
pub fn generate_ok(jar: &Path, class: &str, out: &Path, args: &[&str]) -> serde_json::Value {
    let base = ["generate", "--classpath", jar.to_str().unwrap(), "--class", class, "--out", out.to_str().unwrap()];
    ferrosuite_ok(&[&base[..], args].concat());
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let entry = report["classes"][0].clone();
    assert_eq!(entry["status"], "ok", "{entry}");
    entry
}

/// The goals that `class` (an entry of `report.json`) lists as uncovered.
pub fn uncovered_goals(class: &serde_json::Value) -> Vec<String> {
    let uncovered = class["uncovered"].as_array().map(Vec::as_slice).unwrap_or_default();
    uncovered.iter().filter_map(|u| u["goal"].as_str().map(str::to_owned)).collect()
}

/// The fixtures of `testdata/fixtures`, compiled with `flags`, as a jar in `dir`.
pub fn fixtures_jar(dir: &Path, flags: &[&str]) -> PathBuf {
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    javac_dir(&repo().join("testdata/fixtures/src"), &classes, flags);
    let jar = dir.join("fixtures.jar");
    jar_dir(&classes, &jar);
    jar
}

/// Compiles `testdata/generate-edge` into `dir/edge.jar` (the name tests
/// and corpora of this folder use), which it returns.
pub fn edge_jar(dir: &Path) -> PathBuf {
    let edge = dir.join("edge.jar");
    std::fs::rename(testdata_jar(dir, "generate-edge"), &edge).unwrap();
    edge
}

/// Compiles the Java fixtures `testdata/<name>/src` into `dir/classes` and
/// packs them into `dir/<name>.jar`, which it returns. Panics when javac
/// or jar fails.
pub fn testdata_jar(dir: &Path, name: &str) -> PathBuf {
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    javac_dir(&repo().join("testdata").join(name).join("src"), &classes, &[]);
    let jar = dir.join(format!("{name}.jar"));
    jar_dir(&classes, &jar);
    jar
}

/// Compiles the test classes `sources` (class name, source file) against
/// `classes` and JUnit 4 into `test_classes`, runs each under JUnit (the
/// test methods `test_methods` finds in its source: `junit::test_methods_in`)
/// and panics unless every test of each passes.
pub fn all_pass_under_junit4(
    classes: &Path,
    test_classes: &Path,
    sources: &[(String, PathBuf)],
    test_methods: fn(&str) -> Vec<String>,
) {
    all_pass_under_junit(4, classes, test_classes, sources, test_methods);
}

/// [`all_pass_under_junit4`] with JUnit `version` (4 or 5), and Mockito
/// when installed; `classes` may be a class path.
pub fn all_pass_under_junit(
    version: u8,
    classes: &Path,
    test_classes: &Path,
    sources: &[(String, PathBuf)],
    test_methods: fn(&str) -> Vec<String>,
) {
    let jdk = javarun::Jdk::find().unwrap();
    let junit = javarun::JunitJars::debian(version).unwrap();
    // Mocking suites need Mockito (Debian's libmockito-java, which the set-up installs).
    let junit = junit.with_mockito().unwrap_or(junit);
    let files: Vec<PathBuf> = sources.iter().map(|(_, s)| s.clone()).collect();
    let cp = format!("{}:{}", classes.display(), junit.compile_class_path());
    javarun::compile_tests(&jdk, &files, &cp, test_classes, None).unwrap().expect("the test classes compile");
    for (class, source) in sources {
        let names = test_methods(&std::fs::read_to_string(source).unwrap());
        let verdicts = javarun::run_tests(
            &jdk,
            test_classes,
            classes.to_str().unwrap(),
            class,
            &names,
            &junit,
            None,
            std::time::Duration::from_secs(10),
            None,
        )
        .unwrap();
        assert_eq!(verdicts.len(), names.len(), "{class}");
        assert!(verdicts.iter().all(|v| v.passed), "{class}: {verdicts:?}");
    }
}
