//! Exit rewriting: `System.exit(int)`, `Runtime.exit(int)` and
//! `Runtime.halt(int)` become calls of the sandbox that throw
//! `Sandbox.ExitRequested` instead of ending the JVM. The replacement has
//! the same stack effect (`Runtime` receiver becomes the first argument).

use model::bytecode::{Operand, op};
use model::classfile::ClassFileError;
use model::constant_pool::ConstantPool;

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::{TracerMethod, sandbox};

/// Rewrites calls that would terminate the JVM.
pub struct ExitRewrite {
    /// Constant-pool indices of the terminating method references, with
    /// the call opcode they must appear with and their replacement.
    targets: Vec<(u16, u8, TracerMethod)>,
}

impl ExitRewrite {
    /// Finds the terminating method references of a class's constant pool.
    pub fn new(constant_pool: &ConstantPool) -> ExitRewrite {
        let targets = constant_pool
            .iter()
            .filter_map(|(index, _)| {
                let r = constant_pool.member_ref(index).ok()?;
                let (opcode, m) = match (r.owner, r.name, r.descriptor) {
                    ("java/lang/System", "exit", "(I)V") => (op::INVOKESTATIC, sandbox::EXIT),
                    ("java/lang/Runtime", "exit", "(I)V") => (op::INVOKEVIRTUAL, sandbox::RUNTIME_EXIT),
                    ("java/lang/Runtime", "halt", "(I)V") => (op::INVOKEVIRTUAL, sandbox::RUNTIME_HALT),
                    _ => return None,
                };
                Some((index, opcode, m))
            })
            .collect();
        ExitRewrite { targets }
    }

    /// The sandbox replacement of a call instruction, if it terminates the JVM.
    fn replacement(&self, opcode: u8, operand: &Operand) -> Option<TracerMethod> {
        let Operand::Constant(index) = operand else { return None };
        self.targets.iter().find(|(i, o, _)| i == index && *o == opcode).map(|(_, _, m)| *m)
    }
}

impl ProbeKind for ExitRewrite {
    fn name(&self) -> &'static str {
        "exit"
    }

    fn extra_stack(&self) -> u16 {
        0
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out = Vec::new();
        for (index, insn) in ctx.insns.iter().enumerate() {
            if self.targets.is_empty() {
                break;
            }
            if let Some(m) = self.replacement(insn.opcode, &insn.operand) {
                out.push((index, Edit::Replace(vec![emit.call(m)?])));
            }
        }
        Ok(out)
    }
}
