//! `ferrosuite bench`: measurements that print numbers (not timed tests).
//!
//! - `bench instrument --jar J...`: milliseconds per class to parse,
//!   analyse, instrument and encode every class of each jar.
//! - `bench verify --jar J...`: instruments every class of each jar, then
//!   loads, links and initialises each class under `java -Xverify:all`,
//!   once instrumented and once original; prints per jar the classes and
//!   the failures caused by instrumentation (should be 0).
//! - `bench branches`: our branch goals next to JaCoCo's branch counter.
//! - `bench exec`: test executions per second per worker.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use instrument::Instrumenter;

use crate::exit_code::ExitCode;
use crate::jdk::Jdk;

/// `bench` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum BenchCommand {
    /// Milliseconds per class for instrumenting whole jars.
    Instrument {
        /// Jars to instrument (every class).
        #[arg(long, required = true)]
        jar: Vec<PathBuf>,
        /// Repetitions; the best run is reported.
        #[arg(long, default_value_t = 3)]
        runs: usize,
    },
    /// Instrument jars and check every class loads under `-Xverify:all`.
    Verify {
        /// Jars to check (every class).
        #[arg(long, required = true)]
        jar: Vec<PathBuf>,
        /// Extra class path needed by the jars' classes.
        #[arg(long, default_value = "")]
        classpath: String,
        /// Keep the instrumented classes here instead of a temporary directory.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Probe every site, not only goals (stress mode).
        #[arg(long)]
        every_site: bool,
    },
    /// Test executions per second per worker, and worker start-up time.
    Exec {
        /// Measured executions per case.
        #[arg(long, default_value_t = 20_000)]
        executions: usize,
    },
    /// Our branch-goal count next to JaCoCo's branch counter, per class of a corpus file.
    Branches {
        /// Corpus file: lines `JAR CLASS`, jars relative to `--jar-dir`.
        #[arg(long, default_value = "corpus/visible.txt")]
        corpus: PathBuf,
        /// Where the corpus jars are.
        #[arg(long, default_value = "/usr/share/java")]
        jar_dir: PathBuf,
    },
}

/// Runs a bench subcommand.
///
/// # Errors
/// Class-path, I/O and JDK errors.
pub fn run(cmd: &BenchCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        BenchCommand::Instrument { jar, runs } => bench_instrument(jar, *runs),
        BenchCommand::Verify { jar, classpath, out, every_site } => {
            bench_verify(jar, classpath, out.as_ref(), *every_site)
        }
        BenchCommand::Branches { corpus, jar_dir } => super::jacoco::compare_branches(corpus, jar_dir),
        BenchCommand::Exec { executions } => super::bench_exec::bench_exec(*executions),
    }
}

fn bench_instrument(jars: &[PathBuf], runs: usize) -> anyhow::Result<ExitCode> {
    println!("jar\tclasses\tfailed\tbest_total_ms\tms_per_class");
    for jar in jars {
        let cp = model::classpath::ClassPath::new(std::slice::from_ref(jar))?;
        let names = cp.classes_in(jar).unwrap_or_default();
        let inputs: Vec<Vec<u8>> = names.iter().map(|n| cp.find_bytes(n).map(|b| b.bytes)).collect::<Result<_, _>>()?;
        let mut best = f64::INFINITY;
        let mut failed = 0;
        for _ in 0..runs.max(1) {
            let mut instrumenter = Instrumenter::default();
            let start = Instant::now();
            failed = inputs.iter().filter(|b| instrumenter.instrument(b).is_err()).count();
            best = best.min(start.elapsed().as_secs_f64() * 1000.0);
        }
        let per = best / inputs.len().max(1) as f64;
        println!("{}\t{}\t{failed}\t{best:.1}\t{per:.3}", jar.display(), inputs.len());
    }
    Ok(ExitCode::Success)
}

fn bench_verify(jars: &[PathBuf], extra_cp: &str, out: Option<&PathBuf>, every_site: bool) -> anyhow::Result<ExitCode> {
    let jdk = Jdk::find()?;
    let tmp = tempfile::tempdir()?;
    let loader_dir = tmp.path().join("loader");
    std::fs::create_dir_all(&loader_dir)?;
    let src = loader_dir.join("LoadAll.java");
    std::fs::write(&src, include_str!("../../java/LoadAll.java"))?;
    jdk.javac(&src, "", &loader_dir)?;
    println!("jar\tclasses\tnot_instrumented\toriginal_failures\tinstrumented_failures\tfailures_caused");
    let mut caused_total = 0;
    for jar in jars {
        let dir = match out {
            Some(o) => o.join(jar.file_stem().unwrap_or_default()),
            None => tmp.path().join(jar.file_stem().unwrap_or_default()),
        };
        let cp = model::classpath::ClassPath::new(std::slice::from_ref(jar))?;
        let names = cp.classes_in(jar).unwrap_or_default();
        let batch = super::instrument::instrument_to_dir(&cp, &names, &dir, every_site)
            .with_context(|| format!("instrumenting {}", jar.display()))?;
        let original_cp = format!("{}:{}:{extra_cp}", loader_dir.display(), jar.display());
        let instrumented_cp = format!("{}:{}:{}:{extra_cp}", loader_dir.display(), dir.display(), jar.display());
        let input = names.join("\n");
        let original = failures(&jdk.java_with_input(&["-Xverify:all", "-cp", &original_cp, "LoadAll"], &input)?);
        let instrumented =
            failures(&jdk.java_with_input(&["-Xverify:all", "-cp", &instrumented_cp, "LoadAll"], &input)?);
        let caused: Vec<&String> = instrumented.difference(&original).collect();
        for line in &caused {
            println!("  CAUSED {line}");
        }
        caused_total += caused.len();
        println!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            jar.display(),
            names.len(),
            batch.failed.len(),
            original.len(),
            instrumented.len(),
            caused.len()
        );
    }
    println!("total failures caused by instrumentation: {caused_total}");
    Ok(if caused_total == 0 { ExitCode::Success } else { ExitCode::Partial })
}

/// The `FAIL ...` lines of a LoadAll run.
fn failures(output: &str) -> BTreeSet<String> {
    output.lines().filter(|l| l.starts_with("FAIL ")).map(str::to_string).collect()
}
