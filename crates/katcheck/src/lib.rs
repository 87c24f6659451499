//! KAT phase II, static detection: the call sites of a class under test
//! that can violate a documented condition of a JDK method (Ren et al.,
//! "API-Knowledge Aware Search-Based Software Testing: Where, What, and
//! How", ESEC/FSE 2023, section 3.2; TECHNIQUES.md section 2 step 2).
//!
//! For each call of a JDK method whose `@throws` clauses have triggers in
//! the knowledge graph ([`kat::KnowledgeGraph`]), the code formula (the
//! facts the guards of the call establish about its receiver and
//! arguments, [`guards`], over symbolic values from the data flow,
//! [`term`]) and the trigger with the call's operands substituted are
//! decided together with z3 ([`check`], [`formula`]): unsat means the code
//! is safe at that call, sat a potential violation. A trigger without a
//! formal condition (`?`) is always sat ("reach the call and have it
//! throw"). [`site`] finds the calls and the handlers around them.
//!
//! KAT phase III: [`goals`] makes each potential violation a goal of the
//! class under test, observed by a call-condition probe whose condition
//! [`probe`] derives from the trigger; [`budget`] shares KAT's targeted tests
//! among the methods by confidence. In `generate`, [`technique`] ([`Kat`])
//! runs the check on the class under test, adds the goals, and turns the
//! tests whose documented exception escapes at a potential violation into
//! findings ([`witness`]).
//!
//! ```no_run
//! let bytes = std::fs::read("Text.class").unwrap();
//! let cf = model::classfile::ClassFile::parse(&bytes).unwrap();
//! let graph = kat::KnowledgeGraph::jdk17();
//! let result = katcheck::check_class(&cf, &graph, &katcheck::CheckOptions::default());
//! for v in result.violations.iter().filter(|v| v.is_potential_bug()) {
//!     println!("{}", v.label(result.source_file.as_deref()));
//! }
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod budget;
pub mod check;
pub mod formula;
pub mod goals;
pub mod guards;
pub mod probe;
pub mod site;
pub mod technique;
pub mod term;
pub mod witness;

use analysis::cfg::ControlFlowGraph;
use analysis::dataflow::method_flow;
use kat::KnowledgeGraph;
use model::classfile::{ClassFile, Member};
use serde::Serialize;

pub use check::{Verdict, Violation};
pub use technique::Kat;

/// Options of the static check.
#[derive(Debug, Clone, Copy)]
pub struct CheckOptions {
    /// Time limit of one solver query, in milliseconds; a query that hits
    /// it gives [`Verdict::Unknown`].
    pub timeout_ms: u32,
}

impl Default for CheckOptions {
    fn default() -> CheckOptions {
        CheckOptions { timeout_ms: 1000 }
    }
}

/// The static check of one class.
#[derive(Debug, Clone, Serialize)]
pub struct ClassCheck {
    /// Binary name of the class.
    pub class: String,
    /// Its `SourceFile` attribute, when present.
    pub source_file: Option<String>,
    /// Calls of documented JDK methods found.
    pub sites: usize,
    /// One entry per call site and documented condition, in method and bytecode order.
    pub violations: Vec<Violation>,
    /// Methods that could not be analysed, with the reason (they are skipped).
    pub warnings: Vec<String>,
}

/// Checks every call of a documented JDK method in `cf`.
pub fn check_class(cf: &ClassFile, graph: &KnowledgeGraph, options: &CheckOptions) -> ClassCheck {
    let mut out = ClassCheck {
        class: cf.binary_name().as_str().to_string(),
        source_file: cf.source_file().map(str::to_string),
        sites: 0,
        violations: Vec::new(),
        warnings: Vec::new(),
    };
    for m in &cf.methods {
        if let Err(reason) = check_method(cf, m, graph, options, &mut out) {
            out.warnings.push(format!("{}{}: {reason}", cf.member_name(m), cf.member_descriptor(m)));
        }
    }
    out
}

/// Adds the violations of method `m` to `out`.
fn check_method(
    cf: &ClassFile,
    m: &Member,
    graph: &KnowledgeGraph,
    options: &CheckOptions,
    out: &mut ClassCheck,
) -> Result<(), String> {
    let Some(flow) = method_flow(cf, m).map_err(|e| e.to_string())? else { return Ok(()) };
    let sites = site::documented_calls(cf, &flow, graph);
    if sites.is_empty() {
        return Ok(());
    }
    let (name, descriptor) = (cf.member_name(m), cf.member_descriptor(m));
    let code = cf.code(m).map_err(|e| e.to_string())?.ok_or("no code")?;
    let location = analysis::Location::method(cf.name(), name, descriptor);
    let cfg = ControlFlowGraph::build(&flow.insns, &code.exception_table, &location).map_err(|e| e.to_string())?;
    let lines = analysis::instruction_lines(cf, &code, &flow.insns);
    let terms = term::Terms::new(&flow, &cf.constant_pool, m.access & model::access::STATIC != 0);
    let guards = guards::Guards::new(&cfg, &flow.insns, &terms);
    out.sites += sites.len();
    for s in &sites {
        let operands = terms.operands(s.insn);
        let (receiver, args) = match (s.has_receiver, operands.split_first()) {
            (true, Some((r, rest))) => (Some(r), rest),
            _ => (None, operands.as_slice()),
        };
        let binding = formula::Binding { receiver, params: &s.api.params, args };
        let facts = guards.facts_at(s.insn);
        for clause in &s.api.clauses {
            let Some(exception) = check::exception_of(clause) else { continue };
            let caught_by = site::catching_handler(cf, &code.exception_table, s.bci, exception, graph);
            for c in check::candidates(clause) {
                let (verdict, bug_confidence) = check::decide(&facts, &c.condition, &binding, options.timeout_ms);
                out.violations.push(Violation {
                    method: name.to_string(),
                    descriptor: descriptor.to_string(),
                    bci: s.bci,
                    line: lines.get(s.insn).copied().flatten(),
                    api: s.api_name(),
                    api_method: s.api.name.clone(),
                    exception: exception.as_str().to_string(),
                    sentence: clause.sentence.clone(),
                    kinds: c.kinds.iter().map(|k| k.code().to_string()).collect(),
                    condition: c.condition.to_string(),
                    verdict,
                    bug_confidence,
                    knowledge_confidence: c.confidence,
                    caught_by: caught_by.as_ref().map(|c| c.as_str().to_string()),
                    probe: probe::call_condition(&c.condition, &s.api.params, s.has_receiver),
                });
            }
        }
    }
    Ok(())
}
