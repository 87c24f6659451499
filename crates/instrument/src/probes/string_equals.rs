//! Dynamic seeding: `String.equals(Object)` calls become
//! `Tracer.stringEquals(String, Object)`, which returns the same result and
//! remembers the compared strings, so the search can reuse strings the
//! class under test compares its inputs with (EvoSuite's dynamic constant
//! pool).

use model::bytecode::{Operand, op};
use model::classfile::ClassFileError;
use model::constant_pool::ConstantPool;

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer;

/// Rewrites `invokevirtual java/lang/String.equals(Ljava/lang/Object;)Z`.
pub struct StringEquals {
    /// Constant-pool indices of `String.equals` method references.
    refs: Vec<u16>,
}

impl StringEquals {
    /// Finds the `String.equals` references of a class's constant pool.
    pub fn new(constant_pool: &ConstantPool) -> StringEquals {
        let refs = constant_pool
            .iter()
            .filter_map(|(i, _)| {
                let r = constant_pool.member_ref(i).ok()?;
                (r.owner == "java/lang/String" && r.name == "equals" && r.descriptor == "(Ljava/lang/Object;)Z")
                    .then_some(i)
            })
            .collect();
        StringEquals { refs }
    }
}

impl ProbeKind for StringEquals {
    fn name(&self) -> &'static str {
        "string-equals"
    }

    fn extra_stack(&self) -> u16 {
        0
    }

    fn edits(&self, ctx: &MethodContext<'_>, emit: &mut Emitter<'_>) -> Result<Vec<(usize, Edit)>, ClassFileError> {
        let mut out = Vec::new();
        if self.refs.is_empty() {
            return Ok(out);
        }
        for (index, insn) in ctx.insns.iter().enumerate() {
            if insn.opcode == op::INVOKEVIRTUAL
                && matches!(insn.operand, Operand::Constant(i) if self.refs.contains(&i))
            {
                out.push((index, Edit::Replace(vec![emit.call(tracer::STRING_EQUALS)?])));
            }
        }
        Ok(out)
    }
}
