//! Stage 7a, the two-environment check: the observed tests run once more in
//! workers started with a second environment (another clock base, random
//! seeds and identity hash codes, [`jvm::environment::Environment::other`],
//! and another heap size); an assertion is kept only when the value it is
//! built from is the same there, and a test whose outcome differs (an
//! exception against a normal end, another exception, a timeout) is removed.
//! What the class reads from its environment thus never becomes an
//! expected value, though it is deterministic within one worker.

use exec::{ExecutionResult, Executor, StatementOutcome, TestOutcome};
use jvm::pool::{Pool, WorkerConfig};
use oracle::assertions::{InspectorCall, observed_through, same_outcome};
use testcase::TestCase;
use testcase::assertion::{Assertion, AssertionKind};

use crate::GenerateError;
use crate::class_run::ClassRun;
use crate::report::ClassReport;

/// Removal cause of tests and assertions whose values differ between the
/// two environments ([`ClassReport::removed_tests_by_cause`],
/// [`ClassReport::removed_assertions_by_cause`]).
pub const DIFFERS: &str = "differs-between-environments";
/// Removal cause of value assertions left unchecked because the class's
/// post-processing deadline left no time for the second environment.
pub const UNCHECKED: &str = "not-checked-in-second-environment";

/// Time the check needs before its run: a pool of new workers starts
/// (as for mutation analysis, [`crate::mutants`]).
const SETUP: std::time::Duration = std::time::Duration::from_millis(1500);

/// The tests observed with their inspector calls, and one run of each.
pub struct Observations {
    /// The observed form of each test and where its inspector calls are.
    pub observed: Vec<(TestCase, Vec<InspectorCall>)>,
    /// One run of each observed test in the first environment.
    pub runs: Vec<ExecutionResult>,
}

/// Runs the observed tests in the second environment and removes the
/// assertions and tests that differ there (from `tests` and, in step, from
/// `obs`), counting them in `report`. When the mutant deadline leaves no
/// time for the set-up, or the second workers cannot run, the value and
/// inspector assertions are removed unchecked instead (the expected
/// exceptions stay: they agreed in two runs, and without them the test
/// would fail).
pub fn check(run: &ClassRun, tests: &mut Vec<TestCase>, obs: &mut Observations, report: &mut ClassReport) {
    if tests.is_empty() {
        return;
    }
    let time_left = run.deadlines.mutants.map(|d| d.saturating_duration_since(std::time::Instant::now()));
    if time_left.is_some_and(|left| left < SETUP) {
        drop_unchecked(run, tests, report, "no time was left");
        return;
    }
    let second = match second_environment_runs(run, &obs.observed) {
        Ok(second) => second,
        Err(e) => {
            drop_unchecked(run, tests, report, &e.chain_text());
            return;
        }
    };
    let mut keep = Vec::with_capacity(tests.len());
    let (mut dropped, mut unchecked) = (0, 0);
    for (i, test) in tests.iter_mut().enumerate() {
        let (first, other) = (&obs.runs[i], &second[i]);
        if completed(first) && !completed(other) {
            // Timed out or crashed twice there (a loaded machine, a worker
            // lost): no evidence either way, so the test stays unchecked.
            unchecked += drop_assertions(test, is_value) + forget_messages(test, |_| true);
            keep.push(true);
            continue;
        }
        let same_end = ending(first, test.statements.len()) == ending(other, test.statements.len());
        if !same_end {
            tracing::debug!(
                "differs in the second environment: {:?} vs {:?}\n{test}",
                ending(first, test.statements.len()),
                ending(other, test.statements.len())
            );
        }
        keep.push(same_end);
        if same_end {
            let calls = &obs.observed[i].1;
            dropped += drop_assertions(test, |a| {
                value_index(a, calls).is_some_and(|k| !agree(first.statements.get(k), other.statements.get(k)))
            });
            dropped += forget_messages(test, |i| message(first, i) != message(other, i));
        }
    }
    report.count_removed_assertions(DIFFERS, dropped);
    report.count_removed_assertions(UNCHECKED, unchecked);
    report.count_removed(DIFFERS, keep.iter().filter(|k| !**k).count());
    retain_in_step(tests, obs, &keep);
}

/// Removes the value and inspector assertions of `tests` unchecked,
/// counted under [`UNCHECKED`] (`why` goes to the log).
fn drop_unchecked(run: &ClassRun, tests: &mut [TestCase], report: &mut ClassReport, why: &str) {
    let unchecked: usize = tests.iter_mut().map(|t| drop_assertions(t, is_value) + forget_messages(t, |_| true)).sum();
    report.count_removed_assertions(UNCHECKED, unchecked);
    tracing::warn!("{}: {unchecked} assertions not checked in a second environment: {why}", run.class);
}

/// One run of each observed test in a new pool of workers with the other
/// environment and heap size (a test that times out or crashes there runs
/// twice).
fn second_environment_runs(
    run: &ClassRun,
    observed: &[(TestCase, Vec<InspectorCall>)],
) -> Result<Vec<ExecutionResult>, GenerateError> {
    let worker = WorkerConfig {
        environment: run.worker.environment.other(),
        heap_mb: other_heap_mb(run.worker.heap_mb),
        ..run.worker.clone()
    };
    let mut pool = Pool::new(worker, run.exec.clone(), run.jobs)?.with_validation(run.cp.clone());
    let tests: Vec<TestCase> = observed.iter().map(|(t, _)| t.clone()).collect();
    let mut runs = pool.execute(&tests)?;
    // A new JVM's first tests load and compile classes: one that timed out
    // or crashed runs once more, in the now warm workers, before it counts.
    let failed: Vec<usize> = (0..runs.len()).filter(|i| !completed(&runs[*i])).collect();
    if !failed.is_empty() {
        let again: Vec<TestCase> = failed.iter().map(|i| tests[*i].clone()).collect();
        for (i, r) in failed.into_iter().zip(pool.execute(&again)?) {
            runs[i] = r;
        }
    }
    Ok(runs)
}

/// Whether a run ended by itself (normally or with an exception), not by a
/// timeout or a crash of its worker.
fn completed(r: &ExecutionResult) -> bool {
    !matches!(r.outcome, TestOutcome::Timeout | TestOutcome::Crashed { .. })
}

/// The heap size of the second environment: half of `heap_mb` (at least
/// 64 MB), or twice a heap of less than 256 MB.
pub fn other_heap_mb(heap_mb: u32) -> u32 {
    if heap_mb >= 256 { (heap_mb / 2).max(64) } else { heap_mb.saturating_mul(2) }
}

/// How a run of a test's own statements (the first `n`, before the
/// inspector calls) ends: the test outcome, and the first statement that
/// threw with its exception class.
fn ending(r: &ExecutionResult, n: usize) -> (std::mem::Discriminant<TestOutcome>, Option<(usize, String)>) {
    let threw = r.statements.iter().take(n).enumerate().find_map(|(i, s)| match s {
        StatementOutcome::Threw(e) => Some((i, e.class.as_str().to_string())),
        _ => None,
    });
    (std::mem::discriminant(&r.outcome), threw)
}

/// Whether two observations of one statement agree.
fn agree(a: Option<&StatementOutcome>, b: Option<&StatementOutcome>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => same_outcome(a, b),
        _ => false,
    }
}

/// Whether an assertion checks an observed value (not an exception).
fn is_value(a: &Assertion) -> bool {
    matches!(
        a.kind,
        AssertionKind::Value(_)
            | AssertionKind::Inspector { .. }
            | AssertionKind::ArrayElements(_)
            | AssertionKind::ArrayLength(_)
            | AssertionKind::EqualsOther { .. }
    )
}

/// The message of the exception that statement `i` threw in run `r`.
fn message(r: &ExecutionResult, i: usize) -> Option<&str> {
    match r.statements.get(i) {
        Some(StatementOutcome::Threw(e)) => e.message.as_deref(),
        _ => None,
    }
}

/// Stops asserting the message of each expected exception of `test` whose
/// statement index `differs` selects (the exception itself stays
/// expected); returns how many messages were dropped.
fn forget_messages(test: &mut TestCase, differs: impl Fn(usize) -> bool) -> usize {
    let mut forgotten = 0;
    for a in &mut test.assertions {
        if let AssertionKind::Throws { message: message @ Some(_), .. } = &mut a.kind
            && differs(a.var.index())
        {
            *message = None;
            forgotten += 1;
        }
    }
    forgotten
}

/// The statement of the observed test whose value an assertion is built
/// from: the statement itself for a value, the inspector call for an
/// inspector or an array; `None` for the assertions that are checked
/// otherwise (the expected exception: by the test's ending and message).
fn value_index(a: &Assertion, calls: &[InspectorCall]) -> Option<usize> {
    match &a.kind {
        AssertionKind::Value(_) => Some(a.var.0 as usize),
        _ => observed_through(a, calls).map(|c| c.at),
    }
}

/// Removes the assertions of `test` that `remove` selects; returns how many.
fn drop_assertions(test: &mut TestCase, remove: impl Fn(&Assertion) -> bool) -> usize {
    let before = test.assertions.len();
    test.assertions.retain(|a| !remove(a));
    before - test.assertions.len()
}

/// Keeps the tests (and their observations) whose `keep` flag is set.
fn retain_in_step(tests: &mut Vec<TestCase>, obs: &mut Observations, keep: &[bool]) {
    retain_flagged(tests, keep);
    retain_flagged(&mut obs.observed, keep);
    retain_flagged(&mut obs.runs, keep);
}

/// Keeps the items of `items` whose flag in `keep` (one per item) is set.
fn retain_flagged<T>(items: &mut Vec<T>, keep: &[bool]) {
    let mut flags = keep.iter();
    items.retain(|_| *flags.next().expect("one flag per item"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_heap_differs_from_the_first() {
        assert_eq!(other_heap_mb(1024), 512);
        assert_eq!(other_heap_mb(128), 256);
        assert_eq!(other_heap_mb(256), 128);
        for mb in [16, 64, 100, 255, 256, 300, 4096] {
            assert_ne!(other_heap_mb(mb), mb);
        }
    }
}
