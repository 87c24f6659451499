//! [`Expr`]essions in z3 (crate `z3` on Debian's libz3): `int` and `long`
//! as 32- and 64-bit vectors, whose operations wrap as the JVM's do
//! (`bvsdiv` of `MIN` by -1 is `MIN`, `bvsrem` takes the dividend's sign,
//! shift counts are masked to 5 or 6 bits), `float` and `double` as IEEE
//! binary32 and binary64 with round-to-nearest-even (JVMS §2.8), and the
//! conversions and comparisons with the JVM's rules for NaN, infinities,
//! -0.0 and out-of-range values (JVMS §2.8.3, `f2i`, `fcmpl`).
//!
//! Not modelled: `frem`/`drem` (Java's `%` truncates like C's `fmod`; z3's
//! `fp.rem` is IEEE's remainder, which rounds): [`term`] says
//! [`Unsupported`] and the caller concretises.

use std::collections::BTreeMap;

use z3::Sort;
use z3::ast::{Ast, BV, Bool, Float, RoundingMode};

use crate::expr::{BinOp, CmpOp, Conv, Expr, JType, Value};

/// A z3 term of a computational type.
#[derive(Debug, Clone)]
pub enum Term {
    /// `int` (32 bits) or `long` (64 bits).
    Bv(BV),
    /// `float` or `double`.
    Fp(Float),
}

/// An expression z3 cannot express exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    /// Floating-point remainder.
    #[error("floating-point remainder (fmod) is not modelled")]
    FloatRemainder,
    /// Operands of the wrong types.
    #[error("ill-typed expression")]
    IllTyped,
}

/// The z3 constants of the symbols, made on first use.
#[derive(Debug, Default)]
pub struct Symbols {
    terms: BTreeMap<u32, Term>,
}

impl Symbols {
    /// The constant of symbol `id` of type `ty` (named `s<id>`).
    pub fn get(&mut self, id: u32, ty: JType) -> Term {
        self.terms
            .entry(id)
            .or_insert_with(|| {
                let name = format!("s{id}");
                match ty {
                    JType::Int => Term::Bv(BV::new_const(name, 32)),
                    JType::Long => Term::Bv(BV::new_const(name, 64)),
                    JType::Float => Term::Fp(Float::new_const_float32(name)),
                    JType::Double => Term::Fp(Float::new_const_double(name)),
                }
            })
            .clone()
    }
}

/// The constant `v` as a term.
pub fn constant(v: Value) -> Term {
    match v {
        Value::Int(x) => Term::Bv(BV::from_i64(i64::from(x), 32)),
        Value::Long(x) => Term::Bv(BV::from_i64(x, 64)),
        Value::Float(x) => Term::Fp(Float::from_f32(x)),
        Value::Double(x) => Term::Fp(Float::from_f64(x)),
    }
}

/// `e` as a z3 term over `symbols`.
///
/// # Errors
/// [`Unsupported`] for a floating-point remainder or an ill-typed expression.
pub fn term(e: &Expr, symbols: &mut Symbols) -> Result<Term, Unsupported> {
    Ok(match e {
        Expr::Sym(id, ty) => symbols.get(*id, *ty),
        Expr::Const(v) => constant(*v),
        Expr::Bin(op, a, b) => binary(*op, term(a, symbols)?, term(b, symbols)?)?,
        Expr::Neg(a) => match term(a, symbols)? {
            Term::Bv(x) => Term::Bv(x.bvneg()),
            Term::Fp(x) => Term::Fp(x.unary_neg()),
        },
        Expr::Conv(c, a) => convert(*c, term(a, symbols)?)?,
        Expr::Cmp(op, a, b) => Term::Bv(compare(*op, term(a, symbols)?, term(b, symbols)?)?),
    })
}

fn rne() -> RoundingMode {
    RoundingMode::round_nearest_ties_to_even()
}

fn binary(op: BinOp, a: Term, b: Term) -> Result<Term, Unsupported> {
    use BinOp::*;
    Ok(match (a, b) {
        (Term::Bv(x), Term::Bv(y)) => {
            let width = x.get_size();
            // A shift count is an int: masked to the shifted width's bits, then widened.
            let count = |y: &BV| {
                let masked = y.bvand(BV::from_i64(i64::from(width) - 1, y.get_size()));
                if y.get_size() < width { masked.zero_ext(width - y.get_size()) } else { masked }
            };
            Term::Bv(match op {
                Add => x.bvadd(&y),
                Sub => x.bvsub(&y),
                Mul => x.bvmul(&y),
                Div => x.bvsdiv(&y),
                Rem => x.bvsrem(&y),
                Shl => x.bvshl(count(&y)),
                Shr => x.bvashr(count(&y)),
                Ushr => x.bvlshr(count(&y)),
                And => x.bvand(&y),
                Or => x.bvor(&y),
                Xor => x.bvxor(&y),
            })
        }
        (Term::Fp(x), Term::Fp(y)) => Term::Fp(match op {
            Add => x.add_with_rounding_mode(&y, &rne()),
            Sub => x.sub_with_rounding_mode(&y, &rne()),
            Mul => x.mul_with_rounding_mode(&y, &rne()),
            Div => x.div_with_rounding_mode(&y, &rne()),
            Rem => return Err(Unsupported::FloatRemainder),
            _ => return Err(Unsupported::IllTyped),
        }),
        _ => return Err(Unsupported::IllTyped),
    })
}

fn convert(c: Conv, a: Term) -> Result<Term, Unsupported> {
    Ok(match (c, a) {
        (Conv::I2L, Term::Bv(x)) => Term::Bv(x.sign_ext(32)),
        (Conv::L2I, Term::Bv(x)) => Term::Bv(x.extract(31, 0)),
        (Conv::I2B, Term::Bv(x)) => Term::Bv(x.extract(7, 0).sign_ext(24)),
        (Conv::I2C, Term::Bv(x)) => Term::Bv(x.extract(15, 0).zero_ext(16)),
        (Conv::I2S, Term::Bv(x)) => Term::Bv(x.extract(15, 0).sign_ext(16)),
        (Conv::I2F | Conv::L2F, Term::Bv(x)) => Term::Fp(z3ext::signed_to_fp(&x, false)),
        (Conv::I2D | Conv::L2D, Term::Bv(x)) => Term::Fp(z3ext::signed_to_fp(&x, true)),
        (Conv::F2D, Term::Fp(x)) => Term::Fp(x.to_fp_with_rounding_mode(&rne(), &Sort::double())),
        (Conv::D2F, Term::Fp(x)) => Term::Fp(x.to_fp_with_rounding_mode(&rne(), &Sort::float32())),
        (Conv::F2I | Conv::D2I, Term::Fp(x)) => Term::Bv(fp_to_integer(&x, 32, c == Conv::D2I)),
        (Conv::F2L | Conv::D2L, Term::Fp(x)) => Term::Bv(fp_to_integer(&x, 64, c == Conv::D2L)),
        _ => return Err(Unsupported::IllTyped),
    })
}

/// `f2i` and friends (JVMS §2.8.3): NaN gives 0, values beyond the range the
/// nearest bound, others are rounded toward zero.
fn fp_to_integer(x: &Float, bits: u32, double: bool) -> BV {
    let bound = 2f64.powi(bits as i32 - 1);
    let fp = |v: f64| if double { Float::from_f64(v) } else { Float::from_f32(v as f32) };
    let (min, max) = (BV::from_i64(i64::MIN >> (64 - bits), bits), BV::from_u64(u64::MAX >> (65 - bits), bits));
    let rounded = x.to_sbv_with_rounding_mode(&RoundingMode::round_towards_zero(), bits);
    let in_range = x.ge(fp(bound)).ite(&max, &x.le(fp(-bound)).ite(&min, &rounded));
    x.is_nan().ite(&BV::from_i64(0, bits), &in_range)
}

/// `lcmp`, `fcmpl` ... as an `int` term of -1, 0 or 1.
fn compare(op: CmpOp, a: Term, b: Term) -> Result<BV, Unsupported> {
    let int = |v: i64| BV::from_i64(v, 32);
    let three_way = |lt: Bool, eq: Bool| lt.ite(&int(-1), &eq.ite(&int(0), &int(1)));
    Ok(match (a, b) {
        (Term::Bv(x), Term::Bv(y)) => three_way(x.bvslt(&y), x.eq(&y)),
        (Term::Fp(x), Term::Fp(y)) => {
            let nan = Bool::or(&[x.is_nan(), y.is_nan()]);
            let unordered = int(if op == CmpOp::NanIsLess { -1 } else { 1 });
            nan.ite(&unordered, &three_way(x.lt(&y), x.eq_fpa(&y)))
        }
        _ => return Err(Unsupported::IllTyped),
    })
}

/// The value of a term without symbols (simplified by z3), as `ty`.
pub fn evaluate(t: &Term, ty: JType) -> Option<Value> {
    match (t, ty) {
        (Term::Bv(x), JType::Int) => Some(Value::Int(x.simplify().as_u64()? as u32 as i32)),
        (Term::Bv(x), JType::Long) => Some(Value::Long(x.simplify().as_u64()? as i64)),
        (Term::Fp(x), JType::Float | JType::Double) => {
            let x = x.simplify();
            if x.is_nan().simplify().as_bool() == Some(true) {
                return Some(if ty == JType::Float { Value::Float(f32::NAN) } else { Value::Double(f64::NAN) });
            }
            let bits = x.to_ieee_bv().simplify().as_u64()?;
            Some(if ty == JType::Float {
                Value::Float(f32::from_bits(bits as u32))
            } else {
                Value::Double(f64::from_bits(bits))
            })
        }
        _ => None,
    }
}
