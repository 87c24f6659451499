//! The call sites of a method that call a JDK method the knowledge graph
//! documents with exception clauses, and the handlers around them.

use analysis::dataflow::MethodFlow;
use kat::graph::MethodDecl;
use kat::{KnowledgeGraph, MethodRef, Origin};
use model::bytecode::{Operand, op};
use model::classfile::{ClassFile, ExceptionEntry};
use model::names::InternalName;

/// A call of a documented JDK method.
#[derive(Debug, Clone)]
pub struct CallSite<'g> {
    /// Index of the call in the method's decoded instructions.
    pub insn: usize,
    /// Its bytecode index.
    pub bci: u32,
    /// The class that declares the documented method (it may be a
    /// supertype of the class the call names).
    pub api_class: &'g InternalName,
    /// The documented method.
    pub api: &'g MethodDecl,
    /// Whether the call has a receiver (not `invokestatic`).
    pub has_receiver: bool,
}

impl CallSite<'_> {
    /// `java.lang.String.charAt(int)`.
    pub fn api_name(&self) -> String {
        let class = self.api_class.as_str().replace(['/', '$'], ".");
        let name = if self.api.name == "<init>" {
            class.rsplit('.').next().unwrap_or("").to_string()
        } else {
            self.api.name.clone()
        };
        format!("{class}.{name}({})", self.api.param_types.join(", "))
    }
}

/// The calls in `flow` of JDK methods with at least one `@throws` clause.
pub fn documented_calls<'g>(cf: &ClassFile, flow: &MethodFlow, graph: &'g KnowledgeGraph) -> Vec<CallSite<'g>> {
    let mut sites = Vec::new();
    for (k, insn) in flow.insns.iter().enumerate() {
        let index = match (insn.opcode, &insn.operand) {
            (op::INVOKEVIRTUAL..=op::INVOKESTATIC, Operand::Constant(i)) => *i,
            (op::INVOKEINTERFACE, Operand::InvokeInterface { index, .. }) => *index,
            _ => continue,
        };
        if !flow.flow.reachable.get(k).copied().unwrap_or(false) {
            continue;
        }
        let Ok(m) = cf.constant_pool.member_ref(index) else { continue };
        if m.owner.starts_with('[') {
            continue;
        }
        let owner = InternalName::new(m.owner);
        let Some((class, api)) = graph.resolve(MethodRef { owner: &owner, name: m.name, descriptor: m.descriptor })
        else {
            continue;
        };
        if api.clauses.iter().any(|c| matches!(c.origin, Origin::Throws(_))) {
            sites.push(CallSite {
                insn: k,
                bci: insn.bci,
                api_class: &class.name,
                api,
                has_receiver: insn.opcode != op::INVOKESTATIC,
            });
        }
    }
    sites
}

/// The class of the innermost handler around `bci` that catches
/// `exception` (the exception itself or one of its superclasses, as the
/// knowledge graph knows them); `finally` handlers (catch-all) do not count,
/// since they rethrow.
pub fn catching_handler(
    cf: &ClassFile,
    table: &[ExceptionEntry],
    bci: u32,
    exception: &InternalName,
    graph: &KnowledgeGraph,
) -> Option<InternalName> {
    let mut supertypes = vec![exception.clone()];
    let mut at = graph.class(exception.as_str());
    while let Some(c) = at.and_then(|c| graph.superclass(c)) {
        supertypes.push(c.name.clone());
        at = Some(c);
    }
    if !supertypes.iter().any(|s| s.as_str() == "java/lang/Throwable") {
        // Not in the graph: every documented exception is at least an `Exception`.
        supertypes.extend(["java/lang/Exception", "java/lang/Throwable"].map(InternalName::new));
    }
    table.iter().filter(|e| e.start_pc <= bci && bci < e.end_pc && e.catch_type != 0).find_map(|e| {
        let caught = cf.constant_pool.class_name(e.catch_type).ok()?;
        supertypes.iter().find(|s| s.as_str() == caught).cloned()
    })
}
