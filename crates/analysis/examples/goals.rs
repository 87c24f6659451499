//! Prints the goals of classes in a jar, or only their branch counts.
//!
//! ```text
//! cargo run -p analysis --example goals -- JAR (CLASS...|--all) [--count [--methods]] [--jacoco-0.8.6]
//! ```
//! `--count` prints `binary.Name<TAB>branch goals<TAB>lines<TAB>methods` (the
//! format of `tools/java/JacocoBranches.java`); `--jacoco-0.8.6` keeps the
//! `$assertionsDisabled` branches, as JaCoCo 0.8.6 does.

use std::io::Read;

use analysis::{AnalysisOptions, GoalKind, class_goals_with};
use model::classfile::ClassFile;
use model::names::BinaryName;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count = args.iter().any(|a| a == "--count");
    let options = AnalysisOptions { filter_assertions: !args.iter().any(|a| a == "--jacoco-0.8.6") };
    let mut positional = args.iter().filter(|a| !a.starts_with("--"));
    let jar = positional.next().expect("usage: goals JAR CLASS... [--count] [--jacoco-0.8.6]");
    let mut archive = zip::ZipArchive::new(std::fs::File::open(jar).expect("open jar")).expect("read jar");
    let mut classes: Vec<String> = positional.cloned().collect();
    if args.iter().any(|a| a == "--all") {
        let names: Vec<String> = archive.file_names().filter(|n| n.ends_with(".class")).map(str::to_string).collect();
        classes = names.iter().map(|n| BinaryName::from_class_file_path(n).to_string()).collect();
        classes.sort();
    }
    for class in &classes {
        let mut bytes = Vec::new();
        let entry = BinaryName::new(class.as_str()).class_file_path();
        archive.by_name(&entry).expect("class in jar").read_to_end(&mut bytes).expect("read class");
        let cf = ClassFile::parse(&bytes).expect("parse class");
        let goals = class_goals_with(&cf, &options).expect("analyse class");
        if count {
            let methods = goals.goals.iter().filter(|g| g.kind == GoalKind::Method).count();
            println!("{class}\t{}\t{}\t{methods}", goals.branch_goal_count(), goals.line_goals.len());
            if args.iter().any(|a| a == "--methods") {
                for m in goals.methods.iter().filter(|m| m.method_goal.is_some()) {
                    let n = goals
                        .goals
                        .iter()
                        .filter(|g| g.method_index == m.index)
                        .filter(|g| matches!(g.kind, GoalKind::Branch { .. } | GoalKind::SwitchCase { .. }))
                        .count();
                    println!("  {} {}\t{n}", m.name, m.descriptor);
                }
            }
            continue;
        }
        for g in &goals.goals {
            let parents: Vec<String> = g.parents.iter().map(|p| p.0.to_string()).collect();
            println!("{:>4} {:<60} {:<60} <- [{}]", g.id.0, g.key, g.label, parents.join(","));
        }
        for f in &goals.filtered {
            println!("filtered: method {} bci {} {:?}", f.method_index, f.bci, f.reason);
        }
    }
}
