//! `ferrosuite bench flaky`: generates a suite for each class of a corpus
//! file, then runs each emitted suite several times (10 by default) in
//! seeded random orders, each run in a fresh JVM confined like
//! verification's, and prints per class the tests, the failing ones (they
//! fail in every run) and the unstable ones (they fail in some runs but not
//! all), with the totals (issue 10: "0 failing and 0 unstable tests over 10
//! runs of each emitted suite in random order").

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use super::bench_coverage::{CompiledSuite, generate_and_compile};
use crate::exit_code::ExitCode;
use javarun::{Jdk, JunitJars};

/// Time limit per test method in the runs (as in verification).
const TEST_TIMEOUT: Duration = Duration::from_secs(10);

/// What `bench flaky` measures, as the user gave it.
#[derive(Debug, Clone)]
pub struct FlakyOptions {
    /// Corpus file: lines `JAR CLASS`.
    pub corpus: PathBuf,
    /// Where the corpus jars are.
    pub jar_dir: PathBuf,
    /// `generate`'s budget arguments (`--budget 10000ms` or `--evaluations N`).
    pub budget_args: Vec<String>,
    /// Runs of each suite.
    pub runs: usize,
    /// Output folder (one subfolder per class).
    pub out: PathBuf,
    /// Seed passed to `generate`; the random orders derive from it.
    pub seed: u64,
}

/// One measured class.
struct Row {
    class: String,
    tests: usize,
    failing: usize,
    unstable: usize,
    seconds: f64,
    note: String,
}

/// Runs the benchmark; exit code [`ExitCode::Partial`] when a test fails or
/// is unstable or a class could not be measured.
///
/// # Errors
/// Corpus, JDK or JUnit set-up errors; a class that fails is a row with a note.
pub fn bench_flaky(options: &FlakyOptions) -> anyhow::Result<ExitCode> {
    let entries = super::corpus::read_corpus(&options.corpus)?;
    let jdk = Jdk::find()?;
    let junit = super::bench_coverage::junit_jars()?;
    std::fs::create_dir_all(&options.out).with_context(|| format!("cannot create {}", options.out.display()))?;
    let mut rows = Vec::new();
    for entry in &entries {
        let class_path = entry.class_path(&options.jar_dir);
        let row = measure(options, &jdk, &junit, &class_path, &entry.class).unwrap_or_else(|e| Row {
            class: entry.class.clone(),
            tests: 0,
            failing: 0,
            unstable: 0,
            seconds: 0.0,
            note: crate::one_line(&format!("{e:#}")),
        });
        eprintln!("{}: {} tests, {} failing, {} unstable", row.class, row.tests, row.failing, row.unstable);
        rows.push(row);
    }
    print_table(options, &rows);
    let clean = rows.iter().all(|r| r.failing == 0 && r.unstable == 0 && r.note.is_empty());
    Ok(if clean { ExitCode::Success } else { ExitCode::Partial })
}

/// Generates and compiles the suite of `class`, then runs it
/// [`FlakyOptions::runs`] times in random orders.
fn measure(options: &FlakyOptions, jdk: &Jdk, junit: &JunitJars, class_path: &str, class: &str) -> anyhow::Result<Row> {
    let dir = options.out.join(class);
    let suite = generate_and_compile(jdk, junit, class_path, class, &options.budget_args, &dir, options.seed)?;
    let failures = failures_per_test(options, jdk, junit, class_path, &suite)?;
    for (name, &f) in suite.names.iter().zip(&failures).filter(|(_, f)| **f > 0) {
        eprintln!("  {class}.{name}: failed in {f} of {} runs", options.runs);
    }
    Ok(Row {
        class: class.to_string(),
        tests: suite.names.len(),
        failing: failures.iter().filter(|&&f| f == options.runs).count(),
        unstable: failures.iter().filter(|&&f| f > 0 && f < options.runs).count(),
        seconds: suite.seconds,
        note: String::new(),
    })
}

/// In how many of the runs each test of `suite` failed (by its index).
fn failures_per_test(
    options: &FlakyOptions,
    jdk: &Jdk,
    junit: &JunitJars,
    class_path: &str,
    suite: &CompiledSuite,
) -> anyhow::Result<Vec<usize>> {
    let confiner = javarun::Confiner { launcher: std::env::current_exe()? };
    let mut failures = vec![0; suite.names.len()];
    for run in 0..options.runs {
        let seed = options.seed.wrapping_add(run as u64);
        let order = generate::rounds::random_order(suite.names.len(), seed);
        let names: Vec<String> = order.iter().map(|&i| suite.names[i].clone()).collect();
        let verdicts = javarun::run_tests(
            jdk,
            &suite.classes,
            class_path,
            suite.test_class.as_str(),
            &names,
            junit,
            None,
            TEST_TIMEOUT,
            Some(&confiner),
        )?;
        for (&i, verdict) in order.iter().zip(&verdicts) {
            failures[i] += usize::from(!verdict.passed);
        }
    }
    Ok(failures)
}

fn print_table(options: &FlakyOptions, rows: &[Row]) {
    println!(
        "# ferrosuite bench flaky: {} ({}, seed {}), each suite run {} times in random order, a fresh JVM per run",
        options.corpus.display(),
        options.budget_args.join(" "),
        options.seed,
        options.runs
    );
    println!("| class | tests | failing | unstable | generate seconds | note |");
    println!("| --- | ---: | ---: | ---: | ---: | --- |");
    for r in rows {
        let note = r.note.replace('|', "/");
        println!("| {} | {} | {} | {} | {:.1} | {note} |", r.class, r.tests, r.failing, r.unstable, r.seconds);
    }
    let sum = |f: fn(&Row) -> usize| rows.iter().map(f).sum::<usize>();
    println!(
        "| **total** ({} classes) | {} | {} | {} | | {} not measured |",
        rows.len(),
        sum(|r| r.tests),
        sum(|r| r.failing),
        sum(|r| r.unstable),
        rows.iter().filter(|r| !r.note.is_empty()).count()
    );
}

/// Default output folder of the benchmark.
pub fn default_out() -> PathBuf {
    PathBuf::from("target/bench-flaky")
}
