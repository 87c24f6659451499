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
use model::bytecode::{Insn, op};
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

/// One conditional jump with what it tells each side.
struct Jump {
    /// Its block's node.
    node: NodeIndex,
    /// The condition that holds on the taken side.
    taken: Fact,
    /// Nodes reachable from the taken / fall-through side without passing the jump.
    reach: [Vec<bool>; 2],
    /// Nodes reachable from the entry without passing the jump.
    from_entry: Vec<bool>,
}

/// The guards of one method.
pub struct Guards<'a> {
    cfg: &'a ControlFlowGraph,
    insns: &'a [Insn],
    jumps: Vec<Jump>,
}

impl<'a> Guards<'a> {
    /// The guards of a method with instructions `insns` (as its data flow
    /// decoded them), control-flow graph `cfg` and operand terms `terms`.
    pub fn new(cfg: &'a ControlFlowGraph, insns: &'a [Insn], terms: &Terms<'_>) -> Guards<'a> {
        let mut jumps = Vec::new();
        for (k, insn) in insns.iter().enumerate() {
            let Some(taken) = jump_condition(insn, &terms.operands(k)) else { continue };
            let Some(block) = cfg.block_containing(insn.bci) else { continue };
            let node = cfg.node(block);
            let side = |outcome: bool| {
                cfg.out_edges(node).into_iter().find(|e| *e.weight() == EdgeKind::Branch(outcome)).map(|e| e.target())
            };
            let (Some(t), Some(f)) = (side(true), side(false)) else { continue };
            let reach = [reachable_avoiding(cfg, &[t], node), reachable_avoiding(cfg, &[f], node)];
            let from_entry = reachable_avoiding(cfg, &[cfg.entry()], node);
            jumps.push(Jump { node, taken, reach, from_entry });
        }
        Guards { cfg, insns, jumps }
    }

    /// The facts that hold when instruction `k` runs.
    pub fn facts_at(&self, k: usize) -> Vec<Fact> {
        let Some(site) = self.cfg.block_containing(self.insns[k].bci).map(|b| self.cfg.node(b)) else {
            return Vec::new();
        };
        let mut facts = Vec::new();
        for jump in &self.jumps {
            if jump.from_entry[site.index()] {
                continue;
            }
            let fact = match (jump.reach[0][site.index()], jump.reach[1][site.index()]) {
                (true, false) => jump.taken.clone(),
                (false, true) => jump.taken.negated(),
                _ => continue,
            };
            let side = usize::from(!jump.reach[0][site.index()]);
            if self.still_holds(&fact, jump, side, site, k) {
                facts.push(fact);
            }
        }
        facts
    }

    /// Whether no definition of a value `fact` names can run after `jump`
    /// (on `side`: 0 taken, 1 fall-through) and before instruction `k` in
    /// block `site`.
    fn still_holds(&self, fact: &Fact, jump: &Jump, side: usize, site: NodeIndex, k: usize) -> bool {
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
            if !jump.reach[side][def_node.index()] {
                return true;
            }
            if def_node == site && j < k {
                return false;
            }
            let after: Vec<NodeIndex> = self.cfg.graph.neighbors(def_node).collect();
            !reachable_avoiding(self.cfg, &after, jump.node)[site.index()]
        })
    }
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
