//! Test minimisation (EvoSuite's `TestCaseMinimizer`): remove statements,
//! last first, while the test still covers the goals it is kept for.

use std::collections::BTreeSet;

use analysis::goals::GoalId;
use exec::coverage::GoalMap;
use exec::{ExecError, Executor, StatementOutcome};
use model::names::BinaryName;
use testcase::TestCase;

/// What a minimised test must keep: its goals, and whether its last
/// statement throws (an exception test stays an exception test).
#[derive(Debug, Clone)]
pub struct Keep {
    /// The goals the test must still cover.
    pub goals: BTreeSet<GoalId>,
    /// The exception class the test must still end with, if any.
    pub exception: Option<BinaryName>,
}

/// Minimises each test for what it must keep ([`minimise`]) and drops the
/// results that equal an earlier one, keeping the first: the tests of a
/// suite, in the order given. Tests reached after `deadline` are kept as
/// they are (longer, but still covering what they cover).
///
/// # Errors
/// [`ExecError`] when the executor fails as a whole.
pub fn minimise_suite(
    tests: impl IntoIterator<Item = (TestCase, Keep)>,
    map: &GoalMap,
    executor: &mut dyn Executor,
    deadline: Option<std::time::Instant>,
) -> Result<Vec<TestCase>, ExecError> {
    let mut suite: Vec<TestCase> = Vec::new();
    for (test, keep) in tests {
        let small = if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            test
        } else {
            minimise(&test, &keep, map, executor)?
        };
        if !suite.contains(&small) {
            suite.push(small);
        }
    }
    Ok(suite)
}

/// Minimises `test` so it still satisfies `keep`, trying each statement
/// from the last to the first (one execution per candidate).
///
/// # Errors
/// [`ExecError`] when the executor fails as a whole.
pub fn minimise(
    test: &TestCase,
    keep: &Keep,
    map: &GoalMap,
    executor: &mut dyn Executor,
) -> Result<TestCase, ExecError> {
    let mut best = test.clone();
    let mut i = best.statements.len();
    while i > 0 {
        i -= 1;
        if i >= best.statements.len() {
            continue;
        }
        let candidate = testcase::operators::remove_with_forward_dependencies(&best, testcase::VarId(i as u32));
        if candidate.statements.is_empty() {
            continue;
        }
        let result = executor.execute(std::slice::from_ref(&candidate))?.remove(0);
        let covered = map.covered(&result.trace);
        let ends_with = match result.statements.iter().rev().find(|s| **s != StatementOutcome::NotExecuted) {
            Some(StatementOutcome::Threw(e)) => Some(e.class.clone()),
            _ => None,
        };
        let threw_early = result.statements.iter().position(|s| matches!(s, StatementOutcome::Threw(_)));
        let ends_at_last = threw_early.is_none_or(|k| k + 1 == candidate.statements.len());
        if keep.goals.is_subset(&covered) && ends_with == keep.exception && ends_at_last {
            best = candidate;
        }
    }
    Ok(best)
}
