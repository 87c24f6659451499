//! `ferrosuite generate`: the main job. For each class under test:
//! analyse → instrument → build the test cluster → search → minimise →
//! assertions → emit JUnit → verify under JUnit → report.
//!
//! Modules: [`class_run`] (the pipeline for one class), [`mutation`]
//! (mutation-based filtering of assertions), [`variation`]
//! (test cluster and operators behind the search's `Variation` trait),
//! [`verify`] (javac + JUnit runs, removal of failing tests), [`report`]
//! (`report.json`), [`progress`] (the terminal display).

pub mod class_run;
pub mod mutation;
pub mod progress;
pub mod report;
pub mod variation;
pub mod verify;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use crate::exit_code::ExitCode;

/// Arguments of `ferrosuite generate`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["class", "package", "jar"])))]
pub struct GenerateArgs {
    /// Class path of the classes under test and their dependencies (`:`-separated).
    #[arg(long, short = 'c', default_value = "")]
    pub classpath: String,
    /// Binary name of a class under test (repeatable).
    #[arg(long)]
    pub class: Vec<String>,
    /// Every class of this package (on the class path).
    #[arg(long)]
    pub package: Option<String>,
    /// Every class of this jar (added to the class path).
    #[arg(long)]
    pub jar: Option<PathBuf>,
    /// Search time per class, e.g. `60s`, `2m`, `500ms` (default 60s).
    #[arg(long, value_parser = parse_duration)]
    pub budget: Option<Duration>,
    /// Stop each search after this many test executions (with --seed: reproducible).
    #[arg(long)]
    pub evaluations: Option<u64>,
    /// Output folder for tests and `report.json`.
    #[arg(long, default_value = "ferrosuite-tests")]
    pub out: PathBuf,
    /// JUnit version of the emitted tests.
    #[arg(long, default_value = "4", value_parser = ["4", "5"])]
    pub junit: String,
    /// Class path of JUnit for verification (default: the Debian junit4/junit5 jars).
    #[arg(long)]
    pub junit_classpath: Option<String>,
    /// Random seed (default: from the clock; printed and recorded in the report).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker JVMs (default: number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Search algorithm.
    #[arg(long, default_value = "dynamosa", value_parser = ["dynamosa", "mosa", "wholesuite", "random"])]
    pub algorithm: String,
    /// Per-test time limit in milliseconds during the search (a test that
    /// runs longer is ended and scored as a timeout; tests normally take
    /// microseconds, and classes with infinite loops would otherwise eat
    /// the budget).
    #[arg(long, default_value_t = 100)]
    pub test_timeout_ms: u64,
    /// Heap limit of each worker JVM in MB.
    #[arg(long, default_value_t = 1024)]
    pub heap_mb: u32,
}

/// Parses `60s`, `2m`, `500ms`, or a plain number of seconds.
fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = s.find(|c: char| !c.is_ascii_digit() && c != '.').map_or((s, "s"), |i| s.split_at(i));
    let n: f64 = num.parse().map_err(|_| format!("bad duration {s:?}: expected e.g. 60s, 2m, 500ms"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("bad duration unit {unit:?} in {s:?}: use ms, s, m or h")),
    };
    Ok(Duration::from_secs_f64(secs))
}

/// Runs the command.
///
/// # Errors
/// Bad input (class path, class not found) and output-folder errors; a
/// class whose generation fails is reported and the others go on.
pub fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let config = class_run::GenerateConfig::from_args(args)?;
    println!("ferrosuite generate: seed {}", config.seed);
    let classes = config.classes_to_test(args)?;
    std::fs::create_dir_all(&config.out).with_context(|| format!("cannot create {}", config.out.display()))?;
    let mut report = report::Report { version: env!("CARGO_PKG_VERSION").into(), seed: config.seed, classes: vec![] };
    for class in &classes {
        let class_report = class_run::generate_class(&config, class);
        println!("{}", class_report.summary_line());
        report.classes.push(class_report);
        // Written after every class, so a later failure loses nothing.
        write_report(&config.out, &report)?;
    }
    let failed = report.classes.iter().filter(|c| c.status != "ok").count();
    println!("{} classes, {failed} with problems; report: {}", classes.len(), config.out.join("report.json").display());
    Ok(if failed == 0 { ExitCode::Success } else { ExitCode::Partial })
}

fn write_report(out: &std::path::Path, report: &report::Report) -> anyhow::Result<()> {
    let path = out.join("report.json");
    std::fs::write(&path, serde_json::to_vec_pretty(report)?)
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("60s"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("15"), Ok(Duration::from_secs(15)));
        assert!(parse_duration("5 parsecs").is_err());
    }
}
