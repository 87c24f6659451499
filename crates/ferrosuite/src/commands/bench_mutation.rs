//! `ferrosuite bench mutation`: the mutation score of the suites a
//! `bench coverage --out DIR` run emitted, measured as a user runs them.
//!
//! For each class of a corpus file, the suite in `DIR/<class>` is compiled
//! again with javac and run under JUnit (`FerroRunner`, confined, one JVM
//! for the whole class unless a test hangs it) against the class's mutant
//! schema (`Instrumenter::instrument_mutants`: EvoSuite's operators, all
//! mutants in one class, switched by `ferrosuite.runtime.Mutants.active`),
//! placed on the class path before the original jar:
//!
//! 1. every test once with no mutant active: a test that fails there is
//!    left out of the kills (it would kill every mutant);
//! 2. every test with each *reached* mutant active: a mutant on a line the
//!    suite executed (JaCoCo's line coverage of one run of the suite on the
//!    original classes); a mutant without a line number counts as reached;
//! 3. a mutant is *killed* when a test fails or exceeds its time limit with
//!    it active (the runner then skips its other tests).
//!
//! It prints per class the mutants, the reached, the killed and the score
//! (killed / mutants, as EvoSuite and PIT report it), as CSV and as a
//! markdown table with a total row, then each surviving mutant on a
//! covered line: the behaviour the suite does not pin down.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use instrument::{Instrumenter, Mutant};
use javarun::{Jdk, JunitJars, TestRun, TestVerdict};
use model::names::BinaryName;

use super::bench_coverage::{CompiledSuite, compile_emitted, pct};
use super::corpus::CorpusEntry;
use crate::exit_code::ExitCode;

/// Time limit of one test with a mutant active: a mutant that makes a test
/// loop counts as killed once this is over.
const TEST_LIMIT: Duration = Duration::from_secs(2);

/// The mutation analysis of one class's suite.
#[derive(Debug, Clone, Default, PartialEq)]
struct Row {
    class: String,
    /// Mutants of the class (its mutant schema).
    mutants: usize,
    /// Those on a line the suite executed.
    reached: usize,
    /// Those a test killed.
    killed: usize,
    /// Reached mutants not run to the end before the class's time limit.
    unfinished: usize,
    /// Tests that failed with no mutant active (left out of the kills).
    failing_tests: usize,
    /// The surviving reached mutants: `Class line N: description`.
    survivors: Vec<String>,
    /// Why the class could not be measured (empty when it was).
    note: String,
}

/// Runs the benchmark on the suites of `dir` for the classes of `corpus`,
/// with at most `seconds_per_class` of mutant runs per class.
///
/// # Errors
/// Corpus, JDK or JUnit set-up errors; a class that cannot be measured is
/// a row with a note.
pub fn bench_mutation(corpus: &Path, dir: &Path, jar_dir: &Path, seconds_per_class: u64) -> anyhow::Result<ExitCode> {
    let entries = super::corpus::read_corpus(corpus)?;
    let jdk = Jdk::find()?;
    let junit = super::bench_coverage::junit_jars()?;
    let limit = Duration::from_secs(seconds_per_class.max(1));
    let mut rows = Vec::new();
    for entry in &entries {
        let row = measure(&jdk, &junit, entry, jar_dir, &dir.join(&entry.class), limit).unwrap_or_else(|e| Row {
            class: entry.class.clone(),
            note: crate::one_line(&format!("{e:#}")),
            ..Row::default()
        });
        eprintln!("{}: {} of {} mutants killed", row.class, row.killed, row.mutants);
        rows.push(row);
    }
    print_tables(&rows);
    Ok(if rows.iter().all(|r| r.note.is_empty()) { ExitCode::Success } else { ExitCode::Partial })
}

/// The mutation analysis of the suite in `class_dir` (see the module docs).
fn measure(
    jdk: &Jdk,
    junit: &JunitJars,
    entry: &CorpusEntry,
    jar_dir: &Path,
    class_dir: &Path,
    limit: Duration,
) -> anyhow::Result<Row> {
    let (class, class_path) = (entry.class.as_str(), entry.class_path(jar_dir));
    let suite = compile_emitted(jdk, junit, &class_path, class_dir, 0.0)?;
    let cp = super::open_classpath(&class_path)?;
    let bytes = cp.find_bytes(class)?.bytes;
    let schema = Instrumenter::default().instrument_mutants(&bytes).context("cannot make the mutant schema")?;
    let schema_dir = class_dir.join("mutants");
    write_schema(&schema_dir, &schema.class.class_file_path(), &schema.bytes)?;
    if cp.is_sealed(class) {
        // The schema first on the class path must not be the one class of a sealed package from a folder.
        generate::prepare::copy_package(&cp, &BinaryName::new(class), &schema_dir)?;
    }
    let release = javarun::JacocoRelease::for_major(cp.load(class)?.major_version);
    let covered = covered_lines(jdk, junit, &suite, &class_path, release, class, &entry.main_jar(jar_dir))?;
    let reached: Vec<&Mutant> =
        schema.mutants.iter().filter(|m| m.line.is_none_or(|l| covered.contains(&u32::from(l)))).collect();
    let runs = Runs { jdk, junit, suite: &suite, class_path: format!("{}:{class_path}", schema_dir.display()) };
    let baseline = runs.run(&suite.names.iter().map(|t| format!("{t}@0")).collect::<Vec<_>>(), None)?;
    let passing: Vec<&String> = suite.names.iter().zip(&baseline).filter(|(_, v)| v.passed).map(|(t, _)| t).collect();
    let order: Vec<String> =
        reached.iter().flat_map(|m| passing.iter().map(move |t| format!("{t}@{}", m.id))).collect();
    let verdicts = runs.run(&order, Some(Instant::now() + limit))?;
    let outcome = outcomes(&order, &verdicts);
    let survivors = reached.iter().filter(|m| outcome.get(&m.id) == Some(&false));
    Ok(Row {
        class: class.to_string(),
        mutants: schema.mutants.len(),
        reached: reached.len(),
        killed: outcome.values().filter(|k| **k).count(),
        unfinished: reached.iter().filter(|m| !outcome.contains_key(&m.id)).count(),
        failing_tests: suite.names.len() - passing.len(),
        survivors: survivors.map(|m| format!("{class} {}", m.description)).collect(),
        note: String::new(),
    })
}

/// The lines of `class` that the suite executes, measured by running it
/// once under JUnit with the JaCoCo agent on the original classes (into
/// `mutation-jacoco.exec` next to the suite's classes).
fn covered_lines(
    jdk: &Jdk,
    junit: &JunitJars,
    suite: &CompiledSuite,
    class_path: &str,
    release: javarun::JacocoRelease,
    class: &str,
    main_jar: &Path,
) -> anyhow::Result<BTreeSet<u32>> {
    let exec_file = suite.classes.with_file_name("mutation-jacoco.exec");
    let _ = std::fs::remove_file(&exec_file);
    let jacoco = javarun::JacocoSetup::new(jdk, release, &exec_file, class)?;
    let confiner = javarun::Confiner { launcher: std::env::current_exe()? };
    let test_class = suite.test_class.as_str();
    let limit = Duration::from_secs(10);
    javarun::run_tests(
        jdk,
        &suite.classes,
        class_path,
        test_class,
        &suite.names,
        junit,
        Some(&jacoco),
        limit,
        Some(&confiner),
    )?;
    let lines = javarun::jacoco_covered_lines(jdk, release, &exec_file, main_jar, class)?;
    Ok(lines.get(class).cloned().unwrap_or_default())
}

/// Writes the class file of a mutant schema (at `class_file`, relative)
/// and the runtime classes it calls under `dir`, emptied first.
fn write_schema(dir: &Path, class_file: &str, bytes: &[u8]) -> anyhow::Result<()> {
    let _ = std::fs::remove_dir_all(dir);
    let file = dir.join(class_file);
    std::fs::create_dir_all(file.parent().unwrap_or(dir))
        .with_context(|| format!("cannot create {}", dir.display()))?;
    std::fs::write(&file, bytes).with_context(|| format!("cannot write {}", file.display()))?;
    instrument::tracer::write_runtime(dir).with_context(|| format!("cannot write the runtime to {}", dir.display()))
}

/// JUnit runs of one compiled suite against the mutant schema.
struct Runs<'a> {
    jdk: &'a Jdk,
    junit: &'a JunitJars,
    suite: &'a CompiledSuite,
    /// The schema's folder, then the class path of the class under test.
    class_path: String,
}

impl Runs<'_> {
    /// Runs `order` (`test@mutant` names) in one JVM (a new one after a
    /// test that hangs), until `deadline`.
    fn run(&self, order: &[String], deadline: Option<Instant>) -> anyhow::Result<Vec<TestVerdict>> {
        let confiner = javarun::Confiner { launcher: std::env::current_exe()? };
        let run = TestRun {
            jdk: self.jdk,
            test_classes_dir: &self.suite.classes,
            class_path: &self.class_path,
            test_class: self.suite.test_class.as_str(),
            junit: self.junit,
            jacoco: None,
            timeout: TEST_LIMIT,
            confiner: Some(&confiner),
            deadline,
            isolated: false,
            enable_assertions: false,
            extra: None,
        };
        Ok(run.run(order)?)
    }
}

/// Whether each mutant whose runs of `order` all have a verdict was
/// killed (a test failed or timed out); a mutant with a run cut short by
/// the deadline, or not run, is left out.
fn outcomes(order: &[String], verdicts: &[TestVerdict]) -> BTreeMap<u32, bool> {
    let mutant = |name: &str| name.rsplit_once('@').and_then(|(_, id)| id.parse::<u32>().ok());
    let mut killed: BTreeMap<u32, bool> = BTreeMap::new();
    let mut cut_short = BTreeSet::new();
    for (i, name) in order.iter().enumerate() {
        let Some(id) = mutant(name) else { continue };
        match verdicts.get(i) {
            Some(v) if v.stopped_at_deadline() => {
                cut_short.insert(id);
            }
            Some(v) => *killed.entry(id).or_default() |= !v.passed,
            None => {
                cut_short.insert(id);
            }
        }
    }
    killed.retain(|id, k| *k || !cut_short.contains(id));
    killed
}

/// Killed / mutants as a percentage, `-` without mutants.
fn score(killed: usize, mutants: usize) -> String {
    pct((mutants > 0).then(|| killed as f64 / mutants as f64))
}

fn print_tables(rows: &[Row]) {
    println!("class,mutants,reached,killed,score,unfinished,failing_tests,note");
    for r in rows {
        let (class, note) = (&r.class, r.note.replace(',', ";"));
        let score = score(r.killed, r.mutants);
        println!(
            "{class},{},{},{},{score},{},{},{note}",
            r.mutants, r.reached, r.killed, r.unfinished, r.failing_tests
        );
    }
    println!();
    println!("| class | mutants | reached | killed | score % | unfinished | failing tests |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        let score = score(r.killed, r.mutants);
        println!(
            "| {} | {} | {} | {} | {score} | {} | {} |",
            r.class, r.mutants, r.reached, r.killed, r.unfinished, r.failing_tests
        );
    }
    let sum = |f: fn(&Row) -> usize| rows.iter().map(f).sum::<usize>();
    let (mutants, killed) = (sum(|r| r.mutants), sum(|r| r.killed));
    let mean = super::stats::mean(
        &rows.iter().filter(|r| r.mutants > 0).map(|r| r.killed as f64 / r.mutants as f64).collect::<Vec<_>>(),
    );
    println!(
        "| **total** (mean score {}) | {mutants} | {} | {killed} | {} | {} | {} |",
        pct(mean),
        sum(|r| r.reached),
        score(killed, mutants),
        sum(|r| r.unfinished),
        sum(|r| r.failing_tests)
    );
    println!();
    println!("Surviving mutants on covered lines:");
    for r in rows {
        for survivor in &r.survivors {
            println!("- {survivor}");
        }
    }
}

/// Default `--dir` of the benchmark: where `bench coverage` writes by default.
pub fn default_dir() -> PathBuf {
    super::bench_coverage::default_out()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(passed: bool) -> TestVerdict {
        TestVerdict { passed, ..TestVerdict::default() }
    }

    #[test]
    fn a_mutant_is_killed_by_any_failing_test_and_survives_only_when_all_ran() {
        let order: Vec<String> = ["a@1", "b@1", "a@2", "b@2", "a@3", "b@3"].map(String::from).to_vec();
        let stopped = TestVerdict {
            passed: false,
            message: Some("stopped at the run's deadline (the JVM was killed)".into()),
            ..TestVerdict::default()
        };
        let verdicts = [verdict(true), verdict(false), verdict(true), verdict(true), verdict(true), stopped];
        let outcome = outcomes(&order, &verdicts);
        assert_eq!(outcome.get(&1), Some(&true), "killed by b");
        assert_eq!(outcome.get(&2), Some(&false), "survived both");
        assert_eq!(outcome.get(&3), None, "cut short: unknown");
        assert_eq!(outcomes(&order, &verdicts[..3]).get(&2), None, "not all run");
    }
}
