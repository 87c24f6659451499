//! The executor survives hostile classes under test. Each hostile case
//! runs three times in a row through the same pool, each time followed by
//! a normal test that must still return the right value and trace.

mod util;

use std::time::Duration;

use exec::{ExecConfig, ExecutionResult, Executor, StatementOutcome, TestOutcome, ValueSummary};
use jvm::pool::{Pool, WorkerConfig};
use model::descriptor::MethodDescriptor;
use model::names::BinaryName;
use testcase::{MethodRef, TestCase, TestCaseBuilder};

const MAX_OUTPUT: usize = 64 * 1024;

fn pool(tmp: &std::path::Path) -> Pool {
    let jar = util::testdata_jar(tmp, "hostile");
    let out = tmp.join("instrumented");
    util::ferrosuite_ok(&["instrument", "--jar", jar.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let cfg = WorkerConfig {
        exe: env!("CARGO_BIN_EXE_ferrosuite").into(),
        java_home: util::jdk(),
        class_path: format!("{}:{}", out.display(), jar.display()),
        heap_mb: 256,
        environment: Default::default(),
    };
    let exec = ExecConfig {
        timeout: Duration::from_secs(1),
        max_output: MAX_OUTPUT,
        max_string: 100,
        ..ExecConfig::default()
    };
    Pool::new(cfg, exec, 1).unwrap()
}

fn call(class: &str, name: &str, desc: &str, int_arg: Option<i32>) -> TestCase {
    let mut t = TestCaseBuilder::new();
    let args: Vec<_> = int_arg.map(|v| t.int(v)).into_iter().collect();
    let m = MethodRef {
        owner: BinaryName::new(class),
        name: name.into(),
        descriptor: MethodDescriptor::parse(desc).unwrap(),
    };
    t.static_call(m, &args);
    t.build()
}

fn hostile(name: &str, desc: &str) -> TestCase {
    call("hostile.Hostile", name, desc, desc.starts_with("(I)").then_some(1))
}

fn normal() -> TestCase {
    call("hostile.Hostile", "abs", "(I)I", Some(-5))
}

/// The outcome of the last executed statement.
fn last(r: &ExecutionResult) -> &StatementOutcome {
    r.statements.iter().rev().find(|s| **s != StatementOutcome::NotExecuted).unwrap_or(&StatementOutcome::NotExecuted)
}

fn threw(r: &ExecutionResult) -> String {
    match last(r) {
        StatementOutcome::Threw(e) => format!("{}: {}", e.class, e.message.clone().unwrap_or_default()),
        other => format!("no exception: {other:?} ({:?})", r.outcome),
    }
}

/// Runs `case` three times, each followed by the normal test; returns the
/// three results of the case.
fn three_times(pool: &mut Pool, case: &TestCase) -> Vec<ExecutionResult> {
    let mut out = Vec::new();
    for round in 0..3 {
        let results = pool.execute(&[case.clone(), normal()]).unwrap();
        let after = &results[1];
        assert_eq!(after.outcome, TestOutcome::Completed, "round {round}: {after:?}");
        assert_eq!(last(after), &StatementOutcome::Normal(ValueSummary::Integer(5)), "round {round}");
        assert!(!after.trace.branches.is_empty() && !after.trace.methods.is_empty(), "round {round}: no trace");
        out.push(results.into_iter().next().unwrap());
    }
    out
}

#[test]
fn hostile_classes_under_test_get_classified_outcomes_and_the_pool_survives() {
    let tmp = tempfile::tempdir().unwrap();
    let mut pool = pool(tmp.path());
    for r in three_times(&mut pool, &hostile("exit", "()I")) {
        assert!(threw(&r).starts_with("ferrosuite.runtime.Sandbox$ExitRequested: System.exit(1)"), "{}", threw(&r));
    }
    for r in three_times(&mut pool, &hostile("halt", "()I")) {
        assert!(threw(&r).starts_with("ferrosuite.runtime.Sandbox$ExitRequested: Runtime.halt(1)"), "{}", threw(&r));
    }
    for r in three_times(&mut pool, &hostile("exitByReflection", "()I")) {
        assert!(matches!(r.outcome, TestOutcome::Crashed { .. }), "{:?}", r.outcome);
    }
    for name in ["spin", "spinCatchingThrowable"] {
        for r in three_times(&mut pool, &hostile(name, "()J")) {
            assert_eq!(r.outcome, TestOutcome::Timeout, "{name}");
        }
    }
    for r in three_times(&mut pool, &hostile("recurse", "(I)I")) {
        assert_eq!(threw(&r), "java.lang.StackOverflowError: ", "{:?}", r.outcome);
    }
    for r in three_times(&mut pool, &hostile("allocate", "()I")) {
        assert!(threw(&r).starts_with("java.lang.OutOfMemoryError"), "{}", threw(&r));
    }
    for r in three_times(&mut pool, &hostile("startNonDaemonThread", "()I")) {
        assert_eq!(last(&r), &StatementOutcome::Normal(ValueSummary::Integer(1)));
    }
    for r in three_times(&mut pool, &hostile("print100MB", "()I")) {
        assert_eq!(last(&r), &StatementOutcome::Normal(ValueSummary::Integer(100)));
        assert_eq!(r.output.total_bytes, 100 << 20);
        assert_eq!(r.output.stdout.len(), MAX_OUTPUT);
    }
    let bad_init = three_times(&mut pool, &call("hostile.BadInit", "value", "()I", None));
    assert!(threw(&bad_init[0]).starts_with("java.lang.ExceptionInInitializerError"), "{}", threw(&bad_init[0]));
    for r in &bad_init[1..] {
        assert!(
            threw(r).starts_with("java.lang.NoClassDefFoundError: Could not initialize class hostile.BadInit"),
            "{}",
            threw(r)
        );
    }
}

/// A crash, a spin in instrumented code and one in JDK code inside a
/// batch: each gets its outcome and the 37 other tests their results.
#[test]
fn a_crash_or_timeout_inside_a_pipelined_batch_loses_no_other_test() {
    let tmp = tempfile::tempdir().unwrap();
    let mut pool = pool(tmp.path());
    let mut batch: Vec<TestCase> = (0..40).map(|_| normal()).collect();
    batch[7] = hostile("exitByReflection", "()I");
    batch[23] = hostile("spin", "()J");
    batch[31] = hostile("spinInJdk", "()I");
    let results = pool.execute(&batch).unwrap();
    for (i, r) in results.iter().enumerate() {
        match i {
            7 => assert!(matches!(r.outcome, TestOutcome::Crashed { .. }), "{:?}", r.outcome),
            23 | 31 => assert_eq!(r.outcome, TestOutcome::Timeout, "test {i}"),
            _ => assert_eq!(last(r), &StatementOutcome::Normal(ValueSummary::Integer(5)), "test {i}: {r:?}"),
        }
    }
    // The spin in instrumented code ends at a back-edge check; the one in
    // JDK code by the watchdog's JVM TI StopThread (on JDK 20+ too, where
    // `Thread.stop()` throws): only the crash restarts the worker.
    assert_eq!(pool.restarts, 1, "the crash restarts the worker; the spins end in the worker's own watchdog");
}

/// Runs `class.value()` (which returns 42 after about 300 ms) once under a
/// 100 ms limit, which the worker's watchdog ends, then again beside a
/// normal test under 5 s: the worker the stop broke is replaced once, and
/// both tests get their values.
fn stopped_then_run_in_a_fresh_worker(pool: &mut Pool, class: &str) {
    let slow = call(class, "value", "()J", None);
    pool.set_time_limit(Duration::from_millis(100));
    let stopped = pool.execute(std::slice::from_ref(&slow)).unwrap();
    assert_eq!(stopped[0].outcome, TestOutcome::Timeout, "{:?}", stopped[0]);
    assert_eq!(pool.restarts, 0, "the watchdog ends {class}'s slow start inside the worker");
    pool.set_time_limit(Duration::from_secs(5));
    let results = pool.execute(&[slow, normal()]).unwrap();
    assert_eq!(last(&results[0]), &StatementOutcome::Normal(ValueSummary::Integer(42)), "{}", threw(&results[0]));
    assert_eq!(last(&results[1]), &StatementOutcome::Normal(ValueSummary::Integer(5)));
    assert_eq!(pool.restarts, 1, "the poisoned worker is replaced once");
}

/// A test stopped inside a static initialiser leaves the class erroneous
/// in its JVM (JVMS 5.5): a later test there would throw
/// `NoClassDefFoundError` where a fresh JVM initialises the class. That
/// worker is replaced and the later test runs again in the new one.
#[test]
fn a_worker_whose_class_initialiser_was_stopped_is_replaced_and_the_next_test_runs_in_a_fresh_one() {
    let tmp = tempfile::tempdir().unwrap();
    let mut pool = pool(tmp.path());
    stopped_then_run_in_a_fresh_worker(&mut pool, "hostile.SlowInit");
    // A class whose initialiser throws by itself is behaviour, not poison.
    let bad_init = call("hostile.BadInit", "value", "()I", None);
    let results = pool.execute(&[bad_init.clone(), bad_init]).unwrap();
    assert!(threw(&results[1]).starts_with("java.lang.NoClassDefFoundError"), "{}", threw(&results[1]));
    assert_eq!(pool.restarts, 1);
}

/// A test stopped while an `invokedynamic` site links (here a lambda whose
/// interface initialiser is slow; in real runs the JDK's own bootstraps of
/// pattern switches and string concatenation on a cold, loaded JVM) leaves
/// the site failing for good in its JVM: every later call there throws a
/// `LinkageError` without the cause that names the stop. That worker is
/// replaced too, and the later test runs again in a fresh one.
#[test]
fn a_worker_whose_call_site_linkage_was_stopped_is_replaced_and_the_next_test_runs_in_a_fresh_one() {
    let tmp = tempfile::tempdir().unwrap();
    stopped_then_run_in_a_fresh_worker(&mut pool(tmp.path()), "hostile.SlowLink");
}

/// A static call of `hostile.Escape.name` with one string argument.
fn escape(name: &str, arg: &str) -> TestCase {
    let mut t = TestCaseBuilder::new();
    let arg = t.string(arg);
    let m = MethodRef {
        owner: BinaryName::new("hostile.Escape"),
        name: name.into(),
        descriptor: MethodDescriptor::parse("(Ljava/lang/String;)I").unwrap(),
    };
    t.static_call(m, &[arg]);
    t.build()
}

fn string_result(r: &ExecutionResult) -> String {
    match last(r) {
        StatementOutcome::Normal(ValueSummary::String(s)) => s.clone(),
        other => panic!("no string: {other:?}"),
    }
}

#[test]
fn the_kernel_sandbox_keeps_the_class_under_test_inside_its_worker_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let mut pool = pool(tmp.path());
    let watched = tmp.path().join("watched");
    std::fs::create_dir_all(&watched).unwrap();
    let victim = watched.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let escapes = [
        escape("writeIo", watched.join("io.txt").to_str().unwrap()),
        escape("writeNio", watched.join("nio.txt").to_str().unwrap()),
        escape("delete", victim.to_str().unwrap()),
        escape("spawn", watched.join("spawned").to_str().unwrap()),
        call("hostile.Escape", "listen", "()I", None),
        call("hostile.Escape", "connect", "(I)I", Some(9)),
        escape("writeAndSwallow", watched.join("swallowed.txt").to_str().unwrap()),
        escape("writeThroughJdk", watched.join("jdk.txt").to_str().unwrap()),
        call("hostile.Escape", "connectThroughJdk", "(I)I", Some(9)),
    ];
    let confinement = pool.confinement();
    if !confinement.is_complete() {
        // The pool has said which mechanisms this kernel lacks; check the others.
        eprintln!("this kernel confines only {confinement:?}");
    }
    use exec::sandbox::RefusalKind::{FileWrite, Network, Process};
    // The call-site checks refuse the class's own calls on any kernel; the
    // kernel refuses what JDK code does (the last two).
    let expected = [
        (FileWrite, true),
        (FileWrite, true),
        (FileWrite, true),
        (Process, true),
        (Network, true),
        (Network, true),
        (FileWrite, true),
        (FileWrite, confinement.files),
        (Network, confinement.network),
    ];
    let results = pool.execute(&escapes).unwrap();
    let mut counted = std::collections::BTreeMap::new();
    for ((test, r), (kind, held)) in escapes.iter().zip(&results).zip(expected) {
        if !held {
            continue;
        }
        let StatementOutcome::Threw(e) = last(r) else { panic!("{test}: {:?}", last(r)) };
        assert_eq!(e.class.as_str(), exec::sandbox::REFUSED, "{test}: {e:?}");
        assert_eq!(exec::sandbox::refusal(e), Some(kind), "{test}: {e:?}");
        *counted.entry(kind).or_insert(0) += 1;
    }
    assert_eq!(pool.refusals, counted, "the pool counts refusals per kind");
    if !(confinement.files && confinement.processes) {
        return;
    }
    let left: Vec<_> = std::fs::read_dir(&watched).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(left, ["victim.txt"], "nothing was created or deleted outside the sandbox");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");

    // Temporary files land in the worker's own folder, which is not ours;
    // relative paths (the working directory of whoever runs a test) are refused.
    let inside = pool
        .execute(&[escape("writeIo", "relative.txt"), call_string("tempFile"), call_string("workingDirectory")])
        .unwrap();
    let StatementOutcome::Threw(e) = last(&inside[0]) else { panic!("relative write: {:?}", last(&inside[0])) };
    assert_eq!(exec::sandbox::refusal(e), Some(FileWrite), "{e:?}");
    let (temp, cwd) = (string_result(&inside[1]), string_result(&inside[2]));
    assert_eq!(std::path::Path::new(&temp), std::path::Path::new(&cwd).join(jvm::worker::TMP_SUBFOLDER));
    assert!(cwd.contains("ferrosuite-worker-"), "{cwd}");
    assert_ne!(std::path::Path::new(&cwd), std::env::current_dir().unwrap());
    drop(pool);
    assert!(!std::path::Path::new(&cwd).exists(), "the worker's folder is removed with the worker");
}

/// A static call of `hostile.Escape.name()` returning a string.
fn call_string(name: &str) -> TestCase {
    let mut t = TestCaseBuilder::new();
    let m = MethodRef {
        owner: BinaryName::new("hostile.Escape"),
        name: name.into(),
        descriptor: MethodDescriptor::parse("()Ljava/lang/String;").unwrap(),
    };
    t.static_call(m, &[]);
    t.build()
}

const ESCAPING_TEST: &str = r#"
package p;

import static org.junit.Assert.*;
import org.junit.Test;

public class EscapeTest {
    @Test public void writesOutside() throws Exception {
        java.nio.file.Files.write(java.nio.file.Path.of("TARGET"), new byte[] {1});
    }
    @Test public void spawns() throws Exception {
        new ProcessBuilder("sh", "-c", "true").start().waitFor();
    }
    @Test public void writesInItsOwnFolder() throws Exception {
        java.nio.file.Files.write(java.nio.file.Path.of("inside.txt"), new byte[] {1});
        assertTrue(new java.io.File("inside.txt").exists());
    }
}
"#;

#[test]
fn the_junit_jvms_of_verification_run_confined_too() {
    let tmp = tempfile::tempdir().unwrap();
    let jdk = javarun::Jdk::find().unwrap();
    let junit = javarun::JunitJars::debian(4).unwrap();
    let target = tmp.path().join("outside.txt");
    let source = ESCAPING_TEST.replace("TARGET", target.to_str().unwrap());
    let tests = util::compile(tmp.path(), &[("p/EscapeTest.java", &source)], &["-cp", &junit.compile_class_path()]);
    let confiner = javarun::Confiner { launcher: env!("CARGO_BIN_EXE_ferrosuite").into() };
    let order: Vec<String> = ["writesOutside", "spawns", "writesInItsOwnFolder"].map(String::from).to_vec();
    let verdicts = javarun::run_tests(
        &jdk,
        &tests,
        "",
        "p.EscapeTest",
        &order,
        &junit,
        None,
        Duration::from_secs(20),
        Some(&confiner),
    )
    .unwrap();
    let passed: Vec<(&str, bool)> = verdicts.iter().map(|v| (v.name.as_str(), v.passed)).collect();
    assert_eq!(passed, [("writesOutside", false), ("spawns", false), ("writesInItsOwnFolder", true)]);
    assert!(!target.exists(), "the confined test wrote outside its folder");
}
