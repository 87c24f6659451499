//! Recording probes (Palus's sample execution, TECHNIQUES.md §4 step 1): a
//! prologue that passes the method's id, receiver and boxed arguments to
//! `Recorder.enter`, and before every return the boxed result to
//! `Recorder.exit` (or `Recorder.exitVoid`). Constructors pass no receiver
//! on entry (`this` is not initialised yet) and `this` on exit.
//!
//! Both snippets are straight-line and stack-neutral: the prologue builds
//! an `Object[]` of the parameters from their locals, the exit snippet
//! duplicates the return value before boxing it.

use model::bytecode::{Insn, Operand, op};
use model::classfile::ClassFileError;
use model::descriptor::{BaseType, FieldType, MethodDescriptor};

use super::{load_opcode, local};
use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::{TracerMethod, recorder};

/// A method the recording probes instrument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordSite {
    /// Index of the method in the class file's method table.
    pub method_index: u16,
    /// The id `Recorder` writes for it.
    pub id: u32,
    /// Its parameter and return types.
    pub descriptor: MethodDescriptor,
    /// Whether it is static (no receiver).
    pub is_static: bool,
    /// Whether it is a constructor (receiver only on exit).
    pub is_constructor: bool,
}

/// Inserts the recording snippets into the methods of [`RecordProbes::sites`].
pub struct RecordProbes {
    /// The methods to record.
    pub sites: Vec<RecordSite>,
}

impl ProbeKind for RecordProbes {
    fn name(&self) -> &'static str {
        "record"
    }

    fn extra_stack(&self) -> u16 {
        // id, receiver, array, array, index, a long or double value
        7
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let Some(site) = self.sites.iter().find(|s| s.method_index == ctx.method_index) else {
            return Ok(Vec::new());
        };
        let mut out = vec![(0, Edit::Prologue(entry(site, emit)?))];
        for (index, insn) in ctx.insns.iter().enumerate() {
            if (op::IRETURN..=op::RETURN).contains(&insn.opcode) {
                out.push((index, Edit::Before(exit(site, insn.opcode, emit)?)));
            }
        }
        Ok(out)
    }
}

/// `Recorder.enter(id, receiver, new Object[] {boxed parameters})`.
fn entry(site: &RecordSite, emit: &mut Emitter<'_>) -> Result<Vec<Insn>, ClassFileError> {
    let mut code = vec![emit.push_int(site.id as i32)?];
    code.push(receiver(site, true));
    code.push(emit.push_int(site.descriptor.params.len() as i32)?);
    let object = emit.constant_pool.add_class("java/lang/Object")?;
    code.push(Insn { bci: 0, opcode: op::ANEWARRAY, operand: Operand::Constant(object) });
    let mut slot: u16 = if site.is_static { 0 } else { 1 };
    for (i, t) in site.descriptor.params.iter().enumerate() {
        code.push(Emitter::simple(op::DUP));
        code.push(emit.push_int(i as i32)?);
        code.push(local(load_opcode(t), slot));
        if let Some(b) = boxing(t) {
            code.push(emit.call(b)?);
        }
        code.push(Emitter::simple(op::AASTORE));
        slot += u16::from(t.slots());
    }
    code.push(emit.call(recorder::ENTER)?);
    Ok(code)
}

/// Before a return: `Recorder.exit(boxed copy of the result, id, receiver)`
/// or `Recorder.exitVoid(id, receiver)`.
fn exit(site: &RecordSite, opcode: u8, emit: &mut Emitter<'_>) -> Result<Vec<Insn>, ClassFileError> {
    let mut code = Vec::new();
    let method = match (&site.descriptor.ret, opcode) {
        (Some(t), op::IRETURN..=op::ARETURN) => {
            code.push(Emitter::simple(if t.slots() == 2 { op::DUP2 } else { op::DUP }));
            if let Some(b) = boxing(t) {
                code.push(emit.call(b)?);
            }
            recorder::EXIT
        }
        _ => recorder::EXIT_VOID,
    };
    code.push(emit.push_int(site.id as i32)?);
    code.push(receiver(site, false));
    code.push(emit.call(method)?);
    Ok(code)
}

/// `aload_0` for an instance method (and a constructor on exit), else `aconst_null`.
fn receiver(site: &RecordSite, on_entry: bool) -> Insn {
    if site.is_static || (site.is_constructor && on_entry) {
        Emitter::simple(op::ACONST_NULL)
    } else {
        local(op::ALOAD, 0)
    }
}

/// The `valueOf` that boxes a primitive of type `t`; `None` for references.
fn boxing(t: &FieldType) -> Option<TracerMethod> {
    let FieldType::Base(b) = t else { return None };
    let (owner, descriptor) = match b {
        BaseType::Boolean => ("java/lang/Boolean", "(Z)Ljava/lang/Boolean;"),
        BaseType::Byte => ("java/lang/Byte", "(B)Ljava/lang/Byte;"),
        BaseType::Char => ("java/lang/Character", "(C)Ljava/lang/Character;"),
        BaseType::Short => ("java/lang/Short", "(S)Ljava/lang/Short;"),
        BaseType::Int => ("java/lang/Integer", "(I)Ljava/lang/Integer;"),
        BaseType::Long => ("java/lang/Long", "(J)Ljava/lang/Long;"),
        BaseType::Float => ("java/lang/Float", "(F)Ljava/lang/Float;"),
        BaseType::Double => ("java/lang/Double", "(D)Ljava/lang/Double;"),
    };
    Some(TracerMethod { owner, name: "valueOf", descriptor })
}
