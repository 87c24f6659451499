//! Direct DSE of whole test cases on the needle fixtures
//! (`testdata/tardis/src/needles`: FlagBag, Ledger, Tag, compiled by javac):
//! from a test whose values are far from the needle, concolic replay of the
//! test, the alternatives of its path, z3 and the write-back into a copy of
//! the test reach each needle in the replay, and the JVM returns the same
//! for the test found. The Ledger test passes one literal to every
//! parameter, so its needle needs the uses untied into literals of their own.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use model::classfile::ClassFile;
use model::descriptor::{BaseType, FieldType};
use tardis::concolic::{replay_test, write_back};
use tardis::expr::Value;
use tardis::replay::{Classes, Origin};
use tardis::solve::{Outcome, solve};
use testcase::builder::TestCaseBuilder;
use testcase::ir::{MethodRef, Primitive, StatementKind};
use testcase::{TestCase, VarId};

mod common;

fn m(class: &str, name: &str, descriptor: &str) -> MethodRef {
    MethodRef::parse(&format!("needles.{class}"), name, descriptor).unwrap()
}

fn flag_bag() -> TestCase {
    let mut b = TestCaseBuilder::new();
    let array = b.new_array(FieldType::Base(BaseType::Int), 3);
    for i in 0..3 {
        let v = b.int(i * 10);
        b.array_store(array, i as u32, v);
    }
    let limit = b.int(100);
    let bag = b.construct(m("FlagBag", "<init>", "([II)V"), &[array, limit]);
    let key = b.int(5);
    b.call(bag, m("FlagBag", "probe", "(I)I"), &[key]);
    b.build()
}

fn ledger() -> TestCase {
    let mut b = TestCaseBuilder::new();
    let one = b.int(7);
    let ledger = b.construct(m("Ledger", "<init>", "(I)V"), &[one]);
    b.call(ledger, m("Ledger", "settle", "(III)I"), &[one, one, one]);
    b.build()
}

fn tag() -> TestCase {
    let mut b = TestCaseBuilder::new();
    let name = b.string("abcde");
    let tag = b.construct(m("Tag", "<init>", "(Ljava/lang/String;)V"), &[name]);
    let shift = b.int(0);
    b.call(tag, m("Tag", "kind", "(I)I"), &[shift]);
    b.build()
}

/// The Java statements of `test` (the shapes the fixtures' tests have), ending by printing the last value.
fn java(test: &TestCase) -> String {
    let mut src = String::new();
    let v = |id: &VarId| format!("v{}", id.0);
    for (i, s) in test.statements.iter().enumerate() {
        let line = match &s.kind {
            StatementKind::Primitive(Primitive::Int(x)) => format!("int v{i} = {x};"),
            StatementKind::String(t) => format!("String v{i} = {};", common::java_string(t)),
            StatementKind::NewArray { length, .. } => format!("int[] v{i} = new int[{length}];"),
            StatementKind::ArrayStore { array, index, value } => format!("{}[{index}] = {};", v(array), v(value)),
            StatementKind::Constructor { method, args } => {
                let class = method.owner.as_str();
                let args: Vec<String> = args.iter().map(v).collect();
                format!("{class} v{i} = new {class}({});", args.join(", "))
            }
            StatementKind::Call { receiver, method, args } => {
                let args: Vec<String> = args.iter().map(v).collect();
                format!("int v{i} = {}.{}({});", v(receiver), method.name, args.join(", "))
            }
            other => panic!("not in the fixtures' tests: {other:?}"),
        };
        let _ = writeln!(src, "    {line}");
    }
    let _ = writeln!(src, "    System.out.print(v{});", test.len() - 1);
    src
}

/// Breadth-first direct DSE from `start` until the replay returns `needle`; the test found.
fn search(classes: &Classes, start: TestCase, needle: i32) -> TestCase {
    let mut queue = vec![start];
    let mut seen = BTreeSet::new();
    let mut solves = 0;
    while let Some(test) = queue.pop() {
        let r = replay_test(classes, &test);
        if r.result == Some(Value::Int(needle)) {
            assert!(r.stopped.is_none(), "{:?}", r.stopped);
            return test;
        }
        for alternative in r.path.alternatives().into_iter().rev() {
            if r.origins[alternative.negated] == Origin::Pin || solves >= 200 {
                continue;
            }
            let clauses = r.query(&alternative);
            solves += 1;
            if let Ok(Outcome::Sat(model)) = solve(&clauses, &r.types(), &r.values(), 5_000) {
                let next = write_back(&test, &r, &model);
                if seen.insert(format!("{:?}", next.statements)) {
                    queue.insert(0, next);
                }
            }
        }
    }
    panic!("no test reached {needle} within {solves} solves");
}

fn layered() -> TestCase {
    let mut b = TestCaseBuilder::new();
    let scale = b.int(1);
    let sub = b.construct(MethodRef::parse("layers.Sub", "<init>", "(I)V").unwrap(), &[scale]);
    let x = b.int(5);
    b.call(sub, MethodRef::parse("layers.Sub", "hit", "(I)I").unwrap(), &[x]);
    b.build()
}

#[test]
fn classes_of_the_class_path_are_replayed_when_they_are_not_the_jdks() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/tardis/src/layers");
    common::javac(dir.path(), dir.path(), &[&src.join("Base.java"), &src.join("Sub.java")]);
    let sub = ClassFile::parse(&std::fs::read(dir.path().join("layers/Sub.class")).unwrap()).unwrap();
    // Alone, the subclass's field read after a skipped superclass constructor stops the replay.
    let alone = replay_test(&Classes::new([sub.clone()]), &layered());
    assert!(alone.stopped.as_deref().is_some_and(|w| w.contains("Base")), "{:?}", alone.stopped);
    let cp = std::sync::Arc::new(model::classpath::ClassPath::new(&[dir.path().to_path_buf()]).unwrap());
    let classes = Classes::with_class_path([sub], cp);
    let found = search(&classes, layered(), 1);
    let r = replay_test(&classes, &found);
    assert_eq!(r.result, Some(Value::Int(1)));
    let ints: Vec<i32> = found
        .statements
        .iter()
        .filter_map(|s| match s.kind {
            StatementKind::Primitive(Primitive::Int(v)) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(ints[1].wrapping_mul(ints[0]), 4242, "x * scale with int overflow: {ints:?}");
    assert!(ints[0] > 1, "{ints:?}");
}

#[test]
fn direct_dse_of_test_cases_reaches_each_needle_and_the_jvm_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/tardis/src/needles");
    let sources: Vec<_> = ["FlagBag", "Ledger", "Tag"].iter().map(|c| src.join(format!("{c}.java"))).collect();
    common::javac(dir.path(), dir.path(), &sources.iter().map(|p| p.as_path()).collect::<Vec<_>>());
    let load =
        |c: &str| ClassFile::parse(&std::fs::read(dir.path().join(format!("needles/{c}.class"))).unwrap()).unwrap();
    let classes = Classes::new(["FlagBag", "Ledger", "Tag"].map(load));
    let mut main = String::from("public class Check {\n");
    let mut expected = vec![];
    for (k, (start, needle)) in [(flag_bag(), 2), (ledger(), 1), (ledger(), 2), (tag(), 1)].into_iter().enumerate() {
        let found = search(&classes, start, needle);
        let _ = writeln!(main, "  static void case{k}() {{\n{}  }}", java(&found));
        expected.push(needle.to_string());
    }
    main.push_str("  public static void main(String[] a) {\n");
    for k in 0..expected.len() {
        let _ = writeln!(main, "    case{k}(); System.out.println();");
    }
    main.push_str("  }\n}\n");
    std::fs::write(dir.path().join("Check.java"), &main).unwrap();
    common::javac(dir.path(), dir.path(), &[&dir.path().join("Check.java")]);
    let jvm: Vec<String> = common::java(dir.path(), "Check").lines().map(str::to_string).collect();
    assert_eq!(jvm, expected, "{main}");
}
