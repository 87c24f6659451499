//! Search-based test generation: goals, fitness, archive and algorithms.
//!
//! Brief overview: [`run`] searches for tests that cover the goals of one
//! class under test, within a [`Budget`]. It sees execution only through
//! the [`exec::Executor`] trait and makes tests only through the
//! [`Variation`] trait, so it can be tested with fakes. Algorithms:
//! DynaMOSA (default), MOSA, the whole-suite GA, and feedback-directed
//! random (Randoop style).
//!
//! Modules:
//! - [`fitness`]: approach level + normalised branch distance per goal.
//! - [`archive`]: the shortest test per covered goal; exception goals.
//! - [`evaluator`]: executes batches, updates the archive, counts the budget.
//! - `input_to_state`: the failed comparisons' operands that a test's own
//!   literals explain, as substitutions for the seeds (REDQUEEN).
//! - `substituted`: a new substitution written into the test that showed
//!   it, for the search to run at once (REDQUEEN).
//! - [`time_limit`]: the per-test time limit, adapted to the tests that end.
//! - [`timeout_memo`]: statement prefixes that timed out twice; tests that
//!   start with one are answered without running.
//! - [`mosa`]: DynaMOSA and MOSA (many-objective GA with preference sorting).
//! - [`random`]: feedback-directed random search.
//! - [`palus`]: a model-guided phase, then feedback-directed random search.
//! - [`wholesuite`]: the whole-suite GA (monotonic, with elitism).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod archive;
pub mod evaluator;
pub mod fitness;
mod input_to_state;
pub mod mosa;
pub mod palus;
pub mod random;
mod substituted;
pub mod time_limit;
pub mod timeout_memo;
pub mod wholesuite;

use std::time::Duration;

use analysis::goals::{ClassGoals, GoalId};
use exec::coverage::GoalMap;
use exec::{ExecError, Executor};
use model::names::BinaryName;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use testcase::TestCase;

pub use archive::{Archive, ExceptionGoal};

/// The search algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Algorithm {
    /// DynaMOSA: goals become targets when a control-dependence parent is covered.
    DynaMosa,
    /// MOSA: every goal is a target from the start.
    Mosa,
    /// Feedback-directed random generation (Randoop).
    Random,
    /// The whole-suite GA: individuals are test suites.
    WholeSuite,
    /// Palus: a model-guided phase ([`Variation::guided_test`]) for the
    /// first `guided_share` of the budget, then feedback-directed random
    /// generation (TECHNIQUES.md §4 step 3; the paper's ratio 2:3 is 0.4).
    Palus {
        /// The share of the budget (time or evaluations) of the guided phase, 0 to 1.
        guided_share: f64,
    },
}

/// When the search stops: at the first limit reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Wall-clock limit.
    pub time: Option<Duration>,
    /// Limit on test executions (with a seed, makes runs reproducible).
    pub evaluations: Option<u64>,
}

/// Search parameters (EvoSuite defaults where it has them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchConfig {
    /// The search algorithm (default: DynaMOSA).
    pub algorithm: Algorithm,
    /// When to stop.
    pub budget: Budget,
    /// Population size (EvoSuite: 50).
    pub population: usize,
    /// Crossover probability (EvoSuite: 0.75).
    pub crossover_rate: f64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            algorithm: Algorithm::DynaMosa,
            budget: Budget { time: Some(Duration::from_secs(60)), evaluations: None },
            population: 50,
            crossover_rate: 0.75,
        }
    }
}

/// How the search makes and changes tests; implemented over the test
/// cluster and operators of the `testcase` crate.
pub trait Variation {
    /// A new random test.
    fn random_test(&mut self, rng: &mut ChaCha8Rng) -> TestCase;
    /// A mutated copy of `test`.
    fn mutate(&mut self, test: &TestCase, rng: &mut ChaCha8Rng) -> TestCase;
    /// Two offspring of single-point crossover.
    fn crossover(&mut self, a: &TestCase, b: &TestCase, rng: &mut ChaCha8Rng) -> (TestCase, TestCase);
    /// Values the class under test compared at run time, for the dynamic
    /// constant pool (default: ignored).
    fn observe_values(&mut self, _values: &RunTimeValues) {}
    /// A test aimed at one of the `uncovered` goals the search works on
    /// now (EvoObj's templates, TECHNIQUES.md §1 step 4), asked once after
    /// every generation of the genetic algorithms; `None` (the default)
    /// adds nothing. The test and its offspring are *targeted*: the goals
    /// they cover first are reported with [`SearchEvent::GoalCovered`]'s
    /// `targeted` flag.
    fn targeted_test(&mut self, _uncovered: &[GoalId], _rng: &mut ChaCha8Rng) -> Option<TestCase> {
        None
    }
    /// A test from a model of call sequences (Palus's guided phase), not
    /// aimed at particular goals; `None` (the default) when there is no model.
    fn guided_test(&mut self, _rng: &mut ChaCha8Rng) -> Option<TestCase> {
        None
    }
    /// Whether `test`, a [`Variation::guided_test`], ran without an
    /// exception before its last statement (`clean`): feedback-directed
    /// generation extends only such tests (default: ignored).
    fn feedback(&mut self, _test: &TestCase, _clean: bool) {}
    /// Tests solved from `tests` (the population) for the `uncovered`
    /// goals the search works on now: TARDIS's DSE step (TECHNIQUES.md §5
    /// step 5), asked by (Dyna)MOSA when no goal was covered for
    /// [`mosa::DSE_STAGNATION`] generations and every [`mosa::DSE_PERIOD`]
    /// generations; none (the default) adds nothing. The tests are
    /// evaluated as targeted tests.
    fn solved_tests(&mut self, _tests: &[Executed<'_>], _uncovered: &[GoalId], _rng: &mut ChaCha8Rng) -> Vec<TestCase> {
        Vec::new()
    }
    /// Which of `tests` (the population, by index) the next
    /// [`Variation::solved_tests`] wants with their value logs: the search
    /// runs those again with the log on (at most [`mosa::VALUE_LOG_CAP`]
    /// events each) and passes the logs along. Default: none.
    fn tests_to_log(&mut self, _tests: &[&TestCase]) -> Vec<usize> {
        Vec::new()
    }
    /// How many goals the last [`Variation::solved_tests`] covered first
    /// (default: ignored).
    fn solved_covered(&mut self, _goals: usize) {}
    /// Temporary objectives of the search (TARDIS's path-condition goals,
    /// TECHNIQUES.md §5 step 4): per objective active now, the fitness of
    /// each of `tests` (lower is better, 0 reached; `f64::INFINITY` for a
    /// test it cannot judge). (Dyna)MOSA ranks the population by these as
    /// by its goals. None (the default) adds nothing.
    fn extra_fitness(&mut self, _tests: &[&TestCase]) -> Vec<Vec<f64>> {
        Vec::new()
    }
    /// Whether the next tests the search runs should run with the value
    /// log on (the temporary objectives are measured on it); their logs go
    /// to [`Variation::observe_logged`]. Default: no.
    fn wants_value_logs(&self) -> bool {
        false
    }
    /// Tests just run with the value log on, because
    /// [`Variation::wants_value_logs`] said so (default: ignored).
    fn observe_logged(&mut self, _tests: &[Executed<'_>]) {}
}

/// A test of the population as the DSE step sees it
/// ([`Variation::solved_tests`]): the test and the value log of its
/// execution, when one was kept.
#[derive(Debug, Clone, Copy)]
pub struct Executed<'a> {
    /// The test case.
    pub test: &'a TestCase,
    /// Its value log ([`exec::ValueLog`]), when the variation asked for it
    /// ([`Variation::tests_to_log`]).
    pub values: Option<&'a exec::ValueLog>,
}

/// Values the class under test compared at run time since the search last
/// asked ([`Evaluator::take_values`]), sorted so that runs stay reproducible.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunTimeValues {
    /// Strings compared with `String.equals` and friends.
    pub strings: Vec<String>,
    /// Operands of int and long comparisons.
    pub numbers: Vec<i64>,
    /// Input-to-state substitutions (seen, wanted): `seen` occurred in a
    /// string of the test whose failed comparison reported the pair
    /// (`exec::Trace::string_pairs`, oriented by the test's strings).
    pub substitutions: Vec<(String, String)>,
    /// Input-to-state substitutions (seen, wanted) in strings from failed
    /// int and long comparisons: a number's decimal text or character that
    /// occurred in a string of the test (`exec::Trace::number_pairs`).
    pub number_text_substitutions: Vec<(String, String)>,
    /// Input-to-state substitutions (seen, wanted) of integral literals.
    pub number_substitutions: Vec<(i64, i64)>,
}

/// What the search reports while it runs.
#[derive(Debug, Clone, PartialEq)]
pub enum SearchEvent {
    /// A goal was covered for the first time.
    GoalCovered {
        /// The goal.
        goal: GoalId,
        /// Test executions so far, the covering one included.
        evaluations: u64,
        /// Whether the covering test is a [`Variation::targeted_test`] or
        /// descends from one (by mutation or crossover).
        targeted: bool,
    },
    /// A new exception goal was seen.
    ExceptionCovered {
        /// The method and the exception it threw.
        goal: ExceptionGoal,
    },
    /// A batch of tests was executed.
    Progress {
        /// Test executions so far.
        evaluations: u64,
        /// Goals covered so far.
        covered: usize,
        /// Time since the search started.
        elapsed: Duration,
    },
}

/// Receives [`SearchEvent`]s (progress display, logs) and may end the
/// search early (a stopping condition that observes the search, as
/// Pynguin's `StoppingCondition` is a `SearchObserver`).
pub trait SearchObserver {
    /// Called for each event, in the order the search produces them.
    fn notify(&mut self, event: &SearchEvent);

    /// Whether the search should stop now, whatever its budget says (for
    /// example because the user interrupted the run). Checked before each
    /// batch of executions.
    fn should_stop(&self) -> bool {
        false
    }
}

impl SearchObserver for () {
    fn notify(&mut self, _: &SearchEvent) {}
}

/// The class under test as the search sees it.
pub struct Problem<'a> {
    /// The goals of the class under test (and of its nested classes).
    pub goals: &'a ClassGoals,
    /// How the probe ids of a trace map to those goals.
    pub map: &'a GoalMap,
    /// Binary name of the class under test (for exception goals).
    pub cut: &'a BinaryName,
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// The best test per covered goal, and the exception goals.
    pub archive: Archive,
    /// Test executions.
    pub evaluations: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The per-test time limit the search ended with, adapted to the tests
    /// that ended ([`time_limit`]); `None` for an executor without one.
    pub time_limit: Option<Duration>,
    /// Tests whose run timed out and whose second run ended (a cold first
    /// run, not a loop: `evaluator::MAX_TIMEOUT_RETRIES`).
    pub timeouts_recovered: usize,
}

impl SearchOutcome {
    /// Test executions per second over the whole search.
    pub fn executions_per_second(&self) -> f64 {
        self.evaluations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs the configured algorithm until the budget is spent or every goal
/// is covered.
///
/// # Errors
/// [`ExecError`] when the executor cannot run tests at all.
pub fn run(
    problem: &Problem<'_>,
    executor: &mut dyn Executor,
    variation: &mut dyn Variation,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
    observer: &mut dyn SearchObserver,
) -> Result<SearchOutcome, ExecError> {
    let mut ev = evaluator::Evaluator::new(problem, executor, config.budget, observer);
    let searched = match config.algorithm {
        Algorithm::DynaMosa => mosa::run(&mut ev, variation, config, rng, true),
        Algorithm::Mosa => mosa::run(&mut ev, variation, config, rng, false),
        Algorithm::Random => random::run(&mut ev, variation, config, rng, Vec::new()),
        Algorithm::Palus { guided_share } => palus::run(&mut ev, variation, config, rng, guided_share),
        Algorithm::WholeSuite => wholesuite::run(&mut ev, variation, config, rng),
    };
    // Finished either way: the executor gets its configured time limit back.
    let outcome = ev.finish();
    searched.map(|_| outcome)
}
