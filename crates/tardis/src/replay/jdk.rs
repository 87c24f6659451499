//! The JDK methods the replay models symbolically (TECHNIQUES.md §5 step 1):
//! `String.length/charAt/equals/startsWith/endsWith/compareTo/hashCode/
//! indexOf(int)/isEmpty` (`indexOf` of characters of the BMP), boxing
//! (`Integer.valueOf` ...) and unboxing (`intValue` ...), `Math.abs/min/max`
//! (also `StrictMath`), `System.arraycopy`, `Objects.requireNonNull`, and
//! `StringBuilder` (its characters keep their symbols; appended numbers are
//! printed from their pinned values). A method that decides
//! by comparing characters or numbers adds those comparisons as clauses
//! ([`Origin::Within`]), as its own loop would, so negating one changes its
//! result. `Math.abs` of a `float` or `double` follows the JDK's definition
//! (`a <= 0 ? 0 - a : a`); `min` and `max` of floating-point values that are
//! NaN or both zero are concretised. Any other JDK method stops the replay.

use super::{Concrete, Machine, Object, Origin, Slot, computed, expr_of, number, prim};
use crate::expr::{BinOp, CmpOp, Conv, Expr, Value};
use crate::path::{Clause, Rel};

/// The box classes and their primitive descriptors.
const BOXES: [(&str, &str); 8] = [
    ("java/lang/Integer", "I"),
    ("java/lang/Long", "J"),
    ("java/lang/Short", "S"),
    ("java/lang/Byte", "B"),
    ("java/lang/Character", "C"),
    ("java/lang/Boolean", "Z"),
    ("java/lang/Float", "F"),
    ("java/lang/Double", "D"),
];

impl Machine<'_> {
    /// Adds `clause` (as it held) as a step of a modelled method.
    fn within(&mut self, clause: Clause) {
        let next = self.out.branches.len();
        self.push_clause(clause, Origin::Within(next));
    }

    /// Adds `a rel b` or its negation, whichever held, when a side is
    /// symbolic; whether it held. Numbers other than `int`s are compared
    /// through `lcmp` (`fcmpl`, `dcmpl`) with 0, as bytecode does.
    fn decide(&mut self, a: &Slot, rel: Rel, b: &Slot) -> Result<bool, String> {
        if !matches!(value(a)?, Value::Int(_)) {
            let (ea, eb) = (expr_of(a).ok_or("not a number")?, expr_of(b).ok_or("not a number")?);
            let cmp = computed(Expr::cmp(CmpOp::NanIsLess, ea, eb), &[a, b])?;
            return self.decide(&cmp, rel, &number(Value::Int(0)));
        }
        let (ea, eb) = (expr_of(a).ok_or("not a number")?, expr_of(b).ok_or("not a number")?);
        let clause = Clause::new(ea, rel, eb);
        let holds = Clause::new(Expr::Const(value(a)?), rel, Expr::Const(value(b)?))
            .holds(&Default::default())
            .map_err(|e| e.to_string())?;
        if a.sym.is_some() || b.sym.is_some() {
            self.within(if holds { clause } else { clause.negate() });
        }
        Ok(holds)
    }

    /// A static JDK method, modelled or not.
    pub(super) fn jdk_static(
        &mut self,
        owner: &str,
        name: &str,
        descriptor: &str,
        args: &[Slot],
    ) -> Result<Option<Slot>, String> {
        if let Some((class, _)) = BOXES.iter().find(|(c, p)| *c == owner && descriptor == format!("({p})L{c};")) {
            let boxed = Object::Boxed { class: (*class).to_string(), value: args[0].clone() };
            return Ok(Some(self.alloc(boxed)));
        }
        match (owner, name) {
            ("java/lang/Math" | "java/lang/StrictMath", "abs") => self.abs(&args[0]).map(Some),
            ("java/lang/Math" | "java/lang/StrictMath", "min" | "max") => {
                self.min_max(name == "min", &args[0], &args[1]).map(Some)
            }
            ("java/lang/System", "arraycopy") => self.arraycopy(args).map(|()| None),
            ("java/util/Objects", "requireNonNull") => match args[0].value {
                Concrete::Null => Err("NullPointerException".into()),
                _ => Ok(Some(args[0].clone())),
            },
            _ => Err(format!("a call of {owner}.{name} is not replayed")),
        }
    }

    /// An instance method of a string or a box (receiver `args[0]`).
    pub(super) fn jdk_virtual(&mut self, name: &str, descriptor: &str, args: &[Slot]) -> Result<Option<Slot>, String> {
        match self.object(&args[0])?.clone() {
            Object::Str { chars, length } => self.string_call(name, descriptor, (&chars, length), args),
            Object::Boxed { class, value } => self.box_call(&class, name, descriptor, &value, args),
            Object::Builder { chars } => self.builder_call(name, descriptor, chars, args),
            _ => Err(format!("{name} is not replayed")),
        }
    }

    /// `System.arraycopy(src, srcPos, dest, destPos, length)` with its
    /// positions and length concretised (the elements keep their symbols).
    fn arraycopy(&mut self, args: &[Slot]) -> Result<(), String> {
        let (Concrete::Ref(src), Concrete::Ref(dest)) = (args[0].value, args[2].value) else {
            return Err("NullPointerException".into());
        };
        let [from, to, n] = [&args[1], &args[3], &args[4]].map(|s| self.concretise(s));
        let (from, to, n) = (from?, to?, n?);
        let Object::Array { items: source, .. } = &self.heap[src] else { return Err("ArrayStoreException".into()) };
        let in_bounds = |len: usize, at: i32| at >= 0 && n >= 0 && (at as usize) + (n as usize) <= len;
        if !in_bounds(source.len(), from) {
            return Err("ArrayIndexOutOfBoundsException".into());
        }
        let copied: Vec<Slot> = source[from as usize..(from + n) as usize].to_vec();
        let Object::Array { items: target, .. } = &mut self.heap[dest] else {
            return Err("ArrayStoreException".into());
        };
        if !in_bounds(target.len(), to) {
            return Err("ArrayIndexOutOfBoundsException".into());
        }
        target[to as usize..(to + n) as usize].clone_from_slice(&copied);
        Ok(())
    }

    fn abs(&mut self, a: &Slot) -> Result<Slot, String> {
        let v = value(a)?;
        let ea = expr_of(a).ok_or("not a number")?;
        let negate = match v {
            Value::Int(_) | Value::Long(_) => self.decide(a, Rel::Lt, &zero_like(v))?,
            Value::Float(_) | Value::Double(_) => {
                // JDK: (a <= 0.0) ? 0.0 - a : a, as fcmpg/dcmpg decide it.
                let cmp =
                    computed(Expr::cmp(CmpOp::NanIsGreater, ea.clone(), Expr::Const(zero(v))), &[a, &number(zero(v))])?;
                self.decide(&cmp, Rel::Le, &number(Value::Int(0)))?
            }
        };
        if !negate {
            return Ok(a.clone());
        }
        Ok(match v {
            Value::Int(_) | Value::Long(_) => computed(Expr::Neg(Box::new(ea)), &[a])?,
            _ => computed(Expr::bin(BinOp::Sub, Expr::Const(zero(v)), ea), &[&number(zero(v)), a])?,
        })
    }

    fn min_max(&mut self, min: bool, a: &Slot, b: &Slot) -> Result<Slot, String> {
        let (va, vb) = (value(a)?, value(b)?);
        let first = match (va, vb) {
            (Value::Int(_), _) | (Value::Long(_), _) => self.decide(a, if min { Rel::Le } else { Rel::Ge }, b)?,
            _ => {
                let (x, y) = (va.as_f64(), vb.as_f64());
                if x.is_nan() || y.is_nan() || (x == 0.0 && y == 0.0) {
                    // Java: NaN if either is; min(0.0, -0.0) is -0.0, max(0.0, -0.0) is 0.0.
                    let negative = if min {
                        x.is_sign_negative() || y.is_sign_negative()
                    } else {
                        x.is_sign_negative() && y.is_sign_negative()
                    };
                    let pick = if x.is_nan() || y.is_nan() {
                        f64::NAN
                    } else if negative {
                        -0.0
                    } else {
                        0.0
                    };
                    return Ok(number(match va {
                        Value::Float(_) => Value::Float(pick as f32),
                        _ => Value::Double(pick),
                    }));
                }
                let ea = expr_of(a).ok_or("not a number")?;
                let eb = expr_of(b).ok_or("not a number")?;
                let cmp = computed(Expr::cmp(CmpOp::NanIsLess, ea, eb), &[a, b])?;
                self.decide(&cmp, if min { Rel::Le } else { Rel::Ge }, &number(Value::Int(0)))?
            }
        };
        Ok(if first { a.clone() } else { b.clone() })
    }

    fn string_call(
        &mut self,
        name: &str,
        descriptor: &str,
        (chars, length): (&[Slot], Option<Expr>),
        args: &[Slot],
    ) -> Result<Option<Slot>, String> {
        let len = Slot { value: Concrete::Prim(Value::Int(chars.len() as i32)), sym: length };
        let int = |v: i32| Some(number(Value::Int(v)));
        match (name, descriptor) {
            ("length", "()I") => Ok(Some(len)),
            ("isEmpty", "()Z") => Ok(int(i32::from(self.decide(&len, Rel::Eq, &number(Value::Int(0)))?))),
            ("charAt", "(I)C") => {
                let i = self.concretise(&args[1])?;
                if i < 0 || !self.decide(&len, Rel::Gt, &number(Value::Int(i)))? {
                    return Err("StringIndexOutOfBoundsException".into());
                }
                Ok(Some(chars[i as usize].clone()))
            }
            ("indexOf", "(I)I") => {
                // A code point past the BMP is searched as a surrogate pair: not modelled.
                let Some(Value::Int(ch)) = prim(&args[1]) else { return Err("not an int".into()) };
                if !(0..=0xFFFF).contains(&ch) {
                    return Err("indexOf of a code point outside the BMP is not replayed".into());
                }
                if let Some(sym) = &args[1].sym {
                    let c = |v: i32| Expr::Const(Value::Int(v));
                    self.push_clause(Clause::new(sym.clone(), Rel::Ge, c(0)), Origin::Pin);
                    self.push_clause(Clause::new(sym.clone(), Rel::Le, c(0xFFFF)), Origin::Pin);
                }
                for (j, c) in chars.iter().enumerate() {
                    if self.decide(c, Rel::Eq, &args[1])? {
                        return Ok(int(j as i32));
                    }
                }
                Ok(int(-1))
            }
            ("equals", "(Ljava/lang/Object;)Z") | ("startsWith", "(Ljava/lang/String;)Z") => {
                if name == "startsWith" && args[1].value == Concrete::Null {
                    return Err("NullPointerException".into());
                }
                let Some((theirs, their_len)) = self.string_arg(&args[1]) else { return Ok(int(0)) };
                let rel = if name == "equals" { Rel::Eq } else { Rel::Ge };
                if !self.decide(&len, rel, &their_len)? {
                    return Ok(int(0));
                }
                for (mine, theirs) in chars.iter().zip(&theirs) {
                    if !self.decide(mine, Rel::Eq, theirs)? {
                        return Ok(int(0));
                    }
                }
                Ok(int(1))
            }
            ("endsWith", "(Ljava/lang/String;)Z") => {
                let (theirs, their_len) = self.string_arg(&args[1]).ok_or("NullPointerException")?;
                // Where the suffix starts depends on both lengths: they are pinned.
                let (n, m) = (self.concretise(&len)? as usize, self.concretise(&their_len)? as usize);
                if m > n {
                    return Ok(int(0));
                }
                for (mine, theirs) in chars[n - m..].iter().zip(&theirs) {
                    if !self.decide(mine, Rel::Eq, theirs)? {
                        return Ok(int(0));
                    }
                }
                Ok(int(1))
            }
            ("compareTo", "(Ljava/lang/String;)I") => {
                let (theirs, their_len) = self.string_arg(&args[1]).ok_or("NullPointerException")?;
                // JDK: the first differing character's difference, else the lengths'.
                let shorter = if self.decide(&len, Rel::Le, &their_len)? { chars.len() } else { theirs.len() };
                for (mine, theirs) in chars.iter().zip(&theirs).take(shorter) {
                    if !self.decide(mine, Rel::Eq, theirs)? {
                        return difference(mine, theirs).map(Some);
                    }
                }
                difference(&len, &their_len).map(Some)
            }
            ("hashCode", "()I") => {
                // s[0]*31^(n-1) + ... + s[n-1], in int arithmetic; the length is pinned.
                self.concretise(&len)?;
                let mut h = number(Value::Int(0));
                let thirty_one = number(Value::Int(31));
                for c in chars {
                    let times = computed(
                        Expr::bin(BinOp::Mul, expr_of(&h).ok_or("not a number")?, Expr::Const(Value::Int(31))),
                        &[&h, &thirty_one],
                    )?;
                    h = computed(
                        Expr::bin(
                            BinOp::Add,
                            expr_of(&times).ok_or("not a number")?,
                            expr_of(c).ok_or("not a number")?,
                        ),
                        &[&times, c],
                    )?;
                }
                Ok(Some(h))
            }
            _ => Err(format!("String.{name}{descriptor} is not replayed")),
        }
    }

    /// A `StringBuilder` method (receiver `args[0]`, characters `chars`):
    /// its constructors, `append` of strings, characters and numbers (a
    /// number is printed from its value, pinned), `length` and `toString`.
    fn builder_call(
        &mut self,
        name: &str,
        descriptor: &str,
        mut chars: Vec<Slot>,
        args: &[Slot],
    ) -> Result<Option<Slot>, String> {
        let Concrete::Ref(this) = args[0].value else { return Err("NullPointerException".into()) };
        let appended: Vec<Slot> = match (name, descriptor) {
            ("<init>", "()V" | "(I)V") => Vec::new(),
            ("<init>", "(Ljava/lang/String;)V" | "(Ljava/lang/CharSequence;)V") => {
                self.string_arg(&args[1]).ok_or("NullPointerException")?.0
            }
            (
                "append",
                "(Ljava/lang/String;)Ljava/lang/StringBuilder;" | "(Ljava/lang/CharSequence;)Ljava/lang/StringBuilder;",
            ) => match self.string_arg(&args[1]) {
                Some((theirs, _)) => theirs,
                None if args[1].value == Concrete::Null => printed("null"),
                None => return Err("StringBuilder.append of an object is not replayed".into()),
            },
            ("append", "(C)Ljava/lang/StringBuilder;") => vec![args[1].clone()],
            (
                "append",
                "(I)Ljava/lang/StringBuilder;" | "(J)Ljava/lang/StringBuilder;" | "(Z)Ljava/lang/StringBuilder;",
            ) => {
                let text = match value(&args[1])? {
                    Value::Int(v) if descriptor.starts_with("(Z") => (v != 0).to_string(),
                    Value::Int(v) => v.to_string(),
                    Value::Long(v) => v.to_string(),
                    other => return Err(format!("StringBuilder.append of {other:?} is not replayed")),
                };
                if args[1].sym.is_some() {
                    self.concretise_any(&args[1])?;
                }
                printed(&text)
            }
            ("length", "()I") => return Ok(Some(number(Value::Int(chars.len() as i32)))),
            ("toString", "()Ljava/lang/String;") => {
                return Ok(Some(self.alloc(Object::Str { chars, length: None })));
            }
            _ => return Err(format!("StringBuilder.{name}{descriptor} is not replayed")),
        };
        chars.extend(appended);
        self.heap[this] = Object::Builder { chars };
        Ok((name != "<init>").then(|| args[0].clone()))
    }

    /// Pins a symbolic number of any type to its value.
    pub(super) fn concretise_any(&mut self, s: &Slot) -> Result<(), String> {
        let v = value(s)?;
        if let Value::Int(_) = v {
            self.concretise(s)?;
            return Ok(());
        }
        let cmp =
            computed(Expr::cmp(CmpOp::NanIsLess, expr_of(s).ok_or("not a number")?, Expr::Const(v)), &[s, &number(v)])?;
        self.concretise(&cmp)?;
        Ok(())
    }

    /// The characters and length of the string `slot` refers to; `None` for
    /// `null` or another object.
    fn string_arg(&self, slot: &Slot) -> Option<(Vec<Slot>, Slot)> {
        let Concrete::Ref(r) = slot.value else { return None };
        let Object::Str { chars, length } = &self.heap[r] else { return None };
        let len = Slot { value: Concrete::Prim(Value::Int(chars.len() as i32)), sym: length.clone() };
        Some((chars.clone(), len))
    }

    fn box_call(
        &mut self,
        class: &str,
        name: &str,
        descriptor: &str,
        value: &Slot,
        args: &[Slot],
    ) -> Result<Option<Slot>, String> {
        if name == "equals" && descriptor == "(Ljava/lang/Object;)Z" {
            let other = match args[1].value {
                Concrete::Ref(r) => match &self.heap[r] {
                    Object::Boxed { class: c, value } if c == class => Some(value.clone()),
                    _ => None,
                },
                _ => None,
            };
            let Some(theirs) = other else { return Ok(Some(number(Value::Int(0)))) };
            let same = match (value.value, theirs.value) {
                (Concrete::Prim(Value::Float(_) | Value::Double(_)), _) => {
                    // Float.equals compares bits: concretised.
                    prim(value).zip(prim(&theirs)).is_some_and(|(a, b)| a.same(b))
                }
                _ => self.decide(value, Rel::Eq, &theirs)?,
            };
            return Ok(Some(number(Value::Int(i32::from(same)))));
        }
        let Some(target) = descriptor.strip_prefix("()") else { return Err(format!("{class}.{name} is not replayed")) };
        if !name.ends_with("Value") {
            return Err(format!("{class}.{name} is not replayed"));
        }
        let from = BOXES.iter().find(|(c, _)| *c == class).map_or("I", |(_, p)| p);
        convert(value, from, target).map(Some)
    }
}

/// The characters of `text`, without symbols.
fn printed(text: &str) -> Vec<Slot> {
    text.encode_utf16().map(|u| number(Value::Int(i32::from(u)))).collect()
}

/// `a - b` of two `int`s.
fn difference(a: &Slot, b: &Slot) -> Result<Slot, String> {
    computed(Expr::bin(BinOp::Sub, expr_of(a).ok_or("not a number")?, expr_of(b).ok_or("not a number")?), &[a, b])
}

/// A primitive's value.
fn value(s: &Slot) -> Result<Value, String> {
    prim(s).ok_or_else(|| "not a number".to_string())
}

fn zero(v: Value) -> Value {
    match v {
        Value::Int(_) => Value::Int(0),
        Value::Long(_) => Value::Long(0),
        Value::Float(_) => Value::Float(0.0),
        Value::Double(_) => Value::Double(0.0),
    }
}

fn zero_like(v: Value) -> Slot {
    number(zero(v))
}

/// `value` (of primitive descriptor `from`) as an unboxing method of type `to` returns it.
fn convert(value: &Slot, from: &str, to: &str) -> Result<Slot, String> {
    let kind = |d: &str| match d {
        "J" => 1,
        "F" => 2,
        "D" => 3,
        _ => 0,
    };
    let conv = match (kind(from), to) {
        (k, t) if k == kind(t) && matches!(t, "I" | "Z" | "C" | "J" | "F" | "D") => return Ok(value.clone()),
        (0, "J") => Conv::I2L,
        (0, "F") => Conv::I2F,
        (0, "D") => Conv::I2D,
        (0, "B") => Conv::I2B,
        (0, "S") => Conv::I2S,
        (1, "I") => Conv::L2I,
        (1, "F") => Conv::L2F,
        (1, "D") => Conv::L2D,
        (2, "I") => Conv::F2I,
        (2, "J") => Conv::F2L,
        (2, "D") => Conv::F2D,
        (3, "I") => Conv::D2I,
        (3, "J") => Conv::D2L,
        (3, "F") => Conv::D2F,
        _ => return Err(format!("unboxing {from} to {to} is not replayed")),
    };
    computed(Expr::conv(conv, expr_of(value).ok_or("not a number")?), &[value])
}
