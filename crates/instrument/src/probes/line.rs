//! Line probes: `Tracer.line(id)` before the first instruction of each
//! line-number-table row whose line is a goal.

use model::classfile::ClassFileError;

use crate::plan::ProbePlan;
use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer;

/// Inserts `Tracer.line(base + k)` where the k-th planned line starts.
pub struct LineProbes<'a> {
    /// The class's probe plan.
    pub plan: &'a ProbePlan,
    /// Global id of the kind's first site in this class.
    pub base: u32,
}

impl ProbeKind for LineProbes<'_> {
    fn name(&self) -> &'static str {
        "line"
    }

    fn extra_stack(&self) -> u16 {
        1
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out: Vec<(usize, Edit)> = Vec::new();
        let mut done = std::collections::HashSet::new();
        for (index, line) in ctx.line_starts {
            let Some(k) = self.plan.lines.iter().position(|l| l == line) else { continue };
            // Several rows may start at one instruction; probe each line once there.
            if done.insert((*index, *line)) {
                out.push((*index, Edit::Before(emit.probe(None, self.base + k as u32, tracer::LINE)?)));
            }
        }
        Ok(out)
    }
}
