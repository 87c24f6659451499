//! Human-readable rendering of a method's clauses and triggers (what
//! `ferrosuite kat show` prints).

use std::fmt::Write;

use crate::graph::{ClassDecl, Joiner, MethodDecl, Origin};

/// Renders one method: signature, summary, then each clause with its
/// condition and triggers (type, condition, confidence, triple).
pub fn render(class: &ClassDecl, m: &MethodDecl) -> String {
    let mut s = String::new();
    let owner = class.name.as_str().replace(['/', '$'], ".");
    // Methods without clauses are stored without parameter names and
    // types: their types come from the descriptor.
    let params: Vec<String> = if m.params.is_empty() {
        descriptor_params(&m.descriptor)
    } else {
        m.param_types.iter().zip(&m.params).map(|(t, n)| format!("{t} {n}")).collect()
    };
    let _ = writeln!(s, "{owner}.{}({})  {}", m.name, params.join(", "), m.descriptor);
    if !m.summary.is_empty() {
        let _ = writeln!(s, "  {}", m.summary);
    }
    for c in &m.clauses {
        let what = match &c.origin {
            Origin::Throws(e) => format!("throws {}", e.as_str().replace(['/', '$'], ".")),
            Origin::Returns(v) => format!("returns {v}"),
        };
        let inherited = c
            .inherited_from
            .as_ref()
            .map(|f| format!("  (from {})", f.as_str().replace(['/', '$'], ".")))
            .unwrap_or_default();
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

/// The parameter types of a JVM method descriptor as Java names
/// (`(I[Ljava/lang/String;)V` gives `int`, `java.lang.String[]`).
pub fn descriptor_params(descriptor: &str) -> Vec<String> {
    let inner = descriptor.strip_prefix('(').and_then(|d| d.split(')').next()).unwrap_or("");
    let mut out = Vec::new();
    let mut chars = inner.chars();
    let mut dims = 0;
    while let Some(c) = chars.next() {
        let base = match c {
            '[' => {
                dims += 1;
                continue;
            }
            'L' => chars.by_ref().take_while(|&c| c != ';').collect::<String>().replace(['/', '$'], "."),
            'I' => "int".into(),
            'J' => "long".into(),
            'S' => "short".into(),
            'B' => "byte".into(),
            'C' => "char".into(),
            'Z' => "boolean".into(),
            'F' => "float".into(),
            'D' => "double".into(),
            other => other.to_string(),
        };
        out.push(format!("{base}{}", "[]".repeat(dims)));
        dims = 0;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn descriptor_parameters_read_as_java_types() {
        assert_eq!(
            super::descriptor_params("(I[Ljava/util/Map$Entry;[[J)V"),
            ["int", "java.util.Map.Entry[]", "long[][]"]
        );
        assert!(super::descriptor_params("()V").is_empty());
    }
}
