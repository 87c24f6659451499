//! What a `generate` run is told: the resolved configuration (no command-line
//! types; the binary turns its arguments into a [`GenerateConfig`]) and the
//! selection of classes under test.

use std::path::PathBuf;
use std::time::Duration;

use exec::ExecConfig;
use javarun::{Jdk, JunitJars};
use model::classpath::ClassPath;
use model::names::BinaryName;
use search::{Budget, SearchConfig};

use crate::GenerateError;

/// Everything `generate` needs, resolved and checked.
#[derive(Debug, Clone)]
pub struct GenerateConfig {
    /// The user's class path (`:`-separated, with `--jar` first).
    pub class_path: String,
    /// Output folder: the test sources and `report.json`, nothing else (a
    /// build may compile everything in it).
    pub out: PathBuf,
    /// Folder for working files (instrumented classes, mutants, compiled
    /// tests, verification rounds): one subfolder per class under test.
    /// Never inside `out`.
    pub work_dir: PathBuf,
    /// JUnit version of the emitted tests.
    pub junit: junit::JUnitVersion,
    /// The JUnit jars the emitted tests are compiled and run with during
    /// verification (with Mockito's when [`GenerateConfig::mocks`]).
    pub junit_jars: JunitJars,
    /// Whether tests may mock interfaces the test cluster cannot make
    /// otherwise ([`testcase::cluster::ClusterOptions::mocks`]); the
    /// emitted tests then need Mockito.
    pub mocks: bool,
    /// The run's seed; each class's search seed is derived from it and the class name.
    pub seed: u64,
    /// Worker JVMs per pool.
    pub jobs: usize,
    /// Search algorithm and budget (the time budget is already the search's share).
    pub search: SearchConfig,
    /// The whole time budget of a class ([`class_budget`]); `None` with an
    /// evaluation budget only. Post-processing gives up work (minimising,
    /// mutant runs) to end the class within 1.25 times it.
    pub class_budget: Option<Duration>,
    /// When the run started (the command's start: reading the class path,
    /// building the techniques): the first class's time budget counts
    /// from it, so a run of one class ends within 1.25 times its budget of
    /// it; `None` counts from the first class's start.
    pub started: Option<std::time::Instant>,
    /// Per-test execution limits of the workers.
    pub exec: ExecConfig,
    /// Heap limit of each worker JVM, in MB.
    pub heap_mb: u32,
    /// The JDK for the class path, the workers and verification.
    pub jdk: Jdk,
    /// A second JDK of another feature version that verification runs the
    /// suite on once more ([`Jdk::second`]); a test that fails there is removed.
    pub second_jdk: Option<Jdk>,
    /// The executable that has the hidden `worker` and `confined` commands
    /// (the `ferrosuite` binary): it hosts the workers and confines the
    /// JUnit JVMs of verification.
    pub worker_exe: PathBuf,
    /// The user's values for chosen methods' parameters (`--param-values`,
    /// Palus's `@ParamValue`); empty by default.
    pub param_values: std::sync::Arc<testcase::seeds::param_values::ParamValues>,
    /// The shard of the class selection this run takes (`--shard`), recorded in `report.json`.
    pub shard: Option<crate::shard::Shard>,
    /// Where the report files go (project mode: the module's build folder,
    /// so that no report lands among the test sources); `None`: `out`.
    pub report_dir: Option<PathBuf>,
    /// Where the sources of the classes under test are (`--sources`), for
    /// `report.html`'s source view; empty: none.
    pub sources: reports::Sources,
}

/// Share of a class's time budget given to the search when the budget is
/// short (up to 30 s); the rest is for minimisation, assertions and
/// verification (the whole run per class stays within 1.25 times the
/// budget). See [`search_time`] for longer budgets.
pub const SEARCH_SHARE: f64 = 0.8;

/// The least share of a long budget given to the search ([`search_time`]).
pub const LONG_SEARCH_SHARE: f64 = 0.9;

/// The time after the search that post-processing needs on most classes:
/// minimisation, mutant runs, javac and the JUnit rounds of verification
/// took 2 to 6 s at a 60 s budget on 2 cores (the wide corpus,
/// `bench/runs/2026-12-01-rust`), whatever the budget.
pub const POST_SEARCH_TIME: Duration = Duration::from_secs(6);

/// The search's time within a class budget `budget`: the budget less a
/// reserve of [`SEARCH_SHARE`]'s rest (20%) while that is under
/// [`POST_SEARCH_TIME`], else less [`POST_SEARCH_TIME`], and less at least
/// 10% ([`LONG_SEARCH_SHARE`]). So 6.4 s of 8 s and 24 s of 30 s as
/// before, 54 s of 60 s (was 48 s: post-processing took a fifth of the
/// budget's time out of the search, and used a third of it), 108 s of 120 s.
pub fn search_time(budget: Duration) -> Duration {
    let reserve = budget.mul_f64(1.0 - SEARCH_SHARE).min(POST_SEARCH_TIME).max(budget.mul_f64(1.0 - LONG_SEARCH_SHARE));
    budget.saturating_sub(reserve)
}

/// The time budget per class when neither a time nor an evaluation budget is given.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(60);

/// The whole time budget of a class given `time` and `evaluations` as the
/// user gave them: `time`; [`DEFAULT_BUDGET`] when neither is given; none
/// when only evaluations are.
pub fn class_budget(time: Option<Duration>, evaluations: Option<u64>) -> Option<Duration> {
    match (time, evaluations) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_BUDGET),
    }
}

/// The search's budget for a class given `time` (the whole class's) and
/// `evaluations`: [`search_time`] of [`class_budget`].
pub fn search_budget(time: Option<Duration>, evaluations: Option<u64>) -> Budget {
    Budget { time: class_budget(time, evaluations).map(search_time), evaluations }
}

impl GenerateConfig {
    /// The folder of the report files: [`GenerateConfig::report_dir`], else `out`.
    pub fn report_folder(&self) -> &std::path::Path {
        self.report_dir.as_deref().unwrap_or(&self.out)
    }

    /// Checks that the working folder is not inside the output folder.
    ///
    /// # Errors
    /// [`GenerateError::WorkDirInsideOut`].
    pub fn check_folders(&self) -> Result<(), GenerateError> {
        let absolute = |p: &std::path::Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        if absolute(&self.work_dir).starts_with(absolute(&self.out)) {
            return Err(GenerateError::WorkDirInsideOut { work_dir: self.work_dir.clone(), out: self.out.clone() });
        }
        Ok(())
    }
}

/// Which classes to test, as the user named them.
#[derive(Debug, Clone, Default)]
pub struct ClassSelection {
    /// Classes named one by one; nested classes may be named too.
    pub classes: Vec<BinaryName>,
    /// Every top-level class of this package on the class path.
    pub package: Option<String>,
    /// Every top-level class of this jar (which is on the class path).
    pub jar: Option<PathBuf>,
    /// Only this shard of the selected classes ([`crate::shard`]).
    pub shard: Option<crate::shard::Shard>,
}

impl ClassSelection {
    /// The classes to test: `classes`, then the top-level classes of `jar`
    /// and of `package` (nested classes are part of their enclosing class),
    /// each once, in that order; with a [`ClassSelection::shard`], only
    /// the shard's part of them (which may be empty).
    ///
    /// # Errors
    /// [`GenerateError::ClassPath`] for a class path that cannot be opened
    /// or a named class that is not found; [`GenerateError::NoClassSelected`]
    /// when the selection names no class.
    pub fn resolve(&self, class_path: &str) -> Result<Vec<BinaryName>, GenerateError> {
        let cp = ClassPath::parse(class_path)?;
        let mut classes: Vec<String> = self.classes.iter().map(|c| c.as_str().to_string()).collect();
        for c in &self.classes {
            cp.find_bytes(c.as_str())?;
        }
        if let Some(jar) = &self.jar {
            classes.extend(cp.classes_in(jar).unwrap_or_default().into_iter().filter(|c| is_testable_name(c)));
        }
        if let Some(p) = &self.package {
            let prefix = format!("{p}.");
            let in_package = |c: &String| c.starts_with(&prefix) && !c[prefix.len()..].contains('.');
            classes.extend(cp.all_class_names().into_iter().filter(|c| in_package(c) && is_testable_name(c)));
        }
        let mut seen = std::collections::HashSet::new();
        classes.retain(|c| seen.insert(c.clone()));
        if classes.is_empty() {
            return Err(GenerateError::NoClassSelected);
        }
        if let Some(shard) = self.shard {
            classes = shard_of(&cp, classes, shard);
        }
        Ok(classes.into_iter().map(BinaryName::new).collect())
    }
}

/// The classes of `shard`, sized by the bytes of each class file and its
/// nested classes' (an unreadable class counts 0).
fn shard_of(cp: &ClassPath, classes: Vec<String>, shard: crate::shard::Shard) -> Vec<String> {
    let all = cp.all_class_names();
    let bytes = |c: &str| cp.find_bytes(c).map_or(0, |b| b.bytes.len() as u64);
    let sizes: Vec<u64> = classes
        .iter()
        .map(|c| {
            let nested = format!("{c}$");
            bytes(c) + all.iter().filter(|n| n.starts_with(&nested)).map(|n| bytes(n)).sum::<u64>()
        })
        .collect();
    let names: Vec<&str> = classes.iter().map(String::as_str).collect();
    let keep = shard.select(&names, &sizes);
    keep.into_iter().map(|i| classes[i].clone()).collect()
}

/// Top-level classes (not `package-info` or `module-info`): a nested class
/// is tested with the class enclosing it, whose goals include its own
/// (`--class Outer$Inner` still selects one alone).
fn is_testable_name(c: &str) -> bool {
    let name = BinaryName::new(c);
    !["package-info", "module-info"].contains(&name.simple_name()) && name.outer_class().is_none()
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_top_level_classes_are_selected_from_jars_and_packages() {
        assert!(super::is_testable_name("org.apache.commons.cli.Option"));
        assert!(!super::is_testable_name("org.apache.commons.cli.Option$Builder"));
        assert!(!super::is_testable_name("org.apache.commons.cli.Option$1"));
        assert!(!super::is_testable_name("org.apache.commons.cli.package-info"));
        assert!(!super::is_testable_name("module-info"));
    }

    /// A short budget keeps its 80% for the search; a long one leaves the
    /// search all but the time post-processing needs, and at least 10%.
    #[test]
    fn the_search_takes_all_of_a_long_budget_but_the_time_post_processing_needs() {
        let secs = |s: f64| std::time::Duration::from_secs_f64(s);
        let search = |b: f64| super::search_time(secs(b)).as_secs_f64();
        assert_eq!([search(2.0), search(8.0), search(30.0)], [1.6, 6.4, 24.0]);
        assert_eq!([search(40.0), search(60.0), search(120.0)], [34.0, 54.0, 108.0]);
        let budget = super::search_budget(Some(secs(60.0)), None);
        assert_eq!(budget.time, Some(secs(54.0)));
        assert_eq!(super::search_budget(None, Some(500)).time, None, "an evaluation budget has no time");
    }
}
