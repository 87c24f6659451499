//! Archived tests that end in what an emitted test cannot keep: an error
//! of the JVM itself (`OutOfMemoryError`, `StackOverflowError`: whether a
//! test ends in one depends on the heap and stack of the JVM that runs it),
//! one of ferrosuite's sandbox exceptions (an exit, the time limit, a
//! refused effect: outside the sandbox the test would really do it), or an
//! `AssertionError` of an `assert` statement the test tripped (the workers
//! run with `-ea`; whether it is thrown depends on how the test is run:
//! with `-ea` under Maven and Gradle, without under plain `java`).
//!
//! Such a test is never emitted as it is (except the first test that trips
//! each `assert`, also kept whole, ending in the `AssertionError`, as the
//! witness of a finding: [`crate::tripped_asserts`]). Left whole, it would
//! take with it the goals it covered before its last statement, which no other test may
//! cover (a cache whose lists fill before a huge `getByteArray` runs out of
//! memory). So each one is cut before the statement that threw and keeps
//! the goals the prefix still covers; a test with nothing left is counted
//! as removed, by cause.

use std::collections::BTreeSet;

use analysis::goals::GoalId;
use exec::coverage::GoalMap;
use exec::{ExecError, Executor, StatementOutcome};
use model::classpath::ClassPath;
use model::hierarchy::Supertypes;
use model::names::BinaryName;
use oracle::minimise::Keep;
use search::ExceptionGoal;
use testcase::{TestCase, VarId};

use crate::GenerateError;
use crate::class_run::ClassRun;
use crate::report::ClassReport;

/// Cause of removal of a test that ends in a sandbox exception (time limit or exit).
pub(crate) const EXITS: &str = "exits-or-never-ends";
/// Cause of removal of a test that ends in a refused effect.
pub(crate) const REFUSED: &str = "refused-by-sandbox";
/// Cause of removal of a test that ends in an error of the JVM itself.
pub(crate) const VM_ERROR: &str = "vm-error";
/// Cause of removal of a test that trips an `assert` statement.
pub(crate) const TRIPS_AN_ASSERT: &str = "trips-an-assert";
/// The error an `assert` statement throws.
pub(crate) const ASSERTION_ERROR: &str = "java.lang.AssertionError";

/// The root of the errors of the JVM itself (JLS §11.1.1).
const VIRTUAL_MACHINE_ERROR: &str = "java.lang.VirtualMachineError";

/// Whether `exception` is an error of the JVM itself (`OutOfMemoryError`,
/// `StackOverflowError`, ...).
pub(crate) fn is_vm_error(cp: &ClassPath, exception: &BinaryName) -> bool {
    exception.as_str() == VIRTUAL_MACHINE_ERROR
        || Supertypes::of(cp, exception.as_str())
            .is_ok_and(|s| s.superclasses.iter().any(|c| c.as_str() == VIRTUAL_MACHINE_ERROR))
}

/// The removal cause of a test that ends in `exception`, when an emitted
/// test cannot end so.
pub(crate) fn unkeepable_cause(cp: &ClassPath, exception: &BinaryName) -> Option<&'static str> {
    if exception.as_str() == exec::sandbox::REFUSED {
        Some(REFUSED)
    } else if exec::sandbox::EXCEPTIONS.contains(&exception.as_str()) {
        Some(EXITS)
    } else if is_vm_error(cp, exception) {
        Some(VM_ERROR)
    } else {
        None
    }
}

/// The archived tests with what minimisation must keep of each, in
/// `run`'s workers; the removed ones are counted in `report` by cause.
///
/// # Errors
/// Executor failures.
pub(crate) fn keepable(
    run: &mut ClassRun,
    archived: Vec<(TestCase, BTreeSet<GoalId>, Vec<ExceptionGoal>)>,
    report: &mut ClassReport,
) -> Result<Vec<(TestCase, Keep)>, GenerateError> {
    let (kept, removed) = cut_unkeepable(archived, &run.map, &mut run.pool, &run.cp)?;
    for cause in removed {
        report.count_removed(cause, 1);
    }
    Ok(kept)
}

/// What [`cut_unkeepable`] returns: the tests to keep, each with what
/// minimisation must keep of it, and the removal cause of each test left out.
pub type Kept = (Vec<(TestCase, Keep)>, Vec<&'static str>);

/// The archived tests (each with the goals and exception goals it holds)
/// with what minimisation must keep of each: a test that ends in an
/// unkeepable exception is cut before the statement that threw it and
/// keeps the goals the prefix still covers (module docs); the others keep
/// their goals and the exception goal they hold, if any. Also returns the
/// cause of each test left out (nothing left before its ending).
///
/// # Errors
/// Executor failures.
pub fn cut_unkeepable(
    archived: Vec<(TestCase, BTreeSet<GoalId>, Vec<ExceptionGoal>)>,
    map: &GoalMap,
    executor: &mut dyn Executor,
    cp: &ClassPath,
) -> Result<Kept, ExecError> {
    let tests: Vec<TestCase> = archived.iter().map(|(t, _, _)| t.clone()).collect();
    let results = if tests.is_empty() { Vec::new() } else { executor.execute(&tests)? };
    let (mut kept, mut removed) = (Vec::new(), Vec::new());
    let mut cut: Vec<(TestCase, BTreeSet<GoalId>, &'static str)> = Vec::new();
    let mut tripped = BTreeSet::new();
    for ((test, goals, exceptions), result) in archived.into_iter().zip(&results) {
        if let Some((k, location)) = tripped_assert(cp, result).filter(|(_, at)| tripped.insert(at.clone())) {
            // Whole, ending in the `AssertionError`: a finding's witness.
            let exception = Some(BinaryName::new(ASSERTION_ERROR));
            let witness = testcase::operators::truncate_after(&test, VarId(k as u32));
            tracing::debug!(%location, "a test trips an assert");
            kept.push((witness, Keep { goals: goals.clone(), exception }));
        }
        match unkeepable_ending(cp, result) {
            Some((k, cause)) if k == 0 || goals.is_empty() => removed.push(cause),
            Some((k, cause)) => {
                cut.push((testcase::operators::truncate_after(&test, VarId(k as u32 - 1)), goals, cause))
            }
            None => {
                let exception = exceptions.first().map(|e| e.exception.clone());
                kept.push((test, Keep { goals, exception }));
            }
        }
    }
    if cut.is_empty() {
        return Ok((kept, removed));
    }
    let prefixes: Vec<TestCase> = cut.iter().map(|(t, _, _)| t.clone()).collect();
    let results = executor.execute(&prefixes)?;
    for ((prefix, goals, cause), result) in cut.into_iter().zip(&results) {
        let covered = map.covered_by(result);
        let still: BTreeSet<GoalId> = goals.intersection(&covered).copied().collect();
        if still.is_empty() || unkeepable_ending(cp, result).is_some() {
            removed.push(cause);
        } else {
            tracing::debug!(goals = still.len(), of = goals.len(), "a test cut before its {cause}");
            kept.push((prefix, Keep { goals: still, exception: None }));
        }
    }
    Ok((kept, removed))
}

/// The index of the statement that threw an unkeepable exception, and the
/// cause, when `result` ends so.
fn unkeepable_ending(cp: &ClassPath, result: &exec::ExecutionResult) -> Option<(usize, &'static str)> {
    result.statements.iter().enumerate().find_map(|(k, s)| match s {
        StatementOutcome::Threw(e) if trips_an_assert(cp, e) => Some((k, TRIPS_AN_ASSERT)),
        StatementOutcome::Threw(e) => unkeepable_cause(cp, &e.class).map(|cause| (k, cause)),
        _ => None,
    })
}

/// The index of the statement that tripped an `assert` in `result`, and
/// where the `assert` is (`class:line`).
fn tripped_assert(cp: &ClassPath, result: &exec::ExecutionResult) -> Option<(usize, String)> {
    result.statements.iter().enumerate().find_map(|(k, s)| match s {
        StatementOutcome::Threw(e) if trips_an_assert(cp, e) => {
            e.frames.first().map(|top| (k, format!("{}:{}", top.class, top.line.unwrap_or(0))))
        }
        _ => None,
    })
}

/// Whether `e` is the `AssertionError` of an `assert` statement: made at a
/// line of an `assert` of the method that threw it
/// ([`analysis::assertions::assert_lines`]), not one the code throws itself.
pub(crate) fn trips_an_assert(cp: &ClassPath, e: &exec::ExceptionInfo) -> bool {
    let Some(top) = e.frames.first().filter(|_| e.class.as_str() == "java.lang.AssertionError") else {
        return false;
    };
    let Some(line) = top.line.and_then(|l| u16::try_from(l).ok()) else { return false };
    cp.load(&top.class).is_ok_and(|cf| analysis::assertions::assert_lines(&cf, &top.method).contains(&line))
}
