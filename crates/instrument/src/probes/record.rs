//! Recording probes (Palus's sample execution, TECHNIQUES.md §4 step 1, and
//! ZoomIn's value tracing, §3 step 1): a prologue that passes the method's
//! id, receiver and boxed arguments to the sink's `enter`, and before every
//! return the boxed result to its `exit` (or `exitVoid`). Constructors pass
//! no receiver on entry (`this` is not initialised yet) and `this` on exit.
//! The sink is `Recorder` ([`Sink::RECORDER`]) or `ValueTracer`
//! ([`Sink::VALUE_TRACER`]), which also gets a `line(n)` call where each
//! line of the line-number table starts.
//!
//! Both snippets are straight-line and stack-neutral: the prologue builds
//! an `Object[]` of the parameters from their locals, the exit snippet
//! duplicates the return value before boxing it.

use model::bytecode::{Insn, Operand, op};
use model::classfile::ClassFileError;
use model::descriptor::{BaseType, FieldType, MethodDescriptor};

use super::{load_opcode, local};
use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::{TracerMethod, recorder, value_tracer};

/// The runtime class the recording snippets call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sink {
    /// `enter(int method, Object receiver, Object[] args)`.
    pub enter: TracerMethod,
    /// `exit(Object result, int method, Object receiver)`.
    pub exit: TracerMethod,
    /// `exitVoid(int method, Object receiver)`.
    pub exit_void: TracerMethod,
    /// `line(int line)` before each line-number-table row, when given.
    pub line: Option<TracerMethod>,
}

impl Sink {
    /// Palus's call recorder (`Recorder.java`).
    pub const RECORDER: Sink =
        Sink { enter: recorder::ENTER, exit: recorder::EXIT, exit_void: recorder::EXIT_VOID, line: None };
    /// ZoomIn's value tracer (`ValueTracer.java`), with line probes.
    pub const VALUE_TRACER: Sink = Sink {
        enter: value_tracer::ENTER,
        exit: value_tracer::EXIT,
        exit_void: value_tracer::EXIT_VOID,
        line: Some(value_tracer::LINE),
    };
}

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
    /// What the snippets call.
    pub sink: Sink,
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
        let mut out = vec![(0, Edit::Prologue(entry(site, self.sink, emit)?))];
        if let Some(line) = self.sink.line {
            let mut done = std::collections::HashSet::new();
            for &(index, number) in ctx.line_starts {
                // Several rows may start at one instruction; call once per line there.
                if done.insert((index, number)) {
                    out.push((index, Edit::Before(vec![emit.push_int(i32::from(number))?, emit.call(line)?])));
                }
            }
        }
        for (index, insn) in ctx.insns.iter().enumerate() {
            if (op::IRETURN..=op::RETURN).contains(&insn.opcode) {
                out.push((index, Edit::Before(exit(site, self.sink, insn.opcode, emit)?)));
            }
        }
        Ok(out)
    }
}

/// `enter(id, receiver, new Object[] {boxed parameters})`.
fn entry(site: &RecordSite, sink: Sink, emit: &mut Emitter<'_>) -> Result<Vec<Insn>, ClassFileError> {
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
    code.push(emit.call(sink.enter)?);
    Ok(code)
}

/// Before a return: `exit(boxed copy of the result, id, receiver)` or
/// `exitVoid(id, receiver)`.
fn exit(site: &RecordSite, sink: Sink, opcode: u8, emit: &mut Emitter<'_>) -> Result<Vec<Insn>, ClassFileError> {
    let mut code = Vec::new();
    let method = match (&site.descriptor.ret, opcode) {
        (Some(t), op::IRETURN..=op::ARETURN) => {
            code.push(Emitter::simple(if t.slots() == 2 { op::DUP2 } else { op::DUP }));
            if let Some(b) = boxing(t) {
                code.push(emit.call(b)?);
            }
            sink.exit
        }
        _ => sink.exit_void,
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
