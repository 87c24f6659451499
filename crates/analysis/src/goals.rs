//! Coverage goals of a class, their probes sites and their control
//! dependences.
//!
//! [`class_goals`] lists, for one class file:
//! - [`GoalKind::Method`]: one per method with code;
//! - [`GoalKind::RootBranch`]: one per method without branch or switch goals
//!   (EvoSuite's root branch, covered on entry);
//! - [`GoalKind::Branch`]: both sides of every conditional jump (`true` = the
//!   jump is taken, i.e. the JVM condition holds);
//! - [`GoalKind::SwitchCase`]: one per distinct target of every switch, the
//!   default's target included (cases sharing a target are one goal; a case
//!   jumping where the default jumps belongs to the default goal), which is
//!   how JaCoCo counts switch branches;
//! - [`GoalKind::Line`]: one per distinct source line of the class.
//!
//! Compiler-generated code is filtered as JaCoCo does (see [`crate::filter`]):
//! filtered methods have no goals, filtered branches no goals and no probes.
//!
//! Ids are dense and deterministic: methods in class-file order; within a
//! method the method goal, then the root branch, then by bytecode index (a
//! line goal before a branch at the same index; true before false; switch
//! targets in [`GoalKind::SwitchCase`] order). Each goal also has a stable
//! textual key (`toChar(Ljava/lang/Character;)C@5:true`, `line:312`,
//! `method:toChar(Ljava/lang/Character;)C`, `root:...`, `...@12:case:1,2`,
//! `...@12:default`).
//!
//! Control-dependence parents (for DynaMOSA and the approach level): a goal's
//! parents are the branch-side and switch-case goals its code is control
//! dependent on; code depending on nothing but method entry gets the method's
//! root goal ([`ClassGoals::root_goal`]). A goal depending on a filtered
//! branch (or on an exceptional edge) inherits that branch's parents.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use model::bytecode::Operand;
use model::classfile::ClassFile;
use petgraph::graph::{DiGraph, NodeIndex};
use serde::{Deserialize, Serialize};

use crate::cfg::EdgeKind;
use crate::condition::{condition_text, switch_operand_text};
use crate::error::AnalysisError;
use crate::filter::{InsnFilter, MethodFilter};
use crate::method_analysis::{Decision, MethodAnalysis, analyse, jacoco_ordinals};

/// Dense index of a goal in [`ClassGoals::goals`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GoalId(pub u32);

/// Dense index of a conditional-jump site in [`ClassGoals::branches`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BranchId(pub u32);

/// Dense index of a switch site in [`ClassGoals::switches`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SwitchId(pub u32);

/// What a goal asks to cover.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GoalKind {
    /// One side of a conditional jump; `side == true` is the jump taken.
    /// `branch` is the first site (lowest bytecode index) when the jump is
    /// duplicated in `finally` copies.
    Branch {
        /// The site that names the goal.
        branch: BranchId,
        /// Taken (`true`) or fall-through (`false`).
        side: bool,
    },
    /// One distinct target of a switch.
    SwitchCase {
        /// The site that names the goal.
        switch: SwitchId,
        /// Case keys jumping to the target, ascending; empty for a target
        /// only the default reaches.
        keys: Vec<i32>,
        /// Whether the default jumps to the target.
        default: bool,
        /// Bytecode index of the target.
        target_bci: u32,
    },
    /// A source line.
    Line {
        /// The line number.
        line: u16,
    },
    /// Entering a method.
    Method,
    /// Entering a method that has no branch goals.
    RootBranch,
}

impl GoalKind {
    /// Short name of the kind: `branch`, `switch-case`, `line`, `method`,
    /// `root-branch`.
    pub fn name(&self) -> &'static str {
        match self {
            GoalKind::Branch { .. } => "branch",
            GoalKind::SwitchCase { .. } => "switch-case",
            GoalKind::Line { .. } => "line",
            GoalKind::Method => "method",
            GoalKind::RootBranch => "root-branch",
        }
    }
}

/// One coverage goal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Goal {
    /// Its index in [`ClassGoals::goals`].
    pub id: GoalId,
    /// Stable textual key, unique within the class.
    pub key: String,
    /// What to cover.
    pub kind: GoalKind,
    /// Internal name of the class.
    pub class: String,
    /// Name of the method holding the goal (the first one, for a line).
    pub method_name: String,
    /// Descriptor of that method.
    pub method_descriptor: String,
    /// Index of that method in `ClassFile::methods`.
    pub method_index: u16,
    /// Bytecode index (the jump or switch; a line's first instruction; 0
    /// for method and root goals).
    pub bci: u32,
    /// Source line, if the class has line numbers.
    pub line: Option<u16>,
    /// Readable description, e.g. `CharUtils.java:312 if (ch < 128) true`.
    pub label: String,
    /// Control-dependence parents (empty for method and root goals).
    pub parents: Vec<GoalId>,
}

/// A conditional jump that carries a probe. Copies of one jump in
/// duplicated `finally` blocks are separate sites sharing their goals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchSite {
    /// Its index in [`ClassGoals::branches`].
    pub id: BranchId,
    /// Index of the method in `ClassFile::methods`.
    pub method_index: u16,
    /// Bytecode index of the jump.
    pub bci: u32,
    /// The jump's opcode (`ifeq` .. `if_acmpne`, `ifnull`, `ifnonnull`).
    pub opcode: u8,
    /// Goal of the taken side.
    pub true_goal: GoalId,
    /// Goal of the fall-through side.
    pub false_goal: GoalId,
}

/// A switch that carries a probe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwitchSite {
    /// Its index in [`ClassGoals::switches`].
    pub id: SwitchId,
    /// Index of the method in `ClassFile::methods`.
    pub method_index: u16,
    /// Bytecode index of the switch.
    pub bci: u32,
    /// `tableswitch` or `lookupswitch`.
    pub opcode: u8,
    /// One entry per distinct target the default does not jump to: the keys
    /// jumping there, the target, and its goal.
    pub cases: Vec<(Vec<i32>, u32, GoalId)>,
    /// The default's target and goal (the goal also covers the keys that
    /// jump to the same target).
    pub default: (u32, GoalId),
}

/// A conditional jump or switch that has no goals, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilteredSite {
    /// Index of the method in `ClassFile::methods`.
    pub method_index: u16,
    /// Bytecode index of the instruction.
    pub bci: u32,
    /// Its opcode.
    pub opcode: u8,
    /// The filter that removed it.
    pub reason: InsnFilter,
}

/// Per-method summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodGoals {
    /// Index in `ClassFile::methods`.
    pub index: u16,
    /// Method name.
    pub name: String,
    /// Method descriptor.
    pub descriptor: String,
    /// Why the method has no goals, if it has none.
    pub filter: Option<MethodFilter>,
    /// The [`GoalKind::Method`] goal.
    pub method_goal: Option<GoalId>,
    /// The [`GoalKind::RootBranch`] goal, if the method has no branch goals.
    pub root_branch_goal: Option<GoalId>,
    /// The largest approach level a goal of this method can have (shortest
    /// parent chain to the root goal, maximised over the goals); a fitness
    /// for "method not entered" must exceed it.
    pub max_approach_level: u32,
}

/// All goals of one class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassGoals {
    /// Internal name of the class.
    pub class: String,
    /// The source file name (from `SourceFile`, else guessed from the name).
    pub source_file: String,
    /// The goals, indexed by [`GoalId`].
    pub goals: Vec<Goal>,
    /// Conditional-jump probe sites, by method then bytecode index.
    pub branches: Vec<BranchSite>,
    /// Switch probe sites, by method then bytecode index.
    pub switches: Vec<SwitchSite>,
    /// One entry per method of the class file, in order.
    pub methods: Vec<MethodGoals>,
    /// Conditional jumps and switches without goals (merged `finally` copies
    /// are not listed: they are sites).
    pub filtered: Vec<FilteredSite>,
    /// Line goal of each line.
    pub line_goals: BTreeMap<u16, GoalId>,
}

/// Options of [`class_goals_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisOptions {
    /// Filter `$assertionsDisabled` tests (default `true`; JaCoCo 0.8.6
    /// counts them, so `false` reproduces its counts exactly).
    pub filter_assertions: bool,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions { filter_assertions: true }
    }
}

/// The result of [`ClassGoals::approach_level`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approach {
    /// Number of control-dependence steps from the goal to `via`.
    pub level: u32,
    /// The closest reached goal (the goal itself at level 0).
    pub via: GoalId,
}

/// The goals of `cf` with the default [`AnalysisOptions`].
///
/// # Errors
/// [`AnalysisError`] when a method's code is malformed.
pub fn class_goals(cf: &ClassFile) -> Result<ClassGoals, AnalysisError> {
    class_goals_with(cf, &AnalysisOptions::default())
}

/// The goals of `cf`.
///
/// # Errors
/// [`AnalysisError`] when a method's code is malformed.
pub fn class_goals_with(cf: &ClassFile, options: &AnalysisOptions) -> Result<ClassGoals, AnalysisError> {
    let mut builder = Builder::new(cf);
    let mut analyses = Vec::new();
    for (i, m) in cf.methods.iter().enumerate() {
        let index = i as u16;
        let (name, descriptor) = (cf.member_name(m).to_string(), cf.member_descriptor(m).to_string());
        let analysis = analyse(cf, index, m, options.filter_assertions)?;
        let filter = analysis.as_ref().err().copied();
        builder.out.methods.push(MethodGoals {
            index,
            name,
            descriptor,
            filter,
            method_goal: None,
            root_branch_goal: None,
            max_approach_level: 0,
        });
        if let Ok(a) = analysis {
            analyses.push(a);
        }
    }
    let mut seen_lines = BTreeSet::new();
    let ids: Vec<MethodIds> = analyses.iter().map(|a| builder.add_method(a, &mut seen_lines)).collect();
    builder.link_parents(&analyses, &ids);
    builder.compute_max_approach_levels();
    Ok(builder.out)
}

impl ClassGoals {
    /// Appends the goals of another class (a nested class of this one, so
    /// that its code counts as part of the class under test, as JaCoCo and
    /// EvoSuite count it): its goal, branch and switch ids are shifted past
    /// this class's, and its method indices past this class's methods, so
    /// that `methods[goal.method_index]` stays the goal's method. `class` of
    /// each appended goal keeps the nested class's name; a source line
    /// already taken keeps its first goal.
    pub fn append(&mut self, other: ClassGoals) {
        let (goal_off, branch_off, switch_off) =
            (self.goals.len() as u32, self.branches.len() as u32, self.switches.len() as u32);
        let method_off = self.methods.len() as u16;
        let shift = |id: GoalId| GoalId(id.0 + goal_off);
        for mut goal in other.goals {
            goal.id = shift(goal.id);
            goal.parents = goal.parents.into_iter().map(shift).collect();
            goal.method_index += method_off;
            match &mut goal.kind {
                GoalKind::Branch { branch, .. } => branch.0 += branch_off,
                GoalKind::SwitchCase { switch, .. } => switch.0 += switch_off,
                _ => {}
            }
            self.goals.push(goal);
        }
        for mut b in other.branches {
            b.id.0 += branch_off;
            b.method_index += method_off;
            b.true_goal = shift(b.true_goal);
            b.false_goal = shift(b.false_goal);
            self.branches.push(b);
        }
        for mut sw in other.switches {
            sw.id.0 += switch_off;
            sw.method_index += method_off;
            sw.cases.iter_mut().for_each(|(_, _, goal)| *goal = shift(*goal));
            sw.default.1 = shift(sw.default.1);
            self.switches.push(sw);
        }
        for mut m in other.methods {
            m.index += method_off;
            m.method_goal = m.method_goal.map(shift);
            m.root_branch_goal = m.root_branch_goal.map(shift);
            self.methods.push(m);
        }
        for mut f in other.filtered {
            f.method_index += method_off;
            self.filtered.push(f);
        }
        for (line, goal) in other.line_goals {
            self.line_goals.entry(line).or_insert(shift(goal));
        }
    }

    /// The goal with id `id`.
    pub fn goal(&self, id: GoalId) -> &Goal {
        &self.goals[id.0 as usize]
    }

    /// The goal with textual key `key`.
    pub fn goal_by_key(&self, key: &str) -> Option<GoalId> {
        self.goals.iter().find(|g| g.key == key).map(|g| g.id)
    }

    /// The line goal of `line`.
    pub fn line_goal(&self, line: u16) -> Option<GoalId> {
        self.line_goals.get(&line).copied()
    }

    /// The lines that have a line goal, ascending.
    pub fn lines(&self) -> Vec<u16> {
        self.line_goals.keys().copied().collect()
    }

    /// Indices of the methods that have a method goal, ascending.
    pub fn methods_with_goal(&self) -> Vec<u16> {
        self.methods.iter().filter(|m| m.method_goal.is_some()).map(|m| m.index).collect()
    }

    /// One line of counts: goals by kind, probe sites, filtered sites, e.g.
    /// `12 goals: 2 branch, 0 switch-case, 6 line, 3 method, 2 root-branch; 1 branch site, 0 switch sites, 0 filtered`.
    pub fn summary(&self) -> String {
        let count = |name: &str| self.goals.iter().filter(|g| g.kind.name() == name).count();
        format!(
            "{} goals: {} branch, {} switch-case, {} line, {} method, {} root-branch; {} branch sites, {} switch sites, {} filtered",
            self.goals.len(),
            count("branch"),
            count("switch-case"),
            count("line"),
            count("method"),
            count("root-branch"),
            self.branches.len(),
            self.switches.len(),
            self.filtered.len(),
        )
    }

    /// The method goal of method `method_index`.
    pub fn method_goal(&self, method_index: u16) -> Option<GoalId> {
        self.methods.get(usize::from(method_index))?.method_goal
    }

    /// The goal standing for "the method was entered" as a control-dependence
    /// parent: the root branch when the method has one, else the method goal.
    pub fn root_goal(&self, method_index: u16) -> Option<GoalId> {
        let m = self.methods.get(usize::from(method_index))?;
        m.root_branch_goal.or(m.method_goal)
    }

    /// The control-dependence parents of `goal`.
    pub fn parents(&self, goal: GoalId) -> &[GoalId] {
        &self.goal(goal).parents
    }

    /// Number of branch goals as JaCoCo counts branches: two per conditional
    /// jump, one per distinct switch target.
    pub fn branch_goal_count(&self) -> usize {
        self.goals.iter().filter(|g| matches!(g.kind, GoalKind::Branch { .. } | GoalKind::SwitchCase { .. })).count()
    }

    /// The goal-level control dependence graph: node `i` is `GoalId(i)`, an
    /// edge parent → child for every parent.
    pub fn dependence_graph(&self) -> DiGraph<GoalId, ()> {
        let mut g = DiGraph::with_capacity(self.goals.len(), self.goals.len());
        for goal in &self.goals {
            g.add_node(goal.id);
        }
        for goal in &self.goals {
            for p in &goal.parents {
                g.add_edge(NodeIndex::new(p.0 as usize), NodeIndex::new(goal.id.0 as usize), ());
            }
        }
        g
    }

    /// The approach level of `goal`: the fewest control-dependence steps up
    /// from `goal` to a goal whose decision was reached. `reached(g)` says
    /// whether `g`'s decision executed (for branch and switch goals: the
    /// jump or switch ran, either way; for root and method goals: the method
    /// was entered). `None` when no ancestor was reached.
    pub fn approach_level(&self, goal: GoalId, mut reached: impl FnMut(GoalId) -> bool) -> Option<Approach> {
        let mut seen = BTreeSet::from([goal]);
        let mut queue = VecDeque::from([(goal, 0)]);
        while let Some((g, level)) = queue.pop_front() {
            if reached(g) {
                return Some(Approach { level, via: g });
            }
            for &p in self.parents(g) {
                if seen.insert(p) {
                    queue.push_back((p, level + 1));
                }
            }
        }
        None
    }
}

/// Goal ids of one analysed method, for linking parents.
struct MethodIds {
    root: GoalId,
    /// Per decision: the goal of each side (branches) or of each target in
    /// `TargetSpec` order (switches).
    decision_goals: Vec<Vec<GoalId>>,
}

/// A goal waiting for its id, sorted by `(bci, rank)` within a method.
enum Pending {
    Line(u16),
    Side(usize, bool),
    Target(usize, usize),
}

struct Builder {
    out: ClassGoals,
}

impl Builder {
    fn new(cf: &ClassFile) -> Builder {
        let class = cf.name().to_string();
        let source_file = cf.source_file().map_or_else(|| guess_source_file(&class), str::to_string);
        let out = ClassGoals {
            class,
            source_file,
            goals: Vec::new(),
            branches: Vec::new(),
            switches: Vec::new(),
            methods: Vec::new(),
            filtered: Vec::new(),
            line_goals: BTreeMap::new(),
        };
        Builder { out }
    }

    fn push(
        &mut self,
        a: &MethodAnalysis<'_>,
        kind: GoalKind,
        key: String,
        bci: u32,
        line: Option<u16>,
        what: &str,
    ) -> GoalId {
        let id = GoalId(self.out.goals.len() as u32);
        let line_text = line.map_or("?".to_string(), |l| l.to_string());
        self.out.goals.push(Goal {
            id,
            key,
            kind,
            class: self.out.class.clone(),
            method_name: a.name.to_string(),
            method_descriptor: a.descriptor.to_string(),
            method_index: a.index,
            bci,
            line,
            label: format!("{}:{line_text} {what}", self.out.source_file).trim_end().to_string(),
            parents: Vec::new(),
        });
        id
    }

    /// Creates the goals and probe sites of one method.
    fn add_method(&mut self, a: &MethodAnalysis<'_>, seen_lines: &mut BTreeSet<u16>) -> MethodIds {
        let sig = format!("{}{}", a.name, a.descriptor);
        let first_line = a.first_line();
        let method_goal =
            self.push(a, GoalKind::Method, format!("method:{sig}"), 0, first_line, &format!("method {sig}"));
        self.out.methods[usize::from(a.index)].method_goal = Some(method_goal);
        let mut root = method_goal;
        if a.decisions.is_empty() {
            root = self.push(a, GoalKind::RootBranch, format!("root:{sig}"), 0, first_line, &format!("root {sig}"));
            self.out.methods[usize::from(a.index)].root_branch_goal = Some(root);
        }
        let (branch_ids, switch_ids) = self.site_ids(a);
        let mut decision_goals: Vec<Vec<GoalId>> =
            a.decisions.iter().map(|d| vec![GoalId(u32::MAX); d.switch.as_ref().map_or(2, Vec::len)]).collect();
        for (bci, _, pending) in pending_goals(a, seen_lines) {
            let line = a.insns.binary_search_by_key(&bci, |i| i.bci).ok().and_then(|k| a.lines[k]);
            match pending {
                Pending::Line(l) => {
                    let id = self.push(a, GoalKind::Line { line: l }, format!("line:{l}"), bci, Some(l), "");
                    self.out.line_goals.insert(l, id);
                }
                Pending::Side(d, side) => {
                    let branch = branch_ids[&a.decisions[d].sites[0]];
                    let what =
                        format!("if ({}) {side}", condition_text(&a.ctx, a.block_until(a.decisions[d].sites[0])));
                    let id = self.push(
                        a,
                        GoalKind::Branch { branch, side },
                        format!("{sig}@{bci}:{side}"),
                        bci,
                        line,
                        &what,
                    );
                    decision_goals[d][usize::from(!side)] = id;
                }
                Pending::Target(d, t) => {
                    let id = self.push_switch_goal(a, &a.decisions[d], t, switch_ids[&a.decisions[d].sites[0]], line);
                    decision_goals[d][t] = id;
                }
            }
        }
        self.add_sites(a, &decision_goals, &branch_ids, &switch_ids);
        self.add_filtered_sites(a);
        MethodIds { root, decision_goals }
    }

    fn push_switch_goal(
        &mut self,
        a: &MethodAnalysis<'_>,
        d: &Decision,
        t: usize,
        switch: SwitchId,
        line: Option<u16>,
    ) -> GoalId {
        let spec = &d.switch.as_ref().expect("a switch decision")[t];
        let site = &a.insns[d.sites[0]];
        let keys: Vec<String> = spec.keys.iter().map(i32::to_string).collect();
        let case = match (keys.is_empty(), spec.default) {
            (true, _) => "default".to_string(),
            (false, false) => format!("case:{}", keys.join(",")),
            (false, true) => format!("case:{},default", keys.join(",")),
        };
        let operand = switch_operand_text(&a.ctx, a.block_until(d.sites[0]));
        let what = format!("switch ({operand}) {}", case.replace(':', " ").replace(',', ", "));
        let key = format!("{}{}@{}:{case}", a.name, a.descriptor, site.bci);
        let kind =
            GoalKind::SwitchCase { switch, keys: spec.keys.clone(), default: spec.default, target_bci: spec.target };
        self.push(a, kind, key, site.bci, line, &what)
    }

    /// Dense ids for every branch and switch site of the method, by bci.
    fn site_ids(&self, a: &MethodAnalysis<'_>) -> (HashMap<usize, BranchId>, HashMap<usize, SwitchId>) {
        let mut sites: Vec<usize> = a.decisions.iter().flat_map(|d| d.sites.iter().copied()).collect();
        sites.sort_unstable();
        let (mut branches, mut switches) = (HashMap::new(), HashMap::new());
        let (mut nb, mut ns) = (self.out.branches.len() as u32, self.out.switches.len() as u32);
        for k in sites {
            if a.insns[k].is_switch() {
                switches.insert(k, SwitchId(ns));
                ns += 1;
            } else {
                branches.insert(k, BranchId(nb));
                nb += 1;
            }
        }
        (branches, switches)
    }

    fn add_sites(
        &mut self,
        a: &MethodAnalysis<'_>,
        decision_goals: &[Vec<GoalId>],
        branch_ids: &HashMap<usize, BranchId>,
        switch_ids: &HashMap<usize, SwitchId>,
    ) {
        let mut sites: Vec<(usize, usize)> =
            a.decisions.iter().enumerate().flat_map(|(d, dec)| dec.sites.iter().map(move |&k| (k, d))).collect();
        sites.sort_unstable();
        for (k, d) in sites {
            let insn = &a.insns[k];
            let goals = &decision_goals[d];
            if let Some(&id) = branch_ids.get(&k) {
                let site = BranchSite {
                    id,
                    method_index: a.index,
                    bci: insn.bci,
                    opcode: insn.opcode,
                    true_goal: goals[0],
                    false_goal: goals[1],
                };
                self.out.branches.push(site);
            } else if let Some(&id) = switch_ids.get(&k) {
                let site = switch_site(a, &a.decisions[d], k, id, goals);
                self.out.switches.push(site);
            }
        }
    }

    fn add_filtered_sites(&mut self, a: &MethodAnalysis<'_>) {
        for insn in a.insns.iter().filter(|i| i.is_conditional_jump() || i.is_switch()) {
            if let Some(&reason) = a.filters.ignored.get(&insn.bci) {
                self.out.filtered.push(FilteredSite {
                    method_index: a.index,
                    bci: insn.bci,
                    opcode: insn.opcode,
                    reason,
                });
            }
        }
    }

    /// Fills in the parents of every goal.
    fn link_parents(&mut self, analyses: &[MethodAnalysis<'_>], ids: &[MethodIds]) {
        let mut line_parents: BTreeMap<u16, BTreeSet<GoalId>> = BTreeMap::new();
        for (a, m) in analyses.iter().zip(ids) {
            let block_parents = block_parents(a, m);
            let parents_at = |k: usize| -> BTreeSet<GoalId> {
                let node = a.cfg.block_containing(a.insns[k].bci).map(|b| a.cfg.node(b));
                let set = node.map(|n| block_parents[n.index()].clone()).unwrap_or_default();
                if set.is_empty() { BTreeSet::from([m.root]) } else { set }
            };
            for (d, decision) in a.decisions.iter().enumerate() {
                let parents: BTreeSet<GoalId> = decision.sites.iter().flat_map(|&k| parents_at(k)).collect();
                for &g in &m.decision_goals[d] {
                    self.out.goals[g.0 as usize].parents = parents.iter().copied().filter(|&p| p != g).collect();
                }
            }
            for k in (0..a.insns.len()).filter(|&k| a.counts_for_lines(k)) {
                if let Some(line) = a.lines[k] {
                    line_parents.entry(line).or_default().extend(parents_at(k));
                }
            }
        }
        for (line, parents) in line_parents {
            if let Some(&g) = self.out.line_goals.get(&line) {
                self.out.goals[g.0 as usize].parents = parents.into_iter().collect();
            }
        }
    }

    /// Shortest parent chain from each goal up to a goal without parents,
    /// maximised per method.
    fn compute_max_approach_levels(&mut self) {
        let graph = self.out.dependence_graph();
        let mut depth: Vec<Option<u32>> = vec![None; self.out.goals.len()];
        let mut queue: VecDeque<NodeIndex> = VecDeque::new();
        for g in &self.out.goals {
            if g.parents.is_empty() {
                depth[g.id.0 as usize] = Some(0);
                queue.push_back(NodeIndex::new(g.id.0 as usize));
            }
        }
        while let Some(n) = queue.pop_front() {
            let d = depth[n.index()].unwrap_or(0);
            for c in graph.neighbors(n) {
                if depth[c.index()].is_none() {
                    depth[c.index()] = Some(d + 1);
                    queue.push_back(c);
                }
            }
        }
        for g in &self.out.goals {
            let m = &mut self.out.methods[usize::from(g.method_index)];
            m.max_approach_level = m.max_approach_level.max(depth[g.id.0 as usize].unwrap_or(0));
        }
    }
}

/// The goals of a method other than the method and root goals, sorted by
/// bytecode index and rank. Marks the method's new lines as seen.
fn pending_goals(a: &MethodAnalysis<'_>, seen_lines: &mut BTreeSet<u16>) -> Vec<(u32, usize, Pending)> {
    let mut out = Vec::new();
    for (k, insn) in a.insns.iter().enumerate() {
        if let Some(line) = a.lines[k].filter(|l| a.counts_for_lines(k) && seen_lines.insert(*l)) {
            out.push((insn.bci, 0, Pending::Line(line)));
        }
    }
    for (d, decision) in a.decisions.iter().enumerate() {
        let bci = a.insns[decision.sites[0]].bci;
        match &decision.switch {
            None => {
                out.push((bci, 1, Pending::Side(d, true)));
                out.push((bci, 2, Pending::Side(d, false)));
            }
            Some(targets) => out.extend((0..targets.len()).map(|t| (bci, 1 + t, Pending::Target(d, t)))),
        }
    }
    out.sort_by_key(|(bci, rank, _)| (*bci, *rank));
    out
}

/// The probe site of switch copy `k` of decision `d`; a copy's targets map
/// to the first copy's goals by JaCoCo's branch order.
fn switch_site(a: &MethodAnalysis<'_>, d: &Decision, k: usize, id: SwitchId, goals: &[GoalId]) -> SwitchSite {
    let specs = d.switch.as_ref().expect("a switch decision");
    let first = jacoco_ordinals(&a.insns[d.sites[0]]);
    let mine = jacoco_ordinals(&a.insns[k]);
    let goal_of = |target: u32| -> GoalId {
        let ordinal = mine.iter().position(|&t| t == target).unwrap_or(0);
        let first_target = first.get(ordinal).copied().unwrap_or(first[0]);
        let t = specs.iter().position(|s| s.target == first_target).unwrap_or(specs.len() - 1);
        goals[t]
    };
    let insn = &a.insns[k];
    let (default, pairs): (u32, Vec<(i32, u32)>) = match &insn.operand {
        Operand::TableSwitch { default, low, targets, .. } => {
            (*default, targets.iter().enumerate().map(|(i, t)| (low.wrapping_add(i as i32), *t)).collect())
        }
        Operand::LookupSwitch { default, pairs } => (*default, pairs.clone()),
        _ => (0, Vec::new()),
    };
    let mut by_target: BTreeMap<u32, Vec<i32>> = BTreeMap::new();
    for (key, target) in pairs.into_iter().filter(|p| p.1 != default) {
        by_target.entry(target).or_default().push(key);
    }
    let mut cases: Vec<(Vec<i32>, u32, GoalId)> =
        by_target.into_iter().map(|(t, keys)| (keys, t, goal_of(t))).collect();
    cases.sort_by_key(|c| c.0.first().copied());
    SwitchSite {
        id,
        method_index: a.index,
        bci: insn.bci,
        opcode: insn.opcode,
        cases,
        default: (default, goal_of(default)),
    }
}

/// The parent goals of every CFG node of a method: the least fixpoint of
/// "direct parents (branch sides, switch targets, the root) plus the
/// parents of every controller whose decision has no goals".
fn block_parents(a: &MethodAnalysis<'_>, m: &MethodIds) -> Vec<BTreeSet<GoalId>> {
    let mut goal_at: HashMap<(u32, EdgeKind), GoalId> = HashMap::new();
    for (d, decision) in a.decisions.iter().enumerate() {
        for &k in &decision.sites {
            let insn = &a.insns[k];
            match &decision.switch {
                None => {
                    goal_at.insert((insn.bci, EdgeKind::Branch(true)), m.decision_goals[d][0]);
                    goal_at.insert((insn.bci, EdgeKind::Branch(false)), m.decision_goals[d][1]);
                }
                Some(_) => {
                    let site = switch_site(a, decision, k, SwitchId(0), &m.decision_goals[d]);
                    for (_, target, g) in
                        site.cases.iter().chain(std::iter::once(&(Vec::new(), site.default.0, site.default.1)))
                    {
                        goal_at.insert((insn.bci, EdgeKind::Switch { target: *target }), *g);
                    }
                }
            }
        }
    }
    let n = a.cfg.node_count();
    let mut sets: Vec<BTreeSet<GoalId>> = vec![BTreeSet::new(); n];
    let mut inherit: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (node, set) in sets.iter_mut().enumerate() {
        for dep in a.cd.of(NodeIndex::new(node)) {
            if dep.controller == a.cfg.entry() {
                set.insert(m.root);
                continue;
            }
            let last_bci = a.cfg.block_of(dep.controller).map(|b| a.cfg.block(b).last_bci);
            match last_bci.and_then(|bci| goal_at.get(&(bci, dep.label))) {
                Some(&g) => {
                    set.insert(g);
                }
                None => inherit[node].push(dep.controller.index()),
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for node in 0..n {
            for &c in &inherit[node] {
                if c != node && !sets[c].is_subset(&sets[node]) {
                    let add: Vec<GoalId> = sets[c].iter().copied().collect();
                    sets[node].extend(add);
                    changed = true;
                }
            }
        }
    }
    sets
}

/// `p/Outer$Inner` → `Outer.java`.
fn guess_source_file(class: &str) -> String {
    let simple = class.rsplit('/').next().unwrap_or(class);
    format!("{}.java", simple.split('$').next().unwrap_or(simple))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::compile;

    /// One line per goal: `id key | label <- [parents]`.
    fn render(goals: &ClassGoals) -> String {
        goals
            .goals
            .iter()
            .map(|g| {
                let parents: Vec<String> = g.parents.iter().map(|p| p.0.to_string()).collect();
                format!("{} {} | {} <- [{}]", g.id.0, g.key, g.label, parents.join(","))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn goals_of(file: &str, source: &str, class: &str) -> ClassGoals {
        let classes = compile(&[(file, source)]);
        class_goals(&classes[class]).unwrap()
    }

    const SIMPLE: &str = "public class A {
    static int f(int a, String s) {
        if (a < 3) {
            return 1;
        }
        return s.length();
    }
    static void g() {}
}
";

    #[test]
    fn goals_are_numbered_by_method_then_bytecode_index_with_parents() {
        let goals = goals_of("A.java", SIMPLE, "A");
        let expected = "\
0 method:<init>()V | A.java:1 method <init>()V <- []
1 root:<init>()V | A.java:1 root <init>()V <- []
2 line:1 | A.java:1 <- [1]
3 method:f(ILjava/lang/String;)I | A.java:3 method f(ILjava/lang/String;)I <- []
4 line:3 | A.java:3 <- [3]
5 f(ILjava/lang/String;)I@2:true | A.java:3 if (a >= 3) true <- [3]
6 f(ILjava/lang/String;)I@2:false | A.java:3 if (a >= 3) false <- [3]
7 line:4 | A.java:4 <- [6]
8 line:6 | A.java:6 <- [5]
9 method:g()V | A.java:8 method g()V <- []
10 root:g()V | A.java:8 root g()V <- []
11 line:8 | A.java:8 <- [10]";
        assert_eq!(render(&goals), expected);
        assert_eq!(goals.branches.len(), 1);
        let site = &goals.branches[0];
        assert_eq!((site.method_index, site.bci, site.opcode), (1, 2, model::bytecode::op::IF_ICMPGE));
        assert_eq!((site.true_goal, site.false_goal), (GoalId(5), GoalId(6)));
        assert_eq!(goals.line_goal(6), Some(GoalId(8)));
        assert_eq!(goals.line_goal(7), None);
        assert_eq!((goals.method_goal(1), goals.root_goal(1)), (Some(GoalId(3)), Some(GoalId(3))));
        assert_eq!((goals.method_goal(2), goals.root_goal(2)), (Some(GoalId(9)), Some(GoalId(10))));
        assert_eq!(goals.goal_by_key("line:4"), Some(GoalId(7)));
        assert_eq!(goals.branch_goal_count(), 2);
        assert_eq!(goals.lines(), [1, 3, 4, 6, 8]);
        assert_eq!(goals.methods_with_goal(), [0, 1, 2]);
        assert_eq!(
            goals.summary(),
            "12 goals: 2 branch, 0 switch-case, 5 line, 3 method, 2 root-branch; 1 branch sites, 0 switch sites, 0 filtered"
        );
    }

    #[test]
    fn nested_branches_give_approach_levels_through_their_parents() {
        let source = "class N {
    int f(boolean a, int b) {
        if (a) {
            if (b > 0) {
                return 1;
            }
        }
        return 0;
    }
}
";
        let goals = goals_of("N.java", source, "N");
        let key = |k: &str| goals.goal_by_key(k).unwrap();
        let (outer_false, inner_true) = (key("f(ZI)I@1:false"), key("f(ZI)I@5:true"));
        assert_eq!(goals.goal(outer_false).label, "N.java:3 if (!a) false");
        assert_eq!(goals.goal(inner_true).label, "N.java:4 if (b <= 0) true");
        assert_eq!(goals.parents(inner_true), &[outer_false]);
        assert_eq!(goals.parents(outer_false), &[key("method:f(ZI)I")]);
        let method = key("method:f(ZI)I");
        let only_entry = goals.approach_level(inner_true, |g| g == method);
        assert_eq!(only_entry, Some(Approach { level: 2, via: method }));
        let outer_reached = goals.approach_level(inner_true, |g| g == method || g == outer_false);
        assert_eq!(outer_reached, Some(Approach { level: 1, via: outer_false }));
        assert_eq!(goals.approach_level(inner_true, |_| false), None);
        // `return 1` (line 5) is three steps from entry.
        assert_eq!(goals.methods[1].max_approach_level, 3);
        let graph = goals.dependence_graph();
        assert_eq!(graph.node_count(), goals.goals.len());
        assert!(graph.contains_edge(NodeIndex::new(outer_false.0 as usize), NodeIndex::new(inner_true.0 as usize)));
    }

    #[test]
    fn switch_cases_sharing_a_target_are_one_goal_and_the_default_takes_its_cases() {
        let source = "class S {
    static int f(int k) {
        switch (k) {
            case 1: case 2: return 10;
            case 3: return 20;
            case 4: default: return 30;
        }
    }
}
";
        let goals = goals_of("S.java", source, "S");
        let switch_goals: Vec<String> = goals
            .goals
            .iter()
            .filter(|g| matches!(g.kind, GoalKind::SwitchCase { .. }))
            .map(|g| format!("{} | {}", g.key, g.label))
            .collect();
        assert_eq!(
            switch_goals,
            [
                "f(I)I@1:case:1,2 | S.java:3 switch (k) case 1, 2",
                "f(I)I@1:case:3 | S.java:3 switch (k) case 3",
                "f(I)I@1:case:4,default | S.java:3 switch (k) case 4, default",
            ]
        );
        let site = &goals.switches[0];
        let ids: Vec<GoalId> =
            goals.goals.iter().filter(|g| matches!(g.kind, GoalKind::SwitchCase { .. })).map(|g| g.id).collect();
        assert_eq!(
            site.cases.iter().map(|c| (c.0.clone(), c.2)).collect::<Vec<_>>(),
            [(vec![1, 2], ids[0]), (vec![3], ids[1])]
        );
        assert_eq!(site.default.1, ids[2]);
        // `return 20` depends on its case.
        let line5 = goals.line_goal(5).unwrap();
        assert_eq!(goals.parents(line5), &[ids[1]]);
    }

    #[test]
    fn string_switch_hash_dispatch_is_filtered_but_the_second_switch_stays() {
        let source = "class T {
    static int f(String s) {
        switch (s) {
            case \"Aa\": return 1;
            case \"BB\": return 2;
            case \"c\": return 3;
            default: return 0;
        }
    }
}
";
        let goals = goals_of("T.java", source, "T");
        // Second switch: cases 0, 1, 2 and the default.
        assert_eq!(goals.branch_goal_count(), 4);
        assert_eq!(goals.switches.len(), 1);
        let reasons: BTreeSet<InsnFilter> = goals.filtered.iter().map(|f| f.reason).collect();
        assert_eq!(reasons, BTreeSet::from([InsnFilter::StringSwitchHash]));
        // The hash switch and three `equals` tests ("Aa" and "BB" share a hash bucket).
        assert_eq!(goals.filtered.len(), 4);
    }

    #[test]
    fn copies_of_a_finally_block_share_one_pair_of_goals() {
        let source = "class F {
    int count;
    int f(int a) {
        try {
            if (a > 0) return 1;
            count++;
        } finally {
            if (count > 3) count = 0;
        }
        return 2;
    }
}
";
        let goals = goals_of("F.java", source, "F");
        assert_eq!(goals.branch_goal_count(), 4);
        // `a > 0` plus three copies of `count > 3` (after `return 1`, after `count++`, in the handler).
        assert_eq!(goals.branches.len(), 4);
        let finally_goals: BTreeSet<(GoalId, GoalId)> =
            goals.branches[1..].iter().map(|b| (b.true_goal, b.false_goal)).collect();
        assert_eq!(finally_goals.len(), 1);
        let (t, _) = *finally_goals.iter().next().unwrap();
        let GoalKind::Branch { branch, .. } = goals.goal(t).kind else { panic!("a branch goal") };
        assert_eq!(branch, goals.branches[1].id, "the first copy names the goal");
        assert_eq!(goals.goal(t).label, "F.java:8 if (this.count <= 3) true");
    }

    #[test]
    fn try_with_resources_null_checks_are_filtered() {
        let source = "class R {
    static int f(java.io.Reader in) throws java.io.IOException {
        try (java.io.Reader r = in) {
            return r.read();
        }
    }
}
";
        let goals = goals_of("R.java", source, "R");
        assert_eq!(goals.branch_goal_count(), 0);
        assert!(goals.filtered.iter().all(|f| f.reason == InsnFilter::TryWithResources));
        assert_eq!(goals.filtered.len(), 2);
        assert!(goals.root_goal(1).is_some_and(|g| goals.goal(g).kind == GoalKind::RootBranch));
    }

    #[test]
    fn assertion_branches_are_filtered_unless_counting_like_jacoco_0_8_6() {
        let source = "class X {
    static int f(int x) {
        assert x > 0 : \"positive\";
        return x;
    }
}
";
        let classes = compile(&[("X.java", source)]);
        let default = class_goals(&classes["X"]).unwrap();
        assert_eq!(default.branch_goal_count(), 2);
        let x_positive = default.goal_by_key("f(I)I@7:true").unwrap();
        assert_eq!(default.goal(x_positive).label, "X.java:3 if (x > 0) true");
        // Depending on the filtered `$assertionsDisabled` test means depending on entry.
        assert_eq!(default.parents(x_positive), &[default.method_goal(1).unwrap()]);
        let jacoco = class_goals_with(&classes["X"], &AnalysisOptions { filter_assertions: false }).unwrap();
        // Plus `$assertionsDisabled` in f and `desiredAssertionStatus()` in <clinit>.
        assert_eq!(jacoco.branch_goal_count(), 6);
    }

    #[test]
    fn generated_methods_are_filtered_but_lambdas_are_kept() {
        let source = "enum E { A, B;
    static final class C implements Comparable<C> {
        private C() {}
        public int compareTo(C o) { return 0; }
        java.util.function.IntPredicate p() { return i -> i > 0; }
    }
}
";
        let classes = compile(&[("E.java", source)]);
        let filters = |class: &str| -> Vec<(String, Option<MethodFilter>)> {
            let goals = class_goals(&classes[class]).unwrap();
            goals.methods.iter().map(|m| (format!("{}{}", m.name, m.descriptor), m.filter)).collect()
        };
        let e = filters("E");
        assert!(e.contains(&("values()[LE;".to_string(), Some(MethodFilter::EnumGenerated))));
        assert!(e.contains(&("valueOf(Ljava/lang/String;)LE;".to_string(), Some(MethodFilter::EnumGenerated))));
        assert!(e.contains(&("<init>(Ljava/lang/String;I)V".to_string(), Some(MethodFilter::EnumEmptyConstructor))));
        assert!(e.contains(&("<clinit>()V".to_string(), None)));
        let c = filters("E$C");
        assert!(c.contains(&("<init>()V".to_string(), Some(MethodFilter::PrivateEmptyConstructor))));
        assert!(c.contains(&("compareTo(Ljava/lang/Object;)I".to_string(), Some(MethodFilter::Synthetic))));
        assert!(c.contains(&("lambda$p$0(I)Z".to_string(), None)));
        let goals = class_goals(&classes["E$C"]).unwrap();
        assert_eq!(goals.goal(goals.goal_by_key("lambda$p$0(I)Z@1:true").unwrap()).label, "E.java:5 if (i <= 0) true");
    }

    #[test]
    fn code_in_an_infinite_loop_still_has_parents() {
        let source = "class L {
    static void f(int i) {
        while (true) {
            if (i++ > 10) {
                i = 0;
            }
        }
    }
}
";
        let goals = goals_of("L.java", source, "L");
        let taken = goals.goal_by_key("f(I)V@6:true").unwrap();
        let fall = goals.goal_by_key("f(I)V@6:false").unwrap();
        assert_eq!(goals.goal(fall).label, "L.java:4 if (i <= 10) false");
        // The loop test runs again after the body, i.e. after the fall-through side.
        assert_eq!(goals.parents(taken), &[goals.method_goal(1).unwrap(), fall]);
        assert_eq!(goals.parents(goals.line_goal(5).unwrap()), &[fall]);
    }

    #[test]
    fn the_compare_fixture_labels_render_the_jvm_conditions() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/fixtures/src/fixtures/Compare.java");
        let source = std::fs::read_to_string(path).unwrap();
        let goals = goals_of("Compare.java", &source, "fixtures/Compare");
        let label = |method: &str| -> String {
            let is_decision = |g: &&Goal| matches!(g.kind, GoalKind::Branch { .. } | GoalKind::SwitchCase { .. });
            let g = goals.goals.iter().filter(is_decision).find(|g| g.method_name == method).unwrap();
            g.label.split_once(' ').unwrap().1.to_string()
        };
        let expected = [
            ("ltInt", "if (a >= b) true"),
            ("leInt", "if (a > b) true"),
            ("eqInt", "if (a != b) true"),
            ("ltZero", "if (a >= 0) true"),
            ("eqZero", "if (a != 0) true"),
            ("ltLong", "if (a >= b) true"),
            ("eqLong", "if (a != b) true"),
            ("ltFloat", "if (a >= b) true"),
            ("gtDouble", "if (a <= b) true"),
            ("isNull", "if (o != null) true"),
            ("sw", "switch (x) case 1"),
        ];
        for (method, text) in expected {
            assert_eq!(label(method), text, "{method}");
        }
        // The private constructor is filtered; every other method has one decision.
        assert_eq!(goals.methods[0].filter, Some(MethodFilter::PrivateEmptyConstructor));
        assert!(goals.methods[1..].iter().all(|m| m.root_branch_goal.is_none()));
    }

    #[test]
    fn goals_serialise_and_are_deterministic() {
        let classes = compile(&[("A.java", SIMPLE)]);
        let a = class_goals(&classes["A"]).unwrap();
        let b = class_goals(&classes["A"]).unwrap();
        assert_eq!(a, b);
        let json = serde_json::to_string(&a).unwrap();
        let back: ClassGoals = serde_json::from_str(&json).unwrap();
        assert_eq!(back, a);
    }
}
