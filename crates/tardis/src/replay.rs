//! Concolic replay of a class's bytecode in Rust (TECHNIQUES.md §5 step 1,
//! first part): a static method runs on concrete inputs with every input
//! number, array length and array element also a symbol; arithmetic builds
//! [`Expr`]s with the JVM's semantics ([`crate::expr`], checked against a
//! JVM), and each conditional branch whose operands depend on a symbol adds
//! the clause of the side taken to the path condition.
//!
//! Covered: constants, locals, the stack operations, all arithmetic,
//! conversions and comparisons, `if*`, `goto`, both switches, primitive
//! arrays (inputs or made by the method), `invokestatic` of the same
//! class's methods, returns. A symbolic array index or array length given
//! to `newarray` is concretised with a clause (`i == 3`), so the path stays
//! sound. Anything else (objects, fields, other calls, exceptions) stops the
//! replay: the path condition up to there is kept and [`Replay::stopped`]
//! says why. The recorded values of those (field reads, call results) are
//! the next step.

use std::collections::BTreeMap;

use model::bytecode::{Insn, Operand, decode, op};
use model::classfile::ClassFile;
use model::constant_pool::Constant;
use model::descriptor::MethodDescriptor;

use crate::expr::{BinOp, CmpOp, Conv, Expr, JType, Value};
use crate::path::{Clause, PathCondition, Rel};

/// An input of the replayed method.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// A primitive (`boolean`, `byte`, `char`, `short` as `Int`).
    Prim(Value),
    /// A primitive array: its element type and elements.
    Array(JType, Vec<Value>),
}

/// Where a symbol comes from in the inputs, so a model can be written back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Parameter `n`, a primitive.
    Param(usize),
    /// The length of array parameter `n`.
    Length(usize),
    /// Element `i` of array parameter `n`.
    Element(usize, usize),
}

/// What a replay found.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    /// The path condition over the symbols.
    pub path: PathCondition,
    /// Each symbol's type, value in this run and source.
    pub symbols: BTreeMap<u32, (JType, Value, Source)>,
    /// The conditional branches run: (method name, bytecode index, taken).
    pub branches: Vec<(String, u32, bool)>,
    /// The result of the method, when it returned.
    pub result: Option<Value>,
    /// Why the replay stopped before the method returned.
    pub stopped: Option<String>,
}

impl Replay {
    /// The symbols' types.
    pub fn types(&self) -> BTreeMap<u32, JType> {
        self.symbols.iter().map(|(id, (t, _, _))| (*id, *t)).collect()
    }

    /// The symbols' values in this run.
    pub fn values(&self) -> BTreeMap<u32, Value> {
        self.symbols.iter().map(|(id, (_, v, _))| (*id, *v)).collect()
    }
}

/// A value on the stack or in a local: concrete, with its symbolic expression when it has one.
#[derive(Debug, Clone)]
struct Slot {
    value: Concrete,
    sym: Option<Expr>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Concrete {
    Prim(Value),
    Array(usize),
    Null,
}

#[derive(Debug, Clone)]
struct Array {
    narrow: Option<Conv>,
    items: Vec<Slot>,
    length: Option<Expr>,
}

/// Instructions run at most (a loop that does not end stops the replay).
const MAX_STEPS: usize = 200_000;
/// Nested static calls at most.
const MAX_DEPTH: usize = 64;

struct Machine<'a> {
    cf: &'a ClassFile,
    heap: Vec<Array>,
    out: Replay,
    steps: usize,
}

/// Replays static method `name descriptor` of `cf` on `inputs`.
pub fn replay(cf: &ClassFile, name: &str, descriptor: &str, inputs: &[Input]) -> Replay {
    let mut m = Machine { cf, heap: Vec::new(), out: Replay::default(), steps: 0 };
    let mut args = Vec::new();
    for (n, input) in inputs.iter().enumerate() {
        args.push(m.input(n, input));
    }
    match m.call(name, descriptor, args, 0) {
        Ok(Some(slot)) => m.out.result = prim(&slot),
        Ok(None) => {}
        Err(why) => m.out.stopped = Some(why),
    }
    m.out
}

fn prim(s: &Slot) -> Option<Value> {
    match s.value {
        Concrete::Prim(v) => Some(v),
        _ => None,
    }
}

/// The slot of `expr`, whose top operation applies to `operands`: its value
/// from the operands' values (not the whole expression again), and `expr`
/// as its symbolic form when an operand was symbolic.
fn computed(expr: Expr, operands: &[&Slot]) -> Result<Slot, String> {
    let c = |k: usize| operands.get(k).and_then(|s| prim(s)).map(Expr::Const).ok_or("not a number");
    let top = match &expr {
        Expr::Bin(op, _, _) => Expr::bin(*op, c(0)?, c(1)?),
        Expr::Cmp(kind, _, _) => Expr::cmp(*kind, c(0)?, c(1)?),
        Expr::Neg(_) => Expr::Neg(Box::new(c(0)?)),
        Expr::Conv(conv, _) => Expr::conv(*conv, c(0)?),
        other => other.clone(),
    };
    let value = top.eval(&BTreeMap::new()).map_err(|e| e.to_string())?;
    let symbolic = operands.iter().any(|s| s.sym.is_some());
    Ok(Slot { value: Concrete::Prim(value), sym: symbolic.then_some(expr) })
}

fn expr_of(s: &Slot) -> Option<Expr> {
    s.sym.clone().or_else(|| prim(s).map(Expr::Const))
}

impl Machine<'_> {
    fn symbol(&mut self, ty: JType, value: Value, source: Source) -> Expr {
        let id = self.out.symbols.len() as u32;
        self.out.symbols.insert(id, (ty, value, source));
        Expr::Sym(id, ty)
    }

    fn input(&mut self, n: usize, input: &Input) -> Slot {
        match input {
            Input::Prim(v) => {
                let sym = self.symbol(v.jtype(), *v, Source::Param(n));
                Slot { value: Concrete::Prim(*v), sym: Some(sym) }
            }
            Input::Array(elem, values) => {
                let length = self.symbol(JType::Int, Value::Int(values.len() as i32), Source::Length(n));
                let items = values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Slot {
                        value: Concrete::Prim(*v),
                        sym: Some(self.symbol(*elem, *v, Source::Element(n, i))),
                    })
                    .collect();
                self.heap.push(Array { narrow: None, items, length: Some(length) });
                Slot { value: Concrete::Array(self.heap.len() - 1), sym: None }
            }
        }
    }

    /// Runs a method of the class; its result, if any.
    fn call(&mut self, name: &str, descriptor: &str, args: Vec<Slot>, depth: usize) -> Result<Option<Slot>, String> {
        if depth > MAX_DEPTH {
            return Err("too deep".into());
        }
        let method = self
            .cf
            .methods
            .iter()
            .find(|m| self.cf.member_name(m) == name && self.cf.member_descriptor(m) == descriptor)
            .ok_or_else(|| format!("no method {name}{descriptor}"))?;
        let code = self.cf.code(method).ok().flatten().ok_or_else(|| format!("{name} has no code"))?;
        let insns = decode(&code.code).map_err(|e| e.to_string())?;
        let mut locals: Vec<Option<Slot>> = vec![None; usize::from(code.max_locals)];
        let d = MethodDescriptor::parse(descriptor).map_err(|e| e.to_string())?;
        let mut at = 0;
        for (arg, t) in args.into_iter().zip(&d.params) {
            locals[at] = Some(arg);
            at += usize::from(t.slots());
        }
        let mut frame = Frame { name: name.to_string(), insns: &insns, locals, stack: Vec::new(), pc: 0 };
        loop {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return Err("step limit".into());
            }
            match self.step(&mut frame, depth)? {
                Flow::Next => frame.pc += 1,
                Flow::Jump(bci) => frame.pc = frame.index_of(bci)?,
                Flow::Return(v) => return Ok(v),
            }
        }
    }
}

struct Frame<'i> {
    name: String,
    insns: &'i [Insn],
    locals: Vec<Option<Slot>>,
    stack: Vec<Slot>,
    pc: usize,
}

impl Frame<'_> {
    fn index_of(&self, bci: u32) -> Result<usize, String> {
        self.insns.binary_search_by_key(&bci, |i| i.bci).map_err(|_| format!("no instruction at {bci}"))
    }

    fn pop(&mut self) -> Result<Slot, String> {
        self.stack.pop().ok_or_else(|| "stack underflow".to_string())
    }

    fn push_value(&mut self, v: Value) {
        self.stack.push(Slot { value: Concrete::Prim(v), sym: None });
    }
}

enum Flow {
    Next,
    Jump(u32),
    Return(Option<Slot>),
}

/// The local index of a load/store/iinc, short forms included.
fn local_index(insn: &Insn, base: u8) -> usize {
    match insn.operand {
        Operand::Local { index, .. } => usize::from(index),
        _ => usize::from(insn.opcode - base) % 4,
    }
}

impl Machine<'_> {
    fn step(&mut self, f: &mut Frame<'_>, depth: usize) -> Result<Flow, String> {
        let insn = &f.insns[f.pc];
        let o = insn.opcode;
        match o {
            op::NOP => {}
            op::ICONST_M1..=op::ICONST_5 => f.push_value(Value::Int(i32::from(o) - i32::from(op::ICONST_0))),
            op::LCONST_0 | op::LCONST_1 => f.push_value(Value::Long(i64::from(o - op::LCONST_0))),
            op::FCONST_0..=op::FCONST_2 => f.push_value(Value::Float(f32::from(o - op::FCONST_0))),
            op::DCONST_0 | op::DCONST_1 => f.push_value(Value::Double(f64::from(o - op::DCONST_0))),
            op::BIPUSH | op::SIPUSH => {
                let Operand::Int(v) = insn.operand else { return Err("bad push".into()) };
                f.push_value(Value::Int(v));
            }
            op::LDC | op::LDC_W | op::LDC2_W => f.push_value(self.constant(insn)?),
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
            op::POP => {
                f.pop()?;
            }
            op::POP2 => {
                if !matches!(f.pop()?.value, Concrete::Prim(Value::Long(_) | Value::Double(_))) {
                    f.pop()?;
                }
            }
            op::DUP => {
                let v = f.stack.last().cloned().ok_or("stack underflow")?;
                f.stack.push(v);
            }
            op::SWAP => {
                let (a, b) = (f.pop()?, f.pop()?);
                f.stack.push(a);
                f.stack.push(b);
            }
            op::IADD..=op::LXOR if !(op::INEG..=op::DNEG).contains(&o) => self.arith(f, o)?,
            op::INEG..=op::DNEG => {
                let a = f.pop()?;
                let expr = Expr::Neg(Box::new(expr_of(&a).ok_or("not a number")?));
                f.stack.push(computed(expr, &[&a])?);
            }
            op::IINC => {
                let Operand::Iinc { index, delta, .. } = insn.operand else { return Err("bad iinc".into()) };
                let slot = f.locals.get(usize::from(index)).cloned().flatten().ok_or("an unset local")?;
                let delta = Slot { value: Concrete::Prim(Value::Int(i32::from(delta))), sym: None };
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
            op::ARRAYLENGTH => {
                let Concrete::Array(a) = f.pop()?.value else { return Err("arraylength of null".into()) };
                let array = &self.heap[a];
                let slot =
                    Slot { value: Concrete::Prim(Value::Int(array.items.len() as i32)), sym: array.length.clone() };
                f.stack.push(slot);
            }
            op::INVOKESTATIC => return self.invoke_static(f, insn, depth),
            _ => return Err(format!("{} at {} is not replayed", model::bytecode::opcode_name(o), insn.bci)),
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
                self.out.path.clauses.push(Clause::new(divisor, Rel::Ne, Expr::Const(Value::Int(0))));
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
                    (relation(o - op::IFEQ), Slot { value: Concrete::Prim(Value::Int(0)), sym: None }, f.pop()?)
                };
                let (Some(va), Some(vb)) = (prim(&a), prim(&b)) else { return Err("not an int".into()) };
                let taken = Clause::new(Expr::Const(va), rel, Expr::Const(vb))
                    .holds(&BTreeMap::new())
                    .map_err(|e| e.to_string())?;
                let clause = Clause::new(expr_of(&a).ok_or("not an int")?, rel, expr_of(&b).ok_or("not an int")?);
                if a.sym.is_some() || b.sym.is_some() {
                    self.out.path.clauses.push(if taken { clause } else { clause.negate() });
                }
                taken
            }
        };
        self.out.branches.push((f.name.clone(), insn.bci, taken));
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
                Some((v, _)) => self.out.path.clauses.push(Clause::new(sym.clone(), Rel::Eq, constant(*v))),
                None => {
                    for (v, _) in &cases {
                        self.out.path.clauses.push(Clause::new(sym.clone(), Rel::Ne, constant(*v)));
                    }
                }
            }
        }
        Ok(Flow::Jump(hit.map_or(default, |(_, t)| *t)))
    }

    /// A symbolic index or length is fixed to its value by a clause.
    fn concretise(&mut self, s: &Slot) -> Result<i32, String> {
        let Some(Value::Int(v)) = prim(s) else { return Err("not an int".into()) };
        if let Some(sym) = &s.sym {
            self.out.path.clauses.push(Clause::new(sym.clone(), Rel::Eq, Expr::Const(Value::Int(v))));
        }
        Ok(v)
    }

    fn array_load(&mut self, f: &mut Frame<'_>) -> Result<(), String> {
        let index = f.pop()?;
        let Concrete::Array(a) = f.pop()?.value else { return Err("NullPointerException".into()) };
        let i = self.concretise(&index)?;
        let item = self.heap[a].items.get(i as usize).cloned().ok_or("ArrayIndexOutOfBoundsException")?;
        f.stack.push(item);
        Ok(())
    }

    fn array_store(&mut self, f: &mut Frame<'_>) -> Result<(), String> {
        let (value, index) = (f.pop()?, f.pop()?);
        let Concrete::Array(a) = f.pop()?.value else { return Err("NullPointerException".into()) };
        let i = self.concretise(&index)?;
        let narrowed = match self.heap[a].narrow {
            Some(c) => computed(Expr::conv(c, expr_of(&value).ok_or("not a number")?), &[&value])?,
            None => value,
        };
        let slot = self.heap[a].items.get_mut(i as usize).ok_or("ArrayIndexOutOfBoundsException")?;
        *slot = narrowed;
        Ok(())
    }

    fn new_array(&mut self, f: &mut Frame<'_>, insn: &Insn) -> Result<(), String> {
        let Operand::NewArray(atype) = insn.operand else { return Err("bad newarray".into()) };
        let n = self.concretise(&f.pop()?)?;
        if n < 0 {
            return Err("NegativeArraySizeException".into());
        }
        // JVMS newarray atype: 4 boolean, 5 char, 6 float, 7 double, 8 byte, 9 short, 10 int, 11 long.
        let (narrow, zero) = match atype {
            4 | 8 => (Some(Conv::I2B), Value::Int(0)),
            5 => (Some(Conv::I2C), Value::Int(0)),
            9 => (Some(Conv::I2S), Value::Int(0)),
            6 => (None, Value::Float(0.0)),
            7 => (None, Value::Double(0.0)),
            11 => (None, Value::Long(0)),
            _ => (None, Value::Int(0)),
        };
        let items = vec![Slot { value: Concrete::Prim(zero), sym: None }; n as usize];
        self.heap.push(Array { narrow, items, length: None });
        f.stack.push(Slot { value: Concrete::Array(self.heap.len() - 1), sym: None });
        Ok(())
    }

    fn invoke_static(&mut self, f: &mut Frame<'_>, insn: &Insn, depth: usize) -> Result<Flow, String> {
        let Operand::Constant(index) = insn.operand else { return Err("bad invokestatic".into()) };
        let member = self.cf.constant_pool.member_ref(index).map_err(|e| e.to_string())?;
        if member.owner != self.cf.name() {
            return Err(format!("a call of {}.{} is not replayed", member.owner, member.name));
        }
        let (name, descriptor) = (member.name.to_string(), member.descriptor.to_string());
        let d = MethodDescriptor::parse(&descriptor).map_err(|e| e.to_string())?;
        let mut args: Vec<Slot> = (0..d.params.len()).map(|_| f.pop()).collect::<Result<_, _>>()?;
        args.reverse();
        if let Some(result) = self.call(&name, &descriptor, args, depth + 1)? {
            f.stack.push(result);
        }
        Ok(Flow::Next)
    }

    fn constant(&self, insn: &Insn) -> Result<Value, String> {
        let Operand::Constant(index) = insn.operand else { return Err("bad ldc".into()) };
        match self.cf.constant_pool.get(index).map_err(|e| e.to_string())? {
            Constant::Integer(v) => Ok(Value::Int(*v)),
            Constant::Float(bits) => Ok(Value::Float(f32::from_bits(*bits))),
            Constant::Long(v) => Ok(Value::Long(*v)),
            Constant::Double(bits) => Ok(Value::Double(f64::from_bits(*bits))),
            other => Err(format!("ldc of {other:?} is not replayed")),
        }
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
