//! Commit probes: `Tracer.line(id)` before each of JaCoCo's probe points
//! that a branch goal's rule needs (`analysis::commit`), so the goal map
//! counts a branch side only when the code after it reached the point
//! where JaCoCo would record it.
//!
//! The ids are line-kind ids after the class's line probes
//! ([`ProbePlan::commit_probe_id`]): the tracer, the trace and the worker
//! protocol carry them as they carry line hits.

use model::classfile::ClassFileError;

use crate::plan::{ProbeBases, ProbePlan};
use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer;

/// Inserts `Tracer.line(id)` before each commit point of the method.
pub struct CommitProbes<'a> {
    /// The class's probe plan (its `commits.points`).
    pub plan: &'a ProbePlan,
    /// The class's probe bases.
    pub bases: ProbeBases,
}

impl ProbeKind for CommitProbes<'_> {
    fn name(&self) -> &'static str {
        "commit"
    }

    fn extra_stack(&self) -> u16 {
        1
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out = Vec::new();
        for (k, point) in self.plan.commits.points.iter().enumerate() {
            if point.method_index != ctx.method_index {
                continue;
            }
            let Some(index) = ctx.insns.iter().position(|i| i.bci == point.bci) else { continue };
            let id = self.plan.commit_probe_id(self.bases, k as u32);
            out.push((index, Edit::Before(emit.probe(None, id, tracer::LINE)?)));
        }
        Ok(out)
    }
}
