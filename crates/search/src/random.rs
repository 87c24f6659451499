//! Feedback-directed random generation (Pacheco et al., "Feedback-directed
//! random test generation", ICSE 2007): new tests extend tests from a pool
//! of tests that ran without an exception; tests that throw before their
//! last statement are dropped from the pool.

use exec::ExecError;
use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::evaluator::Evaluator;
use crate::{SearchConfig, Variation};

/// Tests kept for extension at most.
const POOL: usize = 500;

/// Runs random search until the evaluator says it is done.
///
/// # Errors
/// [`ExecError`] from the executor.
pub fn run(
    ev: &mut Evaluator<'_, '_>,
    variation: &mut dyn Variation,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
) -> Result<(), ExecError> {
    let mut pool: Vec<testcase::TestCase> = Vec::new();
    while !ev.done() {
        variation.observe_values(&ev.take_values());
        let batch: Vec<_> = (0..config.population)
            .map(|_| match pool.choose(rng) {
                Some(t) if rng.random_bool(0.7) => variation.mutate(t, rng),
                _ => variation.random_test(rng),
            })
            .collect();
        let evaluated = ev.evaluate(batch)?;
        if evaluated.is_empty() {
            break;
        }
        for e in evaluated {
            let clean = e.threw_at.is_none_or(|i| i + 1 >= e.test.statements.len());
            if clean && !e.obs.timed_out {
                if pool.len() >= POOL {
                    let victim = rng.random_range(0..pool.len());
                    pool.swap_remove(victim);
                }
                pool.push(e.test);
            }
        }
    }
    Ok(())
}
