//! `ferrosuite kat`: the JDK API exception knowledge graph (KAT phase I).
//!
//! - `kat build-kg --src-zip PATH --out FILE`: build the graph from JDK
//!   sources and write it (the shipped one is `crates/kat/data/jdk17.kg`).
//! - `kat show java.lang.String.charAt`: a method's clauses and triggers.
//! - `kat stats`: trigger counts per type and per package.
//! - `kat sample --count N --seed S`: a random sample of triggers as JSON
//!   lines, the starting point of a labelled sample.
//! - `kat check --classpath CP (--class C | --jar J)`: KAT phase II's
//!   static detection of API misuse at call sites ([`super::kat_check`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use kat::KnowledgeGraph;

use super::InputError;
use crate::exit_code::ExitCode;

/// The JDK 17 sources as installed by Debian's `openjdk-17-source`.
pub const DEFAULT_SRC_ZIP: &str = "/usr/lib/jvm/openjdk-17/lib/src.zip";

/// `kat` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum KatCommand {
    /// Build the knowledge graph from the JDK's src.zip and write it.
    BuildKg {
        /// The JDK sources (Debian: openjdk-17-source).
        #[arg(long, default_value = DEFAULT_SRC_ZIP)]
        src_zip: PathBuf,
        /// Where to write the graph.
        #[arg(long)]
        out: PathBuf,
    },
    /// Print the triggers of a method: `java.lang.String.charAt`, or a class name for its constructors.
    Show {
        /// Dotted method name (all overloads are shown).
        method: String,
        /// Only the overload with this JVM descriptor, e.g. `(I)C`.
        #[arg(long)]
        descriptor: Option<String>,
        /// A graph file instead of the shipped JDK 17 graph.
        #[arg(long)]
        kg: Option<PathBuf>,
        /// Print JSON (one object per method) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Trigger counts per type (T1-T4) and per package.
    Stats {
        /// A graph file instead of the shipped JDK 17 graph.
        #[arg(long)]
        kg: Option<PathBuf>,
    },
    /// Find the calls of documented JDK methods that can violate a documented condition (no search).
    Check(super::kat_check::CheckArgs),
    /// Draw triggers at random (fixed seed) as JSON lines, for labelling.
    Sample {
        #[arg(long, default_value_t = 160)]
        count: usize,
        #[arg(long, default_value_t = 2026)]
        seed: u64,
        /// A graph file instead of the shipped JDK 17 graph.
        #[arg(long)]
        kg: Option<PathBuf>,
    },
}

/// Runs a `kat` subcommand.
///
/// # Errors
/// Unreadable sources or graph files, unknown methods (input errors).
pub fn run(cmd: &KatCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        KatCommand::BuildKg { src_zip, out } => build(src_zip, out),
        KatCommand::Show { method, descriptor, kg, json } => {
            show(&load(kg.as_deref())?, method, descriptor.as_deref(), *json)
        }
        KatCommand::Stats { kg } => {
            print!("{}", kat::stats::Stats::of(&load(kg.as_deref())?));
            Ok(ExitCode::Success)
        }
        KatCommand::Check(args) => super::kat_check::run(args),
        KatCommand::Sample { count, seed, kg } => {
            for line in kat::sample::draw(&load(kg.as_deref())?, *count, *seed) {
                println!("{}", serde_json::to_string(&line)?);
            }
            Ok(ExitCode::Success)
        }
    }
}

fn build(src_zip: &Path, out: &Path) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let graph = kat::build::build(src_zip).map_err(|e| InputError(format!("{:#}", anyhow::Error::new(e))))?;
    let built = start.elapsed();
    let bytes = kat::store::to_bytes(&graph)?;
    std::fs::write(out, &bytes).with_context(|| format!("cannot write {}", out.display()))?;
    let stats = kat::stats::Stats::of(&graph);
    println!(
        "built in {:.2} s: {} methods with triggers, {} triggers; wrote {} ({} bytes)",
        built.as_secs_f64(),
        stats.methods_with_triggers,
        stats.triggers(),
        out.display(),
        bytes.len()
    );
    Ok(ExitCode::Success)
}

/// The graph from `path`, or the shipped JDK 17 graph.
///
/// # Errors
/// An unreadable or invalid graph file (input error).
pub fn load(path: Option<&Path>) -> anyhow::Result<KnowledgeGraph> {
    match path {
        None => Ok(KnowledgeGraph::jdk17()),
        Some(p) => {
            let bytes = std::fs::read(p).map_err(|e| InputError(format!("cannot read {}: {e}", p.display())))?;
            kat::store::from_bytes(&bytes).map_err(|e| InputError(format!("{}: {e}", p.display())).into())
        }
    }
}

fn show(graph: &KnowledgeGraph, method: &str, descriptor: Option<&str>, json: bool) -> anyhow::Result<ExitCode> {
    let found: Vec<_> =
        graph.find(method).into_iter().filter(|(_, m)| descriptor.is_none_or(|d| m.descriptor == d)).collect();
    if found.is_empty() {
        let hint = "give a dotted name such as java.lang.String.charAt, or a class name for its constructors";
        return Err(InputError(format!("no method {method} in the knowledge graph; {hint}")).into());
    }
    for (class, m) in found {
        if json {
            println!("{}", serde_json::to_string(&method_json(class, m))?);
        } else {
            println!("{}", kat::show::render(class, m));
        }
    }
    Ok(ExitCode::Success)
}

/// The JSON form of `kat show --json`: conditions as printed text, trigger
/// types as `T1`..`T4`, plus the stored triples and links.
fn method_json(class: &kat::graph::ClassDecl, m: &kat::graph::MethodDecl) -> serde_json::Value {
    let clauses: Vec<serde_json::Value> = m
        .clauses
        .iter()
        .map(|c| {
            let triggers: Vec<serde_json::Value> = c
                .triggers
                .iter()
                .map(|t| {
                    serde_json::json!({
                        "kind": t.kind.code(), "condition": t.condition.to_string(), "confidence": t.confidence,
                        "text": t.text, "triple": t.triple, "links": t.links,
                    })
                })
                .collect();
            serde_json::json!({
                "origin": kat::sample::origin_text(&c.origin), "sentence": c.sentence,
                "condition": c.condition().to_string(), "joiner": c.joiner, "inherited_from": c.inherited_from,
                "triggers": triggers,
            })
        })
        .collect();
    serde_json::json!({
        "owner": class.name, "name": m.name, "descriptor": m.descriptor, "params": m.params,
        "param_types": m.param_types, "clauses": clauses,
    })
}

/// `bench kat`: the best of `runs` builds from `src_zip` (seconds) and of
/// `runs` × 10 loads of the shipped graph (milliseconds).
///
/// # Errors
/// An unreadable `src_zip` (input error).
pub fn bench(src_zip: &Path, runs: usize) -> anyhow::Result<ExitCode> {
    let mut build_best = f64::INFINITY;
    let mut graph = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let g = kat::build::build(src_zip).map_err(|e| InputError(format!("{:#}", anyhow::Error::new(e))))?;
        build_best = build_best.min(start.elapsed().as_secs_f64());
        graph = Some(g);
    }
    let stats = kat::stats::Stats::of(graph.as_ref().expect("at least one run"));
    let mut load_best = f64::INFINITY;
    for _ in 0..runs.max(1) * 10 {
        let start = Instant::now();
        let g = KnowledgeGraph::jdk17();
        load_best = load_best.min(start.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(g);
    }
    println!("build from {}: {build_best:.2} s (target < 60 s)", src_zip.display());
    println!(
        "  {} classes, {} methods with triggers, {} triggers",
        stats.classes,
        stats.methods_with_triggers,
        stats.triggers()
    );
    println!("load shipped graph: {load_best:.1} ms (target < 100 ms)");
    Ok(ExitCode::Success)
}
