//! One instruction of the replay: constants, locals, the stack, arithmetic,
//! conversions, comparisons, branches, switches and arrays; object and call
//! instructions go to `objects`.

use std::collections::BTreeMap;

use model::bytecode::{Insn, Operand, op};
use model::constant_pool::Constant;

use super::{Concrete, Flow, Frame, Machine, Object, Origin, Slot, computed, expr_of, number, prim};
use crate::expr::{BinOp, CmpOp, Conv, Expr, Value};
use crate::path::{Clause, Rel};

/// The local index of a load/store/iinc, short forms included.
fn local_index(insn: &Insn, base: u8) -> usize {
    match insn.operand {
        Operand::Local { index, .. } => usize::from(index),
        _ => usize::from(insn.opcode - base) % 4,
    }
}

/// Whether a value takes two stack slots (`long`, `double`).
fn wide(s: &Slot) -> bool {
    matches!(s.value, Concrete::Prim(Value::Long(_) | Value::Double(_)))
}

impl Machine<'_> {
    pub(super) fn step(&mut self, f: &mut Frame<'_>) -> Result<Flow, String> {
        let insn = &f.insns[f.pc];
        let o = insn.opcode;
        match o {
            op::NOP => {}
            op::MONITORENTER | op::MONITOREXIT => {
                f.pop()?;
            }
            op::ACONST_NULL => f.stack.push(Slot { value: Concrete::Null, sym: None }),
            op::ICONST_M1..=op::ICONST_5 => f.push_value(Value::Int(i32::from(o) - i32::from(op::ICONST_0))),
            op::LCONST_0 | op::LCONST_1 => f.push_value(Value::Long(i64::from(o - op::LCONST_0))),
            op::FCONST_0..=op::FCONST_2 => f.push_value(Value::Float(f32::from(o - op::FCONST_0))),
            op::DCONST_0 | op::DCONST_1 => f.push_value(Value::Double(f64::from(o - op::DCONST_0))),
            op::BIPUSH | op::SIPUSH => {
                let Operand::Int(v) = insn.operand else { return Err("bad push".into()) };
                f.push_value(Value::Int(v));
            }
            op::LDC | op::LDC_W | op::LDC2_W => {
                let slot = self.constant(f, insn)?;
                f.stack.push(slot);
            }
            op::ILOAD..=op::ALOAD | op::ILOAD_0..=op::ALOAD_3 => {
                let index = if o <= op::ALOAD { local_index(insn, 0) } else { local_index(insn, op::ILOAD_0) };
                let slot = f.locals.get(index).cloned().flatten().ok_or("an unset local")?;
                f.stack.push(slot);
            }
            op::ISTORE..=op::ASTORE | op::ISTORE_0..=op::ASTORE_3 => {
                let index = if o <= op::ASTORE { local_index(insn, 0) } else { local_index(insn, op::ISTORE_0) };
                let v = f.pop()?;
                *f.locals.get_mut(index).ok_or("a local beyond max_locals")? = Some(v);
            }
            op::IALOAD..=op::SALOAD => self.array_load(f)?,
            op::IASTORE..=op::SASTORE => self.array_store(f)?,
            op::POP..=op::SWAP => stack_op(f, o)?,
            op::IADD..=op::LXOR if !(op::INEG..=op::DNEG).contains(&o) => self.arith(f, o)?,
            op::INEG..=op::DNEG => {
                let a = f.pop()?;
                let expr = Expr::Neg(Box::new(expr_of(&a).ok_or("not a number")?));
                f.stack.push(computed(expr, &[&a])?);
            }
            op::IINC => {
                let Operand::Iinc { index, delta, .. } = insn.operand else { return Err("bad iinc".into()) };
                let slot = f.locals.get(usize::from(index)).cloned().flatten().ok_or("an unset local")?;
                let delta = number(Value::Int(i32::from(delta)));
                let expr =
                    Expr::bin(BinOp::Add, expr_of(&slot).ok_or("not a number")?, expr_of(&delta).expect("a constant"));
                f.locals[usize::from(index)] = Some(computed(expr, &[&slot, &delta])?);
            }
            op::I2L..=op::I2S => {
                let a = f.pop()?;
                let expr = Expr::conv(conversion(o), expr_of(&a).ok_or("not a number")?);
                f.stack.push(computed(expr, &[&a])?);
            }
            op::LCMP..=op::DCMPG => {
                let (b, a) = (f.pop()?, f.pop()?);
                let kind = if matches!(o, op::FCMPG | op::DCMPG) { CmpOp::NanIsGreater } else { CmpOp::NanIsLess };
                let expr = Expr::cmp(kind, expr_of(&a).ok_or("not a number")?, expr_of(&b).ok_or("not a number")?);
                f.stack.push(computed(expr, &[&a, &b])?);
            }
            op::IFEQ..=op::IF_ACMPNE | op::IFNULL | op::IFNONNULL => return self.branch(f, insn),
            op::GOTO | op::GOTO_W => {
                let Operand::Jump(t) = insn.operand else { return Err("bad goto".into()) };
                return Ok(Flow::Jump(t));
            }
            op::TABLESWITCH | op::LOOKUPSWITCH => return self.switch(f, insn),
            op::IRETURN..=op::ARETURN => return Ok(Flow::Return(Some(f.pop()?))),
            op::RETURN => return Ok(Flow::Return(None)),
            op::NEWARRAY => self.new_array(f, insn)?,
            op::MULTIANEWARRAY => self.multi_array(f, insn)?,
            op::ANEWARRAY => {
                let n = self.concretise(&f.pop()?)?;
                let n = array_length(n)?;
                let items = vec![Slot { value: Concrete::Null, sym: None }; n];
                let array = self.alloc(Object::Array { narrow: None, items, length: None });
                f.stack.push(array);
            }
            op::ARRAYLENGTH => {
                let Concrete::Ref(a) = f.pop()?.value else { return Err("NullPointerException".into()) };
                let Object::Array { items, length, .. } = &self.heap[a] else { return Err("not an array".into()) };
                let slot = Slot { value: Concrete::Prim(Value::Int(items.len() as i32)), sym: length.clone() };
                f.stack.push(slot);
            }
            _ => return self.object_insn(f, insn),
        }
        Ok(Flow::Next)
    }

    fn arith(&mut self, f: &mut Frame<'_>, o: u8) -> Result<(), String> {
        let (b, a) = (f.pop()?, f.pop()?);
        let op = binary_op(o);
        let (ea, eb) = (expr_of(&a).ok_or("not a number")?, expr_of(&b).ok_or("not a number")?);
        let integral = matches!(prim(&b), Some(Value::Int(_) | Value::Long(_)));
        if matches!(op, BinOp::Div | BinOp::Rem) && integral {
            let zero = if matches!(prim(&b), Some(Value::Long(_))) { Value::Long(0) } else { Value::Int(0) };
            if prim(&b) == Some(zero) {
                return Err("ArithmeticException: / by zero".into());
            }
            if b.sym.is_some() {
                // The path goes on only if the divisor is not 0.
                let divisor = if zero == Value::Long(0) {
                    Expr::cmp(CmpOp::NanIsLess, eb.clone(), Expr::Const(zero))
                } else {
                    eb.clone()
                };
                self.push_clause(Clause::new(divisor, Rel::Ne, Expr::Const(Value::Int(0))), Origin::Pin);
            }
        }
        f.stack.push(computed(Expr::bin(op, ea, eb), &[&a, &b])?);
        Ok(())
    }

    fn branch(&mut self, f: &mut Frame<'_>, insn: &Insn) -> Result<Flow, String> {
        let Operand::Jump(target) = insn.operand else { return Err("bad branch".into()) };
        let o = insn.opcode;
        let taken = match o {
            op::IFNULL | op::IFNONNULL => (f.pop()?.value == Concrete::Null) == (o == op::IFNULL),
            op::IF_ACMPEQ | op::IF_ACMPNE => {
                let (b, a) = (f.pop()?, f.pop()?);
                (a.value == b.value) == (o == op::IF_ACMPEQ)
            }
            _ => {
                let (rel, b, a) = if o >= op::IF_ICMPEQ {
                    (relation(o - op::IF_ICMPEQ), f.pop()?, f.pop()?)
                } else {
                    (relation(o - op::IFEQ), number(Value::Int(0)), f.pop()?)
                };
                let (Some(va), Some(vb)) = (prim(&a), prim(&b)) else { return Err("not an int".into()) };
                let taken = Clause::new(Expr::Const(va), rel, Expr::Const(vb))
                    .holds(&BTreeMap::new())
                    .map_err(|e| e.to_string())?;
                if a.sym.is_some() || b.sym.is_some() {
                    let clause = Clause::new(expr_of(&a).ok_or("not an int")?, rel, expr_of(&b).ok_or("not an int")?);
                    let origin = Origin::Branch(Machine::site(f, insn.bci, taken, None));
                    self.push_clause(if taken { clause } else { clause.negate() }, origin);
                }
                taken
            }
        };
        self.out.branches.push(Machine::site(f, insn.bci, taken, None));
        Ok(if taken { Flow::Jump(target) } else { Flow::Next })
    }

    fn switch(&mut self, f: &mut Frame<'_>, insn: &Insn) -> Result<Flow, String> {
        let key = f.pop()?;
        let Some(Value::Int(k)) = prim(&key) else { return Err("switch on a non-int".into()) };
        let (cases, default): (Vec<(i32, u32)>, u32) = match &insn.operand {
            Operand::TableSwitch { default, low, targets, .. } => {
                (targets.iter().enumerate().map(|(i, t)| (low + i as i32, *t)).collect(), *default)
            }
            Operand::LookupSwitch { default, pairs } => (pairs.clone(), *default),
            _ => return Err("bad switch".into()),
        };
        let hit = cases.iter().find(|(v, _)| *v == k);
        if let Some(sym) = &key.sym {
            let constant = |v: i32| Expr::Const(Value::Int(v));
            match hit {
                Some((v, _)) => {
                    let origin = Origin::Branch(Machine::site(f, insn.bci, true, Some(*v)));
                    self.push_clause(Clause::new(sym.clone(), Rel::Eq, constant(*v)), origin);
                }
                None => {
                    for (v, _) in &cases {
                        let origin = Origin::Branch(Machine::site(f, insn.bci, false, Some(*v)));
                        self.push_clause(Clause::new(sym.clone(), Rel::Ne, constant(*v)), origin);
                    }
                }
            }
        }
        self.out.branches.push(Machine::site(f, insn.bci, hit.is_some(), hit.map(|(v, _)| *v)));
        Ok(Flow::Jump(hit.map_or(default, |(_, t)| *t)))
    }

    /// A symbolic index or length is fixed to its value by a clause.
    pub(crate) fn concretise(&mut self, s: &Slot) -> Result<i32, String> {
        let Some(Value::Int(v)) = prim(s) else { return Err("not an int".into()) };
        if let Some(sym) = &s.sym {
            self.push_clause(Clause::new(sym.clone(), Rel::Eq, Expr::Const(Value::Int(v))), Origin::Pin);
        }
        Ok(v)
    }

    fn array_load(&mut self, f: &mut Frame<'_>) -> Result<(), String> {
        let index = f.pop()?;
        let Concrete::Ref(a) = f.pop()?.value else { return Err("NullPointerException".into()) };
        let i = self.concretise(&index)?;
        let Object::Array { items, .. } = &self.heap[a] else { return Err("not an array".into()) };
        let item = usize::try_from(i).ok().and_then(|i| items.get(i)).cloned();
        f.stack.push(item.ok_or("ArrayIndexOutOfBoundsException")?);
        Ok(())
    }

    fn array_store(&mut self, f: &mut Frame<'_>) -> Result<(), String> {
        let (value, index) = (f.pop()?, f.pop()?);
        let Concrete::Ref(a) = f.pop()?.value else { return Err("NullPointerException".into()) };
        let i = self.concretise(&index)?;
        let Object::Array { narrow, .. } = &self.heap[a] else { return Err("not an array".into()) };
        let narrowed = match narrow {
            Some(c) => computed(Expr::conv(*c, expr_of(&value).ok_or("not a number")?), &[&value])?,
            None => value,
        };
        let Object::Array { items, .. } = &mut self.heap[a] else { return Err("not an array".into()) };
        let slot = usize::try_from(i).ok().and_then(|i| items.get_mut(i)).ok_or("ArrayIndexOutOfBoundsException")?;
        *slot = narrowed;
        Ok(())
    }

    /// `multianewarray`: nested arrays of the popped (pinned) sizes.
    fn multi_array(&mut self, f: &mut Frame<'_>, insn: &Insn) -> Result<(), String> {
        let Operand::MultiANewArray { index, dims } = insn.operand else { return Err("bad multianewarray".into()) };
        let class = f.cf.constant_pool.class_name(index).map_err(|e| e.to_string())?.to_string();
        let mut sizes = Vec::with_capacity(usize::from(dims));
        for _ in 0..dims {
            let n = self.concretise(&f.pop()?)?;
            sizes.push(array_length(n)?);
        }
        sizes.reverse();
        let total = sizes.iter().try_fold(1usize, |acc, n| acc.checked_mul((*n).max(1)));
        if total.is_none_or(|t| t > MAX_ARRAY_LENGTH) {
            return Err("a multi-dimensional array this large is not replayed".into());
        }
        let array = self.nested_array(&class, &sizes);
        f.stack.push(array);
        Ok(())
    }

    /// An array of type `descriptor` (`[[I`) with `sizes` for its first dimensions.
    fn nested_array(&mut self, descriptor: &str, sizes: &[usize]) -> Slot {
        let element = &descriptor[1..];
        let Some((&n, rest)) = sizes.split_first() else { return Slot { value: Concrete::Null, sym: None } };
        if !rest.is_empty() {
            let items = (0..n).map(|_| self.nested_array(element, rest)).collect();
            return self.alloc(Object::Array { narrow: None, items, length: None });
        }
        let (narrow, zero) = match element.as_bytes().first() {
            Some(b'B' | b'Z') => (Some(Conv::I2B), Some(Value::Int(0))),
            Some(b'C') => (Some(Conv::I2C), Some(Value::Int(0))),
            Some(b'S') => (Some(Conv::I2S), Some(Value::Int(0))),
            Some(b'I') => (None, Some(Value::Int(0))),
            Some(b'J') => (None, Some(Value::Long(0))),
            Some(b'F') => (None, Some(Value::Float(0.0))),
            Some(b'D') => (None, Some(Value::Double(0.0))),
            _ => (None, None),
        };
        let item = zero.map_or(Slot { value: Concrete::Null, sym: None }, number);
        self.alloc(Object::Array { narrow, items: vec![item; n], length: None })
    }

    fn new_array(&mut self, f: &mut Frame<'_>, insn: &Insn) -> Result<(), String> {
        let Operand::NewArray(atype) = insn.operand else { return Err("bad newarray".into()) };
        let n = self.concretise(&f.pop()?)?;
        let n = array_length(n)?;
        let (narrow, zero) = array_type(atype);
        let items = vec![number(zero); n];
        let array = self.alloc(Object::Array { narrow, items, length: None });
        f.stack.push(array);
        Ok(())
    }

    fn constant(&mut self, f: &Frame<'_>, insn: &Insn) -> Result<Slot, String> {
        let Operand::Constant(index) = insn.operand else { return Err("bad ldc".into()) };
        let pool = &f.cf.constant_pool;
        Ok(match pool.get(index).map_err(|e| e.to_string())? {
            Constant::Integer(v) => number(Value::Int(*v)),
            Constant::Float(bits) => number(Value::Float(f32::from_bits(*bits))),
            Constant::Long(v) => number(Value::Long(*v)),
            Constant::Double(bits) => number(Value::Double(f64::from_bits(*bits))),
            Constant::String(utf8) => {
                let text = pool.utf8(*utf8).map_err(|e| e.to_string())?.to_string();
                self.string(&text)
            }
            Constant::Class(_) => self.alloc(Object::Opaque { class: "java/lang/Class".into() }),
            other => return Err(format!("ldc of {other:?} is not replayed")),
        })
    }

    /// A string of concrete characters.
    pub(crate) fn string(&mut self, text: &str) -> Slot {
        let chars = text.encode_utf16().map(|c| number(Value::Int(i32::from(c)))).collect();
        self.alloc(Object::Str { chars, length: None })
    }
}

/// Elements an array of the replay may have at most (a larger one stops
/// the replay rather than exhaust the orchestrator's memory).
pub(crate) const MAX_ARRAY_LENGTH: usize = 1 << 16;

/// The length of a new array, checked: negative throws, too long stops the replay.
pub(crate) fn array_length(n: i32) -> Result<usize, String> {
    let n = usize::try_from(n).map_err(|_| "NegativeArraySizeException")?;
    if n > MAX_ARRAY_LENGTH {
        return Err(format!("an array of {n} elements is not replayed"));
    }
    Ok(n)
}

/// `pop` .. `swap`, by the JVMS's value categories.
fn stack_op(f: &mut Frame<'_>, o: u8) -> Result<(), String> {
    match o {
        op::POP => {
            f.pop()?;
        }
        op::POP2 => {
            if !wide(&f.pop()?) {
                f.pop()?;
            }
        }
        op::DUP => {
            let v = f.stack.last().cloned().ok_or("stack underflow")?;
            f.stack.push(v);
        }
        op::DUP_X1 => {
            let (a, b) = (f.pop()?, f.pop()?);
            f.stack.extend([a.clone(), b, a]);
        }
        op::DUP_X2 => {
            let (a, b) = (f.pop()?, f.pop()?);
            if wide(&b) {
                f.stack.extend([a.clone(), b, a]);
            } else {
                let c = f.pop()?;
                f.stack.extend([a.clone(), c, b, a]);
            }
        }
        op::DUP2 => {
            let a = f.pop()?;
            if wide(&a) {
                f.stack.extend([a.clone(), a]);
            } else {
                let b = f.pop()?;
                f.stack.extend([b.clone(), a.clone(), b, a]);
            }
        }
        op::DUP2_X1 => {
            let a = f.pop()?;
            if wide(&a) {
                let b = f.pop()?;
                f.stack.extend([a.clone(), b, a]);
            } else {
                let (b, c) = (f.pop()?, f.pop()?);
                f.stack.extend([b.clone(), a.clone(), c, b, a]);
            }
        }
        op::SWAP => {
            let (a, b) = (f.pop()?, f.pop()?);
            f.stack.extend([a, b]);
        }
        _ => return Err("dup2_x2 is not replayed".into()),
    }
    Ok(())
}

/// The store narrowing and zero of a `newarray` type (JVMS `newarray`
/// atype: 4 boolean, 5 char, 6 float, 7 double, 8 byte, 9 short, 10 int, 11 long).
pub(crate) fn array_type(atype: u8) -> (Option<Conv>, Value) {
    match atype {
        4 | 8 => (Some(Conv::I2B), Value::Int(0)),
        5 => (Some(Conv::I2C), Value::Int(0)),
        9 => (Some(Conv::I2S), Value::Int(0)),
        6 => (None, Value::Float(0.0)),
        7 => (None, Value::Double(0.0)),
        11 => (None, Value::Long(0)),
        _ => (None, Value::Int(0)),
    }
}

/// `ifeq`-relative offsets 0..5: eq, ne, lt, ge, gt, le.
fn relation(offset: u8) -> Rel {
    [Rel::Eq, Rel::Ne, Rel::Lt, Rel::Ge, Rel::Gt, Rel::Le][usize::from(offset)]
}

/// The operator of `iadd`..`lxor` (types follow the operands).
fn binary_op(o: u8) -> BinOp {
    match o {
        op::IADD..=op::DADD => BinOp::Add,
        op::ISUB..=op::DSUB => BinOp::Sub,
        op::IMUL..=op::DMUL => BinOp::Mul,
        op::IDIV..=op::DDIV => BinOp::Div,
        op::IREM..=op::DREM => BinOp::Rem,
        op::ISHL | op::LSHL => BinOp::Shl,
        op::ISHR | op::LSHR => BinOp::Shr,
        op::IUSHR | op::LUSHR => BinOp::Ushr,
        op::IAND | op::LAND => BinOp::And,
        op::IOR | op::LOR => BinOp::Or,
        _ => BinOp::Xor,
    }
}

fn conversion(o: u8) -> Conv {
    [
        Conv::I2L,
        Conv::I2F,
        Conv::I2D,
        Conv::L2I,
        Conv::L2F,
        Conv::L2D,
        Conv::F2I,
        Conv::F2L,
        Conv::F2D,
        Conv::D2I,
        Conv::D2L,
        Conv::D2F,
        Conv::I2B,
        Conv::I2C,
        Conv::I2S,
    ][usize::from(o - op::I2L)]
}
