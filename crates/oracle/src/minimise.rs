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
/// results that read the same as an earlier one (by their rendering:
/// `PartialEq` would keep every test with a `NaN` in it, as `NaN != NaN`),
/// keeping the first: the tests of a suite, in the order given. Tests reached after `deadline` are kept as
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
    let mut seen = std::collections::HashSet::new();
    for (test, keep) in tests {
        let small = if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            test
        } else {
            minimise(&test, &keep, map, executor)?
        };
        if seen.insert(small.to_string()) {
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
        let covered = map.covered_by(&result);
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

#[cfg(test)]
mod tests {
    use super::*;
    use exec::ExecutionResult;
    use testcase::{MethodRef, TestCaseBuilder};

    /// An executor that must not be called (the deadline has passed).
    struct Unused;

    impl Executor for Unused {
        fn execute(&mut self, _: &[TestCase]) -> Result<Vec<ExecutionResult>, ExecError> {
            panic!("no test is executed after the deadline");
        }
    }

    fn nan_test(value: f64) -> TestCase {
        let mut t = TestCaseBuilder::new();
        let x = t.double(value);
        t.static_call(MethodRef::parse("java.lang.Math", "abs", "(D)D").unwrap(), &[x]);
        t.build()
    }

    /// Two tests that read the same are one, even with a `NaN` in them
    /// (three identical `new Rect(NaN, NaN)` tests were kept side by side).
    #[test]
    fn tests_that_read_the_same_are_kept_once_even_with_nan() {
        let keep = Keep { goals: BTreeSet::new(), exception: None };
        let tests = [nan_test(f64::NAN), nan_test(f64::NAN), nan_test(1.5)].map(|t| (t, keep.clone()));
        let past = Some(std::time::Instant::now());
        let suite = minimise_suite(tests, &GoalMap::default(), &mut Unused, past).unwrap();
        let read: Vec<String> = suite.iter().map(TestCase::to_string).collect();
        assert_eq!(read, [nan_test(f64::NAN).to_string(), nan_test(1.5).to_string()]);
    }
}
