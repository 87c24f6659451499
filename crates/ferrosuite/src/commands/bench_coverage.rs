//! `ferrosuite bench coverage`: runs `generate` on each class of a corpus
//! file at a budget, then compiles the emitted suite, runs it under JUnit
//! with the JaCoCo agent restricted to the class under test and with
//! assertions enabled (`-ea`, the default of Maven Surefire and Gradle), and prints
//! JaCoCo's line and branch coverage per class (CSV and a markdown table)
//! with the means, the failing tests and the wall time per class.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::exit_code::ExitCode;
use javarun::Jdk;
use javarun::{self, JacocoSetup, JunitJars};
use model::names::BinaryName;

/// One measured `generate` run of a corpus class.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct Row {
    /// Binary name of the class under test.
    pub class: String,
    /// JaCoCo's line coverage of the class, as a ratio (`None`: no lines, or not measured).
    pub lines: Option<f64>,
    /// JaCoCo's branch coverage of the class, as a ratio (`None`: no branches, or not measured).
    pub branches: Option<f64>,
    /// Test methods of the emitted suite.
    pub tests: usize,
    /// Those that failed under JUnit.
    pub failing: usize,
    /// Wall time of `generate`, in seconds.
    pub seconds: f64,
    /// The search's executions per second per worker (`report.json`'s
    /// `executions_per_second_per_worker`; `None` when not measured): how
    /// fast the machine ran, since coverage at a time budget depends on it.
    #[serde(default)]
    pub executions_per_second: Option<f64>,
    /// Why the run could not be measured (empty when it was).
    pub note: String,
}

impl Row {
    /// The row of a run of `class` that could not be measured, with `error` (on one line) as its note.
    pub(super) fn failed(class: &str, error: &anyhow::Error) -> Row {
        Row {
            class: class.to_string(),
            lines: None,
            branches: None,
            tests: 0,
            failing: 0,
            seconds: 0.0,
            executions_per_second: None,
            note: crate::one_line(&format!("{error:#}")),
        }
    }
}

/// The JUnit 4 jars the benchmarks compile and run the emitted suites
/// with, plus Mockito's when installed (`generate` mocks by default).
///
/// # Errors
/// A missing JUnit 4 jar.
pub(super) fn junit_jars() -> anyhow::Result<JunitJars> {
    let junit = JunitJars::debian(4)?;
    Ok(junit.with_mockito().unwrap_or(junit))
}

/// `generate`'s arguments for a time budget: `--budget <ms>ms`.
pub(super) fn budget_args(budget: Duration) -> Vec<String> {
    vec!["--budget".to_string(), format!("{}ms", budget.as_millis())]
}

/// Runs the benchmark.
///
/// # Errors
/// Corpus, JDK, JUnit or JaCoCo set-up errors; a class that fails is a row
/// with a note.
pub fn bench_coverage(
    corpus: &Path,
    jar_dir: &Path,
    budget: Duration,
    out: &Path,
    seed: u64,
) -> anyhow::Result<ExitCode> {
    let entries = super::corpus::read_corpus(corpus)?;
    let jdk = Jdk::find()?;
    let junit = junit_jars()?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut rows = Vec::new();
    for entry in &entries {
        let dir = out.join(&entry.class);
        let row = measure(&jdk, &junit, entry, jar_dir, &budget_args(budget), &dir, seed)
            .unwrap_or_else(|e| Row::failed(&entry.class, &e));
        eprintln!("{}: branches {}, lines {}", row.class, pct(row.branches), pct(row.lines));
        rows.push(row);
    }
    print_tables(&rows, budget);
    let failing: usize = rows.iter().map(|r| r.failing).sum();
    Ok(if failing == 0 && rows.iter().all(|r| r.note.is_empty()) { ExitCode::Success } else { ExitCode::Partial })
}

/// Runs `generate` on the class of `entry` with `generate_args` (a budget,
/// see [`budget_args`], and any other options) and `seed` into `dir`
/// ([`generate_and_compile`]), then runs the emitted suite under JUnit with
/// the JaCoCo agent restricted to the class and with `-ea`, and reads JaCoCo's line and
/// branch coverage of it.
///
/// # Errors
/// When `generate` writes no suite, the suite does not compile, or JUnit or
/// JaCoCo cannot run.
pub(super) fn measure(
    jdk: &Jdk,
    junit: &JunitJars,
    entry: &super::corpus::CorpusEntry,
    jar_dir: &Path,
    generate_args: &[String],
    dir: &Path,
    seed: u64,
) -> anyhow::Result<Row> {
    let (class, class_path) = (entry.class.as_str(), entry.class_path(jar_dir));
    let suite = generate_and_compile(jdk, junit, &class_path, class, generate_args, dir, seed)?;
    let exec_file = dir.join("jacoco.exec");
    let major = super::open_classpath(&class_path)?.load(class)?.major_version;
    let release = javarun::JacocoRelease::for_major(major);
    let jacoco = JacocoSetup::new(jdk, release, &exec_file, class)?;
    let mut verdicts = Vec::new();
    // The regression suite, then the findings' witness tests (JaCoCo appends).
    for (test_class, names) in
        std::iter::once((&suite.test_class, &suite.names)).chain(suite.findings.iter().map(|(c, n)| (c, n)))
    {
        let confiner = javarun::Confiner { launcher: std::env::current_exe()? };
        let run = javarun::TestRun {
            jdk,
            test_classes_dir: &suite.classes,
            class_path: &class_path,
            test_class: test_class.as_str(),
            junit,
            jacoco: Some(&jacoco),
            timeout: Duration::from_secs(10),
            confiner: Some(&confiner),
            deadline: None,
            isolated: false,
            // As Maven Surefire and Gradle run tests by default, so that the
            // sides of `assert` statements count as a user's build counts them.
            enable_assertions: true,
            extra: None,
        };
        verdicts.extend(run.run(names)?);
    }
    let coverage = javarun::jacoco_coverage(jdk, release, &exec_file, &entry.main_jar(jar_dir), class)?;
    Ok(Row {
        class: class.to_string(),
        lines: coverage.line_ratio(),
        branches: coverage.branch_ratio(),
        tests: verdicts.len(),
        failing: verdicts.iter().filter(|v| !v.passed).count(),
        seconds: suite.seconds,
        executions_per_second: executions_per_second(dir),
        note: String::new(),
    })
}

/// A suite that `generate` emitted for a corpus class, compiled.
pub(super) struct CompiledSuite {
    /// The test class.
    pub test_class: BinaryName,
    /// Its test methods, in the emitted order.
    pub names: Vec<String>,
    /// The findings' witness tests, when `generate` wrote any: their test
    /// class and its test methods (compiled into the same folder).
    pub findings: Option<(BinaryName, Vec<String>)>,
    /// The folder of its compiled classes.
    pub classes: PathBuf,
    /// Wall time of `generate`, in seconds.
    pub seconds: f64,
}

/// Runs `ferrosuite generate` on `class` of `class_path` (`:`-separated)
/// with `budget_args` (`--budget` or `--evaluations`, and any other
/// options of `generate`) and `seed`, writing
/// into `dir` (emptied first), then compiles the emitted suite into
/// `dir/bench-classes`.
///
/// # Errors
/// When `generate` cannot run or writes no test file, or the suite does not compile.
pub(super) fn generate_and_compile(
    jdk: &Jdk,
    junit: &JunitJars,
    class_path: &str,
    class: &str,
    budget_args: &[String],
    dir: &Path,
    seed: u64,
) -> anyhow::Result<CompiledSuite> {
    let _ = std::fs::remove_dir_all(dir);
    let start = Instant::now();
    let status = Command::new(std::env::current_exe()?)
        .arg("--java-home")
        .arg(&jdk.home)
        .args(["generate", "--classpath", class_path, "--class", class])
        .args(budget_args)
        .args(["--seed", &seed.to_string()])
        .arg("--out")
        .arg(dir)
        .stdout(std::process::Stdio::null())
        .status()
        .context("cannot run ferrosuite generate")?;
    let seconds = start.elapsed().as_secs_f64();
    compile_emitted(jdk, junit, class_path, dir, seconds).with_context(|| format!("generate ended with {status}"))
}

/// Compiles the suite that `generate` wrote into `dir` (as named by its
/// `report.json`) into `dir/bench-classes`; `seconds` is the wall time of
/// that `generate`.
///
/// # Errors
/// When `dir` holds no report or test file, or the suite does not compile.
pub(super) fn compile_emitted(
    jdk: &Jdk,
    junit: &JunitJars,
    class_path: &str,
    dir: &Path,
    seconds: f64,
) -> anyhow::Result<CompiledSuite> {
    let (test_file, findings_file) =
        emitted_test_files(dir).with_context(|| format!("no test file in {}", dir.display()))?;
    let read = |file: &str| -> anyhow::Result<(PathBuf, BinaryName, Vec<String>)> {
        let source = dir.join(file);
        let text = std::fs::read_to_string(&source).with_context(|| format!("cannot read {}", source.display()))?;
        Ok((source, BinaryName::new(file.trim_end_matches(".java").replace('/', ".")), junit::test_methods_in(&text)))
    };
    let (source, test_class, names) = read(&test_file)?;
    let findings = findings_file.as_deref().map(read).transpose()?;
    let mut sources = vec![source];
    sources.extend(findings.iter().map(|f| f.0.clone()));
    let classes = dir.join("bench-classes");
    let compile_cp = format!("{class_path}:{}", junit.compile_class_path());
    javarun::compile_tests(jdk, &sources, &compile_cp, &classes, None)?
        .map_err(|errors| anyhow::anyhow!("the emitted suite does not compile: {}", errors.len()))?;
    let findings = findings.map(|(_, class, names)| (class, names));
    Ok(CompiledSuite { test_class, names, findings, classes, seconds })
}

/// The test files `generate` wrote into `dir`, relative to it: the
/// regression suite (`test_file` of report.json) and the findings' witness
/// tests (`findings_file`, when there are findings).
fn emitted_test_files(dir: &Path) -> anyhow::Result<(String, Option<String>)> {
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("report.json"))?)?;
    let class = &report["classes"][0];
    let test_file = class["test_file"].as_str().map(str::to_string).context("report.json names no test file")?;
    Ok((test_file, class["findings_file"].as_str().map(str::to_string)))
}

/// The search's executions per second per worker that `generate` wrote
/// into `dir`'s `report.json` (`None` when absent or zero).
fn executions_per_second(dir: &Path) -> Option<f64> {
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("report.json")).ok()?).ok()?;
    report["classes"][0]["executions_per_second_per_worker"].as_f64().filter(|e| *e > 0.0)
}

/// A ratio as a percentage with one decimal, `-` for `None`.
pub(super) fn pct(r: Option<f64>) -> String {
    r.map_or("-".into(), |r| format!("{:.1}", 100.0 * r))
}

fn mean(values: impl Iterator<Item = Option<f64>>) -> String {
    pct(super::stats::mean(&values.flatten().collect::<Vec<_>>()))
}

fn print_tables(rows: &[Row], budget: Duration) {
    println!("class,branch_coverage,line_coverage,tests,failing_tests,seconds,note");
    for r in rows {
        println!(
            "{},{},{},{},{},{:.1},{}",
            r.class,
            pct(r.branches),
            pct(r.lines),
            r.tests,
            r.failing,
            r.seconds,
            r.note.replace(',', ";")
        );
    }
    println!();
    println!("| class | branch % | line % | tests | failing | seconds (budget {}s) |", budget.as_secs());
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {:.1} |",
            r.class,
            pct(r.branches),
            pct(r.lines),
            r.tests,
            r.failing,
            r.seconds
        );
    }
    println!(
        "| **mean** | **{}** | **{}** | {} | {} | |",
        mean(rows.iter().map(|r| r.branches)),
        mean(rows.iter().map(|r| r.lines)),
        rows.iter().map(|r| r.tests).sum::<usize>(),
        rows.iter().map(|r| r.failing).sum::<usize>()
    );
    let mut speeds: Vec<f64> = rows.iter().filter_map(|r| r.executions_per_second).collect();
    speeds.sort_by(f64::total_cmp);
    if let Some(median) = speeds.get(speeds.len() / 2) {
        println!();
        println!(
            "machine speed: median {median:.0} executions/s per worker over {} classes (coverage at a time budget moves with it)",
            speeds.len()
        );
    }
}

/// Default output folder of the benchmark.
pub fn default_out() -> PathBuf {
    PathBuf::from("target/bench-coverage")
}
