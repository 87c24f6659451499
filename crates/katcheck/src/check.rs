//! The decision per call site and trigger: is `code AND trigger`
//! satisfiable (KAT, Ren et al., ESEC/FSE 2023, section 3.2; TECHNIQUES.md
//! section 2 step 2)?

use kat::graph::Clause;
use kat::graph::Joiner;
use kat::{Cond, Origin, TriggerKind};
use model::names::InternalName;
use serde::Serialize;
use z3::{Params, SatResult, Solver};

use crate::formula::{Binding, Encoder};
use crate::guards::Fact;

/// The solver's answer for one trigger at one call site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The code allows the trigger: a potential violation.
    Sat,
    /// The code rules the trigger out: the call is safe there.
    Unsat,
    /// The solver gave up within its time limit.
    Unknown,
}

impl Verdict {
    /// `sat`, `unsat` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Sat => "sat",
            Verdict::Unsat => "unsat",
            Verdict::Unknown => "unknown",
        }
    }
}

/// One documented condition of a call site, checked: the unit KAT turns
/// into a goal when it is satisfiable.
#[derive(Debug, Clone, Serialize)]
pub struct Violation {
    /// The calling method's name.
    pub method: String,
    /// The calling method's JVM descriptor.
    pub descriptor: String,
    /// Bytecode index of the call.
    pub bci: u32,
    /// Source line of the call, when the class has a line table.
    pub line: Option<u16>,
    /// The documented method, e.g. `java.lang.String.charAt(int)`.
    pub api: String,
    /// Its JVM name as stack frames show it (`charAt`; `<init>` for a constructor).
    pub api_method: String,
    /// The exception the documentation promises, internal name.
    pub exception: String,
    /// The documentation's sentence.
    pub sentence: String,
    /// The trigger types involved (`T1`..`T4`).
    pub kinds: Vec<String>,
    /// The trigger condition in the documented method's names
    /// (`index >= this.length()`); `?` when it has no formal form.
    pub condition: String,
    /// Whether the code allows it.
    pub verdict: Verdict,
    /// KAT's bug confidence: 1.0 when every run that reaches the call
    /// violates the condition (the code determines the violating value),
    /// 0.5 when it depends on the inputs, 0.0 when the call is safe.
    pub bug_confidence: f32,
    /// The knowledge graph's confidence in the trigger (the lowest of the
    /// triggers combined).
    pub knowledge_confidence: f32,
    /// The handler class around the call that catches the exception, when
    /// there is one: then the exception does not escape from here.
    pub caught_by: Option<String>,
    /// The trigger as the call-condition probe measures it at run time
    /// ([`crate::probe::call_condition`]).
    #[serde(skip)]
    pub probe: instrument::probes::call_condition::CallCondition,
}

impl Violation {
    /// Whether this is a potential bug: satisfiable and not caught at the call.
    pub fn is_potential_bug(&self) -> bool {
        self.verdict == Verdict::Sat && self.caught_by.is_none()
    }

    /// Where the call is: `Text.java:12`, or `method(descriptor)@bci`
    /// without a source file or line table.
    pub fn location(&self, source_file: Option<&str>) -> String {
        match (source_file, self.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            _ => format!("{}{}@{}", self.method, self.descriptor, self.bci),
        }
    }

    /// A readable label: `Text.java:12 java.lang.String.charAt(int) with index >= this.length()`.
    pub fn label(&self, source_file: Option<&str>) -> String {
        format!("{} {} with {}", self.location(source_file), self.api, self.condition)
    }
}

/// One condition to check: the triggers it combines and their condition.
pub struct Candidate {
    /// The condition.
    pub condition: Cond,
    /// Trigger types.
    pub kinds: Vec<TriggerKind>,
    /// Lowest knowledge confidence of the triggers.
    pub confidence: f32,
}

/// The conditions of an `@throws` clause to check one by one: each trigger
/// of an OR clause, the whole condition of an AND clause (its triggers
/// alone do not make it throw). Return-value clauses give none.
pub fn candidates(clause: &Clause) -> Vec<Candidate> {
    if !matches!(clause.origin, Origin::Throws(_)) || clause.triggers.is_empty() {
        return Vec::new();
    }
    match clause.joiner {
        Joiner::Or => clause
            .triggers
            .iter()
            .map(|t| Candidate { condition: t.condition.clone(), kinds: vec![t.kind], confidence: t.confidence })
            .collect(),
        Joiner::And => {
            let mut kinds: Vec<TriggerKind> = clause.triggers.iter().map(|t| t.kind).collect();
            kinds.sort();
            kinds.dedup();
            let confidence = clause.triggers.iter().map(|t| t.confidence).fold(1.0, f32::min);
            vec![Candidate { condition: clause.condition(), kinds, confidence }]
        }
    }
}

/// Decides `facts AND condition` under `binding` with a solver limited to
/// `timeout_ms`; returns the verdict and the bug confidence.
pub fn decide(facts: &[Fact], condition: &Cond, binding: &Binding<'_>, timeout_ms: u32) -> (Verdict, f32) {
    let mut encoder = Encoder::new();
    let code: Vec<_> = facts.iter().map(|f| encoder.fact(f)).collect();
    let trigger = encoder.cond(condition, binding);
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32("timeout", timeout_ms);
    solver.set_params(&params);
    for c in encoder.side_constraints().iter().chain(&code) {
        solver.assert(c);
    }
    solver.push();
    solver.assert(&trigger);
    let verdict = match solver.check() {
        SatResult::Sat => Verdict::Sat,
        SatResult::Unsat => return (Verdict::Unsat, 0.0),
        SatResult::Unknown => return (Verdict::Unknown, 0.0),
    };
    solver.pop(1);
    solver.assert(trigger.not());
    // No run that reaches the call avoids the trigger: the value is determined.
    let determined = solver.check() == SatResult::Unsat;
    (verdict, if determined { 1.0 } else { 0.5 })
}

/// The exception of an `@throws` clause.
pub fn exception_of(clause: &Clause) -> Option<&InternalName> {
    match &clause.origin {
        Origin::Throws(e) => Some(e),
        Origin::Returns(_) => None,
    }
}
