//! Daikon-style invariant inference (TECHNIQUES.md §3 step 1), in Rust:
//! per program point, unary invariants of each variable and binary
//! invariants of comparable pairs, each kept only when it is statistically
//! justified.
//!
//! Justification follows Daikon (github.com/codespecs/daikon, `java/daikon/`):
//! an invariant is kept when its confidence, 1 minus the probability that
//! the samples satisfy it by chance, is at least [`CONFIDENCE_LIMIT`]
//! (`Invariant.dkconfig_confidence_limit` = 0.99). Per form:
//!
//! - **non-zero** (`inv/unary/scalar/NonZero.java.jpp`): only when 0 lies
//!   between the least and greatest value seen (else a sign invariant says
//!   more); P = (1 - 1/range)^n with range = max - min + 1 capped at 50, and
//!   range 3 for references (`x != null`).
//! - **lower and upper bounds** (`inv/unary/BoundCore.java.jpp`): from the
//!   three least (greatest) values and their counts: range = max - min1 + 1,
//!   avg = min(n / range, 100) (divided by 5 for a lower bound at 0),
//!   P = and(ge(num_min1, 3), or(ge(num_min1, 5 avg), and over k of
//!   ge(num_mink, avg / 2) when min1..min3 are consecutive)), with
//!   ge(x, goal) = 0 when x >= goal, 1 when x <= 1, else (goal - x)/(goal - 1),
//!   and(p, q) = 1 - (1-p)(1-q), or = min. Bounds at -1, 0 and 1 are the sign
//!   invariants below.
//! - **sign** (`x > 0`, `x >= 0`, `x < 0`, `x <= 0`): a comparison with the
//!   constant 0, justified as Daikon's two-variable comparisons
//!   (`inv/binary/twoScalar/IntComparisons.java.jpp`): P = 0.5^n.
//! - **even/odd** (`inv/unary/scalar/Modulus.java` with modulus 2, which
//!   Daikon has but leaves off by default): P = 0.5^n.
//! - **one-of** (`inv/unary/OneOf.java.jpp`, at most 3 values): Daikon has
//!   no statistical test; ours asks for [`MIN_CONSTANT_SAMPLES`] samples for
//!   one value and [`MIN_ONE_OF_SAMPLES`] for two or three, so that a
//!   method called twice does not yield a constant.
//! - **binary comparisons** over comparable variables (the same kind of
//!   value, as Daikon's declared-type comparability): `==` with at least
//!   [`MIN_CONSTANT_SAMPLES`] samples (Daikon: confidence 1 for any n > 0);
//!   `<`, `<=` and `!=` (integers only, as `IntNonEqual`) with P = 0.5^n.
//!   As in Daikon, variables that are constant at the point take part in no
//!   binary invariant, equal variables are represented by the first of them
//!   (an equality set's leader), and at an exit two prestate variables
//!   (`orig(..)`, or a variable that always equals its `orig(..)`) are not
//!   compared (that is an entry invariant); likewise an
//!   exit has no unary invariant of a prestate variable, nor of a variable
//!   that always equals its prestate (Daikon's `ParentFilter` drops those
//!   as the entry's).

use std::collections::{BTreeMap, BTreeSet};

use crate::invariant::{Cmp, Form, Invariant, Point, Sample, number, same};
use crate::trace::Value;

/// Daikon's `--conf_limit` default: an invariant is kept when the
/// probability of its samples satisfying it by chance is at most 1 - this.
pub const CONFIDENCE_LIMIT: f64 = 0.99;
/// Samples a constant (one-of with one value) or an equality needs.
pub const MIN_CONSTANT_SAMPLES: usize = 3;
/// Samples a one-of with two or three values needs.
pub const MIN_ONE_OF_SAMPLES: usize = 5;
/// Most values a one-of invariant lists (Daikon's `OneOf.dkconfig_size`).
pub const MAX_ONE_OF: usize = 3;
/// Cap of the range in the non-zero test (Daikon's `NonZero.range_max`).
const NON_ZERO_RANGE_MAX: f64 = 50.0;

/// The kind of a variable, from the values it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Float,
    Bool,
    /// Strings (and nulls).
    Text,
    /// Other references (and nulls).
    Reference,
    /// Values of different kinds (a variable typed `Object`): only null-ness.
    Mixed,
}

fn kind_of<'v>(values: impl Iterator<Item = &'v Value>) -> Kind {
    let mut kind = None;
    for v in values {
        let k = match v {
            Value::Null => continue,
            Value::Int(_) => Kind::Int,
            Value::Float(_) => Kind::Float,
            Value::Bool(_) => Kind::Bool,
            Value::Str(_) => Kind::Text,
            Value::Ref(_) => Kind::Reference,
        };
        match kind {
            None => kind = Some(k),
            Some(seen) if seen != k => return Kind::Mixed,
            _ => {}
        }
    }
    kind.unwrap_or(Kind::Reference)
}

fn justified(p_by_chance: f64) -> bool {
    1.0 - p_by_chance >= CONFIDENCE_LIMIT
}

/// The invariants of every program point of `samples`, points in order.
pub fn infer(samples: &BTreeMap<Point, Vec<Sample>>) -> Vec<Invariant> {
    samples.iter().flat_map(|(point, rows)| infer_point(*point, rows)).collect()
}

/// The invariants of one program point.
pub fn infer_point(point: Point, rows: &[Sample]) -> Vec<Invariant> {
    let names: BTreeSet<&str> = rows.iter().flat_map(|r| r.keys().map(String::as_str)).collect();
    let mut out = Vec::new();
    let mut kinds = BTreeMap::new();
    let mut constant = BTreeSet::new();
    // Daikon's ParentFilter: a prestate variable's own invariants are the
    // entry's, and so are those of a variable always equal to its prestate
    // (the two form an equality set, stated once).
    let prestate: BTreeSet<&str> = if point.exit {
        names.iter().copied().filter(|n| n.starts_with("orig(") || unchanged(rows, n)).collect()
    } else {
        BTreeSet::new()
    };
    for name in &names {
        let values: Vec<&Value> = rows.iter().filter_map(|r| r.get(*name)).collect();
        let kind = kind_of(values.iter().copied());
        kinds.insert(*name, kind);
        // `this` is never null: Daikon leaves that out as obvious.
        let forms = if prestate.contains(name) || *name == "this" { Vec::new() } else { unary(name, kind, &values) };
        if matches!(forms.first(), Some(Form::OneOf { values, .. }) if values.len() == 1) {
            constant.insert(*name);
        }
        out.extend(forms.into_iter().map(|form| Invariant { point, form, samples: values.len() }));
    }
    let candidates: Vec<(&str, Kind)> =
        names.iter().filter(|n| !constant.contains(*n)).map(|n| (*n, kinds[n])).collect();
    out.extend(binary(point, rows, &candidates, &prestate));
    out
}

/// Whether variable `name` of an exit equals its prestate `orig(name)` in
/// every sample that has both (and some sample has both).
fn unchanged(rows: &[Sample], name: &str) -> bool {
    let orig = format!("orig({name})");
    let mut both = rows.iter().filter_map(|r| Some((r.get(name)?, r.get(&orig)?))).peekable();
    both.peek().is_some() && both.all(|(x, y)| same(x, y) && matches!(x, Value::Null) == matches!(y, Value::Null))
}

/// The unary invariants of one variable (a one-of first when there is one).
fn unary(var: &str, kind: Kind, values: &[&Value]) -> Vec<Form> {
    let n = values.len();
    let null = values.iter().filter(|v| matches!(v, Value::Null)).count();
    if n < MIN_CONSTANT_SAMPLES {
        return Vec::new();
    }
    if let Some(one_of) = one_of(var, kind, values) {
        return vec![one_of];
    }
    match kind {
        Kind::Int | Kind::Float => numeric(var, kind, values),
        Kind::Text | Kind::Reference | Kind::Mixed if null == 0 => {
            // Daikon's NonZero for pointers: range 3.
            let p = (2.0f64 / 3.0).powi(n as i32);
            if justified(p) { vec![Form::NonZero { var: var.to_string(), reference: true }] } else { Vec::new() }
        }
        _ => Vec::new(),
    }
}

/// `x one of {..}` when the variable took at most 3 values (a constant
/// when one) and there are enough samples; never for references.
fn one_of(var: &str, kind: Kind, values: &[&Value]) -> Option<Form> {
    if matches!(kind, Kind::Mixed) {
        return None;
    }
    let mut distinct: Vec<Value> = Vec::new();
    for v in values {
        if matches!(v, Value::Ref(_)) {
            return None;
        }
        if !distinct.iter().any(|d| same(d, v) && matches!(d, Value::Null) == matches!(v, Value::Null)) {
            distinct.push((*v).clone());
            if distinct.len() > MAX_ONE_OF {
                return None;
            }
        }
    }
    let needed = if distinct.len() == 1 { MIN_CONSTANT_SAMPLES } else { MIN_ONE_OF_SAMPLES };
    if values.len() < needed || (kind == Kind::Bool && distinct.len() > 1) {
        return None;
    }
    distinct.sort_by(|a, b| number(a).partial_cmp(&number(b)).unwrap_or(std::cmp::Ordering::Equal));
    Some(Form::OneOf { var: var.to_string(), values: distinct })
}

/// Sign, non-zero, bounds and parity of a number variable with more than
/// three values.
fn numeric(var: &str, kind: Kind, values: &[&Value]) -> Vec<Form> {
    let xs: Vec<f64> = values.iter().filter_map(|v| number(v)).filter(|x| !x.is_nan()).collect();
    let n = xs.len();
    if n < MIN_CONSTANT_SAMPLES || n < values.len() {
        return Vec::new();
    }
    let v = var.to_string();
    let (min, max) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let chance = 0.5f64.powi(n as i32);
    let mut out = Vec::new();
    if justified(chance) && min >= 0.0 {
        out.push(Form::Positive { var: v.clone(), strict: min > 0.0 });
    }
    if justified(chance) && max <= 0.0 {
        out.push(Form::Negative { var: v.clone(), strict: max < 0.0 });
    }
    if min < 0.0 && max > 0.0 && xs.iter().all(|&x| x != 0.0) {
        let range = (max - min + 1.0).min(NON_ZERO_RANGE_MAX);
        if justified((1.0 - 1.0 / range).powi(n as i32)) {
            out.push(Form::NonZero { var: v.clone(), reference: false });
        }
    }
    if kind == Kind::Int {
        out.extend(bounds(var, &xs));
        let parity = (xs[0] as i64).rem_euclid(2);
        if justified(chance) && xs.iter().all(|&x| (x as i64).rem_euclid(2) == parity) {
            out.push(Form::Parity { var: v, remainder: parity });
        }
    }
    out
}

/// Daikon's lower and upper bounds (`BoundCore`), except at -1, 0 and 1,
/// where the sign invariants say the same.
fn bounds(var: &str, xs: &[f64]) -> Vec<Form> {
    let mut out = Vec::new();
    let lower = bound_confidence(xs, false);
    let upper = bound_confidence(xs, true);
    let (min, max) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    if let Some(p) = lower
        && justified(p)
        && !(-1.0..=1.0).contains(&min)
    {
        out.push(Form::Lower { var: var.to_string(), bound: min });
    }
    if let Some(p) = upper
        && justified(p)
        && !(-1.0..=1.0).contains(&max)
    {
        out.push(Form::Upper { var: var.to_string(), bound: max });
    }
    out
}

/// The probability that the least (`upper`: greatest) value of `xs` is a
/// bound by chance, as Daikon's `BoundCore.computeConfidence`.
fn bound_confidence(xs: &[f64], upper: bool) -> Option<f64> {
    let mut sorted: Vec<f64> = xs.iter().map(|&x| if upper { -x } else { x }).collect();
    sorted.sort_by(f64::total_cmp);
    let (min1, max) = (*sorted.first()?, *sorted.last()?);
    let mut counts: Vec<(f64, f64)> = Vec::new();
    for &x in &sorted {
        let full = counts.len() == 3;
        match counts.last_mut() {
            Some((v, c)) if *v == x => *c += 1.0,
            _ if full => break,
            _ => counts.push((x, 1.0)),
        }
    }
    let n = xs.len() as f64;
    let range = max - min1 + 1.0;
    let mut avg = (n / range).min(100.0);
    if !upper && min1 == 0.0 {
        avg /= 5.0;
    }
    let num = |k: usize| counts.get(k).map_or(0.0, |c| c.1);
    let p1 = prob_is_ge(num(0), 3.0);
    let p2a = prob_is_ge(num(0), 5.0 * avg);
    let consecutive = counts.len() == 3 && counts[1].0 == counts[0].0 + 1.0 && counts[2].0 == counts[1].0 + 1.0;
    let p2b = if consecutive { (0..3).map(|k| prob_is_ge(num(k), avg / 2.0)).fold(0.0, prob_and) } else { 1.0 };
    Some(prob_and(p1, p2a.min(p2b)))
}

/// Daikon's `Invariant.prob_is_ge`.
fn prob_is_ge(x: f64, goal: f64) -> f64 {
    if x >= goal {
        0.0
    } else if x <= 1.0 {
        1.0
    } else {
        (goal - x) / (goal - 1.0)
    }
}

/// Daikon's `Invariant.prob_and`.
fn prob_and(p1: f64, p2: f64) -> f64 {
    1.0 - (1.0 - p1) * (1.0 - p2)
}

/// The binary invariants of the comparable pairs of `vars`.
fn binary(point: Point, rows: &[Sample], vars: &[(&str, Kind)], prestate: &BTreeSet<&str>) -> Vec<Invariant> {
    let mut out = Vec::new();
    let mut led: BTreeSet<&str> = BTreeSet::new();
    for (i, &(a, ka)) in vars.iter().enumerate() {
        if led.contains(a) || ka == Kind::Mixed {
            continue;
        }
        for &(b, kb) in &vars[i + 1..] {
            if kb != ka || led.contains(b) {
                continue;
            }
            let pairs: Vec<(&Value, &Value)> = rows.iter().filter_map(|r| Some((r.get(a)?, r.get(b)?))).collect();
            let Some((op, swap)) = compare(ka, &pairs) else { continue };
            if op == Cmp::Eq {
                led.insert(b);
            }
            // Two prestate values: the entry's invariant, except `x == orig(x)`
            // (the call leaves x as it was), which only an exit can state.
            let own_prestate = a == format!("orig({b})") || b == format!("orig({a})");
            if own_prestate && (a == "this" || b == "this") {
                continue; // the receiver is always the same object: obvious
            }
            if prestate.contains(a) && prestate.contains(b) && !(op == Cmp::Eq && own_prestate) {
                continue;
            }
            let (a, b) = if swap { (b, a) } else { (a, b) };
            let form = Form::Compare { a: a.to_string(), op, b: b.to_string() };
            out.push(Invariant { point, form, samples: pairs.len() });
        }
    }
    out
}

/// The strongest justified comparison of the pairs, and whether its sides
/// are swapped (`b < a`).
fn compare(kind: Kind, pairs: &[(&Value, &Value)]) -> Option<(Cmp, bool)> {
    let n = pairs.len();
    if n < MIN_CONSTANT_SAMPLES {
        return None;
    }
    if pairs.iter().all(|(x, y)| same(x, y)) {
        return Some((Cmp::Eq, false));
    }
    if !matches!(kind, Kind::Int | Kind::Float) || !justified(0.5f64.powi(n as i32)) {
        return None;
    }
    let nums: Option<Vec<(f64, f64)>> = pairs.iter().map(|(x, y)| Some((number(x)?, number(y)?))).collect();
    let nums = nums?;
    let all = |f: fn(f64, f64) -> bool| nums.iter().all(|&(x, y)| f(x, y));
    if all(|x, y| x < y) {
        Some((Cmp::Lt, false))
    } else if all(|x, y| x > y) {
        Some((Cmp::Lt, true))
    } else if all(|x, y| x <= y) {
        Some((Cmp::Le, false))
    } else if all(|x, y| x >= y) {
        Some((Cmp::Le, true))
    } else if kind == Kind::Int && all(|x, y| x != y) {
        Some((Cmp::Ne, false))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(vars: &[(&str, &[Value])]) -> Vec<Sample> {
        let n = vars[0].1.len();
        (0..n).map(|i| vars.iter().map(|(name, vs)| (name.to_string(), vs[i].clone())).collect()).collect()
    }

    fn shown(point: Point, rows: &[Sample]) -> Vec<String> {
        infer_point(point, rows).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn few_samples_give_no_invariant_and_enough_give_daikons() {
        let exit = Point { method: 0, exit: true };
        let ints = |v: &[i64]| v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>();
        assert!(shown(exit, &rows(&[("x", &ints(&[4, 4]))])).is_empty());
        assert_eq!(shown(exit, &rows(&[("x", &ints(&[4, 4, 4]))])), vec!["x == 4"]);
        // 7 positive samples justify x > 0 (1 - 0.5^7 >= 0.99), 6 do not.
        assert!(shown(exit, &rows(&[("x", &ints(&[2, 3, 5, 7, 11, 13]))])).is_empty());
        assert_eq!(shown(exit, &rows(&[("x", &ints(&[2, 3, 5, 7, 11, 13, 17]))])), vec!["x > 0"]);
        let evens = ints(&[2, 4, 6, 8, 10, 12, 14]);
        assert_eq!(shown(exit, &rows(&[("x", &evens)])), vec!["x > 0", "x is even"]);
    }

    #[test]
    fn binary_comparisons_skip_constants_and_prestate_pairs() {
        let exit = Point { method: 0, exit: true };
        let ints = |v: &[i64]| v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>();
        let a = ints(&[-1, 2, -3, 4, -5, 6, -7]);
        let b = ints(&[0, 3, -2, 5, -4, 7, -6]);
        let c = ints(&[9, 9, 9, 9, 9, 9, 9]);
        let d = ints(&[1, 4, -1, 6, -3, 8, -5]);
        // b never changes: it is a prestate value, compared with nothing prestate.
        let got = shown(exit, &rows(&[("orig(a)", &a), ("orig(b)", &b), ("b", &b), ("c", &c), ("d", &d)]));
        assert_eq!(got, vec!["c == 9", "b < d", "b == orig(b)", "orig(a) < d"]);
    }
}
