//! Switch probes: `Tracer.switchValue(key, id)` before each planned switch.

use model::bytecode::op;
use model::classfile::ClassFileError;

use crate::plan::ProbePlan;
use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer;

/// Records the key of the k-th planned switch under id `base + k`.
pub struct SwitchProbes<'a> {
    /// The class's probe plan.
    pub plan: &'a ProbePlan,
    /// Global id of the kind's first site in this class.
    pub base: u32,
}

impl ProbeKind for SwitchProbes<'_> {
    fn name(&self) -> &'static str {
        "switch"
    }

    fn extra_stack(&self) -> u16 {
        2
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let sites = ProbePlan::index_sites(&self.plan.switches, ctx.method_index);
        let mut out = Vec::new();
        for (index, insn) in ctx.insns.iter().enumerate() {
            if let Some(k) = sites.get(&insn.bci).filter(|_| insn.is_switch()) {
                out.push((index, Edit::Before(emit.probe(Some(op::DUP), self.base + k, tracer::SWITCH_VALUE)?)));
            }
        }
        Ok(out)
    }
}
