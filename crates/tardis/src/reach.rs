//! Which goals a branch side can still lead to in its method's control
//! flow (every edge, exceptional ones included, so the answer errs towards
//! "can"). The DSE step solves an alternative aimed at a covered branch
//! side only when that side can lead to an uncovered goal of its method: the
//! side of a check that throws cannot lead to the branch after it, and an
//! alternative that takes it is wasted (it is easy to reach, so the
//! classifier would learn to like it).
//!
//! Flags, after the chaining approach (Korel 1990; Harman et al., "Testability
//! transformation", TSE 2004, on flags): when an uncovered side of
//! `iload k; ifeq/ifne` needs the `int`/`boolean` local `k` zero or not,
//! a branch side whose first block stores a constant into `k` that the
//! goal does not want *harms* it, and its other side (or a side storing a
//! wanted constant) *helps* it. The DSE step drops alternatives aimed at
//! harmful sides and solves helpful ones first: for "every item must pass"
//! that is "make item i pass", not "make item i fail".

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use analysis::cfg::{ControlFlowGraph, EdgeKind};
use analysis::goals::ClassGoals;
use analysis::{BranchSite, GoalId, Location};
use model::bytecode::{Insn, Operand, decode, op};
use model::classfile::ClassFile;
use petgraph::visit::EdgeRef;

/// Per branch side (its goal), the branch and switch goals reachable after
/// it; per uncovered side of a flag test, the sides that help and harm it.
#[derive(Debug, Clone, Default)]
pub struct Reach {
    after: BTreeMap<GoalId, BTreeSet<GoalId>>,
    flags: BTreeMap<GoalId, Effects>,
}

/// The branch sides that help and harm a side of a flag test.
#[derive(Debug, Clone, Default)]
struct Effects {
    helps: BTreeSet<GoalId>,
    harms: BTreeSet<GoalId>,
}

/// A method's goal sites: (bytecode index, goals at that site).
type Sites = Vec<(u32, Vec<GoalId>)>;

impl Reach {
    /// The reach of every jump's two sides in `goals`, whose classes are
    /// among `files` (a method whose code cannot be read is left out: its
    /// sides can reach anything).
    pub fn of(goals: &ClassGoals, files: &[ClassFile]) -> Reach {
        let mut methods: BTreeMap<(String, u16), Sites> = BTreeMap::new();
        let class = |g: GoalId| goals.goal(g).class.as_str().to_string();
        for b in &goals.branches {
            let key = (class(b.true_goal), b.method_index);
            methods.entry(key).or_default().push((b.bci, vec![b.true_goal, b.false_goal]));
        }
        for sw in &goals.switches {
            let Some((_, _, first)) = sw.cases.first() else { continue };
            let case_goals = sw.cases.iter().map(|(_, _, g)| *g).collect();
            methods.entry((class(*first), sw.method_index)).or_default().push((sw.bci, case_goals));
        }
        let mut reach = Reach::default();
        for ((class, index), sites) in &methods {
            let Some(cf) = files.iter().find(|f| f.name() == class) else { continue };
            let Some((insns, cfg)) = method_cfg(cf, *index) else { continue };
            let in_method =
                |b: &&BranchSite| b.method_index == *index && goals.goal(b.true_goal).class.as_str() == class;
            let branches: Vec<&BranchSite> = goals.branches.iter().filter(in_method).collect();
            for b in &branches {
                for (side, goal) in [(true, b.true_goal), (false, b.false_goal)] {
                    if let Some(after) = after_side(&cfg, b.bci, side, sites) {
                        reach.after.insert(goal, after);
                    }
                }
            }
            reach.flags.extend(flag_effects(&insns, &cfg, &branches));
        }
        reach
    }

    /// The branch sides that help and harm the uncovered `goals` that are
    /// sides of flag tests: (helpful, harmful).
    pub fn flag_effects(&self, goals: &BTreeSet<GoalId>) -> (BTreeSet<GoalId>, BTreeSet<GoalId>) {
        let mut out = (BTreeSet::new(), BTreeSet::new());
        for e in goals.iter().filter_map(|g| self.flags.get(g)) {
            out.0.extend(&e.helps);
            out.1.extend(&e.harms);
        }
        out
    }

    /// Whether the branch side `side` can lead to one of `goals` (true for
    /// a side it knows nothing of).
    pub fn can_reach(&self, side: GoalId, goals: &BTreeSet<GoalId>) -> bool {
        self.after.get(&side).is_none_or(|after| !after.is_disjoint(goals))
    }
}

/// The instructions and control-flow graph of method `index` of `cf`.
fn method_cfg(cf: &ClassFile, index: u16) -> Option<(Vec<Insn>, ControlFlowGraph)> {
    let m = cf.methods.get(usize::from(index))?;
    let code = cf.code(m).ok()??;
    let insns = decode(&code.code).ok()?;
    let location = Location::method(cf.name(), cf.member_name(m), cf.member_descriptor(m));
    let cfg = ControlFlowGraph::build(&insns, &code.exception_table, &location).ok()?;
    Some((insns, cfg))
}

/// The effects of a method's branch sides on the sides of its flag tests
/// (`iload k; ifeq/ifne`), by flag-test side.
fn flag_effects(insns: &[Insn], cfg: &ControlFlowGraph, branches: &[&BranchSite]) -> BTreeMap<GoalId, Effects> {
    // Per branch, per side (taken, fall-through): the constants its first block stores into int locals.
    let stores: Vec<[BTreeMap<u16, i32>; 2]> =
        branches.iter().map(|b| [true, false].map(|side| stores_in_side(insns, cfg, b.bci, side))).collect();
    let mut out = BTreeMap::new();
    for test in branches {
        let Ok(i) = insns.binary_search_by_key(&test.bci, |x| x.bci) else { continue };
        let Some(k) = i.checked_sub(1).and_then(|p| int_load(&insns[p])) else { continue };
        let zero_when_taken = match test.opcode {
            op::IFEQ => true,
            op::IFNE => false,
            _ => continue,
        };
        // (side, whether it needs the flag zero)
        for (goal, zero) in [(test.true_goal, zero_when_taken), (test.false_goal, !zero_when_taken)] {
            let mut effects = Effects::default();
            for (b, stored) in branches.iter().zip(&stores).filter(|(b, _)| b.bci != test.bci) {
                let [taken, fall] = [0, 1].map(|s| stored[s].get(&k).copied());
                for (side, own, other) in [(b.true_goal, taken, fall), (b.false_goal, fall, taken)] {
                    let wanted = |c: Option<i32>| c.map(|c| (c == 0) == zero);
                    match (wanted(own), wanted(other)) {
                        (Some(false), _) => effects.harms.insert(side),
                        (Some(true), _) | (None, Some(false)) => effects.helps.insert(side),
                        _ => false,
                    };
                }
            }
            out.insert(goal, effects);
        }
    }
    out
}

/// The constants the first block of the jump at `bci`'s `side` stores into
/// `int` locals (`iconst/bipush c; istore k`), by local.
fn stores_in_side(insns: &[Insn], cfg: &ControlFlowGraph, bci: u32, side: bool) -> BTreeMap<u16, i32> {
    let block = cfg.block_containing(bci).and_then(|b| {
        let edge = cfg.out_edges(cfg.node(b)).into_iter().find(|e| *e.weight() == EdgeKind::Branch(side))?;
        cfg.block_of(edge.target()).map(|t| cfg.block(t))
    });
    let Some(block) = block else { return BTreeMap::new() };
    let first = insns.partition_point(|x| x.bci < block.start_bci);
    let last = insns.partition_point(|x| x.bci <= block.last_bci);
    insns[first..last].windows(2).filter_map(|w| Some((int_store(&w[1])?, int_constant(&w[0])?))).collect()
}

/// The local an `iload` reads.
fn int_load(insn: &Insn) -> Option<u16> {
    match (insn.opcode, &insn.operand) {
        (op::ILOAD, Operand::Local { index, .. }) => Some(*index),
        (op::ILOAD_0..=op::ILOAD_3, _) => Some(u16::from(insn.opcode - op::ILOAD_0)),
        _ => None,
    }
}

/// The local an `istore` writes.
fn int_store(insn: &Insn) -> Option<u16> {
    match (insn.opcode, &insn.operand) {
        (op::ISTORE, Operand::Local { index, .. }) => Some(*index),
        (op::ISTORE_0..=op::ISTORE_3, _) => Some(u16::from(insn.opcode - op::ISTORE_0)),
        _ => None,
    }
}

/// The constant an `iconst`/`bipush`/`sipush` pushes.
fn int_constant(insn: &Insn) -> Option<i32> {
    match (insn.opcode, &insn.operand) {
        (op::ICONST_M1..=op::ICONST_5, _) => Some(i32::from(insn.opcode) - i32::from(op::ICONST_0)),
        (op::BIPUSH | op::SIPUSH, Operand::Int(v)) => Some(*v),
        _ => None,
    }
}

/// The goals of `sites` whose site can run after the jump at `bci` took `side`.
fn after_side(cfg: &ControlFlowGraph, bci: u32, side: bool, sites: &Sites) -> Option<BTreeSet<GoalId>> {
    let node = cfg.node(cfg.block_containing(bci)?);
    let edge = cfg.out_edges(node).into_iter().find(|e| *e.weight() == EdgeKind::Branch(side))?;
    let mut seen = BTreeSet::from([edge.target()]);
    let mut queue = VecDeque::from([edge.target()]);
    while let Some(n) = queue.pop_front() {
        for e in cfg.out_edges(n) {
            if seen.insert(e.target()) {
                queue.push_back(e.target());
            }
        }
    }
    let reached = |at: u32| cfg.block_containing(at).is_some_and(|b| seen.contains(&cfg.node(b)));
    Some(sites.iter().filter(|(at, _)| reached(*at)).flat_map(|(_, goals)| goals.iter().copied()).collect())
}
