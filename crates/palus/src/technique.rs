//! Palus as a technique of the pipeline (`generate::Technique`): the
//! models of a sample run guide the search.
//!
//! - Population source: the first tests the search runs are model-guided
//!   ([`Technique::initial_tests`], [`INITIAL_TESTS`] of them), so with
//!   DynaMOSA the guided tests seed the first population and the archive.
//! - Goal source: during the genetic algorithms, one model-guided test per
//!   generation; with `--algorithm palus`, every test of the guided phase
//!   ([`generate::technique::GoalSource::sequence_test`], with feedback).
//!
//! `report.json`'s `techniques.palus` counts the guided tests made, the
//! modelled classes and the goals the guided tests (and their offspring)
//! covered first.

use std::collections::BTreeMap;
use std::sync::Arc;

use analysis::GoalId;
use analysis::method_dependence::{MethodDependence, field_accesses};
use generate::technique::GoalSource;
use generate::{ClassRun, Technique};
use model::names::BinaryName;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use testcase::TestCase;
use testcase::cluster::TestCluster;
use testcase::seeds::Seeds;

use crate::guided::Guide;
use crate::infer::Models;

/// How many model-guided tests the search starts from.
pub const INITIAL_TESTS: usize = 25;

/// Palus's technique: models from a sample run.
pub struct Palus {
    models: Arc<Models>,
}

impl Palus {
    /// The technique over the models of a sample run.
    pub fn new(models: Arc<Models>) -> Palus {
        Palus { models }
    }

    fn guide(&self, run: &ClassRun) -> Guide {
        Guide::new(Arc::clone(&self.models), &run.class, dependence(run))
    }
}

impl Technique for Palus {
    fn name(&self) -> &'static str {
        "palus"
    }

    fn initial_tests(&mut self, run: &ClassRun, cluster: &TestCluster, seeds: &Seeds) -> Vec<TestCase> {
        let mut guide = self.guide(run);
        if !guide.has_models() {
            return Vec::new();
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed_of(&run.class));
        (0..INITIAL_TESTS * 2).filter_map(|_| guide.next(cluster, seeds, &mut rng)).take(INITIAL_TESTS).collect()
    }

    fn goal_source(&mut self, run: &ClassRun, _cluster: &TestCluster) -> Option<Box<dyn GoalSource>> {
        let guide = self.guide(run);
        guide
            .has_models()
            .then(|| Box::new(PalusSource { guide, classes: self.models.classes.len() }) as Box<dyn GoalSource>)
    }
}

/// The guide as a source of tests during the search.
struct PalusSource {
    guide: Guide,
    classes: usize,
}

impl GoalSource for PalusSource {
    fn test_for(
        &mut self,
        _uncovered: &[GoalId],
        cluster: &TestCluster,
        seeds: &Seeds,
        rng: &mut ChaCha8Rng,
    ) -> Option<TestCase> {
        self.guide.next(cluster, seeds, rng)
    }

    fn sequence_test(&mut self, cluster: &TestCluster, seeds: &Seeds, rng: &mut ChaCha8Rng) -> Option<TestCase> {
        self.guide.next(cluster, seeds, rng)
    }

    fn feedback(&mut self, test: &TestCase, clean: bool) {
        self.guide.feedback(test, clean);
    }

    fn name(&self) -> &'static str {
        "palus"
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        BTreeMap::from([
            ("guided_tests".to_string(), self.guide.made() as f64),
            ("modelled_classes".to_string(), self.classes as f64),
        ])
    }
}

/// The static dependence of the CUT's methods (Palus §3.2), private
/// callees merged into their callers; `None` when the class cannot be read.
fn dependence(run: &ClassRun) -> Option<MethodDependence> {
    let cf = run.cp.load(run.class.as_str()).ok()?;
    let methods = field_accesses(&cf).into_iter().filter(|m| !m.private && m.name != "<clinit>").collect();
    Some(MethodDependence::new(methods))
}

/// A seed from the class name (FNV-1a), so guided initial tests do not
/// depend on the order of classes.
fn seed_of(class: &BinaryName) -> u64 {
    class.as_str().bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
