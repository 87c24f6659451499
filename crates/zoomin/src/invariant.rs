//! Program points, their variables, and the invariants ZoomIn learns over
//! them (TECHNIQUES.md §3 step 1): Daikon's unary and binary forms, each
//! able to say whether a sample satisfies it.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::trace::{Execution, Value};

/// Where an invariant holds: a traced method's entry (precondition) or
/// normal exit (postcondition), as Daikon's `m:::ENTER` and `m:::EXIT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Point {
    /// The traced method's id.
    pub method: u32,
    /// Whether it is the exit (else the entry).
    pub exit: bool,
}

/// One sample of a program point: its variables by name. At an exit these
/// are the exit's variables plus `orig(x)` for every variable `x` of the
/// entry (Daikon's prestate variables).
pub type Sample = BTreeMap<String, Value>;

/// The samples an execution gives: its entry's and its exit's.
pub fn samples(e: &Execution) -> [(Point, Sample); 2] {
    let entry: Sample = e.entry.iter().cloned().collect();
    let mut exit: Sample = e.exit.iter().cloned().collect();
    for (name, v) in &e.entry {
        exit.insert(format!("orig({name})"), v.clone());
    }
    [(Point { method: e.method, exit: false }, entry), (Point { method: e.method, exit: true }, exit)]
}

/// A comparison of two variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Cmp {
    /// `a == b`.
    Eq,
    /// `a != b`.
    Ne,
    /// `a < b`.
    Lt,
    /// `a <= b`.
    Le,
}

impl Cmp {
    fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
        }
    }
}

/// What an invariant states.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "form", rename_all = "kebab-case")]
pub enum Form {
    /// `x` is one of these values (one value: a constant), up to 3.
    OneOf {
        /// The variable.
        var: String,
        /// The values seen (as the tracer encodes them).
        #[serde(serialize_with = "values_as_text")]
        values: Vec<Value>,
    },
    /// `x != 0` (numbers) or `x != null` (references and strings).
    NonZero {
        /// The variable.
        var: String,
        /// Whether it is a reference (`!= null`) rather than a number.
        reference: bool,
    },
    /// `x >= bound`.
    Lower {
        /// The variable.
        var: String,
        /// The least value allowed.
        bound: f64,
    },
    /// `x <= bound`.
    Upper {
        /// The variable.
        var: String,
        /// The greatest value allowed.
        bound: f64,
    },
    /// `x > 0` (`strict`) or `x >= 0`.
    Positive {
        /// The variable.
        var: String,
        /// Whether 0 is excluded.
        strict: bool,
    },
    /// `x < 0` (`strict`) or `x <= 0`.
    Negative {
        /// The variable.
        var: String,
        /// Whether 0 is excluded.
        strict: bool,
    },
    /// `x % 2 == remainder` (0: even, 1: odd; Java's `%` sign ignored).
    Parity {
        /// The variable.
        var: String,
        /// 0 or 1.
        remainder: i64,
    },
    /// `a op b`.
    Compare {
        /// The left variable.
        a: String,
        /// The operator.
        op: Cmp,
        /// The right variable.
        b: String,
    },
}

fn values_as_text<S: serde::Serializer>(values: &[Value], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(values.iter().map(ToString::to_string))
}

/// An invariant of a program point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Invariant {
    /// Where it holds.
    pub point: Point,
    /// What it states.
    #[serde(flatten)]
    pub form: Form,
    /// How many samples it was inferred from.
    pub samples: usize,
}

/// The number of a value, for comparisons: integers, floats and booleans
/// (0/1); `None` for references, strings and null.
pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

/// Whether two values are equal as Java's `==` compares them (`0.0 == -0.0`,
/// strings by content, objects by identity), except that NaN equals NaN
/// (ours: with Java's `==`, every NaN would break `x == orig(x)` even when
/// a call leaves it as it was).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => (*x as f64) == *y,
        _ => a == b,
    }
}

impl Form {
    /// The variables it reads.
    pub fn vars(&self) -> Vec<&str> {
        match self {
            Form::OneOf { var, .. }
            | Form::NonZero { var, .. }
            | Form::Lower { var, .. }
            | Form::Upper { var, .. }
            | Form::Positive { var, .. }
            | Form::Negative { var, .. }
            | Form::Parity { var, .. } => vec![var],
            Form::Compare { a, b, .. } => vec![a, b],
        }
    }

    /// Whether `sample` satisfies it; `None` when a variable it reads is
    /// missing (the invariant does not apply, as in Daikon).
    pub fn holds(&self, sample: &Sample) -> Option<bool> {
        let get = |name: &str| sample.get(name);
        let num = |name: &str| get(name).map(number);
        Some(match self {
            Form::OneOf { var, values } => {
                values.iter().any(|v| same(v, get(var).unwrap_or(&Value::Null))) && get(var).is_some()
            }
            Form::NonZero { var, .. } => match get(var)? {
                Value::Null => false,
                v => number(v).is_none_or(|x| x != 0.0),
            },
            Form::Lower { var, bound } => num(var)?.is_none_or(|x| x >= *bound),
            Form::Upper { var, bound } => num(var)?.is_none_or(|x| x <= *bound),
            Form::Positive { var, strict } => num(var)?.is_none_or(|x| if *strict { x > 0.0 } else { x >= 0.0 }),
            Form::Negative { var, strict } => num(var)?.is_none_or(|x| if *strict { x < 0.0 } else { x <= 0.0 }),
            Form::Parity { var, remainder } => match get(var)? {
                Value::Int(i) => i.rem_euclid(2) == *remainder,
                _ => true,
            },
            Form::Compare { a, op, b } => {
                let (x, y) = (get(a)?, get(b)?);
                match op {
                    Cmp::Eq => same(x, y),
                    Cmp::Ne => !same(x, y),
                    Cmp::Lt | Cmp::Le => match (number(x), number(y)) {
                        (Some(x), Some(y)) if *op == Cmp::Lt => x < y,
                        (Some(x), Some(y)) => x <= y,
                        _ => true,
                    },
                }
            }
        })
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Form::OneOf { var, values } if values.len() == 1 => write!(f, "{var} == {}", values[0]),
            Form::OneOf { var, values } => {
                let shown: Vec<String> = values.iter().map(ToString::to_string).collect();
                write!(f, "{var} one of {{{}}}", shown.join(", "))
            }
            Form::NonZero { var, reference } => write!(f, "{var} != {}", if *reference { "null" } else { "0" }),
            Form::Lower { var, bound } => write!(f, "{var} >= {bound}"),
            Form::Upper { var, bound } => write!(f, "{var} <= {bound}"),
            Form::Positive { var, strict } => write!(f, "{var} {} 0", if *strict { ">" } else { ">=" }),
            Form::Negative { var, strict } => write!(f, "{var} {} 0", if *strict { "<" } else { "<=" }),
            Form::Parity { var, remainder } => write!(f, "{var} is {}", if *remainder == 0 { "even" } else { "odd" }),
            Form::Compare { a, op, b } => write!(f, "{a} {} {b}", op.symbol()),
        }
    }
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.form.fmt(f)
    }
}
