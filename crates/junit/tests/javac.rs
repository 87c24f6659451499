//! The emitted suites compile with javac against the fixture classes of
//! `tests/java` (with `--release 8`), and all their tests pass under JUnit 4
//! (`JUnitCore`) and JUnit 5 (the console launcher).
//!
//! Needs a JDK (`$JAVA_HOME` or Debian's JDK 17) and the Debian JUnit jars
//! in `/usr/share/java`; without them the tests say so and pass.

mod suites;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use junit::JUnitVersion;

const JARS: &str = "/usr/share/java";
const JUNIT4: &[&str] = &["junit4.jar", "hamcrest-core.jar"];
const JUNIT5: &[&str] = &["junit-jupiter-api.jar", "opentest4j.jar", "apiguardian-api.jar"];
/// Mockito 2 and what it needs at run time (Debian's `libmockito-java`), for the suites that mock.
const MOCKITO: &[&str] = &["mockito-core.jar", "byte-buddy.jar", "byte-buddy-agent.jar", "objenesis.jar"];
const CONSOLE: &str = "junit-platform-console-standalone.jar";

/// The JDK and the compiled fixtures and suites, or `None` when the
/// environment lacks the JDK or the jars.
struct Compiled {
    java_home: PathBuf,
    /// The fixture classes.
    classes: PathBuf,
    /// The compiled test classes.
    tests: PathBuf,
}

fn jar(name: &str) -> PathBuf {
    Path::new(JARS).join(name)
}

fn class_path(entries: &[PathBuf]) -> String {
    let entries: Vec<String> = entries.iter().map(|entry| entry.display().to_string()).collect();
    entries.join(":")
}

/// Runs `command`, panicking with its output unless it succeeds.
fn run(command: &mut Command) -> Output {
    let output = command.output().unwrap_or_else(|err| panic!("{command:?}: {err}"));
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Compiles the fixtures, then every suite, once per test run.
fn compiled() -> Option<&'static Compiled> {
    static COMPILED: OnceLock<Option<Compiled>> = OnceLock::new();
    COMPILED.get_or_init(compile).as_ref()
}

fn compile() -> Option<Compiled> {
    let Some(java_home) = model::jdk::find_java_home() else {
        eprintln!("skipped: no JDK (set JAVA_HOME)");
        return None;
    };
    let jars: Vec<PathBuf> =
        JUNIT4.iter().chain(JUNIT5).chain(MOCKITO).chain([&CONSOLE]).map(|name| jar(name)).collect();
    if let Some(missing) = jars.iter().find(|jar| !jar.is_file()) {
        eprintln!("skipped: {} is missing", missing.display());
        return None;
    }
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("junit-javac");
    let _ = std::fs::remove_dir_all(&work);
    let (classes, sources, tests) = (work.join("classes"), work.join("src"), work.join("tests"));
    let fixtures = java_files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/java"));
    javac(&java_home, &[], &classes, &fixtures);
    let mut suites = Vec::new();
    for (_, input) in suites::all() {
        let path = sources.join(input.options.source_path(&input.cut));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, input.emit()).unwrap();
        suites.push(path);
    }
    let mut test_class_path = vec![classes.clone()];
    test_class_path.extend(JUNIT4.iter().chain(JUNIT5).chain(MOCKITO).map(|name| jar(name)));
    javac(&java_home, &test_class_path, &tests, &suites);
    Some(Compiled { java_home, classes, tests })
}

/// `javac --release 8 -cp <class_path> -d <out> <files>`.
fn javac(java_home: &Path, class_path_entries: &[PathBuf], out: &Path, files: &[PathBuf]) {
    let mut command = Command::new(java_home.join("bin/javac"));
    command.args(["--release", "8", "-nowarn", "-encoding", "UTF-8", "-d"]).arg(out);
    if !class_path_entries.is_empty() {
        command.arg("-cp").arg(class_path(class_path_entries));
    }
    run(command.args(files));
}

/// The `.java` files under `dir`, sorted.
fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(java_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "java") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The test classes and the number of tests of the suites for `junit`.
fn suites_for(junit: JUnitVersion) -> (Vec<String>, usize) {
    let inputs: Vec<suites::Input> =
        suites::all().into_iter().map(|(_, input)| input).filter(|input| input.options.junit == junit).collect();
    let classes = inputs.iter().map(|input| input.options.test_class(&input.cut).to_string()).collect();
    (classes, inputs.iter().map(|input| input.tests.len()).sum())
}

#[test]
fn junit_4_suites_compile_and_pass() {
    let Some(compiled) = compiled() else { return };
    let (classes, n_tests) = suites_for(JUnitVersion::Four);
    let mut class_path_entries = vec![compiled.classes.clone(), compiled.tests.clone()];
    class_path_entries.extend(JUNIT4.iter().chain(MOCKITO).map(|name| jar(name)));
    let output = run(Command::new(compiled.java_home.join("bin/java"))
        .arg("-cp")
        .arg(class_path(&class_path_entries))
        .arg("org.junit.runner.JUnitCore")
        .args(&classes));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.lines().any(|line| line == format!("OK ({n_tests} tests)")), "{stdout}");
}

#[test]
fn junit_5_suites_compile_and_pass() {
    let Some(compiled) = compiled() else { return };
    let (classes, n_tests) = suites_for(JUnitVersion::Five);
    let mut command = Command::new(compiled.java_home.join("bin/java"));
    command.arg("-jar").arg(jar(CONSOLE)).arg("--disable-banner").arg("--details=summary");
    let mut entries = vec![compiled.classes.clone(), compiled.tests.clone()];
    entries.extend(MOCKITO.iter().map(|name| jar(name)));
    command.arg("--class-path").arg(class_path(&entries));
    for class in &classes {
        command.arg(format!("--select-class={class}"));
    }
    let output = run(&mut command);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(summary_count(&stdout, "tests successful"), Some(n_tests), "{stdout}");
    assert_eq!(summary_count(&stdout, "tests failed"), Some(0), "{stdout}");
}

/// The number on the console launcher's summary line `[ 25 tests successful ]`.
fn summary_count(stdout: &str, what: &str) -> Option<usize> {
    let line = stdout.lines().find(|line| line.contains(what))?;
    line.trim_matches(|c: char| c == '[' || c == ']' || c.is_whitespace()).split_whitespace().next()?.parse().ok()
}
