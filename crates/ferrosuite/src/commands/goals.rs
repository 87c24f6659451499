//! `ferrosuite goals`: the coverage goals of one class.

use std::io::Write;

use anyhow::Context;

use crate::exit_code::ExitCode;

/// Arguments of `ferrosuite goals`.
#[derive(Debug, clap::Args)]
pub struct GoalsArgs {
    /// Class path: directories and jars separated by `:`.
    #[arg(long, short = 'c')]
    classpath: String,
    /// Binary name of the class, e.g. `org.apache.commons.lang3.CharUtils`.
    #[arg(long)]
    class: String,
    /// Print the goals as JSON instead of one line per goal.
    #[arg(long)]
    json: bool,
}

/// Prints the goals of `--class`.
///
/// # Errors
/// Class not found, unreadable class file or analysis failure.
pub fn run(args: &GoalsArgs) -> anyhow::Result<ExitCode> {
    let cp = super::open_classpath(&args.classpath)?;
    let class = cp.load(&args.class)?;
    let goals = analysis::goals::class_goals(&class).with_context(|| format!("cannot analyse {}", args.class))?;
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &goals)?;
        writeln!(out)?;
    } else {
        for g in &goals.goals {
            writeln!(out, "{:>5}  {:<12} {}", g.id.0, g.kind.name(), g.label)?;
        }
        writeln!(out, "{}", goals.summary())?;
    }
    Ok(ExitCode::Success)
}
