//! The modelled JDK operations against a real JVM (`testdata/tardis/src/
//! models/Models.java`, one static method per operation): each case is a
//! test case calling one method on edge values; its concolic replay must
//! return what the JVM returns (or throw where it throws), every clause of
//! its path condition must hold on its own symbols' values (the symbolic
//! form agrees with the concrete run), and every alternative z3 solves
//! gives inputs on which the replay and the JVM agree again.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use model::classfile::ClassFile;
use tardis::concolic::{replay_test, write_back};
use tardis::replay::{Classes, Origin, Replay};
use tardis::solve::{Outcome, solve};
use testcase::TestCase;
use testcase::builder::TestCaseBuilder;
use testcase::ir::{MethodRef, Primitive, StatementKind};

mod common;

/// An argument of a case.
#[derive(Clone)]
enum Arg {
    S(&'static str),
    Null,
    P(Primitive),
}

use Arg::{Null, P, S};
use Primitive::{Boolean, Byte, Char, Double, Float, Int, Long, Short};

fn cases() -> Vec<(&'static str, &'static str, Vec<Arg>)> {
    let s = |t: &'static str| S(t);
    let mut out = vec![];
    for t in ["", "a", "abc", "\u{0}x", "\u{ffff}\u{80}", "héllo wörld"] {
        out.push(("length", "(Ljava/lang/String;)I", vec![s(t)]));
        out.push(("isEmpty", "(Ljava/lang/String;)I", vec![s(t)]));
        out.push(("hashCode", "(Ljava/lang/String;)I", vec![s(t)]));
        out.push(("switchOn", "(Ljava/lang/String;)I", vec![s(t)]));
    }
    for (a, n, c) in [("", 0, 'x'), ("ab", -17, '\u{ffff}'), ("z", i32::MIN, '0')] {
        out.push(("builder", "(Ljava/lang/String;IC)I", vec![s(a), P(Int(n)), P(Char(c as u16))]));
    }
    for t in ["Aa", "BB", "needle", "needlf"] {
        out.push(("switchOn", "(Ljava/lang/String;)I", vec![s(t)]));
    }
    for (t, i) in [("abc", 0), ("abc", 2), ("abc", 3), ("abc", -1), ("", 0), ("\u{ffff}", 0)] {
        out.push(("charAt", "(Ljava/lang/String;I)I", vec![s(t), P(Int(i))]));
    }
    for (t, c) in
        [("abcb", 'b' as i32), ("abc", 'z' as i32), ("", 'a' as i32), ("a\u{ffff}", 0xffff), ("a", -1), ("a", 0x1_0061)]
    {
        out.push(("indexOf", "(Ljava/lang/String;I)I", vec![s(t), P(Int(c))]));
    }
    for (a, b) in [("abc", "abc"), ("abc", "abd"), ("ab", "abc"), ("", ""), ("abc", ""), ("abc", "b")] {
        out.push(("equalsTo", "(Ljava/lang/String;Ljava/lang/String;)I", vec![s(a), s(b)]));
        out.push(("startsWith", "(Ljava/lang/String;Ljava/lang/String;)I", vec![s(a), s(b)]));
        out.push(("endsWith", "(Ljava/lang/String;Ljava/lang/String;)I", vec![s(a), s(b)]));
        out.push(("compareTo", "(Ljava/lang/String;Ljava/lang/String;)I", vec![s(a), s(b)]));
        out.push(("compareTo", "(Ljava/lang/String;Ljava/lang/String;)I", vec![s(b), s(a)]));
    }
    out.push(("equalsTo", "(Ljava/lang/String;Ljava/lang/String;)I", vec![s("a"), Null]));
    for a in [0, -5, 7, i32::MIN, i32::MAX] {
        out.push(("absI", "(I)I", vec![P(Int(a))]));
        out.push(("boxI", "(I)I", vec![P(Int(a))]));
        out.push(("unboxWiden", "(I)J", vec![P(Int(a))]));
        for b in [0, -5, i32::MIN] {
            out.push(("minI", "(II)I", vec![P(Int(a)), P(Int(b))]));
            out.push(("maxI", "(II)I", vec![P(Int(a)), P(Int(b))]));
            out.push(("boxEquals", "(II)I", vec![P(Int(a)), P(Int(b))]));
        }
    }
    for a in [0, -5, i64::MIN, i64::MAX] {
        out.push(("absJ", "(J)J", vec![P(Long(a))]));
        out.push(("boxJ", "(J)J", vec![P(Long(a))]));
        for b in [3, i64::MIN] {
            out.push(("minJ", "(JJ)J", vec![P(Long(a)), P(Long(b))]));
            out.push(("maxJ", "(JJ)J", vec![P(Long(a)), P(Long(b))]));
        }
    }
    let floats = [0.0f32, -0.0, -1.5, 2.5, f32::NAN, f32::NEG_INFINITY, f32::MIN_POSITIVE];
    for a in floats {
        out.push(("absF", "(F)F", vec![P(Float(a))]));
        out.push(("boxF", "(F)F", vec![P(Float(a))]));
        out.push(("absD", "(D)D", vec![P(Double(f64::from(a)))]));
        out.push(("boxD", "(D)D", vec![P(Double(f64::from(a)))]));
        for b in [0.0f32, -0.0, 1.0, f32::NAN] {
            out.push(("minF", "(FF)F", vec![P(Float(a)), P(Float(b))]));
            out.push(("maxF", "(FF)F", vec![P(Float(a)), P(Float(b))]));
            out.push(("minD", "(DD)D", vec![P(Double(f64::from(a))), P(Double(f64::from(b)))]));
            out.push(("maxD", "(DD)D", vec![P(Double(f64::from(a))), P(Double(f64::from(b)))]));
        }
    }
    for (from, n, i) in [(0, 3, 2), (2, 3, 3), (4, 2, 0), (-1, 1, 0), (0, 5, 0), (1, 0, 1)] {
        out.push(("arraycopy", "(III)I", vec![P(Int(from)), P(Int(n)), P(Int(i))]));
    }
    for (rows, r, c) in [(2, 1, 2), (3, 2, 0), (2, 2, 0), (0, 0, 0), (-1, 0, 0), (2, 1, 3)] {
        out.push(("grid", "(III)I", vec![P(Int(rows)), P(Int(r)), P(Int(c))]));
    }
    for c in [0u16, 65, 0xffff] {
        out.push(("boxC", "(C)I", vec![P(Char(c))]));
    }
    for (z, sh, by) in [(true, i16::MIN, i8::MIN), (false, i16::MAX, i8::MAX), (true, -1, -1)] {
        out.push(("boxZ", "(Z)I", vec![P(Boolean(z))]));
        out.push(("boxS", "(S)I", vec![P(Short(sh))]));
        out.push(("boxB", "(B)I", vec![P(Byte(by))]));
    }
    out
}

/// The test case `Models.<method>(args)`.
fn test_of(method: &str, descriptor: &str, args: &[Arg]) -> TestCase {
    let mut b = TestCaseBuilder::new();
    let vars: Vec<_> = args
        .iter()
        .map(|a| match a {
            S(t) => b.string(*t),
            Null => b.null(model::descriptor::FieldType::parse("Ljava/lang/String;").unwrap()),
            P(p) => b.primitive(*p),
        })
        .collect();
    b.static_call(MethodRef::parse("models.Models", method, descriptor).unwrap(), &vars);
    b.build()
}

/// A Java expression of a literal statement of a test.
fn java_arg(kind: &StatementKind) -> String {
    match kind {
        StatementKind::String(t) => common::java_string(t),
        StatementKind::Null(_) => "(String) null".into(),
        StatementKind::Primitive(p) => match p {
            Boolean(z) => z.to_string(),
            Byte(x) => format!("(byte) ({x})"),
            Short(x) => format!("(short) ({x})"),
            Char(x) => format!("(char) {x}"),
            Int(x) => common::java_value(tardis::expr::Value::Int(*x)),
            Long(x) => common::java_value(tardis::expr::Value::Long(*x)),
            Float(x) => common::java_value(tardis::expr::Value::Float(*x)),
            Double(x) => common::java_value(tardis::expr::Value::Double(*x)),
        },
        other => panic!("not a literal: {other:?}"),
    }
}

/// The Java program printing each test's result on a line, or `throws`.
fn program(tests: &[TestCase]) -> String {
    let mut src = String::from("public class Check {\n  public static void main(String[] a) {\n");
    for test in tests {
        let call = test.statements.last().unwrap();
        let StatementKind::StaticCall { method, args } = &call.kind else { panic!() };
        let args: Vec<String> = args.iter().map(|v| java_arg(&test[*v].kind)).collect();
        let ret = match method.descriptor.ret.as_ref().map(|t| t.to_descriptor()).as_deref() {
            Some("J") => "long",
            Some("F") => "float",
            Some("D") => "double",
            _ => "int",
        };
        let show = common::java_show(ret);
        let _ = writeln!(
            src,
            "    try {{ {ret} r = models.Models.{}({}); System.out.println({show}); }} catch (RuntimeException e) {{ System.out.println(\"throws\"); }}",
            method.name,
            args.join(", ")
        );
    }
    src.push_str("  }\n}\n");
    src
}

/// What the replay says the test gives, as the program prints it.
fn replayed(r: &Replay) -> String {
    match (&r.stopped, r.result) {
        (Some(why), _) if why.contains("Exception") => "throws".into(),
        (Some(why), _) => format!("stopped: {why}"),
        (None, Some(v)) => common::shown(v),
        (None, None) => "no result".into(),
    }
}

/// The tests z3 makes from `test`'s alternatives (pinned clauses are never negated).
fn solved(test: &TestCase, r: &Replay) -> Vec<TestCase> {
    let mut out = vec![];
    for alternative in r.path.alternatives() {
        if r.origins[alternative.negated] == Origin::Pin {
            continue;
        }
        let clauses = r.query(&alternative);
        if let Ok(Outcome::Sat(model)) = solve(&clauses, &r.types(), &r.values(), 5_000) {
            out.push(write_back(test, r, &model));
        }
    }
    out
}

#[test]
fn modelled_jdk_operations_match_the_jvm_and_their_clauses_hold() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/tardis/src/models/Models.java");
    common::javac(dir.path(), dir.path(), &[&src]);
    let cf = ClassFile::parse(&std::fs::read(dir.path().join("models/Models.class")).unwrap()).unwrap();
    let classes = Classes::new([cf]);
    let mut tests: Vec<TestCase> = cases().iter().map(|(m, d, a)| test_of(m, d, a)).collect();
    let originals = tests.len();
    let mut wrong = vec![];
    for i in 0..originals {
        let r = replay_test(&classes, &tests[i]);
        let values = r.values();
        for (c, origin) in r.path.clauses.iter().zip(&r.origins) {
            if c.holds(&values) != Ok(true) {
                wrong.push(format!("{:?}: clause {c:?} ({origin:?}) does not hold", tests[i].statements));
            }
        }
        tests.extend(solved(&tests[i], &r));
    }
    let jvm: Vec<String> = {
        std::fs::write(dir.path().join("Check.java"), program(&tests)).unwrap();
        common::javac(dir.path(), dir.path(), &[&dir.path().join("Check.java")]);
        common::java(dir.path(), "Check").lines().map(str::to_string).collect()
    };
    assert_eq!(jvm.len(), tests.len());
    let mut by_method: BTreeMap<String, usize> = BTreeMap::new();
    for (test, expected) in tests.iter().zip(&jvm) {
        let got = replayed(&replay_test(&classes, test));
        let StatementKind::StaticCall { method, .. } = &test.statements.last().unwrap().kind else { panic!() };
        *by_method.entry(method.name.clone()).or_default() += 1;
        let supplementary = got.contains("outside the BMP");
        if &got != expected && !supplementary {
            wrong.push(format!(
                "{}: replay {got}, JVM {expected}",
                program(std::slice::from_ref(test)).lines().nth(2).unwrap()
            ));
        }
    }
    println!("{originals} cases, {} solved alternatives; per method {by_method:?}", tests.len() - originals);
    assert!(wrong.is_empty(), "{} differ:\n{}", wrong.len(), wrong.join("\n"));
    assert!(tests.len() - originals > 100, "z3 solved only {} alternatives", tests.len() - originals);
}
