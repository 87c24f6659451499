//! Builds the graph from the JDK sources and writes it, as `ferrosuite kat
//! build-kg` does, without building the whole CLI (`cargo run --release -p
//! kat --example build_kg -- [SRC_ZIP] [OUT]`; defaults: Debian's
//! `/usr/lib/jvm/openjdk-17/lib/src.zip` and `crates/kat/data/jdk17.kg`).

use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let src = PathBuf::from(args.next().unwrap_or_else(|| "/usr/lib/jvm/openjdk-17/lib/src.zip".into()));
    let out = PathBuf::from(args.next().unwrap_or_else(|| "crates/kat/data/jdk17.kg".into()));
    let graph = kat::build::build(&src).expect("a graph from the JDK sources");
    let bytes = kat::store::to_bytes(&graph).expect("a stored graph");
    std::fs::write(&out, &bytes).expect("the graph file written");
    let stats = kat::stats::Stats::of(&graph);
    println!("{} triggers; wrote {} ({} bytes)", stats.triggers(), out.display(), bytes.len());
}
