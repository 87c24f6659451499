//! When JaCoCo counts a branch as covered: the probe regions of its
//! instrumentation, so that the search counts a goal the way the final
//! JaCoCo report will.
//!
//! JaCoCo does not record jumps. It inserts probes at a few points of each
//! method and derives the coverage of every instruction from them: an
//! instruction is covered when a probe after it, reached from it without
//! passing another probe, fired. A branch edge is therefore covered only
//! when the code after it reaches its next probe. Where that code throws
//! first (`isNumber() ? ... : Double.parseDouble(s)` on one line, where
//! `parseDouble` refuses `s`), the jump was taken but JaCoCo counts nothing.
//!
//! The probe points (JaCoCo 0.8 `LabelFlowAnalyzer`, `LabelInfo`,
//! `MethodProbesAdapter`):
//! - before every return and `athrow`;
//! - on every jump or switch edge whose target label is *multi-target*;
//! - at every label that is reached by fall-through (a *successor*) and is
//!   multi-target or starts a source line holding a method invocation;
//!   such a probe runs only on fall-through.
//!
//! A label is a *target* once per jump to it, once per switch that jumps
//! to it (distinct targets only), once per exception-table entry starting
//! or handled at it, and once when it is at the method's start; it is
//! multi-target when its target count plus 1 if it is a successor is at
//! least 2.
//!
//! For each branch side, switch case and method entry, [`commit_rules`]
//! walks the probe-free region that starts there and lists its leaves: the
//! probe points that end it. When the region can throw before a leaf, the
//! goal needs a leaf to fire as well as the jump to be taken; a region
//! with no instruction that can throw needs nothing more.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use model::bytecode::{Insn, decode, op};
use model::classfile::{ClassFile, CodeAttribute};
use serde::{Deserialize, Serialize};

use crate::goals::{BranchId, ClassGoals};
use crate::method_analysis::line_numbers;

/// What ends a probe-free region: one probe point fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Leaf {
    /// The probe point with this index into [`CommitRules::points`] ran.
    Point(u32),
    /// The taken side of this branch site (a jump to a multi-target label,
    /// whose JaCoCo probe sits on the edge) was taken.
    Taken(BranchId),
}

/// The leaves a goal's region needs one of; `None` when reaching the
/// region's start already counts (its first instruction is a probe point,
/// or nothing in it can throw), and also when the region holds an edge
/// that the goal map cannot observe (a filtered jump to a multi-target
/// label), where counting the jump alone is the safe choice.
pub type Rule = Option<Vec<Leaf>>;

/// A probe point: a method (index into `ClassFile::methods`) and the
/// bytecode index of the instruction it runs before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Point {
    /// Index into the class file's method table.
    pub method_index: u16,
    /// Bytecode index of the instruction the probe runs before.
    pub bci: u32,
}

/// The commit rules of one class's goals (before nested classes are
/// appended: indices are the class's own).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommitRules {
    /// The probe points some rule needs, in probe-id order.
    pub points: Vec<Point>,
    /// Per entry of `ClassGoals::branches`: the rule of the taken side,
    /// then of the fall-through side.
    pub branches: Vec<[Rule; 2]>,
    /// Per entry of `ClassGoals::switches`: the rule of each case (in
    /// `SwitchSite::cases` order), then of the default.
    pub switches: Vec<(Vec<Rule>, Rule)>,
    /// Per method index: the rule of its root branch goal (methods without
    /// branch goals only).
    pub roots: BTreeMap<u16, Rule>,
}

impl CommitRules {
    /// Whether no goal needs a probe point (nothing to instrument or check).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

/// The commit rules of the goals of `cf` (`goals` = `class_goals(cf)`).
/// A method whose code does not decode gets no rules (its goals count as
/// before: by the jump alone).
pub fn commit_rules(cf: &ClassFile, goals: &ClassGoals) -> CommitRules {
    let mut out = CommitRules {
        branches: vec![[None, None]; goals.branches.len()],
        switches: goals.switches.iter().map(|s| (vec![None; s.cases.len()], None)).collect(),
        ..CommitRules::default()
    };
    let mut points = Points::default();
    for (index, m) in cf.methods.iter().enumerate() {
        let method_index = index as u16;
        let Ok(Some(code)) = cf.code(m) else { continue };
        let Ok(insns) = decode(&code.code) else { continue };
        let flow = LabelFlow::of(cf, &code, &insns);
        let branch_ids: HashMap<u32, BranchId> =
            goals.branches.iter().filter(|b| b.method_index == method_index).map(|b| (b.bci, b.id)).collect();
        let walker = Walker { flow: &flow, insns: &insns, branch_ids: &branch_ids };
        let mut resolve = |raw: Option<Vec<RawLeaf>>| points.resolve(raw, method_index, &insns);
        for b in goals.branches.iter().filter(|b| b.method_index == method_index) {
            let Some(k) = flow.index(b.bci) else { continue };
            let Some(&target) = insns[k].targets().first() else { continue };
            let rules = [walker.edge(target), walker.fall_through(k + 1)];
            out.branches[b.id.0 as usize] = rules.map(&mut resolve);
        }
        for (s, site) in goals.switches.iter().enumerate().filter(|(_, s)| s.method_index == method_index) {
            // A copy of a `finally` switch names its first copy's targets: no rules then.
            let Some(k) = flow.index(site.bci) else { continue };
            let own = insns[k].targets();
            let edge = |target: u32| if own.contains(&target) { walker.edge(target) } else { None };
            out.switches[s].0 = site.cases.iter().map(|(_, target, _)| resolve(edge(*target))).collect();
            out.switches[s].1 = resolve(edge(site.default.0));
        }
        if goals.methods.get(index).is_some_and(|mg| mg.root_branch_goal.is_some()) {
            out.roots.insert(method_index, resolve(walker.region(0)));
        }
    }
    out.points = points.list;
    out
}

/// A leaf before its probe point has an id: an instruction index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RawLeaf {
    /// The probe runs before this instruction (by index).
    Point(usize),
    /// The taken side of this branch site.
    Taken(BranchId),
}

/// The probe points handed out so far, each once.
#[derive(Default)]
struct Points {
    list: Vec<Point>,
    ids: HashMap<Point, u32>,
}

impl Points {
    fn resolve(&mut self, raw: Option<Vec<RawLeaf>>, method_index: u16, insns: &[Insn]) -> Rule {
        let leaves = raw?;
        let mut out: Vec<Leaf> = Vec::with_capacity(leaves.len());
        for leaf in leaves {
            let leaf = match leaf {
                RawLeaf::Taken(b) => Leaf::Taken(b),
                RawLeaf::Point(i) => {
                    let point = Point { method_index, bci: insns[i].bci };
                    let next = self.list.len() as u32;
                    let id = *self.ids.entry(point).or_insert(next);
                    if id == next {
                        self.list.push(point);
                    }
                    Leaf::Point(id)
                }
            };
            if !out.contains(&leaf) {
                out.push(leaf);
            }
        }
        Some(out)
    }
}

/// JaCoCo's label facts of one method, by bytecode index.
struct LabelFlow {
    /// Instruction index of each bytecode index.
    index_of: HashMap<u32, usize>,
    /// Bytecode indices whose label is multi-target.
    multi_target: BTreeSet<u32>,
    /// Bytecode indices whose label gets a probe on fall-through.
    probed: BTreeSet<u32>,
}

impl LabelFlow {
    fn of(cf: &ClassFile, code: &CodeAttribute, insns: &[Insn]) -> LabelFlow {
        let mut targets: HashMap<u32, u32> = HashMap::new();
        for insn in insns {
            let distinct: BTreeSet<u32> = insn.targets().into_iter().collect();
            for t in distinct {
                *targets.entry(t).or_default() += 1;
            }
        }
        for e in &code.exception_table {
            *targets.entry(e.start_pc).or_default() += 1;
            *targets.entry(e.handler_pc).or_default() += 1;
        }
        let line_starts: BTreeSet<u32> =
            line_numbers(cf, code).unwrap_or_default().iter().map(|r| r.start_pc).collect();
        if targets.contains_key(&0) || line_starts.contains(&0) {
            *targets.entry(0).or_default() += 1;
        }
        let invocation_lines = invocation_lines(insns, &line_starts);
        let mut multi_target = BTreeSet::new();
        let mut probed = BTreeSet::new();
        for (k, insn) in insns.iter().enumerate() {
            let successor = k > 0 && insns[k - 1].falls_through();
            let count = targets.get(&insn.bci).copied().unwrap_or(0) + u32::from(successor);
            let multi = count >= 2;
            if multi {
                multi_target.insert(insn.bci);
            }
            if successor && (multi || invocation_lines.contains(&insn.bci)) {
                probed.insert(insn.bci);
            }
        }
        let index_of = insns.iter().enumerate().map(|(k, i)| (i.bci, k)).collect();
        LabelFlow { index_of, multi_target, probed }
    }

    fn index(&self, bci: u32) -> Option<usize> {
        self.index_of.get(&bci).copied()
    }
}

/// The line starts (bytecode indices of `LineNumberTable` rows) whose line,
/// up to the next row's start, holds a method invocation.
fn invocation_lines(insns: &[Insn], line_starts: &BTreeSet<u32>) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    let mut current = None;
    for insn in insns {
        if line_starts.contains(&insn.bci) {
            current = Some(insn.bci);
        }
        if is_invocation(insn.opcode) {
            out.extend(current);
        }
    }
    out
}

fn is_invocation(opcode: u8) -> bool {
    matches!(opcode, op::INVOKEVIRTUAL..=op::INVOKEDYNAMIC)
}

/// Whether an instruction (not a return or `athrow`) can end its region
/// with an exception: calls, field and array accesses, allocations, casts,
/// integer division and monitors.
fn may_throw(opcode: u8) -> bool {
    matches!(
        opcode,
        op::IALOAD..=op::SALOAD
            | op::IASTORE..=op::SASTORE
            | op::IDIV | op::LDIV | op::IREM | op::LREM
            | op::GETSTATIC..=op::INVOKEDYNAMIC
            | op::NEW..=op::ARRAYLENGTH
            | op::CHECKCAST
            | op::MONITORENTER | op::MONITOREXIT
            | op::MULTIANEWARRAY
    )
}

/// Walks the probe-free regions of one method.
struct Walker<'a> {
    flow: &'a LabelFlow,
    insns: &'a [Insn],
    /// Branch goal sites of the method, by bytecode index.
    branch_ids: &'a HashMap<u32, BranchId>,
}

impl Walker<'_> {
    /// The rule of a jump or switch edge to `target`: none when JaCoCo puts
    /// the probe on the edge (a multi-target label).
    fn edge(&self, target: u32) -> Option<Vec<RawLeaf>> {
        if self.flow.multi_target.contains(&target) {
            return None;
        }
        self.region(self.flow.index(target)?)
    }

    /// The rule of a fall-through into instruction `next`.
    fn fall_through(&self, next: usize) -> Option<Vec<RawLeaf>> {
        let insn = self.insns.get(next)?;
        if self.flow.probed.contains(&insn.bci) {
            return None;
        }
        self.region(next)
    }

    /// The leaves of the region that starts at instruction `start`; `None`
    /// when nothing in it can throw or it holds an edge no probe observes.
    fn region(&self, start: usize) -> Option<Vec<RawLeaf>> {
        let mut leaves = Vec::new();
        let mut throws = false;
        let mut visited = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(k) = stack.pop() {
            if !visited.insert(k) {
                continue;
            }
            let insn = self.insns.get(k)?;
            throws |= may_throw(insn.opcode);
            match insn.opcode {
                op::IRETURN..=op::RETURN | op::ATHROW => {
                    leaves.push(RawLeaf::Point(k));
                    continue;
                }
                op::GOTO | op::GOTO_W => {
                    let target = insn.targets()[0];
                    if self.flow.multi_target.contains(&target) {
                        leaves.push(RawLeaf::Point(k));
                    } else {
                        stack.push(self.flow.index(target)?);
                    }
                    continue;
                }
                op::JSR | op::JSR_W | op::RET => return None,
                _ if insn.is_switch() => {
                    for target in insn.targets().into_iter().collect::<BTreeSet<_>>() {
                        if self.flow.multi_target.contains(&target) {
                            return None;
                        }
                        stack.push(self.flow.index(target)?);
                    }
                    continue;
                }
                _ if insn.is_conditional_jump() => {
                    let target = insn.targets()[0];
                    if !self.flow.multi_target.contains(&target) {
                        stack.push(self.flow.index(target)?);
                    } else {
                        leaves.push(RawLeaf::Taken(*self.branch_ids.get(&insn.bci)?));
                    }
                }
                _ => {}
            }
            let next = self.insns.get(k + 1)?;
            if self.flow.probed.contains(&next.bci) {
                leaves.push(RawLeaf::Point(k + 1));
            } else {
                stack.push(k + 1);
            }
        }
        (throws && !leaves.is_empty()).then_some(leaves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goals::class_goals;
    use crate::testutil::compile;

    const SOURCE: &str = "public class C {
    static double parse(Object o, String s) {
        return o instanceof Number ? ((Number) o).doubleValue() : Double.parseDouble(s);
    }
    static int call(int x, Runnable r) {
        if (x > 0) {
            r.run();
        }
        return x;
    }
    static int plain(int x) {
        if (x > 0) return 1;
        return 2;
    }
    static void log(StringBuilder b) { b.append('x'); }
}
";

    fn rules() -> (ClassGoals, CommitRules, ClassFile) {
        let cf = compile(&[("C.java", SOURCE)]).remove("C").expect("C compiled");
        let goals = class_goals(&cf).expect("goals");
        let rules = commit_rules(&cf, &goals);
        (goals, rules, cf)
    }

    fn method_of(goals: &ClassGoals, name: &str) -> u16 {
        goals.methods.iter().find(|m| m.name == name).expect("method").index
    }

    fn branch_rules<'r>(goals: &ClassGoals, rules: &'r CommitRules, name: &str) -> &'r [Rule; 2] {
        let m = method_of(goals, name);
        let b = goals.branches.iter().find(|b| b.method_index == m).expect("a branch");
        &rules.branches[b.id.0 as usize]
    }

    #[test]
    fn both_sides_of_a_one_line_conditional_that_can_throw_wait_for_the_probe_after_them() {
        let (goals, rules, cf) = rules();
        let [taken, fall] = branch_rules(&goals, &rules, "parse");
        let m = method_of(&goals, "parse");
        let code = cf.code(&cf.methods[usize::from(m)]).unwrap().unwrap();
        let insns = decode(&code.code).unwrap();
        let opcode_at = |leaf: &Leaf| match leaf {
            Leaf::Point(p) => insns.iter().find(|i| i.bci == rules.points[*p as usize].bci).unwrap().opcode,
            Leaf::Taken(_) => panic!("no taken leaf expected"),
        };
        // `Double.parseDouble(s)` can throw before `dreturn`'s join label:
        // the jump to it counts only when the join is reached.
        let taken = taken.as_ref().expect("the parse side is gated");
        assert_eq!(taken.len(), 1);
        assert_eq!(opcode_at(&taken[0]), op::DRETURN, "the join label before dreturn is multi-target and probed");
        // The cast and call side ends at its `goto` to the join label.
        let fall = fall.as_ref().expect("the cast side is gated");
        assert_eq!(fall.iter().map(opcode_at).collect::<Vec<_>>(), vec![op::GOTO]);
    }

    #[test]
    fn a_side_starting_a_line_with_a_call_or_unable_to_throw_needs_nothing_more() {
        let (goals, rules, _) = rules();
        let [taken, fall] = branch_rules(&goals, &rules, "call");
        // The fall-through enters line 7, `r.run()`: JaCoCo probes that label.
        assert_eq!(fall, &None);
        // The jump lands on `return x` (iload, ireturn): nothing can throw.
        assert_eq!(taken, &None);
        assert_eq!(branch_rules(&goals, &rules, "plain"), &[None, None]);
    }

    #[test]
    fn a_method_without_branches_counts_its_root_only_when_its_call_returns() {
        let (goals, rules, _) = rules();
        let m = method_of(&goals, "log");
        let root = rules.roots.get(&m).expect("log has a root goal").as_ref().expect("gated");
        assert_eq!(root.len(), 1, "the probe before its return");
        assert!(matches!(root[0], Leaf::Point(_)));
        assert!(!rules.is_empty());
    }
}
