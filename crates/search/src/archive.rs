//! The archive: for every covered goal, the shortest test that covers it
//! (DynaMOSA, Panichella et al. 2018, §III-C), plus the exceptions each
//! call under test was seen to throw (EvoSuite's exception goals).
//!
//! A test that ended in an error of the JVM itself (an `OutOfMemoryError`
//! of a huge buffer, a `StackOverflowError`), crashed its worker or
//! allocated over a quarter of the worker's heap is *fragile*: whether it
//! ends so depends on the heap and the stack, no emitted test may end in
//! such an error (`generate::endings` cuts it before), and one that needs
//! half the heap fails the two-environment check (`generate::environments`). It is kept for the goals nothing else covers, but those goals
//! stay targets of the search ([`Archive::covers`] is false) until a test
//! that ends normally covers them and replaces it, whatever its length:
//! otherwise the buffer of 2^30 characters that covered a branch on its
//! way to running out of memory would be the branch's only test, and the
//! branch lost after the search.

use std::collections::{BTreeMap, BTreeSet};

use analysis::goals::GoalId;
use model::names::BinaryName;
use testcase::TestCase;

/// An exception goal: a method of the class under test (`name descriptor`)
/// and an exception class thrown out of it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExceptionGoal {
    /// The method, as its name followed by its JVM descriptor (`parse(Ljava/lang/String;)I`).
    pub method: String,
    /// Binary name of the exception's class (`java.lang.NullPointerException`).
    pub exception: BinaryName,
}

/// The best test per covered goal.
#[derive(Debug, Clone, Default)]
pub struct Archive {
    tests: BTreeMap<GoalId, TestCase>,
    /// The goals whose kept test is fragile (see the module doc).
    fragile: BTreeSet<GoalId>,
    exceptions: BTreeMap<ExceptionGoal, TestCase>,
}

impl Archive {
    /// Offers a test that covers `covered` and ended normally; keeps it for
    /// each goal it covers first, with fewer statements, or whose kept test
    /// is fragile. Returns the goals newly covered.
    pub fn offer(&mut self, test: &TestCase, covered: &BTreeSet<GoalId>) -> Vec<GoalId> {
        let mut new = Vec::new();
        for g in covered {
            match self.tests.get(g) {
                Some(t) if !self.fragile.contains(g) && t.statements.len() <= test.statements.len() => {}
                kept => {
                    if kept.is_none() || self.fragile.remove(g) {
                        new.push(*g);
                    }
                    self.tests.insert(*g, test.clone());
                }
            }
        }
        new
    }

    /// Offers a fragile test (see the module doc) that covers `covered`:
    /// kept for the goals with no test, or whose fragile test is longer;
    /// covers nothing for the search.
    pub fn offer_fragile(&mut self, test: &TestCase, covered: &BTreeSet<GoalId>) {
        for g in covered {
            let replace = match self.tests.get(g) {
                None => true,
                Some(t) => self.fragile.contains(g) && test.statements.len() < t.statements.len(),
            };
            if replace {
                self.tests.insert(*g, test.clone());
                self.fragile.insert(*g);
            }
        }
    }

    /// Offers a test that throws `goal.exception` out of `goal.method`;
    /// returns whether the exception goal is new.
    pub fn offer_exception(&mut self, test: &TestCase, goal: ExceptionGoal) -> bool {
        match self.exceptions.get(&goal) {
            Some(t) if t.statements.len() <= test.statements.len() => false,
            Some(_) => {
                self.exceptions.insert(goal, test.clone());
                false
            }
            None => {
                self.exceptions.insert(goal, test.clone());
                true
            }
        }
    }

    /// The test kept for a covered goal drawn uniformly at random (EvoSuite's
    /// `Archive.getRandomSolution`, which draws a covered target); `None`
    /// while nothing is covered.
    pub fn random_solution(&self, rng: &mut impl rand::Rng) -> Option<&TestCase> {
        if self.tests.is_empty() {
            return None;
        }
        self.tests.values().nth(rng.random_range(0..self.tests.len()))
    }

    /// Whether `goal` is covered by a test that ended normally.
    pub fn covers(&self, goal: GoalId) -> bool {
        self.tests.contains_key(&goal) && !self.fragile.contains(&goal)
    }

    /// Whether `goal` has a kept test, fragile or not: it was reached.
    pub fn holds(&self, goal: GoalId) -> bool {
        self.tests.contains_key(&goal)
    }

    /// Goals covered by a test that ended normally.
    pub fn covered(&self) -> impl Iterator<Item = GoalId> + '_ {
        self.tests.keys().copied().filter(|g| !self.fragile.contains(g))
    }

    /// Goals with a kept test, fragile ones included: what the search
    /// hands to post-processing.
    pub fn archived(&self) -> impl Iterator<Item = GoalId> + '_ {
        self.tests.keys().copied()
    }

    /// Number of goals covered by a test that ended normally.
    pub fn len(&self) -> usize {
        self.tests.len() - self.fragile.len()
    }

    /// Whether no goal is covered by a test that ended normally.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Exception goals seen, with their tests.
    pub fn exceptions(&self) -> &BTreeMap<ExceptionGoal, TestCase> {
        &self.exceptions
    }

    /// The distinct archived tests with the goals each is kept for and the
    /// exception goals it stands for, in a deterministic order.
    pub fn tests_with_goals(&self) -> Vec<(TestCase, BTreeSet<GoalId>, Vec<ExceptionGoal>)> {
        let mut out: Vec<(TestCase, BTreeSet<GoalId>, Vec<ExceptionGoal>)> = Vec::new();
        for (g, t) in &self.tests {
            match out.iter_mut().find(|(x, _, _)| x == t) {
                Some((_, goals, _)) => {
                    goals.insert(*g);
                }
                None => out.push((t.clone(), BTreeSet::from([*g]), vec![])),
            }
        }
        for (e, t) in &self.exceptions {
            match out.iter_mut().find(|(x, _, _)| x == t) {
                Some((_, _, ex)) => ex.push(e.clone()),
                None => out.push((t.clone(), BTreeSet::new(), vec![e.clone()])),
            }
        }
        out
    }

    /// The distinct archived tests (goal tests first, then exception
    /// tests), without duplicates, in a deterministic order.
    pub fn tests(&self) -> Vec<TestCase> {
        let mut out: Vec<TestCase> = Vec::new();
        for t in self.tests.values().chain(self.exceptions.values()) {
            if !out.contains(t) {
                out.push(t.clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use testcase::TestCaseBuilder;

    use super::*;

    fn test_of_len(n: usize) -> TestCase {
        let mut b = TestCaseBuilder::new();
        (0..n).for_each(|i| {
            b.int(i as i32);
        });
        b.build()
    }

    #[test]
    fn the_archive_keeps_the_shortest_test_per_goal_and_reports_new_goals() {
        let mut a = Archive::default();
        let goals = |ids: &[u32]| ids.iter().map(|i| GoalId(*i)).collect::<BTreeSet<_>>();
        assert_eq!(a.offer(&test_of_len(5), &goals(&[1, 2])), [GoalId(1), GoalId(2)]);
        assert_eq!(a.offer(&test_of_len(3), &goals(&[2, 3])), [GoalId(3)]);
        assert_eq!(a.offer(&test_of_len(9), &goals(&[1])), []);
        assert_eq!(a.tests().iter().map(|t| t.statements.len()).collect::<Vec<_>>(), [5, 3]);
        let goal = ExceptionGoal { method: "f()V".into(), exception: BinaryName::new("java.lang.X") };
        assert!(a.offer_exception(&test_of_len(4), goal.clone()));
        assert!(!a.offer_exception(&test_of_len(2), goal));
        assert_eq!(a.tests().len(), 3);
    }

    /// A fragile test holds a goal without covering it for the search; a
    /// longer test that ends normally replaces it and covers the goal, and
    /// a later fragile test never displaces a normal one.
    #[test]
    fn a_fragile_test_is_kept_until_a_test_that_ends_normally_covers_its_goals() {
        let mut a = Archive::default();
        a.offer_fragile(&test_of_len(4), &[GoalId(1), GoalId(2)].into());
        assert!(!a.covers(GoalId(1)) && a.holds(GoalId(1)) && a.is_empty());
        assert_eq!(a.archived().collect::<Vec<_>>(), [GoalId(1), GoalId(2)]);
        a.offer_fragile(&test_of_len(3), &[GoalId(1)].into());
        assert_eq!(a.offer(&test_of_len(9), &[GoalId(1)].into()), [GoalId(1)]);
        assert!(a.covers(GoalId(1)) && !a.covers(GoalId(2)));
        assert_eq!((a.len(), a.covered().collect::<Vec<_>>()), (1, vec![GoalId(1)]));
        a.offer_fragile(&test_of_len(1), &[GoalId(1), GoalId(2)].into());
        let lens = a.tests().iter().map(|t| t.statements.len()).collect::<Vec<_>>();
        assert_eq!(lens, [9, 1], "goal 1 keeps its normal test, goal 2 takes the shorter fragile one");
    }

    /// Each covered goal's test is drawn about as often (a test kept for
    /// two goals twice as often), and nothing while nothing is covered.
    #[test]
    fn a_random_solution_is_the_test_of_a_random_covered_goal() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut a = Archive::default();
        assert!(a.random_solution(&mut rng).is_none());
        a.offer(&test_of_len(2), &[GoalId(1), GoalId(2)].into());
        a.offer(&test_of_len(3), &[GoalId(3)].into());
        let twos = (0..3000).filter(|_| a.random_solution(&mut rng).unwrap().statements.len() == 2).count();
        assert!((1800..2200).contains(&twos), "{twos} of 3000 draws were the test of two goals");
    }
}
