//! Palus's generation (Zhang et al. ISSTA 2011, §3.3; TECHNIQUES.md §4
//! step 3): feedback-directed like [`crate::random`], in two phases. For
//! the first `guided_share` of the budget every new test comes from the
//! call-sequence models ([`Variation::guided_test`]: new sequences at model
//! roots, extensions of guided tests that ran cleanly, which the variation
//! learns through [`Variation::feedback`]); then the unguided phase makes
//! random tests and extensions of the pool, which starts with the guided
//! phase's clean tests, so that methods the models never saw are called.
//! Without a model the guided phase ends at once. Guided tests count as
//! targeted ([`crate::SearchEvent::GoalCovered`]), so the goals they
//! cover first are the guided phase's.

use exec::ExecError;
use rand_chacha::ChaCha8Rng;

use crate::evaluator::Evaluator;
use crate::random::{is_clean, keep};
use crate::{SearchConfig, Variation};

/// Runs the guided phase until `guided_share` of the budget is used, then
/// random search until the evaluator says it is done.
///
/// # Errors
/// [`ExecError`] from the executor.
pub fn run(
    ev: &mut Evaluator<'_, '_>,
    variation: &mut dyn Variation,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
    guided_share: f64,
) -> Result<(), ExecError> {
    let mut pool = Vec::new();
    while !ev.done() && ev.used() < guided_share {
        variation.observe_values(&ev.take_values());
        let batch: Vec<_> =
            (0..config.population * 2).filter_map(|_| variation.guided_test(rng)).take(config.population).collect();
        if batch.is_empty() {
            tracing::debug!("no guided test: the unguided phase starts");
            break;
        }
        let targeted = vec![true; batch.len()];
        let evaluated = ev.evaluate_targeted(batch, targeted)?;
        if evaluated.is_empty() {
            break;
        }
        for e in evaluated {
            let clean = is_clean(&e);
            variation.feedback(&e.test, clean);
            if clean {
                keep(&mut pool, e.test, rng);
            }
        }
    }
    crate::random::run(ev, variation, config, rng, pool)
}
