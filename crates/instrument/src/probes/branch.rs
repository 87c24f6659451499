//! Branch probes: record the operands of each conditional jump that is a
//! goal (TECHNIQUES.md §0: graded branch distances for both sides).
//!
//! `if_icmpXX` and `ifXX` get `dup2`/`dup` + `Tracer.cmpII`/`cmpI` before
//! them; reference compares get `cmpAA`/`cmpA`. When the jump directly
//! follows `lcmp`, `fcmpl/g` or `dcmpl/g` (and nothing else jumps to it),
//! the compare itself is replaced by the tracer method of the same stack
//! effect, which records the original operands under the jump's id, so the
//! distance is not collapsed to -1/0/1.

use model::bytecode::{Insn, op};
use model::classfile::ClassFileError;

use crate::plan::ProbePlan;
use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::{self, TracerMethod};

/// Records the k-th planned conditional jump under id `base + k`.
pub struct BranchProbes<'a> {
    /// The class's probe plan.
    pub plan: &'a ProbePlan,
    /// Global id of the kind's first site in this class.
    pub base: u32,
}

/// The tracer method that replaces a compare instruction, if it is one.
fn compare_replacement(opcode: u8) -> Option<TracerMethod> {
    Some(match opcode {
        op::LCMP => tracer::LCMP,
        op::FCMPL => tracer::FCMPL,
        op::FCMPG => tracer::FCMPG,
        op::DCMPL => tracer::DCMPL,
        op::DCMPG => tracer::DCMPG,
        _ => return None,
    })
}

/// The `dup` form and tracer method that record a jump's operands.
fn operand_probe(opcode: u8) -> (u8, TracerMethod) {
    match opcode {
        op::IF_ICMPEQ..=op::IF_ICMPLE => (op::DUP2, tracer::CMP_II),
        op::IF_ACMPEQ | op::IF_ACMPNE => (op::DUP2, tracer::CMP_AA),
        op::IFNULL | op::IFNONNULL => (op::DUP, tracer::CMP_A),
        _ => (op::DUP, tracer::CMP_I),
    }
}

impl ProbeKind for BranchProbes<'_> {
    fn name(&self) -> &'static str {
        "branch"
    }

    fn extra_stack(&self) -> u16 {
        3
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let sites = ProbePlan::index_sites(&self.plan.branches, ctx.method_index);
        let mut out = Vec::new();
        for (index, insn) in ctx.insns.iter().enumerate() {
            let Some(k) = sites.get(&insn.bci).filter(|_| insn.is_conditional_jump()) else { continue };
            let id = self.base + k;
            if let Some(replaced) = fused_compare(ctx, index) {
                let m = compare_replacement(ctx.insns[replaced].opcode).expect("fused compare");
                out.push((replaced, Edit::Replace(vec![emit.push_int(id as i32)?, emit.call(m)?])));
            } else {
                let (dup, m) = operand_probe(insn.opcode);
                out.push((index, Edit::Before(emit.probe(Some(dup), id, m)?)));
            }
        }
        Ok(out)
    }
}

/// The index of the compare instruction feeding the `ifXX` at `index`,
/// when it can be replaced: it directly precedes the jump and nothing else
/// reaches the jump.
fn fused_compare(ctx: &MethodContext<'_>, index: usize) -> Option<usize> {
    let jump: &Insn = &ctx.insns[index];
    if !(op::IFEQ..=op::IFLE).contains(&jump.opcode) || index == 0 || ctx.is_target[index] {
        return None;
    }
    compare_replacement(ctx.insns[index - 1].opcode).map(|_| index - 1)
}
