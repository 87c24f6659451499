//! The search's [`Variation`] over the `testcase` crate's test cluster,
//! seeds and operators.

use std::collections::VecDeque;

use analysis::GoalId;
use rand_chacha::ChaCha8Rng;
use search::Variation;
use testcase::TestCase;
use testcase::cluster::TestCluster;
use testcase::operators;
use testcase::seeds::Seeds;

use crate::technique::GoalSource;

/// Random tests, mutation and crossover for one class under test.
pub struct ClusterVariation<'a> {
    /// The calls under test and how to obtain each type's values.
    pub cluster: &'a TestCluster,
    /// Constants of the class and strings seen at run time.
    pub seeds: Seeds,
    /// Statements a random test has at most.
    pub max_statements: usize,
    /// Tests from the techniques' population sources, handed out (first
    /// first) before any random test is made.
    pub initial: VecDeque<TestCase>,
    /// The techniques' sources of targeted tests, asked in turn.
    pub sources: Vec<Box<dyn GoalSource>>,
    /// The source asked next.
    pub next_source: usize,
}

impl Variation for ClusterVariation<'_> {
    fn random_test(&mut self, rng: &mut ChaCha8Rng) -> TestCase {
        match self.initial.pop_front() {
            Some(test) => test,
            None => operators::random_test(self.cluster, &self.seeds, rng, self.max_statements),
        }
    }

    fn mutate(&mut self, test: &TestCase, rng: &mut ChaCha8Rng) -> TestCase {
        operators::mutate(test, self.cluster, &self.seeds, rng)
    }

    fn crossover(&mut self, a: &TestCase, b: &TestCase, rng: &mut ChaCha8Rng) -> (TestCase, TestCase) {
        operators::crossover(a, b, rng)
    }

    fn targeted_test(&mut self, uncovered: &[GoalId], rng: &mut ChaCha8Rng) -> Option<TestCase> {
        if self.sources.is_empty() {
            return None;
        }
        let k = self.next_source % self.sources.len();
        self.next_source = self.next_source.wrapping_add(1);
        self.sources[k].test_for(uncovered, self.cluster, &self.seeds, rng)
    }

    fn guided_test(&mut self, rng: &mut ChaCha8Rng) -> Option<TestCase> {
        let (cluster, seeds) = (self.cluster, &self.seeds);
        self.sources.iter_mut().find_map(|s| s.sequence_test(cluster, seeds, rng))
    }

    fn feedback(&mut self, test: &TestCase, clean: bool) {
        self.sources.iter_mut().for_each(|s| s.feedback(test, clean));
    }

    fn solved_tests(
        &mut self,
        tests: &[search::Executed<'_>],
        uncovered: &[GoalId],
        rng: &mut ChaCha8Rng,
    ) -> Vec<TestCase> {
        self.sources.iter_mut().flat_map(|s| s.solved_tests(tests, uncovered, rng)).collect()
    }

    fn tests_to_log(&mut self, tests: &[&TestCase]) -> Vec<usize> {
        let mut wanted: Vec<usize> = self.sources.iter_mut().flat_map(|s| s.tests_to_log(tests)).collect();
        wanted.sort_unstable();
        wanted.dedup();
        wanted
    }

    fn solved_covered(&mut self, goals: usize) {
        self.sources.iter_mut().for_each(|s| s.solved_covered(goals));
    }

    fn extra_fitness(&mut self, tests: &[&TestCase]) -> Vec<Vec<f64>> {
        self.sources.iter_mut().flat_map(|s| s.extra_fitness(tests)).collect()
    }

    fn wants_value_logs(&self) -> bool {
        self.sources.iter().any(|s| s.wants_value_logs())
    }

    fn observe_logged(&mut self, tests: &[search::Executed<'_>]) {
        self.sources.iter_mut().for_each(|s| s.observe_logged(tests));
    }

    fn observe_values(&mut self, values: &search::RunTimeValues) {
        values.strings.iter().for_each(|s| self.seeds.add_string(s.clone()));
        for (seen, wanted) in &values.substitutions {
            self.seeds.add_substitution(seen.clone(), wanted.clone());
        }
        for (seen, wanted) in &values.number_text_substitutions {
            self.seeds.add_number_text_substitution(seen.clone(), wanted.clone());
        }
        for &(seen, wanted) in &values.number_substitutions {
            self.seeds.add_number_substitution(seen, wanted);
        }
        for &n in &values.numbers {
            match i32::try_from(n) {
                Ok(int) => self.seeds.add_int(int),
                Err(_) => self.seeds.add_long(n),
            }
        }
    }
}
