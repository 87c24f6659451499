//! The search's [`Variation`] over the `testcase` crate's test cluster,
//! seeds and operators.

use rand_chacha::ChaCha8Rng;
use search::Variation;
use testcase::TestCase;
use testcase::cluster::TestCluster;
use testcase::operators;
use testcase::seeds::Seeds;

/// Random tests, mutation and crossover for one class under test.
pub struct ClusterVariation<'a> {
    pub cluster: &'a TestCluster,
    pub seeds: Seeds,
    /// Statements a random test has at most.
    pub max_statements: usize,
}

impl Variation for ClusterVariation<'_> {
    fn random_test(&mut self, rng: &mut ChaCha8Rng) -> TestCase {
        operators::random_test(self.cluster, &self.seeds, rng, self.max_statements)
    }

    fn mutate(&mut self, test: &TestCase, rng: &mut ChaCha8Rng) -> TestCase {
        operators::mutate(test, self.cluster, &self.seeds, rng)
    }

    fn crossover(&mut self, a: &TestCase, b: &TestCase, rng: &mut ChaCha8Rng) -> (TestCase, TestCase) {
        operators::crossover(a, b, rng)
    }

    fn observe_strings(&mut self, strings: &[String]) {
        strings.iter().for_each(|s| self.seeds.add_string(s.clone()));
    }
}
