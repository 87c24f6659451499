//! `report.json`: what `generate` did per class (the `reports` crate makes
//! `report.csv`, `report.sarif` and `report.html` from it), and the short summary printed
//! on stdout.

use std::collections::BTreeMap;

use model::names::BinaryName;
use serde::Serialize;

use crate::GenerateError;
use crate::technique::Finding;
use crate::triage::UncoveredCause;

/// Goals of one kind: how many there are and how many the emitted tests cover.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct GoalCount {
    /// Goals of this kind.
    pub total: usize,
    /// Of those, the goals the emitted tests cover.
    pub covered: usize,
}

/// An exception a method of the class under test was seen to throw.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ExceptionSeen {
    /// `name(descriptor)` of the method.
    pub method: String,
    /// Binary name of the exception class.
    pub exception: BinaryName,
    /// The exception's message in the first run that showed it.
    pub message: Option<String>,
    /// Whether the method declares it (`throws` clause).
    pub declared: bool,
    /// Whether the method itself threw it (top stack frame) or code it called.
    pub direct: bool,
}

/// Mutation analysis counts (see [`ClassReport::mutants`]).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct MutantCount {
    /// Mutants made of the class under test.
    pub total: usize,
    /// Mutants in a method some test enters.
    pub reached: usize,
    /// Mutants the kept assertions kill.
    pub killed: usize,
    /// Assertions removed because they killed no mutant.
    pub assertions_removed: usize,
}

/// A goal the emitted tests do not cover, and why (see [`crate::triage`]).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct UncoveredGoal {
    /// The goal's label (`CSVRecord.java:120 if (index != null) true`).
    pub goal: String,
    /// Its cause.
    pub cause: UncoveredCause,
    /// Its kind ([`analysis::goals::GoalKind::name`]: `branch`, `line`,
    /// `api-misuse`, ...).
    pub kind: &'static str,
}

/// A class whose static initialiser has effects beyond its own static
/// fields (see [`ClassReport::static_side_effects`]).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct StaticSideEffect {
    /// The class.
    pub class: BinaryName,
    /// What its initialiser does: `writes p.Other.field`, `calls p.Other.m`.
    pub effects: Vec<String>,
}

/// How generation for one class ended.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ClassStatus {
    /// Everything worked.
    #[default]
    Ok,
    /// Some tests were made and written, but a later stage failed.
    Partial,
    /// No tests were made.
    Failed,
}

/// The outcome of generating tests for one class.
#[derive(Debug, Clone, Serialize)]
pub struct ClassReport {
    /// The class under test.
    pub class: BinaryName,
    /// How it ended.
    pub status: ClassStatus,
    /// What went wrong, in one line, if anything did.
    pub message: Option<String>,
    /// Goals by JaCoCo counter ([`analysis::goals::GoalKind::category`]:
    /// `branch`, `line`, `method`, `root-branch`).
    pub goals: BTreeMap<String, GoalCount>,
    /// Tests in the emitted suite.
    pub tests: usize,
    /// Assertions in the emitted suite.
    pub assertions: usize,
    /// Tests of the emitted suite that end with something observable
    /// ([`oracle::assertions::ends_observably`]).
    pub observable_tests: usize,
    /// Tests of the emitted suite without an assertion.
    pub unasserted_tests: usize,
    /// Those among them that end with something observable
    /// ([`oracle::assertions::ends_observably`]): the tests that miss an
    /// assertion.
    pub unasserted_observable: usize,
    /// Tests removed because they failed or were unstable under JUnit, or
    /// would end the JVM, never end, or end in an error of the JVM itself.
    pub removed_tests: usize,
    /// [`ClassReport::removed_tests`] by cause: `exits-or-never-ends`
    /// (`System.exit`, the time limit), `refused-by-sandbox` (writes a file
    /// outside its folder, opens a socket or starts a process), `vm-error`
    /// (`OutOfMemoryError`, `StackOverflowError`: they depend on heap and
    /// stack sizes), and verification's (`crate::rounds`):
    /// `fails-under-junit` (in the emitted order, or does not compile),
    /// `fails-in-reverse-order`, `fails-in-random-order`, `fails-alone`,
    /// `fails-on-second-jdk` (passes on the JDK of the run, fails on
    /// [`crate::GenerateConfig::second_jdk`]), `times-out-under-junit`,
    /// `killed-at-deadline` (it was running in the emitted order when its
    /// deadline came), `not-verified-in-time` (the emitted order never
    /// reached it before its deadline), `not-compiled-in-time` (no
    /// compilation vouches for the suite: javac did not finish by the
    /// class's end, or the last compilation had errors and no pass
    /// followed the removals); and `differs-between-environments` (ends
    /// otherwise in a second environment, [`crate::environments`]).
    pub removed_tests_by_cause: BTreeMap<String, usize>,
    /// Assertions removed because they failed or were unstable, with their
    /// tests or alone.
    pub removed_assertions: usize,
    /// [`ClassReport::removed_assertions`] by cause: the causes of
    /// [`ClassReport::removed_tests_by_cause`], and before verification
    /// `differs-between-environments` (the value differs in a second
    /// environment, [`crate::environments`]) and
    /// `not-checked-in-second-environment` (no time was left to check it).
    pub removed_assertions_by_cause: BTreeMap<String, usize>,
    /// Verification rounds (`in-order`, `reversed`, `random-order-N`,
    /// `alone`, `second-jdk`) that did not run to their end in the last
    /// verification pass because its deadline came first (with `in-order`
    /// among them, some tests may not have run under JUnit at all).
    pub verification_rounds_skipped: Vec<String>,
    /// Exceptions the emitted tests expect, per method.
    pub exceptions: Vec<ExceptionSeen>,
    /// Mutation analysis of the assertions: mutants made, reached by some
    /// test, killed by the kept assertions, and assertions removed because
    /// they killed no mutant.
    pub mutants: MutantCount,
    /// Seconds spent: search, post-processing, verification, final-coverage (one more run of the final suite), total.
    pub seconds: BTreeMap<String, f64>,
    /// Per technique with a goal source ([`crate::technique::GoalSource`]):
    /// its numbers (`templates_made`, `synthesis_seconds`, ...), plus
    /// `goals_covered` (goals first covered by its tests or their
    /// offspring) and `search_seconds`; and per technique with numbers of
    /// its own ([`crate::technique::Technique::stats`], such as the
    /// contracts oracle's), those.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub techniques: BTreeMap<String, BTreeMap<String, f64>>,
    /// Test executions of the search.
    pub executions: u64,
    /// Test executions per second of the whole search (all workers).
    pub executions_per_second: f64,
    /// The same divided by the number of worker JVMs.
    pub executions_per_second_per_worker: f64,
    /// Executions that ended in a refusal of the sandbox, per kind
    /// (`file-write`, `network`, `process`; see `exec::sandbox::RefusalKind`),
    /// over the search and post-processing. Tests that end in a refusal are
    /// never emitted: outside the sandbox they would do what was refused.
    pub refusals: BTreeMap<String, usize>,
    /// Executions that hit their time limit over the search and
    /// post-processing: tests that never ended (a loop the class under test
    /// does not leave on some inputs). They cover no goal and are never
    /// emitted: under JUnit they would never end either.
    pub timeouts: usize,
    /// The per-test time limit the search ended with, in milliseconds: the
    /// configured one (`--test-timeout-ms`) lowered to a multiple of the
    /// durations of the tests that ended (`search::time_limit`), so that
    /// tests that never end cost less of the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_time_limit_ms: Option<f64>,
    /// The emitted test file, relative to the output folder.
    pub test_file: Option<String>,
    /// Tests of the emitted suite left out of the coverage measurement
    /// because they would not have ended before the class's deadline (the
    /// coverage counts are then a lower bound; left out of the JSON when 0).
    #[serde(skip_serializing_if = "is_zero")]
    pub coverage_tests_not_run: usize,
    /// Labels of the branch goals the search covered (its archive held a
    /// test for them) that the emitted suite does not cover: lost in
    /// minimisation or verification, or covered only in a state that
    /// earlier tests of a worker left behind (left out of the JSON when
    /// empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost_after_search: Vec<String>,
    /// The goals the emitted tests do not cover, in goal order, each with
    /// its cause ([`crate::triage`]).
    pub uncovered: Vec<UncoveredGoal>,
    /// The uncovered branch goals (JaCoCo's branch counter: branch sides
    /// and switch targets) by cause name (`object-state`); causes without
    /// such goals are left out.
    pub uncovered_by_cause: BTreeMap<String, usize>,
    /// Classes of the class under test (itself and its nested classes)
    /// whose static initialiser changes state beyond their own static
    /// fields, which the static reset between tests does not undo
    /// ([`instrument::static_reset::clinit_side_effects`]).
    pub static_side_effects: Vec<StaticSideEffect>,
    /// Likely bugs found by the techniques' oracles, each with its witness
    /// test (left out of the JSON while there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
    /// The test file of the findings' witness tests, relative to the output
    /// folder (`<Class>_FerroFindingsTest.java`); `None` without findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub findings_file: Option<String>,
}

/// The whole `report.json`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// ferrosuite's version.
    pub version: String,
    /// The run's seed.
    pub seed: u64,
    /// The shard of the class selection the run took (`"2/4"`), if any.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "shard_text")]
    pub shard: Option<crate::shard::Shard>,
    /// One report per class, in the order they were tested.
    pub classes: Vec<ClassReport>,
    /// Whether the run was interrupted before every class was tested.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

fn shard_text<S: serde::Serializer>(shard: &Option<crate::shard::Shard>, s: S) -> Result<S::Ok, S::Error> {
    match shard {
        Some(shard) => s.serialize_str(&shard.to_string()),
        None => s.serialize_none(),
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Writes `report.json` and the reports made from it (`report.csv`,
/// `report.sarif`, `report.html` with the source files of
/// [`GenerateConfig::sources`]: the `reports` crate) into
/// [`GenerateConfig::report_folder`].
///
/// # Errors
/// [`GenerateError::Io`] when one cannot be written.
pub fn write(config: &crate::GenerateConfig, report: &Report) -> Result<(), GenerateError> {
    let value = serde_json::to_value(report).expect("the report serialises");
    reports::write_all(config.report_folder(), &value, &config.sources, &config.out)
        .map_err(|e| GenerateError::io("write", e.path)(e.source))
}

impl ClassStatus {
    /// `ok`, `partial` or `failed`, as in `report.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            ClassStatus::Ok => "ok",
            ClassStatus::Partial => "partial",
            ClassStatus::Failed => "failed",
        }
    }
}

impl ClassReport {
    /// Counts `n` removed tests under `cause` (see [`ClassReport::removed_tests_by_cause`]).
    pub fn count_removed(&mut self, cause: &str, n: usize) {
        if n > 0 {
            self.removed_tests += n;
            *self.removed_tests_by_cause.entry(cause.to_string()).or_default() += n;
        }
    }

    /// Counts `n` removed assertions under `cause` (see
    /// [`ClassReport::removed_assertions_by_cause`]).
    pub fn count_removed_assertions(&mut self, cause: &str, n: usize) {
        if n > 0 {
            self.removed_assertions += n;
            *self.removed_assertions_by_cause.entry(cause.to_string()).or_default() += n;
        }
    }

    /// Records the uncovered goals of `goals` with their `causes`
    /// ([`crate::triage::classify`]): [`ClassReport::uncovered`] and
    /// [`ClassReport::uncovered_by_cause`].
    pub fn record_uncovered(
        &mut self,
        goals: &analysis::goals::ClassGoals,
        causes: &[(analysis::goals::GoalId, UncoveredCause)],
    ) {
        self.uncovered.extend(causes.iter().map(|&(id, cause)| {
            let goal = goals.goal(id);
            UncoveredGoal { goal: goal.label.clone(), cause, kind: goal.kind.name() }
        }));
        for (cause, n) in crate::triage::branch_counts(goals, causes) {
            *self.uncovered_by_cause.entry(cause.name().to_string()).or_default() += n;
        }
    }

    /// Counts the tests and assertions of the emitted suite `tests` of a
    /// class whose class path is `cp`, the tests that end observably, and
    /// the tests without an assertion (and those of them that end
    /// observably).
    pub fn count_suite(&mut self, tests: &[testcase::TestCase], cp: &model::classpath::ClassPath) {
        let mut inspectors = oracle::assertions::Inspectors::new(cp);
        let observable: Vec<bool> =
            tests.iter().map(|t| oracle::assertions::ends_observably(t, &mut inspectors)).collect();
        let unasserted = || tests.iter().zip(&observable).filter(|(t, _)| t.assertions.is_empty());
        self.tests = tests.len();
        self.assertions = tests.iter().map(|t| t.assertions.len()).sum();
        self.observable_tests = observable.iter().filter(|o| **o).count();
        self.unasserted_tests = unasserted().count();
        self.unasserted_observable = unasserted().filter(|(_, o)| **o).count();
    }

    /// An empty report for `class` (status [`ClassStatus::Ok`] until something fails).
    pub fn new(class: BinaryName) -> ClassReport {
        ClassReport {
            class,
            status: ClassStatus::Ok,
            message: None,
            goals: BTreeMap::new(),
            tests: 0,
            assertions: 0,
            observable_tests: 0,
            unasserted_tests: 0,
            unasserted_observable: 0,
            removed_tests: 0,
            removed_tests_by_cause: BTreeMap::new(),
            removed_assertions: 0,
            removed_assertions_by_cause: BTreeMap::new(),
            verification_rounds_skipped: Vec::new(),
            exceptions: Vec::new(),
            mutants: MutantCount::default(),
            seconds: BTreeMap::new(),
            techniques: BTreeMap::new(),
            executions: 0,
            executions_per_second: 0.0,
            executions_per_second_per_worker: 0.0,
            refusals: BTreeMap::new(),
            timeouts: 0,
            search_time_limit_ms: None,
            test_file: None,
            coverage_tests_not_run: 0,
            lost_after_search: Vec::new(),
            uncovered: Vec::new(),
            uncovered_by_cause: BTreeMap::new(),
            static_side_effects: Vec::new(),
            findings: Vec::new(),
            findings_file: None,
        }
    }

    /// One summary line for stdout.
    pub fn summary_line(&self) -> String {
        let pct = |k: &str| {
            self.goals.get(k).filter(|g| g.total > 0).map_or("-".to_string(), |g| {
                format!("{:.1}% ({}/{})", 100.0 * g.covered as f64 / g.total as f64, g.covered, g.total)
            })
        };
        format!(
            "{}: {} — branches {}, lines {}, {} tests, {} assertions, {:.0} executions/s per worker{}",
            self.class,
            self.status.as_str(),
            pct("branch"),
            pct("line"),
            self.tests,
            self.assertions,
            self.executions_per_second_per_worker,
            self.message.as_ref().map(|m| format!(" ({m})")).unwrap_or_default()
        )
    }
}
