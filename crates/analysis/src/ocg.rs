//! Object construction graphs (EvoObj, Lin et al. ESEC/FSE 2021, §3.1;
//! TECHNIQUES.md §1 steps 1-2): an interprocedural backward slice from the
//! operands of a conditional jump or switch to the inputs of the method
//! that holds it, keeping only the paths from an input to a field or array
//! element read.
//!
//! [`build`] walks [`crate::dataflow`]'s definitions backwards. Loads,
//! stores, arithmetic, casts and comparisons are transparent (a value
//! computed from `x` leads back to `x`'s nodes); a `getfield` becomes a
//! [`OcgNode::Field`] owned by the nodes of its object, an array load an
//! [`OcgNode::ArrayElement`] owned by its array's nodes (its index feeds it
//! through an [`OcgEdge::Index`] edge), and a call either continues into
//! the callee (class-path code, up to `t_dep` calls deep) with the light
//! alias analysis of the paper — the callee's `this` and parameters *are*
//! the caller's nodes of the receiver and arguments, so `state.player(a)`
//! reading `this.seats[seat]` yields `seats` owned by `state` and indexed
//! by `a` — or, for JDK code, abstract methods and calls too deep, becomes
//! an [`OcgNode::Call`]. The slice stops at method inputs, static fields
//! and values with no incoming flow (constants, `new`): nodes made only of
//! those are dropped.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use model::bytecode::{Insn, Operand, op};
use model::classfile::ClassFile;
use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::callgraph::{Code, CodeCache};
use crate::dataflow::{Def, Defs, MethodFlow, method_flow};
use crate::insn::{member, split_descriptor};

/// Where [`build`] finds the classes a slice enters (a class path; the
/// analysis itself does no IO).
pub trait ClassSource {
    /// The class with internal name `internal`, if the class path has it.
    fn class(&self, internal: &str) -> Option<Arc<ClassFile>>;

    /// The class-path subtypes (direct and indirect) of `internal`, for
    /// class hierarchy analysis of virtual calls; none by default.
    fn subtypes(&self, internal: &str) -> Vec<String> {
        let _ = internal;
        Vec::new()
    }
}

impl<F: Fn(&str) -> Option<Arc<ClassFile>>> ClassSource for F {
    fn class(&self, internal: &str) -> Option<Arc<ClassFile>> {
        self(internal)
    }
}

/// A node of the object construction graph.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OcgNode {
    /// An input of the method under test: `this` (`param: None`) or
    /// parameter `param` (0-based, not counting `this`).
    Input {
        /// The parameter's position; `None` for `this`.
        param: Option<u16>,
        /// Its field descriptor (the class's own descriptor for `this`).
        descriptor: String,
    },
    /// A field read (`getfield`) of the object its [`OcgEdge::Owner`] parent holds.
    Field {
        /// Internal name of the class the instruction names.
        owner: String,
        /// The field's name.
        name: String,
        /// The field's descriptor.
        descriptor: String,
    },
    /// An array element read (`xaload`) of the array its owner holds.
    ArrayElement {
        /// The index when it is a constant in the code.
        index: Option<i32>,
    },
    /// A call whose result the slice does not follow into the callee.
    Call {
        /// Internal name of the class the instruction names.
        owner: String,
        /// The method's name.
        name: String,
        /// Its descriptor.
        descriptor: String,
    },
}

impl OcgNode {
    /// Whether the node reads state (a field or an array element).
    pub fn is_read(&self) -> bool {
        matches!(self, OcgNode::Field { .. } | OcgNode::ArrayElement { .. })
    }
}

/// How a parent's value flows into a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OcgEdge {
    /// The parent holds the object (or array) the node reads from or calls on.
    Owner,
    /// The parent is argument `.0` of the call.
    Arg(u8),
    /// The parent is the index of the array element.
    Index,
}

/// The object construction graph of one branch.
#[derive(Debug, Clone)]
pub struct Ocg {
    /// Nodes and data-flow edges (parent → child).
    pub graph: DiGraph<OcgNode, OcgEdge>,
    /// The nodes whose values the branch's condition reads directly.
    pub condition: Vec<NodeIndex>,
}

impl Ocg {
    /// The parents of `n` with the edge that links each.
    pub fn parents(&self, n: NodeIndex) -> Vec<(NodeIndex, OcgEdge)> {
        let mut out: Vec<_> =
            self.graph.edges_directed(n, Direction::Incoming).map(|e| (e.source(), *e.weight())).collect();
        out.sort();
        out
    }

    /// The children of `n`.
    pub fn children(&self, n: NodeIndex) -> Vec<NodeIndex> {
        let mut out: Vec<_> = self.graph.neighbors_directed(n, Direction::Outgoing).collect();
        out.sort();
        out.dedup();
        out
    }

    /// The nodes without parents (the inputs), in index order.
    pub fn roots(&self) -> Vec<NodeIndex> {
        self.graph
            .node_indices()
            .filter(|n| self.graph.neighbors_directed(*n, Direction::Incoming).next().is_none())
            .collect()
    }

    /// One line per node, in index order: `n2 call java/util/List.get(I)Ljava/lang/Object; <- owner n1, arg0 n3`;
    /// condition nodes are marked with `*`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for n in self.graph.node_indices() {
            let mark = if self.condition.contains(&n) { "*" } else { " " };
            let what = match &self.graph[n] {
                OcgNode::Input { param: None, descriptor } => format!("input this {descriptor}"),
                OcgNode::Input { param: Some(p), descriptor } => format!("input #{p} {descriptor}"),
                OcgNode::Field { owner, name, descriptor } => format!("field {owner}.{name} {descriptor}"),
                OcgNode::ArrayElement { index: Some(i) } => format!("element [{i}]"),
                OcgNode::ArrayElement { index: None } => "element [?]".to_string(),
                OcgNode::Call { owner, name, descriptor } => format!("call {owner}.{name}{descriptor}"),
            };
            let parents: Vec<String> = self
                .parents(n)
                .into_iter()
                .map(|(p, e)| match e {
                    OcgEdge::Owner => format!("owner n{}", p.index()),
                    OcgEdge::Arg(i) => format!("arg{i} n{}", p.index()),
                    OcgEdge::Index => format!("index n{}", p.index()),
                })
                .collect();
            let from = if parents.is_empty() { String::new() } else { format!(" <- {}", parents.join(", ")) };
            out.push_str(&format!("{mark}n{} {what}{from}\n", n.index()));
        }
        out
    }

    /// Whether the graph has no field or array element read.
    pub fn is_trivial(&self) -> bool {
        !self.graph.node_weights().any(OcgNode::is_read)
    }
}

/// Limits of [`build`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OcgLimits {
    /// How many calls deep the slice follows callees (`t_dep`, default 5).
    pub call_depth: u32,
    /// Most definitions visited in one slice (big methods cost time, not coverage).
    pub steps: usize,
}

impl Default for OcgLimits {
    fn default() -> Self {
        OcgLimits { call_depth: 5, steps: 20_000 }
    }
}

/// Builds the OCG of the conditional jump or switch at bytecode index
/// `bci` of method `method_index` of `cf`; `None` when the method has no
/// code there or its data flow cannot be computed.
pub fn build(
    cf: &Arc<ClassFile>,
    method_index: u16,
    bci: u32,
    classes: &dyn ClassSource,
    limits: OcgLimits,
) -> Option<Ocg> {
    let m = cf.methods.get(usize::from(method_index))?;
    let flow = Arc::new(method_flow(cf, m).ok()??);
    let k = flow.insns.iter().position(|i| i.bci == bci)?;
    let mut slicer = Slicer {
        classes,
        limits,
        graph: DiGraph::new(),
        nodes: HashMap::new(),
        steps: 0,
        next_context: 0,
        flows: CodeCache::default(),
    };
    let is_static = m.access & model::access::STATIC != 0;
    let ctx = slicer.root_context(cf, flow.clone(), cf.member_descriptor(m), is_static);
    let mut memo = HashMap::new();
    let mut condition = BTreeSet::new();
    for defs in flow.flow.operands[k].clone() {
        condition.extend(slicer.trace(&ctx, &defs, &mut memo));
    }
    Some(prune(slicer.graph, condition.into_iter().collect()))
}

/// A method being sliced, and what its entry slots stand for.
struct Context {
    id: usize,
    class: Arc<ClassFile>,
    flow: Arc<MethodFlow>,
    /// Per entry slot: the nodes the value stands for.
    entry: HashMap<u16, Vec<NodeIndex>>,
    depth: u32,
}

type Memo = HashMap<(usize, usize), Vec<NodeIndex>>;

struct Slicer<'a> {
    classes: &'a dyn ClassSource,
    limits: OcgLimits,
    graph: DiGraph<OcgNode, OcgEdge>,
    /// Deduplication: a node kind with the same parents is one node.
    nodes: HashMap<(OcgNode, Vec<(NodeIndex, OcgEdge)>), NodeIndex>,
    steps: usize,
    next_context: usize,
    /// Data flows of callees.
    flows: CodeCache,
}

impl Slicer<'_> {
    fn root_context(
        &mut self,
        cf: &Arc<ClassFile>,
        flow: Arc<MethodFlow>,
        descriptor: &str,
        is_static: bool,
    ) -> Context {
        let mut entry = HashMap::new();
        let mut slot = 0u16;
        if !is_static {
            let descriptor = format!("L{};", cf.name());
            entry.insert(0, vec![self.node(OcgNode::Input { param: None, descriptor }, Vec::new())]);
            slot = 1;
        }
        for (i, p) in split_descriptor(descriptor).0.into_iter().enumerate() {
            let input = OcgNode::Input { param: Some(i as u16), descriptor: p.to_string() };
            entry.insert(slot, vec![self.node(input, Vec::new())]);
            slot += if matches!(p, "J" | "D") { 2 } else { 1 };
        }
        Context { id: self.fresh_id(), class: cf.clone(), flow, entry, depth: 0 }
    }

    fn fresh_id(&mut self) -> usize {
        self.next_context += 1;
        self.next_context
    }

    fn node(&mut self, kind: OcgNode, mut parents: Vec<(NodeIndex, OcgEdge)>) -> NodeIndex {
        parents.sort();
        parents.dedup();
        let key = (kind, parents);
        if let Some(n) = self.nodes.get(&key) {
            return *n;
        }
        let n = self.graph.add_node(key.0.clone());
        for (p, e) in &key.1 {
            self.graph.add_edge(*p, n, *e);
        }
        self.nodes.insert(key, n);
        n
    }

    /// The nodes a value with definitions `defs` stands for.
    fn trace(&mut self, ctx: &Context, defs: &Defs, memo: &mut Memo) -> Vec<NodeIndex> {
        let mut out = BTreeSet::new();
        for d in defs {
            match *d {
                Def::Entry(slot) => out.extend(ctx.entry.get(&slot).into_iter().flatten().copied()),
                Def::Caught(_) => {}
                Def::Insn(k) => out.extend(self.trace_insn(ctx, k, memo)),
            }
        }
        out.into_iter().collect()
    }

    fn trace_insn(&mut self, ctx: &Context, k: usize, memo: &mut Memo) -> Vec<NodeIndex> {
        if let Some(done) = memo.get(&(ctx.id, k)) {
            return done.clone();
        }
        self.steps += 1;
        if self.steps > self.limits.steps {
            return Vec::new();
        }
        // A cycle through this instruction (a loop) adds nothing new.
        memo.insert((ctx.id, k), Vec::new());
        let result = self.trace_uncached(ctx, k, memo);
        memo.insert((ctx.id, k), result.clone());
        result
    }

    fn trace_uncached(&mut self, ctx: &Context, k: usize, memo: &mut Memo) -> Vec<NodeIndex> {
        let insn = &ctx.flow.insns[k];
        let operands = ctx.flow.flow.operands[k].clone();
        let mut traced = |s: &mut Self, i: usize| operands.get(i).map(|d| s.trace(ctx, d, memo)).unwrap_or_default();
        match insn.opcode {
            op::GETFIELD => {
                let Some(m) = member(&ctx.class.constant_pool, insn) else { return Vec::new() };
                let kind =
                    OcgNode::Field { owner: m.owner.into(), name: m.name.into(), descriptor: m.descriptor.into() };
                let owners = traced(self, 0);
                self.owned(kind, owners, Vec::new())
            }
            op::IALOAD..=op::SALOAD => {
                let arrays = traced(self, 0);
                let index: Vec<_> = traced(self, 1).into_iter().map(|n| (n, OcgEdge::Index)).collect();
                let constant = operands.get(1).and_then(|d| constant_index(&ctx.flow.insns, d));
                self.owned(OcgNode::ArrayElement { index: constant }, arrays, index)
            }
            op::INVOKEVIRTUAL..=op::INVOKEINTERFACE => {
                let args: Vec<Vec<NodeIndex>> = (0..operands.len()).map(|i| traced(self, i)).collect();
                self.call(ctx, insn, args, memo)
            }
            op::GETSTATIC | op::NEW | op::ACONST_NULL..=op::LDC2_W => Vec::new(),
            _ => (0..operands.len()).flat_map(|i| traced(self, i)).collect(),
        }
    }

    /// A read node owned by each of `owners` (none without an owner: the
    /// object has no incoming flow from an input).
    fn owned(&mut self, kind: OcgNode, owners: Vec<NodeIndex>, extra: Vec<(NodeIndex, OcgEdge)>) -> Vec<NodeIndex> {
        owners
            .into_iter()
            .map(|o| {
                let mut parents = vec![(o, OcgEdge::Owner)];
                parents.extend(extra.iter().copied());
                self.node(kind.clone(), parents)
            })
            .collect()
    }

    /// A call with the nodes of its receiver (if any) and arguments: the
    /// callee's returned nodes, or a [`OcgNode::Call`].
    fn call(&mut self, ctx: &Context, insn: &Insn, operands: Vec<Vec<NodeIndex>>, memo: &mut Memo) -> Vec<NodeIndex> {
        let Some(m) = member(&ctx.class.constant_pool, insn) else { return Vec::new() };
        let (owner, name, descriptor) = (m.owner.to_string(), m.name.to_string(), m.descriptor.to_string());
        if operands.iter().all(Vec::is_empty) {
            return Vec::new();
        }
        let has_receiver = insn.opcode != op::INVOKESTATIC;
        if ctx.depth < self.limits.call_depth
            && let Some((class, flow)) = self.callee(&owner, &name, &descriptor)
        {
            let returned = self.returned(ctx, class, flow, &descriptor, has_receiver, &operands, memo);
            if !returned.is_empty() || split_descriptor(&descriptor).1 == "V" {
                return returned;
            }
        }
        let (receiver, args) =
            if has_receiver { (operands[0].clone(), &operands[1..]) } else { (Vec::new(), &operands[..]) };
        let args: Vec<(NodeIndex, OcgEdge)> =
            args.iter().enumerate().flat_map(|(i, ns)| ns.iter().map(move |n| (*n, OcgEdge::Arg(i as u8)))).collect();
        let kind = OcgNode::Call { owner, name, descriptor };
        if receiver.is_empty() {
            return vec![self.node(kind, args)];
        }
        self.owned(kind, receiver, args)
    }

    /// The nodes the callee returns, its entry slots bound to the caller's operands.
    #[allow(clippy::too_many_arguments)]
    fn returned(
        &mut self,
        caller: &Context,
        class: Arc<ClassFile>,
        flow: Arc<MethodFlow>,
        descriptor: &str,
        has_receiver: bool,
        operands: &[Vec<NodeIndex>],
        memo: &mut Memo,
    ) -> Vec<NodeIndex> {
        let mut entry = HashMap::new();
        let mut slot = 0u16;
        let mut sizes: Vec<u16> = has_receiver.then_some(1).into_iter().collect();
        sizes.extend(split_descriptor(descriptor).0.iter().map(|p| if matches!(*p, "J" | "D") { 2 } else { 1 }));
        for (nodes, size) in operands.iter().zip(sizes) {
            entry.insert(slot, nodes.clone());
            slot += size;
        }
        let ctx = Context { id: self.fresh_id(), class, flow: flow.clone(), entry, depth: caller.depth + 1 };
        let mut out = BTreeSet::new();
        for (k, insn) in flow.insns.iter().enumerate() {
            if matches!(insn.opcode, op::IRETURN..=op::ARETURN)
                && let Some(d) = flow.flow.operands[k].first()
            {
                out.extend(self.trace(&ctx, d, memo));
            }
        }
        out.into_iter().collect()
    }

    /// The code of `owner.name descriptor` as resolved on the class path.
    fn callee(&mut self, owner: &str, name: &str, descriptor: &str) -> Option<Code> {
        self.flows.get(self.classes, owner, name, descriptor)
    }
}

/// Whether `internal` names a class of the JDK (whose code a slice does not enter).
pub fn is_jdk_class(internal: &str) -> bool {
    ["java/", "javax/", "jdk/", "sun/", "com/sun/"].iter().any(|p| internal.starts_with(p))
}

/// The constant an index operand holds, when all its definitions are one
/// `iconst`/`bipush`/`sipush`.
fn constant_index(insns: &[Insn], defs: &Defs) -> Option<i32> {
    let [Def::Insn(k)] = defs.iter().copied().collect::<Vec<_>>()[..] else { return None };
    let insn = &insns[k];
    match (insn.opcode, &insn.operand) {
        (op::ICONST_M1..=op::ICONST_5, _) => Some(i32::from(insn.opcode) - i32::from(op::ICONST_0)),
        (op::BIPUSH | op::SIPUSH, Operand::Int(v)) => Some(*v),
        _ => None,
    }
}

/// Keeps the nodes on a path from an input to a field or array read: every
/// node descends from an input by construction, so those that reach a read.
fn prune(graph: DiGraph<OcgNode, OcgEdge>, condition: Vec<NodeIndex>) -> Ocg {
    let keep: HashSet<NodeIndex> = graph
        .node_indices()
        .filter(|n| {
            let mut dfs = petgraph::visit::Dfs::new(&graph, *n);
            std::iter::from_fn(|| dfs.next(&graph)).any(|m| graph[m].is_read())
        })
        .collect();
    let mut map = HashMap::new();
    let mut out = DiGraph::new();
    for n in graph.node_indices().filter(|n| keep.contains(n)) {
        map.insert(n, out.add_node(graph[n].clone()));
    }
    for e in graph.edge_references() {
        if let (Some(a), Some(b)) = (map.get(&e.source()), map.get(&e.target())) {
            out.add_edge(*a, *b, *e.weight());
        }
    }
    let condition = condition.iter().filter_map(|n| map.get(n).copied()).collect();
    Ocg { graph: out, condition }
}

#[cfg(test)]
mod tests;
