//! Where a technique plugs into the pipeline (EvoObj, KAT, Palus, ZoomIn,
//! TARDIS: TECHNIQUES.md). A technique implements [`Technique`]; every hook
//! has a default that does nothing, so a technique overrides only the stages
//! it extends. The pipeline calls the hooks of each technique in the order
//! the techniques were given, at these points of [`crate::generate_class`]:
//!
//! | stage | hook | what it may add |
//! |---|---|---|
//! | 3. analyse + 4. instrument | [`Technique::goals`] | extra goals, with the probes that observe them (the instrumented classes' folder is on the workers' class path) |
//! | 5. test cluster | [`Technique::initial_tests`] | tests the search starts from (a population source) |
//! | 6. search | [`Technique::goal_source`] | tests aimed at uncovered goals, asked after every generation ([`GoalSource`]), and tests solved from the population when the search stagnates ([`GoalSource::solved_tests`]); its numbers go into `report.json`'s `techniques` |
//! | 7. assertions | [`Technique::oracle`] | assertions, and tests of its own (checked by verification like every other); it may run tests on the workers |
//! | 8. after verification | [`Technique::findings`] | likely bugs, each with a witness test of the final suite (moved into the findings test class, [`crate::findings_suite`]) |
//! | 9. after the files are written and their coverage measured | [`Technique::suite_written`] | findings about the written tests (left where they are), comments in the files (ZoomIn) |
//!
//! After the findings, each technique's [`Technique::stats`] (when not empty)
//! go into `report.json`'s `techniques.<name>`, next to its goal source's.
//!
//! With no technique the pipeline is exactly the base pipeline (the output
//! is byte-identical; `scripts/output-digest.sh` checks it).

use std::collections::BTreeMap;

use analysis::GoalId;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use testcase::TestCase;
use testcase::cluster::TestCluster;
use testcase::seeds::Seeds;

use crate::ClassRun;

/// A likely bug in the class under test, with the test that shows it. Every
/// oracle (KAT's API misuse, Palus's contracts, ZoomIn's anomalies, the
/// base's undeclared exceptions) reports into one list per class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The technique or oracle that reported it ([`Technique::name`]).
    pub origin: String,
    /// What kind of bug: `api-misuse` (KAT), ...
    pub kind: String,
    /// `name(descriptor)` of the method of the class under test involved.
    pub method: String,
    /// Where in the class under test: `File.java:LINE`, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Name of the witness test method. The hook names a test of the suite
    /// it is given; the pipeline then moves the witness tests into the
    /// findings test class (`<Class>_FerroFindingsTest`, `report.json`'s
    /// `findings_file`) and renames this to the name it has there.
    pub witness: String,
    /// Other tests that show the same bug (moved with the witness, so that
    /// no test of the regression suite asserts the behaviour as correct).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more_witnesses: Vec<String>,
    /// How sure the oracle is, from 0 to 1 (the technique's own scale).
    pub confidence: f64,
    /// The stack trace that shows it, innermost frame first
    /// (`java.lang.String.charAt(String.java:1515)`); empty when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stack_trace: Vec<String>,
    /// The oracle's own score, unbounded (ZoomIn's suspiciousness).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// The invariant the finding rests on (ZoomIn: the violated invariant
    /// of its most unique violation, `return.im != 0`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invariant: Option<String>,
}

/// A technique's hooks into the pipeline; see the module documentation for
/// when each is called.
pub trait Technique {
    /// Short name, used as [`Finding::origin`] and in logs.
    fn name(&self) -> &'static str;

    /// Called after the class under test (and its nested classes) has been
    /// analysed and instrumented and before the workers run a test: append goals
    /// to `run.goals` and their probes to `run.map`, and write any extra or
    /// re-instrumented class files into [`ClassRun::instrumented_dir`].
    fn goals(&mut self, run: &mut ClassRun) {
        let _ = run;
    }

    /// Tests the search starts from: they are handed out before random
    /// tests are made (a population source). They must be valid for
    /// `cluster` (the executor validates them); `seeds` are the class's
    /// constants.
    fn initial_tests(&mut self, run: &ClassRun, cluster: &TestCluster, seeds: &Seeds) -> Vec<TestCase> {
        let _ = (run, cluster, seeds);
        Vec::new()
    }

    /// A source of tests aimed at uncovered goals during the search (the
    /// search asks it after every generation: [`search::Variation::targeted_test`]).
    /// It owns what it needs: `run` is borrowed by the search itself.
    fn goal_source(&mut self, run: &ClassRun, cluster: &TestCluster) -> Option<Box<dyn GoalSource>> {
        let _ = (run, cluster);
        None
    }

    /// Called with the minimised tests after the regression assertions have
    /// been added: a technique may add its own assertions, and tests of its
    /// own (appended; Palus's contract witnesses). It may run tests on
    /// `run.pool`, within the class's deadlines (`run.deadlines`).
    /// Assertions that fail under JUnit are removed by verification, like
    /// any other.
    fn oracle(&mut self, run: &mut ClassRun, tests: &mut Vec<TestCase>) {
        let _ = (run, tests);
    }

    /// Called with the final, verified suite and its test method names (in
    /// the same order): likely bugs, each naming its witness test. The
    /// workers of `run` may run the suite's tests again (to see what they
    /// throw and where).
    fn findings(&mut self, run: &mut ClassRun, suite: &[TestCase], names: &[String]) -> Vec<Finding> {
        let _ = (run, suite, names);
        Vec::new()
    }

    /// Called when the final test files are written (`files`: the
    /// regression suite and, when there are findings, the findings class):
    /// a technique may run them, add findings to `report.findings` whose
    /// witnesses stay where they are, add comments to the files, and put
    /// its numbers into `report.techniques`. The files must still compile
    /// and pass afterwards.
    fn suite_written(&mut self, run: &mut ClassRun, files: &[std::path::PathBuf], report: &mut crate::ClassReport) {
        let _ = (run, files, report);
    }

    /// Its numbers for `report.json`'s `techniques.<name>` (counts and
    /// seconds, each named by its key), read after [`Technique::findings`]
    /// and merged with its goal source's ([`GoalSource::stats`]); nothing
    /// is written when empty (the default).
    fn stats(&self) -> BTreeMap<String, f64> {
        BTreeMap::new()
    }
}

/// Tests aimed at goals the search has not covered yet (EvoObj's
/// templates): a population source during the search.
pub trait GoalSource {
    /// A test aimed at one of `uncovered` (the goals the search works on
    /// now), built from `cluster`'s calls with `seeds` for literals; `None`
    /// when the source makes none this time.
    fn test_for(
        &mut self,
        uncovered: &[GoalId],
        cluster: &TestCluster,
        seeds: &Seeds,
        rng: &mut ChaCha8Rng,
    ) -> Option<TestCase>;

    /// A test from the source's model of call sequences, not aimed at
    /// particular goals (Palus's guided phase, [`search::Variation::guided_test`]);
    /// `None` (the default) for sources without such a model.
    fn sequence_test(&mut self, cluster: &TestCluster, seeds: &Seeds, rng: &mut ChaCha8Rng) -> Option<TestCase> {
        let _ = (cluster, seeds, rng);
        None
    }

    /// Whether `test` ran without an exception before its last statement
    /// ([`search::Variation::feedback`]); default: ignored.
    fn feedback(&mut self, test: &TestCase, clean: bool) {
        let _ = (test, clean);
    }

    /// Tests solved from `tests` (the search's population) for `uncovered`
    /// (TARDIS's DSE step, [`search::Variation::solved_tests`]); default: none.
    fn solved_tests(
        &mut self,
        tests: &[search::Executed<'_>],
        uncovered: &[GoalId],
        rng: &mut ChaCha8Rng,
    ) -> Vec<TestCase> {
        let _ = (tests, uncovered, rng);
        Vec::new()
    }

    /// Which of `tests` (the population, by index) the next
    /// [`GoalSource::solved_tests`] wants with their value logs
    /// ([`search::Variation::tests_to_log`]); default: none.
    fn tests_to_log(&mut self, tests: &[&TestCase]) -> Vec<usize> {
        let _ = tests;
        Vec::new()
    }

    /// How many goals the last [`GoalSource::solved_tests`] covered first; default: ignored.
    fn solved_covered(&mut self, goals: usize) {
        let _ = goals;
    }

    /// Per temporary objective of the source, the fitness of each of
    /// `tests` ([`search::Variation::extra_fitness`]); default: none.
    fn extra_fitness(&mut self, tests: &[&TestCase]) -> Vec<Vec<f64>> {
        let _ = tests;
        Vec::new()
    }

    /// Whether the search should run its next tests with the value log on
    /// ([`search::Variation::wants_value_logs`]); default: no.
    fn wants_value_logs(&self) -> bool {
        false
    }

    /// Tests the search just ran with the value log on
    /// ([`search::Variation::observe_logged`]); default: ignored.
    fn observe_logged(&mut self, tests: &[search::Executed<'_>]) {
        let _ = tests;
    }

    /// The technique's name ([`Technique::name`]), the key of its numbers in `report.json`.
    fn name(&self) -> &'static str;

    /// Called when the final test files are written (`files`: the
    /// regression suite and, when there are findings, the findings class):
    /// a technique may run them, add findings to `report.findings` whose
    /// witnesses stay where they are, add comments to the files, and put
    /// its numbers into `report.techniques`. The files must still compile
    /// and pass afterwards.
    fn suite_written(&mut self, run: &mut ClassRun, files: &[std::path::PathBuf], report: &mut crate::ClassReport) {
        let _ = (run, files, report);
    }

    /// Its numbers for `report.json`'s `techniques.<name>` (counts and
    /// seconds, each named by its key), read after the search.
    fn stats(&self) -> BTreeMap<String, f64>;
}
