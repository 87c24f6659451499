//! Symbolic expressions over Java's computational types (JVMS §2.11.1:
//! `int`, `long`, `float`, `double`; `byte`, `short`, `char` and `boolean`
//! values are `int`s, narrowed by `i2b`, `i2s`, `i2c`), with their concrete
//! evaluation as the JVM computes them (JVMS §6.5: `iadd` ... `dcmpg`).

use std::collections::BTreeMap;

/// A computational type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JType {
    /// 32-bit two's complement.
    Int,
    /// 64-bit two's complement.
    Long,
    /// IEEE 754 binary32.
    Float,
    /// IEEE 754 binary64.
    Double,
}

/// A concrete value of a computational type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// An `int`.
    Int(i32),
    /// A `long`.
    Long(i64),
    /// A `float`.
    Float(f32),
    /// A `double`.
    Double(f64),
}

impl Value {
    /// The value as a `double` (a `long` beyond 2^53 rounded): for
    /// comparisons of magnitude and distances, not for arithmetic.
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(x) => f64::from(x),
            Value::Long(x) => x as f64,
            Value::Float(x) => f64::from(x),
            Value::Double(x) => x,
        }
    }

    /// Its type.
    pub fn jtype(self) -> JType {
        match self {
            Value::Int(_) => JType::Int,
            Value::Long(_) => JType::Long,
            Value::Float(_) => JType::Float,
            Value::Double(_) => JType::Double,
        }
    }

    /// Whether two values are the same: equal bits, except that every NaN
    /// is the same NaN (the JVM does not promise NaN payloads).
    pub fn same(self, other: Value) -> bool {
        match (self, other) {
            (Value::Float(a), Value::Float(b)) => (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits(),
            (Value::Double(a), Value::Double(b)) => (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits(),
            _ => self == other,
        }
    }
}

/// A binary operator of one type (`iadd`, `lshl`, `drem`, ...). Shifts take
/// an `int` count whatever the type shifted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BinOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` (integers: truncating; `MIN / -1 == MIN`; by zero: `ArithmeticException`).
    Div,
    /// `%` (integers: sign of the dividend; floating point: `fmod`, truncating).
    Rem,
    /// `<<` (count masked to 5 or 6 bits).
    Shl,
    /// `>>`.
    Shr,
    /// `>>>`.
    Ushr,
    /// `&`.
    And,
    /// `|`.
    Or,
    /// `^`.
    Xor,
}

/// A conversion (`i2l` ... `i2s`, JVMS §2.11.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Conv {
    /// `i2l`.
    I2L,
    /// `i2f`.
    I2F,
    /// `i2d`.
    I2D,
    /// `l2i`.
    L2I,
    /// `l2f`.
    L2F,
    /// `l2d`.
    L2D,
    /// `f2i` (NaN to 0, saturating).
    F2I,
    /// `f2l`.
    F2L,
    /// `f2d`.
    F2D,
    /// `d2i`.
    D2I,
    /// `d2l`.
    D2L,
    /// `d2f`.
    D2F,
    /// `i2b`.
    I2B,
    /// `i2c`.
    I2C,
    /// `i2s`.
    I2S,
}

impl Conv {
    /// The type converted from and the type converted to.
    pub fn types(self) -> (JType, JType) {
        use JType::*;
        match self {
            Conv::I2L => (Int, Long),
            Conv::I2F => (Int, Float),
            Conv::I2D => (Int, Double),
            Conv::L2I => (Long, Int),
            Conv::L2F => (Long, Float),
            Conv::L2D => (Long, Double),
            Conv::F2I => (Float, Int),
            Conv::F2L => (Float, Long),
            Conv::F2D => (Float, Double),
            Conv::D2I => (Double, Int),
            Conv::D2L => (Double, Long),
            Conv::D2F => (Double, Float),
            Conv::I2B | Conv::I2C | Conv::I2S => (Int, Int),
        }
    }
}

/// A comparison giving -1, 0 or 1 as an `int` (`lcmp`, `fcmpl`, `fcmpg`,
/// `dcmpl`, `dcmpg`): `NanIsLess` is the `l` form (a NaN gives -1), the
/// other the `g` form (a NaN gives 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CmpOp {
    /// `lcmp`, or `fcmpl`/`dcmpl`.
    NanIsLess,
    /// `fcmpg`/`dcmpg` (for `long`s the same as `lcmp`).
    NanIsGreater,
}

/// An expression: symbols (a test's inputs), constants and the JVM's
/// arithmetic over them.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// Input number `id` of type `JType`.
    Sym(u32, JType),
    /// A constant.
    Const(Value),
    /// A binary operation; both sides have the operator's type, except the
    /// shift count, which is an `int`.
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// Negation (`ineg` ... `dneg`).
    Neg(Box<Expr>),
    /// A conversion.
    Conv(Conv, Box<Expr>),
    /// A three-way comparison of two values of one type, giving an `int`.
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
}

/// An exception the JVM would throw evaluating an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Thrown {
    /// Integer division or remainder by zero.
    #[error("java.lang.ArithmeticException: / by zero")]
    DivideByZero,
    /// Operand types that do not fit the operator (a bug of the caller).
    #[error("ill-typed expression")]
    IllTyped,
    /// A symbol with no value in the environment.
    #[error("symbol {0} has no value")]
    Unbound(u32),
}

impl Expr {
    /// A binary operation.
    pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Bin(op, Box::new(a), Box::new(b))
    }

    /// A conversion.
    pub fn conv(c: Conv, a: Expr) -> Expr {
        Expr::Conv(c, Box::new(a))
    }

    /// A three-way comparison.
    pub fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
        Expr::Cmp(op, Box::new(a), Box::new(b))
    }

    /// Its value, with `env` giving the symbols' values, as the JVM computes it.
    ///
    /// # Errors
    /// [`Thrown`] for an integer division by zero, an ill-typed expression
    /// or an unbound symbol.
    pub fn eval(&self, env: &BTreeMap<u32, Value>) -> Result<Value, Thrown> {
        match self {
            Expr::Sym(id, _) => env.get(id).copied().ok_or(Thrown::Unbound(*id)),
            Expr::Const(v) => Ok(*v),
            Expr::Bin(op, a, b) => binary(*op, a.eval(env)?, b.eval(env)?),
            Expr::Neg(a) => Ok(match a.eval(env)? {
                Value::Int(x) => Value::Int(x.wrapping_neg()),
                Value::Long(x) => Value::Long(x.wrapping_neg()),
                Value::Float(x) => Value::Float(-x),
                Value::Double(x) => Value::Double(-x),
            }),
            Expr::Conv(c, a) => convert(*c, a.eval(env)?),
            Expr::Cmp(op, a, b) => compare(*op, a.eval(env)?, b.eval(env)?),
        }
    }
}

fn binary(op: BinOp, a: Value, b: Value) -> Result<Value, Thrown> {
    use BinOp::*;
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(match op {
            Add => x.wrapping_add(y),
            Sub => x.wrapping_sub(y),
            Mul => x.wrapping_mul(y),
            Div if y == 0 => return Err(Thrown::DivideByZero),
            Div => x.wrapping_div(y),
            Rem if y == 0 => return Err(Thrown::DivideByZero),
            Rem => x.wrapping_rem(y),
            Shl => x.wrapping_shl(y as u32),
            Shr => x.wrapping_shr(y as u32),
            Ushr => (x as u32).wrapping_shr(y as u32) as i32,
            And => x & y,
            Or => x | y,
            Xor => x ^ y,
        }),
        (Value::Long(x), Value::Int(y)) if matches!(op, Shl | Shr | Ushr) => Value::Long(match op {
            Shl => x.wrapping_shl(y as u32),
            Shr => x.wrapping_shr(y as u32),
            _ => (x as u64).wrapping_shr(y as u32) as i64,
        }),
        (Value::Long(x), Value::Long(y)) => Value::Long(match op {
            Add => x.wrapping_add(y),
            Sub => x.wrapping_sub(y),
            Mul => x.wrapping_mul(y),
            Div if y == 0 => return Err(Thrown::DivideByZero),
            Div => x.wrapping_div(y),
            Rem if y == 0 => return Err(Thrown::DivideByZero),
            Rem => x.wrapping_rem(y),
            And => x & y,
            Or => x | y,
            Xor => x ^ y,
            Shl | Shr | Ushr => return Err(Thrown::IllTyped),
        }),
        (Value::Float(x), Value::Float(y)) => Value::Float(match op {
            Add => x + y,
            Sub => x - y,
            Mul => x * y,
            Div => x / y,
            Rem => x % y,
            _ => return Err(Thrown::IllTyped),
        }),
        (Value::Double(x), Value::Double(y)) => Value::Double(match op {
            Add => x + y,
            Sub => x - y,
            Mul => x * y,
            Div => x / y,
            Rem => x % y,
            _ => return Err(Thrown::IllTyped),
        }),
        _ => return Err(Thrown::IllTyped),
    })
}

fn convert(c: Conv, v: Value) -> Result<Value, Thrown> {
    // Rust's `as` from floating point saturates and maps NaN to 0, as the JVM does.
    Ok(match (c, v) {
        (Conv::I2L, Value::Int(x)) => Value::Long(i64::from(x)),
        (Conv::I2F, Value::Int(x)) => Value::Float(x as f32),
        (Conv::I2D, Value::Int(x)) => Value::Double(f64::from(x)),
        (Conv::L2I, Value::Long(x)) => Value::Int(x as i32),
        (Conv::L2F, Value::Long(x)) => Value::Float(x as f32),
        (Conv::L2D, Value::Long(x)) => Value::Double(x as f64),
        (Conv::F2I, Value::Float(x)) => Value::Int(x as i32),
        (Conv::F2L, Value::Float(x)) => Value::Long(x as i64),
        (Conv::F2D, Value::Float(x)) => Value::Double(f64::from(x)),
        (Conv::D2I, Value::Double(x)) => Value::Int(x as i32),
        (Conv::D2L, Value::Double(x)) => Value::Long(x as i64),
        (Conv::D2F, Value::Double(x)) => Value::Float(x as f32),
        (Conv::I2B, Value::Int(x)) => Value::Int(i32::from(x as i8)),
        (Conv::I2C, Value::Int(x)) => Value::Int(i32::from(x as u16)),
        (Conv::I2S, Value::Int(x)) => Value::Int(i32::from(x as i16)),
        _ => return Err(Thrown::IllTyped),
    })
}

fn compare(op: CmpOp, a: Value, b: Value) -> Result<Value, Thrown> {
    let nan = if op == CmpOp::NanIsLess { -1 } else { 1 };
    let order = |o: Option<std::cmp::Ordering>| match o {
        None => nan,
        Some(std::cmp::Ordering::Less) => -1,
        Some(std::cmp::Ordering::Equal) => 0,
        Some(std::cmp::Ordering::Greater) => 1,
    };
    Ok(Value::Int(match (a, b) {
        (Value::Long(x), Value::Long(y)) => order(Some(x.cmp(&y))),
        (Value::Float(x), Value::Float(y)) => order(x.partial_cmp(&y)),
        (Value::Double(x), Value::Double(y)) => order(x.partial_cmp(&y)),
        _ => return Err(Thrown::IllTyped),
    }))
}
