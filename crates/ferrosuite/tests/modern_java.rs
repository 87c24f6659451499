//! Java 21 and 25 (issue 12). The modern fixtures (`testdata/modern`:
//! records, a sealed interface with pattern-matching switches, an enum with
//! bodies, a generic record, a Java 25 constructor prologue) and the classic
//! ones (`testdata/fixtures`), compiled by a JDK 21+ `javac --release 21`
//! and `--release 25`:
//! - count branches, lines and methods like JaCoCo 0.8.14, per class and per method;
//! - behave the same instrumented, under `-Xverify:all` on that JDK;
//! - get passing tests from `generate` run on that JDK, which cover them.
//!
//! Each test prints why it skips when the machine has no JDK 21+ in
//! `/usr/lib/jvm` (or as `$JAVA_HOME`) or no JaCoCo 0.8.14 (`scripts/setup.sh`).

mod util;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use javarun::JacocoRelease;
use model::classpath::ClassPath;

/// The newest JDK of feature version 21 or later: `$JAVA_HOME` or one in `/usr/lib/jvm`.
fn modern_jdk() -> Option<model::jdk::Jdk> {
    let env = std::env::var_os("JAVA_HOME").map(PathBuf::from);
    let listed = std::fs::read_dir(model::jdk::JVM_DIR).into_iter().flatten().flatten().map(|e| e.path());
    let mut found: Vec<model::jdk::Jdk> = env
        .into_iter()
        .chain(listed)
        .map(|home| model::jdk::Jdk { home })
        .filter(|jdk| jdk.tool("javac").is_file() && jdk.feature_version().is_some_and(|v| v >= 21))
        .collect();
    found.sort_by_key(model::jdk::Jdk::feature_version);
    let jdk = found.pop();
    if jdk.is_none() {
        eprintln!("skipped: no JDK 21 or later in {} or $JAVA_HOME", model::jdk::JVM_DIR);
    }
    jdk
}

/// Compiles the modern fixtures (with `src25` for release 25 and up) and,
/// with `classic`, the classic fixtures, for `--release release` into `dir/fixtures.jar`.
fn compile(jdk: &model::jdk::Jdk, release: u32, classic: bool, dir: &Path) -> PathBuf {
    let classes = dir.join(format!("classes-{release}"));
    std::fs::create_dir_all(&classes).unwrap();
    let mut roots = vec![util::repo().join("testdata/modern/src")];
    if release >= 25 {
        roots.push(util::repo().join("testdata/modern/src25"));
    }
    if classic {
        roots.push(util::repo().join("testdata/fixtures/src"));
    }
    let mut sources: Vec<String> = Vec::new();
    for root in &roots {
        sources.extend(java_files(root));
    }
    let release = release.to_string();
    let mut args = vec!["-g", "-nowarn", "--release", &release, "-d", classes.to_str().unwrap()];
    args.extend(sources.iter().map(String::as_str));
    let out = std::process::Command::new(jdk.tool("javac")).args(&args).output().unwrap();
    assert!(out.status.success(), "javac: {}", String::from_utf8_lossy(&out.stderr));
    let jar = dir.join(format!("fixtures-{release}.jar"));
    util::jar_dir(&classes, &jar);
    jar
}

fn java_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(java_files(&p));
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p.display().to_string());
        }
    }
    out.sort();
    out
}

/// JaCoCo 0.8.14's counts of every class of `jar`, by `JacocoBranches --methods`:
/// class → (branches, lines, methods), and (class, "name desc") → branches.
fn jacoco_counts(jdk: &model::jdk::Jdk, jar: &Path, dir: &Path) -> Counts {
    let jars: Vec<String> =
        JacocoRelease::Modern0814.core_jars().unwrap().iter().map(|p| p.display().to_string()).collect();
    let tool = dir.join("tool");
    std::fs::create_dir_all(&tool).unwrap();
    let src = util::repo().join("tools/java/JacocoBranches.java");
    let cp = jars.join(":");
    let javac = std::process::Command::new(jdk.tool("javac"))
        .args(["-nowarn", "-d", tool.to_str().unwrap(), "-cp", &cp, src.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(javac.status.success(), "{}", String::from_utf8_lossy(&javac.stderr));
    let run_cp = format!("{}:{cp}", tool.display());
    let out = std::process::Command::new(jdk.tool("java"))
        .args(["-cp", &run_cp, "JacocoBranches", "--methods", jar.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    parse_counts(&String::from_utf8(out.stdout).unwrap())
}

#[derive(Debug, Default, PartialEq)]
struct Counts {
    classes: BTreeMap<String, [usize; 3]>,
    methods: BTreeMap<(String, String), usize>,
}

fn parse_counts(text: &str) -> Counts {
    let mut counts = Counts::default();
    let mut class = String::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.trim_start().split('\t').collect();
        let n = |i: usize| fields[i].parse::<usize>().unwrap_or_else(|_| panic!("a number in {line:?}"));
        if line.starts_with("  ") {
            counts.methods.insert((class.clone(), fields[0].to_string()), n(1));
        } else {
            class = fields[0].to_string();
            counts.classes.insert(class.clone(), [n(1), n(2), n(3)]);
        }
    }
    counts
}

/// Our counts of the classes JaCoCo printed (it leaves out synthetic classes).
fn our_counts(jar: &Path, classes: &BTreeMap<String, [usize; 3]>) -> Counts {
    let cp = ClassPath::parse(jar.to_str().unwrap()).unwrap();
    let mut counts = Counts::default();
    for name in classes.keys() {
        let cf = cp.load(name).unwrap();
        let goals = analysis::class_goals(&cf).unwrap();
        let is_method = |k: &analysis::GoalKind| *k == analysis::GoalKind::Method;
        let methods = goals.goals.iter().filter(|g| is_method(&g.kind)).count();
        counts.classes.insert(name.clone(), [goals.branch_goal_count(), goals.line_goals.len(), methods]);
        for m in goals.methods.iter().filter(|m| m.method_goal.is_some()) {
            let decisions =
                goals.goals.iter().filter(|g| g.method_index == m.index && g.kind.category() == "branch").count();
            counts.methods.insert((name.clone(), format!("{} {}", m.name, m.descriptor)), decisions);
        }
    }
    counts
}

#[test]
fn goals_of_java_21_and_25_class_files_equal_jacoco_0_8_14s() {
    let Some(jdk) = modern_jdk() else { return };
    if !JacocoRelease::Modern0814.is_installed() {
        eprintln!("skipped: no JaCoCo 0.8.14 in {} (scripts/setup.sh fetches it)", javarun::MODERN_JACOCO_DIR);
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for release in [21, 25] {
        let jar = compile(&jdk, release, true, tmp.path());
        let theirs = jacoco_counts(&jdk, &jar, tmp.path());
        assert!(theirs.classes.len() > 60 && theirs.classes.contains_key("modern.Shape"), "{theirs:?}");
        let ours = our_counts(&jar, &theirs.classes);
        for (class, counts) in &theirs.classes {
            assert_eq!(ours.classes.get(class), Some(counts), "release {release}: {class} [branches, lines, methods]");
        }
        for (method, branches) in &theirs.methods {
            assert_eq!(ours.methods.get(method), Some(branches), "release {release}: {method:?} branches");
        }
    }
}

/// Runs `main` of `class` from `cp` on `jdk` under `-Xverify:all`; its output.
fn run_driver(jdk: &model::jdk::Jdk, cp: &str, class: &str) -> String {
    let out = std::process::Command::new(jdk.tool("java")).args(["-Xverify:all", "-cp", cp, class]).output().unwrap();
    assert!(out.status.success(), "{class}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn instrumented_java_21_and_25_classes_behave_the_same_under_verify_all() {
    let Some(jdk) = modern_jdk() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for release in [21, 25] {
        let jar = compile(&jdk, release, true, tmp.path());
        let jar = jar.to_str().unwrap();
        let out = tmp.path().join(format!("instrumented-{release}"));
        let home = jdk.home.to_str().unwrap();
        let summary =
            util::ferrosuite_ok(&["--java-home", home, "instrument", "--jar", jar, "--out", out.to_str().unwrap()]);
        // As in instrument_differential.rs: one method of BigCode is too long for every probe.
        assert!(summary.contains("(0 failed, 1 methods left without some probes)"), "{summary}");
        let instrumented_cp = format!("{}:{jar}", out.display());
        for driver in ["modern.Driver", "fixtures.Driver"] {
            let original = run_driver(&jdk, jar, driver);
            let instrumented = run_driver(&jdk, &instrumented_cp, driver);
            assert!(original.lines().count() > 30, "{driver} printed too little:\n{original}");
            let diff: Vec<_> = original.lines().zip(instrumented.lines()).filter(|(a, b)| a != b).take(5).collect();
            assert!(diff.is_empty(), "release {release}, {driver}: first differences: {diff:#?}");
            assert_eq!(original.lines().count(), instrumented.lines().count(), "release {release}, {driver}");
        }
    }
}

/// The modern fixtures whose tests `generate` must write. Not every branch
/// can be covered: javac 23+ adds an `iconst_1; ifeq` per record-pattern
/// component whose jump is never taken (4 of `Shape`'s 27 branches), and
/// `JUPITER`'s mass is a constant, so `mass > 1e27` is never false (1 of
/// `Planet`'s 6). With this test's evaluation budget (20,000, about 3 s a
/// class: a fraction of the 30 s of the run in `bench/runs`, which covers
/// every other branch) they must reach [`MIN_BRANCHES`] together and
/// [`MIN_CLASS_BRANCHES`] each (`Money.of` needs a string like `"12.5"`,
/// which takes longer to find: its sides after `Long.parseLong` count, as
/// JaCoCo counts them, only when the amount parses; at 10,000 evaluations
/// seed 7 reached 12 of its 20 branches).
const MODERN_CLASSES: [&str; 6] =
    ["modern.Shape", "modern.Money", "modern.Pair", "modern.Planet", "modern.Tokens", "modern.Temperature"];
/// The share of all their branches the tests must cover.
const MIN_BRANCHES: f64 = 0.85;
/// The share of each class's branches the tests must cover.
const MIN_CLASS_BRANCHES: f64 = 0.7;

#[test]
fn generate_on_the_newest_jdk_covers_the_modern_fixtures_with_passing_tests() {
    let Some(jdk) = modern_jdk() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let release = jdk.feature_version().unwrap().min(25);
    let jar = compile(&jdk, release, false, tmp.path());
    let out = tmp.path().join("out");
    let mut args = vec!["--java-home", jdk.home.to_str().unwrap(), "generate", "--classpath", jar.to_str().unwrap()];
    let classes: Vec<&str> =
        MODERN_CLASSES.into_iter().filter(|c| release >= 25 || !c.ends_with("Temperature")).collect();
    for class in &classes {
        args.extend(["--class", class]);
    }
    args.extend(["--out", out.to_str().unwrap(), "--evaluations", "20000", "--seed", "7"]);
    util::ferrosuite_ok(&args);
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let (mut covered_all, mut total_all) = (0.0, 0.0);
    for class in report["classes"].as_array().unwrap() {
        let name = class["class"].as_str().unwrap();
        assert_eq!(class["status"], "ok", "{class}");
        let removed = format!("{} {}", class["removed_tests_by_cause"], class["removed_assertions_by_cause"]);
        assert!(!removed.contains("fail"), "{name}: {removed}");
        let branches = &class["goals"]["branch"];
        let (covered, total) = (branches["covered"].as_f64().unwrap(), branches["total"].as_f64().unwrap());
        assert!(covered / total >= MIN_CLASS_BRANCHES, "{name}: {covered} of {total} branches: {class}");
        (covered_all, total_all) = (covered_all + covered, total_all + total);
        if name == "modern.Shape" {
            // javac 23+'s constant tests of record patterns are dead, and the triage says so.
            let uncovered = class["uncovered"].as_array().unwrap();
            let dead: Vec<_> =
                uncovered.iter().filter(|u| u["goal"].as_str().unwrap().contains("if (1 == 0)")).collect();
            assert!(dead.iter().all(|u| u["cause"] == "private-or-dead"), "{class}");
            assert!(jdk.feature_version() < Some(23) || !dead.is_empty(), "{class}");
        }
    }
    assert!(covered_all / total_all >= MIN_BRANCHES, "{covered_all} of {total_all} branches");
    let suite = |simple: &str| std::fs::read_to_string(out.join(format!("modern/{simple}_FerroTest.java"))).unwrap();
    // Records through their canonical constructors and accessors, sealed
    // types through their permitted records, enum constants with bodies.
    let money = suite("Money");
    assert!(money.contains("new Money(") && money.contains(".cents()"), "{money}");
    let shape = suite("Shape");
    for record in ["new Shape.Circle(", "new Shape.Rect(", "new Shape.Square("] {
        assert!(shape.contains(record), "{record} in {shape}");
    }
    // `area` has no overload: a record passes without a cast to `Shape`.
    let cast = shape.lines().any(|l| l.contains("Shape.area((Shape) ") && !l.contains("(Shape) null"));
    assert!(shape.contains("Shape.area(") && !cast, "{shape}");
    // `describe` has no overload either: its `case null` gets a bare `null`.
    if shape.contains("\"nothing\"") {
        assert!(shape.contains("Shape.describe(null)") && !shape.contains("(Object) null"), "{shape}");
    }
    assert!(suite("Planet").contains("Planet.JUPITER"));
}
