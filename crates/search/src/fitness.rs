//! Fitness of an executed test for each goal (TECHNIQUES.md §0):
//! `approach_level + norm(branch_distance)`, `norm(d) = d / (d + 1)`.
//! A goal in a method that was never entered scores the method's
//! `max_approach_level + 1`; a timed-out test scores `+ 2`.
//! Lower is better; 0 means covered.

use std::collections::{BTreeMap, BTreeSet};

use analysis::goals::{ClassGoals, GoalId, GoalKind};
use exec::coverage::GoalMap;
use exec::{ExecutionResult, TestOutcome};

/// `d / (d + 1)`: maps a distance in `[0, ∞)` to `[0, 1)`.
pub fn norm(d: f64) -> f64 {
    if d.is_finite() { d / (d + 1.0) } else { 1.0 }
}

/// What one execution tells about the goals of the class under test.
#[derive(Debug, Clone, Default)]
pub struct Observation {
    /// Goals covered.
    pub covered: BTreeSet<GoalId>,
    /// Branch distance of each branch goal whose jump executed.
    pub distances: BTreeMap<GoalId, f64>,
    /// Whether the test timed out or crashed.
    pub timed_out: bool,
    /// `covered` and `distances` indexed by goal id, for [`Fitness::of`],
    /// which MOSA's ranking asks for every target and every test of a
    /// generation (with the ordered sets, `Fitness::of` alone was a fifth
    /// of the orchestrator's time on snakeyaml's `ParserImpl`).
    dense: Dense,
}

/// An observation's goals by index: whether covered, and the branch
/// distance observed, if any. Goals past the end were neither covered nor
/// reached.
#[derive(Debug, Clone, Default)]
struct Dense {
    covered: Vec<bool>,
    distances: Vec<Option<f64>>,
}

impl Observation {
    /// Reads an execution result through the class's goal map.
    pub fn of(result: &ExecutionResult, map: &GoalMap) -> Observation {
        let (covered, distances) = map.observe(result);
        let len = covered.iter().chain(distances.keys()).map(|g| g.0 as usize + 1).max().unwrap_or(0);
        let mut dense = Dense { covered: vec![false; len], distances: vec![None; len] };
        for g in &covered {
            dense.covered[g.0 as usize] = true;
        }
        for (g, d) in &distances {
            dense.distances[g.0 as usize] = Some(*d);
        }
        Observation {
            covered,
            distances,
            timed_out: matches!(result.outcome, TestOutcome::Timeout | TestOutcome::Crashed { .. }),
            dense,
        }
    }

    /// Whether goal `g` is covered (as `covered.contains(&g)`).
    fn has_covered(&self, g: GoalId) -> bool {
        self.dense.covered.get(g.0 as usize).copied().unwrap_or(false)
    }

    /// The branch distance observed for goal `g` (as `distances.get(&g)`).
    fn distance_of(&self, g: GoalId) -> Option<f64> {
        self.dense.distances.get(g.0 as usize).copied().flatten()
    }
}

/// Computes fitness values for the goals of one class.
pub struct Fitness<'a> {
    goals: &'a ClassGoals,
    /// Per goal: itself and its control-dependence ancestors with their
    /// levels, in breadth-first order (the approach level of
    /// `ClassGoals::approach_level`, precomputed).
    ancestors: Vec<Vec<(GoalId, u32)>>,
    /// Per goal: the fitness when its method was not entered.
    not_entered: Vec<f64>,
}

impl<'a> Fitness<'a> {
    /// Fitness over the goals of `goals`.
    pub fn new(goals: &'a ClassGoals) -> Fitness<'a> {
        let ancestors = goals.goals.iter().map(|g| ancestors_of(goals, g.id)).collect();
        let not_entered = goals
            .goals
            .iter()
            .map(|g| goals.methods.get(usize::from(g.method_index)).map_or(1, |m| m.max_approach_level) as f64 + 1.0)
            .collect();
        Fitness { goals, ancestors, not_entered }
    }

    /// The fitness of an observed execution for `goal` (0 = covered).
    pub fn of(&self, goal: GoalId, obs: &Observation) -> f64 {
        if obs.has_covered(goal) {
            return 0.0;
        }
        let not_entered = self.not_entered[goal.0 as usize];
        if obs.timed_out {
            return not_entered + 1.0;
        }
        let reached = |x: GoalId| obs.has_covered(x) || obs.distance_of(x).is_some() || self.decision_ran(x, obs);
        match self.ancestors[goal.0 as usize].iter().find(|(a, _)| reached(*a)) {
            None => not_entered,
            Some((via, level)) => f64::from(*level) + norm(self.distance(*via, obs)),
        }
    }

    /// Whether a switch-case goal's switch ran (another case was covered).
    fn decision_ran(&self, goal: GoalId, obs: &Observation) -> bool {
        let GoalKind::SwitchCase { switch, .. } = &self.goals.goal(goal).kind else { return false };
        let site = &self.goals.switches[switch.0 as usize];
        site.cases.iter().map(|c| c.2).chain(site.default.1).any(|g| obs.has_covered(g))
    }

    /// The distance of a reached goal: its branch distance, 0 when covered,
    /// and 1 ("one step") for reached goals without a graded distance.
    fn distance(&self, goal: GoalId, obs: &Observation) -> f64 {
        if obs.has_covered(goal) {
            return 0.0;
        }
        obs.distance_of(goal).unwrap_or(1.0)
    }
}

/// `goal` and its control-dependence ancestors with their levels, breadth first.
fn ancestors_of(goals: &ClassGoals, goal: GoalId) -> Vec<(GoalId, u32)> {
    let mut out = vec![(goal, 0)];
    let mut i = 0;
    while i < out.len() {
        let (g, level) = out[i];
        i += 1;
        for p in goals.parents(g) {
            if !out.iter().any(|(x, _)| x == p) {
                out.push((*p, level + 1));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn norm_maps_distances_into_the_unit_interval_monotonically() {
        assert_eq!(norm(0.0), 0.0);
        assert_eq!(norm(1.0), 0.5);
        assert!(norm(3.0) < norm(4.0) && norm(1e300) <= 1.0);
        assert_eq!(norm(f64::INFINITY), 1.0);
    }
}
