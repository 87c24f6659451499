//! Dynamic seeding: calls of `String.equals(Object)`,
//! `equalsIgnoreCase(String)`, `startsWith(String)`, `endsWith(String)` and
//! `contains(CharSequence)` become static `Tracer` methods (`stringEquals`,
//! ...) that return the same result and remember the strings compared, so
//! the search can reuse strings the class under test compares its inputs
//! with (EvoSuite's dynamic constant pool).

use model::bytecode::{Operand, op};
use model::classfile::ClassFileError;
use model::constant_pool::ConstantPool;

use crate::probe::{Edit, Emitter, MethodContext, ProbeKind};
use crate::tracer::{self, TracerMethod};

/// The `String` methods rewritten (name, descriptor) and the tracer method
/// replacing each: same stack effect (receiver, argument → boolean).
const REWRITTEN: &[(&str, &str, TracerMethod)] = &[
    ("equals", "(Ljava/lang/Object;)Z", tracer::STRING_EQUALS),
    ("equalsIgnoreCase", "(Ljava/lang/String;)Z", tracer::STRING_EQUALS_IGNORE_CASE),
    ("startsWith", "(Ljava/lang/String;)Z", tracer::STRING_STARTS_WITH),
    ("endsWith", "(Ljava/lang/String;)Z", tracer::STRING_ENDS_WITH),
    ("contains", "(Ljava/lang/CharSequence;)Z", tracer::STRING_CONTAINS),
];

/// Rewrites `invokevirtual java/lang/String.equals(Ljava/lang/Object;)Z`
/// and the other `String` comparisons (`equalsIgnoreCase`, `startsWith`,
/// `endsWith`, `contains`) into calls of the tracer that remember the strings.
pub struct StringEquals {
    /// Constant-pool indices of the rewritten method references, with
    /// their tracer methods.
    refs: Vec<(u16, TracerMethod)>,
}

impl StringEquals {
    /// Finds the rewritten `String` method references of a class's
    /// constant pool.
    pub fn new(constant_pool: &ConstantPool) -> StringEquals {
        let refs = constant_pool
            .iter()
            .filter_map(|(i, _)| {
                let r = constant_pool.member_ref(i).ok()?;
                let (_, _, tracer) = REWRITTEN.iter().find(|(name, desc, _)| {
                    r.owner == "java/lang/String" && r.name == *name && r.descriptor == *desc
                })?;
                Some((i, *tracer))
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
            let Operand::Constant(i) = insn.operand else { continue };
            let found = self.refs.iter().find(|(r, _)| *r == i);
            if let (op::INVOKEVIRTUAL, Some((_, tracer))) = (insn.opcode, found) {
                out.push((index, Edit::Replace(vec![emit.call(*tracer)?])));
            }
        }
        Ok(out)
    }
}
