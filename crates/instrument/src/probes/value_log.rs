//! Value logging for TARDIS's concolic replay: after each call from
//! instrumented code into code that is not instrumented (the JDK, other
//! classes of the class path, arrays, `invokedynamic`), and after each read
//! of a field of a class that is not instrumented, the value goes to
//! `ValueLog` with the site's id, so the replay can go on past
//! the call with the value the JVM computed instead of stopping there. The
//! replay runs exactly the instrumented code when it has a log.
//!
//! [`logged_value`] is the site rule. The replay applies the same rule to
//! the same (original) class file, so both sides number the sites alike:
//! [`ValueLogProbes::plan`] lists them in (method index, bytecode index)
//! order, with ids from a base.

use std::collections::HashMap;

use model::bytecode::{Insn, Operand, op};
use model::classfile::{ClassFile, ClassFileError};
use model::constant_pool::{Constant, ConstantPool};
use model::descriptor::{BaseType, FieldType, MethodDescriptor};

use crate::plan::PlanError;
use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::{TracerMethod, value_log};

/// Calls the replay always models and that run often (boxing in loops):
/// not logged, to save the log's cap. Owner, name (any descriptor). The
/// `String` methods the replay models are logged all the same: a string
/// the replay cannot look into (made by `new String(..)`) needs them.
const MODELLED: &[(&str, &str)] = &[
    ("java/lang/Integer", "valueOf"),
    ("java/lang/Integer", "intValue"),
    ("java/lang/Long", "valueOf"),
    ("java/lang/Long", "longValue"),
    ("java/lang/Character", "valueOf"),
    ("java/lang/Character", "charValue"),
    ("java/lang/Boolean", "valueOf"),
    ("java/lang/Boolean", "booleanValue"),
];

/// The type of the value of `insn` (a call's result, a field read) when it
/// is logged, else `None`. `next` is the instruction after it; `method_name` the name of
/// the method that contains it; `instrumented` tells whether a class
/// (internal name) is instrumented with these probes.
///
/// The rule: an `invokedynamic`, an `invoke*` of a method (not a
/// constructor) of an array or of a class that is not `instrumented`, or a
/// `getfield`/`getstatic` of a field of such a class, whose value the code
/// uses (the next instruction is no `pop`/`pop2`),
/// outside `<clinit>` (the workers re-run an uninstrumented copy of it
/// before each test), and not one of the always-modelled hot calls.
pub fn logged_value(
    pool: &ConstantPool,
    insn: &Insn,
    next: Option<&Insn>,
    method_name: &str,
    instrumented: &dyn Fn(&str) -> bool,
) -> Option<FieldType> {
    if method_name == "<clinit>" || next.is_some_and(|n| matches!(n.opcode, op::POP | op::POP2)) {
        return None;
    }
    let descriptor = match (insn.opcode, &insn.operand) {
        (op::INVOKEDYNAMIC, Operand::InvokeDynamic { index }) => match pool.get(*index).ok()? {
            Constant::InvokeDynamic { name_and_type, .. } => pool.name_and_type(*name_and_type).ok()?.1,
            _ => return None,
        },
        (op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC, Operand::Constant(index))
        | (op::INVOKEINTERFACE, Operand::InvokeInterface { index, .. }) => {
            let member = pool.member_ref(*index).ok()?;
            let outside = member.owner.starts_with('[') || !instrumented(member.owner);
            let modelled = MODELLED.iter().any(|(o, n)| member.owner == *o && member.name == *n);
            if !outside || modelled || member.name == "<init>" {
                return None;
            }
            member.descriptor
        }
        (op::GETFIELD | op::GETSTATIC, Operand::Constant(index)) => {
            let member = pool.member_ref(*index).ok()?;
            return if instrumented(member.owner) { None } else { FieldType::parse(member.descriptor).ok() };
        }
        _ => return None,
    };
    MethodDescriptor::parse(descriptor).ok()?.ret
}

/// One logged call site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueLogSite {
    /// Index of the method in the class file's method table.
    pub method_index: u16,
    /// Bytecode index of the call in the original code.
    pub bci: u32,
    /// The site id the events carry.
    pub id: u32,
}

/// The probe kind: an [`Edit::After`] per logged call site.
#[derive(Debug, Clone, Default)]
pub struct ValueLogProbes {
    /// The sites of the class, in (method index, bytecode index) order.
    pub sites: Vec<ValueLogSite>,
    /// Per site: its id and the call's return type.
    by_site: HashMap<(u16, u32), (u32, FieldType)>,
}

impl ValueLogProbes {
    /// The logged call sites of `cf` ([`logged_value`]), numbered from
    /// `base`; `instrumented` names the classes that get these probes.
    ///
    /// # Errors
    /// [`PlanError`] naming the method when a method cannot be decoded.
    pub fn plan(cf: &ClassFile, base: u32, instrumented: &dyn Fn(&str) -> bool) -> Result<ValueLogProbes, PlanError> {
        let (mut sites, mut by_site) = (Vec::new(), HashMap::new());
        for (index, m) in cf.methods.iter().enumerate() {
            let method_index = index as u16;
            let Some(code) = cf.code(m).map_err(|source| PlanError::ClassFile { method_index, source })? else {
                continue;
            };
            let insns =
                model::bytecode::decode(&code.code).map_err(|source| PlanError::Bytecode { method_index, source })?;
            let name = cf.member_name(m);
            for (i, insn) in insns.iter().enumerate() {
                if let Some(ret) = logged_value(&cf.constant_pool, insn, insns.get(i + 1), name, instrumented) {
                    let id = base + sites.len() as u32;
                    sites.push(ValueLogSite { method_index, bci: insn.bci, id });
                    by_site.insert((method_index, insn.bci), (id, ret));
                }
            }
        }
        Ok(ValueLogProbes { sites, by_site })
    }

    /// The id of the site at `bci` of method `method_index`, if logged.
    pub fn site(&self, method_index: u16, bci: u32) -> Option<u32> {
        self.by_site.get(&(method_index, bci)).map(|(id, _)| *id)
    }
}

/// The `dup` and the log method for a result of type `t`.
fn snippet_parts(t: &FieldType) -> (u8, TracerMethod) {
    match t {
        FieldType::Base(BaseType::Long) => (op::DUP2, value_log::LOG_J),
        FieldType::Base(BaseType::Double) => (op::DUP2, value_log::LOG_D),
        FieldType::Base(BaseType::Float) => (op::DUP, value_log::LOG_F),
        FieldType::Base(_) => (op::DUP, value_log::LOG_I),
        _ => (op::DUP, value_log::LOG_A),
    }
}

impl ProbeKind for ValueLogProbes {
    fn name(&self) -> &'static str {
        "value-log"
    }

    /// A long or double result duplicated (2 slots) and the site id (1).
    fn extra_stack(&self) -> u16 {
        3
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out = Vec::new();
        for (index, insn) in ctx.insns.iter().enumerate() {
            let Some((id, ret)) = self.by_site.get(&(ctx.method_index, insn.bci)) else { continue };
            let (dup, log) = snippet_parts(ret);
            out.push((index, Edit::After(emit.probe(Some(dup), *id, log)?)));
        }
        Ok(out)
    }
}
