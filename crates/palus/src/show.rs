//! A call-sequence model as text (one line per edge, with its recorded
//! arguments) and as a Graphviz `dot` digraph (`dot -Tsvg` draws it).

use std::fmt::Write;

use crate::events::Value;
use crate::infer::{ArgumentRecord, ClassModel, ModelEdge};

/// The model as text: a header, then `from -> to: call  [arguments]` per edge.
pub fn text(model: &ClassModel) -> String {
    let mut out = format!(
        "model of {}: {} objects, {} states, {} edges (state 0: not made yet)\n",
        model.class,
        model.objects,
        model.nodes,
        model.edges.len()
    );
    for e in &model.edges {
        let _ =
            writeln!(out, "  {} -> {}: {} x{}{}", e.from, e.to, e.method.short(&model.class), e.calls, arguments(e));
    }
    out
}

/// The model as a `dot` digraph: states are circles (the root a point),
/// edges are labelled with the call and its recorded literal arguments.
pub fn dot(model: &ClassModel) -> String {
    let mut out = format!("digraph \"{}\" {{\n  rankdir=LR;\n  node [shape=circle];\n", escape(&model.class));
    let _ = writeln!(out, "  n0 [shape=point, width=0.15];");
    for n in 1..model.nodes {
        let _ = writeln!(out, "  n{n} [label=\"{n}\"];");
    }
    for e in &model.edges {
        let label = format!("{}{}", e.method.short(&model.class), arguments(e));
        let _ = writeln!(out, "  n{} -> n{} [label=\"{}\"];", e.from, e.to, escape(&label));
    }
    out.push_str("}\n");
    out
}

/// `  [args: "db" | 1, 2 | state Conn@3]`, or nothing without recorded arguments.
fn arguments(e: &ModelEdge) -> String {
    let parts: Vec<String> = e.args.iter().map(argument).collect();
    let mut shown =
        if parts.iter().all(String::is_empty) { String::new() } else { format!("  [{}]", parts.join(" | ")) };
    if !e.receiver.is_empty() {
        let on: Vec<String> = e.receiver.iter().map(|d| format!("{}@{}", simple(&d.class), d.node)).collect();
        let _ = write!(shown, "  on {}", on.join(", "));
    }
    shown
}

fn argument(a: &ArgumentRecord) -> String {
    let mut items: Vec<String> = a.values.iter().take(4).map(literal).collect();
    if a.values.len() > 4 {
        items.push("...".into());
    }
    items.extend(a.dependences.iter().take(3).map(|d| format!("{}@{}", simple(&d.class), d.node)));
    if a.dependences.is_empty() {
        items.extend(a.profiles.iter().take(2).filter(|p| !p.is_empty()).map(|p| format!("{{{p}}}")));
    }
    items.join(", ")
}

fn literal(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Primitive('C', code) => {
            code.parse::<u32>().ok().and_then(char::from_u32).map_or_else(|| code.clone(), |c| format!("{c:?}"))
        }
        Value::Primitive(_, text) => text.clone(),
        Value::Str(s) => format!("{s:?}"),
        Value::Enum(class, name) => format!("{}.{name}", simple(class)),
        Value::Object(o) => simple(&o.class).to_string(),
    }
}

fn simple(class: &str) -> &str {
    class.rsplit(['.', '$']).next().unwrap_or(class)
}

/// Escapes a `dot` string: backslashes and quotes; newlines become `\n`.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}
