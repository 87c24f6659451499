//! The controlled environment on `edge.Moody` (testdata/generate-edge):
//! in a worker the clock, random numbers, UUIDs and identity hash codes the
//! class under test reads are the same every time a test runs, differ in
//! another environment (as does whether `java.lang` is open to reflection), and outside a worker the instrumented class
//! behaves as the original.

mod util;

use std::path::{Path, PathBuf};

use exec::{ExecConfig, ExecutionResult, Executor, StatementOutcome, TestOutcome, ValueSummary};
use jvm::environment::Environment;
use jvm::pool::{Pool, WorkerConfig};
use model::descriptor::MethodDescriptor;
use model::names::BinaryName;
use testcase::{MethodRef, TestCase, TestCaseBuilder};

/// The environment-dependent methods of `edge.Moody` (no arguments) and
/// their descriptors, in the order the test calls them.
const MOODY: &[(&str, &str)] = &[
    ("clock", "()J"),
    ("nanos", "()J"),
    ("dice", "()I"),
    ("chance", "()D"),
    ("uuid", "()Ljava/lang/String;"),
    ("identity", "()I"),
    ("hash", "()I"),
    ("describe", "()Ljava/lang/String;"),
    ("getStamp", "()J"),
    ("phase", "()Ljava/lang/String;"),
    ("bucket", "()I"),
    ("reflective", "()Z"),
];

/// The edge fixtures as a jar, and the folder `ferrosuite instrument` made of them.
fn instrumented_edge(dir: &Path) -> (PathBuf, PathBuf) {
    let jar = util::edge_jar(dir);
    let out = dir.join("instrumented");
    util::ferrosuite_ok(&["instrument", "--jar", jar.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    (jar, out)
}

fn pool(jar: &Path, instrumented: &Path, environment: Environment, heap_mb: u32) -> Pool {
    let cfg = WorkerConfig {
        exe: env!("CARGO_BIN_EXE_ferrosuite").into(),
        java_home: util::jdk(),
        class_path: format!("{}:{}", instrumented.display(), jar.display()),
        heap_mb,
        environment,
    };
    Pool::new(cfg, ExecConfig::default(), 1).unwrap()
}

fn method(name: &str, desc: &str) -> MethodRef {
    MethodRef {
        owner: BinaryName::new("edge.Moody"),
        name: name.into(),
        descriptor: MethodDescriptor::parse(desc).unwrap(),
    }
}

/// `new Moody(3)`, each environment-dependent method, then `twice(4)`.
fn moody_test() -> TestCase {
    let mut t = TestCaseBuilder::new();
    let three = t.int(3);
    let moody = t.construct(method("<init>", "(I)V"), &[three]);
    for (name, desc) in MOODY {
        t.call(moody, method(name, desc), &[]);
    }
    let four = t.int(4);
    t.call(moody, method("twice", "(I)I"), &[four]);
    t.build()
}

/// The values of the calls of [`moody_test`]: one per [`MOODY`] method, then `twice`.
fn values(r: &ExecutionResult) -> Vec<ValueSummary> {
    assert_eq!(r.outcome, TestOutcome::Completed, "{r:?}");
    let calls = 2..2 + MOODY.len();
    let twice = 3 + MOODY.len();
    r.statements[calls]
        .iter()
        .chain(&r.statements[twice..=twice])
        .map(|s| match s {
            StatementOutcome::Normal(v) => v.clone(),
            other => panic!("a Moody call did not return: {other:?}"),
        })
        .collect()
}

#[test]
fn a_test_gives_the_same_values_every_time_it_runs_in_a_worker_and_others_in_another_environment() {
    let tmp = tempfile::tempdir().unwrap();
    let (jar, instrumented) = instrumented_edge(tmp.path());
    let test = moody_test();
    let mut first = pool(&jar, &instrumented, Environment::default(), 256);
    let runs = first.execute(&[test.clone(), test.clone(), test.clone()]).unwrap();
    let a = values(&runs[0]);
    assert_eq!(a, values(&runs[1]), "a second run in the same worker");
    assert_eq!(a, values(&runs[2]), "a third run in the same worker");
    let clock = |v: &ValueSummary| match v {
        ValueSummary::Integer(ms) => *ms,
        other => panic!("{other:?}"),
    };
    assert!((1_500_000_000_000..1_900_000_000_000).contains(&clock(&a[0])), "a plausible date: {:?}", a[0]);
    let ValueSummary::String(uuid) = &a[4] else { panic!("{:?}", a[4]) };
    assert_eq!(uuid.len(), 36, "{uuid}");
    assert_eq!(&uuid[14..15], "4", "a version-4 UUID: {uuid}");
    let ValueSummary::String(described) = &a[7] else { panic!("{:?}", a[7]) };
    assert!(described.starts_with("java.lang.Object@"), "{described}");
    assert_eq!(a[11], ValueSummary::Boolean(false), "java.lang is closed to reflection in the first environment");

    let mut other = pool(&jar, &instrumented, Environment::default().other(), 128);
    let b = values(&other.execute(&[test]).unwrap()[0]);
    for (i, (name, _)) in MOODY.iter().enumerate() {
        if *name != "bucket" {
            assert_ne!(a[i], b[i], "{name} gives the same value in another environment");
        }
    }
    assert_eq!(a.last(), Some(&ValueSummary::Integer(11)), "twice(4) = 2 * 4 + 3");
    assert_eq!(a.last(), b.last(), "deterministic values agree across environments");
}

#[test]
fn outside_a_worker_the_instrumented_class_behaves_as_the_original() {
    let tmp = tempfile::tempdir().unwrap();
    let (jar, instrumented) = instrumented_edge(tmp.path());
    let driver = tmp.path().join("driver");
    std::fs::create_dir_all(&driver).unwrap();
    let cp = format!("{}:{}", instrumented.display(), jar.display());
    util::javac_dir(&util::repo().join("testdata/environment/src"), &driver, &["-cp", &cp]);
    let out = util::java(&["-cp", &format!("{cp}:{}", driver.display()), "envcheck.Driver"]);
    assert_eq!(out.trim(), "clock=true dice=true uuid=true hash=true");
}
