//! `ferrosuite generate`: the main job. The pipeline is the `generate`
//! crate; this module turns the command line into its configuration, draws
//! the progress bar ([`crate::progress`]) and prints a line per class.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use std::time::Duration;

use ::generate::{ClassReport, ClassSelection, ClassStatus, GenerateConfig, Observer};
use javarun::{Jdk, JunitJars};
use model::names::BinaryName;
use search::{Algorithm, SearchConfig, SearchEvent};

use super::InputError;
use crate::exit_code::ExitCode;
use crate::progress::ClassProgress;

/// The output folder without --out (and without --project).
pub const DEFAULT_OUT: &str = "ferrosuite-tests";

/// Arguments of `ferrosuite generate`.
#[derive(Debug, Clone, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["class", "package", "jar", "project"])))]
pub struct GenerateArgs {
    /// A Maven or Gradle project (multi-module too): every class its
    /// modules compiled (`target/classes`, `build/classes/java/main`), the
    /// class path from `mvn -o` (Gradle: give --classpath), tests into each
    /// module's `src/test/java`, reports into its build folder
    /// (`target/ferrosuite`, `build/ferrosuite`), JUnit 4 or 5 as its test
    /// dependencies say.
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// With --project: also classes that already have ferrosuite tests (replaced).
    #[arg(long, requires = "project")]
    pub overwrite: bool,
    /// With --project: only classes whose class files changed since the
    /// last run (hashes kept in the module's build folder).
    #[arg(long, requires = "project")]
    pub changed_only: bool,
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
    /// Take only shard K of N of the selected classes (`2/4`): every shard
    /// computes the same partition, balanced by class size, so N machines
    /// share the work without talking to each other (`ferrosuite merge`
    /// combines their output).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<::generate::shard::Shard>,
    /// Java sources of the classes under test, for `report.html`'s view of
    /// the uncovered lines: a source root (`src/main/java`) or a
    /// `-sources.jar` (repeatable).
    #[arg(long, value_name = "DIR|JAR")]
    pub sources: Vec<PathBuf>,
    /// Output folder for tests and the reports (nothing else is written
    /// there; default `ferrosuite-tests`, with --project each module's
    /// `src/test/java`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Folder for working files: instrumented classes, mutants, compiled
    /// tests, each verification round's source (default: a new temporary
    /// folder, removed at the end unless --keep-work).
    #[arg(long)]
    pub work_dir: Option<PathBuf>,
    /// Keep the working files (the temporary folder is printed at the end).
    #[arg(long)]
    pub keep_work: bool,
    /// JUnit version of the emitted tests (default 4; with --project, the
    /// version the module's test dependencies name).
    #[arg(long, value_enum)]
    pub junit: Option<JunitArg>,
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
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Dynamosa)]
    pub algorithm: AlgorithmArg,
    /// Per-test time limit in milliseconds during the search (a test that
    /// runs longer is ended and scored as a timeout; tests normally take
    /// microseconds, and classes with infinite loops would otherwise eat
    /// the budget).
    #[arg(long, default_value_t = 100)]
    pub test_timeout_ms: u64,
    /// Heap limit of each worker JVM in MB.
    #[arg(long, default_value_t = 1024)]
    pub heap_mb: u32,
    /// Turn EvoObj off: no test templates built from object construction
    /// graphs during the search (for ablations; on by default).
    #[arg(long)]
    pub no_evoobj: bool,
    /// Turn KAT off: no static check of the calls of documented JDK
    /// methods and no `api-misuse` findings (on by default).
    #[arg(long)]
    pub no_kat: bool,
    /// TARDIS: a dynamic symbolic execution step inside the search. When
    /// the search stagnates (and every 10 generations) it replays the
    /// population concolically and solves path conditions with z3 for the
    /// branches it has not covered; `report.json`'s `techniques.tardis`
    /// counts what it did. Off by default.
    #[arg(long)]
    pub dse: bool,
    /// Turn the DSE step off (wins over `--dse`).
    #[arg(long)]
    pub no_dse: bool,
    /// How the DSE step picks the next alternative to solve: the paper's
    /// k-NN feasibility classifier, or first in first out and uniformly at
    /// random (the baselines of the classifier's ablation).
    #[arg(long, value_enum, default_value = "knn")]
    pub dse_strategy: tardis::classify::Strategy,
    /// Turn mocks off: no Mockito mocks for interfaces that have no
    /// implementation on the class path (on by default; the emitted tests
    /// of a class that needs them then depend on Mockito, Debian's
    /// `libmockito-java`).
    #[arg(long)]
    pub no_mocks: bool,
    /// Turn the contracts oracle off: no checks of `equals`, `hashCode`,
    /// `toString` and `compareTo` on the tests' objects and no `contract`
    /// findings (on by default).
    #[arg(long)]
    pub no_contracts: bool,
    /// Palus: the project's compiled JUnit 4/5 tests, `CP[:CLASSES]`
    /// (folders and jars, then optionally the test classes to run). They
    /// run once with the classes under test recording; the call-sequence
    /// models learned from them guide the search.
    #[arg(long, value_name = "CP[:CLASSES]")]
    pub sample_tests: Option<String>,
    /// Palus: instead of tests, a main class (on the class path) whose run is the sample.
    #[arg(long, value_name = "CLASS", conflicts_with = "sample_tests")]
    pub sample_main: Option<String>,
    /// Time limit of the whole sample run, e.g. `60s` (what was recorded by then is used).
    #[arg(long, value_parser = parse_duration, default_value = "60s")]
    pub sample_budget: Duration,
    /// kTail's k for the models of the sample run (0: no merging).
    #[arg(long, default_value_t = 3)]
    pub ktail: usize,
    /// With `--algorithm palus`: the share of the search budget of the
    /// model-guided phase (the paper's 2:3 split is 0.4).
    #[arg(long, default_value_t = 0.4)]
    pub guided_share: f64,
    /// Values for chosen methods' parameters: a JSON object such as
    /// `{"pkg.Class.method": ["text", 1, null]}` (key with a descriptor,
    /// `pkg.Class.method(I)V`, for one overload; `<init>` for constructors).
    /// An argument of a listed method takes a listed value half the time.
    #[arg(long, value_name = "FILE")]
    pub param_values: Option<PathBuf>,
    /// Palus: a JUnit theories class on the class path (with JUnit): its
    /// `@Theory` methods run on the objects the generated tests make; one
    /// that fails (not by an assumption) is a finding of kind `theory`.
    #[arg(long, value_name = "CLASS")]
    pub theories: Option<String>,
    /// ZoomIn: the project's compiled JUnit 4/5 tests, `CP[:CLASSES]`.
    /// Invariants learned from them rank the generated assertions; the
    /// most suspicious get a comment in the tests and a finding of kind
    /// `suspicious-assertion`.
    #[arg(long, value_name = "CP[:CLASSES]")]
    pub manual_tests: Option<String>,
    /// ZoomIn: how many suspicious assertions to report per class.
    #[arg(long, default_value_t = zoomin::report::DEFAULT_TOP)]
    pub zoomin_top: usize,
}

/// `--junit`: the JUnit version of the emitted tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum JunitArg {
    /// JUnit 4.
    #[value(name = "4")]
    Four,
    /// JUnit 5 (Jupiter).
    #[value(name = "5")]
    Five,
}

/// `--algorithm`: the search algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AlgorithmArg {
    /// DynaMOSA (the default).
    Dynamosa,
    /// MOSA.
    Mosa,
    /// The whole-suite GA.
    Wholesuite,
    /// Feedback-directed random generation.
    Random,
    /// Palus: a model-guided phase (needs --sample-tests), then feedback-directed random generation.
    Palus,
}

impl AlgorithmArg {
    /// The search's algorithm; `guided_share` is Palus's guided phase.
    fn algorithm(self, guided_share: f64) -> Algorithm {
        match self {
            AlgorithmArg::Dynamosa => Algorithm::DynaMosa,
            AlgorithmArg::Mosa => Algorithm::Mosa,
            AlgorithmArg::Wholesuite => Algorithm::WholeSuite,
            AlgorithmArg::Random => Algorithm::Random,
            AlgorithmArg::Palus => Algorithm::Palus { guided_share: guided_share.clamp(0.0, 1.0) },
        }
    }
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
    match &args.project {
        Some(dir) => super::project_mode::run(args, dir),
        None => run_with(args, None),
    }
}

/// One run over the classes `args` select, its reports into `report_dir`
/// (`None`: the output folder).
///
/// # Errors
/// As [`run`].
pub fn run_with(args: &GenerateArgs, report_dir: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let work = WorkDir::new(args)?;
    let result = generate_in(args, work.path(), report_dir);
    if let Some(kept) = work.finish() {
        println!("working files kept in {}", kept.display());
    }
    result
}

/// The run itself, with working files in `work_dir`.
fn generate_in(args: &GenerateArgs, work_dir: &Path, report_dir: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let config = GenerateConfig { report_dir, started: Some(started), ..config_from_args(args, work_dir)? };
    println!("ferrosuite generate: seed {}", config.seed);
    let selection = ClassSelection {
        classes: args.class.iter().map(BinaryName::new).collect(),
        package: args.package.clone(),
        jar: args.jar.clone(),
        shard: args.shard,
    };
    let classes = selection.resolve(&config.class_path)?;
    if let Some(shard) = args.shard {
        println!("shard {shard}: {} of the selected classes", classes.len());
    }
    let interrupted = interruption_flag();
    let mut printer = Printer { progress: None, interrupted };
    let models = sample_models(args, &config, &classes)?;
    let mut techniques = techniques(args, models);
    if let Some(manual) = &args.manual_tests {
        techniques.push(zoomin_technique(manual, args.zoomin_top, &config)?);
    }
    let report = ::generate::run(&config, &classes, &mut techniques, &mut printer)?;
    let failed = report.classes.iter().filter(|c| c.status != ClassStatus::Ok).count();
    let report_file = config.report_folder().join("report.json");
    if printer.should_stop() {
        println!(
            "interrupted after {} of {} classes; report: {}",
            report.classes.len(),
            classes.len(),
            report_file.display()
        );
        return Ok(ExitCode::Interrupted);
    }
    println!("{} classes, {failed} with problems", classes.len());
    print_report_files(config.report_folder());
    Ok(if failed == 0 { ExitCode::Success } else { ExitCode::Partial })
}

/// Where each report file is.
fn print_report_files(out: &Path) {
    for file in reports::FILES {
        println!("  {:<13} {}", file, out.join(file).display());
    }
}

/// The techniques the arguments turn on; `models` from a sample run turn Palus on.
fn techniques(args: &GenerateArgs, models: Option<palus::Models>) -> Vec<Box<dyn ::generate::Technique>> {
    let mut out: Vec<Box<dyn ::generate::Technique>> = Vec::new();
    if let Some(models) = models {
        out.push(Box::new(palus::Palus::new(std::sync::Arc::new(models))));
    }
    if !args.no_evoobj {
        out.push(Box::new(evoobj::EvoObj::default()));
    }
    if !args.no_kat {
        let graph = std::sync::Arc::new(kat::KnowledgeGraph::jdk17());
        out.push(Box::new(katcheck::Kat::new(graph, katcheck::CheckOptions::default())));
    }
    if !args.no_contracts {
        out.push(Box::new(contracts::Contracts::new()));
    }
    if args.dse && !args.no_dse {
        let settings = tardis::technique::DseSettings { strategy: args.dse_strategy, ..Default::default() };
        out.push(Box::new(tardis::technique::Tardis::new(settings)));
    }
    if let Some(class) = &args.theories {
        out.push(Box::new(palus::theories::Theories::new(BinaryName::new(class.clone()))));
    }
    out
}

/// ZoomIn with `--manual-tests` (checked here, before any generation).
///
/// # Errors
/// An input error when the argument names no class path entry or a missing one.
fn zoomin_technique(
    manual: &str,
    top: usize,
    config: &::generate::GenerateConfig,
) -> anyhow::Result<Box<dyn ::generate::Technique>> {
    let tests = palus::sample::SampleTests::parse(manual).map_err(|e| InputError(e.to_string()))?;
    let confiner = javarun::Confiner { launcher: std::env::current_exe()? };
    let mut technique = zoomin::technique::ZoomIn::new(tests, config.jdk.clone(), confiner);
    technique.top = top;
    Ok(Box::new(technique))
}

/// With `--sample-tests`: runs them once with the classes under test (and
/// the other classes of their packages) recording, and infers the models
/// (`palus`). Prints what the sample run did.
///
/// # Errors
/// Bad `--sample-tests` (input errors); the recording folder cannot be written.
fn sample_models(
    args: &GenerateArgs,
    config: &GenerateConfig,
    classes: &[BinaryName],
) -> anyhow::Result<Option<palus::Models>> {
    if args.sample_tests.is_none() && args.sample_main.is_none() {
        if args.algorithm == AlgorithmArg::Palus {
            eprintln!(
                "warning: --algorithm palus without --sample-tests has no model: it runs as feedback-directed random generation"
            );
        }
        return Ok(None);
    }
    let cp = model::classpath::ClassPath::parse(&config.class_path)?.with_jdk(&config.jdk.home)?;
    let mut recorded: Vec<BinaryName> = Vec::new();
    for class in classes {
        for r in palus::sample::recorded_classes(&cp, class) {
            if !recorded.contains(&r) {
                recorded.push(r);
            }
        }
    }
    let confiner = javarun::Confiner { launcher: config.worker_exe.clone() };
    let sample = palus::sample::SampleConfig {
        jdk: &config.jdk,
        user_class_path: &config.class_path,
        cp: &cp,
        recorded,
        work: config.work_dir.join("palus"),
        test_timeout: Duration::from_secs(10),
        deadline: Some(std::time::Instant::now() + args.sample_budget),
        confiner: Some(&confiner),
        mode: instrument::record::RecordMode::Calls,
        options: Vec::new(),
    };
    let run = run_sample(args.sample_tests.as_deref(), args.sample_main.as_deref(), &sample)?;
    let models = palus::infer(&run.methods, &run.calls, (args.ktail > 0).then_some(args.ktail));
    println!(
        "sample run: {} tests passed, {} skipped, {} calls; models of {} classes",
        run.passed.len(),
        run.skipped.len(),
        run.calls.len(),
        models.classes.len()
    );
    Ok(Some(models))
}

/// Runs the sample: the tests of `tests` (`CP[:CLASSES]`) or else the main
/// class `main`. Bad tests are input errors.
///
/// # Errors
/// [`InputError`] for bad sample tests; the recording folder cannot be
/// written or read, or `java` cannot start.
pub fn run_sample(
    tests: Option<&str>,
    main: Option<&str>,
    config: &palus::sample::SampleConfig<'_>,
) -> anyhow::Result<palus::sample::SampleRun> {
    use palus::sample::SampleError;
    let run = match (tests, main) {
        (Some(spec), _) => {
            let tests = palus::sample::SampleTests::parse(spec).map_err(|e| InputError(e.to_string()))?;
            palus::sample::run_sample(&tests, config)
        }
        (None, Some(class)) => {
            if !config.cp.contains(class) {
                return Err(InputError(format!("--sample-main {class} is not on the class path")).into());
            }
            palus::sample::run_sample_main(class, config)
        }
        (None, None) => return Err(InputError("give --sample-tests or --sample-main".into()).into()),
    };
    run.map_err(|e| match e {
        SampleError::Write(_) | SampleError::Read { .. } | SampleError::Main(_) => anyhow::Error::new(e),
        other => InputError(other.to_string()).into(),
    })
}

/// Resolves the arguments into the pipeline's configuration.
///
/// # Errors
/// No JDK, no JUnit jars.
fn config_from_args(args: &GenerateArgs, work_dir: &Path) -> anyhow::Result<GenerateConfig> {
    let jdk = Jdk::find()?;
    let (version, junit) = match args.junit.unwrap_or(JunitArg::Four) {
        JunitArg::Four => (4, junit::JUnitVersion::Four),
        JunitArg::Five => (5, junit::JUnitVersion::Five),
    };
    let junit_jars = match &args.junit_classpath {
        Some(cp) => JunitJars::from_class_path(version, cp)?,
        None => JunitJars::debian(version)?,
    };
    let (junit_jars, mocks) = match junit_jars.with_mockito() {
        Some(with) if !args.no_mocks => (with, true),
        None if !args.no_mocks => {
            tracing::warn!(
                "Mockito is not installed (apt-get install libmockito-java): interfaces without an \
                 implementation get no mocks"
            );
            (junit_jars, false)
        }
        _ => (junit_jars, false),
    };
    let mut parts: Vec<String> = args.jar.iter().map(|j| j.display().to_string()).collect();
    parts.extend(args.classpath.split(':').filter(|s| !s.is_empty()).map(str::to_string));
    let search = SearchConfig {
        algorithm: args.algorithm.algorithm(args.guided_share),
        budget: ::generate::config::search_budget(args.budget, args.evaluations),
        ..SearchConfig::default()
    };
    let class_budget = ::generate::config::class_budget(args.budget, args.evaluations);
    let exec = exec::ExecConfig { timeout: Duration::from_millis(args.test_timeout_ms), ..exec::ExecConfig::default() };
    let param_values = match &args.param_values {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| InputError(format!("cannot read --param-values {}: {e}", file.display())))?;
            testcase::seeds::param_values::ParamValues::parse(&text).map_err(|e| InputError(e.to_string()))?
        }
        None => Default::default(),
    };
    Ok(GenerateConfig {
        class_path: parts.join(":"),
        out: args.out.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_OUT)),
        work_dir: work_dir.to_path_buf(),
        junit,
        junit_jars,
        mocks,
        seed: args.seed.unwrap_or_else(clock_seed),
        jobs: args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        search,
        class_budget,
        started: None,
        exec,
        heap_mb: args.heap_mb,
        second_jdk: jdk.second(),
        jdk,
        worker_exe: std::env::current_exe()?,
        param_values: std::sync::Arc::new(param_values),
        shard: args.shard,
        report_dir: None,
        sources: reports::Sources::new(args.sources.clone()),
    })
}

/// Where the working files go: `--work-dir`, else a new temporary folder
/// that is removed at the end unless `--keep-work`.
enum WorkDir {
    /// Given with `--work-dir`: created, never removed.
    Given(PathBuf),
    /// A temporary folder.
    Temporary { dir: tempfile::TempDir, keep: bool },
}

impl WorkDir {
    fn new(args: &GenerateArgs) -> anyhow::Result<WorkDir> {
        if let Some(dir) = &args.work_dir {
            return Ok(WorkDir::Given(dir.clone()));
        }
        let dir =
            tempfile::Builder::new().prefix("ferrosuite-work-").tempdir().context("cannot create a working folder")?;
        Ok(WorkDir::Temporary { dir, keep: args.keep_work })
    }

    fn path(&self) -> &Path {
        match self {
            WorkDir::Given(dir) => dir,
            WorkDir::Temporary { dir, .. } => dir.path(),
        }
    }

    /// Removes a temporary folder unless it is kept; returns a kept one.
    fn finish(self) -> Option<PathBuf> {
        match self {
            WorkDir::Given(dir) => Some(dir),
            WorkDir::Temporary { dir, keep: true } => Some(dir.keep()),
            WorkDir::Temporary { dir, keep: false } => {
                let _ = dir.close();
                None
            }
        }
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// A flag that the first SIGINT or SIGTERM sets (the run then stops
/// after the current class, writing what it did); a second one ends the
/// process at once.
fn interruption_flag() -> &'static AtomicBool {
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    static HANDLER: std::sync::Once = std::sync::Once::new();
    HANDLER.call_once(|| {
        let handler = || {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                std::process::exit(ExitCode::Interrupted as i32);
            }
            eprintln!("interrupted: finishing the current class and writing report.json (again to stop at once)");
        };
        if let Err(e) = ctrlc::set_handler(handler) {
            tracing::warn!("cannot handle SIGINT/SIGTERM: {e}");
        }
    });
    &INTERRUPTED
}

/// The terminal side of a run: a progress bar during each search, a
/// summary line per class; and whether the user interrupted the run.
struct Printer {
    progress: Option<ClassProgress>,
    interrupted: &'static AtomicBool,
}

impl Observer for Printer {
    fn search_started(&mut self, class: &BinaryName, n_goals: usize, budget: Option<Duration>) {
        self.progress = Some(ClassProgress::new(class.as_str(), n_goals, budget));
    }

    fn search_event(&mut self, event: &SearchEvent) {
        if let Some(p) = &mut self.progress {
            search::SearchObserver::notify(p, event);
        }
    }

    fn search_finished(&mut self, class: &BinaryName) {
        if let Some(p) = self.progress.take() {
            p.finish(&format!("{class}: search done"));
        }
    }

    fn class_finished(&mut self, report: &ClassReport) {
        println!("{}", report.summary_line());
    }

    fn should_stop(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }
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
