//! From a trace to goals: which goals of a class an execution covered, and
//! the branch distances of the branch goals it reached but did not cover.
//!
//! A [`GoalMap`] joins the goals of a class (`analysis`) with the probe ids
//! the instrumenter gave it (`instrument`): site k of a kind in the class's
//! probe plan has global id `base + k`, and the plan lists the sites in the
//! order of `ClassGoals::branches`, `switches`, `lines()` and
//! `methods_with_goal()`.
//!
//! A branch side, switch case or root goal whose code can throw before
//! JaCoCo's next probe counts only when one of its commit points ran too
//! (`analysis::commit`): the search then counts goals as the final JaCoCo
//! report does, and keeps pursuing a side whose tests all throw too early.

use std::collections::{BTreeMap, BTreeSet};

// Keyed by probe ids, small integers the class path chose, not an attacker: the fast Fx hash.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use analysis::commit::{CommitRules, Leaf, Rule};
use analysis::goals::{ClassGoals, GoalId};
use instrument::InstrumentedClass;
use instrument::trace::{BranchRecord, Relation};

use crate::{ExecutionResult, StatementOutcome, TestOutcome, Trace};

/// A goal covered when a call at a site throws a given exception (KAT's
/// "reach the call and have it throw", TECHNIQUES.md §2 step 3): the stack
/// trace shows `callee` directly inside `method` of `class` at `line`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThrowSite {
    /// The goal.
    pub goal: GoalId,
    /// Binary name of the class holding the call.
    pub class: String,
    /// Name of the method holding the call.
    pub method: String,
    /// Source line of the call, when the class has line numbers.
    pub line: Option<u32>,
    /// Name of the called method.
    pub callee: String,
    /// Binary names of the exception classes that count (the documented one
    /// and its subclasses).
    pub exceptions: Vec<String>,
}

impl ThrowSite {
    /// Whether `frames` (innermost first) and the exception class show the
    /// call at this site throwing one of the exceptions.
    fn matches(&self, class: &str, frames: &[crate::StackFrame]) -> bool {
        if !self.exceptions.iter().any(|e| e == class) {
            return false;
        }
        let Some(p) = frames.iter().position(|f| f.class == self.class) else { return false };
        let at = &frames[p];
        p > 0
            && at.method == self.method
            && (self.line.is_none() || at.line == self.line)
            && frames[p - 1].method == self.callee
    }
}

/// The goals behind one switch probe: per case its keys, goal and gates,
/// and the goal and gates of the default.
#[derive(Debug, Clone)]
struct SwitchGoals {
    cases: Vec<(Vec<i32>, GoalId, Gates)>,
    /// `None` for the default of an exhaustive switch, which has no goal.
    default: (Option<GoalId>, Gates),
}

/// One way a goal's commit point shows in a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gate {
    /// This line-kind probe (a commit probe) ran.
    Hit(u32),
    /// The branch record with this probe id took its jump.
    Taken(u32, Relation),
}

/// The gates of a goal: `None` when reaching it is enough, else one of
/// them must show.
type Gates = Option<Vec<Gate>>;

/// The raw distance of a branch side that was taken but whose code threw
/// before its commit point: nearly covered, yet not 0.
pub const UNCOMMITTED_DISTANCE: f64 = 1e-3;

/// What a trace shows of commit points, looked up once per trace.
struct Shown<'t> {
    hits: HashSet<u32>,
    records: HashMap<u32, &'t BranchRecord>,
}

impl<'t> Shown<'t> {
    fn of(trace: &'t Trace, gated: bool) -> Shown<'t> {
        if !gated {
            return Shown { hits: HashSet::default(), records: HashMap::default() };
        }
        Shown {
            hits: trace.lines.iter().map(|(id, _)| *id).collect(),
            records: trace.branches.iter().map(|(id, r)| (*id, r)).collect(),
        }
    }

    fn passes(&self, gates: &Gates) -> bool {
        gates.as_ref().is_none_or(|gates| {
            gates.iter().any(|g| match g {
                Gate::Hit(id) => self.hits.contains(id),
                Gate::Taken(id, rel) => self.records.get(id).is_some_and(|r| r.taken(*rel, true)),
            })
        })
    }
}

/// Maps the global probe ids of one instrumented class to its goals.
#[derive(Debug, Clone, Default)]
pub struct GoalMap {
    /// Branch probe id → (goal of the taken side, of the fall-through side,
    /// relation, gates of each side).
    branches: HashMap<u32, (GoalId, GoalId, Relation, [Gates; 2])>,
    switches: HashMap<u32, SwitchGoals>,
    lines: HashMap<u32, GoalId>,
    /// Method probe id → method goal, root-branch goal (if any) and the
    /// root's gates.
    methods: HashMap<u32, (GoalId, Option<GoalId>, Gates)>,
    /// Whether any goal has gates (else traces need no look-up tables).
    gated: bool,
    /// Call-condition probe id (a branch record whose Eq count says the
    /// condition held) → goal.
    conditions: HashMap<u32, GoalId>,
    /// Goals covered by an exception thrown at a call.
    throws: Vec<ThrowSite>,
}

impl GoalMap {
    /// The map for a class instrumented from `goals` (the plan must have
    /// been built by `ProbePlan::from_goals(goals)`).
    pub fn new(goals: &ClassGoals, class: &InstrumentedClass) -> GoalMap {
        let b = class.bases;
        let gates = GateMaker::new(goals, class);
        let mut map = GoalMap::default();
        for (k, site) in goals.branches.iter().enumerate() {
            if let Some(rel) = Relation::of_opcode(site.opcode) {
                let [t, f] = gates.rules.branches.get(k).cloned().unwrap_or_default();
                let sides = [gates.make(site.method_index, &t), gates.make(site.method_index, &f)];
                map.branches.insert(b.branch + k as u32, (site.true_goal, site.false_goal, rel, sides));
            }
        }
        for (k, site) in goals.switches.iter().enumerate() {
            let (case_rules, default_rule) = gates.rules.switches.get(k).cloned().unwrap_or_default();
            let rule = |i: usize| case_rules.get(i).cloned().flatten();
            let cases = site
                .cases
                .iter()
                .enumerate()
                .map(|(i, (keys, _, g))| (keys.clone(), *g, gates.make(site.method_index, &rule(i))))
                .collect();
            let default = (site.default.1, gates.make(site.method_index, &default_rule));
            map.switches.insert(b.switch + k as u32, SwitchGoals { cases, default });
        }
        for (k, line) in class.plan.lines.iter().enumerate() {
            if let Some(g) = goals.line_goal(*line) {
                map.lines.insert(b.line + k as u32, g);
            }
        }
        for (k, m) in class.plan.methods.iter().enumerate() {
            if let Some(g) = goals.method_goal(*m) {
                let root = goals.methods.get(usize::from(*m)).and_then(|mg| mg.root_branch_goal);
                let rule = gates.rules.roots.get(m).cloned().flatten();
                map.methods.insert(b.method + k as u32, (g, root, gates.make(*m, &rule)));
            }
        }
        map.gated = !gates.rules.is_empty();
        map
    }

    /// Adds a goal covered when the condition measured by call-condition
    /// probe `probe` (`instrument::probes::call_condition`) holds.
    pub fn add_condition_goal(&mut self, probe: u32, goal: GoalId) {
        self.conditions.insert(probe, goal);
    }

    /// Adds a goal covered when a call throws ([`ThrowSite`]).
    pub fn add_throw_goal(&mut self, site: ThrowSite) {
        self.throws.push(site);
    }

    /// Adds the map of another class whose goals were appended to this
    /// class's with `ClassGoals::append` (`goal_offset` is the number of
    /// goals before the append). Probe ids are global, so they do not clash.
    pub fn append(&mut self, other: GoalMap, goal_offset: u32) {
        let shift = |id: GoalId| GoalId(id.0 + goal_offset);
        for (probe, (t, f, rel, gates)) in other.branches {
            self.branches.insert(probe, (shift(t), shift(f), rel, gates));
        }
        for (probe, mut sw) in other.switches {
            sw.cases.iter_mut().for_each(|(_, g, _)| *g = shift(*g));
            sw.default.0 = sw.default.0.map(shift);
            self.switches.insert(probe, sw);
        }
        self.lines.extend(other.lines.into_iter().map(|(probe, g)| (probe, shift(g))));
        self.methods
            .extend(other.methods.into_iter().map(|(probe, (m, r, gates))| (probe, (shift(m), r.map(shift), gates))));
        self.gated |= other.gated;
        self.conditions.extend(other.conditions.into_iter().map(|(probe, g)| (probe, shift(g))));
        self.throws.extend(other.throws.into_iter().map(|t| ThrowSite { goal: shift(t.goal), ..t }));
    }

    /// The goals of this class that the execution covered: those its trace
    /// shows ([`Self::covered`]) and those of the [`ThrowSite`]s its
    /// exceptions match. None when the test timed out or crashed its
    /// worker: such a test cannot be emitted (under JUnit it never ends),
    /// so what it ran covers nothing a suite can keep.
    pub fn covered_by(&self, result: &ExecutionResult) -> BTreeSet<GoalId> {
        self.covered_by_shown(result, &Shown::of(&result.trace, self.gated))
    }

    /// [`Self::covered_by`] and [`Self::branch_distances`] of one
    /// execution, with the trace looked up once: what the search's fitness
    /// reads of every execution.
    pub fn observe(&self, result: &ExecutionResult) -> (BTreeSet<GoalId>, BTreeMap<GoalId, f64>) {
        let shown = Shown::of(&result.trace, self.gated);
        (self.covered_by_shown(result, &shown), self.distances_shown(&result.trace, &shown))
    }

    fn covered_by_shown(&self, result: &ExecutionResult, shown: &Shown<'_>) -> BTreeSet<GoalId> {
        if matches!(result.outcome, TestOutcome::Timeout | TestOutcome::Crashed { .. }) {
            return BTreeSet::new();
        }
        let mut out = self.covered_shown(&result.trace, shown);
        if self.throws.is_empty() {
            return out;
        }
        for o in &result.statements {
            if let StatementOutcome::Threw(info) = o {
                let class = info.class.as_str();
                out.extend(self.throws.iter().filter(|t| t.matches(class, &info.frames)).map(|t| t.goal));
            }
        }
        out
    }

    /// The goals of this class that the execution covered: a branch side,
    /// switch case or root goal only when its gates pass (module docs).
    pub fn covered(&self, trace: &Trace) -> BTreeSet<GoalId> {
        self.covered_shown(trace, &Shown::of(trace, self.gated))
    }

    fn covered_shown(&self, trace: &Trace, shown: &Shown<'_>) -> BTreeSet<GoalId> {
        let mut out = BTreeSet::new();
        for (id, record) in &trace.branches {
            if let Some((t, f, rel, [tg, fg])) = self.branches.get(id) {
                if record.taken(*rel, true) && shown.passes(tg) {
                    out.insert(*t);
                }
                if record.taken(*rel, false) && shown.passes(fg) {
                    out.insert(*f);
                }
            } else if let Some(g) = self.conditions.get(id).filter(|_| record.taken(Relation::Eq, true)) {
                out.insert(*g);
            }
        }
        for (id, values) in &trace.switches {
            if let Some(s) = self.switches.get(id) {
                out.extend(values.iter().filter_map(|v| s.goal_of(*v, shown)));
            }
        }
        out.extend(trace.lines.iter().filter_map(|(id, _)| self.lines.get(id).copied()));
        for (id, _) in &trace.methods {
            if let Some((m, root, gates)) = self.methods.get(id) {
                out.insert(*m);
                out.extend(root.filter(|_| shown.passes(gates)));
            }
        }
        out
    }

    /// Branch distance of every branch goal whose jump was executed,
    /// covered (0.0) or not (TECHNIQUES.md §0), and of every call-condition
    /// goal whose call was reached (the least distance of its condition).
    /// A side taken whose gates did not pass gets [`UNCOMMITTED_DISTANCE`].
    pub fn branch_distances(&self, trace: &Trace) -> BTreeMap<GoalId, f64> {
        self.distances_shown(trace, &Shown::of(trace, self.gated))
    }

    fn distances_shown(&self, trace: &Trace, shown: &Shown<'_>) -> BTreeMap<GoalId, f64> {
        let mut out = BTreeMap::new();
        let distance = |record: &BranchRecord, rel: Relation, side: bool, gates: &Gates| {
            let d = record.distance(rel, side);
            if d == 0.0 && !shown.passes(gates) { UNCOMMITTED_DISTANCE } else { d }
        };
        for (id, record) in &trace.branches {
            if let Some((t, f, rel, [tg, fg])) = self.branches.get(id) {
                out.insert(*t, distance(record, *rel, true, tg));
                out.insert(*f, distance(record, *rel, false, fg));
            } else if let Some(g) = self.conditions.get(id) {
                out.insert(*g, record.distance(Relation::Eq, true));
            }
        }
        out
    }
}

impl SwitchGoals {
    fn goal_of(&self, value: i32, shown: &Shown<'_>) -> Option<GoalId> {
        let (goal, gates) = match self.cases.iter().find(|(keys, _, _)| keys.contains(&value)) {
            Some((_, g, gates)) => (Some(*g), gates),
            None => (self.default.0, &self.default.1),
        };
        goal.filter(|_| shown.passes(gates))
    }
}

/// Turns a class's commit rules into gates over its global probe ids.
struct GateMaker<'a> {
    goals: &'a ClassGoals,
    rules: &'a CommitRules,
    class: &'a InstrumentedClass,
    /// Methods that lost their line-kind probes (`InstrumentedClass::skipped`):
    /// their goals count by the jump alone.
    unprobed: HashSet<u16>,
}

impl<'a> GateMaker<'a> {
    fn new(goals: &'a ClassGoals, class: &'a InstrumentedClass) -> GateMaker<'a> {
        let skipped: HashSet<&str> = class.skipped.iter().map(|s| s.method.as_str()).collect();
        let unprobed = goals
            .methods
            .iter()
            .filter(|m| skipped.contains(format!("{} {}", m.name, m.descriptor).as_str()))
            .map(|m| m.index)
            .collect();
        GateMaker { goals, rules: &class.plan.commits, class, unprobed }
    }

    fn make(&self, method_index: u16, rule: &Rule) -> Gates {
        let leaves = rule.as_ref().filter(|_| !self.unprobed.contains(&method_index))?;
        let plan = &self.class.plan;
        let gate = |leaf: &Leaf| match leaf {
            Leaf::Point(k) => Some(Gate::Hit(plan.commit_probe_id(self.class.bases, *k))),
            Leaf::Taken(b) => {
                let rel = Relation::of_opcode(self.goals.branches.get(b.0 as usize)?.opcode)?;
                Some(Gate::Taken(self.class.bases.branch + b.0, rel))
            }
        };
        // A leaf that cannot be observed leaves the goal to its jump alone.
        leaves.iter().map(gate).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use model::names::BinaryName;

    use super::*;
    use crate::{CapturedOutput, ExceptionInfo, StackFrame, TestOutcome};

    fn frame(class: &str, method: &str, line: u32) -> StackFrame {
        StackFrame { class: class.into(), method: method.into(), line: Some(line) }
    }

    fn threw(class: &str, frames: Vec<StackFrame>) -> ExecutionResult {
        let info = ExceptionInfo { class: BinaryName::new(class), message: None, direct: false, frames };
        ExecutionResult {
            outcome: TestOutcome::Completed,
            statements: vec![StatementOutcome::Normal(crate::ValueSummary::Void), StatementOutcome::Threw(info)],
            trace: Trace::default(),
            output: CapturedOutput::default(),
            duration: Duration::ZERO,
        }
    }

    #[test]
    fn a_throw_site_is_covered_by_its_exception_thrown_by_the_call_at_its_line() {
        let mut map = GoalMap::default();
        map.add_throw_goal(ThrowSite {
            goal: GoalId(7),
            class: "p.Parser".into(),
            method: "parse".into(),
            line: Some(88),
            callee: "charAt".into(),
            exceptions: vec![
                "java.lang.IndexOutOfBoundsException".into(),
                "java.lang.StringIndexOutOfBoundsException".into(),
            ],
        });
        let at = |line| {
            vec![
                frame("java.lang.StringLatin1", "charAt", 48),
                frame("java.lang.String", "charAt", 1515),
                frame("p.Parser", "parse", line),
                frame("p.Parser", "run", 12),
            ]
        };
        let sioobe = "java.lang.StringIndexOutOfBoundsException";
        assert_eq!(map.covered_by(&threw(sioobe, at(88))), BTreeSet::from([GoalId(7)]));
        assert!(map.covered_by(&threw(sioobe, at(89))).is_empty(), "another line");
        assert!(map.covered_by(&threw("java.lang.NullPointerException", at(88))).is_empty(), "another exception");
        let direct = vec![frame("p.Parser", "parse", 88), frame("p.Parser", "run", 12)];
        assert!(map.covered_by(&threw(sioobe, direct)).is_empty(), "not thrown inside the call");
        let mut never_ends = threw(sioobe, at(88));
        never_ends.outcome = TestOutcome::Timeout;
        assert!(map.covered_by(&never_ends).is_empty(), "a test that timed out covers nothing");
    }
}
