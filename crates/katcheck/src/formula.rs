//! z3 formulas of the code's facts ([`crate::guards::Fact`]) and the
//! knowledge graph's trigger conditions ([`kat::Cond`]) over the same
//! symbolic values ([`Term`]).
//!
//! Every value is a z3 integer (mathematical, not 32-bit: overflow is not
//! modelled); references are integers with `null` as 0. A trigger's
//! parameters are bound to the call's operand terms, `this` to its
//! receiver. What has no formal form (`?`, a call with arguments, an
//! unknown constant) becomes a fresh unconstrained value, so it can only
//! make a trigger satisfiable, never rule it out.

use std::collections::HashMap;

use kat::{CmpOp, Cond, Expr};
use z3::ast::{Bool, Int};

use crate::guards::Fact;
use crate::term::Term;

/// Constants a trigger may name, with their values.
pub(crate) const NAMED_CONSTANTS: &[(&str, i64)] = &[
    ("Character.MIN_RADIX", 2),
    ("Character.MAX_RADIX", 36),
    ("Integer.MAX_VALUE", i32::MAX as i64),
    ("Integer.MIN_VALUE", i32::MIN as i64),
    ("Long.MAX_VALUE", i64::MAX),
    ("Long.MIN_VALUE", i64::MIN),
    ("Character.MIN_VALUE", 0),
    ("Character.MAX_VALUE", 0xFFFF),
];

/// What a trigger's names stand for at one call site.
#[derive(Debug, Clone, Copy)]
pub struct Binding<'a> {
    /// The receiver's term (`None` for a static method).
    pub receiver: Option<&'a Term>,
    /// The documented method's parameter names, in order.
    pub params: &'a [String],
    /// The call's argument terms, in order.
    pub args: &'a [Term],
}

impl<'a> Binding<'a> {
    /// The term of parameter `name`.
    fn param(&self, name: &str) -> Option<&'a Term> {
        self.params.iter().position(|p| p == name).and_then(|i| self.args.get(i))
    }
}

/// Translates terms, facts and conditions into z3, sharing one integer
/// per distinct term and collecting the side constraints the terms imply
/// (lengths are non-negative, new objects and literals are not `null`).
#[derive(Default)]
pub struct Encoder {
    ints: HashMap<Term, Int>,
    side: Vec<Bool>,
}

impl Encoder {
    /// An encoder with no terms yet.
    pub fn new() -> Encoder {
        Encoder::default()
    }

    /// The side constraints of the terms encoded so far.
    pub fn side_constraints(&self) -> &[Bool] {
        &self.side
    }

    /// The z3 integer of a term.
    pub fn term(&mut self, t: &Term) -> Int {
        if let Some(i) = self.ints.get(t) {
            return i.clone();
        }
        let value = match t {
            Term::Int(v) => Int::from_i64(*v),
            Term::Null => Int::from_i64(0),
            Term::Value(_) => Int::fresh_const("v"),
            Term::Str(_) | Term::Fresh(_) => {
                let object = Int::fresh_const("object");
                self.side.push(object.eq(0).not());
                object
            }
            Term::Counter(_) => {
                let counter = Int::fresh_const("counter");
                self.side.push(counter.ge(0));
                counter
            }
            Term::Length(_) => {
                let length = Int::fresh_const("length");
                self.side.push(length.ge(0));
                self.side.push(length.le(i64::from(i32::MAX)));
                length
            }
            Term::Call { recv, name } if name == "isEmpty" => {
                let length = self.term(&Term::length((**recv).clone()));
                length.eq(0).ite(&Int::from_i64(1), &Int::from_i64(0))
            }
            Term::Call { .. } => Int::fresh_const("call"),
            Term::Arith { op, left, right } => {
                let (l, r) = (self.term(left), self.term(right));
                match *op {
                    '+' => Int::add(&[l, r]),
                    '*' => Int::mul(&[l, r]),
                    _ => Int::sub(&[l, r]),
                }
            }
        };
        self.ints.insert(t.clone(), value.clone());
        value
    }

    /// The z3 formula of a fact.
    pub fn fact(&mut self, f: &Fact) -> Bool {
        let (l, r) = (self.term(&f.left), self.term(&f.right));
        compare(&l, f.op, &r)
    }

    /// The z3 formula of a trigger condition with its names bound.
    pub fn cond(&mut self, c: &Cond, binding: &Binding<'_>) -> Bool {
        match c {
            Cond::Cmp { left, op, right } => {
                let (l, r) = (self.expr(left, binding), self.expr(right, binding));
                compare(&l, *op, &r)
            }
            Cond::Truth(e) => self.expr(e, binding).eq(0).not(),
            Cond::Not(inner) => self.cond(inner, binding).not(),
            Cond::And(parts) => {
                let parts: Vec<Bool> = parts.iter().map(|p| self.cond(p, binding)).collect();
                Bool::and(&parts)
            }
            Cond::Or(parts) => {
                let parts: Vec<Bool> = parts.iter().map(|p| self.cond(p, binding)).collect();
                Bool::or(&parts)
            }
            Cond::InstanceOf { .. } | Cond::Unknown => Bool::fresh_const("unknown"),
        }
    }

    /// The z3 integer of a trigger's value; fresh when it has no term.
    fn expr(&mut self, e: &Expr, binding: &Binding<'_>) -> Int {
        match term_of_expr(e, binding) {
            Some(t) => self.term(&t),
            None => Int::fresh_const("unknown"),
        }
    }
}

/// The term a trigger's value stands for at a call site, when it has one.
pub fn term_of_expr(e: &Expr, binding: &Binding<'_>) -> Option<Term> {
    Some(match e {
        Expr::Param(name) => binding.param(name)?.clone(),
        Expr::This => binding.receiver?.clone(),
        Expr::Null => Term::Null,
        Expr::Int(v) => Term::Int(*v),
        Expr::Bool(b) => Term::Int(i64::from(*b)),
        Expr::Str(s) => Term::Str(s.clone()),
        Expr::Call { target, name, args } if args.is_empty() => {
            let recv = term_of_expr(target, binding)?;
            if matches!(name.as_str(), "length" | "size") {
                Term::length(recv)
            } else {
                Term::Call { recv: Box::new(recv), name: name.clone() }
            }
        }
        Expr::Field { target, name } if name == "length" => Term::length(term_of_expr(target, binding)?),
        Expr::Arith { op, left, right } => Term::Arith {
            op: *op,
            left: Box::new(term_of_expr(left, binding)?),
            right: Box::new(term_of_expr(right, binding)?),
        },
        Expr::Name(name) => Term::Int(NAMED_CONSTANTS.iter().find(|(n, _)| n == name)?.1),
        Expr::Call { .. } | Expr::Field { .. } => return None,
    })
}

/// `l op r`.
fn compare(l: &Int, op: CmpOp, r: &Int) -> Bool {
    match op {
        CmpOp::Lt => l.lt(r),
        CmpOp::Le => l.le(r),
        CmpOp::Gt => l.gt(r),
        CmpOp::Ge => l.ge(r),
        CmpOp::Eq => l.eq(r),
        CmpOp::Ne => l.eq(r).not(),
    }
}
