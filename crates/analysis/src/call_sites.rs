//! The method calls in a class's code: which method calls which, at what
//! instruction. The triage uses them to trace a private method that never
//! ran back to the code that calls it (`generate::triage`).

use model::bytecode::{decode, op};
use model::classfile::ClassFile;

/// One `invoke*` instruction of a class's code (not `invokedynamic`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    /// Name of the calling method.
    pub caller_name: String,
    /// Descriptor of the calling method.
    pub caller_descriptor: String,
    /// Offset of the instruction in the caller's code (bytes).
    pub bci: u32,
    /// Internal name of the class the instruction names (`a/b/C`).
    pub owner: String,
    /// Name of the method called (`<init>` for a constructor).
    pub name: String,
    /// Descriptor of the method called.
    pub descriptor: String,
}

/// Every `invokevirtual`, `invokespecial`, `invokestatic` and
/// `invokeinterface` in `cf`'s methods, in method and code order. Methods
/// whose code does not decode are skipped.
pub fn call_sites(cf: &ClassFile) -> Vec<CallSite> {
    let mut out = Vec::new();
    for m in &cf.methods {
        let Ok(Some(code)) = cf.code(m) else { continue };
        let Ok(insns) = decode(&code.code) else { continue };
        for insn in insns.iter().filter(|i| (op::INVOKEVIRTUAL..=op::INVOKEINTERFACE).contains(&i.opcode)) {
            let Some(callee) = crate::insn::member(&cf.constant_pool, insn) else { continue };
            out.push(CallSite {
                caller_name: cf.member_name(m).to_string(),
                caller_descriptor: cf.member_descriptor(m).to_string(),
                bci: insn.bci,
                owner: callee.owner.to_string(),
                name: callee.name.to_string(),
                descriptor: callee.descriptor.to_string(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_invoke_instruction_is_a_call_site() {
        let src = "class A { private int helper(int x) { return x + 1; } \
                   public int run(int x) { return x > 0 ? helper(x) : Math.abs(x); } }";
        let classes = crate::testutil::compile_with(&[("A.java", src)], &[]);
        let sites = call_sites(&classes["A"]);
        let of_run: Vec<(&str, &str)> = sites
            .iter()
            .filter(|s| s.caller_name == "run" && s.caller_descriptor == "(I)I")
            .map(|s| (s.owner.as_str(), s.name.as_str()))
            .collect();
        assert_eq!(of_run, [("A", "helper"), ("java/lang/Math", "abs")]);
        // The constructor calls Object's.
        assert!(sites.iter().any(|s| s.caller_name == "<init>" && s.owner == "java/lang/Object" && s.bci == 1));
    }
}
