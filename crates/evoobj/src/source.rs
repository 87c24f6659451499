//! The goal source EvoObj adds to the search (TECHNIQUES.md §1 step 4):
//! after a generation, with probability `p_app`, one uncovered branch of a
//! method that takes objects is picked at random, its object construction
//! graph built (once per goal) and its template synthesised, validated and
//! handed to the search.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use analysis::GoalId;
use analysis::callgraph::Accessors;
use analysis::goals::{ClassGoals, Goal, GoalKind};
use analysis::ocg::{self, ClassSource, Ocg, OcgLimits, is_jdk_class};
use generate::technique::GoalSource;
use model::classpath::ClassPath;
use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use testcase::TestCase;
use testcase::cluster::{Callable, TestCluster};
use testcase::seeds::Seeds;

use crate::EvoObjConfig;
use crate::classes::ClassPathSource;
use crate::template::{Caches, Inputs, synthesise};

/// EvoObj's [`GoalSource`] for one class under test.
pub struct TemplateSource {
    config: EvoObjConfig,
    cp: Arc<ClassPath>,
    classes: ClassPathSource,
    goals: ClassGoals,
    /// Goals whose method takes objects (branch sides and switch cases).
    eligible: HashSet<GoalId>,
    /// OCGs built so far; `None` when a goal's graph reads no field.
    ocgs: HashMap<GoalId, Option<Arc<Ocg>>>,
    cache: Caches,
    stats: Stats,
}

#[derive(Debug, Default, Clone, Copy)]
struct Stats {
    /// Goals picked.
    targets: usize,
    /// Picked goals whose OCG reads no field or element (no template).
    trivial: usize,
    /// Templates synthesised.
    made: usize,
    /// Templates that were valid and short enough, handed to the search.
    inserted: usize,
    /// Time spent building OCGs and templates, in seconds.
    seconds: f64,
}

impl TemplateSource {
    /// A source for the goals `goals` of a class under test on `cp`.
    pub fn new(config: EvoObjConfig, cp: Arc<ClassPath>, goals: &ClassGoals) -> TemplateSource {
        let user: Vec<String> =
            cp.application_class_names().into_iter().filter(|n| !is_jdk_class(&n.replace('.', "/"))).collect();
        let classes = ClassPathSource::new(cp.clone(), user);
        let eligible = goals.goals.iter().filter(|g| is_eligible(g)).map(|g| g.id).collect();
        TemplateSource {
            config,
            cp,
            classes,
            goals: goals.clone(),
            eligible,
            ocgs: HashMap::new(),
            cache: Caches::default(),
            stats: Stats::default(),
        }
    }

    /// The OCG of `goal` (built once); `None` when it reads no field.
    pub fn ocg(&mut self, goal: GoalId) -> Option<Arc<Ocg>> {
        if let Some(found) = self.ocgs.get(&goal) {
            return found.clone();
        }
        let built =
            build_ocg(&self.classes, &self.goals, goal, self.config.limits()).filter(|o| !o.is_trivial()).map(Arc::new);
        self.ocgs.insert(goal, built.clone());
        built
    }

    /// A template for `goal`, validated; `None` when none can be made.
    pub fn template(
        &mut self,
        goal: GoalId,
        cluster: &TestCluster,
        seeds: &Seeds,
        rng: &mut ChaCha8Rng,
    ) -> Option<TestCase> {
        let Some(ocg) = self.ocg(goal) else {
            self.stats.trivial += 1;
            return None;
        };
        let target = target_call(cluster, self.goals.goal(goal))?;
        let mut accessors = Accessors::new(&self.classes).with_depth(self.config.call_depth);
        let inputs = Inputs { cp: &self.cp, cluster, seeds };
        let test = synthesise(&ocg, &target, inputs, &mut accessors, &mut self.cache, rng)?;
        self.stats.made += 1;
        if test.len() > self.config.max_statements {
            return None;
        }
        if let Err(e) = testcase::validate(&test, &self.cp) {
            tracing::debug!("evoobj template rejected: {e}\n{test}");
            return None;
        }
        self.stats.inserted += 1;
        tracing::trace!("evoobj template for {}:\n{test}", self.goals.goal(goal).key);
        Some(test)
    }
}

impl GoalSource for TemplateSource {
    fn test_for(
        &mut self,
        uncovered: &[GoalId],
        cluster: &TestCluster,
        seeds: &Seeds,
        rng: &mut ChaCha8Rng,
    ) -> Option<TestCase> {
        if !rng.random_bool(self.config.p_app) {
            return None;
        }
        let candidates: Vec<GoalId> = uncovered
            .iter()
            .copied()
            .filter(|g| self.eligible.contains(g) && !matches!(self.ocgs.get(g), Some(None)))
            .collect();
        let goal = *candidates.choose(rng)?;
        let start = Instant::now();
        self.stats.targets += 1;
        let test = self.template(goal, cluster, seeds, rng);
        self.stats.seconds += start.elapsed().as_secs_f64();
        test
    }

    fn name(&self) -> &'static str {
        "evoobj"
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        let s = self.stats;
        BTreeMap::from([
            ("targets".to_string(), s.targets as f64),
            ("trivial_graphs".to_string(), s.trivial as f64),
            ("templates_made".to_string(), s.made as f64),
            ("templates_inserted".to_string(), s.inserted as f64),
            ("synthesis_seconds".to_string(), s.seconds),
        ])
    }
}

/// Whether `goal` is a branch side or switch case of a method that takes
/// objects: an instance method, or one with a parameter of a reference
/// type other than `String` and the boxes.
pub fn is_eligible(goal: &Goal) -> bool {
    if !matches!(goal.kind, GoalKind::Branch { .. } | GoalKind::SwitchCase { .. }) {
        return false;
    }
    let Ok(descriptor) = model::descriptor::MethodDescriptor::parse(&goal.method_descriptor) else { return false };
    let takes_objects = descriptor.params.iter().any(|p| match p {
        model::descriptor::FieldType::Object(n) => !n.as_str().starts_with("java/lang/"),
        model::descriptor::FieldType::Array(_) => true,
        model::descriptor::FieldType::Base(_) => false,
    });
    takes_objects || goal.method_name != "<init>" && goal.method_name != "<clinit>"
}

/// The OCG of a branch or switch goal of `goals`.
pub fn build_ocg(classes: &dyn ClassSource, goals: &ClassGoals, goal: GoalId, limits: OcgLimits) -> Option<Ocg> {
    let g = goals.goal(goal);
    let cf = classes.class(g.class.as_str())?;
    ocg::build(&cf, g.method_index, g.bci, classes, limits)
}

/// The call under test of the cluster that runs the goal's method.
pub fn target_call(cluster: &TestCluster, goal: &Goal) -> Option<Callable> {
    let owner = goal.class.to_binary();
    cluster
        .calls_under_test()
        .iter()
        .find(|c| {
            c.method().is_some_and(|m| {
                m.owner == owner && m.name == goal.method_name && m.descriptor.to_descriptor() == goal.method_descriptor
            })
        })
        .cloned()
}
