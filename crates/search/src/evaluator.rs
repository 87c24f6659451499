//! Executes batches of tests, reads what they covered, updates the archive
//! and counts the budget.

use std::time::{Duration, Instant};

use exec::{ExecError, ExecutionResult, Executor, StatementOutcome, TestOutcome};
use model::names::BinaryName;
use testcase::{StatementKind, TestCase};

use crate::fitness::Observation;
use crate::time_limit::AdaptiveLimit;
use crate::timeout_memo::TimeoutMemo;
use crate::{Archive, Budget, ExceptionGoal, Problem, SearchEvent, SearchObserver, SearchOutcome};

/// The most compared numbers passed on per generation (the dynamic pool
/// keeps 50 per kind, `testcase::seeds`).
const MAX_NUMBERS_PER_GENERATION: usize = 32;

/// The most tests a search runs a second time because their first run
/// timed out: a worker's first run of a path loads and compiles classes
/// (the JDK's file system code takes over 100 ms cold on a loaded
/// machine), so a first time-out is no evidence of a loop. Bounded, so a
/// class that does loop costs at most this many extra time limits.
const MAX_TIMEOUT_RETRIES: usize = 16;

/// The most retried tests that time out again before a search stops
/// retrying: a class whose calls do not end (a sleep, a loop) would
/// otherwise spend [`MAX_TIMEOUT_RETRIES`] extra time limits past the
/// search's checks of its budget.
const MAX_FAILED_TIMEOUT_RETRIES: usize = 4;

/// The values an integral primitive literal statement stands for ([`testcase::Primitive::integral_views`]).
fn integral_literal(kind: &StatementKind) -> Vec<i64> {
    match kind {
        StatementKind::Primitive(p) | StatementKind::Boxed(p) => p.integral_views().collect(),
        _ => Vec::new(),
    }
}

/// A test with what its execution showed.
#[derive(Debug, Clone)]
pub struct Evaluated {
    /// The test as executed.
    pub test: TestCase,
    /// What its execution covered and how close it came to the other goals.
    pub obs: Observation,
    /// Index of the first statement that threw, if any.
    pub threw_at: Option<usize>,
    /// Whether the test is a targeted test or descends from one
    /// ([`crate::Variation::targeted_test`]).
    pub targeted: bool,
    /// Its value log, when it ran with one ([`Evaluator::evaluate_logged`]).
    pub values: Option<exec::ValueLog>,
}

/// Runs tests for a search and keeps its books.
pub struct Evaluator<'a, 'p> {
    /// The class under test.
    pub problem: &'a Problem<'p>,
    executor: &'a mut dyn Executor,
    observer: &'a mut dyn SearchObserver,
    /// The best tests found so far.
    pub archive: Archive,
    /// Test executions so far (rejected test cases included).
    pub evaluations: u64,
    budget: Budget,
    start: Instant,
    /// Strings seen in `String.equals` since the last [`Self::take_values`].
    strings: std::collections::BTreeSet<String>,
    /// Input-to-state substitutions since the last [`Self::take_values`].
    substitutions: crate::input_to_state::Substitutions,
    /// Tests with a new substitution written in, waiting to run.
    substituted: crate::substituted::Substituted,
    /// Numbers seen in comparisons since the last [`Self::take_values`], in
    /// the order first seen, at most [`MAX_NUMBERS_PER_GENERATION`].
    numbers: Vec<i64>,
    /// The per-test time limit adapted to the tests that end; `None` for an
    /// executor without a limit.
    limit: Option<AdaptiveLimit>,
    /// Tests run again after a time-out so far (at most
    /// [`MAX_TIMEOUT_RETRIES`]).
    timeout_retries: usize,
    /// Retried tests whose second run ended.
    timeouts_recovered: usize,
    /// Statement prefixes that timed out, answered without running.
    timeouts: TimeoutMemo,
}

impl<'a, 'p> Evaluator<'a, 'p> {
    /// A fresh evaluator; the clock starts now.
    pub fn new(
        problem: &'a Problem<'p>,
        executor: &'a mut dyn Executor,
        budget: Budget,
        observer: &'a mut dyn SearchObserver,
    ) -> Evaluator<'a, 'p> {
        let limit = executor.time_limit().map(AdaptiveLimit::new);
        Evaluator {
            problem,
            executor,
            observer,
            archive: Archive::default(),
            evaluations: 0,
            budget,
            start: Instant::now(),
            strings: Default::default(),
            substitutions: Default::default(),
            substituted: Default::default(),
            numbers: Default::default(),
            limit,
            timeout_retries: 0,
            timeouts_recovered: 0,
            timeouts: TimeoutMemo::default(),
        }
    }

    /// Whether the budget is spent, every goal is covered, or the observer
    /// asks to stop ([`SearchObserver::should_stop`]).
    pub fn done(&self) -> bool {
        let time_up = self.time_left().is_some_and(|left| left.is_zero());
        let evals_up = self.budget.evaluations.is_some_and(|n| self.evaluations >= n);
        let all_covered = self.archive.len() >= self.problem.goals.goals.len();
        let stopped = self.observer.should_stop();
        if time_up || evals_up || all_covered || stopped {
            tracing::debug!(time_up, evals_up, all_covered, stopped, evaluations = self.evaluations, "search done");
        }
        time_up || evals_up || all_covered || stopped
    }

    /// The share of the budget used so far, 0 to 1: the larger of the time
    /// and evaluation shares (0 without a budget).
    pub fn used(&self) -> f64 {
        let time = self.budget.time.map_or(0.0, |t| self.start.elapsed().as_secs_f64() / t.as_secs_f64().max(1e-9));
        let evals = self.budget.evaluations.map_or(0.0, |n| self.evaluations as f64 / (n.max(1)) as f64);
        time.max(evals).min(1.0)
    }

    /// The time budget not yet spent (zero once it is), `None` without a
    /// time budget.
    fn time_left(&self) -> Option<Duration> {
        self.budget.time.map(|t| t.saturating_sub(self.start.elapsed()))
    }

    /// How many more evaluations the budget allows (`usize::MAX` if unbounded).
    pub fn remaining_evaluations(&self) -> usize {
        self.budget.evaluations.map_or(usize::MAX, |n| n.saturating_sub(self.evaluations) as usize)
    }

    /// Executes `tests` (truncated to the remaining evaluation budget, and
    /// near the end of the time budget to the tests run in time:
    /// [`Self::run_in_time`]) and returns them with their observations.
    ///
    /// # Errors
    /// [`ExecError`] when the executor fails as a whole.
    pub fn evaluate(&mut self, tests: Vec<TestCase>) -> Result<Vec<Evaluated>, ExecError> {
        let n = tests.len();
        self.evaluate_targeted(tests, vec![false; n])
    }

    /// The value logs of `tests`, run again with the log on (at most `cap`
    /// events each): what TARDIS's replay needs of the tests it replays.
    /// The runs count as evaluations; their coverage is not recorded (the
    /// tests ran before).
    ///
    /// # Errors
    /// [`ExecError`] when the executor fails as a whole.
    pub fn value_logs(&mut self, tests: &[TestCase], cap: u32) -> Result<Vec<Option<exec::ValueLog>>, ExecError> {
        if tests.is_empty() {
            return Ok(Vec::new());
        }
        let results = self.executor.execute_logged(tests, cap)?;
        self.evaluations += tests.len() as u64;
        Ok(results.into_iter().map(|r| r.trace.values).collect())
    }

    /// [`Self::evaluate`] with, per test, whether it is targeted (a
    /// [`crate::Variation::targeted_test`] or its offspring).
    ///
    /// # Errors
    /// [`ExecError`] when the executor fails as a whole.
    pub fn evaluate_targeted(
        &mut self,
        tests: Vec<TestCase>,
        targeted: Vec<bool>,
    ) -> Result<Vec<Evaluated>, ExecError> {
        self.evaluate_logged(tests, targeted, 0)
    }

    /// [`Self::evaluate_targeted`] with the value log on (at most `cap`
    /// events per test; 0 runs without it): each test's log is in
    /// [`Evaluated::values`].
    ///
    /// # Errors
    /// [`ExecError`] when the executor fails as a whole.
    pub fn evaluate_logged(
        &mut self,
        mut tests: Vec<TestCase>,
        targeted: Vec<bool>,
        cap: u32,
    ) -> Result<Vec<Evaluated>, ExecError> {
        tests.truncate(self.remaining_evaluations());
        if tests.is_empty() {
            return Ok(Vec::new());
        }
        let (mut results, answered) = self.run_or_answer(&tests, cap)?;
        tests.truncate(results.len());
        self.retry_timeouts(&tests, &mut results, &answered, cap)?;
        self.evaluations += tests.len() as u64;
        for ((test, result), _) in tests.iter().zip(&results).zip(&answered).filter(|(_, a)| !**a) {
            self.timeouts.learn(test, result);
        }
        let ran: Vec<&ExecutionResult> = results.iter().zip(&answered).filter(|(_, a)| !**a).map(|(r, _)| r).collect();
        self.adapt_time_limit(&ran);
        let mut out = Vec::with_capacity(tests.len());
        for ((test, mut result), targeted) in tests.into_iter().zip(results).zip(targeted) {
            if let TestOutcome::Rejected { reason } = &result.outcome {
                tracing::warn!("test rejected before execution: {reason}\n{test}");
                continue;
            }
            if obs_slow(&result) {
                tracing::debug!("slow test ({:?}, {:?}):\n{test}", result.outcome, result.duration);
            }
            let obs = Observation::of(&result, self.problem.map);
            let progressed = self.record(&test, &result, &obs, targeted);
            self.strings.extend(result.trace.strings.iter().filter(|s| !exec::sandbox::names_worker_file(s)).cloned());
            let pairs = self.substitutions.observe(&test, &result.trace, progressed);
            if progressed {
                self.substituted.offer(&test, &pairs);
            }
            self.remember_numbers(&test, &result.trace.numbers);
            let values = result.trace.values.take();
            out.push(Evaluated { threw_at: first_throw(&result), test, obs, targeted, values });
        }
        let event = SearchEvent::Progress {
            evaluations: self.evaluations,
            covered: self.archive.len(),
            elapsed: self.start.elapsed(),
        };
        self.observer.notify(&event);
        Ok(out)
    }

    /// Offers the test to the archive; returns whether it covered a goal
    /// no test had covered (the tests whose new input-to-state pairs
    /// `crate::substituted` writes in, as REDQUEEN does for the inputs
    /// that enter its queue).
    fn record(&mut self, test: &TestCase, result: &ExecutionResult, obs: &Observation, targeted: bool) -> bool {
        if is_fragile(result) {
            self.archive.offer_fragile(test, &obs.covered);
            return false;
        }
        let mut progressed = false;
        for goal in self.archive.offer(test, &obs.covered) {
            progressed = true;
            self.observer.notify(&SearchEvent::GoalCovered { goal, evaluations: self.evaluations, targeted });
        }
        if let Some(goal) = exception_goal(self.problem.cut, test, result) {
            let trimmed = truncate_after(test, first_throw(result).unwrap_or(0));
            if self.archive.offer_exception(&trimmed, goal.clone()) {
                self.observer.notify(&SearchEvent::ExceptionCovered { goal });
            }
        }
        progressed
    }

    /// Keeps the numbers a test's execution compared, except the test's own
    /// literals (the input side of a comparison is no news).
    fn remember_numbers(&mut self, test: &TestCase, numbers: &[i64]) {
        let own: Vec<i64> = test.statements.iter().flat_map(|s| integral_literal(&s.kind)).collect();
        for &n in numbers {
            if self.numbers.len() >= MAX_NUMBERS_PER_GENERATION {
                return;
            }
            if !own.contains(&n) && !self.numbers.contains(&n) {
                self.numbers.push(n);
            }
        }
    }

    /// Up to `max` tests made by writing a new input-to-state substitution
    /// into the test whose run showed it (`crate::substituted`), oldest
    /// first, for the search to run as offspring.
    pub fn take_substituted(&mut self, max: usize) -> Vec<TestCase> {
        self.substituted.take(max)
    }

    /// The values seen since the last call (strings sorted, numbers in the
    /// order first seen: both reproducible for a seeded run).
    pub fn take_values(&mut self) -> crate::RunTimeValues {
        let taken = self.substitutions.take();
        crate::RunTimeValues {
            strings: std::mem::take(&mut self.strings).into_iter().collect(),
            numbers: std::mem::take(&mut self.numbers),
            substitutions: taken.strings,
            number_text_substitutions: taken.number_texts,
            number_substitutions: taken.numbers,
        }
    }

    /// Executes a prefix of `tests` (all of them, or at least one): when
    /// the batch could outlast the time budget at one time limit per test,
    /// it runs in chunks of as many tests as the time left allows at that
    /// rate, and stops when the time is up, so a search of slow tests ends
    /// within about one time limit of its budget.
    fn run_in_time(&mut self, tests: &[TestCase], cap: u32) -> Result<Vec<ExecutionResult>, ExecError> {
        let (Some(_), Some(limit)) = (self.budget.time, self.executor.time_limit()) else {
            return self.run(tests, cap);
        };
        let mut results = Vec::with_capacity(tests.len());
        while results.len() < tests.len() {
            let left = self.time_left().unwrap_or(Duration::MAX);
            if !results.is_empty() && left.is_zero() {
                break;
            }
            let fits = (left.as_secs_f64() / limit.as_secs_f64().max(1e-6)) as usize;
            let chunk = &tests[results.len()..(results.len() + fits.max(1)).min(tests.len())];
            results.extend(self.run(chunk, cap)?);
        }
        Ok(results)
    }

    /// The results of a prefix of `tests` (as [`Self::run_in_time`]):
    /// those that start with a statement prefix known to time out are
    /// answered from [`TimeoutMemo`] (without a value log, `cap == 0`),
    /// the others run; with, per result, whether it was answered.
    fn run_or_answer(&mut self, tests: &[TestCase], cap: u32) -> Result<(Vec<ExecutionResult>, Vec<bool>), ExecError> {
        let answers: Vec<Option<ExecutionResult>> =
            if cap > 0 { Vec::new() } else { tests.iter().map(|t| self.timeouts.answer(t)).collect() };
        if answers.iter().all(Option::is_none) {
            let results = self.run_in_time(tests, cap)?;
            let answered = vec![false; results.len()];
            return Ok((results, answered));
        }
        let to_run: Vec<TestCase> =
            tests.iter().zip(&answers).filter(|(_, a)| a.is_none()).map(|(t, _)| t.clone()).collect();
        let mut ran = self.run_in_time(&to_run, cap)?.into_iter();
        let mut results = Vec::with_capacity(tests.len());
        let mut answered = Vec::with_capacity(tests.len());
        for answer in answers {
            let (result, was_answered) = match answer {
                Some(r) => (r, true),
                None => match ran.next() {
                    Some(r) => (r, false),
                    None => break,
                },
            };
            results.push(result);
            answered.push(was_answered);
        }
        Ok((results, answered))
    }

    /// Executes `tests`, with the value log on when `cap > 0`.
    fn run(&mut self, tests: &[TestCase], cap: u32) -> Result<Vec<ExecutionResult>, ExecError> {
        if cap > 0 { self.executor.execute_logged(tests, cap) } else { self.executor.execute(tests) }
    }

    /// Runs the tests of `results` that timed out once more (not those
    /// `answered` from the memo of time-outs; while fewer
    /// than [`MAX_TIMEOUT_RETRIES`] have been, fewer than
    /// [`MAX_FAILED_TIMEOUT_RETRIES`] of them timed out again, and the time
    /// budget is not spent), in place: the second run, in warm workers, is
    /// the one that counts. Retries are not counted as evaluations (they
    /// measure the same one again).
    fn retry_timeouts(
        &mut self,
        tests: &[TestCase],
        results: &mut [ExecutionResult],
        answered: &[bool],
        cap: u32,
    ) -> Result<(), ExecError> {
        let timed_out: Vec<usize> = (0..results.len())
            .filter(|i| !answered[*i] && matches!(results[*i].outcome, TestOutcome::Timeout))
            .collect();
        let mut pending = timed_out.into_iter();
        loop {
            let failed = self.timeout_retries - self.timeouts_recovered;
            let time_up = self.time_left().is_some_and(|left| left.is_zero());
            if time_up || failed >= MAX_FAILED_TIMEOUT_RETRIES {
                return Ok(());
            }
            let room = (MAX_TIMEOUT_RETRIES - self.timeout_retries).min(MAX_FAILED_TIMEOUT_RETRIES - failed);
            let again: Vec<usize> = pending.by_ref().take(room).collect();
            if again.is_empty() {
                return Ok(());
            }
            self.timeout_retries += again.len();
            let retried: Vec<TestCase> = again.iter().map(|i| tests[*i].clone()).collect();
            let reruns = self.run(&retried, cap)?;
            for (i, r) in again.into_iter().zip(reruns) {
                tracing::debug!(outcome = ?r.outcome, "a timed-out test ran again");
                self.timeouts_recovered += usize::from(!matches!(r.outcome, TestOutcome::Timeout));
                results[i] = r;
            }
        }
    }

    /// Records how long the tests that ended took, and gives the executor
    /// the limit they allow for the next ones ([`crate::time_limit`]).
    fn adapt_time_limit(&mut self, results: &[&ExecutionResult]) {
        let Some(limit) = self.limit.as_mut() else { return };
        for r in results {
            match r.outcome {
                TestOutcome::Completed => limit.record(r.duration),
                TestOutcome::Timeout => limit.record_timeout(),
                _ => {}
            }
        }
        let next = limit.limit();
        if self.executor.time_limit() != Some(next) {
            tracing::debug!(limit = ?next, "per-test time limit adapted");
            self.executor.set_time_limit(next);
        }
    }

    /// Ends the search: the executor gets its configured time limit back.
    pub fn finish(mut self) -> SearchOutcome {
        tracing::debug!(answered = self.timeouts.hits, "tests answered from the memo of time-outs");
        let time_limit = self.limit.as_ref().map(|l| {
            let adapted = l.limit();
            self.executor.set_time_limit(l.configured());
            adapted
        });
        SearchOutcome {
            archive: std::mem::take(&mut self.archive),
            evaluations: self.evaluations,
            elapsed: self.start.elapsed(),
            time_limit,
            timeouts_recovered: self.timeouts_recovered,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

fn first_throw(result: &ExecutionResult) -> Option<usize> {
    result.statements.iter().position(|s| matches!(s, StatementOutcome::Threw(_)))
}

/// The exception goal of a test whose call on the class under test threw.
fn exception_goal(cut: &BinaryName, test: &TestCase, result: &ExecutionResult) -> Option<ExceptionGoal> {
    let i = first_throw(result)?;
    let StatementOutcome::Threw(e) = &result.statements[i] else { return None };
    let method = match &test.statements[i].kind {
        StatementKind::Constructor { method, .. }
        | StatementKind::StaticCall { method, .. }
        | StatementKind::Call { method, .. } => method,
        _ => return None,
    };
    // Timeouts and refusals are not behaviour of the class under test worth covering.
    let of_sandbox = [exec::sandbox::TIME_UP, exec::sandbox::REFUSED].contains(&e.class.as_str());
    (method.owner == *cut && !of_sandbox).then(|| ExceptionGoal {
        method: format!("{}{}", method.name, method.descriptor.to_descriptor()),
        exception: e.class.clone(),
    })
}

/// The errors of the JVM itself the JDK defines (`java.lang.VirtualMachineError`
/// and its subclasses, JLS §11.1.1), by binary name.
const VM_ERRORS: [&str; 5] = [
    "java.lang.VirtualMachineError",
    "java.lang.OutOfMemoryError",
    "java.lang.StackOverflowError",
    "java.lang.InternalError",
    "java.lang.UnknownError",
];

/// Whether an execution crashed its worker, threw an error of the JVM
/// itself or was memory-hungry ([`exec::HUNGRY_HEAP_SHARE`]): the archive
/// keeps such a test only until one that ends normally covers its goals
/// (`archive`'s module doc).
fn is_fragile(result: &ExecutionResult) -> bool {
    matches!(result.outcome, TestOutcome::Crashed { .. })
        || result.trace.heap_share_allocated > exec::HUNGRY_HEAP_SHARE
        || result
            .statements
            .iter()
            .any(|s| matches!(s, StatementOutcome::Threw(e) if VM_ERRORS.contains(&e.class.as_str())))
}

/// `test` without the statements after index `last` (they never ran).
fn truncate_after(test: &TestCase, last: usize) -> TestCase {
    let mut t = test.clone();
    t.statements.truncate(last + 1);
    t.call_under_test = t.call_under_test.filter(|v| (v.0 as usize) <= last);
    t.assertions.retain(|a| (a.var.0 as usize) <= last);
    t
}

/// Whether an execution timed out, crashed or took over 100 ms.
fn obs_slow(result: &ExecutionResult) -> bool {
    !matches!(result.outcome, TestOutcome::Completed) || result.duration > Duration::from_millis(100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use analysis::goals::ClassGoals;
    use exec::coverage::GoalMap;
    use model::names::InternalName;
    use testcase::{Primitive, Statement};

    /// Times out the first `cold` runs of each test (told apart by their
    /// one literal), then completes it; with a `limit`, a run that times
    /// out takes that long.
    struct ColdStart {
        cold: usize,
        runs: std::collections::HashMap<String, usize>,
        limit: Option<Duration>,
    }

    impl Executor for ColdStart {
        fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecutionResult>, ExecError> {
            let result = |t: &TestCase| {
                let runs = self.runs.entry(format!("{t}")).or_default();
                *runs += 1;
                let outcome = if *runs <= self.cold { TestOutcome::Timeout } else { TestOutcome::Completed };
                if let (TestOutcome::Timeout, Some(limit)) = (&outcome, self.limit) {
                    std::thread::sleep(limit);
                }
                ExecutionResult {
                    outcome,
                    statements: Vec::new(),
                    trace: Default::default(),
                    output: Default::default(),
                    duration: Duration::from_millis(1),
                }
            };
            Ok(tests.iter().map(result).collect())
        }

        fn time_limit(&self) -> Option<Duration> {
            self.limit
        }
    }

    fn test(n: i32) -> TestCase {
        TestCase {
            statements: vec![Statement::new(StatementKind::Primitive(Primitive::Int(n)))],
            ..TestCase::default()
        }
    }

    fn no_goals() -> ClassGoals {
        ClassGoals {
            class: InternalName::new("a/B"),
            source_file: "B.java".into(),
            goals: Vec::new(),
            branches: Vec::new(),
            switches: Vec::new(),
            methods: Vec::new(),
            filtered: Vec::new(),
            line_goals: Default::default(),
        }
    }

    /// Evaluates 20 distinct tests with an executor that times each out
    /// `cold` times first; returns how many timed out in the end, how many
    /// ended on their second run, the evaluations counted and the tests run
    /// again.
    fn timed_out_after_retries(cold: usize) -> (usize, usize, u64, usize) {
        let (goals, map, cut) = (no_goals(), GoalMap::default(), BinaryName::new("a.B"));
        let problem = Problem { goals: &goals, map: &map, cut: &cut };
        let mut executor = ColdStart { cold, runs: Default::default(), limit: None };
        let budget = Budget { time: None, evaluations: Some(1000) };
        let mut observer = ();
        let mut evaluator = Evaluator::new(&problem, &mut executor, budget, &mut observer);
        let evaluated = evaluator.evaluate((0..20).map(test).collect()).unwrap();
        let timed_out = evaluated.iter().filter(|e| e.obs.timed_out).count();
        let (evaluations, retries) = (evaluator.evaluations, evaluator.timeout_retries);
        (timed_out, evaluator.finish().timeouts_recovered, evaluations, retries)
    }

    /// An execution that ended in an error of the JVM itself, crashed its
    /// worker or allocated over a quarter of the heap is fragile; one that
    /// threw an ordinary exception is not.
    #[test]
    fn errors_of_the_jvm_and_crashes_make_an_execution_fragile() {
        let threw = |class: &str| ExecutionResult {
            outcome: TestOutcome::Completed,
            statements: vec![
                StatementOutcome::Normal(exec::ValueSummary::Void),
                StatementOutcome::Threw(exec::ExceptionInfo {
                    class: BinaryName::new(class),
                    message: None,
                    direct: false,
                    frames: Vec::new(),
                }),
            ],
            trace: Default::default(),
            output: Default::default(),
            duration: Duration::from_millis(1),
        };
        assert!(is_fragile(&threw("java.lang.OutOfMemoryError")));
        assert!(is_fragile(&threw("java.lang.StackOverflowError")));
        assert!(!is_fragile(&threw("java.lang.IllegalArgumentException")));
        let mut hungry = threw("java.lang.IllegalArgumentException");
        hungry.trace.heap_share_allocated = 0.3;
        assert!(is_fragile(&hungry));
        let crashed = ExecutionResult {
            outcome: TestOutcome::Crashed { reason: "exit 134".into() },
            statements: Vec::new(),
            ..threw("java.lang.Error")
        };
        assert!(is_fragile(&crashed));
    }

    #[test]
    fn a_test_that_timed_out_once_runs_again_and_its_second_run_counts() {
        // Cold once: the first 16 time-outs run again and complete; the
        // retries are bounded, so the last 4 stay timed out.
        let n = MAX_TIMEOUT_RETRIES;
        assert_eq!(timed_out_after_retries(1), (20 - n, n, 20, n));
        // Never ends: a retry changes nothing, and retries stop once the
        // first few time out again.
        assert_eq!(timed_out_after_retries(usize::MAX), (20, 0, 20, MAX_FAILED_TIMEOUT_RETRIES));
        // Never cold: nothing runs again.
        assert_eq!(timed_out_after_retries(0), (0, 0, 20, 0));
    }

    #[test]
    fn a_batch_of_tests_that_never_end_stops_when_the_time_budget_is_spent() {
        // 20 tests that each take their 20 ms time limit, in a 100 ms
        // budget: at most 100 / 20 + 1 run (the batch is cut into chunks
        // that fit the time left), and none runs again after the time is up.
        let (goals, map, cut) = (no_goals(), GoalMap::default(), BinaryName::new("a.B"));
        let problem = Problem { goals: &goals, map: &map, cut: &cut };
        let limit = Duration::from_millis(20);
        let mut executor = ColdStart { cold: usize::MAX, runs: Default::default(), limit: Some(limit) };
        let budget = Budget { time: Some(Duration::from_millis(100)), evaluations: None };
        let mut observer = ();
        let mut evaluator = Evaluator::new(&problem, &mut executor, budget, &mut observer);
        let evaluated = evaluator.evaluate((0..20).map(test).collect()).unwrap();
        let runs = evaluated.len() + evaluator.timeout_retries;
        assert!((1..=6).contains(&runs), "{} tests and {} retries ran", evaluated.len(), evaluator.timeout_retries);
        assert_eq!(evaluator.evaluations, evaluated.len() as u64);
    }

    /// Times out at the first statement whose literal is negative (the
    /// statements before it end, it and those after it have no outcome);
    /// counts the tests it ran.
    #[derive(Default)]
    struct LoopsOnNegatives {
        ran: usize,
    }

    impl Executor for LoopsOnNegatives {
        fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecutionResult>, ExecError> {
            self.ran += tests.len();
            let result = |t: &TestCase| {
                let negative = |s: &Statement| matches!(s.kind, StatementKind::Primitive(Primitive::Int(n)) if n < 0);
                let looping = t.statements.iter().position(negative);
                let statements = (0..t.statements.len())
                    .map(|i| match looping {
                        Some(l) if i >= l => StatementOutcome::NotExecuted,
                        _ => StatementOutcome::Normal(exec::ValueSummary::Void),
                    })
                    .collect();
                let outcome = if looping.is_some() { TestOutcome::Timeout } else { TestOutcome::Completed };
                ExecutionResult {
                    outcome,
                    statements,
                    trace: Default::default(),
                    output: Default::default(),
                    duration: Duration::from_millis(1),
                }
            };
            Ok(tests.iter().map(result).collect())
        }
    }

    fn ints(values: &[i32]) -> TestCase {
        let statements = values.iter().map(|n| Statement::new(StatementKind::Primitive(Primitive::Int(*n)))).collect();
        TestCase { statements, ..TestCase::default() }
    }

    #[test]
    fn tests_that_start_with_a_prefix_that_timed_out_twice_are_answered_without_running() {
        let (goals, map, cut) = (no_goals(), GoalMap::default(), BinaryName::new("a.B"));
        let problem = Problem { goals: &goals, map: &map, cut: &cut };
        let mut executor = LoopsOnNegatives::default();
        let budget = Budget { time: None, evaluations: Some(1000) };
        let mut observer = ();
        let mut evaluator = Evaluator::new(&problem, &mut executor, budget, &mut observer);
        // Once: not yet confirmed, so the second test with the prefix runs too.
        evaluator.evaluate(vec![ints(&[1, -1, 0])]).unwrap();
        evaluator.evaluate(vec![ints(&[1, -1, 1])]).unwrap();
        // Confirmed: tests with the prefix `1, -1` are answered; a test
        // that loops after another prefix, and one that ends, still run.
        let batch = vec![ints(&[1, -1, 7, 8]), ints(&[2, -1]), ints(&[1, -1]), ints(&[1, 2]), ints(&[1, -1, 5])];
        let evaluated = evaluator.evaluate(batch).unwrap();
        assert_eq!(evaluated.len(), 5, "the answered tests are evaluated in their places");
        assert_eq!(evaluator.evaluations, 7);
        let timed_out: Vec<bool> = evaluated.iter().map(|e| e.obs.timed_out).collect();
        assert_eq!(timed_out, [true, true, true, false, true]);
        assert_eq!(evaluated[0].test, ints(&[1, -1, 7, 8]));
        assert_eq!(evaluator.timeouts.hits, 3);
        // Run: the two first tests, [2, -1] and [1, 2], and the retries of
        // the time-outs that ran (never of an answered one).
        let retries = evaluator.timeout_retries;
        assert_eq!(retries, 3);
        evaluator.finish();
        assert_eq!(executor.ran, 4 + retries);
    }
    /// Compares the first word of each test's first string with `YAML`
    /// and, when it matches, its second word with `1.1`, as a parser's
    /// successive keyword checks: reports the failed comparison's operands,
    /// and covers the goal of the level reached (0, 1 or 2 keywords
    /// matched; probe = goal = level).
    struct Keywords;

    impl Executor for Keywords {
        fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecutionResult>, ExecError> {
            let result = |t: &TestCase| {
                let text = t.statements.iter().find_map(|s| match &s.kind {
                    StatementKind::String(text) => Some(text.clone()),
                    _ => None,
                });
                let words: Vec<String> = text.unwrap_or_default().split(' ').map(str::to_owned).collect();
                let keywords = ["YAML", "1.1"];
                let level = keywords.iter().zip(&words).take_while(|(k, w)| *k == *w).count();
                let failed = keywords.get(level).zip(words.get(level));
                let hit =
                    exec::BranchRecord { hits: 1, lt: 0, eq: 1, gt: 0, min_diff: 0.0, max_diff: 0.0, min_abs: 0.0 };
                let trace = exec::Trace {
                    string_pairs: failed.map(|(k, w)| (w.clone(), (*k).to_owned())).into_iter().collect(),
                    branches: vec![(level as u32, hit)],
                    ..Default::default()
                };
                ExecutionResult {
                    outcome: TestOutcome::Completed,
                    statements: vec![StatementOutcome::Normal(exec::ValueSummary::Void); t.statements.len()],
                    trace,
                    output: Default::default(),
                    duration: Duration::from_millis(1),
                }
            };
            Ok(tests.iter().map(result).collect())
        }
    }

    #[test]
    fn a_new_comparison_is_written_into_the_test_that_showed_it_one_keyword_after_another() {
        let (goals, cut) = (no_goals(), BinaryName::new("a.B"));
        let mut map = GoalMap::default();
        for level in 0..3 {
            map.add_condition_goal(level, analysis::goals::GoalId(level));
        }
        let problem = Problem { goals: &goals, map: &map, cut: &cut };
        let mut executor = Keywords;
        let budget = Budget { time: None, evaluations: Some(1000) };
        let mut observer = ();
        let mut evaluator = Evaluator::new(&problem, &mut executor, budget, &mut observer);
        let line = |text: &str| TestCase {
            statements: vec![Statement::new(StatementKind::String(text.to_owned()))],
            ..TestCase::default()
        };
        evaluator.evaluate(vec![line("ABC 7.3 rest")]).unwrap();
        let first = evaluator.take_substituted(8);
        assert_eq!(first, [line("YAML 7.3 rest")], "`ABC` occurs in the test; the keyword takes its place");
        evaluator.evaluate(vec![line("XYZ 7.3 rest")]).unwrap();
        assert!(evaluator.take_substituted(8).is_empty(), "a test that covers nothing new gets no substitution");
        evaluator.evaluate(first).unwrap();
        assert_eq!(evaluator.take_substituted(8), [line("YAML 1.1 rest")], "the next check shows in the next run");
        evaluator.evaluate(vec![line("YAML 1.1 rest")]).unwrap();
        assert!(evaluator.take_substituted(8).is_empty(), "nothing failed");
        assert_eq!(evaluator.archive.covered().count(), 3);
    }

    /// Compares the test's string with `config` and with the path of a
    /// temporary file in the worker's folder, as a class under test that
    /// got a `file.getPath()` would.
    struct SeesPaths;

    const WORKER_PATH: &str = "/tmp/ferrosuite-worker-Ab3xYz/tmp/ferrosuite6478928210905451938.tmp";

    impl Executor for SeesPaths {
        fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecutionResult>, ExecError> {
            let result = |t: &TestCase| ExecutionResult {
                outcome: TestOutcome::Completed,
                statements: vec![StatementOutcome::Normal(exec::ValueSummary::Void); t.statements.len()],
                trace: exec::Trace {
                    strings: vec!["config".into(), WORKER_PATH.into()],
                    string_pairs: vec![("conf".into(), "config".into()), ("conf".into(), WORKER_PATH.into())],
                    ..Default::default()
                },
                output: Default::default(),
                duration: Duration::from_millis(1),
            };
            Ok(tests.iter().map(result).collect())
        }
    }

    /// The names of a worker's files differ from run to run: they make no
    /// seeds, so a seeded run stays reproducible (issue 11's review: the
    /// path a `getPath()` gave came back as a literal of later tests).
    #[test]
    fn names_of_worker_files_seen_at_run_time_make_no_seeds() {
        let (goals, cut, map) = (no_goals(), BinaryName::new("a.B"), GoalMap::default());
        let problem = Problem { goals: &goals, map: &map, cut: &cut };
        let (mut executor, mut observer) = (SeesPaths, ());
        let budget = Budget { time: None, evaluations: Some(10) };
        let mut evaluator = Evaluator::new(&problem, &mut executor, budget, &mut observer);
        let test =
            TestCase { statements: vec![Statement::new(StatementKind::String("conf".into()))], ..TestCase::default() };
        evaluator.evaluate(vec![test]).unwrap();
        let values = evaluator.take_values();
        assert_eq!(values.strings, ["config"]);
        assert_eq!(values.substitutions, [("conf".to_owned(), "config".to_owned())]);
    }
}
