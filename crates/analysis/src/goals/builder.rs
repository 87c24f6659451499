//! Building the goals of a class: per method, the goals and probe sites in
//! id order, then the control-dependence parents and approach levels.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use model::bytecode::Operand;
use model::classfile::ClassFile;
use petgraph::graph::NodeIndex;

use super::{
    AnalysisOptions, BranchId, BranchSite, ClassGoals, FilteredSite, Goal, GoalId, GoalKind, MethodGoals, SwitchId,
    SwitchSite,
};
use crate::cfg::EdgeKind;
use crate::condition::{condition_text, switch_operand_text};
use crate::error::AnalysisError;
use crate::method_analysis::{Decision, MethodAnalysis, analyse, jacoco_ordinals};

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
        let class = cf.internal_name();
        let source_file = cf.source_file().map_or_else(|| guess_source_file(class.as_str()), str::to_string);
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
    let goal_of = |target: u32| -> Option<GoalId> {
        let ordinal = mine.iter().position(|&t| t == target).unwrap_or(0);
        let first_target = first.get(ordinal).copied().unwrap_or(first[0]);
        specs.iter().position(|s| s.target == first_target).map(|t| goals[t])
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
        by_target.into_iter().filter_map(|(t, keys)| Some((keys, t, goal_of(t)?))).collect();
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
                    let default = site.default.1.map(|g| (site.default.0, g));
                    for (target, g) in site.cases.iter().map(|c| (c.1, c.2)).chain(default) {
                        goal_at.insert((insn.bci, EdgeKind::Switch { target }), g);
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
