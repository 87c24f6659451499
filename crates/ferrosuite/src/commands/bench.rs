//! `ferrosuite bench`: measurements that print numbers (not timed tests).
//!
//! - `bench instrument --jar J...`: milliseconds per class to parse,
//!   analyse, instrument and encode every class of each jar.
//! - `bench verify --jar J...`: instruments every class of each jar, then
//!   loads, links and initialises each class under `java -Xverify:all`,
//!   once instrumented and once original; prints per jar the classes and
//!   the failures caused by instrumentation (should be 0). A class of
//!   version 50 whose StackMapTable the type checker rejects counts as a
//!   failure even though the JVM falls back to the old verifier; a jar
//!   whose `java` runs do not both complete (exit status 0 and a `TOTAL`
//!   line for every class) is reported as unchecked, with exit code 4.
//! - `bench branches`: our branch goals next to JaCoCo's branch counter.
//! - `bench exec`: test executions per second per worker.
//! - `bench coverage`: generate on a corpus, JaCoCo line and branch coverage.
//! - `bench flaky`: generate on a corpus, then run each suite 10 times in
//!   random order: failing and unstable tests.
//! - `bench draw`: draw a corpus from jars by a written rule, in two halves.
//! - `bench triage`: the causes of the uncovered branch goals of a
//!   `bench coverage` run, per class ([`super::bench_triage`]).
//! - `bench kat`: building the KAT knowledge graph and loading the shipped one.
//! - `bench ablation`: generate on a corpus with and without one feature,
//!   several seeds each; branch coverage, A12 and Mann-Whitney U per class
//!   ([`super::bench_ablation`]).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use instrument::Instrumenter;

use super::join_classpath;
use crate::exit_code::ExitCode;
use javarun::Jdk;
use model::names::BinaryName;

/// `bench` subcommands (`bench kat` is in [`super::kat`]).
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
        /// Add the static reset to every class, and after loading them all
        /// call every reset once (prints the resets that ran and threw).
        #[arg(long)]
        static_reset: bool,
    },
    /// Test executions per second per worker, and worker start-up time.
    Exec {
        /// Measured executions per case.
        #[arg(long, default_value_t = 20_000)]
        executions: usize,
    },
    /// Generate tests for each class of a corpus, then measure them with JaCoCo.
    Coverage {
        /// Corpus file: lines `JAR[:DEPENDENCY...] CLASS`, jars relative to `--jar-dir`.
        #[arg(long, default_value = "corpus/visible.txt")]
        corpus: PathBuf,
        /// Where the corpus jars are.
        #[arg(long, default_value = "/usr/share/java")]
        jar_dir: PathBuf,
        /// Search budget per class (seconds).
        #[arg(long, default_value_t = 60)]
        budget_secs: u64,
        /// Output folder (one subfolder per class).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Seed passed to generate.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Generate tests for each class of a corpus, then run each suite several times in random order.
    Flaky {
        /// Corpus file: lines `JAR[:DEPENDENCY...] CLASS`, jars relative to `--jar-dir`.
        #[arg(long, default_value = "corpus/visible.txt")]
        corpus: PathBuf,
        /// Where the corpus jars are.
        #[arg(long, default_value = "/usr/share/java")]
        jar_dir: PathBuf,
        /// Time budget per class (seconds).
        #[arg(long, default_value_t = 10)]
        budget_secs: u64,
        /// An evaluation budget per class instead of the time budget (then
        /// the suites depend on the seed only).
        #[arg(long)]
        evaluations: Option<u64>,
        /// Runs of each emitted suite, each in random order in a fresh JVM.
        #[arg(long, default_value_t = 10)]
        runs: usize,
        /// Output folder (one subfolder per class).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Seed passed to generate; the random orders derive from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// KAT knowledge graph: seconds to build it from src.zip, milliseconds to load the shipped one.
    Kat {
        /// The JDK sources (Debian: openjdk-17-source).
        #[arg(long, default_value = super::kat::DEFAULT_SRC_ZIP)]
        src_zip: PathBuf,
        /// Repetitions; the best run is reported.
        #[arg(long, default_value_t = 3)]
        runs: usize,
    },
    /// Draw a corpus from jars by the rule written in `commands/corpus.rs`.
    Draw(super::corpus::DrawArgs),
    /// Why the branch goals of a `bench coverage --out DIR` run stay uncovered: causes per class of a corpus.
    Triage {
        /// Corpus file of the run: lines `JAR[:DEPENDENCY...] CLASS`, jars relative to `--jar-dir`.
        #[arg(long)]
        corpus: PathBuf,
        /// The run's output folder: `DIR/<class>/report.json` per class.
        #[arg(long)]
        dir: PathBuf,
        /// Where the corpus jars are.
        #[arg(long, default_value = "/usr/share/java")]
        jar_dir: PathBuf,
    },
    /// Mutation score of the suites of a `bench coverage --out DIR` run, run under JUnit against each class's mutants.
    Mutation {
        /// Corpus file of the run: lines `JAR[:DEPENDENCY...] CLASS`, jars relative to `--jar-dir`.
        #[arg(long, default_value = "corpus/visible.txt")]
        corpus: PathBuf,
        /// The run's output folder: `DIR/<class>/` holds the suite, `report.json` and `jacoco.exec`.
        #[arg(long, default_value_os_t = super::bench_mutation::default_dir())]
        dir: PathBuf,
        /// Where the corpus jars are.
        #[arg(long, default_value = "/usr/share/java")]
        jar_dir: PathBuf,
        /// Time for the mutant runs of one class (seconds); mutants not run by then are counted as unfinished.
        #[arg(long, default_value_t = 120)]
        seconds_per_class: u64,
    },
    /// Generate with and without one feature (`--no-<feature>`) over seeds: branch coverage, A12, Mann-Whitney U per class.
    Ablation(super::bench_ablation::AblationArgs),
    /// Our branch-goal count next to JaCoCo's branch counter, per class of a corpus file.
    Branches {
        /// Corpus file: lines `JAR[:DEPENDENCY...] CLASS`, jars relative to `--jar-dir`.
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
        BenchCommand::Verify { jar, classpath, out, every_site, static_reset } => {
            bench_verify(jar, classpath, out.as_ref(), *every_site, *static_reset)
        }
        BenchCommand::Draw(args) => super::corpus::draw(args),
        BenchCommand::Ablation(args) => super::bench_ablation::bench_ablation(args),
        BenchCommand::Triage { corpus, dir, jar_dir } => super::bench_triage::bench_triage(corpus, dir, jar_dir),
        BenchCommand::Mutation { corpus, dir, jar_dir, seconds_per_class } => {
            super::bench_mutation::bench_mutation(corpus, dir, jar_dir, *seconds_per_class)
        }
        BenchCommand::Branches { corpus, jar_dir } => super::jacoco::compare_branches(corpus, jar_dir),
        BenchCommand::Kat { src_zip, runs } => super::kat::bench(src_zip, *runs),
        BenchCommand::Exec { executions } => super::bench_exec::bench_exec(*executions),
        BenchCommand::Flaky { corpus, jar_dir, budget_secs, evaluations, runs, out, seed } => {
            let budget_args = match evaluations {
                Some(n) => vec!["--evaluations".to_string(), n.to_string()],
                None => vec!["--budget".to_string(), format!("{budget_secs}s")],
            };
            super::bench_flaky::bench_flaky(&super::bench_flaky::FlakyOptions {
                corpus: corpus.clone(),
                jar_dir: jar_dir.clone(),
                budget_args,
                runs: *runs,
                out: out.clone().unwrap_or_else(super::bench_flaky::default_out),
                seed: *seed,
            })
        }
        BenchCommand::Coverage { corpus, jar_dir, budget_secs, out, seed } => {
            let out = out.clone().unwrap_or_else(super::bench_coverage::default_out);
            super::bench_coverage::bench_coverage(
                corpus,
                jar_dir,
                std::time::Duration::from_secs(*budget_secs),
                &out,
                *seed,
            )
        }
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

fn bench_verify(
    jars: &[PathBuf],
    extra_cp: &str,
    out: Option<&PathBuf>,
    every_site: bool,
    static_reset: bool,
) -> anyhow::Result<ExitCode> {
    let jdk = Jdk::find()?;
    let tmp = tempfile::tempdir()?;
    let loader_dir = tmp.path().join("loader");
    std::fs::create_dir_all(&loader_dir)?;
    let src = loader_dir.join("LoadAll.java");
    std::fs::write(&src, include_str!("../../java/LoadAll.java"))?;
    javarun::javac(&jdk, &src, "", &loader_dir)?;
    println!("jar\tclasses\tnot_instrumented\toriginal_failures\tinstrumented_failures\tfailures_caused");
    let mut caused_total = 0;
    let mut unchecked_jars = 0;
    for (i, jar) in jars.iter().enumerate() {
        let dir = match out {
            Some(o) => o.join(jar.file_stem().unwrap_or_default()),
            None => tmp.path().join(jar.file_stem().unwrap_or_default()),
        };
        let cp = model::classpath::ClassPath::new(std::slice::from_ref(jar))?;
        let names = cp.classes_in(jar).unwrap_or_default();
        let binary_names: Vec<BinaryName> = names.iter().map(BinaryName::new).collect();
        let mut instrumenter = Instrumenter::default();
        if static_reset {
            instrumenter = instrumenter.with_static_reset(instrument::static_reset::ResetScope::every_class());
        }
        let batch = instrument::batch::instrument_to_dir_with(instrumenter, &cp, &binary_names, &dir, every_site)
            .with_context(|| format!("instrumenting {}", jar.display()))?;
        let loader = loader_dir.display().to_string();
        let jar_entry = jar.display().to_string();
        let original_cp = join_classpath(&[loader.as_str(), &jar_entry, extra_cp]);
        let instrumented_cp = join_classpath(&[loader.as_str(), &dir.display().to_string(), &jar_entry, extra_cp]);
        let original = load_all(&jdk, &original_cp, &names, &tmp.path().join(format!("{i}-original.log")))?;
        let instrumented = load_all(&jdk, &instrumented_cp, &names, &tmp.path().join(format!("{i}-instrumented.log")))?;
        let (original, instrumented) = match (original, instrumented) {
            (Ok((o, _)), Ok(i)) => (o, i),
            (o, i) => {
                for (run, result) in [("original", o), ("instrumented", i)] {
                    if let Err(reason) = result {
                        println!("  CHECK FAILED {run} run: {reason}");
                    }
                }
                unchecked_jars += 1;
                let (n, failed) = (names.len(), batch.failed.len());
                println!("{}\t{n}\t{failed}\tunchecked\tunchecked\tunchecked", jar.display());
                continue;
            }
        };
        let (instrumented, resets) = instrumented;
        let caused: Vec<&String> = instrumented.difference(&original).collect();
        for line in &caused {
            println!("  CAUSED {line}");
        }
        caused_total += caused.len();
        if let Some((ran, threw)) = resets.filter(|_| static_reset) {
            println!("  resets\t{ran}\tthrew\t{threw}");
        }
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
    if unchecked_jars > 0 {
        println!("jars whose check did not complete: {unchecked_jars}");
    }
    Ok(if caused_total == 0 && unchecked_jars == 0 { ExitCode::Success } else { ExitCode::Partial })
}

/// What a `LoadAll` run found: its `FAIL ...` lines, and the classes whose
/// static reset ran and how many of those threw (see [`reset_line`]).
type Loaded = (BTreeSet<String>, Option<(usize, usize)>);

/// Log line of HotSpot's `verification` tag when the type checker rejects a
/// class of version 50 or older and the old inference verifier is tried.
const FAILOVER: &str = "Fail over class verification to old verifier for: ";

/// Runs `LoadAll` on `names` under `-Xverify:all` with class path `cp`;
/// returns its `FAIL ...` lines (and its count of static resets, see
/// [`reset_line`]), plus one line per class whose StackMapTable
/// the type checker rejected (read from the verification log written to
/// `log`). JDK 17 has no `-XX:-FailOverToOldVerifier` any more: a class of
/// version 50 that the type checker rejects is verified again by the old
/// verifier and loads, which would hide a bad StackMapTable.
///
/// The inner `Err` says why the run cannot be trusted: `java` exited with a
/// non-zero status, or `LoadAll` did not print its `TOTAL n FAILED k` line
/// for all of `names` (a static initialiser may have ended the JVM).
///
/// # Errors
/// When `java` cannot be run, or the log cannot be read.
fn load_all(jdk: &Jdk, cp: &str, names: &[String], log: &std::path::Path) -> anyhow::Result<Result<Loaded, String>> {
    let log_option = format!("-Xlog:verification=info:file={}:none:filecount=0", log.display());
    let run = javarun::java_with_input(jdk, &["-Xverify:all", &log_option, "-cp", cp, "LoadAll"], &names.join("\n"))?;
    let mut failures = failures(&run.stdout);
    let mut problems = Vec::new();
    if !run.status.success() {
        problems.push(format!("java exited with {}", run.status));
    }
    match total_line(&run.stdout) {
        None => problems
            .push("LoadAll printed no `TOTAL n FAILED k` line (it stopped early or lost its standard output)".into()),
        Some((total, _)) if total != names.len() => {
            problems.push(format!("LoadAll loaded {total} of {} classes", names.len()));
        }
        Some((_, failed)) if failed != failures.len() => {
            problems.push(format!("LoadAll counted {failed} failures but printed {}", failures.len()));
        }
        Some(_) => {}
    }
    if !problems.is_empty() {
        return Ok(Err(problems.join("; ")));
    }
    let text = std::fs::read_to_string(log).with_context(|| format!("cannot read {}", log.display()))?;
    let wanted: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    for class in text.lines().filter_map(|l| l.trim().strip_prefix(FAILOVER)) {
        if wanted.contains(class) {
            failures.insert(format!(
                "FAIL {class} StackMapTable rejected by the type checker (only the old verifier accepts the class)"
            ));
        }
    }
    Ok(Ok((failures, reset_line(&run.stdout))))
}

/// `(n, k)` of LoadAll's line `RESETS n THREW k` (printed when the class
/// path has the static reset's runtime).
fn reset_line(output: &str) -> Option<(usize, usize)> {
    let line = output.lines().find(|l| l.starts_with("RESETS "))?;
    match line.split_whitespace().collect::<Vec<_>>()[..] {
        ["RESETS", n, "THREW", k] => Some((n.parse().ok()?, k.parse().ok()?)),
        _ => None,
    }
}

/// The `FAIL ...` lines of a LoadAll run.
fn failures(output: &str) -> BTreeSet<String> {
    output.lines().filter(|l| l.starts_with("FAIL ")).map(str::to_string).collect()
}

/// `(n, k)` of LoadAll's last line `TOTAL n FAILED k`.
fn total_line(output: &str) -> Option<(usize, usize)> {
    let line = output.lines().rev().find(|l| l.starts_with("TOTAL "))?;
    match line.split_whitespace().collect::<Vec<_>>()[..] {
        ["TOTAL", n, "FAILED", k] => Some((n.parse().ok()?, k.parse().ok()?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_line_is_read_from_the_end() {
        assert_eq!(total_line("FAIL a.B x\nTOTAL 3 FAILED 1\n"), Some((3, 1)));
        assert_eq!(total_line("FAIL a.B x\n"), None);
        assert_eq!(total_line("TOTAL three FAILED 1\n"), None);
    }
}
