//! The sample execution (Palus step 1, TECHNIQUES.md §4): the project's own
//! JUnit 4 or 5 tests run once, under JUnit as the build would run them,
//! with the classes to model instrumented by the recording probes
//! (`instrument::record`), in a confined JVM per test class
//! (`javarun::TestRun`). The calls of tests that fail, hang or crash are
//! dropped, with a warning; a run cut by its deadline keeps what was
//! recorded until then.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use instrument::record::{RecordMode, RecordedMethod, record_to_dir};
use javarun::{Confiner, JunitJars, JvmExtras, TestRun, TestVerdict};
use model::annotations::annotation_descriptors;
use model::classpath::ClassPath;
use model::jdk::Jdk;
use model::names::BinaryName;

use crate::events::{Call, parse};

/// The JUnit 4 test annotation.
const JUNIT4_TEST: &str = "Lorg/junit/Test;";
/// The JUnit 5 (Jupiter) test annotation.
const JUNIT5_TEST: &str = "Lorg/junit/jupiter/api/Test;";
/// How many classes of the CUT's package are recorded at most.
const MAX_RECORDED: usize = 400;

/// What went wrong with a sample run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SampleError {
    /// The `--sample-tests` argument names no class path entry.
    #[error(
        "--sample-tests {0:?} names no folder or jar of compiled tests (expected CP[:CLASSES], e.g. target/test-classes:com.x.FooTest)"
    )]
    NoClassPath(String),
    /// A class path entry of the sample tests does not exist.
    #[error("sample tests: {} does not exist; give the folder or jar of the compiled tests", .0.display())]
    Missing(PathBuf),
    /// The sample tests' class path cannot be opened.
    #[error("sample tests: {0}")]
    ClassPath(#[from] model::classpath::ClassPathError),
    /// No JUnit 4 or 5 test method was found.
    #[error(
        "no JUnit 4 or 5 test method found in {0}; compile the tests first, or name the test classes after the class path (CP:com.x.FooTest)"
    )]
    NoTests(String),
    /// The recording folder cannot be written.
    #[error("sample run: {0}")]
    Write(#[from] instrument::batch::BatchError),
    /// The main class could not be started.
    #[error("sample run: {0}")]
    Main(javarun::Error),
    /// The recording cannot be read back.
    #[error("sample run: cannot read {}: {source}", path.display())]
    Read {
        /// The events file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

/// The sample tests: compiled test classes (folders and jars) and,
/// optionally, which test classes to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleTests {
    /// Folders and jars of the compiled tests.
    pub class_path: Vec<PathBuf>,
    /// The test classes to run (binary names); empty: every class of
    /// `class_path` with a JUnit test method.
    pub classes: Vec<String>,
}

impl SampleTests {
    /// Reads `CP[:CLASSES]`: `:`-separated entries, where an entry that is
    /// an existing path, contains `/` or ends in `.jar` belongs to the class
    /// path, and any other (`com.x.FooTest`) names a test class.
    ///
    /// # Errors
    /// [`SampleError::NoClassPath`] without a path, [`SampleError::Missing`]
    /// for a path that does not exist.
    pub fn parse(arg: &str) -> Result<SampleTests, SampleError> {
        let mut tests = SampleTests { class_path: Vec::new(), classes: Vec::new() };
        for entry in arg.split(':').filter(|e| !e.is_empty()) {
            let path = Path::new(entry);
            if path.exists() || entry.contains('/') || entry.ends_with(".jar") {
                if !path.exists() {
                    return Err(SampleError::Missing(path.to_path_buf()));
                }
                tests.class_path.push(path.to_path_buf());
            } else {
                tests.classes.push(entry.to_string());
            }
        }
        if tests.class_path.is_empty() {
            return Err(SampleError::NoClassPath(arg.to_string()));
        }
        Ok(tests)
    }
}

/// A test class to run: its name, JUnit version and test methods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestClass {
    /// Binary name.
    pub name: String,
    /// 4 or 5.
    pub junit: u8,
    /// Its test methods (annotated, no parameters), in file order.
    pub methods: Vec<String>,
}

/// The test classes of `tests`, found by their `@Test` annotations.
///
/// # Errors
/// The class path cannot be opened; no test method was found.
pub fn discover(tests: &SampleTests) -> Result<Vec<TestClass>, SampleError> {
    let cp = ClassPath::new(&tests.class_path)?;
    let names: Vec<String> = if tests.classes.is_empty() {
        tests.class_path.iter().filter_map(|p| cp.classes_in(p)).flatten().collect()
    } else {
        tests.classes.clone()
    };
    let found: Vec<TestClass> = names.iter().filter_map(|n| test_class(&cp, n)).collect();
    if found.is_empty() {
        let shown = tests.class_path.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(":");
        return Err(SampleError::NoTests(shown));
    }
    Ok(found)
}

/// A concrete class with test methods: its own and those it inherits from
/// superclasses on `cp` (JUnit runs both), each name once.
fn test_class(cp: &ClassPath, name: &str) -> Option<TestClass> {
    let cf = cp.load(name).ok()?;
    if cf.access & (model::access::ABSTRACT | model::access::INTERFACE) != 0 {
        return None;
    }
    let mut junit = None;
    let mut methods: Vec<String> = Vec::new();
    let mut class = Some(cf);
    while let Some(cf) = class {
        for m in &cf.methods {
            let annotations = annotation_descriptors(&cf, &m.attributes);
            let version = if annotations.contains(&JUNIT4_TEST) {
                4
            } else if annotations.contains(&JUNIT5_TEST) {
                5
            } else {
                continue;
            };
            let method = cf.member_name(m).to_string();
            if cf.member_descriptor(m) == "()V" && m.access & model::access::STATIC == 0 && !methods.contains(&method) {
                junit = Some(version);
                methods.push(method);
            }
        }
        class = cf.super_name().and_then(|s| cp.load(model::names::InternalName::new(s).to_binary().as_ref()).ok());
    }
    Some(TestClass { name: name.to_string(), junit: junit?, methods })
}

/// The classes a sample run records for `cut`: the classes of its package
/// on `cp`, itself first (at most 400).
pub fn recorded_classes(cp: &ClassPath, cut: &BinaryName) -> Vec<BinaryName> {
    let package = cut.as_str().rsplit_once('.').map_or("", |(p, _)| p);
    let mut out = vec![cut.clone()];
    for name in cp.all_class_names() {
        let same = name.rsplit_once('.').map_or("", |(p, _)| p) == package;
        if same && name != cut.as_str() && out.len() < MAX_RECORDED && !name.ends_with("module-info") {
            out.push(BinaryName::new(name));
        }
    }
    out
}

/// How to run the sample tests.
#[derive(Debug, Clone)]
pub struct SampleConfig<'a> {
    /// The JDK whose `java` runs them.
    pub jdk: &'a Jdk,
    /// The classes under test and their dependencies (`:`-separated).
    pub user_class_path: &'a str,
    /// The same, opened (with the JDK), to read the classes to record.
    pub cp: &'a ClassPath,
    /// The classes whose calls are recorded ([`recorded_classes`]).
    pub recorded: Vec<BinaryName>,
    /// A folder for the recording (created; its old content is replaced).
    pub work: PathBuf,
    /// The time limit of each test method.
    pub test_timeout: Duration,
    /// When the whole sample run stops (what was recorded is kept).
    pub deadline: Option<Instant>,
    /// Confines the test JVMs when given.
    pub confiner: Option<&'a Confiner>,
    /// What is recorded: Palus's calls, or ZoomIn's values
    /// ([`run_recorded`] leaves the values file to its caller).
    pub mode: RecordMode,
    /// More JVM options for the test JVMs (`-Dname=value`).
    pub options: Vec<String>,
}

/// What a sample run recorded.
#[derive(Debug, Clone, Default)]
pub struct SampleRun {
    /// The recorded methods (ids as in the calls).
    pub methods: Vec<RecordedMethod>,
    /// The outermost calls of the tests that passed, in order.
    pub calls: Vec<Call>,
    /// The tests that passed (`Class#method`).
    pub passed: Vec<String>,
    /// The test that was running when the run's deadline came: its calls
    /// up to then are kept.
    pub cut: Option<String>,
    /// The tests whose calls were dropped, with why (failed, timed out,
    /// ended the JVM, JUnit missing, not run before the deadline).
    pub skipped: Vec<(String, String)>,
}

/// Runs `tests` with the classes of `config.recorded` recording.
///
/// # Errors
/// [`SampleError`] when the tests cannot be found, or the recording
/// folder cannot be written or read; a test class that cannot run is
/// skipped (listed in [`SampleRun::skipped`]) instead.
pub fn run_sample(tests: &SampleTests, config: &SampleConfig<'_>) -> Result<SampleRun, SampleError> {
    let (dir, run) = run_recorded(tests, config)?;
    finish(&dir, run)
}

/// Runs `tests` with the classes of `config.recorded` instrumented in
/// `config.mode`; returns the recording folder (holding `events.txt` or
/// `values.txt`) and the tests' verdicts, with no calls read yet.
///
/// # Errors
/// As [`run_sample`].
pub fn run_recorded(tests: &SampleTests, config: &SampleConfig<'_>) -> Result<(PathBuf, SampleRun), SampleError> {
    let classes = discover(tests)?;
    let (dir, mut run) = prepare(config)?;
    let mut sample_cp: Vec<String> = tests.class_path.iter().map(|p| p.display().to_string()).collect();
    sample_cp.push(config.user_class_path.to_string());
    let class_path = sample_cp.join(":");
    let extra = extras(&dir, None, config);
    for class in &classes {
        let verdicts = run_class(config, &dir, &class_path, &extra, class);
        for (name, verdict) in verdicts {
            match verdict {
                Ok(v) if v.passed => run.passed.push(name),
                Ok(v) if v.stopped_at_deadline() => run.cut = Some(name),
                Ok(v) => run.skipped.push((name, v.message.unwrap_or_else(|| "failed".into()))),
                Err(why) => run.skipped.push((name, why)),
            }
        }
    }
    for (test, why) in &run.skipped {
        tracing::warn!(test, why, "recorded test skipped: its calls are not used");
    }
    Ok((dir, run))
}

/// Runs the `main` method of `main_class` (on the user's class path) once
/// with the classes of `config.recorded` recording (`--sample-main`); its
/// calls count as one passing test named `main_class#main` when it exits
/// with status 0 or is cut at the deadline, else they are dropped.
///
/// # Errors
/// [`SampleError`] when the recording folder cannot be written or read,
/// or `java` cannot be started.
pub fn run_sample_main(main_class: &str, config: &SampleConfig<'_>) -> Result<SampleRun, SampleError> {
    let (dir, mut run) = prepare(config)?;
    let name = format!("{main_class}#main");
    let class_path = format!("{}:{}", dir.display(), config.user_class_path);
    let deadline = config.deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(60));
    let outcome = javarun::run_main(
        config.jdk,
        &class_path,
        main_class,
        &extras(&dir, Some(&name), config),
        config.confiner,
        deadline,
    )
    .map_err(SampleError::Main)?;
    match outcome {
        javarun::MainOutcome::Exited(Some(0)) => run.passed.push(name),
        javarun::MainOutcome::Cut => run.cut = Some(name),
        javarun::MainOutcome::Exited(code) => {
            tracing::warn!(test = name, ?code, "sample main exited abnormally: its calls are not used");
            run.skipped.push((name, format!("exited with status {code:?}")));
        }
    }
    finish(&dir, run)
}

/// Instruments the classes to record into `work/record` (replacing what was there).
fn prepare(config: &SampleConfig<'_>) -> Result<(PathBuf, SampleRun), SampleError> {
    let dir = config.work.join("record");
    let _ = std::fs::remove_dir_all(&dir);
    let batch = record_to_dir(config.cp, &config.recorded, &dir, config.mode)?;
    for (class, why) in &batch.failed {
        tracing::warn!(%class, why, "sample run: not recorded");
    }
    Ok((dir, SampleRun { methods: batch.methods, ..SampleRun::default() }))
}

/// The recorder's JVM options, `config.options`, and `ferro.test` when no
/// runner sets it.
fn extras(dir: &Path, test: Option<&str>, config: &SampleConfig<'_>) -> JvmExtras {
    let property = match config.mode {
        RecordMode::Calls => instrument::tracer::recorder::DIR_PROPERTY,
        RecordMode::Values => instrument::tracer::value_tracer::DIR_PROPERTY,
    };
    let mut options = vec![format!("-D{property}={}", dir.display())];
    options.extend(config.options.iter().cloned());
    options.extend(test.map(|t| format!("-Dferro.test={t}")));
    JvmExtras { options, writable: vec![dir.to_path_buf()] }
}

/// Reads the recording back, keeping the calls of the tests that passed
/// (and of the one cut at the deadline).
fn finish(dir: &Path, mut run: SampleRun) -> Result<SampleRun, SampleError> {
    let events = dir.join("events.txt");
    let text = match std::fs::read_to_string(&events) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => return Err(SampleError::Read { path: events, source }),
    };
    let passed: BTreeSet<&str> = run.passed.iter().chain(&run.cut).map(String::as_str).collect();
    run.calls = parse(&text).into_iter().filter(|c| passed.contains(c.test.as_str())).collect();
    Ok(run)
}

/// Runs one test class; a verdict (or why there is none) per test method,
/// named `Class#method`.
fn run_class(
    config: &SampleConfig<'_>,
    dir: &Path,
    class_path: &str,
    extra: &JvmExtras,
    class: &TestClass,
) -> Vec<(String, Result<TestVerdict, String>)> {
    let named = |m: &String| format!("{}#{m}", class.name);
    let all_fail = |why: String| class.methods.iter().map(|m| (named(m), Err(why.clone()))).collect();
    if config.deadline.is_some_and(|d| Instant::now() >= d) {
        return all_fail("not run: the sample run's time was up".into());
    }
    let junit = match JunitJars::debian(class.junit) {
        Ok(j) => j,
        Err(e) => return all_fail(format!("JUnit {}: {e}", class.junit)),
    };
    let run = TestRun {
        jdk: config.jdk,
        test_classes_dir: dir,
        class_path,
        test_class: &class.name,
        junit: &junit,
        jacoco: None,
        timeout: config.test_timeout,
        confiner: config.confiner,
        deadline: config.deadline,
        isolated: false,
        enable_assertions: false,
        extra: Some(extra),
    };
    match run.run(&class.methods) {
        Ok(verdicts) => {
            let mut out: Vec<(String, Result<TestVerdict, String>)> =
                verdicts.into_iter().map(|v| (format!("{}#{}", class.name, v.name), Ok(v))).collect();
            let ran = out.len();
            out.extend(
                class.methods[ran..].iter().map(|m| (named(m), Err("not run: the sample run's time was up".into()))),
            );
            out
        }
        Err(e) => all_fail(e.to_string()),
    }
}
