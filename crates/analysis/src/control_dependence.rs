//! Control dependence over basic blocks (Ferrante, Ottenstein and Warren 1987).
//!
//! For every edge A → B of the [`ControlFlowGraph`] where B does not
//! post-dominate A, the blocks from B up the post-dominator tree to, not
//! including, ipdom(A) are control dependent on (A, label of the edge). The
//! virtual entry → exit edge of [`PostDominators`] makes the method's
//! top-level blocks control dependent on ([`CfgNode::Entry`](crate::cfg::CfgNode::Entry), [`EdgeKind::Entry`]).
//!
//! Exceptional edges take part with label [`EdgeKind::Exception`]: a
//! handler is control dependent on the blocks of its try range. Because the
//! post-dominators ignore exceptional edges, ipdom(A) need not lie above the
//! handler in the post-dominator tree; the walk then stops below the exit.
//!
//! The goal-level graph (branch sides and switch cases as parents of goals)
//! is built from this by [`crate::goals`].

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::cfg::{ControlFlowGraph, EdgeKind};
use crate::dominance::PostDominators;

/// One control dependence: the dependent node runs iff `controller` takes
/// its outgoing edge labelled `label`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dependence {
    /// The deciding node (a block or the virtual entry).
    pub controller: NodeIndex,
    /// The label of the deciding edge.
    pub label: EdgeKind,
}

/// The control dependences of every node of one method.
#[derive(Debug, Clone)]
pub struct ControlDependence {
    deps: Vec<Vec<Dependence>>,
}

impl ControlDependence {
    /// Computes the control dependences of `cfg` given its post-dominators.
    pub fn compute(cfg: &ControlFlowGraph, pdom: &PostDominators) -> ControlDependence {
        let mut deps: Vec<Vec<Dependence>> = vec![Vec::new(); cfg.node_count()];
        for e in cfg.graph.edge_references() {
            let (a, b) = (e.source(), e.target());
            if pdom.post_dominates(b, a) {
                continue;
            }
            let stop = pdom.immediate(a);
            let dependence = Dependence { controller: a, label: *e.weight() };
            let mut runner = Some(b);
            while let Some(r) = runner {
                if Some(r) == stop || r == pdom.exit() {
                    break;
                }
                if !deps[r.index()].contains(&dependence) {
                    deps[r.index()].push(dependence);
                }
                runner = pdom.immediate(r);
            }
        }
        for d in &mut deps {
            d.sort();
        }
        ControlDependence { deps }
    }

    /// The control dependences of node `n`, sorted; empty for nodes that
    /// depend on nothing (the entry, the exit, unreachable code).
    pub fn of(&self, n: NodeIndex) -> &[Dependence] {
        self.deps.get(n.index()).map_or(&[], Vec::as_slice)
    }

    /// The block-level control dependence graph: an edge controller →
    /// dependent labelled with the deciding edge's kind, over the same node
    /// indices as the [`ControlFlowGraph`].
    pub fn graph(&self) -> DiGraph<(), EdgeKind> {
        let mut g = DiGraph::with_capacity(self.deps.len(), self.deps.len());
        for _ in 0..self.deps.len() {
            g.add_node(());
        }
        for (n, ds) in self.deps.iter().enumerate() {
            for d in ds {
                g.add_edge(d.controller, NodeIndex::new(n), d.label);
            }
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::CfgNode;
    use crate::error::Location;
    use model::bytecode::decode;
    use model::classfile::ExceptionEntry;

    fn cd_table(code: &[u8], table: &[ExceptionEntry]) -> String {
        let cfg = ControlFlowGraph::build(&decode(code).unwrap(), table, &Location::class("T")).unwrap();
        let pdom = PostDominators::compute(&cfg);
        let cd = ControlDependence::compute(&cfg, &pdom);
        let name = |n: NodeIndex| match cfg.graph[n] {
            CfgNode::Entry => "entry".to_string(),
            CfgNode::Exit => "exit".to_string(),
            CfgNode::Block(b) => format!("B{}", cfg.block(b).start_bci),
        };
        let mut out = Vec::new();
        for n in cfg.graph.node_indices() {
            for d in cd.of(n) {
                out.push(format!("{} on {} {:?}", name(n), name(d.controller), d.label));
            }
        }
        out.join("\n")
    }

    #[test]
    fn the_then_block_depends_on_the_fall_through_side() {
        // 0: iload_0; 1: ifeq 7; 4: iinc 0 1; 7: iload_0; 8: ireturn
        let table = cd_table(&[0x1a, 0x99, 0, 6, 0x84, 0, 1, 0x1a, 0xac], &[]);
        assert_eq!(table, "B0 on entry Entry\nB4 on B0 Branch(false)\nB7 on entry Entry");
    }

    #[test]
    fn a_loop_header_depends_on_its_own_back_edge_side() {
        // 0: iload_0; 1: ifle 10; 4: iinc 0 -1; 7: goto 0; 10: iload_0; 11: ireturn
        let code = [0x1a, 0x9e, 0, 9, 0x84, 0, 0xff, 0xa7, 0xff, 0xf9, 0x1a, 0xac];
        let table = cd_table(&code, &[]);
        assert_eq!(table, "B0 on entry Entry\nB0 on B0 Branch(false)\nB4 on B0 Branch(false)\nB10 on entry Entry");
    }

    #[test]
    fn a_handler_depends_on_the_blocks_of_its_try_range() {
        // 0: iload_0; 1: ifeq 5 (try 0..5); 4: return; 5: return; 6: astore_1 (handler); 7: return
        let table = [ExceptionEntry { start_pc: 0, end_pc: 5, handler_pc: 6, catch_type: 0 }];
        let out = cd_table(&[0x1a, 0x99, 0, 4, 0xb1, 0xb1, 0x4c, 0xb1], &table);
        let expected = "B0 on entry Entry\nB4 on B0 Branch(false)\nB5 on B0 Branch(true)\n\
                        B6 on B0 Exception { handler: 6 }\nB6 on B4 Exception { handler: 6 }";
        assert_eq!(out, expected);
    }
}
