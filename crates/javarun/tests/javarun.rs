//! `javarun`: compile hand-written JUnit 4 and JUnit 5 tests of
//! `example.BoundedStack` (`testdata/junit/`), run chosen methods in two
//! orders, check the verdicts (a passing, a failing and an order-dependent
//! test; a hanging test and one that calls `System.exit`), and measure
//! coverage with the JaCoCo agent against `tools/java/JacocoBranches`.

// The integration-test helpers of the binary crate (repository root, JDK tools, fixtures).
// Its `ferrosuite()` finds the binary with `option_env!`, which only the binary's own tests use.
#[path = "../../ferrosuite/tests/util/mod.rs"]
mod util;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use javarun::{
    Coverage, JacocoRelease, JacocoSetup, JunitJars, TestVerdict, compile_tests, jacoco_coverage, run_tests,
};

const CUT: &str = "example.BoundedStack";
const JACOCO_CP: &str = "/usr/share/java/org.jacoco.core.jar:/usr/share/java/asm.jar:/usr/share/java/asm-commons.jar:/usr/share/java/asm-tree.jar";
const TIMEOUT: Duration = Duration::from_secs(20);

fn the_jdk() -> javarun::Jdk {
    javarun::Jdk::find().expect("a JDK (scripts/setup.sh installs one)")
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// `example.BoundedStack` compiled with `javac -g` (Java 17 class files) into `dir/cut`.
fn compile_cut(dir: &Path) -> PathBuf {
    let out = dir.join("cut");
    std::fs::create_dir_all(&out).unwrap();
    let src = util::repo().join("examples/src/example/BoundedStack.java");
    util::jdk_tool("javac", &["-g", "-d", out.to_str().unwrap(), src.to_str().unwrap()]);
    out
}

/// The 1-based line of `testdata/junit/FILE` that contains `needle`.
fn line_of(file: &str, needle: &str) -> u32 {
    let text = std::fs::read_to_string(util::repo().join("testdata/junit").join(file)).unwrap();
    let i = text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle} not in {file}"));
    i as u32 + 1
}

/// JaCoCo's static (branches, lines) totals for `class` in `classes`, from `tools/java/JacocoBranches`.
fn jacoco_branches_totals(dir: &Path, classes: &Path, class: &str) -> (u32, u32) {
    let tool = dir.join("jacoco-branches");
    std::fs::create_dir_all(&tool).unwrap();
    let src = util::repo().join("tools/java/JacocoBranches.java");
    util::jdk_tool("javac", &["-nowarn", "-d", tool.to_str().unwrap(), "-cp", JACOCO_CP, src.to_str().unwrap()]);
    let cp = format!("{}:{JACOCO_CP}", tool.display());
    let out = util::java(&["-cp", &cp, "JacocoBranches", classes.to_str().unwrap(), class]);
    let fields: Vec<&str> = out.trim().split('\t').collect();
    assert_eq!(fields[0], class, "{out}");
    (fields[1].parse().unwrap(), fields[2].parse().unwrap())
}

fn assert_verdict(v: &TestVerdict, name: &str, passed: bool) {
    assert_eq!((v.name.as_str(), v.passed), (name, passed), "{v:?}");
}

/// Compiles one hand test against the CUT and the JUnit jars; returns the test-classes directory.
fn compile_hand_test(dir: &Path, cut: &Path, junit: &JunitJars, file: &str) -> PathBuf {
    let tests = dir.join("tests");
    let source = util::repo().join("testdata/junit").join(file);
    let cp = format!("{}:{}", cut.display(), junit.compile_class_path());
    let start = Instant::now();
    let result = compile_tests(&the_jdk(), &[source], &cp, &tests, Some(8)).unwrap();
    eprintln!("compile {file}: {} ms", start.elapsed().as_millis());
    assert_eq!(result, Ok(()));
    tests
}

/// The JUnit 4 and JUnit 5 hand tests: version, test class, file in `testdata/junit`.
const HAND_TESTS: [(u8, &str, &str); 2] = [
    (4, "example.BoundedStackHandTest", "BoundedStackHandTest.java"),
    (5, "example.BoundedStackHandTest5", "BoundedStackHandTest5.java"),
];

/// The JDK, the JUnit `version` jars, and the CUT and the hand test `file` compiled in `dir`.
fn compiled_hand_test(dir: &Path, version: u8, file: &str) -> (javarun::Jdk, JunitJars, PathBuf, PathBuf) {
    let junit = JunitJars::debian(version).unwrap();
    let cut = compile_cut(dir);
    let tests = compile_hand_test(dir, &cut, &junit, file);
    (the_jdk(), junit, cut, tests)
}

/// Runs the pass / fail / order-dependent tests in both orders with JaCoCo and checks everything.
fn two_orders_and_coverage(version: u8, test_class: &str, file: &str, failure: (&str, &str)) {
    let tmp = tempfile::tempdir().unwrap();
    let jdk = the_jdk();
    let junit = JunitJars::debian(version).unwrap();
    let cut = compile_cut(tmp.path());
    let tests = compile_hand_test(tmp.path(), &cut, &junit, file);
    let cp = cut.display().to_string();
    let fails_line = line_of(file, "assertEquals(1, stack.size())");
    let order_line = line_of(file, "assertEquals(0, pushPopRuns)");

    // order A: the order-dependent test runs before testPushPop and passes
    let exec_a = tmp.path().join("a.exec");
    let jacoco = JacocoSetup::new(&jdk, JacocoRelease::Debian086, &exec_a, CUT).unwrap();
    let order = names(&["testOrderDependent", "testPushPop", "testFails", "testPopEmptyThrows"]);
    let start = Instant::now();
    let a = run_tests(&jdk, &tests, &cp, test_class, &order, &junit, Some(&jacoco), TIMEOUT, None).unwrap();
    eprintln!("JUnit {version} run of 4 tests with JaCoCo: {} ms", start.elapsed().as_millis());
    assert_eq!(a.len(), 4, "{a:#?}");
    assert_verdict(&a[0], "testOrderDependent", true);
    assert_verdict(&a[1], "testPushPop", true);
    assert_verdict(&a[2], "testFails", false);
    assert_verdict(&a[3], "testPopEmptyThrows", true);
    assert_eq!(a[0].message, None);
    assert_eq!(a[2].line, Some(fails_line), "{:?}", a[2]);
    let message = a[2].message.as_deref().unwrap();
    assert!(message.contains(failure.0) && message.contains(failure.1), "{message}");

    // order B: testPushPop first, so the order-dependent test fails
    let order = names(&["testPushPop", "testOrderDependent", "testFails", "testPopEmptyThrows"]);
    let start = Instant::now();
    let b = run_tests(&jdk, &tests, &cp, test_class, &order, &junit, None, TIMEOUT, None).unwrap();
    eprintln!("JUnit {version} run of 4 tests without JaCoCo: {} ms", start.elapsed().as_millis());
    assert_eq!(
        b.iter().map(|v| (v.name.as_str(), v.passed)).collect::<Vec<_>>(),
        [("testPushPop", true), ("testOrderDependent", false), ("testFails", false), ("testPopEmptyThrows", true),]
    );
    assert_eq!(b[1].line, Some(order_line), "{:?}", b[1]);
    assert!(b[1].message.as_deref().unwrap().contains('1'), "{:?}", b[1]);

    // coverage of order A against JaCoCo's static totals
    let start = Instant::now();
    let cov = jacoco_coverage(&jdk, JacocoRelease::Debian086, &exec_a, &cut, CUT).unwrap();
    eprintln!("JaCoCo report: {} ms: {cov:?}", start.elapsed().as_millis());
    let (branches, lines) = jacoco_branches_totals(tmp.path(), &cut, CUT);
    assert_eq!((cov.branches_total, cov.lines_total), (branches, lines));
    assert!(cov.lines_covered > 0 && cov.lines_covered < cov.lines_total, "{cov:?}");
    assert!(cov.branches_covered > 0 && cov.branches_covered < cov.branches_total, "{cov:?}");

    // an .exec file that does not exist: nothing covered, same totals
    let none = jacoco_coverage(&jdk, JacocoRelease::Debian086, &tmp.path().join("missing.exec"), &cut, CUT).unwrap();
    assert_eq!(none, Coverage { lines_covered: 0, branches_covered: 0, ..cov });
}

#[test]
fn junit4_two_orders_and_jacoco_coverage() {
    two_orders_and_coverage(
        4,
        "example.BoundedStackHandTest",
        "BoundedStackHandTest.java",
        ("AssertionError", "expected:<1> but was:<0>"),
    );
}

#[test]
fn junit5_two_orders_and_jacoco_coverage() {
    two_orders_and_coverage(
        5,
        "example.BoundedStackHandTest5",
        "BoundedStackHandTest5.java",
        ("AssertionFailedError", "expected: <1> but was: <0>"),
    );
}

/// A hanging test is killed and reported, a test that calls `System.exit`
/// is reported, and the tests after each run in a new JVM (the static
/// counter starts again at 0); JaCoCo's data from every JVM is kept.
#[test]
fn timeout_and_system_exit_restart_the_jvm() {
    for (version, test_class, file) in HAND_TESTS {
        let tmp = tempfile::tempdir().unwrap();
        let (jdk, junit, cut, tests) = compiled_hand_test(tmp.path(), version, file);
        let exec = tmp.path().join("run.exec");
        let jacoco = JacocoSetup::new(&jdk, JacocoRelease::Debian086, &exec, CUT).unwrap();
        let order = names(&[
            "testPushPop",
            "testHangs",
            "testOrderDependent",
            "testPushPop",
            "testExits",
            "testOrderDependent",
            "testFails",
        ]);
        let start = Instant::now();
        let timeout = Duration::from_millis(1500);
        let v = run_tests(
            &jdk,
            &tests,
            &cut.display().to_string(),
            test_class,
            &order,
            &junit,
            Some(&jacoco),
            timeout,
            None,
        )
        .unwrap();
        let elapsed = start.elapsed();
        eprintln!("JUnit {version}: hang + exit run: {} ms", elapsed.as_millis());
        assert_eq!(
            v.iter().map(|v| (v.name.as_str(), v.passed)).collect::<Vec<_>>(),
            [
                ("testPushPop", true),
                ("testHangs", false),
                ("testOrderDependent", true), // a new JVM
                ("testPushPop", true),
                ("testExits", false),
                ("testOrderDependent", true), // a new JVM again
                ("testFails", false),
            ]
        );
        assert!(v[1].message.as_deref().unwrap().contains("timed out after 1500 ms"), "{:?}", v[1]);
        assert!(v[4].message.as_deref().unwrap().contains("exit status: 42"), "{:?}", v[4]);
        assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
        // the killed JVMs wrote their data too: testHangs's loop and testExits's push ran
        let cov = jacoco_coverage(&jdk, JacocoRelease::Debian086, &exec, &cut, CUT).unwrap();
        assert!(cov.lines_covered >= 10, "{cov:?}");
    }
}

#[test]
fn compile_errors_name_file_line_and_message() {
    let tmp = tempfile::tempdir().unwrap();
    let jdk = the_jdk();
    let junit = JunitJars::debian(4).unwrap();
    let cut = compile_cut(tmp.path());
    let src = tmp.path().join("src/example/Broken_FerroTest.java");
    std::fs::create_dir_all(src.parent().unwrap()).unwrap();
    std::fs::write(
        &src,
        "package example;\n\
         import org.junit.Test;\n\
         public class Broken_FerroTest {\n\
         \x20   @Test public void testGood() { new BoundedStack(1).push(1); }\n\
         \x20   @Test public void testUnknown() { new BoundedStack(1).pushAll(1); }\n\
         \x20   @Test public void testType() { String s = new BoundedStack(1).size(); }\n\
         \x20   @Test public void testUnicode() { String s = \"\u{e9}\u{2603}\"; int i = s; }\n\
         }\n",
    )
    .unwrap();
    let cp = format!("{}:{}", cut.display(), junit.compile_class_path());
    let errors =
        compile_tests(&jdk, std::slice::from_ref(&src), &cp, &tmp.path().join("out"), None).unwrap().unwrap_err();
    assert_eq!(errors.iter().map(|e| e.line).collect::<Vec<_>>(), [5, 6, 7], "{errors:#?}");
    assert!(errors.iter().all(|e| e.file == src), "{errors:#?}");
    assert!(errors[0].message.starts_with("cannot find symbol\nsymbol:   method pushAll(int)"), "{errors:#?}");
    assert_eq!(errors[0].column, Some(58), "{errors:#?}"); // the `.` of `.pushAll`
    assert_eq!(errors[1].message, "incompatible types: int cannot be converted to String");
    assert_eq!(errors[2].message, "incompatible types: String cannot be converted to int");

    // dropping the broken methods makes it compile
    let text = std::fs::read_to_string(&src).unwrap();
    let kept: String = text
        .lines()
        .enumerate()
        .filter(|(i, _)| ![5, 6, 7].contains(&(i + 1)))
        .map(|(_, l)| l.to_string() + "\n")
        .collect();
    std::fs::write(&src, kept).unwrap();
    assert_eq!(compile_tests(&jdk, &[src], &cp, &tmp.path().join("out"), Some(8)).unwrap(), Ok(()));

    // errors without a source line are Err: a missing source file
    let err = compile_tests(&jdk, &[tmp.path().join("Nope.java")], &cp, &tmp.path().join("out"), None).unwrap_err();
    assert!(format!("{err:#}").contains("Nope.java"), "{err:#}");
}

#[test]
fn javac_is_killed_at_its_deadline() {
    let tmp = tempfile::tempdir().unwrap();
    let junit = JunitJars::debian(4).unwrap();
    let cut = compile_cut(tmp.path());
    let source = util::repo().join("testdata/junit/BoundedStackHandTest.java");
    let cp = format!("{}:{}", cut.display(), junit.compile_class_path());
    let start = Instant::now();
    let deadline = Some(start + Duration::from_millis(100));
    let result = javarun::compile_tests_until(&the_jdk(), &[source], &cp, &tmp.path().join("out"), None, deadline);
    assert!(matches!(result, Err(javarun::Error::JavacStopped)), "{result:?}");
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
}

#[test]
fn missing_junit_jars_are_named_with_their_package() {
    let empty = tempfile::tempdir().unwrap();
    let e4 = JunitJars::debian_in(empty.path(), 4).unwrap_err().to_string();
    assert!(e4.contains("junit4.jar") && e4.contains("apt-get install junit4"), "{e4}");
    let e5 = JunitJars::debian_in(empty.path(), 5).unwrap_err().to_string();
    assert!(e5.contains("junit-jupiter-api.jar") && e5.contains("apt-get install junit5"), "{e5}");
    let e3 = JunitJars::debian(3).unwrap_err().to_string();
    assert!(e3.contains("unsupported JUnit version 3"), "{e3}");
    let missing = empty.path().join("junit.jar");
    let e = JunitJars::from_class_path(4, missing.to_str().unwrap()).unwrap_err().to_string();
    assert!(e.contains("junit.jar") && e.contains("does not exist"), "{e}");

    let j5 = JunitJars::debian(5).unwrap();
    assert!(j5.run.len() > j5.compile.len());
    assert!(j5.run.iter().any(|p| p.ends_with("junit-platform-launcher.jar")));
    assert!(!j5.compile_class_path().contains("junit-platform-launcher.jar"));
}

#[test]
fn runner_errors_unknown_class_unknown_method_and_wrong_junit() {
    let tmp = tempfile::tempdir().unwrap();
    let jdk = the_jdk();
    let junit4 = JunitJars::debian(4).unwrap();
    let cut = compile_cut(tmp.path());
    let tests = compile_hand_test(tmp.path(), &cut, &junit4, "BoundedStackHandTest.java");
    let cp = cut.display().to_string();
    let run = |class: &str, order: &[&str], junit: &JunitJars| {
        run_tests(&jdk, &tests, &cp, class, &names(order), junit, None, TIMEOUT, None)
    };

    let err = run("example.NoSuchTest", &["testPushPop"], &junit4).unwrap_err().to_string();
    assert!(err.contains("cannot load test class example.NoSuchTest"), "{err}");

    let v = run("example.BoundedStackHandTest", &["testNope", "testPushPop"], &junit4).unwrap();
    assert_verdict(&v[0], "testNope", false);
    assert!(v[0].message.as_deref().unwrap().contains("testNope"), "{v:?}");
    assert_verdict(&v[1], "testPushPop", true);

    // JUnit 5 tests of a JUnit 4 class: none found
    let junit5 = JunitJars::debian(5).unwrap();
    let v = run("example.BoundedStackHandTest", &["testPushPop"], &junit5).unwrap();
    assert_verdict(&v[0], "testPushPop", false);

    // the JUnit 5 runner without the JUnit 5 jars
    let only4 = JunitJars { version: 5, ..junit4.clone() };
    let err = run("example.BoundedStackHandTest", &["testPushPop"], &only4).unwrap_err().to_string();
    assert!(err.contains("JUnit 5 is not on the class path"), "{err}");

    let err = run("example.BoundedStackHandTest", &["bad name"], &junit4).unwrap_err().to_string();
    assert!(err.contains("not a test method name"), "{err}");
    assert!(run("example.BoundedStackHandTest", &[], &junit4).unwrap().is_empty());
}

/// javac 17 gives an enum whose constants have bodies a `PermittedSubclasses`
/// attribute, which Debian's JaCoCo 0.8.6 agent cannot instrument; the
/// helper agent strips it first, so the enum's coverage is measured.
#[test]
fn java17_enum_with_constant_bodies_is_covered() {
    let tmp = tempfile::tempdir().unwrap();
    let jdk = the_jdk();
    let junit = JunitJars::debian(4).unwrap();
    let classes = util::compile(
        tmp.path(),
        &[(
            "p/Op.java",
            "package p;\n\
             public enum Op {\n\
             \x20   ADD { public int apply(int a, int b) { return a > 0 ? a + b : b; } },\n\
             \x20   SUB { public int apply(int a, int b) { return a - b; } };\n\
             \x20   public abstract int apply(int a, int b);\n\
             \x20   public static int twice(Op o, int x) {\n\
             \x20       if (o == ADD) return o.apply(x, x);\n\
             \x20       return 0;\n\
             \x20   }\n\
             }\n",
        )],
        &[],
    );
    let test_src = tmp.path().join("test/p/OpTest.java");
    std::fs::create_dir_all(test_src.parent().unwrap()).unwrap();
    std::fs::write(
        &test_src,
        "package p;\nimport org.junit.Test;\nimport static org.junit.Assert.assertEquals;\n\
         public class OpTest { @Test public void testTwice() { assertEquals(4, Op.twice(Op.ADD, 2)); } }\n",
    )
    .unwrap();
    let tests = tmp.path().join("test-classes");
    let cp = format!("{}:{}", classes.display(), junit.compile_class_path());
    assert_eq!(compile_tests(&jdk, &[test_src], &cp, &tests, None).unwrap(), Ok(()));
    let exec = tmp.path().join("op.exec");
    let jacoco = JacocoSetup::new(&jdk, JacocoRelease::Debian086, &exec, "p.Op").unwrap();
    let v = run_tests(
        &jdk,
        &tests,
        &classes.display().to_string(),
        "p.OpTest",
        &names(&["testTwice"]),
        &junit,
        Some(&jacoco),
        TIMEOUT,
        None,
    )
    .unwrap();
    assert!(v[0].passed, "{v:?}");
    let cov = jacoco_coverage(&jdk, JacocoRelease::Debian086, &exec, &classes, "p.Op").unwrap();
    // Op: 5 lines (enum constants, twice's three), Op$1: 1, Op$2: 1; all but `return 0` ran
    assert_eq!((cov.lines_covered, cov.lines_total), (6, 7), "{cov:?}");
    assert_eq!((cov.branches_covered, cov.branches_total), (2, 4), "{cov:?}");
}

/// Isolated, each test sees the static state of a new JVM (the static
/// counter of the order-dependent test is fresh), in one JVM; with a
/// deadline, a run that hangs is killed then and its verdicts stop at the
/// test that was running.
#[test]
fn isolated_tests_see_fresh_statics_and_a_deadline_ends_the_run() {
    for (version, test_class, file) in HAND_TESTS {
        let tmp = tempfile::tempdir().unwrap();
        let (jdk, junit, cut, tests) = compiled_hand_test(tmp.path(), version, file);
        let cp = cut.display().to_string();
        let mut run = javarun::TestRun {
            jdk: &jdk,
            test_classes_dir: &tests,
            class_path: &cp,
            test_class,
            junit: &junit,
            jacoco: None,
            timeout: TIMEOUT,
            confiner: None,
            deadline: None,
            isolated: true,
            enable_assertions: false,
            extra: None,
        };
        let order = names(&["testPushPop", "testOrderDependent", "testPushPop", "testOrderDependent", "testFails"]);
        let v = run.run(&order).unwrap();
        let passed: Vec<bool> = v.iter().map(|v| v.passed).collect();
        assert_eq!(passed, [true, true, true, true, false], "JUnit {version}: {v:#?}");

        run.isolated = false;
        let start = Instant::now();
        run.deadline = Some(start + Duration::from_secs(4));
        let v = run.run(&names(&["testPushPop", "testHangs", "testPushPop"])).unwrap();
        let elapsed = start.elapsed();
        assert_eq!(v.len(), 2, "JUnit {version}: the test after the hang has no verdict: {v:#?}");
        assert_verdict(&v[0], "testPushPop", true);
        assert_verdict(&v[1], "testHangs", false);
        assert!(v[1].stopped_at_deadline() && !v[1].timed_out(), "{v:#?}");
        assert!(v[1].duration > Duration::from_secs(2), "{v:#?}");
        assert!(elapsed < Duration::from_millis(5500), "JUnit {version}: the run ended {elapsed:?} after its start");
    }
}
