//! The own clauses of the sampled packages whose sentence contains a
//! phrase, with their triggers (`cargo run --release -p kat --example
//! triggers -- "valid port"`): to see every clause a rule would touch
//! before writing it. With a second argument, the graph file to read
//! instead of the shipped one (to compare two builds line by line).

use kat::graph::KnowledgeGraph;
use kat::sample::origin_text;

fn main() {
    let phrase = std::env::args().nth(1).unwrap_or_default().to_lowercase();
    let g = match std::env::args().nth(2) {
        Some(file) => kat::store::from_bytes(&std::fs::read(&file).expect("a graph file")).expect("a graph"),
        None => KnowledgeGraph::jdk17(),
    };
    for c in g.classes.iter().filter(|c| c.exported && kat::sample::SAMPLE_PACKAGES.contains(&c.name.package())) {
        for m in &c.methods {
            for cl in m.clauses.iter().filter(|cl| cl.inherited_from.is_none()) {
                if !cl.sentence.to_lowercase().contains(&phrase) {
                    continue;
                }
                println!(
                    "{}.{}{} | {} | {}",
                    c.name.as_str(),
                    m.name,
                    m.descriptor,
                    origin_text(&cl.origin),
                    cl.sentence
                );
                for t in &cl.triggers {
                    println!(
                        "{}.{}{} | {} ||    {} {}",
                        c.name.as_str(),
                        m.name,
                        m.descriptor,
                        origin_text(&cl.origin),
                        t.kind.code(),
                        t.condition
                    );
                }
            }
        }
    }
}
