//! Method-entry probes: `Tracer.method(id)` as a prologue.

use model::classfile::ClassFileError;

use crate::plan::ProbePlan;
use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer;

/// Inserts `Tracer.method(base + k)` at the entry of the k-th planned method.
pub struct MethodEntryProbes<'a> {
    /// The class's probe plan.
    pub plan: &'a ProbePlan,
    /// Global id of the kind's first site in this class.
    pub base: u32,
}

impl ProbeKind for MethodEntryProbes<'_> {
    fn name(&self) -> &'static str {
        "method"
    }

    fn extra_stack(&self) -> u16 {
        1
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let Some(k) = self.plan.methods.iter().position(|m| *m == ctx.method_index) else {
            return Ok(vec![]);
        };
        let snippet = emit.probe(None, self.base + k as u32, tracer::METHOD)?;
        Ok(vec![(0, Edit::Prologue(snippet))])
    }
}
