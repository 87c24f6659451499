//! From a trace to goals: which goals of a class an execution covered, and
//! the branch distances of the branch goals it reached but did not cover.
//!
//! A [`GoalMap`] joins the goals of a class (`analysis`) with the probe ids
//! the instrumenter gave it (`instrument`): site k of a kind in the class's
//! probe plan has global id `base + k`, and the plan lists the sites in the
//! order of `ClassGoals::branches`, `switches`, `lines()` and
//! `methods_with_goal()`.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use analysis::goals::{ClassGoals, GoalId};
use instrument::InstrumentedClass;
use instrument::trace::Relation;

use crate::Trace;

/// The goals behind one switch probe: per case its keys and goal, and the
/// goal of the default.
#[derive(Debug, Clone)]
struct SwitchGoals {
    cases: Vec<(Vec<i32>, GoalId)>,
    /// `None` for the default of an exhaustive switch, which has no goal.
    default: Option<GoalId>,
}

/// Maps the global probe ids of one instrumented class to its goals.
#[derive(Debug, Clone, Default)]
pub struct GoalMap {
    /// Branch probe id → (goal of the taken side, of the fall-through side, relation).
    branches: HashMap<u32, (GoalId, GoalId, Relation)>,
    switches: HashMap<u32, SwitchGoals>,
    lines: HashMap<u32, GoalId>,
    /// Method probe id → method goal and root-branch goal (if any).
    methods: HashMap<u32, (GoalId, Option<GoalId>)>,
}

impl GoalMap {
    /// The map for a class instrumented from `goals` (the plan must have
    /// been built by `ProbePlan::from_goals(goals)`).
    pub fn new(goals: &ClassGoals, class: &InstrumentedClass) -> GoalMap {
        let b = class.bases;
        let mut map = GoalMap::default();
        for (k, site) in goals.branches.iter().enumerate() {
            if let Some(rel) = Relation::of_opcode(site.opcode) {
                map.branches.insert(b.branch + k as u32, (site.true_goal, site.false_goal, rel));
            }
        }
        for (k, site) in goals.switches.iter().enumerate() {
            let cases = site.cases.iter().map(|(keys, _, g)| (keys.clone(), *g)).collect();
            map.switches.insert(b.switch + k as u32, SwitchGoals { cases, default: site.default.1 });
        }
        for (k, line) in class.plan.lines.iter().enumerate() {
            if let Some(g) = goals.line_goal(*line) {
                map.lines.insert(b.line + k as u32, g);
            }
        }
        for (k, m) in class.plan.methods.iter().enumerate() {
            if let Some(g) = goals.method_goal(*m) {
                let root = goals.methods.get(usize::from(*m)).and_then(|mg| mg.root_branch_goal);
                map.methods.insert(b.method + k as u32, (g, root));
            }
        }
        map
    }

    /// Adds the map of another class whose goals were appended to this
    /// class's with `ClassGoals::append` (`goal_offset` is the number of
    /// goals before the append). Probe ids are global, so they do not clash.
    pub fn append(&mut self, other: GoalMap, goal_offset: u32) {
        let shift = |id: GoalId| GoalId(id.0 + goal_offset);
        for (probe, (t, f, rel)) in other.branches {
            self.branches.insert(probe, (shift(t), shift(f), rel));
        }
        for (probe, mut sw) in other.switches {
            sw.cases.iter_mut().for_each(|(_, g)| *g = shift(*g));
            sw.default = sw.default.map(shift);
            self.switches.insert(probe, sw);
        }
        self.lines.extend(other.lines.into_iter().map(|(probe, g)| (probe, shift(g))));
        self.methods.extend(other.methods.into_iter().map(|(probe, (m, r))| (probe, (shift(m), r.map(shift)))));
    }

    /// The goals of this class that the execution covered.
    pub fn covered(&self, trace: &Trace) -> BTreeSet<GoalId> {
        let mut out = BTreeSet::new();
        for (id, record) in &trace.branches {
            if let Some((t, f, rel)) = self.branches.get(id) {
                if record.taken(*rel, true) {
                    out.insert(*t);
                }
                if record.taken(*rel, false) {
                    out.insert(*f);
                }
            }
        }
        for (id, values) in &trace.switches {
            if let Some(s) = self.switches.get(id) {
                out.extend(values.iter().filter_map(|v| s.goal_of(*v)));
            }
        }
        out.extend(trace.lines.iter().filter_map(|(id, _)| self.lines.get(id).copied()));
        for (id, _) in &trace.methods {
            if let Some((m, root)) = self.methods.get(id) {
                out.insert(*m);
                out.extend(*root);
            }
        }
        out
    }

    /// Branch distance of every branch goal whose jump was executed,
    /// covered (0.0) or not (TECHNIQUES.md §0).
    pub fn branch_distances(&self, trace: &Trace) -> BTreeMap<GoalId, f64> {
        let mut out = BTreeMap::new();
        for (id, record) in &trace.branches {
            if let Some((t, f, rel)) = self.branches.get(id) {
                out.insert(*t, record.distance(*rel, true));
                out.insert(*f, record.distance(*rel, false));
            }
        }
        out
    }
}

impl SwitchGoals {
    fn goal_of(&self, value: i32) -> Option<GoalId> {
        self.cases.iter().find(|(keys, _)| keys.contains(&value)).map_or(self.default, |(_, g)| Some(*g))
    }
}
