//! MOSA and DynaMOSA (Panichella, Kifetew, Tonella: "Automated test case
//! generation as a many-objective optimisation problem with dynamic
//! selection of the targets", TSE 2018).
//!
//! Each uncovered goal is an objective. Every generation makes offspring by
//! tournament selection, crossover and mutation, adds a tenth of the
//! population as new tests (random ones and archived ones mutated, as
//! EvoSuite's MOSA does: [`TEST_INSERTION`]) and the tests that got a new
//! input-to-state substitution ([`SUBSTITUTED_SHARE`]), evaluates them, and keeps
//! the best `population` tests of parents and offspring by preference
//! sorting: first, for each uncovered target, the test closest to it
//! (shorter on ties); then the rest by how close they come to any target.
//! DynaMOSA only targets goals one of whose control-dependence parents is
//! covered (or that have none); MOSA targets every goal from the start.

use std::collections::BTreeSet;

use analysis::goals::GoalId;
use exec::ExecError;
use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::evaluator::{Evaluated, Evaluator};
use crate::fitness::Fitness;
use crate::{Executed, SearchConfig, Variation};

/// Runs (Dyna)MOSA until the evaluator says it is done.
///
/// # Errors
/// [`ExecError`] from the executor.
pub fn run(
    ev: &mut Evaluator<'_, '_>,
    variation: &mut dyn Variation,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
    dynamic: bool,
) -> Result<(), ExecError> {
    let fitness = Fitness::new(ev.problem.goals);
    let initial = (0..config.population).map(|_| variation.random_test(rng)).collect();
    let mut population = ev.evaluate(initial)?;
    let (mut generation, mut stagnant, mut last_covered) = (0u32, 0u32, ev.archive.covered().count());
    while !ev.done() {
        if population.is_empty() {
            // Every test was rejected before execution: start again from
            // random tests rather than end the search with goals left.
            let fresh = (0..config.population).map(|_| variation.random_test(rng)).collect();
            population = ev.evaluate(fresh)?;
            continue;
        }
        variation.observe_values(&ev.take_values());
        let scores = Scores::compute(&population, &targets(ev, dynamic), &fitness, variation);
        let (mut offspring, mut targeted) = breed(&population, &scores, variation, config, rng);
        insert_tests(&ev.archive, variation, config, rng, &mut offspring, &mut targeted);
        let substituted = ev.take_substituted(config.population.div_ceil(SUBSTITUTED_SHARE));
        targeted.extend(substituted.iter().map(|_| false));
        offspring.extend(substituted);
        for &best in &scores.extra_best {
            for _ in 0..FOCUSED_OFFSPRING {
                offspring.push(variation.mutate(&population[best].test, rng));
                targeted.push(population[best].targeted);
            }
        }
        let offspring = evaluate(ev, variation, offspring, targeted)?;
        population.extend(offspring);
        if let Some(test) = variation.targeted_test(&targets(ev, dynamic), rng) {
            population.extend(evaluate(ev, variation, vec![test], vec![true])?);
        }
        generation += 1;
        let covered = ev.archive.covered().count();
        stagnant = if covered > last_covered { 0 } else { stagnant + 1 };
        last_covered = covered;
        if stagnant >= DSE_STAGNATION || generation % DSE_PERIOD == 0 {
            stagnant = 0;
            population.extend(dse_step(ev, variation, &population, dynamic, rng)?);
            last_covered = ev.archive.covered().count();
        }
        // Targets again: the offspring may have covered goals and activated others.
        let scores = Scores::compute(&population, &targets(ev, dynamic), &fitness, variation);
        population = select(population, &scores, config.population);
    }
    Ok(())
}

/// Each generation runs at most a `1 / SUBSTITUTED_SHARE` of the population
/// in tests with a new input-to-state substitution written in
/// ([`Evaluator::take_substituted`]).
pub const SUBSTITUTED_SHARE: usize = 4;

/// Generations without a newly covered goal after which the search asks
/// for solved tests ([`Variation::solved_tests`]).
pub const DSE_STAGNATION: u32 = 3;

/// The search also asks for solved tests every this many generations.
pub const DSE_PERIOD: u32 = 10;

/// Events the value log keeps per test at most, when a DSE step has tests
/// run again with it ([`Variation::tests_to_log`]).
pub const VALUE_LOG_CAP: u32 = 4096;

/// One DSE step: the tests of the population the variation will replay run
/// again with the value log on, then solved tests from the population,
/// evaluated as targeted tests; the goals they covered first go back to the
/// variation.
fn dse_step(
    ev: &mut Evaluator<'_, '_>,
    variation: &mut dyn Variation,
    population: &[Evaluated],
    dynamic: bool,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Evaluated>, ExecError> {
    let tests: Vec<&testcase::TestCase> = population.iter().map(|e| &e.test).collect();
    let wanted = variation.tests_to_log(&tests);
    let again: Vec<testcase::TestCase> = wanted.iter().filter_map(|&i| tests.get(i).map(|t| (*t).clone())).collect();
    let logs = ev.value_logs(&again, VALUE_LOG_CAP)?;
    let mut values: Vec<Option<&exec::ValueLog>> = vec![None; tests.len()];
    for (&i, log) in wanted.iter().zip(&logs) {
        if let Some(slot) = values.get_mut(i) {
            *slot = log.as_ref();
        }
    }
    let tests: Vec<Executed<'_>> = tests.iter().zip(values).map(|(test, values)| Executed { test, values }).collect();
    let solved = variation.solved_tests(&tests, &targets(ev, dynamic), rng);
    if solved.is_empty() {
        return Ok(Vec::new());
    }
    let before = ev.archive.covered().count();
    let flags = vec![true; solved.len()];
    let evaluated = evaluate(ev, variation, solved, flags)?;
    variation.solved_covered(ev.archive.covered().count().saturating_sub(before));
    Ok(evaluated)
}

/// Evaluates `tests` ([`Evaluator::evaluate_targeted`]), with the value
/// log on when the variation wants it for its temporary objectives
/// ([`Variation::wants_value_logs`]); the logs go to the variation, not
/// into the population.
fn evaluate(
    ev: &mut Evaluator<'_, '_>,
    variation: &mut dyn Variation,
    tests: Vec<testcase::TestCase>,
    targeted: Vec<bool>,
) -> Result<Vec<Evaluated>, ExecError> {
    if !variation.wants_value_logs() {
        return ev.evaluate_targeted(tests, targeted);
    }
    let mut out = ev.evaluate_logged(tests, targeted, VALUE_LOG_CAP)?;
    let executed: Vec<Executed<'_>> =
        out.iter().map(|e| Executed { test: &e.test, values: e.values.as_ref() }).collect();
    variation.observe_logged(&executed);
    out.iter_mut().for_each(|e| e.values = None);
    Ok(out)
}

/// The uncovered goals the search works on now.
fn targets(ev: &Evaluator<'_, '_>, dynamic: bool) -> Vec<GoalId> {
    let goals = ev.problem.goals;
    goals
        .goals
        .iter()
        .map(|g| g.id)
        .filter(|g| !ev.archive.covers(*g))
        // A parent held only by a fragile test was reached all the same:
        // its children are targets too.
        .filter(|g| !dynamic || goals.parents(*g).is_empty() || goals.parents(*g).iter().any(|p| ev.archive.holds(*p)))
        .collect()
}

/// Mutants of the best test for each temporary objective
/// ([`Variation::extra_fitness`]) added to each generation's offspring: a
/// (1+λ) search on the objective, whose best test is otherwise bred about
/// as often as any other (TARDIS's path-condition goals need a value the
/// test controls only through the JDK).
pub const FOCUSED_OFFSPRING: usize = 4;

/// Per test: its rank (0 = best for some target) and a closeness score.
struct Scores {
    rank: Vec<usize>,
    /// Sum over targets of the normalised fitness (lower is better).
    total: Vec<f64>,
    /// Per temporary objective with a test of finite fitness, the best test.
    extra_best: Vec<usize>,
}

impl Scores {
    /// The scores of `pop` for `targets` and the variation's temporary
    /// objectives ([`Variation::extra_fitness`]).
    fn compute(pop: &[Evaluated], targets: &[GoalId], fitness: &Fitness<'_>, variation: &mut dyn Variation) -> Scores {
        let n = pop.len();
        let mut scores = Scores { rank: vec![usize::MAX; n], total: vec![0.0; n], extra_best: Vec::new() };
        for &t in targets {
            scores.add(pop, &pop.iter().map(|e| fitness.of(t, &e.obs)).collect::<Vec<f64>>());
        }
        let tests: Vec<&testcase::TestCase> = pop.iter().map(|e| &e.test).collect();
        for f in variation.extra_fitness(&tests) {
            if f.len() == n {
                scores.add(pop, &f);
                let best = (0..n).filter(|&i| f[i].is_finite()).min_by(|&a, &b| f[a].total_cmp(&f[b]));
                scores.extra_best.extend(best);
            }
        }
        scores
    }

    /// Adds one objective whose fitness for each test is `f`.
    fn add(&mut self, pop: &[Evaluated], f: &[f64]) {
        // Position of each test in this objective's ordering (by fitness, then length).
        let mut order: Vec<usize> = (0..pop.len()).collect();
        order.sort_by(|&a, &b| {
            f[a].total_cmp(&f[b]).then(pop[a].test.statements.len().cmp(&pop[b].test.statements.len()))
        });
        for (pos, &i) in order.iter().enumerate() {
            self.rank[i] = self.rank[i].min(pos);
            if f[i].is_finite() {
                self.total[i] += f[i] / (f[i] + 1.0);
            } else {
                self.total[i] += 1.0;
            }
        }
    }

    /// Whether test `a` is preferred to test `b`.
    fn better(&self, a: usize, b: usize) -> bool {
        (self.rank[a], self.total[a]) < (self.rank[b], self.total[b])
    }
}

/// Offspring of one generation: binary tournaments, crossover, mutation;
/// with, per child, whether a parent was targeted.
fn breed(
    pop: &[Evaluated],
    scores: &Scores,
    variation: &mut dyn Variation,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
) -> (Vec<testcase::TestCase>, Vec<bool>) {
    let mut out = Vec::with_capacity(config.population);
    let mut targeted = Vec::with_capacity(config.population);
    while out.len() < config.population {
        let (a, b) = (tournament(pop.len(), scores, rng), tournament(pop.len(), scores, rng));
        let (c, d) = if rng.random_bool(config.crossover_rate) {
            variation.crossover(&pop[a].test, &pop[b].test, rng)
        } else {
            (pop[a].test.clone(), pop[b].test.clone())
        };
        out.push(variation.mutate(&c, rng));
        out.push(variation.mutate(&d, rng));
        let from_targeted = pop[a].targeted || pop[b].targeted;
        targeted.extend([from_targeted, from_targeted]);
    }
    (out, targeted)
}

/// Share of the population that each generation adds as new tests
/// (EvoSuite's `P_TEST_INSERTION`, 0.1; `AbstractMOSA.breedNextGeneration`).
pub const TEST_INSERTION: f64 = 0.1;

/// Adds `TEST_INSERTION` times the population size of new tests to the
/// offspring, as EvoSuite's MOSA does: each, with even odds (always while
/// nothing is covered), a random test or the archived test of a covered
/// goal mutated twice. The second kind keeps searching around what
/// covering tests have built (an object in a state that took several
/// calls), which preference sorting drops from the population once its
/// goals are covered.
fn insert_tests(
    archive: &crate::archive::Archive,
    variation: &mut dyn Variation,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
    offspring: &mut Vec<testcase::TestCase>,
    targeted: &mut Vec<bool>,
) {
    let count = (config.population as f64 * TEST_INSERTION).ceil() as usize;
    for _ in 0..count {
        let test = match archive.random_solution(rng) {
            Some(solution) if rng.random_bool(0.5) => {
                let once = variation.mutate(solution, rng);
                variation.mutate(&once, rng)
            }
            _ => variation.random_test(rng),
        };
        offspring.push(test);
        targeted.push(false);
    }
}

fn tournament(n: usize, scores: &Scores, rng: &mut ChaCha8Rng) -> usize {
    let idx: Vec<usize> = (0..n).collect();
    let a = *idx.choose(rng).expect("non-empty population");
    let b = *idx.choose(rng).expect("non-empty population");
    if scores.better(b, a) { b } else { a }
}

/// The next population: the best `size` tests by preference sorting,
/// without duplicate tests.
fn select(pop: Vec<Evaluated>, scores: &Scores, size: usize) -> Vec<Evaluated> {
    let mut order: Vec<usize> = (0..pop.len()).collect();
    order.sort_by(|&a, &b| {
        (scores.rank[a], scores.total[a], pop[a].test.statements.len())
            .partial_cmp(&(scores.rank[b], scores.total[b], pop[b].test.statements.len()))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let keep: BTreeSet<usize> = order.into_iter().take(size).collect();
    pop.into_iter().enumerate().filter(|(i, _)| keep.contains(i)).map(|(_, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use testcase::{TestCase, TestCaseBuilder};

    use super::*;
    use crate::archive::Archive;

    /// Random tests are one `int` statement; a mutation adds one.
    struct Lengths;

    impl Variation for Lengths {
        fn random_test(&mut self, _rng: &mut ChaCha8Rng) -> TestCase {
            let mut b = TestCaseBuilder::new();
            b.int(0);
            b.build()
        }
        fn mutate(&mut self, test: &TestCase, _rng: &mut ChaCha8Rng) -> TestCase {
            let mut b = TestCaseBuilder::new();
            (0..=test.statements.len()).for_each(|i| {
                b.int(i as i32);
            });
            b.build()
        }
        fn crossover(&mut self, a: &TestCase, b: &TestCase, _rng: &mut ChaCha8Rng) -> (TestCase, TestCase) {
            (a.clone(), b.clone())
        }
    }

    /// Each generation gets a tenth of the population as new tests:
    /// random ones while nothing is covered, then also archived tests
    /// mutated twice (a 10-statement archived test becomes 12 long).
    #[test]
    fn new_tests_are_random_or_archived_tests_mutated_twice() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let config = SearchConfig { population: 50, ..Default::default() };
        let (mut offspring, mut targeted) = (Vec::new(), Vec::new());
        let mut archive = Archive::default();
        insert_tests(&archive, &mut Lengths, &config, &mut rng, &mut offspring, &mut targeted);
        assert_eq!(offspring.iter().map(|t| t.statements.len()).collect::<Vec<_>>(), [1; 5]);
        let mut b = TestCaseBuilder::new();
        (0..10).for_each(|i| {
            b.int(i);
        });
        archive.offer(&b.build(), &[analysis::goals::GoalId(4)].into());
        offspring.clear();
        for _ in 0..20 {
            insert_tests(&archive, &mut Lengths, &config, &mut rng, &mut offspring, &mut targeted);
        }
        let lengths: Vec<usize> = offspring.iter().map(|t| t.statements.len()).collect();
        assert!(lengths.iter().all(|&n| n == 1 || n == 12), "{lengths:?}");
        let reused = lengths.iter().filter(|&&n| n == 12).count();
        assert!((30..70).contains(&reused), "{reused} of 100 new tests came from the archive");
        assert!(targeted.iter().all(|t| !t));
    }
}
