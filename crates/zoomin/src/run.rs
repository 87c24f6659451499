//! ZoomIn end to end for one class under test (TECHNIQUES.md §3): trace
//! the manual tests and learn invariants ([`learn`]), then trace a
//! generated suite, check and filter its violations and rank its
//! assertions ([`rank_suite`]). Both runs use the sample-run machinery of
//! Palus ([`palus::sample::run_recorded`]) in
//! [`RecordMode::Values`]: the project's tests run under JUnit in confined
//! JVMs, with only the class under test instrumented.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use instrument::record::{RecordMode, RecordedMethod};
use javarun::{Confiner, JunitJars};
use model::classpath::ClassPath;
use model::jdk::Jdk;
use model::names::BinaryName;
use palus::sample::{SampleConfig, SampleError, SampleTests, run_recorded};
use serde::Serialize;

use crate::check::{Violation, kept, violations};
use crate::defuse::{TestMethod, test_methods};
use crate::infer::infer;
use crate::invariant::{Invariant, samples};
use crate::names::rename_parameters;
use crate::rank::{Ranking, rank};
use crate::trace::{Execution, parse};

/// What went wrong in a ZoomIn run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ZoomInError {
    /// The manual or generated tests could not be run or read.
    #[error(transparent)]
    Sample(#[from] SampleError),
    /// No manual test passed, so nothing can be learned.
    #[error(
        "no manual test of {class} passed ({skipped} skipped): ZoomIn has nothing to learn from; the suite is left unranked"
    )]
    NothingLearned {
        /// The class under test.
        class: String,
        /// How many tests were skipped (failed, timed out, not run).
        skipped: usize,
    },
    /// The generated tests do not compile.
    #[error("the generated tests do not compile: {0}")]
    Compile(String),
    /// No generated test source was given.
    #[error("no generated test source (.java) in {}", .0.display())]
    NoSources(PathBuf),
    /// javac or a file could not be used.
    #[error("{0}")]
    Io(String),
}

/// How ZoomIn runs tests.
#[derive(Debug, Clone)]
pub struct ZoomInConfig<'a> {
    /// The JDK whose `java` and `javac` run the tests.
    pub jdk: &'a Jdk,
    /// The class under test and its dependencies (`:`-separated).
    pub user_class_path: &'a str,
    /// The same, opened with the JDK.
    pub cp: &'a ClassPath,
    /// A working folder (created; replaced).
    pub work: PathBuf,
    /// Time limit of each test method.
    pub test_timeout: Duration,
    /// When each tracing run stops (what was traced until then is kept).
    pub budget: Duration,
    /// Confines the test JVMs when given.
    pub confiner: Option<&'a Confiner>,
    /// Depth of the traced fields (the tracer's default is 2).
    pub depth: u32,
}

/// What the manual tests taught about a class.
#[derive(Debug, Clone, Default)]
pub struct Learned {
    /// The class under test.
    pub class: String,
    /// Its traced methods (ids as in the executions).
    pub methods: Vec<RecordedMethod>,
    /// The manual tests' executions (parameters renamed).
    pub executions: Vec<Execution>,
    /// The inferred invariants.
    pub invariants: Vec<Invariant>,
    /// Manual tests that passed, and that were skipped (with why).
    pub passed: usize,
    /// Skipped manual tests, with why.
    pub skipped: Vec<(String, String)>,
    /// Seconds spent tracing the manual tests and inferring.
    pub trace_seconds: f64,
    /// Seconds spent inferring the invariants.
    pub infer_seconds: f64,
}

impl Learned {
    /// `name(descriptor)` of a traced method.
    pub fn method_name(&self, id: u32) -> String {
        self.methods
            .iter()
            .find(|m| m.id == id)
            .map_or_else(|| format!("#{id}"), |m| format!("{}{}", m.name, m.descriptor))
    }
}

/// What checking a generated suite gave.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Checked {
    /// The suite's traced executions.
    #[serde(skip)]
    pub executions: Vec<Execution>,
    /// Every violation.
    #[serde(skip)]
    pub all: Vec<Violation>,
    /// The violations the profile filter kept.
    #[serde(skip)]
    pub kept: Vec<Violation>,
    /// The ranking of the suite's assertions.
    pub ranking: Ranking,
    /// The suite's test methods.
    #[serde(skip)]
    pub methods: Vec<TestMethod>,
    /// The source file of each test class (binary name).
    #[serde(skip)]
    pub files: BTreeMap<String, PathBuf>,
    /// Seconds spent compiling and tracing the suite, and ranking.
    pub trace_seconds: f64,
    /// Seconds spent checking and ranking.
    pub rank_seconds: f64,
}

/// Runs `manual` with value tracing of `cut` and infers its invariants.
///
/// # Errors
/// [`ZoomInError::Sample`] when the tests cannot be found or run at all;
/// [`ZoomInError::NothingLearned`] when no test passed.
pub fn learn(cut: &BinaryName, manual: &SampleTests, config: &ZoomInConfig<'_>) -> Result<Learned, ZoomInError> {
    let t = Instant::now();
    let (methods, mut executions, run) = trace(cut, manual, config, "manual")?;
    if run.passed.is_empty() && run.cut.is_none() {
        return Err(ZoomInError::NothingLearned { class: cut.to_string(), skipped: run.skipped.len() });
    }
    rename_parameters(config.cp, &methods, &mut executions);
    let trace_seconds = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut points: BTreeMap<_, Vec<_>> = BTreeMap::new();
    for e in &executions {
        for (point, sample) in samples(e) {
            points.entry(point).or_default().push(sample);
        }
    }
    let invariants = infer(&points);
    Ok(Learned {
        class: cut.to_string(),
        methods,
        executions,
        invariants,
        passed: run.passed.len(),
        skipped: run.skipped,
        trace_seconds,
        infer_seconds: t.elapsed().as_secs_f64(),
    })
}

/// Compiles the generated test sources, runs them with value tracing of
/// `cut`, checks their executions against `learned` and ranks their
/// assertions.
///
/// # Errors
/// When the sources do not compile, or the tests cannot be run at all.
pub fn rank_suite(
    cut: &BinaryName,
    learned: &Learned,
    sources: &[PathBuf],
    config: &ZoomInConfig<'_>,
) -> Result<Checked, ZoomInError> {
    let t = Instant::now();
    let classes = config.work.join("generated-classes");
    compile(sources, &classes, config)?;
    let generated = SampleTests { class_path: vec![classes], classes: Vec::new() };
    let (methods, mut executions, _) = trace(cut, &generated, config, "generated")?;
    rename_parameters(config.cp, &methods, &mut executions);
    let trace_seconds = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let all = violations(&learned.invariants, &executions, &learned.executions);
    let kept: Vec<Violation> = all.iter().filter(|v| kept(v)).cloned().collect();
    let mut tests = Vec::new();
    let mut files = BTreeMap::new();
    for source in sources {
        let text =
            std::fs::read_to_string(source).map_err(|e| ZoomInError::Io(format!("{}: {e}", source.display())))?;
        for m in test_methods(&text) {
            files.entry(m.class.clone()).or_insert_with(|| source.clone());
            tests.push(m);
        }
    }
    let ranking = rank(&learned.invariants, &executions, &kept, &all, &tests);
    let rank_seconds = t.elapsed().as_secs_f64();
    Ok(Checked { executions, all, kept, ranking, methods: tests, files, trace_seconds, rank_seconds })
}

/// The `.java` files under `dir`, sorted.
///
/// # Errors
/// [`ZoomInError::NoSources`] when there is none.
pub fn java_sources(dir: &Path) -> Result<Vec<PathBuf>, ZoomInError> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "java") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    if out.is_empty() {
        return Err(ZoomInError::NoSources(dir.to_path_buf()));
    }
    Ok(out)
}

/// Runs `tests` with `cut` traced; its methods, the executions of the
/// tests that passed (or were cut at the deadline), and the verdicts.
fn trace(
    cut: &BinaryName,
    tests: &SampleTests,
    config: &ZoomInConfig<'_>,
    what: &str,
) -> Result<(Vec<RecordedMethod>, Vec<Execution>, palus::sample::SampleRun), ZoomInError> {
    let sample = SampleConfig {
        jdk: config.jdk,
        user_class_path: config.user_class_path,
        cp: config.cp,
        recorded: vec![cut.clone()],
        work: config.work.join(what),
        test_timeout: config.test_timeout,
        deadline: Some(Instant::now() + config.budget),
        confiner: config.confiner,
        mode: RecordMode::Values,
        options: vec![format!("-D{}={}", instrument::tracer::value_tracer::DEPTH_PROPERTY, config.depth)],
    };
    let (dir, run) = run_recorded(tests, &sample)?;
    let path = dir.join("values.txt");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(ZoomInError::Io(format!("{}: {e}", path.display()))),
    };
    let passed: std::collections::BTreeSet<&str> = run.passed.iter().chain(&run.cut).map(String::as_str).collect();
    let executions = parse(&text).into_iter().filter(|e| passed.contains(e.test.as_str())).collect();
    Ok((run.methods.clone(), executions, run))
}

/// Compiles `sources` into `out` against the user's class path and the
/// JUnit 4 and 5 jars that are installed.
fn compile(sources: &[PathBuf], out: &Path, config: &ZoomInConfig<'_>) -> Result<(), ZoomInError> {
    let _ = std::fs::remove_dir_all(out);
    let mut class_path = vec![config.user_class_path.to_string()];
    class_path.extend([4, 5].iter().filter_map(|v| JunitJars::debian(*v).ok()).map(|j| j.compile_class_path()));
    match javarun::compile_tests(config.jdk, sources, &class_path.join(":"), out, None) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(errors)) => {
            let shown: Vec<String> = errors.iter().take(3).map(ToString::to_string).collect();
            Err(ZoomInError::Compile(shown.join("; ")))
        }
        Err(e) => Err(ZoomInError::Io(e.to_string())),
    }
}
