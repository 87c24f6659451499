//! The value tracer on a real JVM: `testdata/zoomin/trace` (an account whose
//! refused deposit throws) traced through its JUnit 4 test with
//! [`zoomin::run::learn`]: values with source names, nesting depth, the
//! test line of each outermost call and the coverage profiles, also after
//! a call that ended by an exception.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use model::classpath::ClassPath;
use model::jdk::Jdk;
use model::names::BinaryName;
use palus::sample::SampleTests;
use zoomin::run::{ZoomInConfig, learn};
use zoomin::trace::{Execution, Value};

fn javac(jdk: &Jdk, src: &Path, out: &Path, cp: &str) {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "java") {
                files.push(p);
            }
        }
    }
    let status =
        Command::new(jdk.tool("javac")).args(["-g", "-nowarn", "-cp", cp, "-d"]).arg(out).args(&files).status();
    assert!(status.unwrap().success(), "javac {}", src.display());
}

fn value<'e>(vars: &'e [(String, Value)], name: &str) -> Option<&'e Value> {
    vars.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

#[test]
fn values_depths_test_lines_and_profiles_survive_a_call_that_threw() {
    let jdk = Jdk::find().expect("a JDK");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/zoomin/trace");
    let dir = tempfile::tempdir().unwrap();
    let (classes, tests) = (dir.path().join("classes"), dir.path().join("tests"));
    javac(&jdk, &root.join("src"), &classes, "");
    javac(&jdk, &root.join("tests"), &tests, &format!("{}:/usr/share/java/junit4.jar", classes.display()));
    let cp = ClassPath::new(std::slice::from_ref(&classes)).unwrap().with_jdk(&jdk.home).unwrap();
    let config = ZoomInConfig {
        jdk: &jdk,
        user_class_path: classes.to_str().unwrap(),
        cp: &cp,
        work: dir.path().join("work"),
        test_timeout: Duration::from_secs(10),
        budget: Duration::from_secs(60),
        confiner: None,
        depth: 2,
    };
    let manual = SampleTests::parse(tests.to_str().unwrap()).unwrap();
    let learned = learn(&BinaryName::new("bank.Account"), &manual, &config).unwrap();
    assert_eq!(learned.passed, 2, "its own test and the one it inherits");
    let named = |name: &str| -> Vec<&Execution> {
        learned.executions.iter().filter(|e| learned.method_name(e.method).starts_with(name)).collect()
    };
    // The refused deposit threw: no execution of it, and it leaves no stale frame.
    let deposits = named("deposit(");
    assert_eq!(deposits.len(), 1, "{deposits:?}");
    let deposit = deposits[0];
    assert_eq!(value(&deposit.entry, "amount"), Some(&Value::Int(5)), "{deposit:?}");
    assert_eq!(value(&deposit.entry, "this.balance"), Some(&Value::Int(0)));
    assert_eq!(value(&deposit.exit, "this.balance"), Some(&Value::Int(5)));
    assert_eq!((deposit.depth, deposit.line), (0, Some(16)), "an outermost call, from line 16 of the test");
    // Its profile: the check, the assignment, the return, and the private helper's line.
    assert_eq!(deposit.profile.iter().copied().collect::<Vec<u32>>(), vec![8, 11, 12, 15]);
    let add = named("add(")[0];
    assert_eq!((add.depth, add.line), (1, Some(16)), "nested in the deposit");
    assert_eq!((value(&add.entry, "a"), value(&add.entry, "b")), (Some(&Value::Int(0)), Some(&Value::Int(5))));
    assert_eq!(value(&add.exit, "return"), Some(&Value::Int(5)));
    let from_deposit_test = |e: &&&Execution| e.test.ends_with("#depositAfterARefusal");
    let balance = named("getBalance(").into_iter().find(|e| from_deposit_test(&e)).unwrap();
    assert_eq!((balance.depth, balance.line), (0, Some(17)));
    let init = named("<init>").into_iter().find(|e| from_deposit_test(&e)).unwrap();
    assert_eq!((init.depth, init.line), (0, Some(10)));
    let inherited = named("<init>").into_iter().find(|e| e.test == "bank.AccountTest#startsEmpty").unwrap();
    assert_eq!(inherited.line, Some(11), "the line in the superclass's test method");
    assert!(value(&init.entry, "this").is_none(), "a constructor has no receiver on entry");
}
