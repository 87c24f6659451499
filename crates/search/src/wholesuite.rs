//! The whole-suite GA (Fraser and Arcuri, "Whole test suite generation",
//! TSE 2013), monotonic variant: an individual is a test suite; its fitness
//! sums, over all goals, the best fitness any of its tests reaches
//! (normalised, lower is better) plus a small length penalty. Offspring
//! replace their parents only when they are not worse, and the best suite
//! always survives (elitism).

use exec::ExecError;
use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use testcase::TestCase;

use crate::evaluator::{Evaluated, Evaluator};
use crate::fitness::Fitness;
use crate::{SearchConfig, Variation};

/// Tests in an initial random suite at most.
const INITIAL_TESTS: usize = 5;
/// Tests in a suite at most.
const MAX_TESTS: usize = 20;
/// Suites in the population (each has several tests, so fewer than MOSA's tests).
const SUITES: usize = 10;

/// A suite with its evaluated tests and fitness.
struct Suite {
    tests: Vec<Evaluated>,
    fitness: f64,
}

/// Runs the whole-suite GA until the evaluator says it is done.
///
/// # Errors
/// [`ExecError`] from the executor.
pub fn run(
    ev: &mut Evaluator<'_, '_>,
    variation: &mut dyn Variation,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
) -> Result<(), ExecError> {
    let fitness = Fitness::new(ev.problem.goals);
    let mut population = Vec::with_capacity(SUITES);
    for _ in 0..SUITES {
        let n = rng.random_range(1..=INITIAL_TESTS);
        let tests = (0..n).map(|_| variation.random_test(rng)).collect();
        population.push(suite(ev.evaluate(tests)?, ev, &fitness));
    }
    while !ev.done() {
        variation.observe_values(&ev.take_values());
        population.sort_by(|a, b| a.fitness.total_cmp(&b.fitness));
        // The best suite survives; the others are parents of the next generation.
        let mut next = vec![clone_suite(&population[0])];
        let indices: Vec<usize> = (0..population.len()).collect();
        while next.len() < SUITES && !ev.done() {
            let (a, b) = (*indices.choose(rng).expect("a population"), *indices.choose(rng).expect("a population"));
            let (c, d) = crossover(&population[a], &population[b], config, rng);
            for (child, parent) in [(c, a), (d, b)] {
                let child = suite(ev.evaluate(mutate(child, variation, rng))?, ev, &fitness);
                let parent = &population[parent];
                next.push(if child.fitness <= parent.fitness { child } else { clone_suite(parent) });
            }
        }
        population = next;
        add_targeted(&mut population, ev, variation, &fitness, rng)?;
    }
    Ok(())
}

/// Adds the variation's targeted test for the uncovered goals, if it has
/// one, to a random suite other than the elite (its offspring are not
/// tracked here: suite mutation re-evaluates tests as plain tests).
fn add_targeted(
    population: &mut [Suite],
    ev: &mut Evaluator<'_, '_>,
    variation: &mut dyn Variation,
    fitness: &Fitness<'_>,
    rng: &mut ChaCha8Rng,
) -> Result<(), ExecError> {
    let uncovered: Vec<_> = ev.problem.goals.goals.iter().map(|g| g.id).filter(|g| !ev.archive.covers(*g)).collect();
    let Some(test) = variation.targeted_test(&uncovered, rng) else { return Ok(()) };
    let added = ev.evaluate_targeted(vec![test], vec![true])?;
    let indices: Vec<usize> = (1..population.len()).collect();
    if let Some(&i) = indices.choose(rng) {
        let mut tests = std::mem::take(&mut population[i].tests);
        tests.extend(added);
        population[i] = suite(tests, ev, fitness);
    }
    Ok(())
}

fn suite(tests: Vec<Evaluated>, ev: &Evaluator<'_, '_>, fitness: &Fitness<'_>) -> Suite {
    let goals = &ev.problem.goals.goals;
    let mut total = 0.0;
    for g in goals {
        let best = tests.iter().map(|t| fitness.of(g.id, &t.obs)).fold(f64::INFINITY, f64::min);
        total += if best.is_finite() { best / (best + 1.0) } else { 1.0 };
    }
    let length: usize = tests.iter().map(|t| t.test.statements.len()).sum();
    Suite { fitness: total + length as f64 * 1e-6, tests }
}

fn clone_suite(s: &Suite) -> Suite {
    Suite { tests: s.tests.clone(), fitness: s.fitness }
}

/// Single-point crossover on the test lists (with the configured probability).
fn crossover(a: &Suite, b: &Suite, config: &SearchConfig, rng: &mut ChaCha8Rng) -> (Vec<TestCase>, Vec<TestCase>) {
    let ta: Vec<TestCase> = a.tests.iter().map(|e| e.test.clone()).collect();
    let tb: Vec<TestCase> = b.tests.iter().map(|e| e.test.clone()).collect();
    if !rng.random_bool(config.crossover_rate) || ta.is_empty() || tb.is_empty() {
        return (ta, tb);
    }
    let alpha: f64 = rng.random();
    let (ka, kb) = ((ta.len() as f64 * alpha) as usize, (tb.len() as f64 * alpha) as usize);
    let c = ta[..ka].iter().chain(&tb[kb..]).cloned().collect();
    let d = tb[..kb].iter().chain(&ta[ka..]).cloned().collect();
    (c, d)
}

/// Mutates each test with probability 1/n, then adds random tests with
/// probability 1/3 each (EvoSuite's suite mutation).
fn mutate(mut tests: Vec<TestCase>, variation: &mut dyn Variation, rng: &mut ChaCha8Rng) -> Vec<TestCase> {
    let n = tests.len().max(1) as f64;
    for t in &mut tests {
        if rng.random_bool(1.0 / n) {
            *t = variation.mutate(t, rng);
        }
    }
    while tests.len() < MAX_TESTS && (tests.is_empty() || rng.random_bool(1.0 / 3.0)) {
        tests.push(variation.random_test(rng));
    }
    tests
}
