//! The pipeline for one class under test, as numbered stages (see the crate
//! documentation). Every stage that can fail reports into the
//! [`ClassReport`]; tests made before a failure are still written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use analysis::goals::{ClassGoals, GoalId};
use exec::ExecConfig;
use exec::coverage::GoalMap;
use jvm::pool::{Pool, WorkerConfig};
use model::classpath::ClassPath;
use model::names::BinaryName;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use search::Problem;
use testcase::cluster::TestCluster;
use testcase::seeds::{SeedOptions, Seeds};

use crate::observer::{Observer, SearchEvents};
use crate::report::{ClassReport, ClassStatus};
use crate::technique::Technique;
use crate::variation::ClusterVariation;
use crate::{GenerateConfig, GenerateError, config};

/// What the stages share for one class under test; techniques see it in
/// their hooks ([`Technique`]).
pub struct ClassRun {
    /// The class under test.
    pub class: BinaryName,
    /// The user's class path completed with the JDK's classes.
    pub cp: Arc<ClassPath>,
    /// Goals of the class under test and its nested classes (appended in
    /// [`analysis::goals::ClassGoals::append`] order).
    pub goals: ClassGoals,
    /// Which probes observe which goals.
    pub map: GoalMap,
    /// The coverage workers (instrumented classes first on their class path).
    pub pool: Pool,
    /// Class-file major version of the class under test.
    pub major: u16,
    /// Working folder of this class: `<work dir>/<class>/`.
    pub work: PathBuf,
    /// How the coverage workers were started (mutant workers differ only
    /// in their class path).
    pub worker: WorkerConfig,
    /// Per-test limits of the workers.
    pub exec: ExecConfig,
    /// Worker JVMs per pool.
    pub jobs: usize,
    /// The user's class path (without instrumented classes).
    pub user_class_path: String,
    /// Message and "thrown directly" flag of each (method, exception) seen
    /// when the final tests were observed.
    pub exception_details: BTreeMap<(String, BinaryName), (Option<String>, bool)>,
    /// When post-processing gives up work to end the class in time.
    pub deadlines: Deadlines,
    /// What the static reset did with each instrumented class ([`crate::static_state`]).
    pub static_reset: Vec<(BinaryName, instrument::static_reset::ResetStatus)>,
    /// The instrumented classes (the class under test and its nested
    /// classes), with their probe plans and ids.
    pub instrumented: Vec<instrument::InstrumentedClass>,
    /// The first branch-record id after the neighbours' probes
    /// ([`crate::neighbours`]), whose ids follow the instrumented classes'.
    pub neighbours_end: u32,
    /// The probe kinds techniques added to each instrumented class
    /// ([`Self::reinstrument`]), all applied whenever it is instrumented again.
    pub extra_probes: BTreeMap<BinaryName, Vec<Box<dyn instrument::probe::ProbeKind + Send>>>,
    /// Whether the CUT's package is sealed in its jar
    /// ([`model::classpath::ClassPath::is_sealed`]): the tests then live in
    /// a subpackage ([`junit::SuiteOptions::in_subpackage`]) and call only
    /// public members.
    pub sealed: bool,
}

/// How long verification may go on in a class whose run was interrupted
/// ([`Deadlines::hurried`]).
pub const HURRIED_VERIFICATION: Duration = Duration::from_secs(5);

/// The least time left between the class's end ([`Deadlines::coverage`])
/// and `1.25 B`, for stopping the workers and writing the report.
pub const END_MARGIN: Duration = Duration::from_millis(500);

/// The points in time after which post-processing gives up work, so that
/// a class with a time budget `B` ends within `1.25 B`: minimising stops at
/// `0.95 B` (the rest of the tests are kept as they are), mutant runs are
/// sampled to end by `1.05 B`, verification's JUnit runs end by `1.18 B`
/// (but its first compilation and its run in the emitted order, which
/// vouch for the tests, by `1.22 B`), and the final coverage run by
/// `1.22 B` (the rest is the margin for writing the report and stopping
/// the workers, at least [`END_MARGIN`]; verification ends by then too). All `None` without a time budget
/// (then the output depends on the seed only).
#[derive(Debug, Clone, Copy, Default)]
pub struct Deadlines {
    /// No test is minimised after this.
    pub minimise: Option<Instant>,
    /// Mutant runs are sampled to end by this.
    pub mutants: Option<Instant>,
    /// Verification's JUnit JVMs are killed at this, and rounds not
    /// started by then are skipped.
    pub verify: Option<Instant>,
    /// The class's end: verification's first compilation and its run in
    /// the emitted order are killed at this, and the final coverage run
    /// starts no test that would end after it.
    pub coverage: Option<Instant>,
}

impl Deadlines {
    /// The deadlines of a class that is to finish quickly because the run
    /// was interrupted after its search: no minimising or mutant runs, and
    /// verification within [`HURRIED_VERIFICATION`] of `now` (its emitted
    /// order, like the class's end, within twice that); earlier deadlines stay.
    pub fn hurried(self, now: Instant) -> Deadlines {
        let by = |d: Option<Instant>, at: Instant| Some(d.map_or(at, |d| d.min(at)));
        Deadlines {
            minimise: by(self.minimise, now),
            mutants: by(self.mutants, now),
            verify: by(self.verify, now + HURRIED_VERIFICATION),
            coverage: by(self.coverage, now + 2 * HURRIED_VERIFICATION),
        }
    }

    /// The deadlines of a class whose search ended at `now`, so late that
    /// verification would not have [`HURRIED_VERIFICATION`] left: its
    /// verification may go on until that long after `now`, and its end
    /// twice that, past the budget's `1.25 B` (a suite that a compilation
    /// and a run vouch for, late, is worth more than none on time).
    /// Minimising and mutant runs keep their deadlines, which have passed.
    pub fn after_late_search(self, now: Instant) -> Deadlines {
        let by = |d: Option<Instant>, at: Instant| d.map(|d| d.max(at));
        Deadlines {
            verify: by(self.verify, now + HURRIED_VERIFICATION),
            coverage: by(self.coverage, now + 2 * HURRIED_VERIFICATION),
            ..self
        }
    }

    /// Whether a search that ended at `now` overran: it ended after
    /// minimising should have stopped, and leaves verification less than
    /// [`HURRIED_VERIFICATION`] ([`Self::after_late_search`]). A search of
    /// a short budget that ended on time leaves less than that too, by
    /// design, and is not late.
    pub fn search_ended_late(&self, now: Instant) -> bool {
        self.minimise.is_some_and(|m| now > m) && self.verify.is_some_and(|v| v < now + HURRIED_VERIFICATION)
    }

    /// These deadlines with the class's end (and verification's, if later)
    /// moved `reserve` earlier: what comes before the end leaves `reserve`
    /// for the final coverage run.
    pub fn reserving(self, reserve: Duration) -> Deadlines {
        let coverage = self.coverage.map(|c| c.checked_sub(reserve).unwrap_or(c));
        let verify = match (self.verify, coverage) {
            (Some(v), Some(c)) => Some(v.min(c)),
            (v, _) => v,
        };
        Deadlines { verify, coverage, ..self }
    }

    /// The deadlines of a class that started at `start` with budget `budget`.
    pub fn new(start: Instant, budget: Option<Duration>) -> Deadlines {
        let at = |share: f64| budget.map(|b| start + b.mul_f64(share));
        // Stopping workers and JVMs (some with large heaps) takes a few
        // hundred milliseconds whatever the budget: a short budget keeps
        // that much more than its share.
        let end = budget.map(|b| start + b.mul_f64(1.22).min(b.mul_f64(1.25).saturating_sub(END_MARGIN)));
        let verify = match (at(1.18), end) {
            (Some(v), Some(e)) => Some(v.min(e)),
            _ => None,
        };
        // Minimising ends 15% of the budget after the search, mutant runs
        // 18% after it but not before 1.05 times the budget: with a short
        // budget's search share at 0.95 and 1.05 times the budget, with a
        // 60 s budget at 1.05 and 1.08 times it, leaving verification 6 s.
        let after_search = |share: f64| budget.map(|b| start + config::search_time(b) + b.mul_f64(share));
        let mutants = after_search(0.18).max(at(1.05));
        Deadlines { minimise: after_search(0.15), mutants, verify, coverage: end }
    }
}

impl ClassRun {
    /// Puts Mockito's jars on the workers' class path and restarts the
    /// workers, when the test cluster mocks an abstract class: those mocks
    /// are Mockito's in workers too (interfaces get a `Proxy` and need
    /// nothing), and a worker with Mockito warms it up at start
    /// (`Mocks.warm`), so only such classes pay for it.
    ///
    /// # Errors
    /// [`GenerateError`] when a worker cannot start.
    pub(crate) fn add_mockito_if_needed(
        &mut self,
        cluster: &TestCluster,
        jars: &javarun::JunitJars,
    ) -> Result<(), GenerateError> {
        let mockito = jars.mockito_class_path();
        let is_class = |name: &&str| self.cp.load(name).is_ok_and(|c| c.access & model::access::INTERFACE == 0);
        if mockito.is_empty() || !cluster.mockable_types().any(|n| is_class(&n)) {
            return Ok(());
        }
        self.worker.class_path = format!("{}:{mockito}", self.worker.class_path);
        self.pool.restart_with_class_path(self.worker.class_path.clone())?;
        Ok(())
    }

    /// The folder of instrumented classes, first on the workers' class path.
    pub fn instrumented_dir(&self) -> PathBuf {
        instrumented_dir(&self.work)
    }

    /// The first branch-record id that no probe of this run's classes
    /// (neighbours included) uses: where a technique's probes that record
    /// branch records (`instrument::probes::call_condition`) take their ids
    /// from, so a neighbour's jump never writes a technique's record.
    pub fn next_branch_probe(&self) -> u32 {
        let own = self.instrumented.iter().map(|c| c.bases.branch + c.plan.branches.len() as u32).max();
        own.unwrap_or(0).max(self.neighbours_end)
    }

    /// Instruments `class` (the class under test or one of its nested
    /// classes) again from the user's class path with the probe kind
    /// `extra` added to those techniques added before (KAT's call
    /// conditions and TARDIS's value log go together), keeping its probe
    /// ids ([`instrument::Instrumenter::reinstrument`]), and replaces its
    /// file in [`Self::instrumented_dir`]. Only before the workers load it:
    /// in [`Technique::goals`].
    ///
    /// # Errors
    /// Class-path errors reading the class, instrumentation errors, and
    /// [`GenerateError::Io`] writing it; `class` not instrumented in this
    /// run is [`GenerateError::NotInstrumented`].
    pub fn reinstrument(
        &mut self,
        class: &BinaryName,
        extra: Box<dyn instrument::probe::ProbeKind + Send>,
    ) -> Result<(), GenerateError> {
        let internal = class.to_internal();
        let Some(k) = self.instrumented.iter().position(|c| c.class == internal) else {
            return Err(GenerateError::NotInstrumented { reason: format!("{class} is not instrumented in this run") });
        };
        let user_cp = ClassPath::parse(&self.user_class_path)?;
        let found = user_cp.find_bytes(class.as_str())?;
        let mut instrumenter = crate::static_state::instrumenter(&self.class);
        let extras = self.extra_probes.entry(class.clone()).or_default();
        extras.push(extra);
        let kinds: Vec<&dyn instrument::probe::ProbeKind> =
            extras.iter().map(|k| &**k as &dyn instrument::probe::ProbeKind).collect();
        let again = instrumenter.reinstrument(&found.bytes, &self.instrumented[k], &kinds)?;
        for s in &again.skipped {
            tracing::warn!("{class}: {} kept fewer probes: {}", s.method, s.reason);
        }
        let file = self.instrumented_dir().join(class.class_file_path());
        std::fs::write(&file, &again.bytes).map_err(GenerateError::io("write", &file))?;
        self.instrumented[k] = again;
        Ok(())
    }
}

/// The folder of instrumented classes inside a class's working folder.
pub(crate) fn instrumented_dir(work: &std::path::Path) -> PathBuf {
    work.join("instrumented")
}

/// Generates, emits and verifies tests for `class`, calling the hooks of
/// `techniques`; never fails: problems go into the report. Its time budget
/// counts from now.
pub fn generate_class(
    config: &GenerateConfig,
    class: &BinaryName,
    techniques: &mut [Box<dyn Technique>],
    observer: &mut dyn Observer,
) -> ClassReport {
    generate_class_from(config, class, Instant::now(), techniques, observer)
}

/// [`generate_class`] with the time budget counting from `budget_start`
/// (at or before now: the run's start for its first class).
pub fn generate_class_from(
    config: &GenerateConfig,
    class: &BinaryName,
    budget_start: Instant,
    techniques: &mut [Box<dyn Technique>],
    observer: &mut dyn Observer,
) -> ClassReport {
    let start = Instant::now();
    let mut report = ClassReport::new(class.clone());
    if let Err(e) = try_generate(config, class, budget_start, techniques, observer, &mut report) {
        report.status = if report.tests > 0 { ClassStatus::Partial } else { ClassStatus::Failed };
        report.message = Some(e.chain_text());
    }
    report.seconds.insert("total".into(), start.elapsed().as_secs_f64());
    report
}

fn try_generate(
    config: &GenerateConfig,
    class: &BinaryName,
    budget_start: Instant,
    techniques: &mut [Box<dyn Technique>],
    observer: &mut dyn Observer,
    report: &mut ClassReport,
) -> Result<(), GenerateError> {
    let t = Instant::now();
    let mut run = crate::prepare::prepare(config, class)?;
    run.deadlines = Deadlines::new(budget_start, config.class_budget);
    report.static_side_effects = crate::static_state::side_effects(&run);
    for technique in techniques.iter_mut() {
        technique.goals(&mut run);
    }
    let options = crate::prepare::cluster_options(run.sealed, config.mocks);
    let cluster = TestCluster::build(&run.cp, class.as_str(), &options)?;
    tracing::debug!(
        calls = cluster.calls_under_test().len(),
        modified = ?cluster.modified_types().collect::<Vec<_>>(),
        "test cluster"
    );
    run.add_mockito_if_needed(&cluster, &config.junit_jars)?;
    let cut_class = run.cp.load(class.as_str())?;
    let seeds = Seeds::from_class(&cut_class, SeedOptions::default())
        .with_non_sut(testcase::seeds::non_sut_pool(&run.cp, &cut_class))
        .with_param_values(std::sync::Arc::clone(&config.param_values));
    let initial = techniques.iter_mut().flat_map(|t| t.initial_tests(&run, &cluster, &seeds)).collect();
    let sources = techniques.iter_mut().filter_map(|t| t.goal_source(&run, &cluster)).collect();
    let mut variation =
        ClusterVariation { cluster: &cluster, seeds, max_statements: 10, initial, sources, next_source: 0 };
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed ^ fnv(class.as_str()));
    // The search's share of the budget counts from the class's start: preparing (instrumenting, starting
    // the workers) takes 0.4 s, and over 1.5 s on a loaded machine, which would come out of verification's time.
    // (The deadlines after the search count from `budget_start`, the run's start for its first class.)
    let search_config = search::SearchConfig {
        budget: search::Budget {
            time: config.search.budget.time.map(|b| b.saturating_sub(t.elapsed())),
            ..config.search.budget
        },
        ..config.search.clone()
    };
    observer.search_started(class, run.goals.goals.len(), search_config.budget.time);
    let problem = Problem { goals: &run.goals, map: &run.map, cut: class };
    let mut events = SearchEvents { observer, targeted: 0 };
    // A search with a time budget is not reproducible anyway: its workers need not wait for each other.
    run.pool.share_one_queue(search_config.budget.time.is_some());
    let outcome = search::run(&problem, &mut run.pool, &mut variation, &search_config, &mut rng, &mut events);
    run.pool.share_one_queue(false);
    let targeted = events.targeted;
    record_sources(&variation.sources, targeted, t.elapsed().as_secs_f64(), report);
    let outcome = outcome?;
    observer.search_finished(class);
    let now = Instant::now();
    if observer.should_stop() {
        run.deadlines = run.deadlines.hurried(now);
    } else if run.deadlines.search_ended_late(now) {
        tracing::warn!(
            "{class}: the search ended {:.1} s after the class's start, too late for verification: it gets {} s more",
            t.elapsed().as_secs_f64(),
            HURRIED_VERIFICATION.as_secs()
        );
        run.deadlines = run.deadlines.after_late_search(now);
    }
    report.executions = outcome.evaluations;
    report.search_time_limit_ms = outcome.time_limit.map(|l| l.as_secs_f64() * 1000.0);
    report.executions_per_second = outcome.executions_per_second();
    report.executions_per_second_per_worker = report.executions_per_second / config.jobs.max(1) as f64;
    report.seconds.insert("search".into(), t.elapsed().as_secs_f64());
    let t = Instant::now();
    let archived: BTreeSet<GoalId> = outcome.archive.archived().collect();
    let tests = crate::postprocess::postprocess(&mut run, &outcome.archive, techniques, report);
    report.refusals = refusal_counts(&run.pool);
    // A test whose first run timed out and whose second run ended is no loop.
    report.timeouts = run.pool.timeouts.saturating_sub(outcome.timeouts_recovered);
    if report.timeouts > 0 && report.message.is_none() {
        let limit = report.search_time_limit_ms.map_or(String::new(), |ms| format!(", {ms:.0} ms in the search"));
        report.message = Some(format!(
            "{} executions never ended within their time limit{limit} (a loop the class does not leave on some inputs); such tests are not emitted",
            report.timeouts
        ));
    }
    let mut tests = tests?;
    // Declared types javac takes (a value passed where `Map<String, Integer>` is declared is one), not the bounds the search gave.
    let retyped: usize = tests.iter_mut().map(|test| testcase::operators::retype_from_uses(test, &cluster)).sum();
    let unbound: usize = tests.iter_mut().map(|test| testcase::operators::unbound_classes(test, &cluster)).sum();
    tracing::debug!(retyped, unbound, "values declared with the type arguments of their uses, and Class<?> results");
    report.seconds.insert("post-processing".into(), t.elapsed().as_secs_f64());
    let t = Instant::now();
    // Verification leaves the final coverage run its time, so that the
    // report's coverage is measured, not a lower bound of zero.
    let deadlines = run.deadlines;
    run.deadlines = deadlines.reserving(coverage_reserve(&run, tests.len(), report.executions_per_second_per_worker));
    let suite = crate::verify::emit_and_verify(config, &run, tests, report);
    run.deadlines = deadlines;
    let suite = suite?;
    report.seconds.insert("verification".into(), t.elapsed().as_secs_f64());
    let names = junit::test_names(&suite.tests);
    let mut findings = crate::tripped_asserts::findings(&mut run, &suite.tests, &names);
    for t in techniques.iter_mut() {
        findings.extend(t.findings(&mut run, &suite.tests, &names));
    }
    record_technique_stats(techniques, report);
    crate::findings_suite::separate(config, &run, &suite, &names, findings, report)?;
    // The coverage of both test classes: the findings' tests are emitted tests too.
    let t = Instant::now();
    let filled = fill_coverage(&mut run, &suite, &cluster, &archived, report);
    record_lost_after_search(&run, &archived, report);
    report.seconds.insert("final-coverage".into(), t.elapsed().as_secs_f64());
    // After the coverage run, which the class's deadlines keep time for.
    let files: Vec<PathBuf> =
        [&report.test_file, &report.findings_file].into_iter().flatten().map(|f| config.out.join(f)).collect();
    for t in techniques.iter_mut() {
        t.suite_written(&mut run, &files, report);
    }
    filled
}

/// The numbers of the techniques' goal sources, with the goals their tests
/// (or offspring) covered first and the search's seconds, into the report.
fn record_sources(
    sources: &[Box<dyn crate::technique::GoalSource>],
    targeted: usize,
    search_seconds: f64,
    report: &mut ClassReport,
) {
    for source in sources {
        let mut stats = source.stats();
        stats.insert("goals_covered".into(), targeted as f64);
        stats.insert("search_seconds".into(), search_seconds);
        report.techniques.insert(source.name().to_string(), stats);
    }
}

/// The techniques' own numbers ([`Technique::stats`]) into the report,
/// merged with those of their goal sources.
fn record_technique_stats(techniques: &[Box<dyn Technique>], report: &mut ClassReport) {
    for technique in techniques {
        let stats = technique.stats();
        if !stats.is_empty() {
            report.techniques.entry(technique.name().to_string()).or_default().extend(stats);
        }
    }
}

/// Covered goals of the final suite, by kind, from one more execution
/// (in a fresh JVM, so static initialisers run again as they do under
/// JUnit), and the cause of each uncovered goal ([`crate::triage`];
/// `archived`: the goals the search's archive covered).
fn fill_coverage(
    run: &mut ClassRun,
    suite: &crate::verify::VerifiedSuite,
    cluster: &TestCluster,
    archived: &BTreeSet<GoalId>,
    report: &mut ClassReport,
) -> Result<(), GenerateError> {
    let (results, not_run) = crate::coverage_run::execute(run, suite)?;
    report.coverage_tests_not_run = not_run;
    let covered: BTreeSet<GoalId> = results.iter().flat_map(|r| run.map.covered_by(r)).collect();
    for g in &run.goals.goals {
        let entry = report.goals.entry(g.kind.category().to_string()).or_default();
        entry.total += 1;
        entry.covered += usize::from(covered.contains(&g.id));
    }
    let causes = crate::triage::classify(&run.cp, &run.goals, cluster, &covered, archived);
    report.record_uncovered(&run.goals, &causes);
    Ok(())
}

/// The branch goals the archive held that the final suite does not cover
/// ([`ClassReport::lost_after_search`]); nothing when the final coverage
/// was not measured.
fn record_lost_after_search(run: &ClassRun, archived: &BTreeSet<GoalId>, report: &mut ClassReport) {
    let uncovered: BTreeSet<&str> = report.uncovered.iter().map(|u| u.goal.as_str()).collect();
    report.lost_after_search = archived
        .iter()
        .map(|g| run.goals.goal(*g))
        .filter(|g| g.kind.category() == "branch" && uncovered.contains(g.label.as_str()))
        .map(|g| g.label.clone())
        .collect();
}

/// The pool's refusals per kind name, every kind present.
fn refusal_counts(pool: &jvm::pool::Pool) -> BTreeMap<String, usize> {
    use exec::sandbox::RefusalKind;
    [RefusalKind::FileWrite, RefusalKind::Network, RefusalKind::Process]
        .into_iter()
        .map(|k| (k.name().to_string(), pool.refusals.get(&k).copied().unwrap_or(0)))
        .collect()
}

/// The most time kept for the final coverage run ([`coverage_reserve`]).
const MAX_COVERAGE_RESERVE: Duration = Duration::from_secs(2);

/// The time the final coverage run of `tests` tests needs: a worker's
/// start-up and the tests at the search's rate per worker (executions per
/// second), at most [`MAX_COVERAGE_RESERVE`].
fn coverage_reserve(run: &ClassRun, tests: usize, per_second_per_worker: f64) -> Duration {
    let start = run.pool.startup_times().into_iter().max().unwrap_or_default();
    let per_test = if per_second_per_worker > 0.0 { 1.0 / per_second_per_worker } else { 0.01 };
    (start + Duration::from_secs_f64(per_test * tests as f64)).min(MAX_COVERAGE_RESERVE)
}

/// FNV-1a (64 bits) of a string: to derive a per-class seed from the
/// run's seed, and to order classes into shards ([`crate::shard`]).
pub(crate) fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_that_ends_late_leaves_verification_its_hurried_time_past_the_budget() {
        let start = Instant::now();
        let budget = Duration::from_secs(60);
        let deadlines = Deadlines::new(start, Some(budget));
        let on_time = start + Duration::from_secs(54);
        assert!(!deadlines.search_ended_late(on_time));
        let late = start + Duration::from_secs(74);
        assert!(deadlines.search_ended_late(late), "1.18 B is 70.8 s");
        let after = deadlines.after_late_search(late);
        assert_eq!(after.verify, Some(late + HURRIED_VERIFICATION));
        assert_eq!(after.coverage, Some(late + 2 * HURRIED_VERIFICATION));
        assert_eq!((after.minimise, after.mutants), (deadlines.minimise, deadlines.mutants));
        let short = Deadlines::new(start, Some(Duration::from_secs(8)));
        assert!(!short.search_ended_late(start + Duration::from_millis(6500)), "an 8 s budget's search ends at 6.4 s");
        assert!(short.search_ended_late(start + Duration::from_secs(8)));
        let unlimited = Deadlines::new(start, None);
        assert!(!unlimited.search_ended_late(late));
        assert!(unlimited.after_late_search(late).verify.is_none(), "no budget, no deadline");
    }

    /// After a longer search, minimising and mutant runs move later and
    /// verification keeps its end; a short budget's deadlines stay at 0.95
    /// and 1.05 times the budget.
    #[test]
    fn post_processing_deadlines_follow_the_search() {
        let start = Instant::now();
        let at = |d: Option<Instant>| d.unwrap().duration_since(start).as_secs_f64();
        let short = Deadlines::new(start, Some(Duration::from_secs(8)));
        let near = |a: f64, b: f64| (a - b).abs() < 1e-6;
        assert!(near(at(short.minimise), 7.6) && near(at(short.mutants), 8.4), "{short:?}");
        let long = Deadlines::new(start, Some(Duration::from_secs(60)));
        assert!(near(at(long.minimise), 63.0) && near(at(long.mutants), 64.8), "{long:?}");
        assert!(near(at(long.verify), 70.8) && near(at(long.coverage), 73.2), "{long:?}");
    }
}
