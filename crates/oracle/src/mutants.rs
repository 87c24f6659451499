//! Mutation analysis of assertions (mutant-based filtering, EvoSuite's
//! term "mutation analysis"; the GA's mutation operator is unrelated and
//! lives in `testcase::operators::mutation`) (EvoSuite's
//! `MutationAssertionGenerator`): an assertion is kept only when it fails
//! on at least one mutant of the class under test, i.e. it can detect a
//! change of behaviour; each test keeps at least one assertion on its last
//! call under test. EvoSuite keeps the killers of each test; here the
//! killers are chosen over the whole suite (a greedy set cover, [`select`]),
//! so the suite kills the same mutants without repeating one inspector
//! assertion in every test.
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
    let keep = select(candidates, &kills, &unrun);
    let mut stats = FilterStats { reached: all.len(), ..FilterStats::default() };
    stats.killed = kills.iter().flatten().flatten().collect::<BTreeSet<_>>().len();
    for (c, keep) in candidates.iter_mut().zip(keep) {
        let before = c.test.assertions.len();
        let mut keep = keep.into_iter();
        c.test.assertions.retain(|_| keep.next().unwrap_or(true));
        stats.removed += before - c.test.assertions.len();
    }
    Ok(stats)
}

/// Which assertions stay, per candidate and assertion, given what each
/// kills (`kills[i][k]`: the mutants assertion `k` of candidate `i`
/// kills). Every test keeps an assertion on its last call (the one that
/// kills the most mutants there, else [`last_call_assertion`]), a test in
/// `unrun` keeps all; then, over the whole suite, a greedy set cover adds
/// the assertion that kills the most mutants no kept assertion kills yet
/// (the earliest test's on ties) until every killed mutant is killed by a
/// kept one. An inspector assertion that every test repeats on unchanged
/// state (`getCountry()` after each call) then stays in one test, and the
/// suite kills the same mutants.
fn select(candidates: &[Candidate<'_>], kills: &[Vec<BTreeSet<u32>>], unrun: &BTreeSet<usize>) -> Vec<Vec<bool>> {
    let mut keep: Vec<Vec<bool>> = candidates.iter().map(|c| vec![false; c.test.assertions.len()]).collect();
    let mut covered: BTreeSet<u32> = BTreeSet::new();
    for (i, c) in candidates.iter().enumerate() {
        if unrun.contains(&i) {
            keep[i].fill(true);
            kills[i].iter().for_each(|k| covered.extend(k.iter().copied()));
            continue;
        }
        let last = last_call_assertion(c.test);
        let last_var = last.map(|k| c.test.assertions[k].var);
        let best_on_last = (0..kills[i].len())
            .filter(|&k| Some(c.test.assertions[k].var) == last_var && !kills[i][k].is_empty())
            .min_by_key(|&k| std::cmp::Reverse(kills[i][k].len()));
        if let Some(k) = best_on_last.or(last) {
            keep[i][k] = true;
            covered.extend(kills[i][k].iter().copied());
        }
    }
    loop {
        let gain = |(i, k): (usize, usize)| kills[i][k].iter().filter(|m| !covered.contains(m)).count();
        let all = kills.iter().enumerate().flat_map(|(i, ks)| (0..ks.len()).map(move |k| (i, k)));
        let best = all.filter(|&(i, k)| !keep[i][k]).map(|ik| (gain(ik), ik)).filter(|(g, _)| *g > 0);
        let Some((_, (i, k))) = best.min_by_key(|(g, ik)| (std::cmp::Reverse(*g), *ik)) else { break };
        keep[i][k] = true;
        covered.extend(kills[i][k].iter().copied());
    }
    keep
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

    /// Two copies of [`test`] filtered together, mutant 1 giving the
    /// values `one` and mutant 2 `[3, 6, 61]` (only g's result changed):
    /// the variables each copy still asserts, and the stats.
    fn filter_two(one: [i64; 3]) -> ((Vec<u32>, Vec<u32>), FilterStats) {
        let (mut t1, mut t2) = (test(), test());
        let observed = test();
        let mutants = [1, 2];
        let mut run = |_: &[TestCase], ms: &[u32]| {
            Ok(ms.iter().map(|m| if *m == 1 { result(&one) } else { result(&[3, 6, 61]) }).collect())
        };
        let stats = {
            let mut c = [
                Candidate { test: &mut t1, observed: &observed, inspector_calls: &[], mutants: &mutants },
                Candidate { test: &mut t2, observed: &observed, inspector_calls: &[], mutants: &mutants },
            ];
            filter_assertions(&mut c, MAX_RUNS, &mut run).unwrap()
        };
        let vars = |t: &TestCase| t.assertions.iter().map(|a| a.var.0).collect::<Vec<_>>();
        ((vars(&t1), vars(&t2)), stats)
    }

    /// Mutant 1 changes f's result and so g's: g's assertion, which each
    /// test keeps on its last call, kills both mutants, and f's stays nowhere.
    #[test]
    fn a_killer_that_the_kept_assertions_repeat_is_removed_from_every_test() {
        let (vars, stats) = filter_two([3, 7, 70]);
        assert_eq!(vars, (vec![2], vec![2]));
        assert_eq!(stats, FilterStats { removed: 2, killed: 2, reached: 2 });
    }

    /// Mutant 1 changes f's result but not g's: only f's assertion kills
    /// it, and the suite keeps it in the first test only.
    #[test]
    fn a_killer_needed_by_the_suite_stays_in_the_first_test_only() {
        let (vars, stats) = filter_two([3, 7, 60]);
        assert_eq!(vars, (vec![1, 2], vec![2]));
        assert_eq!(stats, FilterStats { removed: 1, killed: 2, reached: 2 });
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
