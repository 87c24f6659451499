//! KAT's budget (TECHNIQUES.md section 2 step 4): the methods of the class
//! under test that hold potential violations share KAT's effort by their
//! confidence, `t_m = t_min + c_m / sum(c) * (T - n * t_min)`, where `c_m` is
//! the mean of the knowledge and bug confidences of the method's goals.
//!
//! ferrosuite searches all goals of a class at once (DynaMOSA), so the
//! effort shared is KAT's targeted tests rather than separate time windows:
//! [`KatSource`], a [`GoalSource`], is asked after every generation; while a
//! KAT goal is among the search's targets it answers, with probability
//! [`P_APPLY`], with a test that calls a method with such a goal, method `m`
//! drawn with probability `t_m / T` (over the methods with targeted goals).
//! Half of `T` is shared evenly (`t_min = T / 2n`), half by confidence.

use std::collections::{BTreeMap, BTreeSet};

use analysis::goals::GoalId;
use generate::technique::GoalSource;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use testcase::TestCase;
use testcase::cluster::{Callable, TestCluster};
use testcase::operators::TemplateBuilder;
use testcase::seeds::Seeds;

use crate::goals::AddedGoal;

/// How often the source answers when asked: EvoObj's `p_app` (Lin et al.
/// 2021), so that the two population sources weigh the same.
pub const P_APPLY: f64 = 0.3;

/// The shares `t_m / T` of methods with confidences `confidences`, given
/// the part of `T` shared evenly (`n * t_min / T`, in `[0, 1]`): `t_m / T =
/// even / n + c_m / sum(c) * (1 - even)`. Sums to 1; an empty slice gives
/// none, all-zero confidences share evenly.
pub fn shares(confidences: &[f64], even: f64) -> Vec<f64> {
    let n = confidences.len() as f64;
    let total: f64 = confidences.iter().sum();
    confidences.iter().map(|c| if total > 0.0 { even / n + c / total * (1.0 - even) } else { 1.0 / n }).collect()
}

/// A method of the class under test with KAT goals.
#[derive(Debug, Clone)]
pub struct MethodGoals {
    /// The calls of the method the test cluster offers (one per owner that
    /// names it).
    pub callable: Callable,
    /// Its KAT goals.
    pub goals: BTreeSet<GoalId>,
    /// `c_m`: the mean over its goals of (knowledge + bug confidence) / 2.
    pub confidence: f64,
}

/// The methods of `goals` that `cluster` can call, with their goals and
/// confidence `c_m` (the mean of their goals' confidences), in the order of
/// their first goal.
pub fn methods_of(goals: &[AddedGoal], cluster: &TestCluster) -> Vec<MethodGoals> {
    let mut out: Vec<(MethodGoals, usize)> = Vec::new();
    for g in goals {
        let calls = |c: &&Callable| {
            c.method().is_some_and(|m| {
                m.owner == g.class && m.name == g.method.0 && m.descriptor.to_descriptor() == g.method.1
            })
        };
        let Some(callable) = cluster.calls_under_test().iter().find(calls) else { continue };
        match out.iter_mut().find(|(m, _)| m.callable == *callable) {
            Some((m, n)) => {
                m.goals.insert(g.id);
                m.confidence += g.confidence;
                *n += 1;
            }
            None => out.push((
                MethodGoals { callable: callable.clone(), goals: BTreeSet::from([g.id]), confidence: g.confidence },
                1,
            )),
        }
    }
    out.into_iter()
        .map(|(mut m, n)| {
            m.confidence /= n as f64;
            m
        })
        .collect()
}

/// Targeted tests for KAT's goals, shared among methods by [`shares`].
pub struct KatSource {
    methods: Vec<MethodGoals>,
    shares: Vec<f64>,
    /// Tests made per method.
    made: Vec<usize>,
}

impl KatSource {
    /// The source over `methods` (those with a callable the cluster offers).
    pub fn new(methods: Vec<MethodGoals>) -> KatSource {
        let confidences: Vec<f64> = methods.iter().map(|m| m.confidence).collect();
        let shares = shares(&confidences, 0.5);
        let made = vec![0; methods.len()];
        KatSource { methods, shares, made }
    }

    /// Draws a method among those with a goal in `targets`, by share.
    fn draw(&self, targets: &BTreeSet<GoalId>, rng: &mut ChaCha8Rng) -> Option<usize> {
        let open: Vec<usize> =
            (0..self.methods.len()).filter(|&k| self.methods[k].goals.iter().any(|g| targets.contains(g))).collect();
        let total: f64 = open.iter().map(|&k| self.shares[k]).sum();
        let mut x = rng.random::<f64>() * total;
        for &k in &open {
            if x < self.shares[k] {
                return Some(k);
            }
            x -= self.shares[k];
        }
        open.last().copied()
    }
}

impl GoalSource for KatSource {
    fn test_for(
        &mut self,
        uncovered: &[GoalId],
        cluster: &TestCluster,
        seeds: &Seeds,
        rng: &mut ChaCha8Rng,
    ) -> Option<TestCase> {
        if !rng.random_bool(P_APPLY) {
            return None;
        }
        let targets: BTreeSet<GoalId> = uncovered.iter().copied().collect();
        let k = self.draw(&targets, rng)?;
        let callable = &self.methods[k].callable;
        let mut builder = TemplateBuilder::new(cluster, seeds, rng);
        let receiver = match callable.receiver() {
            Some(owner) => Some(builder.make(&model::signature::JavaType::from(owner))?),
            None => None,
        };
        builder.call(callable, receiver, &[])?;
        self.made[k] += 1;
        Some(builder.finish())
    }

    fn name(&self) -> &'static str {
        "kat"
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        BTreeMap::from([
            ("methods".to_string(), self.methods.len() as f64),
            ("goals".to_string(), self.methods.iter().map(|m| m.goals.len()).sum::<usize>() as f64),
            ("targeted_tests".to_string(), self.made.iter().sum::<usize>() as f64),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_follow_the_formula_and_sum_to_one() {
        // T = 1, n = 2, t_min = 0.25: t_m = 0.25 + c_m / 1.5 * 0.5.
        let s = shares(&[1.0, 0.5], 0.5);
        assert!((s[0] - (0.25 + 1.0 / 1.5 * 0.5)).abs() < 1e-12, "{s:?}");
        assert!((s[1] - (0.25 + 0.5 / 1.5 * 0.5)).abs() < 1e-12, "{s:?}");
        assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert_eq!(shares(&[0.0, 0.0], 0.5), vec![0.5, 0.5]);
        assert!(shares(&[], 0.5).is_empty());
    }
}
