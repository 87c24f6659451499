//! Loop back-edge checks: `Sandbox.checkTimeout()` before every jump to an
//! earlier (or the same) instruction. Once the worker's watchdog declares
//! the test out of time, the check throws `Sandbox.TimeUp`, which ends
//! loops that survive `Thread.stop()` by catching `Throwable` inside the
//! loop body (the check sits outside the body's try range).

use model::classfile::ClassFileError;

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::sandbox;

/// Inserts a timeout check before each backward jump.
pub struct LoopCheck;

impl ProbeKind for LoopCheck {
    fn name(&self) -> &'static str {
        "loop-check"
    }

    fn extra_stack(&self) -> u16 {
        0
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out = Vec::new();
        for (index, insn) in ctx.insns.iter().enumerate() {
            if insn.targets().iter().any(|t| *t <= insn.bci) {
                out.push((index, Edit::Before(vec![emit.call(sandbox::CHECK_TIMEOUT)?])));
            }
        }
        Ok(out)
    }
}
