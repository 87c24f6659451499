//! Test minimisation (EvoSuite's `TestCaseMinimizer`): remove statements,
//! last first, while the test still covers the goals it is kept for.

use std::collections::BTreeSet;

use analysis::goals::GoalId;
use exec::coverage::GoalMap;
use exec::{ExecError, Executor, StatementOutcome};
use model::names::BinaryName;
use testcase::{StatementKind, TestCase};

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
/// from the last to the first (one execution per candidate); before a
/// mock itself, each of its stubs (a stub the test does not need is noise
/// to a reader, and its value may then go too).
///
/// # Errors
/// [`ExecError`] when the executor fails as a whole.
pub fn minimise(
    test: &TestCase,
    keep: &Keep,
    map: &GoalMap,
    executor: &mut dyn Executor,
) -> Result<TestCase, ExecError> {
    // A test kept for coverage goals may end with an exception whose goal
    // another test holds: it must still end with it, as it did.
    let exception = match &keep.exception {
        Some(e) => Some(e.clone()),
        None => ending_exception(&executor.execute(std::slice::from_ref(test))?.remove(0)),
    };
    let keep = &Keep { goals: keep.goals.clone(), exception };
    let mut best = test.clone();
    let mut i = best.statements.len();
    while i > 0 {
        i -= 1;
        if i >= best.statements.len() {
            continue;
        }
        for k in (0..stub_count(&best, i)).rev() {
            let candidate = without_stub(&best, i, k);
            if still_keeps(&candidate, keep, map, executor)? {
                best = candidate;
            }
        }
        let candidate = testcase::operators::remove_with_forward_dependencies(&best, testcase::VarId(i as u32));
        if !candidate.statements.is_empty() && still_keeps(&candidate, keep, map, executor)? {
            best = candidate;
        }
    }
    Ok(best)
}

/// Whether `candidate` still covers the goals of `keep` and ends as it
/// must: with its exception, at its last statement.
fn still_keeps(
    candidate: &TestCase,
    keep: &Keep,
    map: &GoalMap,
    executor: &mut dyn Executor,
) -> Result<bool, ExecError> {
    let result = executor.execute(std::slice::from_ref(candidate))?.remove(0);
    let covered = map.covered_by(&result);
    let ends_with = ending_exception(&result);
    let threw_early = result.statements.iter().position(|s| matches!(s, StatementOutcome::Threw(_)));
    let ends_at_last = threw_early.is_none_or(|k| k + 1 == candidate.statements.len());
    Ok(keep.goals.is_subset(&covered) && ends_with == keep.exception && ends_at_last)
}

/// The exception the last executed statement of `result` threw, if any.
fn ending_exception(result: &exec::ExecutionResult) -> Option<BinaryName> {
    match result.statements.iter().rev().find(|s| **s != StatementOutcome::NotExecuted) {
        Some(StatementOutcome::Threw(e)) => Some(e.class.clone()),
        _ => None,
    }
}

/// How many stubs statement `i` of `test` has (0 unless it is a mock).
fn stub_count(test: &TestCase, i: usize) -> usize {
    match &test.statements[i].kind {
        StatementKind::Mock { methods, .. } => methods.len(),
        _ => 0,
    }
}

/// `test` with stub `k` of the mock at statement `i` removed.
fn without_stub(test: &TestCase, i: usize, k: usize) -> TestCase {
    let mut out = test.clone();
    if let StatementKind::Mock { methods, returns, .. } = &mut out.statements[i].kind {
        methods.remove(k);
        returns.remove(k);
    }
    out
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

    /// Answers as if only stub `0` of a mock mattered: a test's last
    /// statement throws an `Error` while its mock still stubs a method of
    /// that name.
    struct NeedsStub(&'static str);

    impl Executor for NeedsStub {
        fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecutionResult>, ExecError> {
            let stubs = tests[0].statements.iter().any(
                |s| matches!(&s.kind, StatementKind::Mock { methods, .. } if methods.iter().any(|m| m.name == self.0)),
            );
            let mut statements = vec![StatementOutcome::Normal(exec::ValueSummary::Void); tests[0].statements.len()];
            if stubs {
                let error = exec::ExceptionInfo {
                    class: BinaryName::new("java.lang.Error"),
                    message: None,
                    direct: true,
                    frames: vec![],
                };
                *statements.last_mut().unwrap() = StatementOutcome::Threw(error);
            }
            Ok(vec![ExecutionResult {
                outcome: exec::TestOutcome::Completed,
                statements,
                trace: exec::Trace::default(),
                output: Default::default(),
                duration: std::time::Duration::ZERO,
            }])
        }
    }

    /// `v2 = mock(demo.Stock)` stubbing `isOpen` with `true` and `count`
    /// with `3`, then `int 7` when `then_seven`.
    fn stock_mock_test(then_seven: bool) -> TestCase {
        let mut t = TestCaseBuilder::new();
        let yes = t.boolean(true);
        let three = t.int(3);
        let method = |name: &str, descriptor: &str| MethodRef::parse("demo.Stock", name, descriptor).unwrap();
        let methods = vec![method("isOpen", "()Z"), method("count", "()I")];
        t.mock(BinaryName::new("demo.Stock"), methods, vec![yes, three]);
        if then_seven {
            t.int(7);
        }
        t.build()
    }

    #[test]
    fn stubs_a_test_does_not_need_are_removed_with_their_values() {
        let test = stock_mock_test(false);
        let keep = Keep { goals: BTreeSet::new(), exception: Some(BinaryName::new("java.lang.Error")) };
        let small = minimise(&test, &keep, &GoalMap::default(), &mut NeedsStub("count")).unwrap();
        assert_eq!(small.to_string(), "v0 = 3\nv1 = mock(demo.Stock).stub(count, v0)\n");
    }

    /// A test kept for coverage goals alone (no exception goal: another
    /// test holds it) that ends with an exception still ends with it, and
    /// loses what it does not need. Before, every candidate was refused for
    /// ending with an exception, and such tests stayed as the search left them.
    #[test]
    fn a_test_kept_for_goals_that_ends_with_an_exception_keeps_it_and_loses_the_rest() {
        let test = stock_mock_test(true);
        let keep = Keep { goals: BTreeSet::new(), exception: None };
        let small = minimise(&test, &keep, &GoalMap::default(), &mut NeedsStub("count")).unwrap();
        assert_eq!(small.to_string(), "v0 = 3\nv1 = mock(demo.Stock).stub(count, v0)\n");
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
