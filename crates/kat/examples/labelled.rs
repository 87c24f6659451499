//! The extracted triggers of the clauses of one labelled sample, next to
//! the labels (`cargo run --release -p kat --example labelled --
//! crates/kat/tests/data/blind4_labelled.jsonl [LINE...]`): to look at
//! what the extractor does on development data only, clause by clause.

use kat::graph::KnowledgeGraph;
use kat::sample::origin_text;
use serde_json::Value;

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("a labelled .jsonl file");
    let lines: Vec<usize> = args.filter_map(|a| a.parse().ok()).collect();
    let g = KnowledgeGraph::jdk17();
    let text = std::fs::read_to_string(&file).expect("the labelled file");
    for (n, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        if !lines.is_empty() && !lines.contains(&(n + 1)) {
            continue;
        }
        let l: Value = serde_json::from_str(line).expect("a labelled line");
        let s = |k: &str| l[k].as_str().unwrap_or_default().to_string();
        println!(
            "line {:3}: {}.{}{} | {} | {}",
            n + 1,
            s("class"),
            s("method"),
            s("descriptor"),
            s("origin"),
            s("sentence")
        );
        for t in l["triggers"].as_array().into_iter().flatten() {
            println!("    label {} {}", t["kind"].as_str().unwrap_or(""), t["condition"].as_str().unwrap_or(""));
        }
        let Some(c) = g.class(&s("class")) else { continue };
        let methods = c.methods.iter().filter(|m| m.name == s("method") && m.descriptor == s("descriptor"));
        for cl in methods.flat_map(|m| &m.clauses).filter(|cl| origin_text(&cl.origin) == s("origin")) {
            println!("    clause: {}", cl.sentence);
            for t in &cl.triggers {
                println!("      got {} {}", t.kind.code(), t.condition);
            }
        }
    }
}
