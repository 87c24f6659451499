//! Def-use data flow of one method over its locals and operand stack, by
//! frame simulation (JVMS §4.10.2's abstract interpretation, with sets of
//! definitions in place of verification types).
//!
//! Every value a frame holds is the set of [`Def`]s that may have produced
//! it: the method's entry (`this` or a parameter in its local slot), an
//! instruction that pushed it, or the exception a handler caught. Loads,
//! stores, `dup`s and `swap` only move values, so they are transparent: the
//! value an `iload` pushes has the definitions of the value last stored in
//! the slot. [`DataFlow::operands`] gives, per instruction, the definitions
//! of each value it pops; that is what a backward slice walks
//! (`crate::slice` in EvoObj, TECHNIQUES.md §1 step 1).
//!
//! The frame is kept slot-wise as the JVM counts slots: a `long` or
//! `double` fills two stack slots (or two locals) with the same set, so the
//! `dup2` and `pop2` forms need no type information. Merging at a join
//! takes the union per slot; a stack height that differs between two paths
//! (malformed code) is an error.

use std::collections::{BTreeSet, HashMap};

use model::bytecode::{Insn, Operand, decode, op};
use model::classfile::{ClassFile, ExceptionEntry, Member};
use model::constant_pool::{Constant, ConstantPool};

use crate::insn::{local_index, member, split_descriptor};

/// What may have produced a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Def {
    /// The value a local slot held on entry: `this` (slot 0 of an instance
    /// method) or a parameter.
    Entry(u16),
    /// The value instruction `.0` (an index into the method's instructions) pushed.
    Insn(usize),
    /// The exception the handler at instruction index `.0` caught.
    Caught(usize),
}

/// The definitions that may have produced one value.
pub type Defs = BTreeSet<Def>;

/// Why a method's data flow could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataFlowError {
    /// The stack heights of two paths into an instruction differ, or an
    /// instruction pops more than the stack holds.
    #[error("inconsistent operand stack at bytecode index {0}")]
    Stack(u32),
    /// A jump or handler points between instructions.
    #[error("jump to bytecode index {0}, which starts no instruction")]
    Target(u32),
    /// A member reference could not be read from the constant pool.
    #[error("unreadable constant at bytecode index {0}")]
    Constant(u32),
    /// The method's `Code` attribute or its instructions could not be read.
    #[error("unreadable code: {0}")]
    Code(String),
}

/// A method's decoded instructions with their data flow.
#[derive(Debug, Clone)]
pub struct MethodFlow {
    /// The instructions (bytecode-index targets).
    pub insns: Vec<Insn>,
    /// Their data flow.
    pub flow: DataFlow,
    /// The entry slot of each parameter (0-based, without `this`).
    pub param_slots: Vec<u16>,
}

/// The data flow of method `m` of `cf`; `None` for a method without code
/// (abstract or native).
///
/// # Errors
/// [`DataFlowError`] when its code cannot be read or is malformed.
pub fn method_flow(cf: &ClassFile, m: &Member) -> Result<Option<MethodFlow>, DataFlowError> {
    let Some(code) = cf.code(m).map_err(|e| DataFlowError::Code(e.to_string()))? else { return Ok(None) };
    let insns = decode(&code.code).map_err(|e| DataFlowError::Code(e.to_string()))?;
    let shape = MethodShape {
        descriptor: cf.member_descriptor(m),
        is_static: m.access & model::access::STATIC != 0,
        max_locals: code.max_locals,
    };
    let flow = DataFlow::compute(&insns, &code.exception_table, &cf.constant_pool, shape)?;
    let mut slot = u16::from(!shape.is_static);
    let mut param_slots = Vec::new();
    for p in split_descriptor(shape.descriptor).0 {
        param_slots.push(slot);
        slot += u16::from(size_of(p));
    }
    Ok(Some(MethodFlow { insns, flow, param_slots }))
}

/// The method facts the simulation needs besides its instructions.
#[derive(Debug, Clone, Copy)]
pub struct MethodShape<'a> {
    /// The method's descriptor (`(ILjava/lang/String;)Z`).
    pub descriptor: &'a str,
    /// Whether the method is static (no `this` in slot 0).
    pub is_static: bool,
    /// `max_locals` of its `Code` attribute.
    pub max_locals: u16,
}

/// The data flow of one method.
#[derive(Debug, Clone)]
pub struct DataFlow {
    /// Per instruction index: the definitions of each value the instruction
    /// pops, deepest first (for `putfield`: the object, then the value; for
    /// a call: the receiver, then the arguments). Empty for instructions
    /// that pop nothing and for unreachable instructions.
    pub operands: Vec<Vec<Defs>>,
    /// Per instruction index: whether any path from the entry reaches it.
    pub reachable: Vec<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Frame {
    locals: Vec<Defs>,
    /// Slot-wise; a wide value is two equal slots.
    stack: Vec<Defs>,
}

impl Frame {
    /// Unions `other` into `self`; whether `self` changed.
    fn merge(&mut self, other: &Frame, bci: u32) -> Result<bool, DataFlowError> {
        if self.stack.len() != other.stack.len() {
            return Err(DataFlowError::Stack(bci));
        }
        let mut changed = false;
        for (a, b) in self.locals.iter_mut().zip(&other.locals).chain(self.stack.iter_mut().zip(&other.stack)) {
            let before = a.len();
            a.extend(b.iter().copied());
            changed |= a.len() != before;
        }
        Ok(changed)
    }

    fn pop_slots(&mut self, n: usize, bci: u32) -> Result<Vec<Defs>, DataFlowError> {
        let at = self.stack.len().checked_sub(n).ok_or(DataFlowError::Stack(bci))?;
        Ok(self.stack.split_off(at))
    }

    /// Pops values of the given sizes (deepest first), one set per value.
    fn pop_values(&mut self, sizes: &[u8], bci: u32) -> Result<Vec<Defs>, DataFlowError> {
        let total: usize = sizes.iter().map(|s| usize::from(*s)).sum();
        let slots = self.pop_slots(total, bci)?;
        let mut out = Vec::with_capacity(sizes.len());
        let mut k = 0;
        for s in sizes {
            out.push(slots[k].clone());
            k += usize::from(*s);
        }
        Ok(out)
    }

    fn push(&mut self, defs: Defs, size: u8) {
        for _ in 0..size {
            self.stack.push(defs.clone());
        }
    }
}

impl DataFlow {
    /// Simulates `insns` (decoded, bytecode-index targets) with their
    /// exception table.
    ///
    /// # Errors
    /// [`DataFlowError`] for malformed code (inconsistent stack heights,
    /// jumps between instructions, unreadable member references).
    pub fn compute(
        insns: &[Insn],
        exception_table: &[ExceptionEntry],
        cp: &ConstantPool,
        shape: MethodShape<'_>,
    ) -> Result<DataFlow, DataFlowError> {
        let index_of: HashMap<u32, usize> = insns.iter().enumerate().map(|(k, i)| (i.bci, k)).collect();
        let mut states: Vec<Option<Frame>> = vec![None; insns.len()];
        if insns.is_empty() {
            return Ok(DataFlow { operands: Vec::new(), reachable: Vec::new() });
        }
        states[0] = Some(entry_frame(shape));
        let mut work = vec![0usize];
        while let Some(k) = work.pop() {
            let Some(before) = states[k].clone() else { continue };
            let (after, _) = step(&insns[k], k, before.clone(), cp)?;
            for (target, frame) in successors(insns, k, &before, after, exception_table, &index_of)? {
                let changed = match &mut states[target] {
                    Some(s) => s.merge(&frame, insns[target].bci)?,
                    slot @ None => {
                        *slot = Some(frame);
                        true
                    }
                };
                if changed {
                    work.push(target);
                }
            }
        }
        let mut operands = Vec::with_capacity(insns.len());
        for (k, state) in states.iter().enumerate() {
            operands.push(match state {
                Some(frame) => step(&insns[k], k, frame.clone(), cp)?.1,
                None => Vec::new(),
            });
        }
        Ok(DataFlow { operands, reachable: states.iter().map(Option::is_some).collect() })
    }
}

fn entry_frame(shape: MethodShape<'_>) -> Frame {
    let mut locals = vec![Defs::new(); usize::from(shape.max_locals)];
    let mut slot = 0u16;
    let mut define = |slot: u16, size: u16| {
        for s in slot..slot + size {
            if let Some(l) = locals.get_mut(usize::from(s)) {
                l.insert(Def::Entry(slot));
            }
        }
    };
    if !shape.is_static {
        define(0, 1);
        slot = 1;
    }
    for p in split_descriptor(shape.descriptor).0 {
        let size = u16::from(size_of(p));
        define(slot, size);
        slot += size;
    }
    Frame { locals, stack: Vec::new() }
}

/// Slots a value of field descriptor `d` takes: 2 for `J` and `D`, else 1
/// (0 for `V`).
fn size_of(d: &str) -> u8 {
    match d.as_bytes().first() {
        Some(b'J' | b'D') => 2,
        Some(b'V') | None => 0,
        _ => 1,
    }
}

/// The frames after instruction `k` flows into: the next instruction, jump
/// targets, and the handlers that cover it (with the stack replaced by the
/// caught exception, and the locals from before and after the instruction).
fn successors(
    insns: &[Insn],
    k: usize,
    before: &Frame,
    after: Frame,
    exception_table: &[ExceptionEntry],
    index_of: &HashMap<u32, usize>,
) -> Result<Vec<(usize, Frame)>, DataFlowError> {
    let insn = &insns[k];
    let mut out = Vec::new();
    let lookup = |bci: u32| index_of.get(&bci).copied().ok_or(DataFlowError::Target(bci));
    for e in exception_table.iter().filter(|e| (e.start_pc..e.end_pc).contains(&insn.bci)) {
        let h = lookup(e.handler_pc)?;
        let mut locals = before.locals.clone();
        for (l, a) in locals.iter_mut().zip(&after.locals) {
            l.extend(a.iter().copied());
        }
        out.push((h, Frame { locals, stack: vec![Defs::from([Def::Caught(h)])] }));
    }
    if !matches!(insn.opcode, op::RET) {
        for t in insn.targets() {
            out.push((lookup(t)?, after.clone()));
        }
    }
    if insn.falls_through() && k + 1 < insns.len() {
        out.push((k + 1, after));
    }
    Ok(out)
}

/// Runs one instruction on `frame`: the frame after it, and the values it
/// popped (deepest first).
fn step(insn: &Insn, k: usize, mut frame: Frame, cp: &ConstantPool) -> Result<(Frame, Vec<Defs>), DataFlowError> {
    let bci = insn.bci;
    let o = insn.opcode;
    if let Some(slot) = local_index(insn).map(usize::from) {
        match o {
            op::ILOAD..=op::ALOAD | op::ILOAD_0..=op::ALOAD_3 => {
                let size = if matches!(o, op::LLOAD | op::DLOAD | op::LLOAD_0..=op::LLOAD_3 | op::DLOAD_0..=op::DLOAD_3)
                {
                    2
                } else {
                    1
                };
                let defs = frame.locals.get(slot).cloned().unwrap_or_default();
                frame.push(defs, size);
                return Ok((frame, Vec::new()));
            }
            op::ISTORE..=op::ASTORE | op::ISTORE_0..=op::ASTORE_3 => {
                let wide =
                    matches!(o, op::LSTORE | op::DSTORE | op::LSTORE_0..=op::LSTORE_3 | op::DSTORE_0..=op::DSTORE_3);
                let size = if wide { 2 } else { 1 };
                let popped = frame.pop_values(&[size], bci)?;
                for s in slot..slot + usize::from(size) {
                    if let Some(l) = frame.locals.get_mut(s) {
                        l.clone_from(&popped[0]);
                    }
                }
                return Ok((frame, popped));
            }
            op::IINC => {
                if let Some(l) = frame.locals.get_mut(slot) {
                    *l = Defs::from([Def::Insn(k)]);
                }
                return Ok((frame, Vec::new()));
            }
            _ => return Ok((frame, Vec::new())), // ret
        }
    }
    if let Some(popped) = shuffle(o, &mut frame, bci)? {
        return Ok((frame, popped));
    }
    let (pops, push) = effect(insn, cp)?;
    let popped = frame.pop_values(&pops, bci)?;
    frame.push(Defs::from([Def::Insn(k)]), push);
    Ok((frame, popped))
}

/// `pop`, `pop2`, the `dup` forms and `swap`, slot-wise (JVMS §6.5); `None`
/// for other opcodes. They pop nothing a slice follows.
fn shuffle(o: u8, frame: &mut Frame, bci: u32) -> Result<Option<Vec<Defs>>, DataFlowError> {
    // (slots taken from the top, the order they are pushed back as indices into them)
    let (n, order): (usize, &[usize]) = match o {
        op::POP => (1, &[]),
        op::POP2 => (2, &[]),
        op::DUP => (1, &[0, 0]),
        op::DUP_X1 => (2, &[1, 0, 1]),
        op::DUP_X2 => (3, &[2, 0, 1, 2]),
        op::DUP2 => (2, &[0, 1, 0, 1]),
        op::DUP2_X1 => (3, &[1, 2, 0, 1, 2]),
        op::DUP2_X2 => (4, &[2, 3, 0, 1, 2, 3]),
        op::SWAP => (2, &[1, 0]),
        _ => return Ok(None),
    };
    let slots = frame.pop_slots(n, bci)?;
    frame.stack.extend(order.iter().map(|&i| slots[i].clone()));
    Ok(Some(Vec::new()))
}

/// Sizes of the values an instruction pops (deepest first) and of the value
/// it pushes (0 for none), for every opcode but loads, stores, `iinc`,
/// `ret` and the stack shuffles.
fn effect(insn: &Insn, cp: &ConstantPool) -> Result<(Vec<u8>, u8), DataFlowError> {
    let o = insn.opcode;
    let by_family = |base: u8| if (o - base) % 2 == 1 { 2 } else { 1 }; // i l f d order: odd offsets are wide
    Ok(match o {
        op::NOP | op::GOTO | op::GOTO_W | op::RETURN => (vec![], 0),
        op::ACONST_NULL..=op::ICONST_5
        | op::FCONST_0..=op::FCONST_2
        | op::BIPUSH
        | op::SIPUSH
        | op::LDC
        | op::LDC_W => (vec![], 1),
        op::LCONST_0 | op::LCONST_1 | op::DCONST_0 | op::DCONST_1 | op::LDC2_W => (vec![], 2),
        op::LALOAD | op::DALOAD => (vec![1, 1], 2),
        op::IALOAD..=op::SALOAD => (vec![1, 1], 1),
        op::LASTORE | op::DASTORE => (vec![1, 1, 2], 0),
        op::IASTORE..=op::SASTORE => (vec![1, 1, 1], 0),
        op::IADD..=op::DREM => {
            let s = by_family(op::IADD);
            (vec![s, s], s)
        }
        op::INEG..=op::DNEG => {
            let s = by_family(op::INEG);
            (vec![s], s)
        }
        op::ISHL | op::ISHR | op::IUSHR => (vec![1, 1], 1),
        op::LSHL | op::LSHR | op::LUSHR => (vec![2, 1], 2),
        op::IAND | op::IOR | op::IXOR => (vec![1, 1], 1),
        op::LAND | op::LOR | op::LXOR => (vec![2, 2], 2),
        op::I2L | op::I2D | op::F2L | op::F2D => (vec![1], 2),
        op::I2F | op::F2I | op::I2B | op::I2C | op::I2S => (vec![1], 1),
        op::L2I | op::L2F | op::D2I | op::D2F => (vec![2], 1),
        op::L2D | op::D2L => (vec![2], 2),
        op::LCMP | op::DCMPL | op::DCMPG => (vec![2, 2], 1),
        op::FCMPL | op::FCMPG => (vec![1, 1], 1),
        op::IFEQ..=op::IFLE | op::IFNULL | op::IFNONNULL => (vec![1], 0),
        op::IF_ICMPEQ..=op::IF_ACMPNE => (vec![1, 1], 0),
        op::JSR | op::JSR_W => (vec![], 1),
        op::TABLESWITCH | op::LOOKUPSWITCH => (vec![1], 0),
        op::IRETURN | op::FRETURN | op::ARETURN | op::ATHROW | op::MONITORENTER | op::MONITOREXIT => (vec![1], 0),
        op::LRETURN | op::DRETURN => (vec![2], 0),
        op::GETSTATIC..=op::INVOKEINTERFACE => member_effect(insn, cp)?,
        op::INVOKEDYNAMIC => {
            let descriptor = indy_descriptor(insn, cp).ok_or(DataFlowError::Constant(insn.bci))?;
            call_effect(descriptor, false)
        }
        op::NEW => (vec![], 1),
        op::NEWARRAY | op::ANEWARRAY | op::ARRAYLENGTH | op::CHECKCAST | op::INSTANCEOF => (vec![1], 1),
        op::MULTIANEWARRAY => match insn.operand {
            Operand::MultiANewArray { dims, .. } => (vec![1; usize::from(dims)], 1),
            _ => return Err(DataFlowError::Constant(insn.bci)),
        },
        _ => return Err(DataFlowError::Constant(insn.bci)),
    })
}

fn member_effect(insn: &Insn, cp: &ConstantPool) -> Result<(Vec<u8>, u8), DataFlowError> {
    let m = member(cp, insn).ok_or(DataFlowError::Constant(insn.bci))?;
    let field = size_of(m.descriptor);
    Ok(match insn.opcode {
        op::GETSTATIC => (vec![], field),
        op::PUTSTATIC => (vec![field], 0),
        op::GETFIELD => (vec![1], field),
        op::PUTFIELD => (vec![1, field], 0),
        op::INVOKESTATIC => call_effect(m.descriptor, false),
        _ => call_effect(m.descriptor, true),
    })
}

fn call_effect(descriptor: &str, receiver: bool) -> (Vec<u8>, u8) {
    let (params, ret) = split_descriptor(descriptor);
    let mut pops: Vec<u8> = receiver.then_some(1).into_iter().collect();
    pops.extend(params.iter().map(|p| size_of(p)));
    (pops, size_of(ret))
}

/// The descriptor of an `invokedynamic` call site.
pub(crate) fn indy_descriptor<'a>(insn: &Insn, cp: &'a ConstantPool) -> Option<&'a str> {
    let Operand::InvokeDynamic { index } = insn.operand else { return None };
    match cp.get(index).ok()? {
        Constant::InvokeDynamic { name_and_type, .. } => Some(cp.name_and_type(*name_and_type).ok()?.1),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
