//! TARDIS's value log on a real JVM: `testdata/tardis/src/logged/Basket.java`
//! hides a needle behind calls into the JDK the replay does not model
//! (`ArrayList`'s copy constructor and methods, `Collections.sort` with a
//! comparator of the class under test that calls back into it, string
//! concatenation by `invokedynamic`, a field of the class `Price`, which is
//! not instrumented). The classes are instrumented with the
//! coverage and value-log probes as `generate --dse` does, a test runs in a
//! worker with the log on, and the replay of the test with its log goes
//! past those calls to the needle, whose alternative z3 solves into a test
//! that the JVM confirms. Without the log the replay stops at the first of
//! those calls and no alternative reaches the needle.

mod util;

use std::path::Path;
use std::time::Duration;

use exec::{ExecConfig, ExecutionResult, Executor, StatementOutcome, ValueSummary};
use instrument::Instrumenter;
use instrument::probes::value_log::ValueLogProbes;
use jvm::pool::{Pool, WorkerConfig};
use model::classfile::ClassFile;
use tardis::concolic::{replay_test, replay_test_with, write_back};
use tardis::replay::{Classes, Replay, SiteTable};
use tardis::solve::{Outcome, solve};
use testcase::{MethodRef, TestCase, TestCaseBuilder};

const CLASSES: [&str; 2] = ["logged/Basket", "logged/Basket$ByLength"];

/// Compiles the fixture, instruments its classes with the coverage and
/// value-log probes into `dir/instrumented`; the original class files and
/// the logged sites.
fn instrument(dir: &Path) -> (Vec<ClassFile>, SiteTable) {
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    util::javac_dir(&util::repo().join("testdata/tardis/src/logged"), &classes, &[]);
    let out = dir.join("instrumented");
    let mut instrumenter = Instrumenter::default();
    let (mut files, mut sites, mut base) = (Vec::new(), SiteTable::default(), 0);
    for class in CLASSES {
        let bytes = std::fs::read(classes.join(format!("{class}.class"))).unwrap();
        let cf = ClassFile::parse(&bytes).unwrap();
        let probes = ValueLogProbes::plan(&cf, base, &|c| CLASSES.contains(&c)).unwrap();
        base += probes.sites.len() as u32;
        sites.add(&cf, &probes);
        let prior = instrumenter.instrument(&bytes).unwrap();
        let again = instrumenter.reinstrument(&bytes, &prior, &[&probes]).unwrap();
        assert!(again.skipped.is_empty(), "{:?}", again.skipped);
        let file = out.join(format!("{class}.class"));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, &again.bytes).unwrap();
        files.push(cf);
    }
    instrument::tracer::write_runtime(&out).unwrap();
    (files, sites)
}

fn pool(dir: &Path) -> Pool {
    let cfg = WorkerConfig {
        exe: env!("CARGO_BIN_EXE_ferrosuite").into(),
        java_home: util::jdk(),
        class_path: format!("{}:{}", dir.join("instrumented").display(), dir.join("classes").display()),
        heap_mb: 256,
        environment: Default::default(),
    };
    let exec = ExecConfig { timeout: Duration::from_secs(5), value_log: 4096, ..ExecConfig::default() };
    Pool::new(cfg, exec, 1).unwrap()
}

fn m(name: &str, descriptor: &str) -> MethodRef {
    MethodRef::parse("logged.Basket", name, descriptor).unwrap()
}

/// Three items, then `audit(0)`: far from the needle.
fn three_items() -> TestCase {
    let mut b = TestCaseBuilder::new();
    let basket = b.construct(m("<init>", "()V"), &[]);
    for (name, price) in [("pear", 10), ("fig", 20), ("apple", 30)] {
        let name = b.string(name);
        let price = b.int(price);
        b.call(basket, m("put", "(Ljava/lang/String;I)V"), &[name, price]);
    }
    let code = b.int(0);
    b.call(basket, m("audit", "(I)I"), &[code]);
    b.build()
}

fn run(pool: &mut Pool, test: &TestCase) -> ExecutionResult {
    pool.execute(std::slice::from_ref(test)).unwrap().remove(0)
}

fn audit_result(result: &ExecutionResult) -> i64 {
    match result.statements.last() {
        Some(StatementOutcome::Normal(ValueSummary::Integer(v))) => *v,
        other => panic!("audit did not return a number: {other:?} ({:?})", result.outcome),
    }
}

/// The tests z3 solves from the alternatives of `replay`.
fn solved(test: &TestCase, replay: &Replay) -> Vec<TestCase> {
    let mut out = Vec::new();
    for alternative in replay.path.alternatives() {
        let clauses = replay.query(&alternative);
        if let Ok(Outcome::Sat(model)) = solve(&clauses, &replay.types(), &replay.values(), 2000) {
            out.push(write_back(test, replay, &model));
        }
    }
    out
}

#[test]
fn the_value_log_takes_the_replay_past_jdk_calls_to_the_needle() {
    let dir = tempfile::tempdir().unwrap();
    let (files, sites) = instrument(dir.path());
    assert!(sites.len() >= 8, "logged sites: {}", sites.len());
    let mut pool = pool(dir.path());
    let test = three_items();
    let result = run(&mut pool, &test);
    assert_eq!(audit_result(&result), 0);
    let log = result.trace.values.as_ref().expect("the log is on");
    assert!(!log.truncated && log.events.len() >= 8, "{log:?}");
    let classes = Classes::new(files);

    let without = replay_test(&classes, &test);
    let stopped = without.stopped.clone().unwrap_or_default();
    assert!(stopped.contains("statement 0") && stopped.contains("java/util/ArrayList"), "{stopped}");

    let with = replay_test_with(&classes, &test, Some((log, &sites)));
    assert_eq!(with.stopped, None, "the replay with the log stopped");
    assert!(with.logged >= 6, "logged values used: {}", with.logged);
    assert_eq!(with.result, Some(tardis::expr::Value::Int(0)));

    let needles: Vec<i64> = solved(&test, &with).iter().map(|t| audit_result(&run(&mut pool, t))).collect();
    assert!(needles.contains(&1), "no solved test reaches the needle: audit gave {needles:?}");
    let before: Vec<i64> = solved(&test, &without).iter().map(|t| audit_result(&run(&mut pool, t))).collect();
    assert!(!before.contains(&1), "{before:?}");
}
