//! The variation operators of the search (TECHNIQUES.md §0 "Variation"),
//! with EvoSuite's default probabilities: random tests, mutation (delete,
//! change, insert), single-point crossover, and the edits later stages need
//! (truncation after an exception, removal with forward dependencies).
//!
//! Every operator takes a test case by reference and returns a new,
//! renumbered one that keeps the rule "a statement uses only earlier
//! values" and passes [`crate::Validator`] whenever its input does. All
//! randomness comes from the caller's `rng`: the same seed gives the same
//! result. Mutated and crossed-over tests have no assertions (they describe
//! behaviour the new test may not have); the call under test is recomputed
//! as the last call under test ([`TestCluster::last_call_under_test`]).
//!
//! ```
//! # fn demo(cluster: &testcase::TestCluster) {
//! use rand::SeedableRng;
//! let seeds = testcase::Seeds::default();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let test = testcase::operators::random_test(cluster, &seeds, &mut rng, 10);
//! let child = testcase::operators::mutate(&test, cluster, &seeds, &mut rng);
//! let (a, b) = testcase::operators::crossover(&test, &child, &mut rng);
//! # let _ = (a, b);
//! # }
//! ```

use rand::Rng;

use crate::cluster::TestCluster;
use crate::ir::{Statement, TestCase, VarId};
use crate::seeds::Seeds;

mod crossover;
mod direct;
mod edit;
mod encoded;
mod factory;
mod files;
mod jdk;
mod lines;
mod mutation;
mod retype;
mod serial;
mod serialized;
mod template;
mod values;

use factory::Factory;
pub use retype::{retype_from_uses, unbound_classes};
pub use template::TemplateBuilder;

/// Probability of the delete phase of a mutation (EvoSuite `p_test_delete`).
const P_TEST_DELETE: f64 = 1.0 / 3.0;
/// Probability of the change phase (EvoSuite `p_test_change`).
const P_TEST_CHANGE: f64 = 1.0 / 3.0;
/// Probability of the insert phase (EvoSuite `p_test_insert`).
const P_TEST_INSERT: f64 = 1.0 / 3.0;
/// Mutations tried before a mutant equal to its parent is returned as it is.
const MUTATION_ATTEMPTS: usize = 10;

/// A random test of 1 to `max_statements` statements: random calls
/// appended one after the other (half of them calls under test, half calls
/// on values already in the test), each with the receiver and arguments it
/// needs, built recursively from the cluster's generators. It has at least
/// one call under test whenever one fits, and `call_under_test` is the last.
pub fn random_test<R: Rng + ?Sized>(
    cluster: &TestCluster,
    seeds: &Seeds,
    rng: &mut R,
    max_statements: usize,
) -> TestCase {
    let max_statements = max_statements.max(1);
    let target = rng.random_range(1..=max_statements);
    let mut factory = Factory::new(cluster, seeds, rng, TestCase::default());
    for _ in 0..2 * target + 10 {
        if factory.test.len() >= target {
            break;
        }
        factory.insert_random_call(true, max_statements);
    }
    for _ in 0..10 {
        if cluster.last_call_under_test(&factory.test).is_some() {
            break;
        }
        let snapshot = factory.test.clone();
        if !factory.insert_call_under_test(true) || factory.test.len() > max_statements {
            factory.test = snapshot;
        }
    }
    let mut test = factory.test;
    test.call_under_test = cluster.last_call_under_test(&test);
    test
}

/// A mutant of `test` (EvoSuite's `TestChromosome.mutate`): with
/// probability 1/3 each, independently, delete statements (each with
/// probability 1/n, repairing uses where another value fits), change
/// statements (each with probability 1/n: a primitive by a delta or a new
/// or seeded value, a string by character edits or a seeded string, a
/// call by another with a fitting result or one argument by another
/// value), and insert calls (one, then another with probability 1/2, 1/4,
/// …, while shorter than [`crate::ClusterOptions::max_length`]). Retried
/// (at most 10 times) until the mutant differs from `test` and is no
/// longer than the bound (or than `test`).
pub fn mutate<R: Rng + ?Sized>(test: &TestCase, cluster: &TestCluster, seeds: &Seeds, rng: &mut R) -> TestCase {
    let max_length = cluster.options().max_length;
    let start = TestCase { assertions: Vec::new(), ..test.clone() };
    let mut mutant = start.clone();
    for _ in 0..MUTATION_ATTEMPTS {
        let mut factory = Factory::new(cluster, seeds, &mut *rng, start.clone());
        if factory.rng.random_bool(P_TEST_DELETE) {
            factory.delete_phase();
        }
        if factory.rng.random_bool(P_TEST_CHANGE) {
            factory.change_phase();
        }
        if factory.rng.random_bool(P_TEST_INSERT) {
            factory.insert_phase(max_length);
        }
        factory.test = edit::without_shared_writes(factory.test);
        // A change can add statements (new arguments); it must not push the test past the bound.
        let too_long = factory.test.len() > max_length.max(test.len());
        if factory.test.statements != test.statements && !too_long {
            mutant = factory.test;
            break;
        }
    }
    mutant.call_under_test = cluster.last_call_under_test(&mutant);
    mutant
}

/// Single-point relative crossover: both parents are cut at the same
/// relative point `s` (at least one statement stays in each head) and the
/// children are `a`'s head + `b`'s tail and `b`'s head + `a`'s tail. A tail
/// statement whose inputs lie in the other head gets values of the same
/// type from the new head, or copies of the statements that defined them.
pub fn crossover<R: Rng + ?Sized>(a: &TestCase, b: &TestCase, rng: &mut R) -> (TestCase, TestCase) {
    let split: f64 = rng.random();
    let (p, q) = (crossover::split_point(a.len(), split), crossover::split_point(b.len(), split));
    let child =
        |head: &TestCase, p, tail: &TestCase, q| edit::without_shared_writes(crossover::splice(head, p, tail, q));
    (child(a, p, b, q), child(b, q, a, p))
}

/// The statements up to and including `var` (for example the statement
/// that threw); later statements, assertions on them and a later call under
/// test are dropped.
pub fn truncate_after(test: &TestCase, var: VarId) -> TestCase {
    let keep = (var.index() + 1).min(test.len());
    TestCase {
        statements: test.statements[..keep].to_vec(),
        call_under_test: test.call_under_test.filter(|v| v.index() < keep),
        assertions: test.assertions.iter().filter(|a| a.vars().all(|v| v.index() < keep)).cloned().collect(),
    }
}

/// The test without statement `var` and every statement that uses its
/// value, directly or through other removed statements (Pynguin's
/// `remove_with_forward_dependencies`), renumbered; assertions on removed
/// statements go with them.
pub fn remove_with_forward_dependencies(test: &TestCase, var: VarId) -> TestCase {
    edit::remove_closure(test, &[var])
}

/// Inserts `statement` as statement `pos` (at most the test's length),
/// shifting the later statements' uses, the call under test and the
/// assertions; the new statement's id. The statement may use only values
/// before `pos`.
pub fn insert_statement(test: &mut TestCase, pos: usize, statement: Statement) -> VarId {
    edit::insert_at(test, pos, statement)
}

#[cfg(test)]
mod tests;
