//! Control-flow graphs of methods over basic blocks.
//!
//! A [`ControlFlowGraph`] has one node per basic block plus a virtual
//! [`CfgNode::Entry`] and [`CfgNode::Exit`]. Block leaders are: bytecode
//! index 0, every jump and switch target, the instruction after every jump,
//! switch, return, `athrow`, `jsr` and `ret`, and every exception-table
//! boundary (`start_pc`, `end_pc`, `handler_pc`), so that each block lies
//! either wholly inside or wholly outside every try range.
//!
//! Edges carry an [`EdgeKind`]. Normal edges model ordinary control flow;
//! [`EdgeKind::Exception`] edges go from every block inside a try range to
//! that range's handler. Returns and `athrow` have an [`EdgeKind::Exit`] edge
//! to the virtual exit (an `athrow` inside a try range has both).
//!
//! Invariant: node indices are dense, `Entry` is node 0, `Exit` node 1 and
//! block `b` is node `b + 2`; blocks are numbered in bytecode order.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use model::bytecode::{Insn, Operand, op};
use model::classfile::ExceptionEntry;
use petgraph::Direction;
use petgraph::graph::{DiGraph, EdgeReference, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::{Deserialize, Serialize};

use crate::error::{AnalysisError, ErrorKind, Location};

/// Index of a basic block within its method, in bytecode order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BlockId(pub u32);

/// A maximal straight-line run of instructions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BasicBlock {
    /// This block's index.
    pub id: BlockId,
    /// Bytecode index of the first instruction.
    pub start_bci: u32,
    /// Bytecode index of the last instruction.
    pub last_bci: u32,
    /// Indices of the block's instructions in the decoded instruction list.
    pub insns: Range<usize>,
}

/// A node of a [`ControlFlowGraph`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CfgNode {
    /// The virtual entry; its only edge goes to the block at bytecode index 0.
    Entry,
    /// The virtual exit, reached by returns and `athrow`.
    Exit,
    /// A basic block.
    Block(BlockId),
}

/// The label of a control-flow edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EdgeKind {
    /// Virtual entry to the first block.
    Entry,
    /// To the next instruction, from an instruction that is not a jump
    /// (including the return point after a `jsr`).
    Fallthrough,
    /// An unconditional jump (`goto`, the target of `jsr`, a `ret`).
    Goto,
    /// A conditional jump: `true` is the taken side (the JVM condition
    /// holds), `false` the fall-through side.
    Branch(bool),
    /// A switch edge to `target` (one edge per distinct target, the default
    /// included).
    Switch {
        /// Bytecode index of the target.
        target: u32,
    },
    /// From a block inside a try range to the range's handler.
    Exception {
        /// Bytecode index of the handler.
        handler: u32,
    },
    /// From a return or `athrow` to the virtual exit.
    Exit,
}

impl EdgeKind {
    /// Whether this is ordinary (non-exceptional) control flow.
    pub fn is_normal(self) -> bool {
        !matches!(self, EdgeKind::Exception { .. })
    }
}

/// The control-flow graph of one method.
#[derive(Debug, Clone)]
pub struct ControlFlowGraph {
    /// The graph; see the module doc for the node numbering.
    pub graph: DiGraph<CfgNode, EdgeKind>,
    /// The basic blocks in bytecode order (`blocks[b.0].id == b`).
    pub blocks: Vec<BasicBlock>,
}

impl ControlFlowGraph {
    /// Builds the graph of a method from its decoded instructions (in
    /// bytecode order, as [`model::bytecode::decode`] returns them) and its
    /// exception table.
    ///
    /// # Errors
    /// [`ErrorKind::EmptyCode`], [`ErrorKind::BadJumpTarget`] or
    /// [`ErrorKind::BadExceptionRange`], located at `location` narrowed to the
    /// offending bytecode index.
    pub fn build(
        insns: &[Insn],
        exception_table: &[ExceptionEntry],
        location: &Location,
    ) -> Result<ControlFlowGraph, AnalysisError> {
        let Some(last) = insns.last() else {
            return Err(AnalysisError::new(location.clone(), ErrorKind::EmptyCode));
        };
        let code_end = last.bci + 1;
        let index_of: HashMap<u32, usize> = insns.iter().enumerate().map(|(i, insn)| (insn.bci, i)).collect();
        check_targets(insns, &index_of, location)?;
        check_exception_table(exception_table, &index_of, code_end, location)?;
        let leaders = leaders(insns, exception_table);
        let blocks = split_blocks(insns, &leaders);
        let mut graph = DiGraph::with_capacity(blocks.len() + 2, blocks.len() * 2);
        graph.add_node(CfgNode::Entry);
        graph.add_node(CfgNode::Exit);
        for b in &blocks {
            graph.add_node(CfgNode::Block(b.id));
        }
        let mut cfg = ControlFlowGraph { graph, blocks };
        cfg.graph.add_edge(cfg.entry(), cfg.node(BlockId(0)), EdgeKind::Entry);
        cfg.add_normal_edges(insns);
        cfg.add_exception_edges(exception_table);
        Ok(cfg)
    }

    /// The node of the virtual entry (always node 0).
    pub fn entry(&self) -> NodeIndex {
        NodeIndex::new(0)
    }

    /// The node of the virtual exit (always node 1).
    pub fn exit(&self) -> NodeIndex {
        NodeIndex::new(1)
    }

    /// The node of block `b`.
    pub fn node(&self, b: BlockId) -> NodeIndex {
        NodeIndex::new(b.0 as usize + 2)
    }

    /// The block of a node (`None` for the virtual entry and exit).
    pub fn block_of(&self, n: NodeIndex) -> Option<BlockId> {
        match self.graph[n] {
            CfgNode::Block(b) => Some(b),
            _ => None,
        }
    }

    /// The block at `b`.
    pub fn block(&self, b: BlockId) -> &BasicBlock {
        &self.blocks[b.0 as usize]
    }

    /// The block that contains the instruction at `bci`.
    pub fn block_containing(&self, bci: u32) -> Option<BlockId> {
        let i = self.blocks.partition_point(|b| b.start_bci <= bci);
        let b = self.blocks.get(i.checked_sub(1)?)?;
        (bci <= b.last_bci).then_some(b.id)
    }

    /// Outgoing edges of `n`, in insertion order (fall-through/taken order
    /// for branches, default first for switches).
    pub fn out_edges(&self, n: NodeIndex) -> Vec<EdgeReference<'_, EdgeKind>> {
        let mut edges: Vec<_> = self.graph.edges_directed(n, Direction::Outgoing).collect();
        edges.sort_by_key(|e| e.id());
        edges
    }

    /// Number of nodes, the virtual entry and exit included.
    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    fn add_normal_edges(&mut self, insns: &[Insn]) {
        let return_points: Vec<u32> = insns
            .iter()
            .enumerate()
            .filter(|(_, i)| matches!(i.opcode, op::JSR | op::JSR_W))
            .filter_map(|(k, _)| insns.get(k + 1).map(|n| n.bci))
            .collect();
        for b in 0..self.blocks.len() {
            let block = &self.blocks[b];
            let from = self.node(block.id);
            let insn = &insns[block.insns.end - 1];
            let next = insns.get(block.insns.end).map(|n| n.bci);
            for (target, kind) in successors(insn, next, &return_points) {
                let to = match target {
                    Some(bci) => self.node(self.block_containing(bci).expect("targets are checked")),
                    None => self.exit(),
                };
                self.graph.add_edge(from, to, kind);
            }
        }
    }

    fn add_exception_edges(&mut self, exception_table: &[ExceptionEntry]) {
        let mut seen = BTreeSet::new();
        for e in exception_table {
            let handler = self.node(self.block_containing(e.handler_pc).expect("handlers are checked"));
            for b in 0..self.blocks.len() {
                let block = &self.blocks[b];
                if block.start_bci >= e.start_pc && block.start_bci < e.end_pc && seen.insert((b, e.handler_pc)) {
                    let from = self.node(block.id);
                    self.graph.add_edge(from, handler, EdgeKind::Exception { handler: e.handler_pc });
                }
            }
        }
    }
}

/// Successors of the last instruction of a block: `(Some(bci), kind)` for a
/// block target, `(None, kind)` for the virtual exit. `next` is the bytecode
/// index of the following instruction, if any.
fn successors(insn: &Insn, next: Option<u32>, return_points: &[u32]) -> Vec<(Option<u32>, EdgeKind)> {
    let mut out = Vec::new();
    match (&insn.operand, insn.opcode) {
        (Operand::Jump(t), _) if insn.is_conditional_jump() => {
            out.push((next, EdgeKind::Branch(false)));
            out.push((Some(*t), EdgeKind::Branch(true)));
            return out;
        }
        (Operand::Jump(t), _) => out.push((Some(*t), EdgeKind::Goto)),
        (Operand::TableSwitch { .. } | Operand::LookupSwitch { .. }, _) => {
            let mut targets = insn.targets();
            let mut seen = BTreeSet::new();
            targets.retain(|t| seen.insert(*t));
            out.extend(targets.into_iter().map(|t| (Some(t), EdgeKind::Switch { target: t })));
            return out;
        }
        (_, op::RET) => {
            out.extend(return_points.iter().map(|&t| (Some(t), EdgeKind::Goto)));
            if out.is_empty() {
                out.push((None, EdgeKind::Exit));
            }
            return out;
        }
        _ if insn.is_exit() => {
            out.push((None, EdgeKind::Exit));
            return out;
        }
        _ => {}
    }
    if insn.falls_through() {
        // Code that runs off its end is invalid; the exit keeps the graph sane.
        out.push((next, if next.is_some() { EdgeKind::Fallthrough } else { EdgeKind::Exit }));
    }
    out
}

fn check_targets(insns: &[Insn], index_of: &HashMap<u32, usize>, location: &Location) -> Result<(), AnalysisError> {
    for insn in insns {
        if let Some(&target) = insn.targets().iter().find(|t| !index_of.contains_key(t)) {
            return Err(AnalysisError::new(location.at(insn.bci), ErrorKind::BadJumpTarget { target }));
        }
    }
    Ok(())
}

fn check_exception_table(
    table: &[ExceptionEntry],
    index_of: &HashMap<u32, usize>,
    code_end: u32,
    location: &Location,
) -> Result<(), AnalysisError> {
    for e in table {
        let ok = e.start_pc < e.end_pc
            && index_of.contains_key(&e.start_pc)
            && (index_of.contains_key(&e.end_pc) || e.end_pc >= code_end)
            && index_of.contains_key(&e.handler_pc);
        if !ok {
            let kind =
                ErrorKind::BadExceptionRange { start_pc: e.start_pc, end_pc: e.end_pc, handler_pc: e.handler_pc };
            return Err(AnalysisError::new(location.at(e.start_pc), kind));
        }
    }
    Ok(())
}

fn leaders(insns: &[Insn], exception_table: &[ExceptionEntry]) -> BTreeSet<u32> {
    let mut leaders = BTreeSet::from([0]);
    for (k, insn) in insns.iter().enumerate() {
        leaders.extend(insn.targets());
        let ends_block = !insn.targets().is_empty() || insn.is_exit() || matches!(insn.opcode, op::RET);
        if let (true, Some(next)) = (ends_block, insns.get(k + 1)) {
            leaders.insert(next.bci);
        }
    }
    for e in exception_table {
        leaders.extend([e.start_pc, e.end_pc, e.handler_pc]);
    }
    leaders
}

fn split_blocks(insns: &[Insn], leaders: &BTreeSet<u32>) -> Vec<BasicBlock> {
    let mut blocks = Vec::new();
    let mut start = 0;
    for k in 1..=insns.len() {
        if k == insns.len() || leaders.contains(&insns[k].bci) {
            let id = BlockId(blocks.len() as u32);
            blocks.push(BasicBlock { id, start_bci: insns[start].bci, last_bci: insns[k - 1].bci, insns: start..k });
            start = k;
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::bytecode::decode;

    /// Renders the graph as `node -> node (kind)` lines; blocks as `B<start bci>`.
    fn render(cfg: &ControlFlowGraph) -> String {
        let name = |n: NodeIndex| match cfg.graph[n] {
            CfgNode::Entry => "entry".to_string(),
            CfgNode::Exit => "exit".to_string(),
            CfgNode::Block(b) => format!("B{}", cfg.block(b).start_bci),
        };
        let mut lines: Vec<String> = cfg
            .graph
            .edge_references()
            .map(|e| format!("{} -> {} {:?}", name(e.source()), name(e.target()), e.weight()))
            .collect();
        lines.sort();
        lines.join("\n")
    }

    fn build(code: &[u8], table: &[ExceptionEntry]) -> ControlFlowGraph {
        ControlFlowGraph::build(&decode(code).unwrap(), table, &Location::class("T")).unwrap()
    }

    #[test]
    fn an_if_splits_into_three_blocks_with_labelled_sides() {
        // 0: iload_0; 1: ifeq 6; 4: iconst_1; 5: ireturn; 6: iconst_0; 7: ireturn
        let cfg = build(&[0x1a, 0x99, 0, 5, 0x04, 0xac, 0x03, 0xac], &[]);
        assert_eq!(cfg.blocks.len(), 3);
        assert_eq!(
            render(&cfg),
            "B0 -> B4 Branch(false)\nB0 -> B6 Branch(true)\nB4 -> exit Exit\nB6 -> exit Exit\nentry -> B0 Entry"
        );
    }

    #[test]
    fn a_switch_has_one_edge_per_distinct_target() {
        // 0: iload_0; 1: tableswitch low 0 high 2 default 32 targets [28, 32, 28]
        // 28: iconst_1; 29: ireturn; 30: nop; 31: nop; 32: iconst_0; 33: ireturn
        let mut code = vec![0x1a, 0xaa, 0, 0];
        for v in [31i32, 0, 2, 27, 31, 27] {
            code.extend_from_slice(&v.to_be_bytes());
        }
        code.extend_from_slice(&[0x04, 0xac, 0x00, 0x00, 0x03, 0xac]);
        let cfg = build(&code, &[]);
        let expected = "B0 -> B28 Switch { target: 28 }\nB0 -> B32 Switch { target: 32 }\nB28 -> exit Exit\n\
                        B30 -> B32 Fallthrough\nB32 -> exit Exit\nentry -> B0 Entry";
        assert_eq!(render(&cfg), expected);
    }

    #[test]
    fn try_ranges_split_blocks_and_get_exception_edges() {
        // 0: nop; 1: nop (try 1..2); 2: return; 3: astore_1 (handler); 4: return
        let table = [ExceptionEntry { start_pc: 1, end_pc: 2, handler_pc: 3, catch_type: 0 }];
        let cfg = build(&[0x00, 0x00, 0xb1, 0x4c, 0xb1], &table);
        let expected = "B0 -> B1 Fallthrough\nB1 -> B2 Fallthrough\nB1 -> B3 Exception { handler: 3 }\n\
                        B2 -> exit Exit\nB3 -> exit Exit\nentry -> B0 Entry";
        assert_eq!(render(&cfg), expected);
        assert_eq!(cfg.block_containing(3), Some(BlockId(3)));
        assert_eq!(cfg.block_containing(9), None);
    }

    #[test]
    fn a_bad_exception_range_is_an_error_naming_the_bci() {
        let table = [ExceptionEntry { start_pc: 1, end_pc: 1, handler_pc: 0, catch_type: 0 }];
        let err =
            ControlFlowGraph::build(&decode(&[0x00, 0x00, 0xb1]).unwrap(), &table, &Location::method("T", "m", "()V"))
                .unwrap_err();
        assert_eq!(
            err.to_string(),
            "T.m()V at bytecode index 1: exception-table row [1, 1) -> 0 does not fit the code"
        );
    }

    #[test]
    fn an_infinite_loop_has_no_exit_edge() {
        // 0: nop; 1: goto 0
        let cfg = build(&[0x00, 0xa7, 0xff, 0xff], &[]);
        assert_eq!(render(&cfg), "B0 -> B0 Goto\nentry -> B0 Entry");
    }
}
