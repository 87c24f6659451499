//! The path-condition goals a DSE step hands to the search as temporary
//! objectives (TECHNIQUES.md §5 step 4): which are active, each one's
//! budget, and the fitness of the tests the search ran with their value
//! logs (kept by test, since the search asks for the fitness of its whole
//! population every generation and only new tests run with a log).
//!
//! A goal ends when a test reaches it (fitness 0: the alternative's path
//! ran, so its branch side is covered) or when its budget of logged test
//! runs is spent, or the search went [`PATIENCE`] runs without a fitter
//! test (the search failed on it: an infeasible example for the
//! classifier, as the paper counts it).

use std::collections::{BTreeSet, HashMap};

use analysis::GoalId;

use crate::fingerprint::Fingerprint;
use crate::pcgoal::PcGoal;
use crate::replay::Replay;

/// Path-condition goals active at once at most.
pub const MAX_ACTIVE: usize = 3;

/// Logged test runs a goal may take at most before it fails (about
/// twenty generations of a population of 50 and the focused mutants).
pub const BUDGET: usize = 1500;

/// Logged test runs a goal may go without a fitter test before it fails
/// (about eight generations): an infeasible goal ends early, a goal on a
/// remainder (one value in eleven reaches it) still gets its chances.
pub const PATIENCE: usize = 500;

/// Tests whose fitness is kept at most (beyond it, only the last population's).
const CACHE_LIMIT: usize = 4096;

/// An active goal.
struct Active {
    id: u32,
    goal: PcGoal,
    /// The search goal (branch side) the alternative aims at.
    target: GoalId,
    /// The alternative's fingerprint, for the classifier when it ends.
    fingerprint: Fingerprint,
    /// Logged test runs left.
    left: usize,
    /// The best fitness so far, and the logged runs since it last improved.
    best: f64,
    stale: usize,
}

/// How a goal ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ended {
    /// A test satisfied every clause of the goal aimed at the search goal `target`.
    Reached {
        /// The alternative's fingerprint.
        fingerprint: Fingerprint,
        /// The search goal (branch side) it aimed at.
        target: GoalId,
    },
    /// The budget ran out first.
    Failed(Fingerprint),
}

/// The active path-condition goals and the fitness of the tests seen.
#[derive(Default)]
pub struct Objectives {
    active: Vec<Active>,
    /// Per test (by key): (goal id, fitness) for the goals active when it ran.
    cache: HashMap<u64, Vec<(u32, f64)>>,
    next_id: u32,
}

impl Objectives {
    /// Whether another goal may start.
    pub fn has_room(&self) -> bool {
        self.active.len() < MAX_ACTIVE
    }

    /// Whether no goal is active.
    pub fn is_empty(&self) -> bool {
        self.active.is_empty()
    }

    /// Starts `goal`, aimed at `target`, made from the run `origin` of the
    /// test with key `origin_key` (which gets its fitness, so the search
    /// keeps it as the best test for the goal to start from).
    pub fn add(&mut self, goal: PcGoal, target: GoalId, fingerprint: Fingerprint, origin_key: u64, origin: &Replay) {
        let id = self.next_id;
        self.next_id += 1;
        let f = goal.fitness(origin);
        self.cache.entry(origin_key).or_default().push((id, f));
        self.active.push(Active { id, goal, target, fingerprint, left: BUDGET, best: f, stale: 0 });
    }

    /// Ends the goals whose target no longer needs them (`wanted` false),
    /// without a verdict.
    pub fn retain(&mut self, wanted: impl Fn(GoalId) -> bool) {
        self.active.retain(|a| wanted(a.target));
    }

    /// Per active goal, the fitness of each test of `keys` (`f64::INFINITY`
    /// for a test not seen with a log while the goal was active).
    pub fn fitness(&mut self, keys: &[u64]) -> Vec<Vec<f64>> {
        if self.cache.len() > CACHE_LIMIT {
            let keep: BTreeSet<u64> = keys.iter().copied().collect();
            self.cache.retain(|k, _| keep.contains(k));
        }
        let of = |key: &u64, id: u32| {
            let seen = self.cache.get(key).and_then(|fs| fs.iter().find(|(g, _)| *g == id));
            seen.map_or(f64::INFINITY, |(_, f)| *f)
        };
        self.active.iter().map(|a| keys.iter().map(|k| of(k, a.id)).collect()).collect()
    }

    /// Measures the run `replay` of the test with key `key` against every
    /// active goal and spends one run of each goal's budget; the goals
    /// that ended.
    pub fn observe(&mut self, key: u64, replay: &Replay) -> Vec<Ended> {
        let mut fitness = Vec::with_capacity(self.active.len());
        let mut ended = Vec::new();
        self.active.retain_mut(|a| {
            let f = a.goal.fitness(replay);
            tracing::trace!(goal = a.id, fitness = f, best = a.best, "tardis: path-condition goal measured");
            fitness.push((a.id, f));
            a.left = a.left.saturating_sub(1);
            if f < a.best {
                (a.best, a.stale) = (f, 0);
            } else {
                a.stale += 1;
            }
            if f == 0.0 {
                ended.push(Ended::Reached { fingerprint: a.fingerprint, target: a.target });
                false
            } else if a.left == 0 || a.stale >= PATIENCE {
                ended.push(Ended::Failed(a.fingerprint));
                false
            } else {
                true
            }
        });
        self.cache.entry(key).or_default().extend(fitness);
        ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Expr, JType, Value};
    use crate::path::{Clause, Rel};
    use crate::replay::{Origin, Site, Source};

    /// A run with one branch `x > 10` on logged `x`.
    fn run(x: i32) -> Replay {
        let mut r = Replay::default();
        let site =
            Site { class: "C".into(), method: "m".into(), descriptor: "()V".into(), bci: 4, taken: x > 10, key: None };
        r.symbols.insert(0, (JType::Int, Value::Int(x), Source::Logged { site: 0, event: 0 }));
        let clause = Clause::new(Expr::Sym(0, JType::Int), Rel::Gt, Expr::Const(Value::Int(10)));
        r.path.clauses.push(if x > 10 { clause } else { clause.negate() });
        r.origins.push(Origin::Branch(site.clone()));
        r.anchors.push(0);
        r.branches.push(site);
        r
    }

    fn goal(origin: &Replay) -> PcGoal {
        PcGoal::new(origin, 0).expect("a goal")
    }

    #[test]
    fn the_origin_ranks_first_and_a_test_that_reaches_the_goal_ends_it() {
        let origin = run(3);
        let mut objectives = Objectives::default();
        let fp = Fingerprint::of(&origin.path.clauses);
        objectives.add(goal(&origin), GoalId(7), fp, 1, &origin);
        assert!(!objectives.is_empty());
        let f = objectives.fitness(&[1, 2]);
        assert_eq!(f.len(), 1);
        assert!(f[0][0] > 0.0 && f[0][0] < 1.0, "{f:?}");
        assert!(f[0][1].is_infinite(), "a test never seen with a log cannot be judged");
        assert_eq!(objectives.observe(2, &run(9)), vec![]);
        assert!(objectives.fitness(&[2])[0][0] < f[0][0], "9 is closer to > 10 than 3");
        assert_eq!(objectives.observe(3, &run(11)), vec![Ended::Reached { fingerprint: fp, target: GoalId(7) }]);
        assert!(objectives.is_empty());
    }

    #[test]
    fn a_goal_fails_when_its_budget_is_spent_and_retain_drops_goals_without_a_verdict() {
        let (far, origin) = (run(-100_000), run(3));
        let mut objectives = Objectives::default();
        let fp = Fingerprint::of(&origin.path.clauses);
        objectives.add(goal(&far), GoalId(7), fp, 1, &far);
        // Closer every time: it lives its whole budget.
        for k in 0..BUDGET - 1 {
            let x = -(BUDGET as i32) + k as i32;
            assert_eq!(objectives.observe(100 + k as u64, &run(x)), vec![], "{k}");
        }
        assert_eq!(objectives.observe(0, &run(-5)), vec![Ended::Failed(fp)]);
        // No fitter test for PATIENCE runs: it fails early.
        objectives.add(goal(&origin), GoalId(7), fp, 1, &origin);
        for k in 0..PATIENCE - 1 {
            assert_eq!(objectives.observe(2000 + k as u64, &run(3)), vec![], "{k}");
        }
        assert_eq!(objectives.observe(0, &run(3)), vec![Ended::Failed(fp)]);
        objectives.add(goal(&origin), GoalId(8), fp, 1, &origin);
        objectives.retain(|g| g != GoalId(8));
        assert!(objectives.is_empty());
    }
}
