//! Mutation analysis of assertions (mutant-based filtering, EvoSuite's
//! term "mutation analysis"; the GA's mutation operator is unrelated and
//! lives in `testcase::operators::mutation`) (EvoSuite's
//! `MutationAssertionGenerator`): an assertion is kept only when it fails
//! on at least one mutant of the class under test, i.e. it can detect a
//! change of behaviour; each test keeps at least one assertion on its last
//! call under test.
//!
//! A test is run, in its observed form (with the inspector calls of
//! [`crate::assertions::with_inspectors`]), once per mutant it reaches; an
//! assertion kills a mutant when what it checks differs in that run (a
//! mutant run that times out or crashes credits no assertion: the emitted
//! test fails on that mutant by its time limit or error whatever it
//! asserts, and on a loaded machine such a run may be the machine's doing,
//! which must not decide what the suite asserts).

use std::collections::BTreeSet;

use analysis::goals::{ClassGoals, GoalKind};
use exec::coverage::GoalMap;

use exec::{ExecError, ExecutionResult, StatementOutcome, TestOutcome};
use testcase::TestCase;
use testcase::assertion::{Assertion, AssertionKind};

use crate::assertions::{InspectorCall, literal, observed_kind, observed_through};

/// Counts of the filtering.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FilterStats {
    /// Assertions removed because they killed no mutant.
    pub removed: usize,
    /// Mutants killed by the kept assertions.
    pub killed: usize,
    /// Mutants run against at least one test.
    pub reached: usize,
}

/// One test to filter: the test with its assertions, its observed form and
/// inspector calls, and the mutants it reaches.
pub struct Candidate<'a> {
    /// The test whose assertions are filtered (assertions are removed in place).
    pub test: &'a mut TestCase,
    /// The test with inspector calls appended ([`crate::assertions::with_inspectors`]).
    pub observed: &'a TestCase,
    /// The inspector calls of `observed`.
    pub inspector_calls: &'a [InspectorCall],
    /// Ids of the mutants the test reaches ([`reached_mutants`]).
    pub mutants: &'a [u32],
}

/// Runs observed test `i` with mutant `mutants[i]` active, all in one
/// batch; it may return the results of a prefix only (its time ran out),
/// and the pairs it did not run count as neither killing nor sparing.
pub type MutantRunner<'r> = dyn FnMut(&[TestCase], &[u32]) -> Result<Vec<ExecutionResult>, ExecError> + 'r;

/// Test–mutant runs at most per class; beyond it, every k-th pair is run.
pub const MAX_RUNS: usize = 40_000;

/// The mutants (ids) in methods that `trace` entered: the mutants a test
/// can kill. `goals`/`map` are those of the class under test; each mutant
/// is (id, method index in its class file).
pub fn reached_mutants(
    goals: &ClassGoals,
    map: &GoalMap,
    trace: &exec::Trace,
    mutants: impl IntoIterator<Item = (u32, u16)>,
) -> Vec<u32> {
    let entered: BTreeSet<u16> = map
        .covered(trace)
        .into_iter()
        .map(|g| goals.goal(g))
        .filter(|g| matches!(g.kind, GoalKind::Method))
        .map(|g| g.method_index)
        .collect();
    mutants.into_iter().filter(|(_, method)| entered.contains(method)).map(|(id, _)| id).collect()
}

/// Filters the assertions of `candidates`. `run(tests, mutants)` executes
/// observed test `i` with mutant `mutants[i]` active, all in one batch; at
/// most `max_runs` (and [`MAX_RUNS`]) test–mutant pairs run, every k-th
/// one beyond.
///
/// # Errors
/// [`ExecError`] from `run`.
pub fn filter_assertions(
    candidates: &mut [Candidate<'_>],
    max_runs: usize,
    run: &mut MutantRunner<'_>,
) -> Result<FilterStats, ExecError> {
    let max_runs = max_runs.clamp(1, MAX_RUNS);
    let all: BTreeSet<u32> = candidates.iter().flat_map(|c| c.mutants.iter().copied()).collect();
    let mut pairs: Vec<(usize, u32)> =
        candidates.iter().enumerate().flat_map(|(i, c)| c.mutants.iter().map(move |m| (i, *m))).collect();
    if pairs.len() > max_runs {
        let step = pairs.len().div_ceil(max_runs);
        pairs = pairs.into_iter().step_by(step).collect();
    }
    let tests: Vec<TestCase> = pairs.iter().map(|(i, _)| candidates[*i].observed.clone()).collect();
    let mutants: Vec<u32> = pairs.iter().map(|(_, m)| *m).collect();
    let results = run(&tests, &mutants)?;
    // A test with a pair left unrun keeps all its assertions: none was shown to kill nothing.
    let unrun: BTreeSet<usize> = pairs.iter().skip(results.len()).map(|(i, _)| *i).collect();
    let mut kills: Vec<Vec<BTreeSet<u32>>> =
        candidates.iter().map(|c| vec![BTreeSet::new(); c.test.assertions.len()]).collect();
    for ((i, m), r) in pairs.into_iter().zip(results) {
        if !matches!(r.outcome, TestOutcome::Completed) {
            continue;
        }
        let c = &candidates[i];
        for (k, a) in c.test.assertions.iter().enumerate() {
            if !holds(a, c.observed, c.inspector_calls, &r) {
                kills[i][k].insert(m);
            }
        }
    }
    let mut stats = FilterStats { reached: all.len(), ..FilterStats::default() };
    let mut killed = BTreeSet::new();
    for (n, (c, k)) in candidates.iter_mut().zip(kills).enumerate() {
        let before = c.test.assertions.len();
        let last = last_call_assertion(c.test);
        let last_var = last.map(|i| c.test.assertions[i].var);
        // Keep the killers, and the last call's assertion when no killer
        // is on the last call.
        let killer_on_last = (0..before).any(|i| !k[i].is_empty() && Some(c.test.assertions[i].var) == last_var);
        let keep: Vec<bool> = (0..before)
            .map(|i| unrun.contains(&n) || !k[i].is_empty() || (Some(i) == last && !killer_on_last))
            .collect();
        let mut i = 0;
        c.test.assertions.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        k.iter().for_each(|s| killed.extend(s.iter().copied()));
        stats.removed += before - c.test.assertions.len();
    }
    stats.killed = killed.len();
    Ok(stats)
}

/// Index of the assertion on the last statement that has one (the last call).
fn last_call_assertion(test: &TestCase) -> Option<usize> {
    test.assertions.iter().enumerate().max_by_key(|(_, a)| a.var.0).map(|(i, _)| i)
}

/// Whether `a` still holds in the completed run `r` of the observed test.
fn holds(a: &Assertion, observed: &TestCase, inspector_calls: &[InspectorCall], r: &ExecutionResult) -> bool {
    let at = |i: usize| r.statements.get(i);
    match &a.kind {
        AssertionKind::Throws { exception, message } => match at(a.var.0 as usize) {
            Some(StatementOutcome::Threw(e)) => {
                e.class == *exception && message.as_ref().is_none_or(|m| e.message.as_ref() == Some(m))
            }
            _ => false,
        },
        AssertionKind::Value(expected) => {
            let ty = observed.statements.get(a.var.0 as usize).and_then(|s| s.kind.value_type());
            match (at(a.var.0 as usize), ty) {
                (Some(StatementOutcome::Normal(v)), Some(ty)) => literal(v, &ty).as_ref() == Some(expected),
                _ => false,
            }
        }
        AssertionKind::Inspector { .. }
        | AssertionKind::ArrayElements(_)
        | AssertionKind::ArrayLength(_)
        | AssertionKind::EqualsOther { .. } => {
            let Some(p) = observed_through(a, inspector_calls) else { return true };
            match at(p.at) {
                Some(StatementOutcome::Normal(v)) => observed_kind(p, v).as_ref() == Some(&a.kind),
                _ => false,
            }
        }
        // Not generated from observations yet; kept as they are.
        AssertionKind::NotNull | AssertionKind::Field { .. } => true,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use exec::{Trace, ValueSummary};
    use testcase::assertion::Literal;
    use testcase::{MethodRef, Primitive, TestCaseBuilder, VarId};

    use super::*;

    fn result(values: &[i64]) -> ExecutionResult {
        ExecutionResult {
            outcome: TestOutcome::Completed,
            statements: values.iter().map(|v| StatementOutcome::Normal(ValueSummary::Integer(*v))).collect(),
            trace: Trace::default(),
            output: Default::default(),
            duration: Duration::ZERO,
        }
    }

    /// `v0 = 3; v1 = X.f(v0); v2 = X.g(v1)` with value assertions on v1 and v2.
    fn test() -> TestCase {
        let mut b = TestCaseBuilder::new();
        let x = b.int(3);
        let y = b.static_call(MethodRef::parse("p.X", "f", "(I)I").unwrap(), &[x]);
        b.static_call(MethodRef::parse("p.X", "g", "(I)I").unwrap(), &[y]);
        let mut t = b.build();
        for (var, v) in [(1, 6), (2, 60)] {
            t.assertions
                .push(Assertion { var: VarId(var), kind: AssertionKind::Value(Literal::Primitive(Primitive::Int(v))) });
        }
        t
    }

    fn filter(mutant_values: &[(u32, [i64; 3])]) -> (TestCase, FilterStats) {
        let mut t = test();
        let observed = t.clone();
        let mutants: Vec<u32> = mutant_values.iter().map(|(m, _)| *m).collect();
        let mut run = |tests: &[TestCase], ms: &[u32]| {
            assert_eq!(tests.len(), ms.len());
            Ok(ms.iter().map(|m| result(&mutant_values.iter().find(|(x, _)| x == m).unwrap().1)).collect())
        };
        let stats = {
            let mut c = [Candidate { test: &mut t, observed: &observed, inspector_calls: &[], mutants: &mutants }];
            filter_assertions(&mut c, MAX_RUNS, &mut run).unwrap()
        };
        (t, stats)
    }

    #[test]
    fn assertions_that_kill_a_mutant_are_kept_and_the_others_removed() {
        // Mutant 1 changes only g's result, mutant 2 nothing.
        let (t, stats) = filter(&[(1, [3, 6, 61]), (2, [3, 6, 60])]);
        assert_eq!(t.assertions.iter().map(|a| a.var.0).collect::<Vec<_>>(), [2]);
        assert_eq!(stats, FilterStats { removed: 1, killed: 1, reached: 2 });
    }

    #[test]
    fn the_last_calls_assertion_stays_when_nothing_is_killed() {
        let (t, stats) = filter(&[(1, [3, 6, 60])]);
        assert_eq!(t.assertions.iter().map(|a| a.var.0).collect::<Vec<_>>(), [2]);
        assert_eq!(stats.killed, 0);
    }

    #[test]
    fn a_killer_on_an_earlier_call_is_kept_with_the_last_calls_assertion() {
        let (t, _) = filter(&[(1, [3, 7, 60])]);
        assert_eq!(t.assertions.iter().map(|a| a.var.0).collect::<Vec<_>>(), [1, 2]);
    }

    /// A runner whose time ran out after the first pair: the test keeps
    /// every assertion, since none was shown to kill nothing.
    #[test]
    fn a_test_whose_runs_were_cut_short_keeps_its_assertions() {
        let mut t = test();
        let observed = t.clone();
        let mutants = [1, 2];
        let mut run = |_: &[TestCase], _: &[u32]| Ok(vec![result(&[3, 6, 60])]);
        let mut c = [Candidate { test: &mut t, observed: &observed, inspector_calls: &[], mutants: &mutants }];
        let stats = filter_assertions(&mut c, MAX_RUNS, &mut run).unwrap();
        assert_eq!(stats.removed, 0);
        assert_eq!(t.assertions.len(), 2);
    }

    /// A mutant run that timed out (a mutant that loops, or a loaded
    /// machine) credits no assertion: only the killer of mutant 2 and the
    /// last call's assertion stay.
    #[test]
    fn a_mutant_run_that_times_out_credits_no_assertion() {
        let mut t = test();
        let observed = t.clone();
        let mutants = [1, 2];
        let mut run = |_: &[TestCase], ms: &[u32]| {
            Ok(ms
                .iter()
                .map(|m| match m {
                    1 => ExecutionResult { outcome: TestOutcome::Timeout, ..result(&[3]) },
                    _ => result(&[3, 6, 61]),
                })
                .collect())
        };
        let mut c = [Candidate { test: &mut t, observed: &observed, inspector_calls: &[], mutants: &mutants }];
        let stats = filter_assertions(&mut c, MAX_RUNS, &mut run).unwrap();
        assert_eq!(t.assertions.iter().map(|a| a.var.0).collect::<Vec<_>>(), [2]);
        assert_eq!(stats, FilterStats { removed: 1, killed: 1, reached: 2 });
    }
}
