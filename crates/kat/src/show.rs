//! Human-readable rendering of a method's clauses and triggers (what
//! `ferrosuite kat show` prints).

use std::fmt::Write;

use crate::graph::{ClassDecl, Joiner, MethodDecl, Origin};

/// Renders one method: signature, summary, then each clause with its
/// condition and triggers (type, condition, confidence, triple).
pub fn render(class: &ClassDecl, m: &MethodDecl) -> String {
    let mut s = String::new();
    let owner = class.name.replace(['/', '$'], ".");
    let params: Vec<String> = m.param_types.iter().zip(&m.params).map(|(t, n)| format!("{t} {n}")).collect();
    let _ = writeln!(s, "{owner}.{}({})  {}", m.name, params.join(", "), m.descriptor);
    if !m.summary.is_empty() {
        let _ = writeln!(s, "  {}", m.summary);
    }
    for c in &m.clauses {
        let what = match &c.origin {
            Origin::Throws(e) => format!("throws {}", e.replace(['/', '$'], ".")),
            Origin::Returns(v) => format!("returns {v}"),
        };
        let inherited =
            c.inherited_from.as_ref().map(|f| format!("  (from {})", f.replace(['/', '$'], "."))).unwrap_or_default();
        let _ = writeln!(s, "  {what} when {}{inherited}", c.condition());
        let _ = writeln!(s, "    \"{}\"", c.sentence);
        for t in &c.triggers {
            let _ = write!(s, "    {} {:<40} confidence {:.2}", t.kind.code(), t.condition.to_string(), t.confidence);
            if let Some(tr) = &t.triple {
                let _ = write!(s, "  ({}; {}; {})", tr.subject, tr.relation, tr.object);
            }
            let _ = writeln!(s);
        }
        if c.triggers.len() > 1 {
            let _ = writeln!(s, "    joined by {}", if c.joiner == Joiner::And { "AND" } else { "OR" });
        }
    }
    s
}
