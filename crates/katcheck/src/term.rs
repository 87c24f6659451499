//! Symbolic values of a method's operands: what the data flow says about
//! the value an instruction pops, as a small term language that the
//! formula builder ([`crate::formula`]) turns into z3 integers.
//!
//! A value is named by the set of definitions that may have produced it
//! ([`analysis::dataflow::Defs`]); loads and stores are transparent, so two
//! operands with the same set are the same value as long as none of its
//! definitions runs in between (the guard analysis checks that,
//! [`crate::guards`]). Constants, string literals, `length()`/`size()`
//! results, array lengths, no-argument calls such as `hasNext()` and `+`/`-`
//! of such values are kept structurally; everything else is an opaque
//! symbol, which the solver may give any value (sound for "safe": an
//! opaque value never makes a trigger unsatisfiable).

use analysis::dataflow::{Def, Defs, MethodFlow};
use model::bytecode::{Insn, Operand, op};
use model::constant_pool::{Constant, ConstantPool};

/// How deep [`Terms::of`] follows the operands of arithmetic and calls.
const MAX_DEPTH: u8 = 6;

/// A symbolic value.
///
/// References are integers too: `null` is 0 and every object another
/// number (so `x == null` is `x == 0` and reference equality is equality).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    /// An opaque value: the definitions that may have produced it.
    Value(Defs),
    /// An integer constant (`int`, `long`, `char`, ... and booleans as 0/1).
    Int(i64),
    /// `null`.
    Null,
    /// A string literal (never `null`; its length is known).
    Str(String),
    /// A new object, array or `this`: never `null`. Named by its definitions.
    Fresh(Defs),
    /// A counter that starts at a non-negative constant and is only ever
    /// incremented (`for (int i = 0; ...; i++)`): at least 0. Named by its
    /// definitions.
    Counter(Defs),
    /// `recv.length()` of a `String`/`CharSequence`, `recv.size()` of a
    /// collection or map, or `recv.length` of an array: at least 0.
    Length(Box<Term>),
    /// The result of a call without arguments on `recv` (`hasNext()`,
    /// `isEmpty()`, `isPresent()`): the same name on the same receiver is
    /// the same value.
    Call {
        /// The receiver.
        recv: Box<Term>,
        /// The method name.
        name: String,
    },
    /// `left + right` (`op == '+'`) or `left - right` (`op == '-'`).
    Arith {
        /// `'+'` or `'-'`.
        op: char,
        /// The left operand.
        left: Box<Term>,
        /// The right operand.
        right: Box<Term>,
    },
}

impl Term {
    /// `recv.length()`.
    pub fn length(recv: Term) -> Term {
        match recv {
            Term::Str(s) => Term::Int(i64::try_from(s.encode_utf16().count()).unwrap_or(i64::MAX)),
            other => Term::Length(Box::new(other)),
        }
    }

    /// The definitions this term names (for the check that none of them
    /// runs again between a guard and a call site).
    pub fn defs(&self, out: &mut Defs) {
        match self {
            Term::Value(d) | Term::Fresh(d) | Term::Counter(d) => out.extend(d.iter().copied()),
            Term::Length(t) | Term::Call { recv: t, .. } => t.defs(out),
            Term::Arith { left, right, .. } => {
                left.defs(out);
                right.defs(out);
            }
            Term::Int(_) | Term::Null | Term::Str(_) => {}
        }
    }
}

/// The names of no-argument calls whose result is the receiver's length.
fn is_length_call(name: &str, descriptor: &str) -> bool {
    matches!(name, "length" | "size") && descriptor == "()I"
}

/// Builds [`Term`]s for the operands of one method.
pub struct Terms<'a> {
    flow: &'a MethodFlow,
    cp: &'a ConstantPool,
    is_static: bool,
}

impl<'a> Terms<'a> {
    /// Terms over `flow`, the data flow of a method whose constants are in
    /// `cp`; `is_static` says whether slot 0 is `this`.
    pub fn new(flow: &'a MethodFlow, cp: &'a ConstantPool, is_static: bool) -> Terms<'a> {
        Terms { flow, cp, is_static }
    }

    /// The operands instruction `k` pops, deepest first, as terms.
    pub fn operands(&self, k: usize) -> Vec<Term> {
        self.flow.flow.operands.get(k).map_or_else(Vec::new, |ops| ops.iter().map(|d| self.of(d)).collect())
    }

    /// The term of a value with definitions `defs`.
    pub fn of(&self, defs: &Defs) -> Term {
        self.of_depth(defs, MAX_DEPTH)
    }

    fn of_depth(&self, defs: &Defs, depth: u8) -> Term {
        let opaque = || Term::Value(defs.clone());
        let mut iter = defs.iter();
        let (Some(only), None) = (iter.next(), iter.next()) else {
            return if self.is_counter(defs) { Term::Counter(defs.clone()) } else { opaque() };
        };
        match *only {
            Def::Entry(0) if !self.is_static => Term::Fresh(defs.clone()),
            Def::Insn(k) if depth > 0 => self.of_insn(k, defs, depth - 1).unwrap_or_else(opaque),
            _ => opaque(),
        }
    }

    /// The term of the value instruction `k` pushed; `None` for an opaque one.
    fn of_insn(&self, k: usize, defs: &Defs, depth: u8) -> Option<Term> {
        let insn: &Insn = self.flow.insns.get(k)?;
        let operand = |i: usize| self.flow.flow.operands.get(k).and_then(|o| o.get(i)).map(|d| self.of_depth(d, depth));
        Some(match insn.opcode {
            op::ACONST_NULL => Term::Null,
            op::ICONST_M1..=op::ICONST_5 => Term::Int(i64::from(insn.opcode) - i64::from(op::ICONST_0)),
            op::LCONST_0 | op::LCONST_1 => Term::Int(i64::from(insn.opcode - op::LCONST_0)),
            op::BIPUSH | op::SIPUSH => match insn.operand {
                Operand::Int(v) => Term::Int(i64::from(v)),
                _ => return None,
            },
            op::LDC | op::LDC_W | op::LDC2_W => self.constant(insn)?,
            op::NEW | op::NEWARRAY | op::ANEWARRAY | op::MULTIANEWARRAY => Term::Fresh(defs.clone()),
            op::ARRAYLENGTH => Term::length(operand(0)?),
            op::CHECKCAST => operand(0)?,
            op::IADD | op::LADD | op::ISUB | op::LSUB => Term::Arith {
                op: if matches!(insn.opcode, op::IADD | op::LADD) { '+' } else { '-' },
                left: Box::new(operand(0)?),
                right: Box::new(operand(1)?),
            },
            op::INVOKEVIRTUAL | op::INVOKEINTERFACE => self.no_argument_call(insn, operand(0)?)?,
            _ => return None,
        })
    }

    /// Whether a value merged from several definitions is a [`Term::Counter`]:
    /// each definition is a non-negative integer constant or an `iinc` by a
    /// non-negative amount, and at least one is a constant. The `iinc`s are
    /// assumed to increment this same value (true of the loops `javac`
    /// emits; a counter reassigned from elsewhere between increments
    /// would have that definition in the set too).
    fn is_counter(&self, defs: &Defs) -> bool {
        let mut constant = false;
        let all = defs.iter().all(|d| {
            let Def::Insn(k) = *d else { return false };
            let Some(insn) = self.flow.insns.get(k) else { return false };
            match (insn.opcode, &insn.operand) {
                (op::IINC, Operand::Iinc { delta, .. }) => *delta >= 0,
                (op::ICONST_0..=op::ICONST_5, _) => {
                    constant = true;
                    true
                }
                (op::BIPUSH | op::SIPUSH, Operand::Int(v)) => {
                    constant = true;
                    *v >= 0
                }
                _ => false,
            }
        });
        all && constant
    }

    /// `length()`/`size()` as [`Term::Length`], other calls without
    /// arguments that return a primitive as [`Term::Call`].
    fn no_argument_call(&self, insn: &Insn, recv: Term) -> Option<Term> {
        let index = match insn.operand {
            Operand::Constant(i) | Operand::InvokeInterface { index: i, .. } => i,
            _ => return None,
        };
        let m = self.cp.member_ref(index).ok()?;
        if is_length_call(m.name, m.descriptor) {
            return Some(Term::length(recv));
        }
        let primitive = m.descriptor.strip_prefix("()").is_some_and(|r| r.len() == 1 && r != "V");
        primitive.then(|| Term::Call { recv: Box::new(recv), name: m.name.to_string() })
    }

    /// An `ldc` constant: integers and strings (others are opaque).
    fn constant(&self, insn: &Insn) -> Option<Term> {
        let Operand::Constant(index) = insn.operand else { return None };
        match self.cp.get(index).ok()? {
            Constant::Integer(v) => Some(Term::Int(i64::from(*v))),
            Constant::Long(v) => Some(Term::Int(*v)),
            Constant::String(text) => Some(Term::Str(self.cp.utf8(*text).ok()?.to_string())),
            _ => None,
        }
    }
}
