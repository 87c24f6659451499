//! Formal trigger conditions: a small Java-like expression language over a
//! method's parameters, its receiver (`this`) and calls of linked methods.
//!
//! Printed form (also what the labelled sample is written in):
//! `index < 0 || index >= this.length()`, `obj == null`, `!this.hasNext()`,
//! `coll.isEmpty()`, `e == null && ?`. A `?` stands for a part of the
//! documented condition that cannot be expressed formally (KAT's T4 "other
//! restriction", or a clause that names no parameter); a condition that is
//! only `?` means "no formal condition derived".

use serde::{Deserialize, Serialize};

/// Why a text is not a condition ([`Cond::parse`]).
///
/// Positions are byte offsets into the text (`offset`) for errors found
/// while splitting it into tokens, and token indices (`token`) for errors
/// found while parsing the tokens.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CondParseError {
    /// A number does not fit in an `i64`.
    #[error("number too large at {offset}")]
    NumberTooLarge {
        /// Byte offset of the number.
        offset: usize,
    },
    /// A string literal has no closing `"`.
    #[error("unterminated string at {offset} in `{text}`")]
    UnterminatedString {
        /// Byte offset of the opening `"`.
        offset: usize,
        /// The whole text.
        text: String,
    },
    /// A character that starts no token (non-ASCII letters, `≤`, ...).
    #[error("unexpected `{found}` at {offset} in `{text}`")]
    UnexpectedChar {
        /// Byte offset of the character.
        offset: usize,
        /// The character.
        found: char,
        /// The whole text.
        text: String,
    },
    /// A condition was read, but tokens follow it.
    #[error("unexpected text after position {token} in `{text}`")]
    TrailingText {
        /// Index of the first token left over.
        token: usize,
        /// The whole text.
        text: String,
    },
    /// A punctuation token was expected (`(`, `)` or `,`).
    #[error("expected `{expected}` at token {token}")]
    Expected {
        /// Index of the token found instead.
        token: usize,
        /// The token expected.
        expected: &'static str,
    },
    /// A `.` is not followed by a field or method name.
    #[error("expected a name after `.`")]
    NameAfterDot {
        /// Index of the token after the `.`.
        token: usize,
    },
    /// A `-` sign precedes something other than a number.
    #[error("`-` before a non-number")]
    MinusBeforeNonNumber {
        /// Index of the token after the operand.
        token: usize,
    },
    /// A value (name, literal, `?` or parenthesised expression) was expected.
    #[error("expected a value, found {found}")]
    ExpectedValue {
        /// Index of the token found instead.
        token: usize,
        /// The token found, as `Some(token)` or `None` at the end of the text.
        found: String,
    },
    /// A bare name in a Javadoc code span is not a parameter of the method.
    #[error("`{name}` is not a parameter")]
    NotAParameter {
        /// Index of the token after the name.
        token: usize,
        /// The name.
        name: String,
    },
}

/// A value in a condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Expr {
    /// A parameter of the documented method, by its source name.
    Param(String),
    /// The receiver of the documented (instance) method.
    This,
    /// The literal `null`.
    Null,
    /// An integer literal.
    Int(i64),
    /// A boolean literal.
    Bool(bool),
    /// A method call `target.name(args)` on a parameter, the receiver or a
    /// class (for static calls the target is [`Expr::Name`]).
    Call {
        /// What the method is called on.
        target: Box<Expr>,
        /// The method name.
        name: String,
        /// The arguments, in order.
        args: Vec<Expr>,
    },
    /// A field read `target.name`, e.g. `a.length` for arrays.
    Field {
        /// The object (or class name) read.
        target: Box<Expr>,
        /// The field name.
        name: String,
    },
    /// A name that is not a parameter (a constant such as
    /// `Character.MAX_RADIX`, or a class used as a call target).
    Name(String),
    /// `left + right`, `left - right` or `left * right` (op is `'+'`,
    /// `'-'` or `'*'`).
    Arith {
        /// `'+'`, `'-'` or `'*'`.
        op: char,
        /// The left operand.
        left: Box<Expr>,
        /// The right operand.
        right: Box<Expr>,
    },
    /// A string literal, e.g. `"rw"` (printed with `\\` and `\"` escaped).
    Str(String),
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    /// The Java operator text.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }

    /// The operator that holds exactly when this one does not (`<` ↔ `>=`).
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
        }
    }

    /// The operator with its operands swapped (`a < b` ↔ `b > a`).
    pub fn swap(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => other,
        }
    }

    /// The operator written `s` (`<`, `<=`, ...).
    pub(crate) fn parse(s: &str) -> Option<CmpOp> {
        Some(match s {
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            ">" => CmpOp::Gt,
            ">=" => CmpOp::Ge,
            "==" => CmpOp::Eq,
            "!=" => CmpOp::Ne,
            _ => return None,
        })
    }
}

/// A condition under which a method throws (or returns a documented value).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Cond {
    /// `left op right`.
    Cmp {
        /// The left operand.
        left: Expr,
        /// The operator.
        op: CmpOp,
        /// The right operand.
        right: Expr,
    },
    /// A boolean-valued expression, e.g. `this.isEmpty()`.
    Truth(Expr),
    /// Negation.
    Not(Box<Cond>),
    /// Conjunction (two or more parts).
    And(Vec<Cond>),
    /// Disjunction (two or more parts).
    Or(Vec<Cond>),
    /// `value instanceof class`: the class of a value (class as written,
    /// simple or qualified).
    InstanceOf {
        /// The value tested.
        value: Expr,
        /// The class name as written (`AccessControlContext`).
        class: String,
    },
    /// A part that has no formal form; prints as `?`.
    Unknown,
}

impl Cond {
    /// `left op right`.
    pub fn cmp(left: Expr, op: CmpOp, right: Expr) -> Cond {
        Cond::Cmp { left, op, right }
    }

    /// Whether nothing formal is known (the condition is only `?`).
    pub fn is_unknown(&self) -> bool {
        matches!(self, Cond::Unknown)
    }

    /// Joins parts with `||` (`and == false`) or `&&`, flattening nested
    /// joins of the same kind and keeping one `?`; a single part is
    /// returned as is, no parts give `?`.
    pub fn join(parts: Vec<Cond>, and: bool) -> Cond {
        let mut flat = Vec::new();
        for p in parts {
            match (p, and) {
                (Cond::And(inner), true) | (Cond::Or(inner), false) => flat.extend(inner),
                (p, _) => flat.push(p),
            }
        }
        // `? && ?` says no more than `?`.
        let mut seen_unknown = false;
        flat.retain(|p| !(p.is_unknown() && std::mem::replace(&mut seen_unknown, true)));
        match flat.len() {
            0 => Cond::Unknown,
            1 => flat.pop().unwrap(),
            _ if and => Cond::And(flat),
            _ => Cond::Or(flat),
        }
    }

    /// Whether a parameter of the documented method occurs in the condition.
    pub fn has_param(&self) -> bool {
        match self {
            Cond::Cmp { left, right, .. } => left.has_param() || right.has_param(),
            Cond::Truth(e) => e.has_param(),
            Cond::Not(inner) => inner.has_param(),
            Cond::And(parts) | Cond::Or(parts) => parts.iter().any(Cond::has_param),
            Cond::InstanceOf { value, .. } => value.has_param(),
            Cond::Unknown => false,
        }
    }

    /// Negation with `!` pushed into comparisons (`!(a < b)` is `a >= b`)
    /// and double negations removed.
    pub fn negated(self) -> Cond {
        match self {
            Cond::Cmp { left, op, right } => Cond::Cmp { left, op: op.negate(), right },
            Cond::Not(inner) => *inner,
            Cond::Unknown => Cond::Unknown,
            other => Cond::Not(Box::new(other)),
        }
    }

    /// A canonical form for comparing conditions: comparisons with a
    /// literal or `null` on the left are swapped, `x == false` becomes
    /// `!x`, negations are pushed into comparisons, and the operands of
    /// `&&`/`||` are sorted. Two conditions without `?` that have equal
    /// canonical forms are equivalent for integer and reference operands
    /// (pushing `!` into a comparison is not sound for `NaN`); the converse
    /// does not hold.
    pub fn canonical(&self) -> Cond {
        match self {
            Cond::Cmp { left, op, right } => {
                let literal = |e: &Expr| matches!(e, Expr::Int(_) | Expr::Null | Expr::Bool(_));
                let (l, o, r) = if literal(left) && !literal(right) {
                    (right.clone(), op.swap(), left.clone())
                } else {
                    (left.clone(), *op, right.clone())
                };
                match (o, &r) {
                    (CmpOp::Eq, Expr::Bool(true)) | (CmpOp::Ne, Expr::Bool(false)) => Cond::Truth(l),
                    (CmpOp::Eq, Expr::Bool(false)) | (CmpOp::Ne, Expr::Bool(true)) => {
                        Cond::Not(Box::new(Cond::Truth(l)))
                    }
                    _ => Cond::cmp(l, o, r),
                }
            }
            Cond::Truth(_) | Cond::InstanceOf { .. } => self.clone(),
            Cond::Not(inner) => match inner.canonical() {
                Cond::Cmp { left, op, right } => Cond::Cmp { left, op: op.negate(), right },
                Cond::Not(x) => *x,
                other => Cond::Not(Box::new(other)),
            },
            Cond::And(parts) | Cond::Or(parts) => {
                let and = matches!(self, Cond::And(_));
                let mut canon: Vec<Cond> = parts.iter().map(Cond::canonical).collect();
                canon.sort();
                let joined = Cond::join(canon, and);
                match joined {
                    Cond::And(mut v) | Cond::Or(mut v) => {
                        v.sort();
                        if and { Cond::And(v) } else { Cond::Or(v) }
                    }
                    single => single,
                }
            }
            Cond::Unknown => Cond::Unknown,
        }
    }

    /// Parses the printed form (see the module documentation).
    ///
    /// # Errors
    /// [`CondParseError`] naming the position and what was expected there
    /// when the text is not a condition.
    pub fn parse(text: &str) -> Result<Cond, CondParseError> {
        crate::cond_parse::parse_cond(text)
    }

    /// Parses a comparison written in a `{@code ...}` span of Javadoc, with
    /// bare names resolved against `params` (a name followed by `(...)` is a
    /// method of the receiver, an upper-case name a constant or class);
    /// `None` when it is not a condition this language covers.
    pub fn parse_code(text: &str, params: &[String]) -> Option<Cond> {
        crate::cond_parse::parse_code(text, params)
    }
}

impl Expr {
    /// Parses a value written in a Javadoc `{@code ...}` span (`a.length`,
    /// `off + len`, `size()` meaning `this.size()`); names that are not
    /// parameters become [`Expr::Name`].
    pub fn parse_code(text: &str, params: &[String]) -> Option<Expr> {
        crate::cond_parse::parse_code_expr(text, params)
    }

    /// Whether a parameter of the documented method occurs in the value.
    pub fn has_param(&self) -> bool {
        match self {
            Expr::Param(_) => true,
            Expr::Call { target, args, .. } => target.has_param() || args.iter().any(Expr::has_param),
            Expr::Field { target, .. } => target.has_param(),
            Expr::Arith { left, right, .. } => left.has_param() || right.has_param(),
            Expr::This | Expr::Null | Expr::Int(_) | Expr::Bool(_) | Expr::Name(_) | Expr::Str(_) => false,
        }
    }

    /// `target.name()`.
    pub fn call0(target: Expr, name: &str) -> Expr {
        Expr::Call { target: Box::new(target), name: name.to_string(), args: Vec::new() }
    }

    /// A parameter by name.
    pub fn param(name: &str) -> Expr {
        Expr::Param(name.to_string())
    }
}

impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expr::Param(n) | Expr::Name(n) => f.write_str(n),
            Expr::This => f.write_str("this"),
            Expr::Null => f.write_str("null"),
            Expr::Int(i) => write!(f, "{i}"),
            Expr::Bool(b) => write!(f, "{b}"),
            Expr::Call { target, name, args } => {
                write!(f, "{target}.{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
            Expr::Field { target, name } => write!(f, "{target}.{name}"),
            Expr::Str(text) => write!(f, "\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"")),
            Expr::Arith { op, left, right } => {
                // Parenthesised where the operand binds less tightly than `op`.
                let loose = |e: &Expr, right_side: bool| match e {
                    Expr::Arith { op: inner, .. } => right_side || (*op == '*' && *inner != '*'),
                    _ => false,
                };
                match (loose(left, false), loose(right, true)) {
                    (false, false) => write!(f, "{left} {op} {right}"),
                    (true, false) => write!(f, "({left}) {op} {right}"),
                    (false, true) => write!(f, "{left} {op} ({right})"),
                    (true, true) => write!(f, "({left}) {op} ({right})"),
                }
            }
        }
    }
}

impl std::fmt::Display for Cond {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cond::Cmp { left, op, right } => write!(f, "{left} {} {right}", op.symbol()),
            Cond::Truth(e) => write!(f, "{e}"),
            Cond::Not(inner) => match inner.as_ref() {
                Cond::Truth(e) => write!(f, "!{e}"),
                other => write!(f, "!({other})"),
            },
            Cond::And(parts) | Cond::Or(parts) => {
                let and = matches!(self, Cond::And(_));
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if and { " && " } else { " || " })?;
                    }
                    let wrap = matches!(p, Cond::Or(_)) && and;
                    if wrap { write!(f, "({p})")? } else { write!(f, "{p}")? }
                }
                Ok(())
            }
            Cond::InstanceOf { value, class } => write!(f, "{value} instanceof {class}"),
            Cond::Unknown => f.write_str("?"),
        }
    }
}
