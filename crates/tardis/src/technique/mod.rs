//! TARDIS as a technique of the pipeline (`generate::Technique`, TECHNIQUES.md
//! §5 step 5): a DSE step inside the search. When DynaMOSA stagnates (and
//! periodically) it hands over its population
//! ([`search::Variation::solved_tests`]); the step replays those tests
//! concolically ([`crate::concolic`]), makes the alternatives whose negated
//! branch side is a goal the search works on, adds them to the k-NN
//! selector ([`crate::classify`]), and solves the ones it selects with z3
//! ([`crate::solve`]). A model is written into a copy of the test (direct
//! DSE: every symbol is a literal of the test); the copy is replayed at once
//! (its alternatives join the queue) and goes back to the search, which
//! runs it on the JVM like any test.
//!
//! Training follows the paper: the sliced prefixes of replayed tests' paths and solved
//! alternatives are feasible examples, alternatives z3 proved
//! unsatisfiable are infeasible ones (one z3 left unanswered in time is no
//! example: a time-out proves nothing). The selector
//! lives as long as the class's search, so what it learns carries over
//! from step to step.
//!
//! An alternative over values the JVM logged is solved first with them
//! fixed (direct DSE); when only a change of a logged value would satisfy
//! it, it becomes a path-condition goal ([`crate::pcgoal`]) that the search
//! works on as a temporary objective ([`crate::objectives`]).
//!
//! `report.json`'s `techniques.tardis` counts the DSE steps, the tests
//! replayed, the alternatives made, those classified feasible when
//! selected, solved, proved unsatisfiable and unanswered, the tests made,
//! the goals they covered first, z3's seconds, and the path-condition
//! goals: alternatives satisfiable only indirectly (`indirect`), goals
//! made, reached and failed, and the seconds spent measuring tests
//! against them (`pc_seconds`).
//!
//! Cost control: a step solves at most [`DseSettings::solves_per_step`]
//! alternatives within [`DseSettings::step_budget`], the steps together take
//! at most [`DseSettings::max_share`] of the search's time, and after a step
//! that covered nothing the next 2, 4, 8, then 16 requests are skipped.
//!
//! Modules: [`frontier`] (the pending alternatives and the goals a step
//! wants solved) and [`pc`] (the path-condition goals' bookkeeping).

mod frontier;
mod pc;

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use analysis::GoalId;
use analysis::goals::ClassGoals;
use exec::ValueLog;
use generate::technique::GoalSource;
use generate::{ClassRun, Technique};
use instrument::probes::value_log::ValueLogProbes;
use model::classfile::ClassFile;
use rand_chacha::ChaCha8Rng;
use search::Executed;
use testcase::TestCase;
use testcase::cluster::TestCluster;
use testcase::seeds::Seeds;

use crate::classify::{Selector, Strategy, Verdict};
use crate::concolic::{replay_test_with, write_back};
use crate::fingerprint::{Fingerprint, canonical};
use crate::objectives::Objectives;
use crate::path::Clause;
use crate::reach::Reach;
use crate::replay::{Classes, Replay, Site, SiteTable};
use crate::solve::{Outcome, solve};
use frontier::{Frontier, Method, Pending};

/// How the DSE step works.
#[derive(Debug, Clone, Copy)]
pub struct DseSettings {
    /// How the next alternative is chosen (k-NN; FIFO and random for the ablation).
    pub strategy: Strategy,
    /// Alternatives sent to z3 per step at most.
    pub solves_per_step: usize,
    /// Tests of the population replayed per step at most (not replayed before).
    pub replays_per_step: usize,
    /// z3's time limit per alternative, in milliseconds.
    pub timeout_ms: u32,
    /// Wall-clock time a step may take at most.
    pub step_budget: Duration,
    /// The share of the search's time (since the source was made) the DSE
    /// steps may take together, from 0 to 1; a step is skipped while over it.
    pub max_share: f64,
}

impl Default for DseSettings {
    fn default() -> DseSettings {
        DseSettings {
            strategy: Strategy::Knn,
            solves_per_step: 10,
            replays_per_step: 20,
            timeout_ms: 500,
            step_budget: Duration::from_secs(2),
            max_share: 0.3,
        }
    }
}

/// TARDIS's technique: a DSE step in the search.
#[derive(Debug, Clone, Default)]
pub struct Tardis {
    settings: DseSettings,
    /// The logged call sites of this class's instrumented classes.
    sites: Arc<SiteTable>,
}

impl Tardis {
    /// The technique with `settings`.
    pub fn new(settings: DseSettings) -> Tardis {
        Tardis { settings, sites: Arc::default() }
    }
}

impl Technique for Tardis {
    fn name(&self) -> &'static str {
        "tardis"
    }

    /// Adds the value-log probes to the instrumented classes, so the replay
    /// can go past calls into the JDK (the log is off except for the tests
    /// a DSE step replays: [`GoalSource::tests_to_log`]).
    fn goals(&mut self, run: &mut ClassRun) {
        let mut sites = SiteTable::default();
        let mut base = 0;
        let classes: Vec<_> = run.instrumented.iter().map(|c| c.class.to_binary()).collect();
        let internal: BTreeSet<String> = run.instrumented.iter().map(|c| c.class.as_str().to_string()).collect();
        for class in classes {
            let Ok(cf) = run.cp.load(class.as_str()) else { continue };
            let probes = match ValueLogProbes::plan(&cf, base, &|c| internal.contains(c)) {
                Ok(p) if !p.sites.is_empty() => p,
                Ok(_) => continue,
                Err(e) => {
                    tracing::warn!("tardis: {class} logs no values: {e}");
                    continue;
                }
            };
            base += probes.sites.len() as u32;
            sites.add(&cf, &probes);
            if let Err(e) = run.reinstrument(&class, Box::new(probes)) {
                tracing::warn!("tardis: {class} logs no values: {e}");
            }
        }
        tracing::debug!(class = %run.class, sites = sites.len(), "tardis: value-log sites");
        self.sites = Arc::new(sites);
    }

    fn goal_source(&mut self, run: &ClassRun, _cluster: &TestCluster) -> Option<Box<dyn GoalSource>> {
        let files: Vec<ClassFile> = run
            .instrumented
            .iter()
            .filter_map(|c| run.cp.load(&c.class.as_str().replace('/', ".")).ok())
            .map(|cf| (*cf).clone())
            .collect();
        if files.is_empty() {
            return None;
        }
        let reach = Reach::of(&run.goals, &files);
        let classes = Classes::with_class_path(files, Arc::clone(&run.cp));
        let source =
            DseSource::new(classes, &run.goals, self.settings).with_sites(Arc::clone(&self.sites)).with_reach(reach);
        Some(Box::new(source))
    }
}

/// Calls of [`GoalSource::solved_tests`] skipped at most after steps that covered nothing.
const MAX_SKIP: u32 = 16;

/// The classifier ablation counts the satisfiable alternatives among the
/// first this many selected (`solved_of_first_30`).
const FIRST_SELECTED: f64 = 30.0;

/// The DSE step's state over one class's search.
pub struct DseSource {
    classes: Classes,
    sites: Arc<SiteTable>,
    reach: Arc<Reach>,
    goals: BTreeMap<Site, GoalId>,
    methods: BTreeMap<GoalId, Method>,
    created: Instant,
    spent: Duration,
    /// Steps in a row that covered nothing, and the calls still to skip.
    idle: u32,
    skip: u32,
    settings: DseSettings,
    selector: Selector<Pending>,
    seen_alternatives: BTreeSet<String>,
    /// Tests replayed (by [`test_key`]), and whether with a value log.
    seen_tests: BTreeMap<u64, bool>,
    /// When the search was last asked to log tests ([`GoalSource::tests_to_log`]).
    log_asked: Option<Instant>,
    /// The path-condition goals the search works on as temporary objectives.
    objectives: Objectives,
    /// Tests made between steps, handed to the search with the next step's:
    /// the tests new path-condition goals start from (the search may have
    /// dropped them) and tests solved for follow-ups.
    origins: Vec<TestCase>,
    /// The frontier of the last step: a test that reaches a path-condition
    /// goal is replayed at once against it.
    frontier: Option<Frontier>,
    /// Time with path-condition goals active (every test then runs with
    /// the value log), and since when they are.
    pc_time: Duration,
    pc_since: Option<Instant>,
    stats: BTreeMap<&'static str, f64>,
}

impl DseSource {
    /// A source over `classes` aiming at `goals`.
    pub fn new(classes: Classes, goals: &ClassGoals, settings: DseSettings) -> DseSource {
        let methods = goals
            .goals
            .iter()
            .filter(|g| g.kind.category() == "branch")
            .map(|g| (g.id, (g.class.as_str().to_string(), g.method_name.clone(), g.method_descriptor.clone())))
            .collect();
        DseSource {
            classes,
            sites: Arc::default(),
            reach: Arc::default(),
            goals: site_goals(goals),
            methods,
            created: Instant::now(),
            spent: Duration::ZERO,
            idle: 0,
            skip: 0,
            settings,
            selector: Selector::new(settings.strategy),
            seen_alternatives: BTreeSet::new(),
            seen_tests: BTreeMap::new(),
            log_asked: None,
            objectives: Objectives::default(),
            origins: Vec::new(),
            frontier: None,
            pc_time: Duration::ZERO,
            pc_since: None,
            stats: BTreeMap::new(),
        }
    }

    /// The source with the logged call sites of `classes`: the replay
    /// takes the results of calls into the JDK from a test's value log.
    pub fn with_sites(self, sites: Arc<SiteTable>) -> DseSource {
        DseSource { sites, ..self }
    }

    /// The source with what each branch side of the classes can lead to:
    /// alternatives aimed at covered sides that cannot lead to an uncovered
    /// goal are not solved (without it, every such side can).
    pub fn with_reach(self, reach: Reach) -> DseSource {
        DseSource { reach: Arc::new(reach), ..self }
    }

    /// Whether a step may run now: the steps are within their share of the
    /// search's time and no call is to be skipped.
    fn due(&self) -> bool {
        let within = self.spent.as_secs_f64() <= self.settings.max_share * self.created.elapsed().as_secs_f64();
        within && self.skip == 0
    }

    /// A step that covered nothing: the next `2^idle` calls (at most
    /// [`MAX_SKIP`]) are skipped, so a class where DSE does not pay off
    /// costs the search little.
    fn idle_step(&mut self) {
        self.idle = self.idle.saturating_add(1);
        self.skip = (1u32 << self.idle.min(8)).min(MAX_SKIP);
    }

    fn count(&mut self, key: &'static str, by: f64) {
        *self.stats.entry(key).or_default() += by;
    }

    /// Replays `test` (unless done before, or done before without a value
    /// log and `values` is one) and queues the alternatives the frontier
    /// wants (those aimed at `follow_up` as follow-ups of a reached
    /// path-condition goal); whether it replayed.
    fn replay(
        &mut self,
        test: &TestCase,
        values: Option<&ValueLog>,
        frontier: &Frontier,
        follow_up: Option<GoalId>,
    ) -> bool {
        let with_log = values.is_some() && !self.sites.is_empty();
        match self.seen_tests.entry(test_key(test)) {
            Entry::Occupied(mut had_log) if with_log && !*had_log.get() => *had_log.get_mut() = true,
            Entry::Occupied(_) => return false,
            Entry::Vacant(slot) => {
                slot.insert(with_log);
            }
        }
        self.count("tests_replayed", 1.0);
        let sites = Arc::clone(&self.sites);
        let log = values.filter(|_| with_log).map(|v| (v, &*sites));
        let replay = Arc::new(replay_test_with(&self.classes, test, log));
        if with_log {
            self.count("replays_with_log", 1.0);
            self.count("logged_values", replay.logged as f64);
        }
        if let Some(why) = &replay.stopped {
            let events = log.map(|(v, _)| v.events.len());
            tracing::debug!(why, clauses = replay.path.clauses.len(), ?events, "tardis: replay stopped");
            self.count("replays_stopped", 1.0);
        }
        if replay.path.clauses.is_empty() {
            return true;
        }
        for fp in Fingerprint::of_prefixes(&replay.path) {
            self.selector.learn(fp, true);
        }
        let test = Arc::new(test.clone());
        for negated in replay.path.negatable() {
            let Some(site) = replay.target(negated) else { continue };
            let Some(goal) = self.goals.get(&site).copied() else { continue };
            let method = (site.class, site.method, site.descriptor);
            if !frontier.wants(goal, &method) || !self.seen_alternatives.insert(key(&replay, negated)) {
                continue;
            }
            let alternative = replay.path.alternative(negated);
            self.count("alternatives", 1.0);
            let fp = Fingerprint::of(&alternative.clauses);
            let test = Arc::clone(&test);
            let follow_up = follow_up == Some(goal);
            let pending = Pending { test, replay: Arc::clone(&replay), alternative, goal, method, follow_up };
            self.selector.add(pending, fp);
        }
        true
    }

    /// Solves the next selected alternative (one aimed at an uncovered goal
    /// if any is pending); the test its model gives. An alternative over
    /// logged values is solved first with them fixed (direct: the model
    /// changes only literals of the test); when that fails and it is
    /// satisfiable with them free, it becomes a path-condition goal.
    fn solve_next(&mut self, frontier: &Frontier, rng: &mut ChaCha8Rng) -> Option<Option<TestCase>> {
        // Uncovered goals first, then follow-ups of a reached path-condition goal, then helpful sides.
        let next = match self.selector.next_among(rng, |p| frontier.goals.contains(&p.goal)) {
            Some(next) => Some(next),
            None => match self.selector.next_among(rng, |p| p.follow_up) {
                Some(next) => Some(next),
                None => self.selector.next_among(rng, |p| frontier.helpful.contains(&p.goal)),
            },
        };
        let selected = match next {
            Some(next) => next,
            None => self.selector.next(rng)?,
        };
        Some(self.solve_selected(selected))
    }

    /// Solves the alternative the selector chose; the test its model gives.
    fn solve_selected(&mut self, (pending, fp, verdict): (Pending, Fingerprint, Verdict)) -> Option<TestCase> {
        self.count("selected", 1.0);
        let early = self.stats.get("selected").copied().unwrap_or(0.0) <= FIRST_SELECTED;
        if verdict.feasible {
            self.count("classified_feasible", 1.0);
        }
        let replay = Arc::clone(&pending.replay);
        let clauses = replay.query(&pending.alternative);
        let logged = replay.logged_in(&clauses);
        let direct = if logged.is_empty() {
            self.solve(&clauses, &replay)
        } else if clauses.iter().flat_map(Clause::symbols).any(|id| !logged.contains_key(&id)) {
            self.solve(&replay.fixed(&clauses), &replay)
        } else {
            // Over logged values only: no literal of the test to change.
            Ok(Outcome::Unsat)
        };
        match direct {
            Ok(Outcome::Sat(model)) => {
                self.count("solved", 1.0);
                if early {
                    self.count("solved_of_first_30", 1.0);
                }
                self.selector.learn(fp, true);
                tracing::debug!(goal = pending.goal.0, "tardis: solved an alternative");
                Some(write_back(&pending.test, &replay, &model))
            }
            Ok(Outcome::Unsat) if !logged.is_empty() => {
                self.indirect(&pending, &clauses, fp);
                None
            }
            Ok(Outcome::Unsat) => {
                tracing::debug!(goal = pending.goal.0, clauses = ?clauses, "tardis: unsatisfiable");
                self.count("unsat", 1.0);
                self.selector.learn(fp, false);
                None
            }
            Ok(Outcome::Unknown) | Err(_) => {
                // A time-out proves nothing: no training example (the paper learns proved infeasibility).
                self.count("unknown", 1.0);
                None
            }
        }
    }

    /// `solve` within the step's time limit per query, counted.
    fn solve(&mut self, clauses: &[Clause], replay: &Replay) -> Result<Outcome, crate::smt::Unsupported> {
        let t = Instant::now();
        let outcome = solve(clauses, &replay.types(), &replay.values(), self.settings.timeout_ms);
        self.count("solver_seconds", t.elapsed().as_secs_f64());
        outcome
    }
}

impl GoalSource for DseSource {
    fn test_for(&mut self, _: &[GoalId], _: &TestCluster, _: &Seeds, _: &mut ChaCha8Rng) -> Option<TestCase> {
        None
    }

    fn tests_to_log(&mut self, tests: &[&TestCase]) -> Vec<usize> {
        if self.sites.is_empty() || !self.due() {
            return Vec::new();
        }
        self.log_asked = Some(Instant::now());
        let new = |t: &TestCase| self.seen_tests.get(&test_key(t)).is_none_or(|with_log| !with_log);
        tests.iter().enumerate().filter(|(_, t)| new(t)).map(|(i, _)| i).take(self.settings.replays_per_step).collect()
    }

    fn solved_tests(&mut self, tests: &[Executed<'_>], uncovered: &[GoalId], rng: &mut ChaCha8Rng) -> Vec<TestCase> {
        // The runs of the tests it asked logs of are the step's cost too.
        let logging = self.log_asked.take().map_or(Duration::ZERO, |t| t.elapsed());
        self.spent += logging;
        self.count("log_seconds", logging.as_secs_f64());
        if !self.due() {
            self.skip = self.skip.saturating_sub(1);
            return Vec::new();
        }
        let start = Instant::now();
        self.count("steps", 1.0);
        let frontier = Frontier::new(uncovered, &self.methods, Arc::clone(&self.reach));
        self.selector.retain(|p| frontier.wants(p.goal, &p.method));
        let methods = &self.methods;
        self.objectives.retain(|g| methods.get(&g).is_some_and(|m| frontier.wants(g, m)));
        let mut replays = 0;
        for test in tests {
            if replays >= self.settings.replays_per_step {
                break;
            }
            replays += usize::from(self.replay(test.test, test.values, &frontier, None));
        }
        let mut out = Vec::new();
        for _ in 0..self.settings.solves_per_step {
            if start.elapsed() > self.settings.step_budget {
                break;
            }
            match self.solve_next(&frontier, rng) {
                None => break,
                Some(Some(test)) => {
                    // Without a log now; the search's run of it brings one.
                    self.replay(&test, None, &frontier, None);
                    out.push(test);
                }
                Some(None) => {}
            }
        }
        self.count("tests", out.len() as f64);
        if out.is_empty() && self.origins.is_empty() {
            self.idle_step();
        }
        out.append(&mut self.origins);
        self.frontier = Some(frontier);
        self.track_pc_time();
        self.spent += start.elapsed();
        self.count("step_seconds", start.elapsed().as_secs_f64());
        out
    }

    fn solved_covered(&mut self, goals: usize) {
        self.count("goals_covered_by_dse", goals as f64);
        if goals == 0 && self.objectives.is_empty() {
            self.idle_step();
        } else {
            self.idle = 0;
        }
    }

    fn extra_fitness(&mut self, tests: &[&TestCase]) -> Vec<Vec<f64>> {
        if self.objectives.is_empty() {
            return Vec::new();
        }
        let keys: Vec<u64> = tests.iter().map(|t| test_key(t)).collect();
        self.objectives.fitness(&keys)
    }

    fn wants_value_logs(&self) -> bool {
        !self.objectives.is_empty()
    }

    /// Replays each test with its log and measures it against the active
    /// path-condition goals (the time counts as the DSE's).
    fn observe_logged(&mut self, tests: &[Executed<'_>]) {
        self.observe(tests);
    }

    fn name(&self) -> &'static str {
        "tardis"
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        self.stats.iter().map(|(k, v)| ((*k).to_string(), *v)).collect()
    }
}

/// A test's statements as a 64-bit hash (the statements hold floats, so no
/// `Hash` of their own: their debug text is hashed).
fn test_key(test: &TestCase) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    format!("{:?}", test.statements).hash(&mut h);
    h.finish()
}

/// The same prefix and negation from another run is the same alternative.
fn key(replay: &Replay, negated: usize) -> String {
    let clauses = &replay.path.clauses;
    let mut whole: Vec<Clause> = clauses[..negated].to_vec();
    whole.push(clauses[negated].negate());
    let mut names = BTreeMap::new();
    whole.iter().map(|c| canonical(c, &mut names, false)).collect::<Vec<_>>().join(" && ")
}

/// The goal of each branch side and switch case, by the site the replay
/// reports for it (a switch case by a key that reaches it).
fn site_goals(goals: &ClassGoals) -> BTreeMap<Site, GoalId> {
    let mut out = BTreeMap::new();
    let site = |goal: GoalId, bci: u32, taken: bool, key: Option<i32>| {
        let g = goals.goal(goal);
        Site {
            class: g.class.as_str().to_string(),
            method: g.method_name.clone(),
            descriptor: g.method_descriptor.clone(),
            bci,
            taken,
            key,
        }
    };
    for b in &goals.branches {
        out.insert(site(b.true_goal, b.bci, true, None), b.true_goal);
        out.insert(site(b.false_goal, b.bci, false, None), b.false_goal);
    }
    for sw in &goals.switches {
        for (keys, _, goal) in &sw.cases {
            for k in keys {
                out.insert(site(*goal, sw.bci, true, Some(*k)), *goal);
            }
        }
    }
    out
}
