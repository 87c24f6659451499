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
//! | 7. assertions | [`Technique::oracle`] | assertions (checked by verification like every other) |
//! | 8. after verification | [`Technique::findings`] | likely bugs, each with a witness test of the final suite |
//!
//! With no technique the pipeline is exactly the base pipeline (the output
//! is byte-identical; `scripts/output-digest.sh` checks it).

use serde::Serialize;
use testcase::TestCase;

use crate::ClassRun;

/// A likely bug in the class under test, with the test that shows it. Every
/// oracle (KAT's API misuse, Palus's contracts, ZoomIn's anomalies, the
/// base's undeclared exceptions) reports into one list per class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The technique or oracle that reported it ([`Technique::name`]).
    pub origin: String,
    /// `name(descriptor)` of the method of the class under test involved.
    pub method: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Name of the witness test method in the emitted test class.
    pub witness: String,
    /// How sure the oracle is, from 0 to 1 (the technique's own scale).
    pub confidence: f64,
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
    /// tests are made (a population source). They must be valid for the
    /// test cluster (the executor validates them).
    fn initial_tests(&mut self, run: &ClassRun) -> Vec<TestCase> {
        let _ = run;
        Vec::new()
    }

    /// Called with the minimised tests after the regression assertions have
    /// been added: a technique may add its own assertions. Assertions that
    /// fail under JUnit are removed by verification, like any other.
    fn oracle(&mut self, run: &ClassRun, tests: &mut [TestCase]) {
        let _ = (run, tests);
    }

    /// Called with the final, verified suite and its test method names (in
    /// the same order): likely bugs, each naming its witness test.
    fn findings(&mut self, run: &ClassRun, suite: &[TestCase], names: &[String]) -> Vec<Finding> {
        let _ = (run, suite, names);
        Vec::new()
    }
}
