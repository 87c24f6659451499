//! Range rules (T2) for phrasings without a comparative: an invalid
//! number, not enough space in a buffer or array, a value that does not
//! fit in a primitive type, and reaching the end of a file before a
//! number of bytes was read.

use super::entity::MethodContext;
use super::predicate::{Ask, Derived, has_method, is_numeric, unknown};
use super::sentence::Token;
use crate::cond::{CmpOp, Cond, Expr};
use crate::graph::TriggerKind;

/// "the nano-of-second is invalid", "`n` is not valid": a number that is
/// invalid is out of its range (T2, bounds unknown). "is invalid for the
/// month-year" (valid only with another value) is left to other rules.
pub(super) fn invalid_number(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, _) = ask.parts();
    let words: Vec<&str> = lower.iter().map(String::as_str).collect();
    let invalid = matches!(words.as_slice(), ["is" | "are", "invalid"] | ["is" | "are", "not", "valid"]);
    let s = subj.filter(|s| matches!(s, Expr::Param(_)) && is_numeric(ctx, s))?;
    invalid.then(|| Derived { kind: TriggerKind::Range, condition: range_unknown(s), links: Vec::new() })
}

/// "`val` is zero bytes long", "`s` is 0 characters long": the length of
/// an array (`val.length == 0`) or a string (`s.length() == 0`), T2.
pub(super) fn units_long(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, predicate, lower, negated) = ask.parts();
    let [be, _, unit, long] = lower else { return None };
    let units = ["bytes", "byte", "elements", "characters", "chars", "items"];
    if !(be == "is" || be == "are") || long != "long" || !units.contains(&unit.as_str()) {
        return None;
    }
    let (n, _) = ctx.noun_phrase(std::slice::from_ref(&predicate[1])).filter(|(e, _)| matches!(e, Expr::Int(_)))?;
    let s = subj?;
    let length = match ctx.type_of(s) {
        Some(t) if t.ends_with("[]") => Expr::Field { target: Box::new(s.clone()), name: "length".into() },
        Some(t) if has_method(ctx, s, "length", 0) || t == "java.lang.String" => Expr::call0(s.clone(), "length"),
        _ => return None,
    };
    let op = if negated { CmpOp::Ne } else { CmpOp::Eq };
    Some(Derived { kind: TriggerKind::Range, condition: Cond::cmp(length, op, n), links: Vec::new() })
}

/// "`val` is NaN": `val != val` (only NaN differs from itself); "`val` is
/// infinite": `Double.isInfinite(val)` (`Float` for a float); T4, a
/// special value rather than a range.
pub(super) fn special_float(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    let s =
        subj.filter(|s| matches!(ctx.type_of(s), Some("double" | "float" | "java.lang.Double" | "java.lang.Float")))?;
    let words: Vec<&str> = lower.iter().map(String::as_str).filter(|w| *w != "not").collect();
    let class =
        if ctx.type_of(s).is_some_and(|t| t.ends_with("float") || t.ends_with("Float")) { "Float" } else { "Double" };
    let condition = match words.as_slice() {
        ["is", "nan"] => Cond::cmp(s.clone(), CmpOp::Ne, s.clone()),
        ["is", "infinite"] => Cond::Truth(Expr::Call {
            target: Box::new(Expr::Name(class.into())),
            name: "isInfinite".into(),
            args: vec![s.clone()],
        }),
        _ => return None,
    };
    let condition = if negated { condition.negated() } else { condition };
    Some(Derived { kind: TriggerKind::Other, condition, links: Vec::new() })
}

/// "if the result overflows an int" documenting an exact arithmetic
/// method (`Math.addExact(x, y)`): the overflow of the operation the
/// method's name says, on its parameters (T2): `x > 0 && y >
/// Long.MAX_VALUE - x || x < 0 && y < Long.MIN_VALUE - x` for `addExact`;
/// `a == Integer.MAX_VALUE` for `incrementExact`; the bounds of `int`
/// for `toIntExact`. Other operations (`multiplyExact`) stay `?`.
pub(super) fn exact_overflow(ask: &Ask) -> Option<Derived> {
    let (ctx, _, _, lower, _) = ask.parts();
    let at = lower.iter().position(|w| w == "overflows" || w == "overflow")?;
    let class = match lower.get(at + 1..)?.iter().find(|w| !matches!(w.as_str(), "a" | "an" | "the"))?.as_str() {
        "int" => "Integer",
        "long" => "Long",
        _ => return None,
    };
    let bound = |n: &str| Expr::Field { target: Box::new(Expr::Name(class.into())), name: n.into() };
    let p = |k: usize| ctx.params.get(k).map(|n| Expr::Param(n.clone()));
    let arith = |op: char, l: Expr, r: Expr| Expr::Arith { op, left: Box::new(l), right: Box::new(r) };
    let (lt, gt, eq) = (CmpOp::Lt, CmpOp::Gt, CmpOp::Eq);
    let and = |a: Cond, b: Cond| Cond::And(vec![a, b]);
    let condition = match (ctx.method, p(0), p(1)) {
        ("addExact", Some(x), Some(y)) => Cond::Or(vec![
            and(
                Cond::cmp(x.clone(), gt, Expr::Int(0)),
                Cond::cmp(y.clone(), gt, arith('-', bound("MAX_VALUE"), x.clone())),
            ),
            and(Cond::cmp(x.clone(), lt, Expr::Int(0)), Cond::cmp(y, lt, arith('-', bound("MIN_VALUE"), x))),
        ]),
        ("subtractExact", Some(x), Some(y)) => Cond::Or(vec![
            and(
                Cond::cmp(y.clone(), lt, Expr::Int(0)),
                Cond::cmp(x.clone(), gt, arith('+', bound("MAX_VALUE"), y.clone())),
            ),
            and(Cond::cmp(y.clone(), gt, Expr::Int(0)), Cond::cmp(x, lt, arith('+', bound("MIN_VALUE"), y))),
        ]),
        ("incrementExact", Some(a), None) => Cond::cmp(a, eq, bound("MAX_VALUE")),
        ("decrementExact" | "negateExact", Some(a), None) => Cond::cmp(a, eq, bound("MIN_VALUE")),
        ("toIntExact", Some(v), None) => {
            Cond::Or(vec![Cond::cmp(v.clone(), lt, bound("MIN_VALUE")), Cond::cmp(v, gt, bound("MAX_VALUE"))])
        }
        _ => return None,
    };
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// `?`: the bounds of a range of `s` that the text does not give.
fn range_unknown(_s: &Expr) -> Cond {
    Cond::Unknown
}

/// "there is insufficient space in this buffer", "`dst` does not have
/// enough space", "insufficient room in the pushback buffer": T2. In a
/// buffer (a receiver with `remaining()`): `this.remaining() < n` where
/// `n` is what is written: the source buffer's `remaining()` ("for the
/// remaining doubles in the source buffer"), a `length` parameter, or the
/// length of the one array parameter.
pub(super) fn insufficient_space(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, _, _) = ask.parts();
    let all: Vec<String> = ask.part.iter().map(|t| t.text.to_ascii_lowercase()).collect();
    let space = |w: &String| w == "space" || w == "room";
    let short = all.windows(2).any(|w| (w[0] == "insufficient" || w[0] == "enough") && space(&w[1]));
    if !short {
        return None;
    }
    let in_receiver = matches!(subj, None | Some(Expr::This)) && !ctx.is_static && ctx.receiver_has("remaining");
    let needed = if in_receiver { needed_count(ctx, ask.part) } else { None };
    let condition = match needed {
        Some(n) => Cond::cmp(Expr::call0(Expr::This, "remaining"), CmpOp::Lt, n),
        None => Cond::Unknown,
    };
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// "if this queue is full": no capacity left, `this.remainingCapacity() ==
/// 0` (T3, what the receiver reports) for a receiver with
/// `remainingCapacity()`; "if the pushback buffer is full": T2 without a
/// formal form.
pub(super) fn full(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, negated) = ask.parts();
    let words: Vec<&str> = lower.iter().map(String::as_str).filter(|w| *w != "not").collect();
    if !matches!(words.as_slice(), ["is" | "are", "full"]) {
        return None;
    }
    if matches!(subj, Some(Expr::This)) && ctx.receiver_has("remainingCapacity") {
        let op = if negated { CmpOp::Ne } else { CmpOp::Eq };
        let condition = Cond::cmp(Expr::call0(Expr::This, "remainingCapacity"), op, Expr::Int(0));
        return Some(Derived { kind: TriggerKind::CallDependency, condition, links: Vec::new() });
    }
    Some(unknown(TriggerKind::Range))
}

/// What must fit in a buffer: a buffer parameter's `remaining()`, an int
/// `length` parameter, or the length of the one array parameter.
fn needed_count(ctx: &MethodContext, part: &[Token]) -> Option<Expr> {
    let params = || ctx.params.iter().map(|p| Expr::Param(p.clone()));
    let source = params().find(|p| has_method(ctx, p, "remaining", 0));
    if let Some(src) = source.filter(|_| part.iter().any(|t| t.is("source") || t.is("remaining"))) {
        return Some(Expr::call0(src, "remaining"));
    }
    let length = params().find(|p| matches!(p, Expr::Param(n) if n == "length") && is_numeric(ctx, p));
    let arrays: Vec<Expr> = params().filter(|p| ctx.type_of(p).is_some_and(|t| t.ends_with("[]"))).collect();
    match (length, arrays.as_slice()) {
        (Some(len), _) => Some(len),
        (None, [a]) => Some(Expr::Field { target: Box::new(a.clone()), name: "length".into() }),
        _ => None,
    }
}

/// "the value of `this` will not exactly fit in an `int`": T2; for a
/// receiver with `bitLength()` (a `BigInteger`), `this.bitLength() > 31`
/// (63 for `long`, 15 for `short`, 7 for `byte`).
pub(super) fn does_not_fit(ask: &Ask) -> Option<Derived> {
    let (ctx, _, _, lower, _) = ask.parts();
    let at = lower.windows(2).position(|w| w[0] == "fit" && w[1] == "in")?;
    let ty = lower[at + 2..].iter().find(|w| !matches!(w.as_str(), "a" | "an" | "the"))?;
    let bits = match ty.as_str() {
        "int" => 31,
        "long" => 63,
        "short" => 15,
        "byte" => 7,
        _ => return Some(unknown(TriggerKind::Range)),
    };
    if ctx.is_static || !ctx.receiver_has("bitLength") {
        return Some(unknown(TriggerKind::Range));
    }
    let condition = Cond::cmp(Expr::call0(Expr::This, "bitLength"), CmpOp::Gt, Expr::Int(bits));
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// "if the range of values exceeds an `int`" (`TemporalAccessor.get`): the
/// receiver's range of the field is no int range,
/// `!this.range(field).isIntValue()` (T2), when the receiver has
/// `range(field)`.
pub(super) fn range_exceeds_int(ask: &Ask) -> Option<Derived> {
    let (ctx, _, predicate, lower, _) = ask.parts();
    let about_range = ask.part.windows(3).any(|w| w[0].is("range") && w[1].is("of") && w[2].is("values"));
    let exceeds_int =
        lower.first().is_some_and(|w| w == "exceeds") && predicate.last().is_some_and(|t| t.text == "int");
    if !about_range || !exceeds_int || ctx.is_static {
        return None;
    }
    let k = (0..ctx.params.len()).find(|&k| {
        let p = Expr::Param(ctx.params[k].clone());
        ctx.receiver_methods
            .iter()
            .any(|m| m.name == "range" && m.params.len() == 1 && m.params[0] == ctx.param_types[k])
            && ctx.type_of(&p).is_some()
    })?;
    let range = Expr::Call {
        target: Box::new(Expr::This),
        name: "range".into(),
        args: vec![Expr::Param(ctx.params[k].clone())],
    };
    let condition = Cond::Truth(Expr::call0(range, "isIntValue")).negated();
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

/// For a receiver with a file pointer (`getFilePointer()` and `length()`):
/// "if this file reaches the end before reading four bytes": fewer bytes
/// left than are read, T2 (`this.length() - this.getFilePointer() < 4`);
/// "if this file has reached the end": a state of the receiver, T3
/// (`this.getFilePointer() >= this.length()`). Streams have no such
/// methods and are left to the other rules.
pub(super) fn end_of_file(ask: &Ask) -> Option<Derived> {
    let (ctx, subj, _, lower, _) = ask.parts();
    let reach = lower.iter().position(|w| w == "reaches" || w == "reached")?;
    if lower.get(reach + 1).is_none_or(|w| w != "the") || lower.get(reach + 2).is_none_or(|w| w != "end") {
        return None;
    }
    // Without a file pointer nothing reports the bytes left: no rule.
    let pointer = matches!(subj, None | Some(Expr::This))
        && !ctx.is_static
        && ctx.receiver_has("getFilePointer")
        && ctx.receiver_has("length");
    if !pointer {
        return None;
    }
    let left = || {
        let (len, pos) = (Expr::call0(Expr::This, "length"), Expr::call0(Expr::This, "getFilePointer"));
        Expr::Arith { op: '-', left: Box::new(len), right: Box::new(pos) }
    };
    let before = lower.iter().position(|w| w == "before");
    let Some(b) = before else {
        let condition =
            Cond::cmp(Expr::call0(Expr::This, "getFilePointer"), CmpOp::Ge, Expr::call0(Expr::This, "length"));
        return Some(Derived { kind: TriggerKind::CallDependency, condition, links: Vec::new() });
    };
    let count = ask.predicate.get(b + 2).and_then(|t| ctx.noun_phrase(std::slice::from_ref(t)));
    let condition = match count {
        Some((n @ Expr::Int(_), _)) if lower.get(b + 1).is_some_and(|w| w == "reading") => {
            Cond::cmp(left(), CmpOp::Lt, n)
        }
        _ => return None,
    };
    Some(Derived { kind: TriggerKind::Range, condition, links: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::super::testctx::{Owned, method, shown, throws_triggers};

    fn one(owned: &Owned, text: &str) -> (String, String) {
        shown(&throws_triggers(owned, text)).remove(0)
    }

    #[test]
    fn an_invalid_number_is_out_of_range() {
        let m = Owned::new("Duration", "withNanos", &[("int", "nanoOfSecond")], vec![]);
        assert_eq!(one(&m, "if the nano-of-second is invalid"), ("T2".into(), "?".into()));
    }

    #[test]
    fn a_full_queue_has_no_remaining_capacity() {
        let queue = Owned::new(
            "ArrayBlockingQueue",
            "add",
            &[("java.lang.Object", "e")],
            vec![method("remainingCapacity", &[], "int")],
        );
        assert_eq!(one(&queue, "if this queue is full"), ("T3".into(), "this.remainingCapacity() == 0".into()));
        let pushback = Owned::new("PushbackReader", "unread", &[("int", "c")], vec![]);
        assert_eq!(one(&pushback, "If the pushback buffer is full"), ("T2".into(), "?".into()));
    }

    #[test]
    fn a_value_n_units_long_has_that_length() {
        let big = Owned::new("BigInteger", "<init>", &[("byte[]", "val")], vec![]);
        assert_eq!(one(&big, "`val` is zero bytes long"), ("T2".into(), "val.length == 0".into()));
    }

    #[test]
    fn the_overflow_of_an_exact_operation() {
        let add = Owned::new("Math", "addExact", &[("long", "x"), ("long", "y")], vec![]);
        assert_eq!(
            one(&add, "if the result overflows a long"),
            ("T2".into(), "x > 0 && y > Long.MAX_VALUE - x || x < 0 && y < Long.MIN_VALUE - x".into())
        );
        let inc = Owned::new("Math", "incrementExact", &[("int", "a")], vec![]);
        assert_eq!(one(&inc, "if the result overflows an int"), ("T2".into(), "a == Integer.MAX_VALUE".into()));
    }

    #[test]
    fn nan_and_infinity_are_special_values() {
        let big = Owned::new("BigDecimal", "valueOf", &[("double", "val")], vec![]);
        let t = shown(&throws_triggers(&big, "if `val` is infinite or NaN"));
        assert_eq!(t, [("T4".into(), "Double.isInfinite(val)".into()), ("T4".into(), "val != val".into())]);
    }

    #[test]
    fn insufficient_space_compares_what_remains() {
        let buffer = vec![method("remaining", &[], "int")];
        let put = Owned::new("DoubleBuffer", "put", &[("java.nio.DoubleBuffer", "src")], buffer.clone());
        let mut put = put;
        put.param_methods = vec![buffer.clone()];
        assert_eq!(
            one(&put, "If there is insufficient space in this buffer for the remaining doubles in the source buffer"),
            ("T2".into(), "this.remaining() < src.remaining()".into())
        );
        let ints = Owned::new("IntBuffer", "put", &[("int[]", "src"), ("int", "offset"), ("int", "length")], buffer);
        assert_eq!(
            one(&ints, "If there is insufficient space in this buffer"),
            ("T2".into(), "this.remaining() < length".into())
        );
        let pushback = Owned::new("PushbackInputStream", "unread", &[("int", "b")], vec![]);
        assert_eq!(one(&pushback, "If there is insufficient room in the pushback buffer"), ("T2".into(), "?".into()));
    }

    #[test]
    fn a_value_that_does_not_fit_has_too_many_bits() {
        let big = Owned::new("BigInteger", "intValueExact", &[], vec![method("bitLength", &[], "int")]);
        assert_eq!(
            one(&big, "if the value of `this` will not exactly fit in an `int`"),
            ("T2".into(), "this.bitLength() > 31".into())
        );
    }

    #[test]
    fn a_range_of_values_beyond_int_is_no_int_range() {
        let year = Owned::new(
            "Year",
            "get",
            &[("java.time.temporal.TemporalField", "field")],
            vec![method("range", &["java.time.temporal.TemporalField"], "java.time.temporal.ValueRange")],
        );
        let t = shown(&throws_triggers(&year, "if the field is not supported or the range of values exceeds an `int`"));
        assert_eq!(t[1], ("T2".into(), "!this.range(field).isIntValue()".into()));
    }

    #[test]
    fn the_end_of_a_file_before_n_bytes_is_too_few_bytes_left() {
        let raf = Owned::new(
            "RandomAccessFile",
            "readLong",
            &[],
            vec![method("getFilePointer", &[], "long"), method("length", &[], "long")],
        );
        assert_eq!(
            one(&raf, "if this file reaches the end before reading eight bytes"),
            ("T2".into(), "this.length() - this.getFilePointer() < 8".into())
        );
        assert_eq!(
            one(&raf, "if this file has reached the end"),
            ("T3".into(), "this.getFilePointer() >= this.length()".into())
        );
    }
}
