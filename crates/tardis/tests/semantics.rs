//! The symbolic semantics of Java's arithmetic against a real JVM: every
//! binary operator, negation, conversion and comparison of each
//! computational type on edge values (overflow, `MIN / -1`, division by
//! zero, shifts by the width and more, NaN, -0.0, infinities, subnormals,
//! rounding at 2^24 and 2^53, out-of-range conversions). Each case runs in
//! a generated Java program; its result must equal both the concrete
//! evaluation (`Expr::eval`) and z3's (`smt::term`, simplified), except
//! where z3 is not asked: a division by zero (an exception path, not a
//! value) and the floating-point remainder (not modelled).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use common::{java_value, shown};
use tardis::expr::{BinOp, CmpOp, Conv, Expr, JType, Thrown, Value};

mod common;
use tardis::smt::{Symbols, Unsupported, evaluate, term};

const INTS: [i32; 12] = [0, 1, -1, 2, 7, 31, 32, 33, -33, i32::MAX, i32::MIN, 123_456_789];
const LONGS: [i64; 10] = [0, 1, -1, 63, 64, 65, i64::MAX, i64::MIN, 1 << 40, -(i32::MAX as i64) - 2];
const FLOATS: [f32; 12] = [
    0.0,
    -0.0,
    1.0,
    -1.5,
    0.1,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    1e-45,
    16_777_217.0,
    2_147_483_648.0,
];
const DOUBLES: [f64; 12] = [
    0.0,
    -0.0,
    1.0,
    -1.5,
    0.1,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MAX,
    5e-324,
    9_007_199_254_740_993.0,
    -9.3e18,
];

/// A case: an expression over constants, its result type, and the same in Java.
struct Case {
    expr: Expr,
    ty: JType,
    java: String,
}

fn values(ty: JType) -> Vec<Value> {
    match ty {
        JType::Int => INTS.iter().map(|&x| Value::Int(x)).collect(),
        JType::Long => LONGS.iter().map(|&x| Value::Long(x)).collect(),
        JType::Float => FLOATS.iter().map(|&x| Value::Float(x)).collect(),
        JType::Double => DOUBLES.iter().map(|&x| Value::Double(x)).collect(),
    }
}

fn java_type(ty: JType) -> &'static str {
    match ty {
        JType::Int => "int",
        JType::Long => "long",
        JType::Float => "float",
        JType::Double => "double",
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let ops = [
        (BinOp::Add, "+"),
        (BinOp::Sub, "-"),
        (BinOp::Mul, "*"),
        (BinOp::Div, "/"),
        (BinOp::Rem, "%"),
        (BinOp::Shl, "<<"),
        (BinOp::Shr, ">>"),
        (BinOp::Ushr, ">>>"),
        (BinOp::And, "&"),
        (BinOp::Or, "|"),
        (BinOp::Xor, "^"),
    ];
    for ty in [JType::Int, JType::Long, JType::Float, JType::Double] {
        let floating = matches!(ty, JType::Float | JType::Double);
        for (op, symbol) in ops {
            let shift = matches!(op, BinOp::Shl | BinOp::Shr | BinOp::Ushr);
            if floating && !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem) {
                continue;
            }
            let rights = if shift { values(JType::Int) } else { values(ty) };
            for a in values(ty) {
                for &b in &rights {
                    let java = format!("({}) ({} {symbol} {})", java_type(ty), java_value(a), java_value(b));
                    out.push(Case { expr: Expr::bin(op, Expr::Const(a), Expr::Const(b)), ty, java });
                }
            }
        }
        for a in values(ty) {
            let java = format!("({}) (-{})", java_type(ty), java_value(a));
            out.push(Case { expr: Expr::Neg(Box::new(Expr::Const(a))), ty, java });
        }
        if ty != JType::Int {
            for (op, nan) in [(CmpOp::NanIsLess, -1), (CmpOp::NanIsGreater, 1)] {
                for a in values(ty) {
                    for b in values(ty) {
                        let (x, y) = (java_value(a), java_value(b));
                        let nan = if floating { nan } else { 0 };
                        let java = format!("({x} < {y} ? -1 : {x} == {y} ? 0 : {x} > {y} ? 1 : {nan})");
                        out.push(Case { expr: Expr::cmp(op, Expr::Const(a), Expr::Const(b)), ty: JType::Int, java });
                    }
                }
            }
        }
    }
    let convs = [
        (Conv::I2L, "(long)"),
        (Conv::I2F, "(float)"),
        (Conv::I2D, "(double)"),
        (Conv::L2I, "(int)"),
        (Conv::L2F, "(float)"),
        (Conv::L2D, "(double)"),
        (Conv::F2I, "(int)"),
        (Conv::F2L, "(long)"),
        (Conv::F2D, "(double)"),
        (Conv::D2I, "(int)"),
        (Conv::D2L, "(long)"),
        (Conv::D2F, "(float)"),
        (Conv::I2B, "(int) (byte)"),
        (Conv::I2C, "(int) (char)"),
        (Conv::I2S, "(int) (short)"),
    ];
    for (c, cast) in convs {
        let (from, to) = c.types();
        for a in values(from) {
            let java = format!("{cast} {}", java_value(a));
            out.push(Case { expr: Expr::conv(c, Expr::Const(a)), ty: to, java });
        }
    }
    out
}

/// The Java program printing each case's result on a line: an integer,
/// `NaN`, the bits of a float or double (`f:` or `d:` hex), or `throws`.
fn program(cases: &[Case]) -> String {
    let mut src = String::from("public class Semantics {\n");
    for (chunk, part) in cases.chunks(200).enumerate() {
        let _ = writeln!(src, "  static void part{chunk}(StringBuilder out) {{");
        for case in part {
            let show = common::java_show(java_type(case.ty));
            let _ = writeln!(
                src,
                "    try {{ {} r = {}; out.append({show}).append('\\n'); }} catch (ArithmeticException e) {{ out.append(\"throws\\n\"); }}",
                java_type(case.ty),
                case.java
            );
        }
        src.push_str("  }\n");
    }
    src.push_str("  public static void main(String[] args) {\n    StringBuilder out = new StringBuilder();\n");
    for chunk in 0..cases.len().div_ceil(200) {
        let _ = writeln!(src, "    part{chunk}(out);");
    }
    src.push_str("    System.out.print(out);\n  }\n}\n");
    src
}

fn jvm_results(dir: &Path, cases: &[Case]) -> Vec<String> {
    std::fs::write(dir.join("Semantics.java"), program(cases)).unwrap();
    common::javac(dir, dir, &[&dir.join("Semantics.java")]);
    common::java(dir, "Semantics").lines().map(str::to_string).collect()
}

#[test]
fn concrete_and_z3_semantics_match_the_jvm_on_edge_values() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases();
    let jvm = jvm_results(dir.path(), &cases);
    assert_eq!(jvm.len(), cases.len());
    let env = BTreeMap::new();
    let mut symbols = Symbols::default();
    let (mut by_z3, mut wrong) = (0, Vec::new());
    for (case, expected) in cases.iter().zip(&jvm) {
        let concrete = match case.expr.eval(&env) {
            Ok(v) => shown(v),
            Err(Thrown::DivideByZero) => "throws".into(),
            Err(e) => panic!("{:?}: {e}", case.expr),
        };
        if &concrete != expected {
            wrong.push(format!("concrete {} = {concrete}, JVM {expected}", case.java));
        }
        if expected == "throws" {
            continue;
        }
        match term(&case.expr, &mut symbols) {
            Ok(t) => {
                by_z3 += 1;
                let z3 = evaluate(&t, case.ty).map_or_else(|| "no value".to_string(), shown);
                if &z3 != expected {
                    wrong.push(format!("z3 {} = {z3}, JVM {expected}", case.java));
                }
            }
            Err(Unsupported::FloatRemainder) => {}
            Err(e) => panic!("{}: {e}", case.java),
        }
    }
    println!("{} cases, {by_z3} also through z3", cases.len());
    assert!(wrong.is_empty(), "{} of {} differ:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
    assert!(by_z3 > 2000, "z3 checked only {by_z3} cases");
}
