//! The triage of uncovered goals: one cause per goal the final suite does
//! not cover ([`classify`]), so that a user learns why a branch stays red
//! and we learn which general cause to fix next. `report.json` lists each
//! uncovered goal with its cause and counts the branch goals by cause;
//! `ferrosuite bench triage` sums them over a corpus.
//!
//! A method is *entered* when any goal of it is covered. The causes, decided
//! in this order (the first that holds wins):
//!
//! 0. `lost-after-search`: a test of the search's archive covered the
//!    goal, but no emitted test does (`report.json`'s `lost_after_search`):
//!    the tests that covered it were cut (they tripped an `assert`, ended
//!    in an error of the JVM) or removed in verification (they failed
//!    under JUnit, after other tests or on the second JDK, or differed
//!    between environments; `removed_tests_by_cause` says which), or the
//!    goal needs static state the final suite's fresh JVM lacks (a static
//!    flag that another test sets first).
//! 1. `private-or-dead`: the goal's method was never entered and a test
//!    cannot call it: it is private, synthetic (a lambda body
//!    `lambda$...`), a bridge, a static initialiser, or a constructor or
//!    method of the class under test that is not among the test cluster's
//!    calls (an abstract class's constructor, say).
//!    So is a side of a jump whose condition is a constant
//!    ([`analysis::condition_inputs::GoalFacts::constant_condition`]: the
//!    `iconst_1; ifeq` javac 23+ emits for each record-pattern component).
//!    A private method that code of the class calls is not `private-or-dead`: its goals take
//!    the cause of a call site instead ([`Triage::caller_cause`]): in a
//!    method that ran, the cause of the condition that kept the call from
//!    running (rules 6–8; `search-budget` when none is found), else the
//!    cause of the call site's goal in its never-entered caller (a public
//!    method never called makes its private helpers `method-never-called`).
//! 2. `exception-path`: the goal lies in code reached only through an
//!    exception edge (a catch or finally handler;
//!    [`analysis::condition_inputs::GoalFacts::exception_only`]), whatever
//!    else holds.
//! 3. `nested-object-not-exercised`: a method of a nested, inner, local or
//!    anonymous class of the class under test, never entered, that the
//!    cluster cannot call (such as the iterator a method of the class
//!    returns: the tests never call methods of returned objects).
//! 4. `type-never-produced`: a callable method, never entered, with a
//!    parameter type (or, for an instance method, a receiver type) of
//!    which the cluster can make no value ([`TestCluster::can_make`]); an
//!    instance method of the class under test that the cluster left out
//!    because it cannot make the class counts here too.
//! 5. `method-never-called`: callable, every type producible, never entered.
//! 6. `environment`: the method was entered and the branch's condition calls
//!    an environment API (files, system properties, the clock, the network,
//!    threads, the runtime, random numbers;
//!    [`analysis::condition_inputs::is_environment_api`]).
//! 7. `object-state`: the method was entered and the condition reads a
//!    field or the result of an instance call: an object state the search
//!    never reached.
//! 8. `search-budget`: the method was entered and the condition depends on
//!    arguments, locals and constants only: the search did not find the
//!    values in its time.
//!
//! The condition of rules 6–8 is the goal's own branch or switch when that
//! decision ran (its other side, or another of its cases, is covered);
//! otherwise it is the nearest control-dependence ancestor whose decision
//! ran but whose side towards the goal is uncovered: that condition blocks
//! the goal (an argument test nested in an unreached field test counts as
//! `object-state`). Line, method and root-branch goals follow rules 1–5,
//! and are `search-budget` in an entered method.

use std::collections::{BTreeMap, BTreeSet};

use analysis::call_sites::{CallSite, call_sites};
use analysis::condition_inputs::{GoalFacts, goal_facts};
use analysis::goals::{ClassGoals, Goal, GoalId, GoalKind};
use model::access;
use model::classpath::ClassPath;
use model::descriptor::FieldType;
use model::names::InternalName;
use serde::{Deserialize, Serialize};
use testcase::cluster::{Callable, TestCluster};

/// Why a goal stays uncovered; the module documentation gives the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UncoveredCause {
    /// Covered in the search, by no emitted test.
    LostAfterSearch,
    /// Never entered, and no test can call the method.
    PrivateOrDead,
    /// Code reached only through an exception edge.
    ExceptionPath,
    /// A method of a nested or anonymous class the tests cannot call.
    NestedObjectNotExercised,
    /// A parameter or receiver type of which the cluster makes no value.
    TypeNeverProduced,
    /// Callable with producible types, but never entered.
    MethodNeverCalled,
    /// The condition reads the environment.
    Environment,
    /// The condition reads a field or the result of an instance call.
    ObjectState,
    /// The condition reads arguments, locals and constants only.
    SearchBudget,
}

impl UncoveredCause {
    /// Every cause, in the order the rules are tried.
    pub const ALL: [UncoveredCause; 9] = [
        UncoveredCause::LostAfterSearch,
        UncoveredCause::PrivateOrDead,
        UncoveredCause::ExceptionPath,
        UncoveredCause::NestedObjectNotExercised,
        UncoveredCause::TypeNeverProduced,
        UncoveredCause::MethodNeverCalled,
        UncoveredCause::Environment,
        UncoveredCause::ObjectState,
        UncoveredCause::SearchBudget,
    ];

    /// The kebab-case name used in `report.json` and tables (`private-or-dead`).
    pub fn name(self) -> &'static str {
        match self {
            UncoveredCause::LostAfterSearch => "lost-after-search",
            UncoveredCause::PrivateOrDead => "private-or-dead",
            UncoveredCause::ExceptionPath => "exception-path",
            UncoveredCause::NestedObjectNotExercised => "nested-object-not-exercised",
            UncoveredCause::TypeNeverProduced => "type-never-produced",
            UncoveredCause::MethodNeverCalled => "method-never-called",
            UncoveredCause::Environment => "environment",
            UncoveredCause::ObjectState => "object-state",
            UncoveredCause::SearchBudget => "search-budget",
        }
    }
}

impl std::fmt::Display for UncoveredCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One cause for every goal of `goals` (the class under test's goals with
/// its nested classes' appended) that is not in `covered`, in goal order.
/// `cp` (with the JDK) supplies the class files of the goals' classes,
/// `cluster` is the test cluster of the class under test and `archived`
/// the goals the search's archive covered.
///
/// Never fails: a class that cannot be read or analysed again only costs
/// its facts (its goals are then classified as if the methods were
/// public and their conditions read nothing), and is logged.
pub fn classify(
    cp: &ClassPath,
    goals: &ClassGoals,
    cluster: &TestCluster,
    covered: &BTreeSet<GoalId>,
    archived: &BTreeSet<GoalId>,
) -> Vec<(GoalId, UncoveredCause)> {
    let triage = Triage::new(cp, goals, cluster, covered);
    let cause = |g: &Goal| {
        if archived.contains(&g.id) { UncoveredCause::LostAfterSearch } else { triage.cause(g) }
    };
    goals.goals.iter().filter(|g| !covered.contains(&g.id)).map(|g| (g.id, cause(g))).collect()
}

/// The branch goals (kind category `branch`) among `causes`, counted by cause.
pub fn branch_counts(goals: &ClassGoals, causes: &[(GoalId, UncoveredCause)]) -> BTreeMap<UncoveredCause, usize> {
    let mut counts = BTreeMap::new();
    for (id, cause) in causes {
        if goals.goal(*id).kind.category() == "branch" {
            *counts.entry(*cause).or_default() += 1;
        }
    }
    counts
}

/// Most callers [`Triage::caller_cause`] goes up from a private method.
const MAX_CALLERS: u32 = 4;

/// Whether a never-entered method can be called by a test (rules 1, 3–5).
enum Reach {
    /// Rule 1.
    Never,
    /// Rule 3.
    Nested,
    /// Rule 4.
    MissingType,
    /// Rule 5.
    Callable,
}

/// What [`classify`] knows about the goals.
struct Triage<'a> {
    goals: &'a ClassGoals,
    cluster: &'a TestCluster,
    covered: &'a BTreeSet<GoalId>,
    facts: BTreeMap<GoalId, GoalFacts>,
    /// Indices (into `goals.methods`) of the methods with a covered goal.
    entered: BTreeSet<u16>,
    /// Access flags of the goals' methods, by index into `goals.methods`.
    access: BTreeMap<u16, u16>,
    /// The calls in the code of the goals' classes, with the calling class.
    calls: Vec<(InternalName, CallSite)>,
    /// [`Self::caller_cause`] by method index and depth: the same for
    /// every goal of a method.
    caller_causes: std::cell::RefCell<BTreeMap<(u16, u32), Option<UncoveredCause>>>,
}

impl<'a> Triage<'a> {
    fn new(cp: &ClassPath, goals: &'a ClassGoals, cluster: &'a TestCluster, covered: &'a BTreeSet<GoalId>) -> Self {
        let entered = covered.iter().map(|id| goals.goal(*id).method_index).collect();
        let mut triage = Triage {
            goals,
            cluster,
            covered,
            facts: BTreeMap::new(),
            entered,
            access: BTreeMap::new(),
            calls: Vec::new(),
            caller_causes: Default::default(),
        };
        let classes: BTreeSet<&InternalName> = goals.goals.iter().map(|g| &g.class).collect();
        for class in classes {
            let binary = class.to_binary();
            let cf = match cp.load(binary.as_str()) {
                Ok(cf) => cf,
                Err(e) => {
                    tracing::warn!("triage: {binary} left without facts: {e}");
                    continue;
                }
            };
            triage.calls.extend(call_sites(&cf).into_iter().map(|site| (class.clone(), site)));
            match goal_facts(&cf, goals) {
                Ok(facts) => triage.facts.extend(facts),
                Err(e) => tracing::warn!("triage: {binary} left without facts: {e}"),
            }
            for g in goals.goals.iter().filter(|g| &g.class == class) {
                let flags = cf
                    .methods
                    .iter()
                    .find(|m| cf.member_name(m) == g.method_name && cf.member_descriptor(m) == g.method_descriptor);
                triage.access.entry(g.method_index).or_insert(flags.map_or(0, |m| m.access));
            }
        }
        triage
    }

    fn cause(&self, goal: &Goal) -> UncoveredCause {
        self.cause_within(goal, 0)
    }

    /// [`Triage::cause`], `depth` callers up from the goal first asked about.
    fn cause_within(&self, goal: &Goal, depth: u32) -> UncoveredCause {
        let reach = (!self.entered.contains(&goal.method_index)).then(|| self.reach(goal));
        let facts = self.facts.get(&goal.id);
        if matches!(reach, Some(Reach::Never))
            && let Some(cause) = self.caller_cause(goal, depth)
        {
            return cause;
        }
        if matches!(reach, Some(Reach::Never)) || facts.is_some_and(|f| f.constant_condition) {
            return UncoveredCause::PrivateOrDead;
        }
        if self.facts.get(&goal.id).is_some_and(|f| f.exception_only) {
            return UncoveredCause::ExceptionPath;
        }
        match reach {
            Some(Reach::Nested) => UncoveredCause::NestedObjectNotExercised,
            Some(Reach::MissingType) => UncoveredCause::TypeNeverProduced,
            Some(_) => UncoveredCause::MethodNeverCalled,
            None if is_decision(goal) => self.condition_cause(self.blocking_decision(goal)),
            None => UncoveredCause::SearchBudget,
        }
    }

    /// The cause of a goal of a private method that never ran but that code
    /// of the class calls: the cause of the first call site in a method
    /// that ran (the condition that kept the call from running, rules 6–8;
    /// `search-budget` when none is found), else of the first call site's
    /// own goal in its never-entered caller, at most [`MAX_CALLERS`] callers
    /// up. `None` for other methods (lambdas, bridges, initialisers), for
    /// a method nothing calls, and past the depth.
    fn caller_cause(&self, goal: &Goal, depth: u32) -> Option<UncoveredCause> {
        let key = (goal.method_index, depth);
        if let Some(cause) = self.caller_causes.borrow().get(&key) {
            return *cause;
        }
        let cause = self.find_caller_cause(goal, depth);
        self.caller_causes.borrow_mut().insert(key, cause);
        cause
    }

    /// [`Self::caller_cause`], not memoised.
    fn find_caller_cause(&self, goal: &Goal, depth: u32) -> Option<UncoveredCause> {
        let flags = self.access.get(&goal.method_index).copied().unwrap_or(0);
        if depth >= MAX_CALLERS || flags & access::PRIVATE == 0 || flags & (access::SYNTHETIC | access::BRIDGE) != 0 {
            return None;
        }
        let sites: Vec<&Goal> = self
            .calls
            .iter()
            .filter(|(_, s)| {
                s.owner == goal.class.as_str() && s.name == goal.method_name && s.descriptor == goal.method_descriptor
            })
            .filter_map(|(class, s)| self.site_goal(class, s))
            .filter(|g| g.method_index != goal.method_index)
            .collect();
        let ran = sites.iter().find(|g| self.entered.contains(&g.method_index));
        if let Some(site) = ran {
            let blocking = self.blocking_decision(site);
            return Some(if blocking == site.id {
                UncoveredCause::SearchBudget
            } else {
                self.condition_cause(blocking)
            });
        }
        let first = sites.iter().find(|g| !self.entered.contains(&g.method_index))?;
        Some(self.cause_within(first, depth + 1))
    }

    /// The goal that stands for call site `site` of class `class`: the
    /// line goal of the caller that starts nearest before the call, else
    /// the caller's first goal.
    fn site_goal(&self, class: &InternalName, site: &CallSite) -> Option<&'a Goal> {
        let goals: &'a ClassGoals = self.goals;
        let of_caller = goals.goals.iter().filter(|g| {
            &g.class == class && g.method_name == site.caller_name && g.method_descriptor == site.caller_descriptor
        });
        let lines = of_caller.clone().filter(|g| matches!(g.kind, GoalKind::Line { .. }) && g.bci <= site.bci);
        lines.max_by_key(|g| g.bci).or_else(|| of_caller.min_by_key(|g| g.bci))
    }

    /// Whether and how a test could call the (never entered) method of `goal`.
    fn reach(&self, goal: &Goal) -> Reach {
        let flags = self.access.get(&goal.method_index).copied().unwrap_or(0);
        let name = goal.method_name.as_str();
        if flags & (access::PRIVATE | access::SYNTHETIC | access::BRIDGE) != 0
            || name.starts_with("lambda$")
            || name == "<clinit>"
        {
            return Reach::Never;
        }
        let is_cut = goal.class == self.goals.class;
        let is_instance = flags & access::STATIC == 0 && name != "<init>";
        match self.callable(goal) {
            Some(call) if self.makes_every_value(call) => Reach::Callable,
            Some(_) => Reach::MissingType,
            None if !is_cut => Reach::Nested,
            None if is_instance && !self.cluster.can_make(&FieldType::Object(goal.class.clone())) => Reach::MissingType,
            None => Reach::Never,
        }
    }

    /// The cluster's call of the goal's method: a call under test, or a
    /// modifier of the method's class.
    fn callable(&self, goal: &Goal) -> Option<&'a Callable> {
        let owner = goal.class.to_binary();
        let cluster: &'a TestCluster = self.cluster;
        cluster.calls_under_test().iter().chain(cluster.modifiers(owner.as_str())).find(|c| {
            c.method().is_some_and(|m| {
                m.owner == owner && m.name == goal.method_name && m.descriptor.to_descriptor() == goal.method_descriptor
            })
        })
    }

    /// Whether the cluster can make every argument and the receiver of `call`.
    fn makes_every_value(&self, call: &Callable) -> bool {
        call.params().iter().filter_map(|p| p.erasure()).chain(call.receiver()).all(|t| self.cluster.can_make(&t))
    }

    /// The decision that keeps `goal` (a branch or switch goal of an
    /// entered method) uncovered: its own when it ran, else the nearest
    /// ancestor that ran with its side towards `goal` uncovered.
    fn blocking_decision(&self, goal: &Goal) -> GoalId {
        let via = self.goals.approach_level(goal.id, |g| self.decision_ran(g)).map(|a| a.via);
        match via {
            Some(v) if is_decision(self.goals.goal(v)) && !self.covered.contains(&v) => v,
            _ => goal.id,
        }
    }

    /// Whether the decision of goal `id` ran: a side or case of its branch
    /// or switch is covered (for other goals: the goal is covered).
    fn decision_ran(&self, id: GoalId) -> bool {
        let covered = |g: &GoalId| self.covered.contains(g);
        match &self.goals.goal(id).kind {
            GoalKind::Branch { branch, .. } => {
                let site = &self.goals.branches[branch.0 as usize];
                covered(&site.true_goal) || covered(&site.false_goal)
            }
            GoalKind::SwitchCase { switch, .. } => {
                let site = &self.goals.switches[switch.0 as usize];
                site.default.1.as_ref().is_some_and(covered) || site.cases.iter().any(|(_, _, g)| covered(g))
            }
            _ => covered(&id),
        }
    }

    /// Rules 6–8 on the condition of decision `id`.
    fn condition_cause(&self, id: GoalId) -> UncoveredCause {
        let Some(inputs) = self.facts.get(&id).map(|f| &f.inputs) else { return UncoveredCause::SearchBudget };
        if !inputs.environment.is_empty() {
            UncoveredCause::Environment
        } else if inputs.reads_object_state() {
            UncoveredCause::ObjectState
        } else {
            UncoveredCause::SearchBudget
        }
    }
}

fn is_decision(goal: &Goal) -> bool {
    matches!(goal.kind, GoalKind::Branch { .. } | GoalKind::SwitchCase { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::names::BinaryName;
    use testcase::cluster::ClusterOptions;

    /// The fixture of `testdata/triage`, compiled, on a class path with the JDK.
    fn fixture_class_path(out: &std::path::Path) -> ClassPath {
        let jdk = model::jdk::Jdk::find().expect("a JDK");
        let src = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/triage/src/triage/");
        let out_text = out.display().to_string();
        for file in ["Handle.java", "Triage.java"] {
            javarun::javac(&jdk, std::path::Path::new(&format!("{src}{file}")), &out_text, out).expect("javac");
        }
        ClassPath::parse(&out_text).unwrap().with_jdk(&jdk.home).unwrap()
    }

    /// The goals of the methods entered in the run the test imagines:
    /// every goal on the normal path of `parse`, `clock`, `state` and
    /// `magic` but the branches' `true` sides, the side of `delegate`'s test
    /// that skips the helper's call (the jump's `true`) and its first line, the `true` side of
    /// `guarded`'s outer test (the body is skipped), and `<init>` and `add`.
    fn imagined_run(goals: &ClassGoals) -> BTreeSet<GoalId> {
        let line = |g: &Goal, method: &str| g.method_name == method && g.kind.category() == "line";
        goals
            .goals
            .iter()
            .filter(|g| {
                let key = g.key.as_str();
                matches!(g.method_name.as_str(), "<init>" | "add") && g.class.as_str() == "triage/Triage"
                    || ["clock", "state", "magic"].contains(&g.method_name.as_str()) && !key.ends_with(":true")
                    || g.method_name == "delegate"
                        && (key.starts_with("method:") || key.ends_with(":true") || g.bci == 0)
                    || g.method_name == "guarded" && (key.starts_with("method:") || key.ends_with("@4:true"))
                    || g.method_name == "parse" && (key.starts_with("method:") || line(g, "parse") && g.bci == 0)
            })
            .map(|g| g.id)
            .collect()
    }

    #[test]
    fn each_uncovered_goal_gets_the_first_cause_that_holds() {
        let dir = tempfile::tempdir().unwrap();
        let cp = fixture_class_path(dir.path());
        let cut = BinaryName::new("triage.Triage");
        let goals = crate::prepare::goals_with_nested(&cp, &cut).unwrap();
        let cluster = TestCluster::build(&cp, cut.as_str(), &ClusterOptions::default()).unwrap();
        let covered = imagined_run(&goals);
        let causes = classify(&cp, &goals, &cluster, &covered, &BTreeSet::new());
        assert_eq!(causes.len(), goals.goals.len() - covered.len());
        // The causes of the branch goals, per method.
        let mut by_method: BTreeMap<String, BTreeSet<UncoveredCause>> = BTreeMap::new();
        for (id, cause) in &causes {
            let g = goals.goal(*id);
            if is_decision(g) {
                by_method.entry(g.method_name.clone()).or_default().insert(*cause);
            }
        }
        let expected = [
            ("clock", UncoveredCause::Environment),
            ("delegate", UncoveredCause::ObjectState),
            ("guarded", UncoveredCause::ObjectState),
            ("helped", UncoveredCause::ObjectState),
            ("hasNext", UncoveredCause::NestedObjectNotExercised),
            ("hidden", UncoveredCause::PrivateOrDead),
            ("lambda$task$0", UncoveredCause::PrivateOrDead),
            ("magic", UncoveredCause::SearchBudget),
            ("never", UncoveredCause::MethodNeverCalled),
            ("parse", UncoveredCause::ExceptionPath),
            ("state", UncoveredCause::ObjectState),
            ("withHandle", UncoveredCause::TypeNeverProduced),
        ];
        let expected: BTreeMap<String, BTreeSet<UncoveredCause>> =
            expected.into_iter().map(|(m, c)| (m.to_string(), BTreeSet::from([c]))).collect();
        assert_eq!(by_method, expected);
        // guarded: the inner test (x == 7) never ran; the outer field test blocks it.
        let uncovered = |method: &str, decision: bool| -> Vec<UncoveredCause> {
            let of = |id: &GoalId| goals.goal(*id).method_name == method && is_decision(goals.goal(*id)) == decision;
            causes.iter().filter(|(id, _)| of(id)).map(|(_, c)| *c).collect()
        };
        assert_eq!(uncovered("guarded", true), [UncoveredCause::ObjectState; 3]);
        // Lines: in an entered method, search-budget; in a method never entered, the method's cause.
        assert!(!uncovered("guarded", false).is_empty());
        assert!(uncovered("guarded", false).iter().all(|c| *c == UncoveredCause::SearchBudget));
        assert!(uncovered("iterator", false).iter().all(|c| *c == UncoveredCause::MethodNeverCalled));
        assert!(uncovered("task", false).iter().all(|c| *c == UncoveredCause::MethodNeverCalled));
        assert!(uncovered("next", false).iter().all(|c| *c == UncoveredCause::NestedObjectNotExercised));
        assert!(uncovered("parse", false).iter().all(|c| *c == UncoveredCause::ExceptionPath));
        // A private method that never ran takes the cause of the call its caller did not make.
        assert!(!uncovered("helped", false).is_empty());
        assert!(uncovered("helped", false).iter().all(|c| *c == UncoveredCause::ObjectState));
        // A goal the search's archive covered is lost-after-search, whatever else holds.
        let never_called = |(id, c): &&(GoalId, UncoveredCause)| {
            *c == UncoveredCause::MethodNeverCalled && is_decision(goals.goal(*id))
        };
        let lost = causes.iter().find(never_called).unwrap().0;
        let again = classify(&cp, &goals, &cluster, &covered, &BTreeSet::from([lost]));
        assert_eq!(again.len(), causes.len());
        for ((id, before), (same, after)) in causes.iter().zip(&again) {
            assert_eq!(id, same);
            assert_eq!(*after, if *id == lost { UncoveredCause::LostAfterSearch } else { *before });
        }
        let counts = branch_counts(&goals, &again);
        assert_eq!(counts.keys().copied().collect::<Vec<_>>(), UncoveredCause::ALL);
    }

    #[test]
    fn causes_serialise_in_kebab_case() {
        for cause in UncoveredCause::ALL {
            assert_eq!(serde_json::to_string(&cause).unwrap(), format!("\"{}\"", cause.name()));
        }
    }
}
