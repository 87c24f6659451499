//! The most frequent triggers without a formal condition in the sampled
//! packages of the shipped graph, with their type: where the extractor's
//! next general rule is (`cargo run --release -p kat --example unknowns`).
//! Frequencies over the whole graph, not a labelled sample, so a rule
//! found here is not tuned on one.

use kat::graph::KnowledgeGraph;
use std::collections::HashMap;
fn main() {
    let g = KnowledgeGraph::jdk17();
    let mut freq: HashMap<String, usize> = HashMap::new();
    for c in &g.classes {
        if !c.exported || !kat::sample::SAMPLE_PACKAGES.contains(&c.name.package()) {
            continue;
        }
        for m in &c.methods {
            for cl in m.clauses.iter().filter(|cl| cl.inherited_from.is_none()) {
                for t in &cl.triggers {
                    if t.condition.is_unknown() {
                        let key: String = t.text.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ");
                        *freq.entry(format!("{} | {}", t.kind.code(), key)).or_default() += 1;
                    }
                }
            }
        }
    }
    let mut v: Vec<_> = freq.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (k, n) in v.iter().take(120) {
        println!("{n:5} {k}");
    }
}
