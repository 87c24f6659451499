//! The runs verification makes of an emitted suite, one pass after each
//! compilation ([`Pass`]): in the emitted order, reversed, [`RANDOM_ORDERS`]
//! seeded random orders, each test alone, and in the emitted order on a
//! second JDK when there is one ([`Round`]). Each round is a fresh JVM;
//! several run at once; rounds are started in their order of importance
//! ([`Round::plan`]) until the deadline, and a round still running then is
//! killed. The emitted order, which vouches for the tests, has a deadline
//! of its own (the class's end).
//!
//! The emitted order runs with assertions enabled (`-ea`), as Maven
//! Surefire and Gradle run tests by default, and the other rounds without,
//! as `java` runs by default: a test that trips an `assert` (the workers
//! run with `-ea` and such tests are cut before the statement that trips
//! it, `crate::endings`, so this is a safety net) fails in the emitted
//! order and is removed, and a suite that passes verification passes both
//! ways. (The witnesses of tripped `assert`s, `crate::tripped_asserts`,
//! expect the `AssertionError` and return early without `-ea`.)

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use javarun::{TestRun, TestVerdict};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::GenerateError;

/// Random orders per pass (issue 10: "every emitted suite runs 5 times in
/// random orders").
pub const RANDOM_ORDERS: u32 = 5;

/// Cause of a test that fails in the emitted order (or does not compile),
/// as counted in [`crate::report::ClassReport::removed_tests_by_cause`].
pub const FAILS_UNDER_JUNIT: &str = "fails-under-junit";
/// Cause of a test that passes in the emitted order but fails reversed.
pub const FAILS_IN_REVERSE_ORDER: &str = "fails-in-reverse-order";
/// Cause of a test that passes in the emitted and reversed orders but fails
/// in one of the random orders.
pub const FAILS_IN_RANDOM_ORDER: &str = "fails-in-random-order";
/// Cause of a test that passes with the others but fails alone.
pub const FAILS_ALONE: &str = "fails-alone";
/// Cause of a test that passes on the JDK of the run but fails on the second one.
pub const FAILS_ON_SECOND_JDK: &str = "fails-on-second-jdk";
/// Cause of a test that exceeds its time limit in some round (its JVM is killed).
pub const TIMES_OUT: &str = "times-out-under-junit";
/// Cause of a test that was running in the emitted order when its deadline
/// came, so its JVM was killed.
pub const KILLED_AT_DEADLINE: &str = "killed-at-deadline";
/// Cause of a test that the emitted order never reached before its
/// deadline (in any pass), so nothing vouches for it.
pub const NOT_VERIFIED_IN_TIME: &str = "not-verified-in-time";

/// Cause of the tests of a suite that no compilation vouches for (javac
/// did not finish by the class's end, or the last compilation had errors
/// and no pass followed the removals): none is written.
pub const NOT_COMPILED_IN_TIME: &str = "not-compiled-in-time";

/// One run of the whole suite in a fresh JVM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// The emitted order, with assertions enabled.
    InOrder,
    /// The emitted order reversed: with [`Round::InOrder`], every pair of
    /// tests has run in both orders.
    Reversed,
    /// The `n`-th seeded random order (from 1).
    Random(u32),
    /// Each test alone: in one JVM, each test in a class loader of its own
    /// ([`javarun::TestRun::isolated`]), so each sees the static state of a
    /// new JVM without the cost of starting one per test.
    Alone,
    /// The emitted order on the second JDK.
    SecondJdk,
}

impl Round {
    /// The rounds of a pass, most important first: the emitted order (what
    /// a build tool runs, and what vouches for a test at all), then one
    /// round of each other kind, since each kind catches its own kind of
    /// dependence (reversed: every pair of tests in both orders; a random
    /// order: longer chains; alone: state any earlier test sets up; the
    /// second JDK: the JDK's own behaviour), then the other random orders,
    /// which add the least.
    pub fn plan(second_jdk: bool) -> Vec<Round> {
        let mut plan = vec![Round::InOrder, Round::Reversed, Round::Random(1), Round::Alone];
        plan.extend(second_jdk.then_some(Round::SecondJdk));
        plan.extend((2..=RANDOM_ORDERS).map(Round::Random));
        plan
    }

    /// The round's name in `report.json` (`in-order`, `reversed`,
    /// `random-order-N`, `alone`, `second-jdk`).
    pub fn name(self) -> String {
        match self {
            Round::InOrder => "in-order".into(),
            Round::Reversed => "reversed".into(),
            Round::Random(n) => format!("random-order-{n}"),
            Round::Alone => "alone".into(),
            Round::SecondJdk => "second-jdk".into(),
        }
    }

    /// The cause of a test that fails in this round and in none before it.
    pub fn cause(self) -> &'static str {
        match self {
            Round::InOrder => FAILS_UNDER_JUNIT,
            Round::Reversed => FAILS_IN_REVERSE_ORDER,
            Round::Random(_) => FAILS_IN_RANDOM_ORDER,
            Round::Alone => FAILS_ALONE,
            Round::SecondJdk => FAILS_ON_SECOND_JDK,
        }
    }

    /// The order of the tests `0..n` in this round; `seed` makes the random ones.
    fn order(self, n: usize, seed: u64) -> Vec<usize> {
        match self {
            Round::Reversed => (0..n).rev().collect(),
            Round::Random(k) => random_order(n, seed.wrapping_add(u64::from(k))),
            Round::InOrder | Round::Alone | Round::SecondJdk => (0..n).collect(),
        }
    }
}

/// A random permutation of `0..n`, the same for the same `seed` (ChaCha8,
/// Fisher–Yates).
pub fn random_order(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    order
}

/// One verification pass over a compiled suite.
#[derive(Debug, Clone, Copy)]
pub struct Pass<'a> {
    /// How the suite runs on the JDK of the run (its deadline ends every
    /// round but the emitted order).
    pub first: TestRun<'a>,
    /// When the emitted-order round is killed.
    pub in_order_deadline: Option<Instant>,
    /// How it runs on the second JDK, when there is one.
    pub second: Option<TestRun<'a>>,
    /// Rounds run at once (each is one JVM).
    pub parallel: usize,
    /// Seed of the random orders.
    pub seed: u64,
}

/// What a pass found, by index of the test in the suite.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassOutcome {
    /// Each failing test with its cause: [`TIMES_OUT`] if it timed out in
    /// any round, else the cause of the most important round it failed in
    /// ([`KILLED_AT_DEADLINE`] in the emitted order counts; in other rounds,
    /// being stopped at the deadline is no failure).
    pub failing: BTreeMap<usize, &'static str>,
    /// How long each test ran in the emitted order; `None` when it did not
    /// run to its end there.
    pub in_order: Vec<Option<Duration>>,
    /// Rounds that did not run to their end before the deadline.
    pub skipped: Vec<Round>,
}

impl Pass<'_> {
    /// Runs the rounds of [`Round::plan`] on the tests `names` (the suite's
    /// methods in the emitted order), starting them in the plan's order,
    /// [`Pass::parallel`] at a time, until the deadline. A round other than
    /// the emitted order whose JVM cannot run at all is logged and counted
    /// as skipped.
    ///
    /// # Errors
    /// When the JUnit JVM of the emitted order cannot start or run at all.
    pub fn run(&self, names: &[String]) -> Result<PassOutcome, GenerateError> {
        let plan = Round::plan(self.second.is_some());
        let results: Mutex<Vec<Option<Vec<TestVerdict>>>> = Mutex::new(vec![None; plan.len()]);
        let error: Mutex<Option<javarun::Error>> = Mutex::new(None);
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..self.parallel.clamp(1, plan.len()) {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&round) = plan.get(i) else { break };
                        if self.past_deadline(round) || error.lock().is_ok_and(|e| e.is_some()) {
                            continue;
                        }
                        match self.run_round(round, names) {
                            Ok(verdicts) => results.lock().expect("no panic holding it")[i] = Some(verdicts),
                            Err(e) if round == Round::InOrder => *error.lock().expect("no panic holding it") = Some(e),
                            // reported as skipped: the emitted order is what vouches for the tests
                            Err(e) => tracing::warn!("verification round {} could not run: {e}", round.name()),
                        }
                    }
                });
            }
        });
        if let Some(e) = error.into_inner().expect("no panic holding it") {
            return Err(e.into());
        }
        let results = results.into_inner().expect("no panic holding it");
        Ok(outcome(&plan, &results, names.len(), self.seed))
    }

    fn past_deadline(&self, round: Round) -> bool {
        self.run_of(round).deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// How `round` runs (JDK, deadline, isolation).
    fn run_of(&self, round: Round) -> TestRun<'_> {
        match round {
            Round::InOrder => TestRun { deadline: self.in_order_deadline, enable_assertions: true, ..self.first },
            Round::SecondJdk => self.second.expect("planned only with a second JDK"),
            Round::Alone => TestRun { isolated: true, ..self.first },
            _ => self.first,
        }
    }

    /// The verdicts of one round, in the round's order (a prefix of it when
    /// the deadline cut the round).
    fn run_round(&self, round: Round, names: &[String]) -> Result<Vec<TestVerdict>, javarun::Error> {
        let order: Vec<String> = round.order(names.len(), self.seed).into_iter().map(|i| names[i].clone()).collect();
        let started = Instant::now();
        let verdicts = self.run_of(round).run(&order);
        tracing::debug!(round = round.name(), seconds = started.elapsed().as_secs_f64(), "verification round");
        verdicts
    }
}

/// Failing tests and their causes, durations in the emitted order, and the
/// rounds skipped, from the verdicts of each round of `plan` (`None`: not
/// run) on `n` tests, the random orders made with `seed`.
fn outcome(plan: &[Round], results: &[Option<Vec<TestVerdict>>], n: usize, seed: u64) -> PassOutcome {
    let mut outcome = PassOutcome { in_order: vec![None; n], ..PassOutcome::default() };
    for (round, verdicts) in plan.iter().zip(results) {
        let verdicts = verdicts.as_deref().unwrap_or_default();
        if verdicts.len() < n || verdicts.last().is_some_and(TestVerdict::stopped_at_deadline) {
            outcome.skipped.push(*round);
        }
        for (&test, verdict) in round.order(n, seed).iter().zip(verdicts) {
            if verdict.stopped_at_deadline() {
                if *round == Round::InOrder {
                    outcome.failing.entry(test).or_insert(KILLED_AT_DEADLINE);
                }
                continue;
            }
            if *round == Round::InOrder {
                outcome.in_order[test] = Some(verdict.duration);
            }
            if verdict.timed_out() {
                outcome.failing.insert(test, TIMES_OUT);
            } else if !verdict.passed {
                tracing::debug!(round = round.name(), test = verdict.name, message = verdict.message, "test failed");
                outcome.failing.entry(test).or_insert(round.cause());
            }
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_orders_are_permutations_fixed_by_their_seed() {
        let a = random_order(20, 7);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        assert_eq!(a, random_order(20, 7));
        assert_ne!(a, random_order(20, 8));
        assert_ne!(Round::Random(1).order(20, 7), Round::Random(2).order(20, 7));
    }

    fn verdict(name: &str, passed: bool, millis: u64) -> TestVerdict {
        let duration = Duration::from_millis(millis);
        TestVerdict { name: name.into(), passed, duration, ..TestVerdict::default() }
    }

    #[test]
    fn a_test_is_charged_to_the_first_round_it_fails_in_and_unfinished_rounds_are_skipped() {
        let plan = [Round::InOrder, Round::Reversed, Round::Random(1), Round::Alone, Round::SecondJdk];
        let seed = 5;
        // in order: a, b, c pass; reversed: c, b pass, a fails; random: b fails; alone: c fails; no second JDK run
        let random: Vec<TestVerdict> =
            Round::Random(1).order(3, seed).into_iter().map(|i| verdict(["a", "b", "c"][i], i != 1, 1)).collect();
        let results = vec![
            Some(vec![verdict("a", true, 10), verdict("b", true, 20), verdict("c", true, 30)]),
            Some(vec![verdict("c", true, 1), verdict("b", true, 1), verdict("a", false, 1)]),
            Some(random),
            Some(vec![verdict("a", true, 1), verdict("b", false, 1), verdict("c", false, 1)]),
            None,
        ];
        let found = outcome(&plan, &results, 3, seed);
        let failing: Vec<(usize, &str)> = found.failing.into_iter().collect();
        assert_eq!(failing, [(0, FAILS_IN_REVERSE_ORDER), (1, FAILS_IN_RANDOM_ORDER), (2, FAILS_ALONE)]);
        let ms = |m| Some(Duration::from_millis(m));
        assert_eq!(found.in_order, [ms(10), ms(20), ms(30)]);
        assert_eq!(found.skipped, [Round::SecondJdk]);

        // the emitted order cut after its first test: the others have no duration, the round is skipped
        let cut = outcome(&plan[..1], &[Some(vec![verdict("a", false, 10)])], 3, seed);
        assert_eq!(cut.failing.into_iter().collect::<Vec<_>>(), [(0, FAILS_UNDER_JUNIT)]);
        assert_eq!(cut.in_order, [ms(10), None, None]);
        assert_eq!(cut.skipped, [Round::InOrder]);
    }

    #[test]
    fn the_plan_puts_the_emitted_order_first_and_one_round_of_each_kind_before_more_random_orders() {
        let names: Vec<String> = Round::plan(true).into_iter().map(Round::name).collect();
        assert_eq!(
            names,
            [
                "in-order",
                "reversed",
                "random-order-1",
                "alone",
                "second-jdk",
                "random-order-2",
                "random-order-3",
                "random-order-4",
                "random-order-5",
            ]
        );
        assert!(!Round::plan(false).contains(&Round::SecondJdk));
    }
}
