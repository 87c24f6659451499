//! Call-sequence models from recorded calls (Palus, Zhang et al. ISSTA
//! 2011, §3.1; TECHNIQUES.md §4 step 1).
//!
//! Per recorded object, its history is the call that made it (a
//! constructor, or any call that returned it first) followed by the
//! outermost calls made on it, in order. The histories of the objects of
//! one class form a prefix tree whose root is "not made yet"; kTail
//! (Biermann and Feldman 1972) merges the tree's nodes whose k-futures
//! (the call sequences of length at most k that leave the node, a sequence
//! that ends earlier ending a history there) are equal, so that the model
//! generalises loops and shared suffixes. Nodes are abstract states, edges
//! calls, each with what its arguments were:
//! - the recorded primitives, strings, enum constants and nulls;
//! - the abstract profiles of object arguments (Palus's abstract object
//!   profile, computed by the recorder);
//! - direct state-transition dependences: an object argument that has a
//!   history of its own was at a node of its class's model when it was
//!   passed (the `Connection` an edge takes was in the state reached by
//!   `Driver.connect`).
//!
//! The edge that makes an object through an instance method of another
//! class (the `connect` of a `Driver`) records the state of that receiver
//! the same way.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use instrument::record::RecordedMethod;
use serde::Serialize;

use crate::events::{Call, ObjectId, Value};

/// How many distinct values, profiles or dependences an argument keeps.
const MAX_RECORDS: usize = 16;

/// The models of every class whose objects were recorded, by binary name.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Models {
    /// One model per class.
    pub classes: BTreeMap<String, ClassModel>,
}

/// The call-sequence model of one class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassModel {
    /// The class (binary name).
    pub class: String,
    /// How many recorded objects it was built from.
    pub objects: usize,
    /// How many abstract states (node 0 is the root: not made yet).
    pub nodes: usize,
    /// The calls between states.
    pub edges: Vec<ModelEdge>,
}

impl ClassModel {
    /// The edges that leave `node`.
    pub fn edges_from(&self, node: usize) -> impl Iterator<Item = &ModelEdge> {
        self.edges.iter().filter(move |e| e.from == node)
    }
}

/// A call that takes an object of the model from state `from` to `to`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelEdge {
    /// The state before the call.
    pub from: usize,
    /// The state after it.
    pub to: usize,
    /// The method called.
    pub method: MethodKey,
    /// How often it was recorded.
    pub calls: usize,
    /// What each argument was, by position.
    pub args: Vec<ArgumentRecord>,
    /// For an edge from the root made by an instance method of another
    /// class: the states that receiver was in.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub receiver: Vec<Dependence>,
}

/// A recorded method.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct MethodKey {
    /// Its declaring class (binary name).
    pub class: String,
    /// Its name (`<init>` for constructors).
    pub name: String,
    /// Its JVM descriptor.
    pub descriptor: String,
    /// Whether it is static.
    pub is_static: bool,
}

impl MethodKey {
    fn of(m: &RecordedMethod) -> MethodKey {
        MethodKey {
            class: m.class.to_string(),
            name: m.name.clone(),
            descriptor: m.descriptor.clone(),
            is_static: m.is_static(),
        }
    }

    /// `name(params)` with simple parameter type names, `new C(params)`
    /// for a constructor, and `C.name(params)` for a method of a class
    /// other than `model_class` or a static one.
    pub fn short(&self, model_class: &str) -> String {
        let simple = |c: &str| c.rsplit(['.', '$']).next().unwrap_or(c).to_string();
        let params = model::descriptor::MethodDescriptor::parse(&self.descriptor)
            .map(|d| d.params.iter().map(|p| simple(&p.java_name())).collect::<Vec<_>>().join(", "))
            .unwrap_or_default();
        let name = if self.name == "<init>" {
            format!("new {}", simple(&self.class))
        } else if self.is_static || self.class != model_class {
            format!("{}.{}", simple(&self.class), self.name)
        } else {
            self.name.clone()
        };
        format!("{name}({params})")
    }
}

/// What one argument position of an edge was, over its recorded calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ArgumentRecord {
    /// Primitives, strings, enum constants and nulls (at most 16 distinct).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
    /// Abstract profiles of object arguments (at most 16 distinct).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<String>,
    /// States of object arguments in their own class's model.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dependences: Vec<Dependence>,
}

/// A state of a class's model: where an argument came from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Dependence {
    /// The class of the model (binary name).
    pub class: String,
    /// The node of that model.
    pub node: usize,
}

/// Where an object is in the prefix tree of its class.
#[derive(Debug, Clone, Copy)]
struct Position {
    class: usize,
    node: usize,
}

/// The prefix tree of one class: children by method id, the calls of each
/// tree edge, and how many histories end at each node.
#[derive(Default)]
struct Tree {
    children: Vec<BTreeMap<u32, usize>>,
    ends: Vec<usize>,
    calls: BTreeMap<(usize, u32), Vec<usize>>,
    objects: usize,
}

impl Tree {
    fn new() -> Tree {
        Tree { children: vec![BTreeMap::new()], ends: vec![0], ..Tree::default() }
    }

    fn step(&mut self, node: usize, method: u32, call: usize) -> usize {
        let next = self.children.len();
        let child = *self.children[node].entry(method).or_insert(next);
        if child == next {
            self.children.push(BTreeMap::new());
            self.ends.push(0);
        }
        self.calls.entry((node, method)).or_default().push(call);
        child
    }
}

/// Builds the models of the recorded calls; `k` is kTail's k (`None`: keep
/// the prefix tree). Calls that ended by an exception are left out;
/// bridge methods count as the method they call.
pub fn infer(methods: &[RecordedMethod], calls: &[Call], k: Option<usize>) -> Models {
    let by_id: HashMap<u32, &RecordedMethod> = methods.iter().map(|m| (m.id, m)).collect();
    let canonical = bridge_targets(methods);
    let method_of = |c: &Call| canonical.get(&c.method).copied().unwrap_or(c.method);
    let mut classes: Vec<String> = Vec::new();
    let mut trees: Vec<Tree> = Vec::new();
    let mut at: HashMap<ObjectId, Position> = HashMap::new();
    // where each object argument was when called, and where the receiver
    // was when the call made an object
    let mut arg_positions: HashMap<usize, (Vec<Option<Position>>, Option<Position>)> = HashMap::new();
    for (i, call) in calls.iter().enumerate().filter(|(_, c)| !c.threw) {
        let Some(m) = by_id.get(&method_of(call)) else { continue };
        let positions: Vec<Option<Position>> =
            call.args.iter().map(|a| object_id(a).and_then(|o| at.get(&o).copied())).collect();
        let on = call.receiver.filter(|_| !m.is_static() && !m.is_constructor());
        let receiver_at = on.and_then(|r| at.get(&r).copied());
        if let (Some(r), Some(p)) = (on, receiver_at) {
            let node = trees[p.class].step(p.node, method_of(call), i);
            at.insert(r, Position { class: p.class, node });
        }
        let made = if m.is_constructor() {
            call.receiver.map(|o| (o, m.class.to_string()))
        } else {
            match &call.result {
                Some(Value::Object(r)) if !at.contains_key(&r.id) && by_class(methods, &r.class) => {
                    Some((r.id, r.class.clone()))
                }
                _ => None,
            }
        };
        let mut maker = None;
        if let Some((object, class)) = made {
            maker = receiver_at;
            let c = classes.iter().position(|x| *x == class).unwrap_or_else(|| {
                classes.push(class);
                trees.push(Tree::new());
                classes.len() - 1
            });
            trees[c].objects += 1;
            let node = trees[c].step(0, method_of(call), i);
            at.insert(object, Position { class: c, node });
        }
        arg_positions.insert(i, (positions, maker));
    }
    for p in at.values() {
        trees[p.class].ends[p.node] += 1;
    }
    let merged: Vec<Vec<usize>> =
        trees.iter().map(|t| k.map_or_else(|| (0..t.children.len()).collect(), |k| ktail(t, k))).collect();
    let resolve =
        |p: &Option<Position>| p.map(|p| Dependence { class: classes[p.class].clone(), node: merged[p.class][p.node] });
    let mut models = Models::default();
    for (c, tree) in trees.iter().enumerate() {
        let mut edges: BTreeMap<(usize, u32, usize), ModelEdge> = BTreeMap::new();
        for (&(node, method), ids) in &tree.calls {
            let (from, to) = (merged[c][node], merged[c][tree.children[node][&method]]);
            let Some(m) = by_id.get(&method) else { continue };
            let edge = edges.entry((from, method, to)).or_insert_with(|| ModelEdge {
                from,
                to,
                method: MethodKey::of(m),
                calls: 0,
                args: Vec::new(),
                receiver: Vec::new(),
            });
            for &i in ids {
                let (positions, maker) = arg_positions.get(&i).map_or((&[][..], None), |(p, m)| (p.as_slice(), *m));
                add_call(edge, &calls[i], positions, &resolve);
                if let Some(d) = resolve(&maker).filter(|_| node == 0) {
                    push_new(&mut edge.receiver, d);
                }
            }
        }
        let nodes = merged[c].iter().copied().max().map_or(1, |m| m + 1);
        let edges: Vec<ModelEdge> = edges.into_values().collect();
        models
            .classes
            .insert(classes[c].clone(), ClassModel { class: classes[c].clone(), objects: tree.objects, nodes, edges });
    }
    models
}

/// Adds one recorded call to `edge`: its argument values, profiles and
/// dependences (`positions`: where each object argument was).
fn add_call(
    edge: &mut ModelEdge,
    call: &Call,
    positions: &[Option<Position>],
    resolve: &dyn Fn(&Option<Position>) -> Option<Dependence>,
) {
    edge.calls += 1;
    if edge.args.len() < call.args.len() {
        edge.args.resize_with(call.args.len(), ArgumentRecord::default);
    }
    for (j, a) in call.args.iter().enumerate() {
        let record = &mut edge.args[j];
        match a {
            Value::Object(o) => {
                push_new(&mut record.profiles, o.profile.clone());
                if let Some(d) = positions.get(j).and_then(resolve) {
                    push_new(&mut record.dependences, d);
                }
            }
            v => push_new(&mut record.values, v.clone()),
        }
    }
}

fn push_new<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if list.len() < MAX_RECORDS && !list.contains(&item) {
        list.push(item);
    }
}

fn object_id(v: &Value) -> Option<ObjectId> {
    match v {
        Value::Object(o) => Some(o.id),
        _ => None,
    }
}

/// Whether some recorded method belongs to `class` (a class whose objects get a model).
fn by_class(methods: &[RecordedMethod], class: &str) -> bool {
    methods.iter().any(|m| m.class.as_str() == class)
}

/// Each bridge method's id mapped to the id of the method of its class
/// with the same name and number of parameters that is not a bridge.
fn bridge_targets(methods: &[RecordedMethod]) -> HashMap<u32, u32> {
    let arity =
        |m: &RecordedMethod| model::descriptor::MethodDescriptor::parse(&m.descriptor).map_or(0, |d| d.params.len());
    methods
        .iter()
        .filter(|b| b.is_bridge())
        .filter_map(|b| {
            let target = methods
                .iter()
                .find(|m| !m.is_bridge() && m.class == b.class && m.name == b.name && arity(m) == arity(b))?;
            Some((b.id, target.id))
        })
        .collect()
}

/// kTail: the merged node of each tree node. Nodes with equal k-futures
/// share a merged node; merged nodes are numbered in tree order, so the
/// root stays 0.
fn ktail(tree: &Tree, k: usize) -> Vec<usize> {
    let n = tree.children.len();
    let mut futures: Vec<BTreeSet<Vec<u32>>> = vec![BTreeSet::new(); n];
    // the k-future of a node of depth d needs those of its children at k-1:
    // compute level by level, from length 0 up
    let mut previous: Vec<BTreeSet<Vec<u32>>> = (0..n).map(|_| BTreeSet::from([Vec::new()])).collect();
    for _ in 0..k {
        for (node, children) in tree.children.iter().enumerate() {
            let mut f = BTreeSet::new();
            if tree.ends[node] > 0 || children.is_empty() {
                f.insert(Vec::new());
            }
            for (&method, &child) in children {
                for tail in &previous[child] {
                    let mut seq = Vec::with_capacity(tail.len() + 1);
                    seq.push(method);
                    seq.extend(tail);
                    f.insert(seq);
                }
            }
            futures[node] = f;
        }
        previous = std::mem::take(&mut futures);
        futures = vec![BTreeSet::new(); n];
    }
    let mut ids: BTreeMap<&BTreeSet<Vec<u32>>, usize> = BTreeMap::new();
    let mut out = Vec::with_capacity(n);
    for f in &previous {
        let next = ids.len();
        out.push(*ids.entry(f).or_insert(next));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::parse;
    use model::names::BinaryName;

    fn method(id: u32, class: &str, name: &str, descriptor: &str, access: u16) -> RecordedMethod {
        RecordedMethod { id, class: BinaryName::new(class), name: name.into(), descriptor: descriptor.into(), access }
    }

    fn methods() -> Vec<RecordedMethod> {
        vec![
            method(0, "p.Driver", "<init>", "()V", 1),
            method(1, "p.Driver", "connect", "(Ljava/lang/String;)Lp/Conn;", 1),
            method(2, "p.Conn", "open", "()V", 1),
            method(3, "p.Conn", "read", "()I", 1),
            method(4, "p.Conn", "close", "()V", 1),
            method(5, "p.Stmt", "<init>", "(Lp/Conn;)V", 1),
        ]
    }

    /// Two tests: driver, connection opened, read `reads` times, closed.
    fn recording(reads: &[usize]) -> String {
        let mut text = String::new();
        for (t, &n) in reads.iter().enumerate() {
            text += &format!("J\nT\tp.T#t{t}\nE\t1\t3\t0\t-\nX\t1\t3\t0\t1\tv\n");
            text += "E\t1\t3\t1\t1\ts:db\nX\t1\t3\t1\t1\to:2:p.Conn:open=false\n";
            text += "E\t1\t3\t2\t2\nX\t1\t3\t2\t2\tv\n";
            for _ in 0..n {
                text += "E\t1\t3\t3\t2\nX\t1\t3\t3\t2\tI:7\n";
            }
            text += "E\t1\t3\t5\t-\to:2:p.Conn:open=true\nX\t1\t3\t5\t3\tv\n";
            text += "E\t1\t3\t4\t2\nX\t1\t3\t4\t2\tv\n";
        }
        text
    }

    #[test]
    fn histories_form_a_prefix_tree_with_dependences_and_profiles() {
        let models = infer(&methods(), &parse(&recording(&[1, 2])), None);
        let conn = &models.classes["p.Conn"];
        assert_eq!(conn.objects, 2);
        let root: Vec<&ModelEdge> = conn.edges_from(0).collect();
        assert_eq!(root.len(), 1);
        assert_eq!(root[0].method.name, "connect");
        assert_eq!(root[0].args[0].values, [Value::Str("db".into())]);
        assert_eq!(
            root[0].receiver,
            [Dependence { class: "p.Driver".into(), node: 1 }],
            "connect was called on a made driver"
        );
        // root -connect-> 1 -open-> 2 -read-> 3 -close-> 4, 3 -read-> 5 -close-> 6
        assert_eq!(conn.nodes, 7);
        let stmt = &models.classes["p.Stmt"].edges[0];
        assert_eq!(stmt.args[0].profiles, ["open=true"]);
        let nodes: Vec<usize> = stmt.args[0].dependences.iter().map(|d| d.node).collect();
        assert_eq!(nodes, [3, 5], "the connection was passed after its reads");
        assert!(nodes.iter().all(|&n| conn.edges_from(n).any(|e| e.method.name == "close")));
        let driver = &models.classes["p.Driver"];
        assert_eq!(driver.edges_from(1).map(|e| e.method.name.as_str()).collect::<Vec<_>>(), ["connect"]);
        assert!(driver.edges.iter().all(|e| e.receiver.is_empty()), "the driver's own edges have no maker");
        assert_eq!(root[0].method.short("p.Conn"), "Driver.connect(String)");
    }

    #[test]
    fn ktail_merges_states_with_equal_futures() {
        let calls = parse(&recording(&[1, 2, 3]));
        let tree = infer(&methods(), &calls, None);
        let merged = infer(&methods(), &calls, Some(1));
        let conn = &merged.classes["p.Conn"];
        assert!(conn.nodes < tree.classes["p.Conn"].nodes, "{conn:#?}");
        // with k = 1 every state after a read (future {read, close}) is one: reads loop
        let read = conn.edges.iter().filter(|e| e.method.name == "read").map(|e| (e.from, e.to)).collect::<Vec<_>>();
        assert!(read.iter().any(|(from, to)| from == to), "a read loop: {read:?}");
        let closes: BTreeSet<usize> = conn.edges.iter().filter(|e| e.method.name == "close").map(|e| e.to).collect();
        assert_eq!(closes.len(), 1, "all closed objects end in one state");
    }

    #[test]
    fn calls_that_threw_and_bridges_are_handled() {
        let mut ms = methods();
        ms.push(method(6, "p.Conn", "read", "()Ljava/lang/Object;", 0x41));
        let text = "J\nT\tp.T#a\nE\t1\t3\t0\t-\nX\t1\t3\t0\t1\tv\nE\t1\t3\t1\t1\ts:x\nX\t1\t3\t1\t1\to:2:p.Conn:\n\
            E\t1\t3\t6\t2\nX\t1\t3\t6\t2\tI:1\nE\t1\t3\t4\t2\nE\t1\t3\t2\t2\nX\t1\t3\t2\t2\tv\n";
        let models = infer(&ms, &parse(text), None);
        let names: Vec<&str> = models.classes["p.Conn"].edges.iter().map(|e| e.method.descriptor.as_str()).collect();
        assert_eq!(
            names,
            ["(Ljava/lang/String;)Lp/Conn;", "()I", "()V"],
            "bridge read counts as read()I; the close that threw is left out"
        );
    }
}
