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

/// Runs random search until the evaluator says it is done, extending the
/// tests of `pool` (tests known to run cleanly) and those it finds.
///
/// # Errors
/// [`ExecError`] from the executor.
pub fn run(
    ev: &mut Evaluator<'_, '_>,
    variation: &mut dyn Variation,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
    mut pool: Vec<testcase::TestCase>,
) -> Result<(), ExecError> {
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
            if is_clean(&e) {
                keep(&mut pool, e.test, rng);
            }
        }
    }
    Ok(())
}

/// Whether an executed test ran without an exception before its last
/// statement and within its time: a test to extend.
pub fn is_clean(e: &crate::evaluator::Evaluated) -> bool {
    e.threw_at.is_none_or(|i| i + 1 >= e.test.statements.len()) && !e.obs.timed_out
}

/// Adds `test` to `pool`, replacing a random one when the pool is full.
pub fn keep(pool: &mut Vec<testcase::TestCase>, test: testcase::TestCase, rng: &mut ChaCha8Rng) {
    if pool.len() >= POOL {
        let victim = rng.random_range(0..pool.len());
        pool.swap_remove(victim);
    }
    pool.push(test);
}
