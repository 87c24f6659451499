//! The pipeline for one class under test. Every stage that can fail on the
//! class reports into the [`ClassReport`]; tests made before a failure are
//! still written.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use analysis::goals::{ClassGoals, GoalId, GoalKind};
use anyhow::{Context, bail};
use exec::coverage::GoalMap;
use exec::{ExecConfig, Executor};
use jvm::pool::{Pool, WorkerConfig};
use model::classpath::ClassPath;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use search::{Algorithm, Budget, Problem, SearchConfig};
use testcase::TestCase;
use testcase::cluster::{ClusterOptions, TestCluster};
use testcase::seeds::{SeedOptions, Seeds};

use super::GenerateArgs;
use super::progress::ClassProgress;
use super::report::ClassReport;
use super::variation::ClusterVariation;
use crate::jdk::Jdk;

/// Share of the time budget given to the search; the rest is for
/// minimisation, assertions and verification (the whole run per class
/// stays within 1.25 times the budget).
const SEARCH_SHARE: f64 = 0.8;

/// Everything `generate` needs, resolved from the command line.
pub struct GenerateConfig {
    /// The user's class path (with `--jar` first).
    pub class_path: String,
    pub out: PathBuf,
    pub junit: junit::JUnitVersion,
    pub junit_jars: crate::javarun::JunitJars,
    pub seed: u64,
    pub jobs: usize,
    pub search: SearchConfig,
    pub exec: ExecConfig,
    pub heap_mb: u32,
    pub jdk: Jdk,
}

impl GenerateConfig {
    /// Resolves the arguments.
    ///
    /// # Errors
    /// No JDK, no JUnit jars, bad values.
    pub fn from_args(args: &GenerateArgs) -> anyhow::Result<GenerateConfig> {
        let jdk = Jdk::find()?;
        let version: u8 = args.junit.parse().context("--junit")?;
        let junit_jars = match &args.junit_classpath {
            Some(cp) => crate::javarun::JunitJars::from_class_path(version, cp)?,
            None => crate::javarun::JunitJars::debian(version)?,
        };
        let mut parts: Vec<String> = args.jar.iter().map(|j| j.display().to_string()).collect();
        parts.extend(args.classpath.split(':').filter(|s| !s.is_empty()).map(str::to_string));
        let time = match (args.budget, args.evaluations) {
            (Some(b), _) => Some(b),
            (None, Some(_)) => None,
            (None, None) => Some(Duration::from_secs(60)),
        };
        let algorithm = match args.algorithm.as_str() {
            "mosa" => Algorithm::Mosa,
            "random" => Algorithm::Random,
            "wholesuite" => Algorithm::WholeSuite,
            _ => Algorithm::DynaMosa,
        };
        let search = SearchConfig {
            algorithm,
            budget: Budget { time: time.map(|t| t.mul_f64(SEARCH_SHARE)), evaluations: args.evaluations },
            ..SearchConfig::default()
        };
        let seed = args.seed.unwrap_or_else(clock_seed);
        let exec = ExecConfig { timeout: Duration::from_millis(args.test_timeout_ms), ..ExecConfig::default() };
        let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(GenerateConfig {
            class_path: parts.join(":"),
            out: args.out.clone(),
            junit: if version == 5 { junit::JUnitVersion::Five } else { junit::JUnitVersion::Four },
            junit_jars,
            seed,
            jobs,
            search,
            exec,
            heap_mb: args.heap_mb,
            jdk,
        })
    }

    /// The classes to test: `--class`, the top-level classes of `--package`,
    /// or of `--jar` (nested classes are part of their enclosing class).
    ///
    /// # Errors
    /// Class-path errors; a selection that names no class.
    pub fn classes_to_test(&self, args: &GenerateArgs) -> anyhow::Result<Vec<String>> {
        let cp = ClassPath::parse(&self.class_path)?;
        let mut classes = args.class.clone();
        for c in &args.class {
            cp.find_bytes(c)?;
        }
        if let Some(jar) = &args.jar {
            classes.extend(cp.classes_in(jar).unwrap_or_default().into_iter().filter(|c| is_testable_name(c)));
        }
        if let Some(p) = &args.package {
            let prefix = format!("{p}.");
            let in_package = |c: &String| c.starts_with(&prefix) && !c[prefix.len()..].contains('.');
            classes.extend(cp.all_class_names().into_iter().filter(|c| in_package(c) && is_testable_name(c)));
        }
        let mut seen = std::collections::HashSet::new();
        classes.retain(|c| seen.insert(c.clone()));
        if classes.is_empty() {
            bail!(crate::commands::InputError(
                "no class to test was found for the given --class/--package/--jar".into()
            ));
        }
        Ok(classes)
    }
}

/// Top-level classes (not `package-info`): a nested class is tested with
/// the class enclosing it, whose goals include its own (`--class
/// Outer$Inner` still selects one alone).
fn is_testable_name(c: &str) -> bool {
    let simple = c.rsplit('.').next().unwrap_or(c);
    simple != "package-info" && !simple.contains('$')
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// Generates, emits and verifies tests for `class`; never fails: problems
/// go into the report.
pub fn generate_class(config: &GenerateConfig, class: &str) -> ClassReport {
    let start = Instant::now();
    let mut report = ClassReport { class: class.to_string(), status: "ok".into(), ..ClassReport::default() };
    if let Err(e) = try_generate(config, class, &mut report) {
        report.status = if report.tests > 0 { "partial".into() } else { "failed".into() };
        report.message = Some(crate::one_line(&format!("{e:#}")));
    }
    report.seconds.insert("total".into(), start.elapsed().as_secs_f64());
    report
}

/// What the stages share for one class.
pub struct ClassContext {
    pub class: String,
    pub cp: Arc<ClassPath>,
    pub goals: ClassGoals,
    pub map: GoalMap,
    pub pool: Pool,
    /// Class-file major version of the class under test.
    pub major: u16,
    pub work: PathBuf,
    /// How the coverage workers were started (mutation workers differ only
    /// in their class path).
    pub worker: WorkerConfig,
    pub exec: ExecConfig,
    pub jobs: usize,
    /// The user's class path (without instrumented classes).
    pub user_class_path: String,
    /// Message and "thrown directly" flag of each (method, exception) seen
    /// when the final tests were observed.
    pub exception_details: std::collections::BTreeMap<(String, String), (Option<String>, bool)>,
}

fn try_generate(config: &GenerateConfig, class: &str, report: &mut ClassReport) -> anyhow::Result<()> {
    let t = Instant::now();
    let mut ctx = prepare(config, class)?;
    let cluster = TestCluster::build(&ctx.cp, class, &ClusterOptions::default())?;
    let seeds = Seeds::from_class(&*ctx.cp.load(class)?, SeedOptions::default());
    let mut variation = ClusterVariation { cluster: &cluster, seeds, max_statements: 10 };
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed ^ fnv(class));
    let mut progress = ClassProgress::new(class, ctx.goals.goals.len(), config.search.budget.time);
    let problem = Problem { goals: &ctx.goals, map: &ctx.map, cut: &model::names::BinaryName::new(class) };
    let outcome = search::run(&problem, &mut ctx.pool, &mut variation, &config.search, &mut rng, &mut progress)?;
    progress.finish(&format!("{class}: search done"));
    report.executions = outcome.evaluations;
    report.executions_per_second = outcome.executions_per_second();
    report.executions_per_second_per_worker = report.executions_per_second / config.jobs.max(1) as f64;
    report.seconds.insert("search".into(), t.elapsed().as_secs_f64());
    let t = Instant::now();
    let tests = super::verify::postprocess(&mut ctx, &outcome.archive, report)?;
    report.seconds.insert("post-processing".into(), t.elapsed().as_secs_f64());
    let t = Instant::now();
    let suite = super::verify::emit_and_verify(config, &ctx, tests, report)?;
    report.seconds.insert("verification".into(), t.elapsed().as_secs_f64());
    fill_coverage(&mut ctx, &suite, report)?;
    Ok(())
}

/// Loads and analyses the class, instruments it and starts the workers.
fn prepare(config: &GenerateConfig, class: &str) -> anyhow::Result<ClassContext> {
    let cp = Arc::new(ClassPath::parse(&config.class_path)?.with_jdk(&config.jdk.home)?);
    let cf = cp.load(class)?;
    let mut goals = analysis::goals::class_goals(&cf).with_context(|| format!("cannot analyse {class}"))?;
    let work = config.out.join(".ferrosuite").join(class);
    let instrumented = work.join("instrumented");
    let _ = std::fs::remove_dir_all(&instrumented);
    let user_cp = ClassPath::parse(&config.class_path)?;
    let nested = nested_classes(&user_cp, class);
    let names: Vec<String> = std::iter::once(class.to_string()).chain(nested.iter().map(|(n, _)| n.clone())).collect();
    let batch = crate::commands::instrument::instrument_to_dir(&user_cp, &names, &instrumented, false)?;
    let instrumented_class = |name: &str| batch.classes.iter().find(|c| c.class.as_str() == name.replace('.', "/"));
    let instrumented_cut = instrumented_class(class).context("the class could not be instrumented")?;
    let mut map = GoalMap::new(&goals, instrumented_cut);
    // Nested classes count as part of the class under test (as for JaCoCo
    // and EvoSuite): their goals are appended to the class's.
    for (name, nested_goals) in nested {
        let Some(instrumented) = instrumented_class(&name) else { continue };
        let offset = goals.goals.len() as u32;
        map.append(GoalMap::new(&nested_goals, instrumented), offset);
        goals.append(nested_goals);
    }
    let worker = WorkerConfig {
        exe: std::env::current_exe()?,
        java_home: config.jdk.home.clone(),
        class_path: format!("{}:{}", instrumented.display(), config.class_path),
        heap_mb: config.heap_mb,
    };
    let pool = Pool::new(worker.clone(), config.exec.clone(), config.jobs)?.with_validation(cp.clone());
    Ok(ClassContext {
        class: class.to_string(),
        cp,
        goals,
        map,
        pool,
        major: cf.major_version,
        work,
        worker,
        exec: config.exec.clone(),
        jobs: config.jobs,
        user_class_path: config.class_path.clone(),
        exception_details: Default::default(),
    })
}

/// The nested, inner, local and anonymous classes of `class` on the class
/// path (binary names starting with `class$`), with their goals; classes
/// the compiler made up (`ACC_SYNTHETIC`, such as switch maps) and classes
/// that cannot be analysed are left out, as JaCoCo leaves them out.
fn nested_classes(cp: &ClassPath, class: &str) -> Vec<(String, ClassGoals)> {
    const ACC_SYNTHETIC: u16 = 0x1000;
    let prefix = format!("{class}$");
    let mut out = Vec::new();
    for name in cp.all_class_names().into_iter().filter(|n| n.starts_with(&prefix)) {
        let Ok(cf) = cp.load(&name) else { continue };
        if cf.access & ACC_SYNTHETIC != 0 {
            continue;
        }
        match analysis::goals::class_goals(&cf) {
            Ok(goals) => out.push((name, goals)),
            Err(e) => tracing::warn!("nested class {name} left out: {e}"),
        }
    }
    out
}

/// Covered goals of the final suite, by kind, from one more execution.
fn fill_coverage(ctx: &mut ClassContext, suite: &[TestCase], report: &mut ClassReport) -> anyhow::Result<()> {
    // Fresh JVMs, so static initialisers run again as they do under JUnit.
    ctx.pool.restart_all()?;
    let results = if suite.is_empty() { vec![] } else { ctx.pool.execute(suite)? };
    let covered: BTreeSet<GoalId> = results.iter().flat_map(|r| ctx.map.covered(&r.trace)).collect();
    for g in &ctx.goals.goals {
        let kind = match g.kind {
            GoalKind::Branch { .. } | GoalKind::SwitchCase { .. } => "branch",
            GoalKind::Line { .. } => "line",
            GoalKind::Method => "method",
            GoalKind::RootBranch => "root-branch",
        };
        let entry = report.goals.entry(kind.to_string()).or_default();
        entry.total += 1;
        entry.covered += usize::from(covered.contains(&g.id));
        if !covered.contains(&g.id) {
            report.uncovered.push(g.label.clone());
        }
    }
    Ok(())
}

/// FNV-1a of a string, to derive a per-class seed from the run's seed.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The directory where the test file of `class` goes.
pub fn test_dir(out: &Path, class: &str) -> PathBuf {
    let package = class.rsplit_once('.').map_or("", |(p, _)| p);
    out.join(package.replace('.', "/"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_top_level_classes_are_selected_from_jars_and_packages() {
        assert!(super::is_testable_name("org.apache.commons.cli.Option"));
        assert!(!super::is_testable_name("org.apache.commons.cli.Option$Builder"));
        assert!(!super::is_testable_name("org.apache.commons.cli.Option$1"));
        assert!(!super::is_testable_name("org.apache.commons.cli.package-info"));
    }
}
