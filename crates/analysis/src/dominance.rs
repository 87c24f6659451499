//! Post-dominators of a [`ControlFlowGraph`].
//!
//! Computed with petgraph's `simple_fast` (Cooper, Harvey and Kennedy) on
//! the reversed graph, rooted at the virtual exit, over the *normal* edges
//! only: exceptional edges would make almost nothing inside a try block
//! post-dominate anything, which would wreck control dependence. Handlers
//! still get post-dominators because their own code reaches the exit.
//!
//! Virtual edges are added: entry → exit, as in Ferrante et al. (1987), so
//! that the method's top-level blocks are control dependent on the entry;
//! and, for code that can never reach the exit (infinite loops), an edge to
//! the exit from every latch of every bottom strongly connected component of
//! that code (a block whose edge goes back to the same or a lower bytecode
//! index of the component: the loop's closing `goto` or conditional jump).
//! This treats an infinite loop like a loop whose exit test never succeeds,
//! so the blocks inside it keep their control dependences on the branches
//! inside it. Every node then has an immediate post-dominator except the
//! exit itself.

use petgraph::algo::{dominators, tarjan_scc};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{Bfs, EdgeRef};

use crate::cfg::ControlFlowGraph;

/// The post-dominator tree of one method's [`ControlFlowGraph`].
#[derive(Debug, Clone)]
pub struct PostDominators {
    ipdom: Vec<Option<NodeIndex>>,
    exit: NodeIndex,
    virtual_exits: Vec<NodeIndex>,
}

impl PostDominators {
    /// Computes the post-dominators of `cfg` (see the module doc).
    pub fn compute(cfg: &ControlFlowGraph) -> PostDominators {
        let n = cfg.node_count();
        // `reversed` has an edge v -> u for every normal CFG edge u -> v.
        let mut reversed: DiGraph<(), ()> = DiGraph::with_capacity(n, n * 2);
        for _ in 0..n {
            reversed.add_node(());
        }
        for e in cfg.graph.edge_references().filter(|e| e.weight().is_normal()) {
            reversed.add_edge(e.target(), e.source(), ());
        }
        reversed.add_edge(cfg.exit(), cfg.entry(), ());
        let virtual_exits = connect_dead_ends(cfg, &mut reversed);
        let doms = dominators::simple_fast(&reversed, cfg.exit());
        let ipdom = (0..n).map(|i| doms.immediate_dominator(NodeIndex::new(i))).collect();
        PostDominators { ipdom, exit: cfg.exit(), virtual_exits }
    }

    /// The immediate post-dominator of `n`; `None` only for the exit.
    pub fn immediate(&self, n: NodeIndex) -> Option<NodeIndex> {
        self.ipdom.get(n.index()).copied().flatten()
    }

    /// Whether `a` post-dominates `b` (every node post-dominates itself).
    pub fn post_dominates(&self, a: NodeIndex, b: NodeIndex) -> bool {
        let mut runner = Some(b);
        while let Some(r) = runner {
            if r == a {
                return true;
            }
            runner = self.immediate(r);
        }
        false
    }

    /// The virtual exit node.
    pub fn exit(&self) -> NodeIndex {
        self.exit
    }

    /// Nodes given a virtual edge to the exit because they could not reach
    /// it (one per bottom component of an infinite loop), in ascending order.
    pub fn virtual_exits(&self) -> &[NodeIndex] {
        &self.virtual_exits
    }
}

/// Adds reversed edges exit -> x for chosen nodes x until every node can
/// reach the exit; returns the chosen nodes.
fn connect_dead_ends(cfg: &ControlFlowGraph, reversed: &mut DiGraph<(), ()>) -> Vec<NodeIndex> {
    let mut chosen = Vec::new();
    loop {
        let mut reaches = vec![false; reversed.node_count()];
        let mut bfs = Bfs::new(&*reversed, cfg.exit());
        while let Some(x) = bfs.next(&*reversed) {
            reaches[x.index()] = true;
        }
        if reaches.iter().all(|r| *r) {
            chosen.sort();
            return chosen;
        }
        // The subgraph of nodes that cannot reach the exit, in CFG direction.
        let dead: Vec<NodeIndex> = (0..reaches.len()).filter(|&i| !reaches[i]).map(NodeIndex::new).collect();
        let mut sub: DiGraph<NodeIndex, ()> = DiGraph::new();
        let local: std::collections::HashMap<NodeIndex, NodeIndex> =
            dead.iter().map(|&d| (d, sub.add_node(d))).collect();
        for e in cfg.graph.edge_references().filter(|e| e.weight().is_normal()) {
            if let (Some(&a), Some(&b)) = (local.get(&e.source()), local.get(&e.target())) {
                sub.add_edge(a, b, ());
            }
        }
        for scc in tarjan_scc(&sub) {
            let is_bottom = scc.iter().all(|&x| sub.neighbors(x).all(|y| scc.contains(&y)));
            if is_bottom {
                for last in latches(cfg, &sub, &scc) {
                    reversed.add_edge(cfg.exit(), last, ());
                    chosen.push(last);
                }
            }
        }
    }
}

/// The latches of a bottom component: nodes with an edge back to a node of
/// the component at the same or a lower bytecode index (the `goto` or
/// conditional jump that closes the loop). Falls back to the node with the
/// highest index.
fn latches(cfg: &ControlFlowGraph, sub: &DiGraph<NodeIndex, ()>, scc: &[NodeIndex]) -> Vec<NodeIndex> {
    let mut out: Vec<NodeIndex> = scc
        .iter()
        .filter(|&&x| sub.neighbors(x).any(|y| scc.contains(&y) && sort_key(cfg, sub[y]) <= sort_key(cfg, sub[x])))
        .map(|&x| sub[x])
        .collect();
    if out.is_empty() {
        out.extend(scc.iter().map(|&x| sub[x]).max_by_key(|&x| sort_key(cfg, x)));
    }
    out
}

/// Orders nodes by the bytecode index of their block (virtual nodes first).
fn sort_key(cfg: &ControlFlowGraph, n: NodeIndex) -> (u32, usize) {
    let bci = cfg.block_of(n).map_or(0, |b| cfg.block(b).start_bci);
    (bci, n.index())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::CfgNode;
    use crate::error::Location;
    use model::bytecode::decode;

    fn pdom_table(code: &[u8]) -> String {
        let cfg = ControlFlowGraph::build(&decode(code).unwrap(), &[], &Location::class("T")).unwrap();
        let pdom = PostDominators::compute(&cfg);
        let name = |n: NodeIndex| match cfg.graph[n] {
            CfgNode::Entry => "entry".to_string(),
            CfgNode::Exit => "exit".to_string(),
            CfgNode::Block(b) => format!("B{}", cfg.block(b).start_bci),
        };
        cfg.graph
            .node_indices()
            .map(|n| format!("{} <- {}", name(n), pdom.immediate(n).map_or("-".to_string(), name)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    #[test]
    fn the_join_block_post_dominates_both_sides_of_an_if() {
        // 0: iload_0; 1: ifeq 7; 4: iinc 0 1; 7: iload_0; 8: ireturn
        let table = pdom_table(&[0x1a, 0x99, 0, 6, 0x84, 0, 1, 0x1a, 0xac]);
        assert_eq!(table, "entry <- exit, exit <- -, B0 <- B7, B4 <- B7, B7 <- exit");
    }

    #[test]
    fn an_infinite_loop_is_connected_to_the_exit_at_its_back_edge() {
        // 0: iload_0; 1: ifeq 7; 4: iinc 0 1; 7: goto 0
        let code = [0x1a, 0x99, 0, 6, 0x84, 0, 1, 0xa7, 0xff, 0xf9];
        let table = pdom_table(&code);
        assert_eq!(table, "entry <- exit, exit <- -, B0 <- B7, B4 <- B7, B7 <- exit");
        let cfg = ControlFlowGraph::build(&decode(&code).unwrap(), &[], &Location::class("T")).unwrap();
        let pdom = PostDominators::compute(&cfg);
        assert_eq!(pdom.virtual_exits(), &[cfg.node(crate::cfg::BlockId(2))]);
        assert!(pdom.post_dominates(cfg.node(crate::cfg::BlockId(2)), cfg.node(crate::cfg::BlockId(0))));
    }
}
