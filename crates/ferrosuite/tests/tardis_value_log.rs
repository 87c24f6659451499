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

/// Compiles the fixtures of `testdata/tardis/src/{src}`, instruments
/// `classes` (internal names) with the coverage and value-log probes into
/// `dir/instrumented`; their original class files and the logged sites.
fn instrument(dir: &Path, src: &str, instrumented: &[&str]) -> (Vec<ClassFile>, SiteTable) {
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    util::javac_dir(&util::repo().join("testdata/tardis/src").join(src), &classes, &[]);
    let out = dir.join("instrumented");
    let mut instrumenter = Instrumenter::default();
    let (mut files, mut sites, mut base) = (Vec::new(), SiteTable::default(), 0);
    for &class in instrumented {
        let bytes = std::fs::read(classes.join(format!("{class}.class"))).unwrap();
        let cf = ClassFile::parse(&bytes).unwrap();
        let probes = ValueLogProbes::plan(&cf, base, &|c| instrumented.contains(&c)).unwrap();
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

/// The tests z3 solves from the alternatives of `replay` (direct DSE: the
/// logged values fixed, as the DSE step solves first).
fn solved(test: &TestCase, replay: &Replay) -> Vec<TestCase> {
    let mut out = Vec::new();
    for alternative in replay.path.alternatives() {
        let clauses = replay.fixed(&replay.query(&alternative));
        if let Ok(Outcome::Sat(model)) = solve(&clauses, &replay.types(), &replay.values(), 2000) {
            out.push(write_back(test, replay, &model));
        }
    }
    out
}

#[test]
fn the_value_log_takes_the_replay_past_jdk_calls_to_the_needle() {
    let dir = tempfile::tempdir().unwrap();
    let (files, sites) = instrument(dir.path(), "logged", &CLASSES);
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

/// `Readings r = new Readings(); r.add(item)...; r.check()`, each item a literal of its own.
fn readings(items: [i32; 5]) -> TestCase {
    let m = |name: &str, descriptor: &str| MethodRef::parse("needles.Readings", name, descriptor).unwrap();
    let mut b = TestCaseBuilder::new();
    let readings = b.construct(m("<init>", "()V"), &[]);
    for item in items {
        let v = b.int(item);
        b.call(readings, m("add", "(I)V"), &[v]);
    }
    b.call(readings, m("check", "()I"), &[]);
    b.build()
}

/// `needles/Readings.java` keeps its items in an `ArrayList`: the replay of
/// `check` sees them only as logged values, so the alternative that makes
/// the last item calibrated cannot be written into the test. It becomes a
/// path-condition goal: the origin test is some way from it, a test that
/// breaks an item the prefix needs is further, and a test whose last item
/// is calibrated (43 % 11 == 10) reaches it, all measured on the JVM's logs.
#[test]
fn an_alternative_over_logged_values_becomes_a_path_condition_goal_the_jvm_can_reach() {
    use tardis::pcgoal::PcGoal;
    let dir = tempfile::tempdir().unwrap();
    let (files, sites) = instrument(dir.path(), "needles", &["needles/Readings"]);
    let mut pool = pool(dir.path());
    let classes = Classes::new(files);
    let replay_of = |pool: &mut Pool, test: &TestCase| {
        let result = run(pool, test);
        let log = result.trace.values.clone().expect("the log is on");
        replay_test_with(&classes, test, Some((&log, &sites)))
    };
    let origin_test = readings([593, 1451, 21, 32, 7]);
    assert_eq!(audit_result(&run(&mut pool, &origin_test)), 0);
    let origin = replay_of(&mut pool, &origin_test);
    assert_eq!(origin.stopped, None);
    // The clause of the last item (`3 * r % 11 != 8` held): the last one
    // with a remainder, over a logged value.
    let negated = (0..origin.path.clauses.len())
        .rev()
        .find(|&i| format!("{:?}", origin.path.clauses[i]).contains("Rem"))
        .expect("a clause of an item");
    assert!(!origin.logged_in(std::slice::from_ref(&origin.path.clauses[negated])).is_empty());
    let alternative = origin.path.alternative(negated);
    let query = origin.query(&alternative);
    let fixed = solve(&origin.fixed(&query), &origin.types(), &origin.values(), 2000);
    assert_eq!(fixed, Ok(Outcome::Unsat), "no literal of the test decides a logged value");
    assert!(matches!(solve(&query, &origin.types(), &origin.values(), 2000), Ok(Outcome::Sat(_))));
    let goal = PcGoal::new(&origin, negated).expect("a goal");
    let start = goal.fitness(&origin);
    assert!(start > 0.0 && start < 1.0, "only the negated clause fails: {start}");
    let broken = goal.fitness(&replay_of(&mut pool, &readings([594, 1451, 21, 32, 7])));
    assert!(broken > 1.0, "the first item no longer calibrated breaks the prefix: {broken}");
    let reached = readings([593, 1451, 21, 32, 43]);
    assert_eq!(goal.fitness(&replay_of(&mut pool, &reached)), 0.0);
}
