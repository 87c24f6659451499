//! The probe layer: what a probe kind is and how it asks for code.
//!
//! A [`ProbeKind`] looks at one method at a time and returns [`Edit`]s keyed
//! by instruction index. The rewriter ([`crate::rewrite`]) applies the edits
//! of all kinds and fixes every offset. A new probe kind (KAT call-site
//! checks, value logging for DSE and ZoomIn) is a new implementation of the
//! trait plus its tracer methods; existing kinds are not touched.
//!
//! Snippets must be stack-neutral straight-line code: no jumps, and the
//! operand stack after a `Before` or `After` snippet equals the stack before it. That is
//! why no new stack-map frames are needed. The one exception: a `Replace`
//! of a conditional jump may end with a conditional jump to the same target
//! (given as an original instruction index), which needs no new frame either.

use model::bytecode::{Insn, Operand, op};
use model::classfile::ClassFileError;
use model::constant_pool::{Constant, ConstantPool};

use crate::tracer::TracerMethod;

/// A change to one original instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Code run before the instruction. Jumps to the instruction land on
    /// the snippet, so every path to the instruction runs it.
    Before(Vec<Insn>),
    /// Code that replaces the instruction and has the same stack effect.
    /// Straight-line, except that the replacement of a conditional jump may
    /// end with one conditional jump whose target is an original instruction
    /// index: the replaced jump's own target (checked by the rewriter).
    Replace(Vec<Insn>),
    /// Code run once on method entry (only valid at index 0): it is placed
    /// before everything and is never a jump target, so a loop back to the
    /// first instruction does not run it again.
    Prologue(Vec<Insn>),
    /// Code run after an invoke instruction (or its replacement) returns
    /// normally, or after a `getfield`/`getstatic`: the snippet sees the
    /// value on top of the stack and must leave the stack as it found it.
    /// Jumps to the next instruction skip it; an exception thrown by the
    /// instruction skips it too. Only valid on those instructions (checked
    /// by the rewriter).
    After(Vec<Insn>),
}

/// What a probe kind sees of the method being instrumented.
pub struct MethodContext<'a> {
    /// Index of the method in the class file's method table.
    pub method_index: u16,
    /// The decoded instructions (targets are bytecode indices).
    pub insns: &'a [Insn],
    /// Whether the instruction at each index is the target of a jump,
    /// switch or exception handler.
    pub is_target: &'a [bool],
    /// Line-number table rows: (instruction index, line).
    pub line_starts: &'a [(usize, u16)],
    /// The method's `max_locals`: snippets that need locals of their own
    /// use indices from here on ([`ProbeKind::extra_locals`]).
    pub max_locals: u16,
}

/// One kind of probe.
pub trait ProbeKind {
    /// A short name for diagnostics ("branch", "line").
    fn name(&self) -> &'static str;
    /// Extra operand-stack slots the snippets of this kind need at most.
    fn extra_stack(&self) -> u16;
    /// Local-variable slots past the method's own (from
    /// [`MethodContext::max_locals`]) the snippets of this kind use at most;
    /// snippets of different kinds may reuse them (each snippet is
    /// straight-line and leaves nothing there that a later one reads).
    fn extra_locals(&self) -> u16 {
        0
    }
    /// The edits this kind makes to the method, keyed by instruction index.
    ///
    /// # Errors
    /// [`ClassFileError`] when the constant pool is full.
    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError>;
}

/// A reference to a probe kind is a probe kind, so a caller can keep the
/// kind (and what it recorded) while the rewriter uses it.
impl<T: ProbeKind + ?Sized> ProbeKind for &T {
    fn name(&self) -> &'static str {
        (**self).name()
    }

    fn extra_stack(&self) -> u16 {
        (**self).extra_stack()
    }

    fn extra_locals(&self) -> u16 {
        (**self).extra_locals()
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        (**self).edits(ctx, emit)
    }
}

/// Builds snippet instructions, adding constant-pool entries as needed.
pub struct Emitter<'a> {
    /// The pool of the class being rewritten; entries are appended.
    pub constant_pool: &'a mut ConstantPool,
}

impl Emitter<'_> {
    /// An instruction without operand.
    pub fn simple(opcode: u8) -> Insn {
        Insn { bci: 0, opcode, operand: Operand::None }
    }

    /// Pushes the int constant `v` with the shortest instruction.
    ///
    /// # Errors
    /// [`ClassFileError`] when the constant pool is full.
    pub fn push_int(&mut self, v: i32) -> Result<Insn, ClassFileError> {
        Ok(match v {
            -1..=5 => Self::simple((op::ICONST_0 as i32 + v) as u8),
            -128..=127 => Insn { bci: 0, opcode: op::BIPUSH, operand: Operand::Int(v) },
            -32768..=32767 => Insn { bci: 0, opcode: op::SIPUSH, operand: Operand::Int(v) },
            _ => {
                let index = self.constant_pool.add(Constant::Integer(v))?;
                let opcode = if index <= 255 { op::LDC } else { op::LDC_W };
                Insn { bci: 0, opcode, operand: Operand::Constant(index) }
            }
        })
    }

    /// `invokestatic` of a runtime method (tracer or sandbox).
    ///
    /// # Errors
    /// [`ClassFileError`] when the constant pool is full.
    pub fn call(&mut self, m: TracerMethod) -> Result<Insn, ClassFileError> {
        let index = self.constant_pool.add_method_ref(m.owner, m.name, m.descriptor, false)?;
        Ok(Insn { bci: 0, opcode: op::INVOKESTATIC, operand: Operand::Constant(index) })
    }

    /// `[dup_opcode?] push(id) invokestatic m`: the usual probe snippet.
    ///
    /// # Errors
    /// [`ClassFileError`] when the constant pool is full.
    pub fn probe(&mut self, dup_opcode: Option<u8>, id: u32, m: TracerMethod) -> Result<Vec<Insn>, ClassFileError> {
        let mut out = Vec::with_capacity(3);
        if let Some(d) = dup_opcode {
            out.push(Self::simple(d));
        }
        out.push(self.push_int(id as i32)?);
        out.push(self.call(m)?);
        Ok(out)
    }
}
