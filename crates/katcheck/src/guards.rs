//! Facts a call site can rely on because of the conditional jumps that
//! guard it: part of the code formula of KAT's static detection
//! (TECHNIQUES.md section 2 step 2, "what the code guarantees about the
//! arguments at the call site, e.g. from dominating checks").
//!
//! A conditional jump `B` guards the call site `S` on one side when every
//! path from the method's entry to `S` passes `B` (there is no path that
//! avoids `B`), and after the last evaluation of `B` the site is reachable
//! from only that side (from the other side `S` cannot be reached without
//! passing `B` again). Then the jump's condition on that side held at
//! `B`'s last evaluation. It still holds at `S` for the values it names
//! when none of their definitions can run between `B` and `S`. Paths
//! include exceptional edges, so a handler is never mistaken for a guard.

use analysis::cfg::{ControlFlowGraph, EdgeKind};
use analysis::dataflow::{Def, Defs};
use kat::CmpOp;
use model::bytecode::{Insn, Operand, op};
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;

use crate::term::{Term, Terms};

/// A comparison known to hold at a call site: `left op right`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// The left operand.
    pub left: Term,
    /// The comparison.
    pub op: CmpOp,
    /// The right operand.
    pub right: Term,
}

impl Fact {
    /// `left op right`.
    pub fn new(left: Term, op: CmpOp, right: Term) -> Fact {
        Fact { left, op, right }
    }

    /// The fact that holds when this one does not.
    pub fn negated(&self) -> Fact {
        Fact { left: self.left.clone(), op: self.op.negate(), right: self.right.clone() }
    }
}

/// Most keys of a switch listed as `!=` facts on its default side.
const MAX_DEFAULT_FACTS: usize = 64;

/// One side of a guard: where it leads and what holds there.
struct Side {
    /// Nodes reachable from this side without passing the guard again.
    reach: Vec<bool>,
    /// What holds on this side.
    facts: Vec<Fact>,
}

/// A conditional jump or switch with what it tells each of its sides.
struct Guard {
    /// Its block's node.
    node: NodeIndex,
    /// Its sides: taken and fall-through for a jump, one per distinct
    /// target for a switch.
    sides: Vec<Side>,
    /// Nodes reachable from the entry without passing the guard.
    from_entry: Vec<bool>,
}

/// The guards of one method.
pub struct Guards<'a> {
    cfg: &'a ControlFlowGraph,
    insns: &'a [Insn],
    guards: Vec<Guard>,
}

impl<'a> Guards<'a> {
    /// The guards of a method with instructions `insns` (as its data flow
    /// decoded them), control-flow graph `cfg` and operand terms `terms`.
    pub fn new(cfg: &'a ControlFlowGraph, insns: &'a [Insn], terms: &Terms<'_>) -> Guards<'a> {
        let mut guards = Vec::new();
        for (k, insn) in insns.iter().enumerate() {
            let Some(node) = cfg.block_containing(insn.bci).map(|b| cfg.node(b)) else { continue };
            let targets: Vec<(NodeIndex, Vec<Fact>)> = if let Some(taken) = jump_condition(insn, &terms.operands(k)) {
                let side = |outcome: bool| {
                    cfg.out_edges(node)
                        .into_iter()
                        .find(|e| *e.weight() == EdgeKind::Branch(outcome))
                        .map(|e| e.target())
                };
                let (Some(t), Some(f)) = (side(true), side(false)) else { continue };
                let negated = taken.negated();
                vec![(t, vec![taken]), (f, vec![negated])]
            } else if let Some(key) = terms.operands(k).first().filter(|_| insn.is_switch()) {
                switch_sides(cfg, node, insn, key)
            } else {
                continue;
            };
            let sides = targets
                .into_iter()
                .map(|(start, facts)| Side { reach: reachable_avoiding(cfg, &[start], node), facts })
                .collect();
            guards.push(Guard { node, sides, from_entry: reachable_avoiding(cfg, &[cfg.entry()], node) });
        }
        Guards { cfg, insns, guards }
    }

    /// The facts that hold when instruction `k` runs.
    pub fn facts_at(&self, k: usize) -> Vec<Fact> {
        let Some(site) = self.cfg.block_containing(self.insns[k].bci).map(|b| self.cfg.node(b)) else {
            return Vec::new();
        };
        let mut facts = Vec::new();
        for guard in &self.guards {
            if guard.from_entry[site.index()] {
                continue;
            }
            let mut leading = guard.sides.iter().filter(|s| s.reach[site.index()]);
            let (Some(side), None) = (leading.next(), leading.next()) else { continue };
            facts.extend(side.facts.iter().filter(|f| self.still_holds(f, guard, side, site, k)).cloned());
        }
        facts
    }

    /// Whether no definition of a value `fact` names can run after `guard`
    /// (on `side`) and before instruction `k` in block `site`.
    fn still_holds(&self, fact: &Fact, guard: &Guard, side: &Side, site: NodeIndex, k: usize) -> bool {
        let mut defs = Defs::new();
        fact.left.defs(&mut defs);
        fact.right.defs(&mut defs);
        defs.iter().all(|d| {
            let j = match *d {
                Def::Entry(_) => return true,
                Def::Insn(j) | Def::Caught(j) => j,
            };
            let Some(def_node) = self.cfg.block_containing(self.insns[j].bci).map(|b| self.cfg.node(b)) else {
                return true;
            };
            if !side.reach[def_node.index()] {
                return true;
            }
            if def_node == site && j < k {
                return false;
            }
            let after: Vec<NodeIndex> = self.cfg.graph.neighbors(def_node).collect();
            !reachable_avoiding(self.cfg, &after, guard.node)[site.index()]
        })
    }
}

/// The sides of a switch on `key`, per distinct target: `key == k` when
/// exactly one key and not the default leads there; on the default's side
/// `key != k` for every key that leads elsewhere (up to
/// [`MAX_DEFAULT_FACTS`]); nothing otherwise.
fn switch_sides(cfg: &ControlFlowGraph, node: NodeIndex, insn: &Insn, key: &Term) -> Vec<(NodeIndex, Vec<Fact>)> {
    let (default, pairs): (u32, Vec<(i32, u32)>) = match &insn.operand {
        Operand::TableSwitch { default, low, targets, .. } => {
            (*default, targets.iter().enumerate().map(|(i, t)| (low.saturating_add(i as i32), *t)).collect())
        }
        Operand::LookupSwitch { default, pairs } => (*default, pairs.clone()),
        _ => return Vec::new(),
    };
    let mut sides = Vec::new();
    for e in cfg.out_edges(node) {
        let EdgeKind::Switch { target } = *e.weight() else { continue };
        let keys: Vec<i32> = pairs.iter().filter(|p| p.1 == target).map(|p| p.0).collect();
        let elsewhere: Vec<i32> = pairs.iter().filter(|p| p.1 != target).map(|p| p.0).collect();
        let facts = match (target == default, keys.as_slice()) {
            (false, [only]) => vec![Fact::new(key.clone(), CmpOp::Eq, Term::Int(i64::from(*only)))],
            (true, _) if elsewhere.len() <= MAX_DEFAULT_FACTS => {
                elsewhere.iter().map(|k| Fact::new(key.clone(), CmpOp::Ne, Term::Int(i64::from(*k)))).collect()
            }
            _ => Vec::new(),
        };
        sides.push((e.target(), facts));
    }
    sides
}

/// The condition under which a conditional jump is taken, over its operand
/// terms; `None` for instructions that are not conditional jumps.
fn jump_condition(insn: &Insn, operands: &[Term]) -> Option<Fact> {
    let zero = || Term::Int(0);
    let (left, right) = match insn.opcode {
        op::IFEQ..=op::IFLE => (operands.first()?.clone(), zero()),
        op::IF_ICMPEQ..=op::IF_ACMPNE => (operands.first()?.clone(), operands.get(1)?.clone()),
        op::IFNULL | op::IFNONNULL => (operands.first()?.clone(), Term::Null),
        _ => return None,
    };
    let cmp = match insn.opcode {
        op::IFEQ | op::IF_ICMPEQ | op::IF_ACMPEQ | op::IFNULL => CmpOp::Eq,
        op::IFNE | op::IF_ICMPNE | op::IF_ACMPNE | op::IFNONNULL => CmpOp::Ne,
        op::IFLT | op::IF_ICMPLT => CmpOp::Lt,
        op::IFGE | op::IF_ICMPGE => CmpOp::Ge,
        op::IFGT | op::IF_ICMPGT => CmpOp::Gt,
        _ => CmpOp::Le,
    };
    Some(Fact::new(left, cmp, right))
}

/// The nodes reachable from `starts` over all edges without entering
/// `avoid` (the starts themselves count unless they are `avoid`), indexed
/// by node index.
fn reachable_avoiding(cfg: &ControlFlowGraph, starts: &[NodeIndex], avoid: NodeIndex) -> Vec<bool> {
    let mut seen = vec![false; cfg.node_count()];
    let mut work: Vec<NodeIndex> = starts.iter().copied().filter(|n| *n != avoid).collect();
    while let Some(n) = work.pop() {
        if std::mem::replace(&mut seen[n.index()], true) {
            continue;
        }
        work.extend(cfg.graph.neighbors(n).filter(|m| *m != avoid && !seen[m.index()]));
    }
    seen
}
